# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Edit every kickstart of anaconda's kickstart-tests corpus and check that only our lines change.

The corpus lives beside the checkout (``../shared/corpus/kickstart-tests``, or beside the main checkout of a
worktree);
the test is skipped when it is not there.
"""

import os

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import edit_kickstart, render_section
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import KickstartEditError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import corpus_dir

CORPUS = corpus_dir("kickstart-tests") or ""
# One release of each era that reads the section (old defaults, argparse quirk, fixed, deprecated).
TARGETS = ("F25", "F30", "RHEL8", "RHEL9")

ADD = {"root": {"minlen": 12, "strict": True}, "luks": {"minlen": 20}}
REPLACE = {"root": {"minlen": 14}, "user": {"emptyok": False}}
EXISTING = "%anaconda\n# site policy\npwpolicy user --minlen 3 --notempty\n%end\n"


def corpus_files():
    found = []
    if os.path.isdir(CORPUS):
        for directory, _dirs, names in os.walk(CORPUS):
            for name in names:
                if ".ks" in name:
                    found.append(os.path.join(directory, name))
    return sorted(found)


FILES = corpus_files()
pytestmark = pytest.mark.skipif(not FILES, reason="kickstart-tests corpus not found at %s" % CORPUS)


def without_policy_lines(text):
    return "".join(line for line in text.splitlines(True) if not line.lstrip().startswith("pwpolicy "))


def check_file(path, target):
    with open(path, "rb") as handle:
        text = handle.read().decode("utf-8")
    try:
        parse_kickstart(text, target=target)
    except KickstartEditError as exc:
        # pykickstart rejects it for this release: the edit must fail the same clean way.
        with pytest.raises(KickstartEditError) as info:
            edit_kickstart(text, ADD, target=target)
        assert str(info.value) == str(exc)
        assert "Traceback" not in str(exc)
        assert exc.lineno is not None and str(exc).startswith("kickstart line %d: " % exc.lineno), str(exc)
        return "rejected"

    # add: a new section appended at the end, nothing else touched
    added = edit_kickstart(text, ADD, target=target)
    separator = ""
    if text and not text.endswith("\n"):
        separator += "\n"
    if text:
        separator += "\n"
    assert added.text == text + separator + render_section(ADD, target=target)
    assert added.changed and set(added.policies) == {"root", "luks"}

    # replace in place and add user: only pwpolicy lines differ
    replaced = edit_kickstart(added.text, REPLACE, target=target)
    assert without_policy_lines(replaced.text) == without_policy_lines(added.text)
    assert replaced.policies["root"].minlen == 14 and replaced.policies["luks"].minlen == 20
    assert not edit_kickstart(replaced.text, REPLACE, target=target).changed

    # remove: back to the input (a missing final newline stays added)
    removed = edit_kickstart(replaced.text, state="absent", target=target)
    assert removed.text == text + ("\n" if text and not text.endswith("\n") else "")
    assert removed.policies == {}

    # an existing section at the top is edited in place
    seeded = EXISTING + text
    edited = edit_kickstart(seeded, REPLACE, target=target, exclusive=True)
    assert without_policy_lines(edited.text) == without_policy_lines(seeded)
    assert edited.text.startswith("%anaconda\n# site policy\npwpolicy root --minlen=14 ")
    assert set(edited.policies) == {"root", "user"}
    return "edited"


def test_corpus():
    # Each file is edited for one release, the releases taken in turn, to keep the run short.
    outcomes = {}
    for index, path in enumerate(FILES):
        for target in (TARGETS[index % len(TARGETS)],):
            outcome = check_file(path, target)
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
    # the corpus is mostly complete kickstarts that pykickstart accepts
    assert outcomes.get("edited", 0) > outcomes.get("rejected", 0) > 0
