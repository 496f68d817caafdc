# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

import pytest
from hypothesis import given, settings, strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _ks_section
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import (
    edit_kickstart,
    read_policies,
    render_section,
    section_regions,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import KickstartEditError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import NAMES, PRESETS, Policy
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import parse_release
from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz import strategies as fs

SEED = "pwpolicy root --minlen=8 --minquality=50 --strict --nochanges --emptyok"


def section(*lines, **kw):
    version = kw.get("version", "F33")
    head = "#version=%s\n" % version if version else ""
    return head + "%anaconda\n" + "".join(line + "\n" for line in lines) + "%end\n"


def pol(name="root", **fields):
    values = dict(minlen=6, minquality=1, strict=False, emptyok=True, changesok=False)
    values.update(fields)
    return Policy(name=name, **values)


# --- rendering -------------------------------------------------------------

def test_seed_line_byte_for_byte():
    policy = Policy(name="root", minlen=8, minquality=50, strict=True, emptyok=True, changesok=False)
    assert render_section([policy]) == "%anaconda\n" + SEED + "\n%end\n"
    # the command's data object writes the same line (anaconda's str())
    parsed = parse_kickstart(section(SEED))
    assert str(parsed.entries[0]) == SEED + "\n"


def test_seed_defaults_on_fedora_22():
    # On F22-F25 an omitted option meant 8/50/strict/nochanges/emptyok: the bare line is the seed policy.
    parsed = parse_kickstart(section("pwpolicy root", version="F22"))
    assert parsed.policies["root"].render() == SEED


def test_render_section_order_and_newline():
    text = render_section({"luks": {}, "root": {"minlen": 9}, "user": {}}, target="F33", newline="\r\n")
    assert text.split("\r\n") == [
        "%anaconda",
        "pwpolicy root --minlen=9 --minquality=1 --notstrict --nochanges --emptyok",
        "pwpolicy user --minlen=6 --minquality=1 --notstrict --nochanges --emptyok",
        "pwpolicy luks --minlen=6 --minquality=1 --notstrict --nochanges --emptyok",
        "%end", ""]


def test_render_section_product_preset():
    text = render_section(product="server", target="RHEL8")
    assert text.count("pwpolicy ") == 3
    for name in NAMES:
        assert Policy(name=name, **PRESETS["server"][name]).render() + "\n" in text


@pytest.mark.parametrize("target", ["F35", "F36", "RHEL10", "DEVEL"])
def test_render_section_refuses_removed_targets(target):
    with pytest.raises(KickstartEditError, match="password_policies.*anaconda_conf"):
        render_section({"root": {}}, target=target)


def test_render_section_needs_policies():
    with pytest.raises(KickstartEditError, match="no policies"):
        render_section({})


# --- parsing ---------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "pwpolicy root --minlen=10 --minquality=60 --strict --notempty --nochanges",
    "pwpolicy root --minlen 10 --minquality 60 --strict --notempty --nochanges",
    "pwpolicy --strict --minlen 10 root --nochanges --minquality=60 --notempty",
    "pwpolicy root --notstrict --minlen=10 --strict --minquality=60 --emptyok --notempty",
    "  pwpolicy   root\t--minlen=10 --minquality=60 --strict --notempty   # a comment",
    "pwpolicy root --minlen=10 --minquality=60 --strict --notempty --nochange",
])
def test_every_spelling(line):
    policies = read_policies(section(line), validate=False).policies
    assert policies == {"root": Policy(name="root", minlen=10, minquality=60, strict=True,
                                       emptyok=False, changesok=False)}


@pytest.mark.parametrize("target, expected", [
    ("F22", dict(minlen=8, minquality=50, strict=True, emptyok=True)),
    ("F25", dict(minlen=8, minquality=50, strict=True, emptyok=True)),
    ("F26", dict(minlen=6, minquality=1, strict=False, emptyok=True)),
    ("F28", dict(minlen=6, minquality=1, strict=False, emptyok=False)),
    ("F32", dict(minlen=6, minquality=1, strict=False, emptyok=False)),
    ("F33", dict(minlen=6, minquality=1, strict=False, emptyok=True)),
    ("RHEL7", dict(minlen=6, minquality=1, strict=False, emptyok=True)),
    ("RHEL8", dict(minlen=6, minquality=1, strict=False, emptyok=True)),
])
def test_omitted_options_mean_what_the_release_made_them(target, expected):
    policy = read_policies(section("pwpolicy user", version=None), target=target, validate=False).policies["user"]
    assert policy == Policy(name="user", changesok=False, **expected)


