# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

import configparser
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _anaconda_conf as ac
from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _anaconda_conf_parse as acp
from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _anaconda_conf_render as acr
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf import ConfError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import (
    NAMES,
    PRESETS,
    Policy,
    PolicyError,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz import strategies as fs

# anaconda.conf's shipped [User Interface] block (Fedora 34 to current, RHEL 9, RHEL 10).
SHIPPED = """\
[User Interface]
can_change_root = False
can_change_users = False
# Valid attributes: quality <NUMBER>, length <NUMBER>, empty, strict
password_policies =
    root (quality 1, length 6)
    user (quality 1, length 6, empty)
    luks (quality 1, length 6)
"""

SHIPPED_POLICIES = {
    "root": Policy("root", 6, 1, False, False, False),
    "user": Policy("user", 6, 1, False, True, False),
    "luks": Policy("luks", 6, 1, False, False, False),
}

CONF_TARGETS = ["F34", "F35", "F36", "F40", "F46", "DEVEL", "RHEL9", "RHEL10", "RHEL11"]


def conf_with(*policy_lines, **options):
    lines = ["[User Interface]"]
    for key, value in sorted(options.items()):
        lines.append("%s = %s" % (key, value))
    lines.append("password_policies =")
    lines.extend("    " + line for line in policy_lines)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# releases
# --------------------------------------------------------------------------

@pytest.mark.parametrize("target", CONF_TARGETS)
def test_conf_release_accepts_configuration_readers(target):
    assert ac.conf_release(target).reads_anaconda_conf


@pytest.mark.parametrize("target", ["F22", "F33", "RHEL7", "RHEL8"])
def test_conf_release_refuses_older_and_points_to_ks_pwpolicy(target):
    with pytest.raises(ConfError) as err:
        ac.conf_release(target)
    assert target in str(err.value)
    assert "kickstart.pwpolicy.ks_pwpolicy" in str(err.value)
    assert "Fedora 34 and RHEL 9" in str(err.value)


@pytest.mark.parametrize("target", ["F21", "nonsense", ""])
def test_conf_release_bad_names(target):
    with pytest.raises(ConfError):
        ac.conf_release(target)


def test_conf_release_default_is_newest():
    assert ac.conf_release(None).name == "DEVEL"


# --------------------------------------------------------------------------
# filling policies
# --------------------------------------------------------------------------

@pytest.mark.parametrize("target", CONF_TARGETS)
def test_no_input_gives_the_shipped_configuration(target):
    assert ac.conf_policies(target=target) == SHIPPED_POLICIES


@pytest.mark.parametrize("target", ["F34", "RHEL9"])
def test_deprecated_era_uses_configuration_defaults_not_kickstart_ones(target):
    # The kickstart meaning of an omitted empty flag there is "emptyok" for
    # every name; the configuration ships "empty" for user only.
    built = ac.conf_policies({"root": {"minlen": 9}}, target=target)
    assert built["root"] == Policy("root", 9, 1, False, False, False)
    assert built["luks"].emptyok is False
    assert built["user"].emptyok is True


def test_partial_user_policy_keeps_the_other_names():
    built = ac.conf_policies([{"name": "luks", "minlen": 20, "strict": "yes"}], target="RHEL10")
    assert list(built) == list(NAMES)
    assert built["luks"] == Policy("luks", 20, 1, True, False, False)
    assert built["root"] == SHIPPED_POLICIES["root"]


@pytest.mark.parametrize("product", sorted(PRESETS))
def test_product_preset_with_override(product):
    built = ac.conf_policies({"user": {"minlen": 30}}, product=product, target="F40")
    for name in NAMES:
        expected = dict(PRESETS[product][name])
        if name == "user":
            expected["minlen"] = 30
        assert built[name] == Policy(name=name, **expected)


@pytest.mark.parametrize("policies, product, message", [
    ({"admin": {}}, None, "unknown policy name"),
    ({"root": {"minlenn": 3}}, None, "unknown key 'minlenn'"),
    ({"root": {"minlen": 2000}}, None, "minlen must be a whole number from 0 to 1024"),
    (None, "desktop", "unknown product"),
])
def test_conf_policies_reports_bad_input(policies, product, message):
    with pytest.raises(PolicyError) as err:
        ac.conf_policies(policies, product=product, target="F40")
    assert message in str(err.value)


# --------------------------------------------------------------------------
# rendering
# --------------------------------------------------------------------------

def test_render_shipped_defaults_matches_anaconda_conf_lines():
    text, warnings = acr.render_conf(SHIPPED_POLICIES)
    assert warnings == []
    body = text.split("[User Interface]\n", 1)[1]
    expected = "\n".join(line for line in SHIPPED.splitlines()[1:] if not line.startswith("#")) + "\n"
    assert body == expected
    assert text.startswith("#")


def test_render_line_order_of_attributes():
    policy = Policy("root", 12, 40, True, True, False)
    assert acr.render_policy_line(policy) == "root (quality 40, length 12, strict, empty)"


def test_render_changes_flags_and_luks_warning():
    policies = dict(SHIPPED_POLICIES)
    policies["root"] = policies["root"].replace(changesok=True)
    policies["luks"] = policies["luks"].replace(changesok=True)
    text, warnings = acr.render_conf(policies)
    assert "can_change_root = True\n" in text
    assert "can_change_users = False\n" in text
    assert len(warnings) == 1 and "luks" in warnings[0] and "changesok" in warnings[0]


def test_render_is_in_anaconda_order_whatever_the_input_order():
    text = acr.render_conf([SHIPPED_POLICIES["luks"], SHIPPED_POLICIES["root"]])[0]
    assert text.index("    root (") < text.index("    luks (")
    assert "can_change_users" not in text


def test_render_errors():
    with pytest.raises(PolicyError):
        acr.render_conf([])
    with pytest.raises(PolicyError):
        acr.render_conf([SHIPPED_POLICIES["root"], SHIPPED_POLICIES["root"]])
    with pytest.raises(TypeError):
        acr.render_conf([{"name": "root"}])


@pytest.mark.parametrize("target", ["RHEL9\r[User Interface]", "F40\x0cx", "F40\u2028x", "F40\x00", 40])
def test_a_target_that_is_not_one_line_is_refused_not_written(target):
    # The target goes on a comment line of the drop-in: a line boundary there would start a line of settings.
    with pytest.raises(PolicyError, match="^target must be a release name on one line"):
        acr.render_conf(SHIPPED_POLICIES, target)


def test_render_records_its_target_after_the_header():
    text = acr.render_conf(SHIPPED_POLICIES, "RHEL10")[0]
    assert text.startswith(acr.HEADER + "# Written for installer release RHEL10.\n[User Interface]\n")
    assert acr.written_for(text) == "RHEL10"
    assert acr.written_for(text.replace("\n", "\r\n")) == "RHEL10"
    assert acr.written_for(acr.render_conf(SHIPPED_POLICIES)[0]) is None
    assert acr.render_conf(SHIPPED_POLICIES, "F40")[0].replace("# Written for installer release F40.\n", "") \
        == acr.render_conf(SHIPPED_POLICIES)[0]


@pytest.mark.parametrize("text", [
    "# Written for installer release RHEL10.\n",                       # not in the header: first line only
    "[User Interface]\n# Written for installer release RHEL10.\n",    # after the section starts
    "#\n#\n#\n# Written for installer release RHEL10.\n",            # past the header's lines
    "# Written for installer release hunter2.\n",                      # not a release
    "# Written for installer release .\n",
])
def test_written_for_reads_only_a_release_in_the_header(text):
    expected = "RHEL10" if text == "# Written for installer release RHEL10.\n" else None
    assert acr.written_for(text) == expected


def test_the_target_line_is_shown_and_a_lookalike_is_not():
    text = acr.render_conf(SHIPPED_POLICIES, "F42")[0]
    assert acp.policy_text_only(text, "F42") == text
    assert acp.policy_text_only("# Written for installer release s3cret.\n", "F42") == "<line 1 not shown>\n"


def test_rendered_text_is_valid_for_configparser_as_the_installer_reads_it():
    text = acr.render_conf(ac.conf_policies(product="server", target="RHEL10"))[0]
    parser = configparser.ConfigParser()
    parser.read_string(text)
    assert parser.getboolean("User Interface", "can_change_root") is False
    lines = parser.get("User Interface", "password_policies").strip().split("\n")
    assert [line.split()[0] for line in lines] == list(NAMES)


# --------------------------------------------------------------------------
# round trip (property tests)
# --------------------------------------------------------------------------

# luks without changesok: a drop-in cannot hold it (see test_luks_changesok_does_not_survive).
policy_sets = fs.policy_maps(luks_changesok=False)


@settings(max_examples=300, deadline=None)
@given(policies=policy_sets, target=st.sampled_from(CONF_TARGETS))
def test_round_trip(policies, target):
    text, warnings = acr.render_conf(policies)
    assert warnings == []
    parsed = acp.parse_conf(text, target)
    assert parsed.policies == policies
    assert parsed.warnings == []
    assert parsed.has_policies
    assert parsed.can_change_root == (policies["root"].changesok if "root" in policies else None)
    assert parsed.can_change_users == (policies["user"].changesok if "user" in policies else None)
    # rendering what was parsed gives the same text again
    assert acr.render_conf(parsed.policies)[0] == text


@settings(max_examples=100, deadline=None)
@given(policy=fs.policies(names=("luks",)))
def test_luks_changesok_does_not_survive(policy):
    text, warnings = acr.render_conf([policy])
    assert bool(warnings) == policy.changesok
    assert acp.parse_conf(text, "F40").policies["luks"] == policy.replace(changesok=False)


# Spellings the installer accepts for the same policy: any whitespace around
# name and items, any attribute order, empty items, with or without the
# parentheses, repeated attributes (the last one counts).
@st.composite
def spelled_line(draw):
    name = draw(st.sampled_from(NAMES))
    quality = draw(st.integers(0, 100))
    length = draw(st.integers(0, 1024))
    flags = draw(st.lists(st.sampled_from(["strict", "empty"]), unique=True))
    order = list(draw(st.permutations(["quality %d" % quality, "length %d" % length] + flags)))
    if draw(st.booleans()):
        # a repeated attribute, written first: the later value counts
        key = draw(st.sampled_from(["quality", "length"]))
        order.insert(0, "%s %d" % (key, draw(st.integers(0, 100))))
    space = st.sampled_from(["", " ", "  ", "\t"])
    sep = st.sampled_from([" ", "  ", "\t", " \t "])
    pieces = []
    for item in order:
        words = item.split()
        spelled = draw(space) + draw(sep).join(words) + draw(space)
        pieces.append(spelled)
        if draw(st.integers(0, 4)) == 0:
            pieces.append("")  # an empty item: ",,"
    body = ",".join(pieces)
    if draw(st.booleans()):
        body += ","
    if draw(st.booleans()):
        body = "(" + body + ")"
    line = draw(space) + name + draw(sep) + body + draw(space)
    attrs = {"quality": quality, "length": length}
    for flag in flags:
        attrs[flag] = True
    return line, name, attrs


@settings(max_examples=400, deadline=None)
@given(case=spelled_line())
def test_parse_accepts_every_spelling(case):
    line, name, attrs = case
    assert acp.parse_policy_line(line, 1) == (name, attrs)


@settings(max_examples=200, deadline=None)
@given(case=spelled_line())
def test_spelled_line_in_a_file(case):
    line, name, attrs = case
    text = "[User Interface]\npassword_policies =\n %s\n" % line
    policy = acp.parse_conf(text, "RHEL10").policies[name]
    assert (policy.minquality, policy.minlen) == (attrs["quality"], attrs["length"])
    assert policy.strict is ("strict" in attrs)
    assert policy.emptyok is ("empty" in attrs)


def test_a_later_item_replaces_an_earlier_one_before_checking():
    assert acp.parse_policy_line("root (quality, quality 5, length 6)") == ("root", {"quality": 5, "length": 6})
    assert acp.parse_policy_line("root (strict 1, strict, length 6, quality 1)") == (
        "root", {"strict": True, "length": 6, "quality": 1})
    with pytest.raises(ConfError) as err:
        acp.parse_policy_line("root (quality 5, quality, length 6)")
    assert "quality needs a number" in str(err.value)


def test_parse_the_shipped_block():
    parsed = acp.parse_conf(SHIPPED, "F40")
    assert parsed.policies == SHIPPED_POLICIES
    assert parsed.can_change_root is False and parsed.can_change_users is False


def test_parse_line_on_the_option_line_and_option_case():
    text = "[User Interface]\nPassword_Policies: root (quality 3, length 7, strict)\n"
    assert acp.parse_conf(text, "F40").policies == {"root": Policy("root", 7, 3, True, False, False)}


def test_parse_comments_inside_the_value_are_skipped():
    text = conf_with("root (quality 1, length 6)", "# a comment", "; another", "luks (quality 2, length 8)")
    assert list(acp.parse_conf(text, "F40").policies) == ["root", "luks"]


def test_parse_other_sections_and_options_are_left_alone():
    text = "[Storage]\nibft = True\n\n" + SHIPPED + "hidden_spokes = UserSpoke\n"
    assert acp.parse_conf(text, "F40").policies == SHIPPED_POLICIES


def test_parse_without_the_section_or_option():
    parsed = acp.parse_conf("[Storage]\nibft = True\n", "F40")
    assert (parsed.policies, parsed.has_policies, parsed.can_change_root) == ({}, False, None)
    parsed = acp.parse_conf("[User Interface]\ncan_change_root = yes\n", "F40")
    assert (parsed.policies, parsed.has_policies, parsed.can_change_root) == ({}, False, True)
    assert acp.parse_conf("", "F40").policies == {}


@pytest.mark.parametrize("word, value", [
    ("True", True), ("yes", True), ("on", True), ("1", True),
    ("False", False), ("NO", False), ("off", False), ("0", False),
])
def test_parse_change_flags(word, value):
    text = conf_with("root (quality 1, length 6)", "user (quality 1, length 6)",
                     can_change_root=word, can_change_users=word)
    parsed = acp.parse_conf(text, "F40")
    assert parsed.policies["root"].changesok is value
    assert parsed.policies["user"].changesok is value


def test_parse_duplicate_name_first_wins_with_warning():
    text = conf_with("root (quality 1, length 6)", "root (quality 90, length 20)")
    parsed = acp.parse_conf(text, "F40")
    assert parsed.policies["root"].minlen == 6
    assert len(parsed.warnings) == 1
    assert "line 4" in parsed.warnings[0] and "first" in parsed.warnings[0]


def test_parse_unknown_name_is_ignored_with_warning():
    text = conf_with("admin (quality 1, length 6)", "root (quality 1, length 6)")
    parsed = acp.parse_conf(text, "F40")
    assert list(parsed.policies) == ["root"]
    assert "line 3: the policy's name is not one the installer uses" in parsed.warnings[0]
    assert "admin" not in parsed.warnings[0]  # the file's text is never repeated


# --------------------------------------------------------------------------
# errors: what the installer rejects, we reject, naming the line
# --------------------------------------------------------------------------

@pytest.mark.parametrize("line, message", [
    ("", "has no name"),
    ("(empty)", "length is required"),
    ("user (quality)", "quality needs a number"),
    ("user (invalid 100)", "an attribute is not one the installer knows"),
    ("root (quality 1)", "length is required"),
    ("root (length 6)", "quality is required"),
    ("root (quality 1, length 6, strict 1)", "strict is a flag"),
    ("root (quality 1, length 6, empty yes)", "empty is a flag"),
    ("root (quality one, length 6)", "quality must be a whole number"),
    ("root (quality 1 2, length 6)", "quality must be a whole number"),
    ("root(quality 1, length 6)", "an attribute is not one the installer knows"),
    ("root (quality 1; length 6)", "quality must be a whole number"),
    ("root (class 2, quality 1, length 6)", "an attribute is not one the installer knows"),
])
def test_parse_policy_line_errors(line, message):
    with pytest.raises(ConfError) as err:
        acp.parse_policy_line(line, 7)
    assert message in str(err.value)
    assert str(err.value).startswith("line 7: ")


@pytest.mark.parametrize("lines, lineno, message", [
    (["root (quality 1, length 6)", "user (quality 1)"], 4, "length is required"),
    (["root (quality 1, length 6)", "user (quality 1, length 6, bogus)"], 4, "an attribute is not one the installer knows"),
])
def test_parse_conf_errors_name_the_line(lines, lineno, message):
    with pytest.raises(ConfError) as err:
        acp.parse_conf(conf_with(*lines), "F40", "90-x.conf")
    text = str(err.value)
    assert text.startswith("90-x.conf, line %d: " % lineno), text
    assert message in text


def test_blank_line_inside_the_value_is_an_empty_policy():
    text = "[User Interface]\npassword_policies =\n    root (quality 1, length 6)\n\n    luks (quality 1, length 6)\n"
    with pytest.raises(ConfError) as err:
        acp.parse_conf(text, "F40")
    assert "line 4" in str(err.value) and "no name" in str(err.value)


@pytest.mark.parametrize("text, message", [
    ("password_policies = root (quality 1, length 6)\n", "line 1: expected a section header such as [User Interface]"),
    ("[User Interface]\n[User Interface]\n", "line 2: expected each section once"),
    (conf_with("root (quality 1, length 6)") + "password_policies = x\n",
     "line 4: expected each option once in a section, and password_policies was given before"),
    ("[User Interface\nx = 1\n", "line 1: expected a section header"),
])
def test_parse_conf_ini_errors(text, message):
    with pytest.raises(ConfError) as err:
        acp.parse_conf(text, "F40", "drop.conf")
    assert "drop.conf" in str(err.value) and message in str(err.value)
    assert "\n" not in str(err.value)


def test_parse_conf_interpolation_error():
    with pytest.raises(ConfError) as err:
        acp.parse_conf(conf_with("root (quality 1, length 6) %(nothing)s"), "F40")
    assert "password_policies" in str(err.value)


def test_parse_conf_boolean_interpolation_error():
    with pytest.raises(ConfError) as err:
        acp.parse_conf("[User Interface]\ncan_change_root = %(x)s\n", "F40")
    assert "can_change_root" in str(err.value)


def test_parse_conf_bad_boolean_names_the_line():
    with pytest.raises(ConfError) as err:
        acp.parse_conf("[User Interface]\n\ncan_change_users = maybe\n", "F40", "x.conf")
    assert str(err.value).startswith("x.conf, line 3: can_change_users must be True or False")


def test_parse_conf_refuses_old_targets():
    with pytest.raises(ConfError):
        acp.parse_conf(SHIPPED, "RHEL8")


# --------------------------------------------------------------------------
# drop-in names
# --------------------------------------------------------------------------

def test_dropin_path_default():
    assert ac.dropin_path() == "etc/anaconda/conf.d/90-kickstart-pwpolicy.conf"
    assert ac.dropin_path("99-x.conf") == "etc/anaconda/conf.d/99-x.conf"


@pytest.mark.parametrize("name", ["", "x", "a/b.conf", "../x.conf", ".conf", "x.conf.bak", "x y.conf", None, 9])
def test_bad_conf_names(name):
    with pytest.raises(ConfError) as err:
        ac.check_conf_name(name)
    assert re.search(r"\*\.conf", str(err.value))


@settings(max_examples=500, deadline=None)
@given(line=fs.policy_line_texts())
def test_any_line_parses_or_fails_cleanly(line):
    try:
        name, attrs = acp.parse_policy_line(line, 2)
    except ConfError as exc:
        assert str(exc).startswith("line 2: ")
        return
    assert name and "length" in attrs and "quality" in attrs
    assert set(attrs) <= {"length", "quality", "strict", "empty"}
    assert all(attrs[key] is True for key in ("strict", "empty") if key in attrs)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=list("[]User Interfacpsword_olie=:\n rt(qualiy1,lengh6)#;%"), max_size=120))
