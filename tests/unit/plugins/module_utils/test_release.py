# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _release as rel
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import ReleaseError, parse_release

OLD = dict(minlen=8, minquality=50, strict=True, emptyok=True, changesok=False)
SANE = dict(minlen=6, minquality=1, strict=False, emptyok=True, changesok=False)
SANE_NOTEMPTY = dict(SANE, emptyok=False)


@pytest.mark.parametrize("name, support", [
    ("F22", rel.SUPPORTED), ("F25", rel.SUPPORTED), ("F33", rel.SUPPORTED),
    ("F34", rel.DEPRECATED), ("F35", rel.COMMAND_REMOVED), ("F36", rel.SECTION_REMOVED),
    ("F46", rel.SECTION_REMOVED), ("DEVEL", rel.SECTION_REMOVED),
    ("RHEL7", rel.SUPPORTED), ("RHEL8", rel.SUPPORTED), ("RHEL9", rel.DEPRECATED),
    ("RHEL10", rel.SECTION_REMOVED), ("RHEL11", rel.SECTION_REMOVED),
])
def test_support_matrix(name, support):
    assert parse_release(name).support == support


@pytest.mark.parametrize("name, writable", [
    ("F22", True), ("F33", True), ("F34", True), ("RHEL9", True),
    ("F35", False), ("F36", False), ("RHEL10", False), ("DEVEL", False),
])
def test_can_write_section(name, writable):
    assert parse_release(name).can_write_section is writable


@pytest.mark.parametrize("name, reads", [
    ("F33", False), ("F34", True), ("F40", True), ("RHEL8", False), ("RHEL9", True), ("RHEL10", True),
])
def test_reads_anaconda_conf(name, reads):
    assert parse_release(name).reads_anaconda_conf is reads


@pytest.mark.parametrize("name, last", [
    ("F22", False), ("F33", False), ("RHEL8", False), ("F34", True), ("RHEL9", True),
])
def test_duplicate_rule(name, last):
    assert parse_release(name).last_duplicate_wins is last


@pytest.mark.parametrize("name, expected", [
    ("F22", OLD), ("F25", OLD),
    ("F26", SANE), ("F27", SANE),
    ("F28", SANE_NOTEMPTY), ("F32", SANE_NOTEMPTY),
    ("F33", SANE), ("F34", SANE), ("RHEL7", SANE), ("RHEL8", SANE), ("RHEL9", SANE),
])
def test_omitted_defaults_kickstart_era(name, expected):
    for policy_name in ("root", "user", "luks"):
        assert parse_release(name).omitted_defaults(policy_name) == expected


@pytest.mark.parametrize("name", ["F35", "F36", "F40", "RHEL10", "DEVEL"])
def test_omitted_defaults_configuration_era(name):
    release = parse_release(name)
    assert release.omitted_defaults("root") == SANE_NOTEMPTY
    assert release.omitted_defaults("user") == SANE
    assert release.omitted_defaults("luks") == SANE_NOTEMPTY


def test_omitted_defaults_are_fresh_dicts():
    release = parse_release("F30")
    release.omitted_defaults("root")["minlen"] = 99
    assert release.omitted_defaults("root")["minlen"] == 6


@pytest.mark.parametrize("text, name, label", [
    ("f40", "F40", "Fedora 40"), (" RHEL9 ", "RHEL9", "RHEL 9"), ("devel", "DEVEL", "Fedora development (DEVEL)"),
])
def test_names_are_normalised(text, name, label):
    release = parse_release(text)
    assert release.name == name
    assert release.label == label
    assert release == parse_release(name)
    assert hash(release) == hash(parse_release(name))


@pytest.mark.parametrize("bad", ["F21", "RHEL6", "FC6"])
def test_releases_before_the_section_are_rejected(bad):
    with pytest.raises(ReleaseError, match="Fedora 22 and RHEL 7.3|pykickstart release name"):
        parse_release(bad)


@pytest.mark.parametrize("bad", ["", "  ", None, 40, "Fedora40", "F", "RHEL", "F40.1", "CENTOS9"])
def test_nonsense_is_rejected_with_the_accepted_forms(bad):
    with pytest.raises(ReleaseError) as err:
        parse_release(bad)
    assert "F40" in str(err.value) or "F22" in str(err.value)


def test_release_is_a_value():
    release = parse_release(" rhel9 ")
    assert release == parse_release("RHEL9") and hash(release) == hash(parse_release("RHEL9"))
    assert release != parse_release("RHEL8") and len({release, parse_release("RHEL9")}) == 1
    assert repr(release) == "Release('RHEL9')" and (release.family, release.major) == ("RHEL", 9)
    with pytest.raises(AttributeError):
        release.major = 8