def test_real_line_numbers_with_comments_blank_lines_includes_and_several_sections():
    text = ("#version=F33\n"            # 1
            "lang en_US\n"              # 2
            "%anaconda\n"               # 3
            "# comment\n"               # 4
            "\n"                        # 5
            "%include /nonexistent/a\n"  # 6
            "%ksappend /nonexistent/b\n"  # 7
            "pwpolicy root\n"           # 8
            "%end\n"                    # 9
            "%packages\n"               # 10
            "@core\n"                   # 11
            "%end\n"                    # 12
            "%anaconda\n"               # 13
            "pwpolicy luks --minlen=9\n"  # 14
            "%end\n")                   # 15
    parsed = parse_kickstart(text)
    assert [(e.lineno, e.name) for e in parsed.entries] == [(8, "root"), (14, "luks")]
    assert [(s.header, s.end) for s in parsed.sections] == [(3, 9), (13, 15)]
    assert parsed.policies["luks"].minlen == 9


@pytest.mark.parametrize("line, message", [
    ("pwpolicy root --minlen=abc", r"kickstart line 3: argument --minlen: invalid int value: 'abc'"),
    ("pwpolicy root --minquality 1.5", r"kickstart line 3: argument --minquality: invalid int value"),
    ("pwpolicy root --minlen", r"kickstart line 3: argument --minlen: expected one argument"),
    ("pwpolicy root --noempty", r"kickstart line 3: unknown option '--noempty' for pwpolicy: valid options"),
    ("pwpolicy root --min=3", r"kickstart line 3: ambiguous option: --min"),
    ("pwpolicy", r"kickstart line 3: pwpolicy needs a policy name: one of root, user, luks"),
    ("pwpolicy --strict", r"kickstart line 3: pwpolicy needs a policy name"),
    ("pwpolicy root user", r"kickstart line 3: pwpolicy takes one policy name, got 'root', 'user'"),
    ("pwpolicy root 'unbalanced", r"kickstart line 3: cannot split the line into words"),
])
def test_errors_name_the_line(line, message):
    text = "#version=F30\n%anaconda\n" + line + "\n%end\n"
    with pytest.raises(KickstartEditError, match=message) as info:
        parse_kickstart(text)
    assert info.value.lineno == 3
    # the same errors stop an edit, with or without whole-file validation
    for validate in (True, False):
        with pytest.raises(KickstartEditError, match=message):
            edit_kickstart(text, {"root": {}}, validate=validate)


def test_other_commands_in_section_are_reported_and_kept():
    text = section("installclass --name=Server", "pwpolicy root", version="F29")
    parsed = parse_kickstart(text)
    assert any("line 3" in w and "'installclass'" in w for w in parsed.warnings)
    result = edit_kickstart(text, state="absent")
    # the section still has a command, so it stays
    assert result.text == "#version=F29\n%anaconda\ninstallclass --name=Server\n%end\n"
    assert any("installclass" in w for w in result.warnings)


def test_pykickstart_errors_elsewhere_have_line_numbers_and_no_secrets():
    text = "#version=F33\nlang en_US\nrootpw --plaintext hunter2secret extra\n"
    with pytest.raises(KickstartEditError) as info:
        parse_kickstart(text)
    assert info.value.lineno == 3
    assert "kickstart line 3" in str(info.value)
    assert "hunter2secret" not in str(info.value)


def test_unknown_command_and_section_fail_when_validating_only():
    text = "#version=F33\nbogus --x\n%weird\nstuff\n%end\n"
    with pytest.raises(KickstartEditError, match="line 2: Unknown command: bogus"):
        parse_kickstart(text)
    # Without validation only %anaconda sections are read: the rest is opaque text.
    parsed = parse_kickstart(text, validate=False)
    assert parsed.warnings == []
    result = edit_kickstart(text, {"root": {}}, validate=False)
    assert result.text.startswith(text)


def test_pwpolicy_outside_the_section():
    with pytest.raises(KickstartEditError, match="line 2: Unknown command: pwpolicy; pwpolicy is valid only inside"):
        edit_kickstart("#version=F33\npwpolicy root\n", {"root": {}})


def test_unterminated_section_is_an_error():
    with pytest.raises(KickstartEditError, match="line 3: Section %anaconda does not end with %end"):
        parse_kickstart("#version=F33\n%anaconda\npwpolicy root\n")