def test_any_file_parses_or_fails_cleanly(text):
    try:
        parsed = acp.parse_conf(text, "F40")
    except ConfError as exc:
        assert str(exc)
        return
    assert set(parsed.policies) <= set(NAMES)


@pytest.mark.parametrize("name", ["90-x.conf\n", "90-x.conf\r", "90-x.conf\nmore", " 90-x.conf", "90-x.conf\0"])
def test_conf_names_match_as_a_whole(name):
    with pytest.raises(ConfError):
        ac.check_conf_name(name)


# --------------------------------------------------------------------------
# per target: what each release that reads the configuration accepts
# --------------------------------------------------------------------------

CONF_TARGETS = ("F34", "F35", "F37", "F38", "F40", "DEVEL", "RHEL9", "RHEL10")
SKIPS_BLANK = ("F38", "F40", "DEVEL", "RHEL10")  # anaconda 38.2 and later


@pytest.mark.parametrize("line", [
    "root (quality 1, length 6, )",
    "root (quality 1, , length 6)",
    "root ( , quality 1, length 6)",
    "root (quality 1,\tlength 6,  )",
])
@pytest.mark.parametrize("target", CONF_TARGETS)
def test_blank_attributes_follow_the_target(target, line):
    text = conf_with(line)
    if target in SKIPS_BLANK:
        assert acp.parse_conf(text, target).policies["root"].minlen == 6
        return
    with pytest.raises(ConfError) as err:
        acp.parse_conf(text, target, "x.conf")
    assert str(err.value).startswith("x.conf, line 3: ") and "remove the extra comma" in str(err.value)


