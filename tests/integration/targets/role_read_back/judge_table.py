# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Usage: judge_table.py KICKSTART PROFILE TARGET

The kickstart the role wrote for PROFILE and TARGET, read back by the judge:
it must have no deviation; then each line the profile needs is removed in
turn (the boot-loader line, the encryption, each drop-in setting, each
login.defs line) and the judge must name a rule of the profile for it.
Prints one JSON object (rule ids and what was removed, never a line of the
kickstart) and exits 1 when anything is not as it should be.
"""

import json
import os
import re
import sys


def _collections_root():
    """The directory that holds ansible_collections/, above this file (the collection ansible-test runs)."""
    path = os.path.dirname(os.path.abspath(__file__))
    while os.path.basename(path) != "ansible_collections" and os.path.dirname(path) != path:
        path = os.path.dirname(path)
    return os.path.dirname(path)


sys.path.insert(0, _collections_root())

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _profiles  # noqa: E402
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.judge import (  # noqa: E402
    PWQUALITY_DEFAULTS,
    judge,
    meets,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.kickstart import read_kickstart  # noqa: E402


def rules_of(text, profile, target):
    found = judge(read_kickstart(text, target), [profile], target, skip=("policies",))
    return found, sorted(set(rule for d in found["deviations"] for rule in d["rules"]))


def removals(text, profile, target):
    """``(what, the text without it, the rule ids that ask for it)`` for each line the profile needs."""
    data = _profiles.profile(profile, target)
    lines = text.splitlines(True)
    cases = []

    def drop(what, pattern, keys, edit=None):
        kept = [line if edit is None or not re.search(pattern, line) else edit(line) for line in lines] \
            if edit else [line for line in lines if not re.search(pattern, line)]
        if kept != lines:
            cases.append((what, "".join(kept), _profiles.rule_list(profile, target, *keys)))
        else:
            cases.append((what, None, []))
    if data["bootloader_password"]:
        drop("the bootloader line", r"^bootloader ", ("bootloader_password",))
    if data["encryption"]:
        drop("--encrypted", r"--encrypted", ("encryption",), lambda line: line.replace("--encrypted", ""))
    for key, value in data["pwquality"].items():
        if meets(key, PWQUALITY_DEFAULTS.get(key), value):
            continue  # libpwquality's default meets it: removing the line breaks nothing
        drop("drop-in %s" % key, r"^%s( = |$)" % key, (key,))
    if data["hashing"]["min_rounds"]:
        key = "SHA_CRYPT_MIN_ROUNDS" if "SHA_CRYPT_MIN_ROUNDS" in text else "YESCRYPT_COST_FACTOR"
        drop(key, r"^%s " % key, ("min_rounds",))
    return cases


def main():
    path, profile, target = sys.argv[1:4]
    with open(path) as handle:
        text = handle.read()
    report = {"profile": profile, "target": target, "problems": [], "removed": []}
    found, rules = rules_of(text, profile, target)
    if found["deviations"] or found["not_checked"]:
        report["problems"].append("the role's own output deviates: %s" % rules)
    for what, changed, asked in removals(text, profile, target):
        if changed is None:
            report["problems"].append("%s: not in the role's output" % what)
            continue
        named = rules_of(changed, profile, target)[1]
        report["removed"].append({"what": what, "named": named})
        if not set(asked) & set(named):
            report["problems"].append("%s removed: the judge named %s, not one of %s" % (what, named, asked))
    print(json.dumps(report, sort_keys=True))
    return 1 if report["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
