# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A ``%anaconda`` section is read as each installer release read it (tables over the release matrix).

Each table lists, per target, what that release's anaconda (on its era's
pykickstart) did with one spelling: the value it stored, a warning, or an error.
"""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import edit_kickstart, read_policies
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import KickstartEditError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import Policy
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy_read import ReadPolicy

# One target per row of the release matrix (docs/docsite/rst/release_matrix.rst).
MATRIX = ("F22", "F25", "F26", "F27", "F28", "F32", "F33", "RHEL7", "RHEL8", "F34", "RHEL9",
          "F35", "F36", "DEVEL", "RHEL10")
OPTPARSE = ("F22", "F25", "F26", "F27", "RHEL7")
APPLIED = ("F22", "F25", "F26", "F27", "F28", "F32", "F33", "RHEL7", "RHEL8", "F34", "RHEL9")
DBUS = ("F34", "RHEL9")
ERROR = "error"


def section(*lines):
    return "%anaconda\n" + "".join(line + "\n" for line in lines) + "%end\n"


def read(target, *lines):
    return parse_kickstart(section(*lines), target, validate=False)


def outcome(target, line, field="minlen"):
    """The value of ``field`` of root as ``target`` reads ``line``, or ERROR."""
    try:
        parsed = read(target, line)
    except KickstartEditError:
        return ERROR
    return getattr(parsed.policies["root"], field)


# --- 1. policy names --------------------------------------------------------

@pytest.mark.parametrize("target", MATRIX)
@pytest.mark.parametrize("name", ["admin", "Root", "'root user'", "''"])
def test_any_single_name_is_kept_with_a_warning_and_never_in_effect(target, name):
    parsed = read(target, "pwpolicy %s --minlen=9" % name, "pwpolicy root --minlen=10")
    shown = name.strip("'")
    assert set(parsed.policies) == (set() if target == "F35" else {"root"})
    assert [e.name for e in parsed.entries] == [shown, "root"]
    assert any("line 2: the installer ignores policy %r" % shown in w for w in parsed.warnings)


@pytest.mark.parametrize("target", APPLIED)
def test_exclusive_removes_ignored_names_and_writing_still_refuses_them(target):
    text = section("pwpolicy admin", "pwpolicy user")
    result = edit_kickstart(text, {"root": {"minlen": 9}}, target=target, exclusive=True)
    assert "admin" not in result.text and "pwpolicy user" not in result.text
    assert set(result.policies) == {"root"}
    kept = edit_kickstart(text, {"root": {"minlen": 9}}, target=target)
    assert "pwpolicy admin\n" in kept.text and kept.policies["user"] == kept.previous["user"]
    with pytest.raises(KickstartEditError, match="unknown policy name 'admin'"):
        edit_kickstart(text, {"admin": {}}, target=target)


# --- 2. values outside the model's ranges ------------------------------------

@pytest.mark.parametrize("line, field, value", [
    ("pwpolicy root --minlen=-1", "minlen", -1),
    ("pwpolicy root --minlen=2000", "minlen", 2000),
    ("pwpolicy root --minquality=101", "minquality", 101),
    ("pwpolicy root --minquality=-5", "minquality", -5),
    ("pwpolicy root --minlen=70000", "minlen", 70000),
])
@pytest.mark.parametrize("target", APPLIED)
def test_values_out_of_range_are_taken_as_given(target, line, field, value):
    fatal = target in DBUS and not 0 <= value <= 65535
    if fatal:
        with pytest.raises(KickstartEditError, match="line 2: .*D-Bus.*unsigned 16-bit"):
            read(target, line)
        return
    parsed = read(target, line)
    policy = parsed.policies["root"]
    assert isinstance(policy, ReadPolicy) and getattr(policy, field) == value
    assert any("line 2: pwpolicy root --%s=%d is outside" % (field, value) in w and "takes it as given" in w
               for w in parsed.warnings)


@pytest.mark.parametrize("target", DBUS)
def test_dbus_range_applies_to_ignored_names_too(target):
    with pytest.raises(KickstartEditError, match="line 2: .*stops"):
        read(target, "pwpolicy admin --minquality=-1")


@pytest.mark.parametrize("target", APPLIED)
def test_writing_keeps_the_ranges_and_replaces_an_out_of_range_line(target):
    text = section("pwpolicy root --minlen=2000")
    with pytest.raises(KickstartEditError, match="minlen must be a whole number from 0 to 1024"):
        edit_kickstart(text, {"root": {"minlen": 2000}}, target=target)
    result = edit_kickstart(text, {"root": {"minlen": 12}}, target=target)
    assert result.previous["root"].minlen == 2000 and result.policies["root"].minlen == 12
    assert isinstance(result.policies["root"], Policy) and not isinstance(result.policies["root"], ReadPolicy)
    assert not edit_kickstart(result.text, {"root": {"minlen": 12}}, target=target).changed


def test_read_policy_only_when_out_of_range():
    assert not isinstance(read("F30", "pwpolicy root --minlen=1024").policies["root"], ReadPolicy)
    assert isinstance(read("F30", "pwpolicy root --minlen=1025").policies["root"], ReadPolicy)


# --- 3. integer spellings and "--" ------------------------------------------

@pytest.mark.parametrize("spelling, optparse, argparse", [
    ("10", 10, 10),
    ("010", 8, 10),
    ("0x10", 16, ERROR),
    ("0X1a", 26, ERROR),
    ("0b11", 3, ERROR),
    ("08", ERROR, 8),
    ("0o10", 8, ERROR),
    ("+010", 10, 10),
    ("-010", -10, -10),
    ("abc", ERROR, ERROR),
])
@pytest.mark.parametrize("target", APPLIED)
def test_integer_spellings(target, spelling, optparse, argparse):
    expected = optparse if target in OPTPARSE else argparse
    if target in DBUS and expected != ERROR and expected < 0:
        expected = ERROR  # the D-Bus layer of Fedora 34 / RHEL 9 stops on a negative value
    assert outcome(target, "pwpolicy root --minlen=%s" % spelling) == expected


@pytest.mark.parametrize("target, expected", [
    ("F22", ERROR), ("F25", ERROR), ("RHEL7", ERROR),  # Python 2.7 / 3.4-3.5: no underscores in int()
    ("F26", 10), ("F27", 10), ("F28", 10), ("RHEL8", 10), ("F34", 10), ("RHEL9", 10),
])
def test_underscores_follow_the_installers_python(target, expected):
    assert outcome(target, "pwpolicy root --minlen=1_0") == expected


@pytest.mark.parametrize("target", APPLIED)
@pytest.mark.parametrize("line", ["pwpolicy --minlen=9 -- root", "pwpolicy -- root"])
def test_double_dash_before_the_name(target, line):
    if target in OPTPARSE:
        assert read(target, line).policies["root"].name == "root"
    else:
        with pytest.raises(KickstartEditError, match="unknown option '--'.*Fedora 27 and on RHEL 7 only"):
            read(target, line)


def test_after_double_dash_everything_is_a_name():
    with pytest.raises(KickstartEditError, match="one policy name, got 'root', '--minlen=9'"):
        read("F22", "pwpolicy -- root --minlen=9")


# --- 4. other commands inside %anaconda -------------------------------------

@pytest.mark.parametrize("target, expected", [
    ("F22", ERROR), ("F26", ERROR), ("F27", "accepts"), ("F28", "accepts"), ("F29", "accepts"),
    ("F30", ERROR), ("F33", ERROR), ("RHEL7", "accepts"), ("RHEL8", "RHEL 8.3 and later stop"),
    ("F34", ERROR), ("RHEL9", ERROR), ("F35", "does not read"), ("F36", "does not read"),
    ("RHEL10", "does not read"),
])
def test_installclass_in_the_section(target, expected):
    lines = ("installclass --name=Server", "pwpolicy root")
    if expected == ERROR:
        with pytest.raises(KickstartEditError) as info:
            read(target, *lines)
        message = str(info.value)
        assert message.startswith("kickstart line 2: 'installclass' inside %anaconda") and "Unknown command" in message
        assert "RHEL 7 and RHEL 8.0 to 8.2" in message and "remove the line" in message
        return
    parsed = read(target, *lines)
    assert [w for w in parsed.warnings if "line 2" in w and expected in w]


@pytest.mark.parametrize("target", APPLIED)
def test_any_other_command_stops_where_the_section_is_read(target):
    with pytest.raises(KickstartEditError, match="kickstart line 3: 'lang' inside %anaconda: .*Unknown command"):
        read(target, "pwpolicy root", "lang en_US")


@pytest.mark.parametrize("target", ["F35", "F36", "RHEL10"])
def test_other_commands_are_warnings_where_the_section_is_not_read(target):
    parsed = read(target, "pwpolicy root", "lang en_US")
    assert any("line 3: 'lang' inside %anaconda" in w for w in parsed.warnings)


# --- 5. Fedora 35 ignores the section's content ------------------------------

def test_fedora_35_has_no_policies_in_effect():
    read_result = read_policies(section("pwpolicy root --minlen=9", "pwpolicy user"), target="F35")
    assert read_result.policies == {}
    assert [e.name for e in read_result.parsed.entries] == ["root", "user"]


@pytest.mark.parametrize("line", [
    "pwpolicy", "pwpolicy root --bogus", "pwpolicy root --minlen=abc", "pwpolicy root user",
    "pwpolicy root 'unbalanced", "pwpolicy root --minlen=-1",
])
@pytest.mark.parametrize("target", MATRIX)
def test_malformed_content_is_an_error_except_on_fedora_35(target, line):
    if target != "F35":
        if line == "pwpolicy root --minlen=-1" and target not in DBUS:
            return  # taken as given there (see above)
        with pytest.raises(KickstartEditError, match="kickstart line 2"):
            read(target, line)
        return
    parsed = read(target, line)
    assert parsed.policies == {}
    if line != "pwpolicy root --minlen=-1":
        assert any(w.startswith("kickstart line 2: ") and "Fedora 35 ignores the content" in w for w in parsed.warnings)


def test_fedora_35_absent_still_removes_the_stale_section():
    result = edit_kickstart("lang en_US\n\n" + section("pwpolicy root", "pwpolicy admin"), state="absent",
                            target="F35")
    assert result.text == "lang en_US\n" and result.previous == {}


# --- 6. duplicates -----------------------------------------------------------

@pytest.mark.parametrize("target, minlen, changesok", [
    ("F22", 8, True), ("F27", 8, True), ("F33", 8, True), ("RHEL7", 8, True), ("RHEL8", 8, True),
    ("F34", 10, True), ("RHEL9", 10, True),  # changesok from the first, the rest from the last
])
def test_duplicates(target, minlen, changesok):
    parsed = read(target, "pwpolicy root --minlen=8 --changesok", "pwpolicy root --minlen=10 --nochanges")
    policy = parsed.policies["root"]
    assert (policy.minlen, policy.changesok) == (minlen, changesok)
    message = [w for w in parsed.warnings if "given 2 times" in w][0]
    assert ("except changesok" in message) is (target in DBUS)
    # writing the name collapses the lines to the one asked for
    result = edit_kickstart(section("pwpolicy root --minlen=8 --changesok", "pwpolicy root --minlen=10"),
                            {"root": {"minlen": 12, "changesok": False}}, target=target)
    assert result.policies["root"].changesok is False and result.text.count("pwpolicy root") == 1


@pytest.mark.parametrize("target", DBUS)
def test_duplicates_agreeing_on_changesok_are_just_the_last(target):
    parsed = read(target, "pwpolicy root --minlen=8", "pwpolicy root --minlen=10")
    assert parsed.policies["root"] is parsed.entries[1].policy


@pytest.mark.parametrize("target, spelling, hint", [
    ("F22", "08", True), ("RHEL7", "09", True), ("F22", "abc", False), ("F22", "''", False), ("F30", "abc", False),
])
def test_the_octal_hint_only_for_a_leading_zero(target, spelling, hint):
    with pytest.raises(KickstartEditError) as info:
        read(target, "pwpolicy root --minlen=%s" % spelling)
    assert ("read a leading 0 as octal" in str(info.value)) is hint


@pytest.mark.parametrize("target, expected", [
    ("F22", ERROR), ("RHEL7", ERROR),  # Python 2 read the option as bytes: only ASCII digits
    ("F23", 3), ("F27", 3), ("F30", 3), ("RHEL8", 3), ("RHEL9", 3),
])
def test_non_ascii_digits_follow_the_installers_python(target, expected):
    assert outcome(target, "pwpolicy root --minlen=\u0663") == expected