def test_target_from_version_line_and_missing():
    assert parse_kickstart("#version=RHEL8\n").release.name == "RHEL8"
    assert parse_kickstart("#version=RHEL8\n", target="F25").release.name == "F25"
    with pytest.raises(KickstartEditError, match="no #version= line: set target"):
        parse_kickstart("lang en_US\n")
    with pytest.raises(KickstartEditError, match="unknown target 'Fedora'.*from the kickstart's #version= line"):
        parse_kickstart("#version=Fedora\n")
    with pytest.raises(KickstartEditError, match="predates password policies"):
        edit_kickstart("", {"root": {}}, target="F21")


def test_text_must_be_text():
    with pytest.raises(KickstartEditError, match="must be text"):
        parse_kickstart(b"#version=F33\n")


# --- duplicates ------------------------------------------------------------

@pytest.mark.parametrize("target, winner, which", [
    ("F33", 10, "first"), ("RHEL8", 10, "first"), ("F34", 12, "last"), ("RHEL9", 12, "last"),
])
def test_duplicates_warn_and_name_the_winner(target, winner, which):
    text = "%anaconda\npwpolicy root --minlen=10\npwpolicy user\npwpolicy root --minlen=12\n%end\n"
    parsed = parse_kickstart(text, target=target)
    assert parsed.policies["root"].minlen == winner
    line = 2 if which == "first" else 4
    expected = ("pwpolicy root is given 2 times (kickstart lines 2, 4): the %s one, on line %d, is in effect for %s"
                % (which, line, target))
    if which == "last":  # Fedora 34 / RHEL 9 took changesok from the first line
        expected += ", except changesok, which %s takes from the first one, on line 2" % parse_release(target).label
    assert expected in parsed.warnings
    # writing that name collapses the duplicates to one line, where the winner was
    result = edit_kickstart(text, {"root": {"minlen": 20}}, target=target)
    lines = result.text.splitlines()
    assert [n for n, l in enumerate(lines) if l.startswith("pwpolicy root")] == [line - 1 if which == "first" else 2]
    assert result.policies["root"].minlen == 20


@pytest.mark.parametrize("count, shown", [
    (5, "kickstart lines 2, 3, 4, 5, 6"), (6, "kickstart lines 2, 3, 4, 5, 6 and 1 more"),
    (20000, "kickstart lines 2, 3, 4, 5, 6 and 19995 more"),
])
def test_a_duplicate_warning_names_a_few_lines_and_counts_the_rest(count, shown):
    text = "%anaconda\n" + "pwpolicy root --minlen=10\n" * count + "%end\n"
    warning = [w for w in parse_kickstart(text, target="F33").warnings if "is given" in w]
    assert warning == ["pwpolicy root is given %d times (%s): the first one, on line 2, is in effect for F33"
                       % (count, shown)]


# --- surgical edits --------------------------------------------------------

BASE = ("#version=F33\r\n"
        "# Kickstart for the lab\r\n"
        "lang en_US.UTF-8\r\n"
        "%include /tmp/part-include\r\n"
        "%ksappend /tmp/appended.ks\r\n"
        "rootpw --iscrypted $6$abc$def\r\n"
        "\r\n"
        "%anaconda\r\n"
        "# our policies\r\n"
        "  pwpolicy user --minlen 4   # weak on purpose\r\n"
        "%end\r\n"
        "%post\r\n"
        "echo done\r\n"
        "%end")


def test_replace_in_place_keeps_indent_comment_and_crlf():
    result = edit_kickstart(BASE, {"user": {"minlen": 10}})
    assert result.changed
    expected = BASE.replace(
        "  pwpolicy user --minlen 4   # weak on purpose\r\n",
        "  pwpolicy user --minlen=10 --minquality=1 --notstrict --nochanges --emptyok   # weak on purpose\r\n")
    assert result.text == expected
    assert result.previous["user"].minlen == 4
    assert result.policies["user"].minlen == 10


def test_insert_in_anaconda_order_into_existing_section():
    result = edit_kickstart(BASE, {"luks": {}, "root": {"minlen": 12}})
    lines = result.text.split("\r\n")
    start = lines.index("%anaconda")
    assert lines[start:start + 6] == [
        "%anaconda",
        "# our policies",
        "pwpolicy root --minlen=12 --minquality=1 --notstrict --nochanges --emptyok",
        "  pwpolicy user --minlen 4   # weak on purpose",
        "pwpolicy luks --minlen=6 --minquality=1 --notstrict --nochanges --emptyok",
        "%end"]
    assert result.text.endswith("echo done\r\n%end")  # still no final newline