@pytest.mark.parametrize("line", ["root (quality 1, length 6,)", "root (quality 1,, length 6)"])
@pytest.mark.parametrize("target", CONF_TARGETS)
def test_empty_attributes_were_always_skipped(target, line):
    assert acp.parse_conf(conf_with(line), target).policies["root"].minquality == 1


@pytest.mark.parametrize("line, field, value", [
    ("root (quality 1, length 2000)", "minlen", 2000),
    ("root (quality 101, length 6)", "minquality", 101),
    ("root (quality 1, length 65535)", "minlen", 65535),
])
@pytest.mark.parametrize("target", CONF_TARGETS)
def test_values_out_of_range_are_taken_as_given(target, line, field, value):
    parsed = acp.parse_conf(conf_with(line), target, "x.conf")
    assert getattr(parsed.policies["root"], field) == value
    assert any(w.startswith("x.conf, line 3: ") and "takes it as given" in w for w in parsed.warnings)


@pytest.mark.parametrize("line", ["root (quality -1, length 6)", "root (quality 1, length 65536)"])
@pytest.mark.parametrize("target", CONF_TARGETS)
def test_values_dbus_cannot_carry_stop_the_installer(target, line):
    with pytest.raises(ConfError) as err:
        acp.parse_conf(conf_with(line), target, "x.conf")
    assert str(err.value).startswith("x.conf, line 3: ") and "unsigned 16-bit" in str(err.value)


