# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

import pytest
from hypothesis import given

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _policy as pm
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import (
    Policy,
    PolicyError,
    build_policies,
    normalize_policies,
    policy_from,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz import strategies as fs

SEED_LINE = "pwpolicy root --minlen=8 --minquality=50 --strict --nochanges --emptyok"


# --- rendering -------------------------------------------------------------

def test_render_matches_anaconda_format_byte_for_byte():
    assert Policy("root", 8, 50, True, True, False).render() == SEED_LINE


@pytest.mark.parametrize("strict, changesok, emptyok, flags", [
    (True, True, True, "--strict --changesok --emptyok"),
    (False, False, False, "--notstrict --nochanges --notempty"),
    (False, True, False, "--notstrict --changesok --notempty"),
])
def test_render_always_writes_every_flag_in_fixed_order(strict, changesok, emptyok, flags):
    line = Policy("luks", 0, 100, strict, emptyok, changesok).render()
    assert line == "pwpolicy luks --minlen=0 --minquality=100 " + flags


def test_policy_is_immutable_and_equal_by_value():
    policy = Policy("root", "8", 50, "yes", True, False)
    assert policy.minlen == 8 and policy.strict is True
    with pytest.raises(AttributeError):
        policy.minlen = 9
    same = Policy(name="root", minlen=8, minquality=50, strict=True, emptyok=True, changesok=False)
    assert policy == same and hash(policy) == hash(same) and len({policy, same}) == 1
    assert policy != policy.replace(minlen=9)
    assert policy.to_dict() == dict(name="root", minlen=8, minquality=50, strict=True, emptyok=True,
                                    changesok=False)
    assert repr(policy).startswith("Policy(name='root', minlen=8,")


def test_replace_validates_like_the_constructor():
    policy = Policy("user", 6, 1, False, True, False)
    assert policy.replace(minlen="12").minlen == 12
    with pytest.raises(PolicyError, match="minlen must be a whole number"):
        policy.replace(minlen=2000)
    with pytest.raises(PolicyError, match="unknown policy name"):
        policy.replace(name="admin")


@given(fs.policies())
def test_render_is_parseable_back_into_the_same_fields(policy):
    words = policy.render().split()
    assert words[:2] == ["pwpolicy", policy.name]
    assert words[2] == "--minlen=%d" % policy.minlen
    assert words[3] == "--minquality=%d" % policy.minquality
    # Written out here, not taken from the module: anaconda's order and spelling.
    assert words[4:] == [
        "--strict" if policy.strict else "--notstrict",
        "--changesok" if policy.changesok else "--nochanges",
        "--emptyok" if policy.emptyok else "--notempty",
    ]


# --- the Policy object -------------------------------------------------------

def test_policy_is_immutable_and_comparable():
    a = Policy("user", 6, 1, False, True, False)
    with pytest.raises(AttributeError):
        a.minlen = 9
    assert a == Policy("user", "6", "1", "no", "yes", False)
    assert a != a.replace(minlen=7)
    assert hash(a) == hash(Policy(**a.to_dict()))
    assert a.to_dict() == dict(name="user", minlen=6, minquality=1, strict=False, emptyok=True, changesok=False)
    assert "minlen=6" in repr(a)


# --- field validation --------------------------------------------------------

@pytest.mark.parametrize("field, value, expected", [
    ("minlen", 0, 0), ("minlen", 1024, 1024), ("minlen", "12", 12), ("minlen", " 7 ", 7),
    ("minquality", 0, 0), ("minquality", 100, 100), ("minquality", "+5", 5),
    ("strict", True, True), ("strict", "yes", True), ("strict", "TRUE", True), ("strict", "on", True),
    ("emptyok", False, False), ("emptyok", "no", False), ("emptyok", "false", False), ("changesok", "0", False),
])
def test_convert_field_accepts(field, value, expected):
    assert pm.convert_field("root", field, value) == expected


@pytest.mark.parametrize("field, value", [
    ("minlen", -1), ("minlen", 1025), ("minlen", 8.0), ("minlen", True), ("minlen", "8a"), ("minlen", None),
    ("minlen", "-3"), ("minquality", 101), ("minquality", -1), ("minquality", "high"), ("minquality", [50]),
])
def test_integer_fields_reject_with_field_value_and_range(field, value):
    with pytest.raises(PolicyError) as err:
        pm.convert_field("user", field, value)
    message = str(err.value)
    assert "'user'" in message and field in message and repr(value) in message
    assert ("from 0 to 1024" if field == "minlen" else "from 0 to 100") in message


@pytest.mark.parametrize("value", ["maybe", 2, None, 1.5, [], "nope"])
def test_flag_fields_reject_non_booleans(value):
    with pytest.raises(PolicyError) as err:
        pm.convert_field("luks", "strict", value)
    assert "strict must be true or false" in str(err.value) and repr(value) in str(err.value)


def test_unknown_field_names_the_valid_keys():
    with pytest.raises(PolicyError) as err:
        pm.convert_field("root", "min_len", 8)
    assert "'min_len'" in str(err.value)
    assert "name, minlen, minquality, strict, emptyok, changesok" in str(err.value)


@pytest.mark.parametrize("name", ["admin", "ROOT", "", None, 3])
def test_unknown_names_list_the_valid_ones(name):
    with pytest.raises(PolicyError) as err:
        Policy(name, 6, 1, False, True, False)
    assert "valid names are root, user, luks" in str(err.value)


# --- normalising user input --------------------------------------------------

def test_normalize_accepts_dict_and_list_forms_equally():
    as_dict = {"luks": {"minlen": 20}, "root": {"strict": "yes"}}
    as_list = [{"name": "root", "strict": True}, {"name": "luks", "minlen": "20"}]
    expected = {"root": {"strict": True}, "luks": {"minlen": 20}}
    assert normalize_policies(as_dict) == expected
    assert normalize_policies(as_list) == expected
    assert list(normalize_policies(as_dict)) == ["root", "luks"]


def test_normalize_treats_none_as_nothing_and_empty_policy_as_all_defaults():
    assert normalize_policies(None) == {}
    assert normalize_policies({"user": None}) == {"user": {}}
    assert normalize_policies({"user": {"name": "user"}}) == {"user": {}}


@pytest.mark.parametrize("policies, fragment", [
    ("root", "must be a dict keyed by policy name or a list"),
    (42, "must be a dict keyed by policy name or a list"),
    ({"root": "strict"}, "policy 'root' must be a dict of fields"),
    ({"root": {"name": "user"}}, "does not match its key"),
    ([{"minlen": 8}], "policies[0] has no name"),
    (["root"], "policies[0] must be a dict"),
    ([{"name": "root"}, {"name": "root", "minlen": 9}], "given more than once"),
    ({"sudo": {}}, "valid names are root, user, luks"),
    ([{"name": "root", "minlength": 9}], "unknown key 'minlength'"),
    ({"root": {"minlen": "eight"}}, "minlen must be a whole number from 0 to 1024"),
])
def test_normalize_errors_are_specific(policies, fragment):
    with pytest.raises(PolicyError) as err:
        normalize_policies(policies)
    assert fragment in str(err.value)


# --- presets and merging -----------------------------------------------------

def test_every_product_preset_is_complete_and_valid():
    assert set(pm.PRESETS) == set(pm.PRODUCTS)
    for product, names in pm.PRESETS.items():
        assert set(names) == set(pm.NAMES), product
        for name, fields in names.items():
            assert set(fields) == set(pm.FIELDS[1:]), (product, name)
            Policy(name=name, **fields)


def test_presets_follow_the_documented_reasoning():
    presets = pm.PRESETS
    # unattended products are strict, LUKS is strict everywhere and never empty
    for product in ("server", "cloud"):
        assert all(presets[product][n]["strict"] for n in pm.NAMES)
    for product in pm.PRODUCTS:
        luks = presets[product]["luks"]
        assert luks["strict"] and not luks["emptyok"]
        assert all(luks["minlen"] >= presets[product][n]["minlen"] for n in ("root", "user"))
    # a person at the keyboard is coached, not blocked
    assert not presets["workstation"]["root"]["strict"]
    assert not presets["workstation"]["user"]["strict"]


def test_product_fills_all_three_names_and_user_values_override_field_by_field():
    built = build_policies({"root": {"minlen": 30}}, product="server")
    assert list(built) == ["root", "user", "luks"]
    expected_root = dict(pm.PRESETS["server"]["root"])
    expected_root["minlen"] = 30
    assert built["root"] == Policy(name="root", **expected_root)
    assert built["user"] == Policy(name="user", **pm.PRESETS["server"]["user"])
    assert built["luks"] == Policy(name="luks", **pm.PRESETS["server"]["luks"])


def test_building_does_not_mutate_presets():
    before = repr(pm.PRESETS)
    build_policies({"luks": {"minlen": 1, "strict": False}}, product="workstation")
    assert repr(pm.PRESETS) == before


def test_without_product_only_given_names_are_built_from_target_defaults():
    built = build_policies({"user": {"minquality": 40}}, target="F24")
    assert list(built) == ["user"]
    assert built["user"] == Policy("user", 8, 40, True, True, False)


def test_omitted_empty_flag_follows_the_f28_to_f32_quirk():
    assert build_policies({"root": {}}, target="F30")["root"].emptyok is False
    assert build_policies({"root": {}}, target="F33")["root"].emptyok is True
    assert build_policies({"root": {"emptyok": True}}, target="F30")["root"].emptyok is True


def test_no_target_means_the_newest_installer():
    newest = build_policies({"root": {}, "user": {}})
    assert newest["root"] == Policy("root", 6, 1, False, False, False)
    assert newest["user"] == Policy("user", 6, 1, False, True, False)


def test_unknown_product_and_target_are_errors():
    with pytest.raises(PolicyError, match="valid products are server, cloud, workstation"):
        build_policies(None, product="desktop")
    with pytest.raises(ValueError, match="unknown target"):
        build_policies({"root": {}}, target="Fedora")


# --- policy_from (single policy input for the filter) -------------------------

def test_policy_from_dict_name_and_policy():
    assert policy_from({"name": "luks", "minlen": 12}, target="F30") == Policy("luks", 12, 1, False, False, False)
    assert policy_from({"minlen": 12}, name="root", product="cloud").minlen == 12
    assert policy_from("user", product="workstation") == Policy(name="user", **pm.PRESETS["workstation"]["user"])
    assert policy_from("root", target="F22") == Policy("root", 8, 50, True, True, False)
    same = Policy("root", 6, 1, False, True, False)
    assert policy_from(same) is same


@pytest.mark.parametrize("value, kwargs, fragment", [
    ({"minlen": 8}, {}, "policy has no name"),
    ({"name": "root"}, {"name": "user"}, "conflicts with name"),
    ("root", {"name": "luks"}, "conflicts with name"),
    (["root"], {}, "a policy must be a dict of fields or a policy name"),
    ("admin", {}, "valid names are root, user, luks"),
    ({"name": "root", "bogus": 1}, {}, "unknown key 'bogus'"),
])
def test_policy_from_errors(value, kwargs, fragment):
    with pytest.raises(PolicyError) as err:
        policy_from(value, **kwargs)
    assert fragment in str(err.value)