def test_equivalent_line_is_left_alone():
    # "pwpolicy user --minlen 4" already means this policy on F33: no change
    result = edit_kickstart(BASE, {"user": {"minlen": 4}})
    assert not result.changed
    assert result.text == BASE


def test_append_section_when_missing():
    text = "#version=RHEL8\nlang en_US\n"
    result = edit_kickstart(text, {"root": {"minlen": 8, "minquality": 50, "strict": True}})
    assert result.text == text + "\n%anaconda\n" + SEED + "\n%end\n"
    # and removing it again restores the input
    assert edit_kickstart(result.text, state="absent").text == text


def test_append_when_no_final_newline_and_empty_file():
    text = "#version=F33\nlang en_US"
    result = edit_kickstart(text, {"root": {}})
    assert result.text.startswith(text + "\n\n%anaconda\n")
    assert edit_kickstart("", {"root": {}}, target="F33").text == \
        "%anaconda\npwpolicy root --minlen=6 --minquality=1 --notstrict --nochanges --emptyok\n%end\n"


def test_second_run_changes_nothing():
    first = edit_kickstart(BASE, {"root": {"minlen": 9}, "luks": {"strict": True}}, exclusive=True)
    second = edit_kickstart(first.text, {"root": {"minlen": 9}, "luks": {"strict": True}}, exclusive=True)
    assert first.changed and not second.changed
    assert second.text == first.text


def test_exclusive_drops_unnamed():
    result = edit_kickstart(BASE, {"root": {}}, exclusive=True)
    assert "pwpolicy user" not in result.text
    assert set(result.policies) == {"root"}
    assert "# our policies" in result.text


def test_absent_removes_names_and_empty_section():
    text = section("# keep?", "pwpolicy root", "pwpolicy user")
    partial = edit_kickstart(text, {"user": {}}, state="absent")
    assert partial.text == section("# keep?", "pwpolicy root")
    gone = edit_kickstart(partial.text, [{"name": "root"}], state="absent")
    assert gone.text == "#version=F33\n"
    assert gone.previous == {"root": read_policies(text, validate=False).policies["root"]} and gone.policies == {}


def test_absent_with_empty_policies_changes_nothing():
    result = edit_kickstart(BASE, {}, state="absent")
    assert not result.changed and result.policies == result.previous


def test_absent_with_product_removes_all_three():
    text = section("pwpolicy root", "pwpolicy user", "pwpolicy luks")
    assert edit_kickstart(text, product="cloud", state="absent").text == "#version=F33\n"


def test_product_preset_with_overrides():
    result = edit_kickstart("#version=F33\n", {"user": {"minlen": 10}}, product="workstation")
    assert result.policies["user"].minlen == 10
    assert result.policies["user"].strict is False
    assert result.policies["luks"].strict is True


@pytest.mark.parametrize("kwargs, message", [
    (dict(), "needs policies or product"),
    (dict(policies={}), "at least one policy"),
    (dict(policies={"admin": {}}), "unknown policy name 'admin'"),
    (dict(policies={"root": {"minlenght": 3}}), "unknown key 'minlenght': valid keys are"),
    (dict(policies={"root": {"minlen": "many"}}), "minlen must be a whole number"),
    (dict(policies="root"), "policies must be a dict keyed by policy name or a list"),
    (dict(policies={"root": {}}, product="desktop"), "unknown product 'desktop'"),
    (dict(policies={"root": {}}, state="gone"), "state must be present or absent"),
    (dict(policies={"admin": {}}, state="absent"), "unknown policy name 'admin'"),
])
def test_bad_input(kwargs, message):
    with pytest.raises(KickstartEditError, match=message):
        edit_kickstart("#version=F33\n", **kwargs)


# --- line boundaries -------------------------------------------------------
# pykickstart (so the installer) splits a kickstart with str.splitlines(): a
# vertical tab, form feed, \x1c-\x1e, NEL, U+2028 and U+2029 end a line too.

BREAKS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
# int() takes these as blanks around a number, so a line may end in one right after a value.
INT_BLANKS = ["\x0b", "\x0c", "\x85", "\u2028", "\u2029"]


def root_end(brk):
    """How root's line ends: right after its last value where the installer reads that, else after a comment."""
    return brk if brk in INT_BLANKS else " # root" + brk