def test_values_of_lines_the_installer_never_uses_are_not_checked():
    parsed = acp.parse_conf(conf_with("admin (quality -1, length 6)", "root (quality 1, length 6)",
                                      "root (quality 1, length -6)"), "F40")
    assert parsed.policies["root"].minlen == 6


# --------------------------------------------------------------------------
# a file given by mistake: no error, warning or shown text repeats its content
# --------------------------------------------------------------------------

SECRET = "Zq7Secret"
KICKSTART = ("#version=RHEL9\n"
             "lang en_US.UTF-8\n"
             "rootpw --plaintext %s\n"
             "user --name=ops --password=%s:x\n" % (SECRET, SECRET))
# Each is refused, for the line the message names; the message holds no text of the file.
FOREIGN = [
    (KICKSTART, "line 2: expected a section header such as [User Interface]"),
    ("[User Interface]\n" + KICKSTART, "line 3 (and 1 more): expected a [section] header, 'option = value'"),
    ("[User Interface]\nuser --password=%s\nuser --password=%s\n" % (SECRET, SECRET), "line 3: expected each option once"),
    ("[%s]\n[%s]\n" % (SECRET, SECRET), "line 2: expected each section once"),
    ("[User Interface]\npassword_policies = %s\n" % SECRET, "line 2: length is required, e.g. 'root (quality"),
    ("[User Interface]\npassword_policies = root (quality %s, length 6)\n" % SECRET, "line 2: quality must be a whole"),
    ("[User Interface]\npassword_policies = root (quality 1, length 6, %s)\n" % SECRET, "line 2: an attribute is not"),
    ("[User Interface]\npassword_policies = root (quality 1, length 6, strict %s)\n" % SECRET, "line 2: strict is a flag"),
    ("[User Interface]\npassword_policies = root (quality 1, length 6, , %s)\n" % SECRET, "line 2: an attribute"),
    ("[User Interface]\ncan_change_root = %s\n" % SECRET, "line 2: can_change_root must be True or False"),
    ("[User Interface]\ncan_change_users = %%(%s)s\n" % SECRET, "line 2: can_change_users: the installer's configparser"),
    ("[User Interface]\npassword_policies = %%%s\n" % SECRET, "line 2: password_policies: the installer's configparser"),
]


