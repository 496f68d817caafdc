# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``kickstart_input_problems`` filter: a thin wrapper over module_utils._ks_content."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.errors import AnsibleFilterError
from ansible.module_utils.common.text.converters import to_text

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_content import (
    input_problems,
    secret_problems,
)

_KEYS = ("content", "users", "root_ssh_keys", "dest", "updates_image", "root_password", "luks_passphrase")


def _secret_text(value):
    """The text of a plain or vaulted secret; other types stay as they are (and are reported)."""
    if value is None or isinstance(value, (bool, int, float, list, tuple, dict)):
        return value
    return to_text(value, errors="surrogate_or_strict")


def kickstart_input_problems(inputs):
    """Every problem of the kickstart role's inputs, as ``[{label, reasons, hints}]`` (no value repeated)."""
    if not isinstance(inputs, dict):
        raise AnsibleFilterError("kickstart_input_problems: the input must be a dict with the keys %s"
                                 % ", ".join(_KEYS))
    unknown = sorted(str(key) for key in inputs if key not in _KEYS)
    if unknown:
        raise AnsibleFilterError("kickstart_input_problems: unknown keys %s; valid keys are %s"
                                 % (", ".join(unknown), ", ".join(_KEYS)))
    problems = input_problems(inputs.get("content"), inputs.get("users"), inputs.get("root_ssh_keys"),
                              inputs.get("dest"), inputs.get("updates_image"))
    problems.extend(secret_problems("kickstart_root_password", _secret_text(inputs.get("root_password"))))
    problems.extend(secret_problems("kickstart_luks_passphrase", _secret_text(inputs.get("luks_passphrase"))))
    users = inputs.get("users")
    for index, user in enumerate(users if isinstance(users, list) else []):
        if isinstance(user, dict):
            problems.extend(secret_problems("kickstart_users[%d].password" % index,
                                            _secret_text(user.get("password"))))
    return problems


class FilterModule(object):
    """Checks of the kickstart role's inputs."""

    def filters(self):
        return {"kickstart_input_problems": kickstart_input_problems}