@pytest.mark.parametrize("name, says", [
    ("F35", "Fedora 35 removed the pwpolicy command"), ("F36", "Fedora 36 has no %anaconda section"),
    ("RHEL10", "RHEL 10 has no %anaconda section"),
])
def test_support_message_names_the_replacement(name, says):
    message = rel.support_message(parse_release(name))
    assert says in message and "password_policies" in message and "state=absent" in message


@pytest.mark.parametrize("name", ["F22", "F33", "F34", "RHEL7", "RHEL8", "RHEL9"])
def test_no_support_message_where_the_section_applies(name):
    assert rel.support_message(parse_release(name)) is None


@pytest.mark.parametrize("name, deprecated", [("F33", False), ("F34", True), ("RHEL9", True), ("F35", False)])
def test_deprecation_message(name, deprecated):
    assert (rel.deprecation_message(parse_release(name)) is not None) is deprecated


# --- the rules of reading a kickstart or configuration, per release ---------

@pytest.mark.parametrize("name, optparse", [
    ("F22", True), ("F25", True), ("F27", True), ("RHEL7", True),
    ("F28", False), ("F33", False), ("F34", False), ("RHEL8", False), ("RHEL9", False), ("DEVEL", False),
])
def test_optparse_era(name, optparse):
    assert parse_release(name).optparse_era is optparse


@pytest.mark.parametrize("text, optparse, argparse", [
    ("10", 10, 10), ("010", 8, 10), ("0x1F", 31, None), ("0b101", 5, None), ("0b", 0, None),
    ("08", None, 8), ("-010", -10, -10), ("0", 0, 0), ("", None, None), ("1.5", None, None),
])
def test_read_int(text, optparse, argparse):
    for name, expected in (("F22", optparse), ("RHEL7", optparse), ("F30", argparse), ("RHEL9", argparse)):
        if expected is None:
            with pytest.raises(ValueError):
                parse_release(name).read_int(text)
        else:
            assert parse_release(name).read_int(text) == expected


@pytest.mark.parametrize("name, state", [
    ("F26", None), ("F27", rel.COMMAND_VALID), ("F29", rel.COMMAND_VALID), ("F30", None),
    ("RHEL7", rel.COMMAND_VALID), ("RHEL8", rel.COMMAND_SOME_UPDATES), ("RHEL9", None), ("DEVEL", None),
])
def test_installclass_in_the_section(name, state):
    assert parse_release(name).section_command("installclass") == state
    assert parse_release(name).section_command("lang") is None


@pytest.mark.parametrize("name, dbus, first", [
    ("F33", None, False), ("RHEL8", None, False), ("F34", (0, 65535), True), ("RHEL9", (0, 65535), True),
    ("F35", None, False), ("RHEL10", None, False),
])
def test_fedora_34_and_rhel_9_rules(name, dbus, first):
    release = parse_release(name)
    assert release.dbus_range == dbus and release.changesok_from_first is first


@pytest.mark.parametrize("name, skips", [
    ("F34", False), ("F37", False), ("RHEL9", False), ("F38", True), ("F40", True), ("RHEL10", True),
    ("DEVEL", True),
])
def test_conf_skips_blank_attributes(name, skips):
    assert parse_release(name).conf_skips_blank_attributes is skips


@pytest.mark.parametrize("name, copies, nosave", [
    ("F22", False, False), ("F23", False, False), ("F24", True, False), ("F25", True, True), ("F35", True, True),
    ("F42", True, True), ("DEVEL", True, True), ("RHEL7", True, True), ("RHEL8", True, True), ("RHEL9", True, True),
    ("RHEL10", True, True),
])
def test_the_installed_system_keeps_the_input_kickstart_unless_told_not_to(name, copies, nosave):
    release = parse_release(name)
    assert (release.copies_input_kickstart, release.takes_nosave_input_ks) == (copies, nosave)
    info = rel.release_info(name)
    assert (info["copies_input_kickstart"], info["nosave_input_ks"]) == (copies, nosave)


@pytest.mark.parametrize("name", ["F25", "F40", "RHEL7", "RHEL9", "RHEL10", "DEVEL"])
def test_the_boot_line_stops_the_copy_of_a_kickstart_with_secrets(name):
    line, warning = rel.boot_args(name, "http://ks/a.ks", "http://ks/a.img", secrets=True)
    assert line == "inst.ks=http://ks/a.ks inst.updates=http://ks/a.img inst.nosave=input_ks,output_ks"
    assert warning is None
    # Without a secret in the kickstart, the installer's generated one may still keep a typed password's hash.
    assert rel.boot_args(name, "/srv/ks/a.ks", secrets=False) == ("inst.ks=/srv/ks/a.ks inst.nosave=output_ks", None)


