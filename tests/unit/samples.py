# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sample inputs shared by the unit tests and benchmarks/bench.py: seeded passwords, tagged values."""

import random
import string


def passwords(count=2000, seed=20151):
    """``count`` passwords of four kinds (random, passphrase, word+digits, lowercase), the same for a seed."""
    rng = random.Random(seed)
    words = ["river", "otter", "maple", "lantern", "quartz", "falcon", "amber", "password", "summer", "dragon"]
    alphabet = string.ascii_letters + string.digits + "!#%&*+-=?@^_"
    result = []
    for index in range(count):
        kind = index % 4
        if kind == 0:
            result.append("".join(rng.choice(alphabet) for dummy in range(rng.randint(6, 24))))
        elif kind == 1:
            result.append("-".join(rng.choice(words) for dummy in range(rng.randint(2, 5))))
        elif kind == 2:
            result.append(rng.choice(words) + str(rng.randint(0, 9999)))
        else:
            result.append("".join(rng.choice(string.ascii_lowercase) for dummy in range(rng.randint(4, 12))))
    return result


def tagged(value):
    """``value`` as ansible-core 2.19 and later hand it over from YAML (``_AnsibleTaggedInt``...), else as it is."""
    try:
        from ansible.module_utils._internal._datatag import AnsibleTagHelper
        from ansible._internal._datatag._tags import Origin
    except ImportError:
        return value
    return AnsibleTagHelper.tag(value, [Origin(path="/inventory/host_vars/web01.yml", line_num=3)])