@pytest.mark.parametrize("text, message", FOREIGN)
@pytest.mark.parametrize("target", ["F40", "RHEL9"])
def test_errors_about_a_file_name_the_line_never_its_text(text, message, target):
    with pytest.raises(ConfError) as err:
        acp.parse_conf(text, target, "/srv/ks/host.cfg")
    assert str(err.value).startswith("/srv/ks/host.cfg")
    assert message in str(err.value)
    assert SECRET not in str(err.value) and SECRET.lower() not in str(err.value).lower()


def test_warnings_about_a_file_name_the_line_never_its_text():
    text = conf_with("%s (quality 1, length 6)" % SECRET, "root (quality 1, length 6)",
                     "root (quality 2000, length 6)")
    parsed = acp.parse_conf(text, "F40", "x.conf")
    assert "x.conf, line 3: the policy's name is not one the installer uses" in parsed.warnings[0]
    assert not any(SECRET in warning for warning in parsed.warnings)


def test_a_kickstart_is_not_configuration_and_says_so():
    with pytest.raises(ac.NotConfError):
        acp.parse_conf(KICKSTART, "F40")
    with pytest.raises(ConfError) as err:
        acp.parse_conf("[User Interface]\npassword_policies = root (quality 1)\n", "F40")
    assert not isinstance(err.value, ac.NotConfError)  # a drop-in with a mistake in it