def test_fedora_24_keeps_the_copy_and_says_so():
    line, warning = rel.boot_args("F24", "http://ks/a.ks", secrets=True)
    assert line == "inst.ks=http://ks/a.ks"
    assert "/root/original-ks.cfg" in warning and "Fedora 25" in warning and "F24" in warning
    assert rel.boot_args("F24", "http://ks/a.ks", secrets=False) == ("inst.ks=http://ks/a.ks", None)


@pytest.mark.parametrize("name", ["F22", "F23"])
def test_releases_that_copy_nothing_need_no_option(name):
    assert rel.boot_args(name, "http://ks/a.ks", secrets=True) == ("inst.ks=http://ks/a.ks", None)


# --- The crypt scheme of the password hashes per release ----------------------

@pytest.mark.parametrize("name, scheme", [
    ("RHEL7", "sha512crypt"), ("RHEL8", "sha512crypt"), ("RHEL9", "sha512crypt"),
    ("F22", "sha512crypt"), ("F29", "sha512crypt"), ("F34", "sha512crypt"),
    ("F35", "yescrypt"), ("F36", "yescrypt"), ("F40", "yescrypt"), ("DEVEL", "yescrypt"),
    ("RHEL10", "yescrypt"), ("RHEL11", "yescrypt"),
])
def test_auto_is_what_the_installer_writes(name, scheme):
    assert parse_release(name).password_hash == scheme
    assert rel.hash_scheme(name) == scheme
    assert rel.hash_scheme(name, "auto") == scheme
    assert rel.release_info(name)["password_hash"] == scheme


@pytest.mark.parametrize("name", ["RHEL7", "RHEL8", "F22", "F28"])
def test_yescrypt_is_refused_where_the_system_cannot_verify_it(name):
    with pytest.raises(ReleaseError, match=r"cannot verify yescrypt .*libxcrypt 4\.2\.0"):
        rel.hash_scheme(name, "yescrypt")
    assert rel.hash_scheme(name, "sha512crypt") == "sha512crypt"


@pytest.mark.parametrize("name", ["RHEL9", "F29", "F34", "F40", "RHEL10"])
def test_yescrypt_is_taken_where_the_system_verifies_it(name):
    assert rel.hash_scheme(name, "yescrypt") == "yescrypt"
    assert rel.hash_scheme(name, "sha512crypt") == "sha512crypt"


def test_a_profile_narrows_auto_and_refuses_what_it_does_not_allow():
    # For example a STIG profile, which requires SHA-512 crypt.
    assert rel.hash_scheme("F40", "auto", allowed=("sha512crypt",)) == "sha512crypt"
    assert rel.hash_scheme("RHEL9", "auto", allowed=("yescrypt",)) == "yescrypt"
    with pytest.raises(ReleaseError, match="compliance profile does not allow yescrypt"):
        rel.hash_scheme("RHEL10", "yescrypt", allowed=("sha512crypt",))
    with pytest.raises(ReleaseError, match="no hashing scheme fits"):
        rel.hash_scheme("RHEL8", "auto", allowed=("yescrypt",))


@pytest.mark.parametrize("bad", ["md5crypt", "", None, "SHA512"])
def test_an_unknown_scheme_is_refused_with_the_choices(bad):
    with pytest.raises(ReleaseError, match="kickstart_password_hash must be one of auto, sha512crypt, yescrypt"):
        rel.hash_scheme("F40", bad)


@pytest.mark.parametrize("name, shown", [
    ("F99x", "'F99x'"), ("rhel 9.4", "'rhel 9.4'"), ("fedora40", "'fedora40'"), ("RHLE9", "'RHLE9'"),
    # Not like a release name: a secret given as the target, perhaps.
    ("Quartz-Lantern-9431", "'<hidden>'"), ("hunter2", "'<hidden>'"), ("x" * 5000, "'<hidden>'"), (3, "(int)"),
])
def test_an_unknown_target_is_shown_only_when_it_reads_as_a_release_name(name, shown):
    with pytest.raises(rel.ReleaseError) as caught:
        rel.parse_release(name)
    assert ("unknown target %s:" % shown in str(caught.value)) or ("got %s" % shown in str(caught.value))
    if shown == "'<hidden>'":
        assert name not in str(caught.value)