def broken_kickstart(brk):
    """A kickstart with ``brk`` ending lines and in the middle of what an editor shows as one line."""
    return ("#version=F33\n"
            "# lab kickstart" + brk + "# second comment\n"            # mid-line, an other line
            "lang en_US.UTF-8 # locale" + brk +                      # line end, an other line
            brk +                                                    # a line that is only the break
            "%anaconda\n"
            "pwpolicy root --minlen=6 --minquality=1" + root_end(brk) +  # line end, a pwpolicy line
            "pwpolicy user --minlen=6 --minquality=1 --emptyok # user" + brk +
            "pwpolicy luks --minlen=6 --minquality=1 # luks" + brk + "# after luks\n"  # mid-line
            "%end\n")


@pytest.mark.parametrize("validate", [True, False])
@pytest.mark.parametrize("brk", BREAKS)
def test_line_breaks_of_the_installer_are_kept_byte_for_byte(brk, validate):
    text = broken_kickstart(brk)
    lines = text.splitlines(True)
    result = edit_kickstart(text, {"root": {"minlen": 10}, "luks": {"minlen": 20}}, validate=validate)
    new = result.text.splitlines(True)
    assert len(new) == len(lines)
    changed = [i for i, (old, now) in enumerate(zip(lines, new)) if old != now]
    assert changed == [6, 8]
    # after a value the break would glue to the last word ("--emptyok\x0c"): it goes after an empty comment
    assert new[6] == "pwpolicy root --minlen=10 --minquality=1 --notstrict --nochanges --emptyok" + \
        (" #" + brk if brk in INT_BLANKS else " # root" + brk)
    assert new[8] == "pwpolicy luks --minlen=20 --minquality=1 --notstrict --nochanges --emptyok # luks" + brk
    assert parse_kickstart(result.text).policies == result.policies
    assert result.policies["root"].minlen == 10 and result.policies["user"].minlen == 6
    assert not edit_kickstart(result.text, {"root": {"minlen": 10}, "luks": {"minlen": 20}}, validate=validate).changed
    removed = edit_kickstart(result.text, {"luks": {}}, state="absent", validate=validate)
    assert removed.text == "".join(new[:8] + new[9:])
    assert edit_kickstart(removed.text, {"luks": {"minlen": 20}}, validate=validate).text.splitlines(True)[:8] == new[:8]


@pytest.mark.parametrize("validate", [True, False])
@pytest.mark.parametrize("brk", BREAKS)
def test_line_numbers_count_the_breaks_the_installer_counts(brk, validate):
    text = "#version=F33\n# one" + brk + "# two\n%anaconda\npwpolicy root --bogus\n%end\n"
    with pytest.raises(KickstartEditError) as err:
        edit_kickstart(text, {"root": {}}, validate=validate)
    assert err.value.lineno == 5  # as pykickstart numbers it: "# one" and "# two" are two lines


@pytest.mark.parametrize("brk", BREAKS)
def test_a_section_after_a_last_line_ending_in_a_break_adds_no_blank_line(brk):
    text = "#version=F33\nlang en_US.UTF-8 # locale" + brk
    result = edit_kickstart(text, {"root": {}})
    assert result.text.startswith(text + "\n%anaconda\n")  # one blank line, as after "\n"
    assert edit_kickstart(result.text, state="absent").text == text


def test_an_edit_that_would_join_a_lone_cr_to_a_blank_line_is_refused():
    text = "#version=F33\r%anaconda\rpwpolicy root --minlen=6\rpwpolicy user --minlen=7 #\x0c\n%end\r"
    with pytest.raises(KickstartEditError, match="join two lines"):
        edit_kickstart(text, {"user": {}}, state="absent")


# --- release matrix --------------------------------------------------------

@pytest.mark.parametrize("target", ["F35", "F36", "F40", "RHEL10", "DEVEL"])
def test_removed_targets_refuse_present(target):
    with pytest.raises(KickstartEditError) as info:
        edit_kickstart("lang en_US\n", {"root": {}}, target=target)
    message = str(info.value)
    assert "removed" in message and "password_policies" in message
    assert "kickstart.pwpolicy.anaconda_conf" in message and "state=absent" in message


