# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The sections-only validation of an edit (_ks_validate): when it answers, and that it answers as a full parse.

tests/unit/fuzz/test_fuzz_revalidate.py holds it to full parses over
generated changes; here are the cases that must take it, the cases that
must fall back to the full parse, and every corpus kickstart.
"""

import os
from unittest import mock

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _ks_edit
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import edit_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import KickstartEditError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_validate import Splice, parse_edited
from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz.oracles import check_revalidation

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "kickstart-tests")

BASE = ("#version=RHEL9\nlang en_US.UTF-8\n%post\necho hi\n%end\n\n"
        "%anaconda\npwpolicy root --minlen=6  # site\npwpolicy user --emptyok\n%end\nreboot\n")


class Spy(object):
    """Stands in for parse_edited in _ks_edit; records and checks each verdict against a full parse."""

    def __init__(self):
        self.verdicts = []

    def __call__(self, parsed, splice):
        self.verdicts.append(check_revalidation(parsed, splice))
        return parse_edited(parsed, splice)


def edit(text, **kwargs):
    spy = Spy()
    with mock.patch.object(_ks_edit, "parse_edited", spy):
        result = edit_kickstart(text, **kwargs)
    return result, spy.verdicts


@pytest.mark.parametrize("kwargs", [
    dict(policies={"root": {"minlen": 12}}),                       # a line replaced
    dict(policies={"luks": {"minlen": 20}}),                       # a line inserted
    dict(product="server", exclusive=True),                        # replaced, inserted, deleted
    dict(policies={"user": {}}, state="absent"),                   # a line deleted
    dict(state="absent"),                                          # the section (and the blank before) go
], ids=["replace", "insert", "exclusive", "delete", "remove-section"])
def test_module_edits_take_the_sections_only_validation(kwargs):
    result, verdicts = edit(BASE, target="RHEL9", **kwargs)
    assert result.changed and verdicts == ["sections"]


def test_a_new_section_at_the_end_takes_it():
    result, verdicts = edit("#version=F33\nlang en_US.UTF-8\n", product="workstation")
    assert result.text.endswith("%end\n") and verdicts == ["sections"]


def test_line_numbers_are_the_new_texts():
    result, dummy = edit(BASE, target="RHEL9", policies={"luks": {"minlen": 20}, "root": {"minlen": 9}})
    full = parse_kickstart(result.text, "RHEL9")
    assert [e.lineno for e in result.parsed_after.entries] == [e.lineno for e in full.entries] == [8, 9, 10]
    assert (result.parsed_after.sections[0].header, result.parsed_after.sections[0].end) == (7, 11)


def test_pykickstart_warnings_below_the_edit_are_reported_once():
    text = "#version=F33\n%anaconda\npwpolicy root --minlen=6\n%end\nlang en_US\nbootloader --upgrade\n"
    result, verdicts = edit(text, policies={"luks": {"minlen": 20}})
    deprecated = [w for w in result.warnings if "deprecated option" in w]
    assert verdicts == ["sections"] and len(deprecated) == 1 and "on line 6:" in deprecated[0], result.warnings


@pytest.mark.parametrize("text, why", [
    ("#version=RHEL9\nlang en_US.UTF-8", "the last line has no line ending: appending joins it to the new line"),
    ("#version=F33\n%anaconda\n%include /tmp/x.ks\n%end\n", "check_bounds counts lines after %include as commands"),
    ("#version=F33\n%anaconda\npwpolicy root --minlen=6\n%end\u00a0x\n%end\n",
     "the recorded end is a line pykickstart reads past"),
])
def test_cases_without_proof_fall_back_to_the_full_parse(text, why):
    result, verdicts = edit(text, target="F33", policies={"root": {"minlen": 11}, "luks": {"minlen": 20}})
    assert verdicts == ["full"], why
    with mock.patch.object(_ks_edit, "parse_edited", lambda parsed, splice: None):
        assert edit_kickstart(text, target="F33", policies={"root": {"minlen": 11}, "luks": {"minlen": 20}}).text \
            == result.text


def test_validate_false_always_parses_it_all():
    result, verdicts = edit(BASE.replace("lang en_US.UTF-8", "<%= @lang %>"), target="RHEL9",
                            policies={"root": {"minlen": 12}}, validate=False)
    assert result.changed and verdicts == []


def _splice(text, target="RHEL9", **changes):
    parsed = parse_kickstart(text, target)
    return parsed, Splice(parsed.lines, changes.get("replace", {}), changes.get("delete", set()),
                          changes.get("insert", {}))


@pytest.mark.parametrize("changes", [
    dict(replace={6: "%anaconda --x\n"}),                 # the header
    dict(delete={9}),                                      # the %end
    dict(insert={6: ["pwpolicy luks\n"]}),                 # before the header
    dict(insert={11: ["reboot\n"]}),                       # after the %end
    dict(replace={1: "lang de_DE.UTF-8\n"}),               # a command
    dict(delete={3}),                                      # a script line
    dict(delete={5}),                                      # a blank line, the section stays
], ids=["header", "end", "before-header", "after-end", "command", "script", "blank"])
def test_changes_outside_the_sections_have_no_proof(changes):
    parsed, splice = _splice(BASE, **changes)
    assert parse_edited(parsed, splice) is None


@pytest.mark.parametrize("line", ["%end\n", "%post\n", "pwpolicy root --minlen=ten\n", "pwpolicy root --x\n", "%anaconda\n",
                                  "pwpolicy 'root\n"])
def test_lines_the_full_parse_rejects_are_rejected(line):
    parsed, splice = _splice(BASE, insert={8: [line]})
    assert parse_edited(parsed, splice) is None
    with pytest.raises(KickstartEditError):
        parse_kickstart(splice.text, "RHEL9")


@pytest.mark.parametrize("target", ["RHEL9", "F35", "F27"])
def test_lines_the_installer_ignores_read_as_a_full_parse_reads_them(target):
    """An unknown policy name (kept with a warning) and an F35 section read the same both ways."""
    text = BASE.replace("#version=RHEL9", "#version=" + target)
    parsed, splice = _splice(text, target, insert={8: ["pwpolicy admin --minlen=3\n"]})
    assert check_revalidation(parsed, splice) in ("sections", "full")
    assert any("admin" in w for w in parse_kickstart(splice.text, target).warnings)


@pytest.mark.parametrize("changes", [
    dict(insert={8: ["%end\n", "%post\n"]}),             # the section ends early; a script runs to its %end
    dict(insert={11: ["\n%anaconda\n%end\n%post\n%end\n"]}),  # an appended section and a script
    dict(insert={11: ["\n%anaconda\n%end\n# done\n"]}),   # an appended section not ending on %end
], ids=["script-inside", "script-appended", "appended-tail"])
def test_windows_that_are_not_one_section_have_no_proof(changes):
    """The full parse accepts these; the shortcut must not, as its proof needs one section a window."""
    parsed, splice = _splice(BASE, **changes)
    assert parse_edited(parsed, splice) is None
    parse_kickstart(splice.text, "RHEL9")


def test_a_window_over_the_bounds_falls_back_to_the_full_parse_and_its_message():
    text = "#version=F33\n%anaconda\n%include /tmp/x.ks\n%end\n"
    parsed, splice = _splice(text, "F33", insert={3: ["pwpolicy root\n"] * 2001})
    assert parse_edited(parsed, splice) is None
    with pytest.raises(KickstartEditError, match="kickstart line 2004: the kickstart has more than 2000 command"):
        parse_kickstart(splice.text, "F33")


def test_splice_keeps_every_other_line_and_maps_them():
    lines = ["a\n", "b\n", "c\n", "d\n"]
    splice = Splice(lines, {1: "B\n"}, {2}, {3: ["x\ny\n"], 4: ["z\n"]})
    assert splice.lines == ["a\n", "B\n", "x\n", "y\n", "d\n", "z\n"] and splice.text == "".join(splice.lines)
    assert [splice.new_index(i) for i in (0, 1, 3)] == [0, 1, 4]


def _corpus():
    found = []
    if os.path.isdir(CORPUS):
        for directory, _dirs, names in os.walk(CORPUS):
            found.extend(os.path.join(directory, name) for name in names if ".ks" in name)
    return sorted(found)


@pytest.mark.skipif(not _corpus(), reason="kickstart-tests corpus not found at %s" % CORPUS)
def test_corpus_edits_agree_with_full_parses():
    """Add, exclusive and remove on every third corpus kickstart pykickstart accepts for RHEL9."""
    counts = {"sections": 0, "full": 0}
    for path in _corpus()[::3]:
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8", "surrogateescape")
        try:
            parse_kickstart(text, "RHEL9")
        except KickstartEditError:
            continue
        for kwargs in (dict(product="server"), dict(policies={"user": {"emptyok": False}}, exclusive=True),
                       dict(state="absent")):
            result, verdicts = edit(text, target="RHEL9", **kwargs)
            for verdict in verdicts:
                counts[verdict] += 1
            text = result.text
    # Every corpus edit has its proof today (a file without a final line ending would not: its
    # append joins two lines); a few may fall back, most must not.
    assert counts["sections"] > 50 and counts["full"] < counts["sections"] / 10, counts