def test_what_is_shown_of_a_file_is_its_policy_text_only():
    ours = acr.render_conf(ac.conf_policies(product="server", target="F40"))[0]
    assert acp.policy_text_only(ours, "F40") == ours  # what this collection writes, all of it
    text = ("# %s\n"
            "[client]\n"
            "password = %s\n"
            "\n"
            "[User Interface]\r\n"
            "can_change_root = yes\n"
            "can_change_users = %s\n"
            "hidden_spokes = %s\n"
            "password_policies = root (quality 1, length 6)\n"
            "    %s (quality 1, length 6)\n"
            "    ; %s\n"
            "    user (quality 1, length 6, %s)\n"
            "    luks (quality 1, length 8, strict)\x0c"
            "    %s" % ((SECRET,) * 8))
    assert acp.policy_text_only(text, "F40") == (
        "<line 1 not shown>\n"
        "<line 2 not shown>\n"
        "<line 3 not shown>\n"
        "\n"
        "[User Interface]\r\n"
        "can_change_root = yes\n"
        "<line 7 not shown>\n"
        "<line 8 not shown>\n"
        "password_policies = root (quality 1, length 6)\n"
        "<line 10 not shown>\n"
        "<line 11 not shown>\n"
        "<line 12 not shown>\n"
        "    luks (quality 1, length 8, strict)\x0c"
        "<line 14 not shown>")
    assert acp.policy_text_only(KICKSTART, "F40") == "".join("<line %d not shown>\n" % n for n in range(1, 5))


@settings(max_examples=300, deadline=None)
@given(line=fs.policy_line_texts(), at=st.integers(min_value=0, max_value=200))
def test_no_message_about_a_policy_line_repeats_it(line, at):
    line = line[:at] + "ZqX" + line[at:]  # anywhere: in a name, an attribute, a number, a separator
    try:
        parsed = acp.parse_conf(conf_with(line, "root (quality 1, length 6)"), "F40", "x.conf")
    except ConfError as exc:
        assert "ZqX" not in str(exc) and "x.conf, line " in str(exc)
        return
    assert not any("ZqX" in warning for warning in parsed.warnings)
