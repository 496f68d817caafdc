# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The sections-only validation of an edit (``_ks_validate.parse_edited``) against full parses.

An edit of a validated kickstart is validated by parsing only its
``%anaconda`` sections; these tests hold that shortcut to the full parse's
verdict (oracles.check_revalidation): whenever it accepts, the full parse
accepts too and finds the same sections, policies and warnings.

* arbitrary line changes (strategies.line_changes) of validated kickstarts:
  mostly in and at the edges of the sections, with lines the module never
  writes (a stray ``%end``, ``%post``, a command, bad pwpolicy lines);
* the module's own edits (``edit_kickstart``) of validated kickstarts.

Seeds: the built-in kickstarts and a sample of the corpus, each with a
``%anaconda`` section added, kept when they pass the validating parse.
"""

from unittest import mock

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _ks_edit
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import edit_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import KickstartEditError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_validate import Splice, parse_edited
from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz import strategies as fs
from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz.oracles import check_message, check_revalidation

SECTION = "%anaconda\npwpolicy root --minlen=6 --notstrict  # site\n\npwpolicy user --emptyok\n%end\n"
ODD = (
    # pykickstart reads past "%end\xa0x"; the section's recorded end is that line.
    ("fake-end", "#version=F33\n%anaconda\npwpolicy root --minlen=6\n%end\u00a0x\n%end\n"),
    # check_bounds counts the lines after %include inside the section as commands.
    ("include", "#version=RHEL9\nlang en_US.UTF-8\n%anaconda\n%include /tmp/x.ks\n%end\n"),
    ("two", "#version=RHEL8\r\n%anaconda\r\npwpolicy luks --strict\r\n%end\r\n\r\n%anaconda\r\n"
            "pwpolicy luks --minlen=9\r\n%end\r\nreboot"),
    ("cr", "#version=F36\r%anaconda\rpwpolicy user --minlen=3\r%end\r"),
)


def _seeds():
    candidates = list(fs.BUILTIN_KICKSTARTS) + list(ODD)
    for name, text in fs.CORPUS[::4]:
        candidates.append((name, text))
        candidates.append((name + "+section", text + ("" if text.endswith("\n") else "\n") + SECTION))
    seeds = []
    for name, text in candidates:
        for target in ("RHEL9", "F30"):
            try:
                parse_kickstart(text, target)
            except KickstartEditError:
                continue
            seeds.append((name, target, text))
    return tuple(seeds)


SEEDS = _seeds()


def test_the_seeds_have_sections():
    """Enough seeds hold a section to edit (else the changes below would be mostly appends)."""
    with_sections = [seed for seed in SEEDS if "%anaconda" in seed[2]]
    assert len(with_sections) >= 8, [seed[0] for seed in SEEDS]


@given(data=st.data())
@fs.fuzz_settings(1.2)
def test_line_changes(data):
    name, target, text = data.draw(st.sampled_from(SEEDS), label="seed")
    note("seed %s for %s" % (name, target))
    parsed = parse_kickstart(text, target)
    replace, delete, insert = data.draw(fs.line_changes(parsed), label="changes")
    check_revalidation(parsed, Splice(parsed.lines, replace, delete, insert))


@given(data=st.data(), kwargs=fs.edit_args())
@fs.fuzz_settings(0.6)
def test_module_edits(data, kwargs):
    name, target, text = data.draw(st.sampled_from(SEEDS), label="seed")
    note("seed %s for %s" % (name, target))
    kwargs.update(target=target, validate=True)
    verdicts = []

    def both(parsed, splice):
        verdicts.append(check_revalidation(parsed, splice))
        return parse_edited(parsed, splice)

    with mock.patch.object(_ks_edit, "parse_edited", both):
        try:
            result = edit_kickstart(text, **kwargs)
        except KickstartEditError as exc:
            check_message(exc, "edit_kickstart")
            return
    assert len(verdicts) == (1 if result.changed else 0)


@pytest.mark.parametrize("name, text", ODD, ids=[seed[0] for seed in ODD])
def test_odd_sections_fall_back_or_agree(name, text):
    """Each odd seed, edited by the module, gives the same text with and without the shortcut."""
    kwargs = dict(policies={"root": {"minlen": 11}, "luks": {"minlen": 20}}, target="RHEL9")
    fast = edit_kickstart(text, **kwargs)
    with mock.patch.object(_ks_edit, "parse_edited", lambda parsed, splice: None):
        full = edit_kickstart(text, **kwargs)
    assert (fast.text, fast.policies) == (full.text, full.policies), name