@pytest.mark.parametrize("target", ["F36", "RHEL10", "DEVEL"])
def test_removed_targets_allow_absent_and_validate_the_result(target):
    text = "lang en_US\n\n%anaconda\npwpolicy root\n%end\n"
    result = edit_kickstart(text, state="absent", target=target)
    assert result.text == "lang en_US\n"
    # keeping a section in the result is fatal for the installer, so validation refuses it
    kept = "lang en_US\n%anaconda\npwpolicy root\npwpolicy user\n%end\n"
    with pytest.raises(KickstartEditError, match="line 2: .*installer stop"):
        edit_kickstart(kept, {"user": {}}, state="absent", target=target)
    loose = edit_kickstart(kept, {"user": {}}, state="absent", target=target, validate=False)
    assert any("installer stop" in w for w in loose.warnings)


def test_fedora_35_keeping_a_section_warns():
    kept = "lang en_US\n%anaconda\npwpolicy root\npwpolicy user\n%end\n"
    result = edit_kickstart(kept, {"user": {}}, state="absent", target="F35")
    assert any("Fedora 35 removed the pwpolicy command" in w for w in result.warnings)


@pytest.mark.parametrize("target", ["F34", "RHEL9"])
def test_deprecated_targets_warn(target):
    result = edit_kickstart("lang en_US\n", {"root": {}}, target=target)
    assert result.changed
    assert any("deprecated" in w and "anaconda_conf" in w for w in result.warnings)


def test_new_fedora_beyond_pykickstart_falls_back_to_devel():
    result = edit_kickstart("%anaconda\npwpolicy root\n%end\n", state="absent", target="F99")
    assert result.text == ""


def test_release_unknown_to_pykickstart():
    with pytest.raises(KickstartEditError, match="does not know the release RHEL12: install a newer pykickstart"):
        edit_kickstart("", state="absent", target="RHEL12")


def test_missing_pykickstart_is_reported(monkeypatch):
    monkeypatch.setattr(_ks_section, "HAS_PYKICKSTART", False)
    with pytest.raises(_ks_section.MissingPykickstart):
        parse_kickstart("#version=F33\n")


def test_section_regions():
    parsed = parse_kickstart(BASE)
    assert section_regions(parsed) == \
        "%anaconda\r\n# our policies\r\n  pwpolicy user --minlen 4   # weak on purpose\r\n%end\r\n"


# --- properties ------------------------------------------------------------

policy_sets = fs.policy_lists()
targets = st.sampled_from(["F22", "F25", "F26", "F28", "F32", "F33", "F34", "RHEL7", "RHEL8", "RHEL9"])


@settings(max_examples=60, deadline=None)
@given(policy_sets, targets)
def test_parse_of_render_is_identity(policies, target):
    text = render_section(policies)
    parsed = parse_kickstart(text, target=target)
    assert sorted(parsed.policies.values(), key=lambda p: NAMES.index(p.name)) == \
        sorted(policies, key=lambda p: NAMES.index(p.name))


@settings(max_examples=60, deadline=None)
@given(policy_sets, targets)
def test_render_of_parse_is_identity_for_canonical_text(policies, target):
    canonical = render_section(policies)
    assert render_section(parse_kickstart(canonical, target=target).policies) == canonical


@settings(max_examples=40, deadline=None)
@given(policy_sets, policy_sets, st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_edit_then_remove_restores_input(before, after, newline, final_newline):
    head = newline.join(["#version=F33", "lang en_US", "# comment", "keyboard us"])
    text = head + (newline if final_newline else "")
    first = edit_kickstart(text, dict((p.name, p.to_dict()) for p in before))
    second = edit_kickstart(first.text, dict((p.name, p.to_dict()) for p in after))
    expected = dict((p.name, p) for p in before)
    expected.update((p.name, p) for p in after)
    assert second.policies == expected
    cleaned = edit_kickstart(second.text, state="absent").text
    assert cleaned == (text if final_newline else text + newline)


def test_read_policies_gives_policies_warnings_and_release():
    text = ("#version=RHEL9\n%anaconda\npwpolicy root --minlen=9\npwpolicy root --minlen=12\n"
            "pwpolicy luks --minlen=20 --strict\n%end\n")
    read = read_policies(text)
    assert read.release.name == "RHEL9"
    assert read.policies["root"].minlen == 12 and read.policies["luks"].strict is True
    assert set(read.policies) == {"root", "luks"}
    assert any("given 2 times" in w and "the last one, on line 4" in w for w in read.warnings)
    assert any("deprecated the %anaconda section" in w for w in read.warnings)


def test_read_policies_warns_where_the_installer_stops():
    read = read_policies("%anaconda\npwpolicy root --minlen=9\n%end\n", target="RHEL10", validate=False)
    assert any("makes the installer stop" in w for w in read.warnings)
