# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The kickstart reader of the posture model and the one judge: read as the installer reads, judged by rule id."""

import json

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.judge import judge, sentence
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.kickstart import read_kickstart

SHA = "$6$rounds=656000$0123456789abcdef$" + "A" * 86
YES = "$y$j9T$0123456789abcdef012345$" + "B" * 43
GRUB = "grub.pbkdf2.sha512.10000.%s.%s" % ("C" * 128, "D" * 128)
SECRET = "Pass-Marker-7c1f"

# What the kickstart role writes for a STIG server on RHEL 9, in shape (hashes made up).
STIG_RHEL9 = """#version=RHEL9
text
rootpw --iscrypted %(sha)s
user --name=alice --groups=wheel --iscrypted --password=%(sha)s
bootloader --iscrypted --password=%(grub)s
zerombr
clearpart --all --initlabel
autopart --type=lvm --encrypted --passphrase=%(secret)s
%%post --erroronfail
mkdir -p /etc/security/pwquality.conf.d
cat > /etc/security/pwquality.conf.d/50-kickstart-pwpolicy.conf <<'PWQUALITY'
# a comment: ucredit = 0
minlen = 15
dictcheck = 1
minclass = 4
dcredit = -1
ucredit = -1
lcredit = -1
ocredit = -1
difok = 8
maxrepeat = 3
maxclassrepeat = 4
retry = 3
enforcing = 1
enforce_for_root
PWQUALITY
sed -i -E '/^[[:space:]]*(ENCRYPT_METHOD|SHA_CRYPT_MIN_ROUNDS)([[:space:]]|$)/d' /etc/login.defs
cat >> /etc/login.defs <<'LOGINDEFS'
ENCRYPT_METHOD SHA512
SHA_CRYPT_MIN_ROUNDS 100000
LOGINDEFS
%%end
""" % {"sha": SHA, "grub": GRUB, "secret": SECRET}


def rules(text, profile="stig", target="RHEL9", **kwargs):
    found = judge(read_kickstart(text, target), [profile], target, **kwargs)
    return sorted(set(d["rule"] for d in found["deviations"]))


def line_of(text, needle):
    """The number of the first line of ``text`` holding ``needle``."""
    return next(number for number, line in enumerate(text.splitlines(), 1) if needle in line)


def without(text, needle):
    """``text`` without the lines holding ``needle``."""
    kept = [line for line in text.splitlines(True) if needle not in line]
    assert len(kept) < len(text.splitlines(True)), needle
    return "".join(kept)


def test_the_roles_stig_output_meets_stig():
    found = judge(read_kickstart(STIG_RHEL9, "RHEL9"), ["stig"], "RHEL9")
    assert found == {"deviations": [], "waived": [], "not_checked": []}


@pytest.mark.parametrize("needle, rule", [
    ("bootloader ", "RHEL-09-212010"),
    ("autopart ", "RHEL-09-231190"),
    ("minlen = 15", "RHEL-09-611090"),
    ("minclass = 4", "RHEL-09-611130"),
    ("dcredit", "RHEL-09-611070"),
    ("ucredit = -1", "RHEL-09-611110"),
    ("lcredit", "RHEL-09-611065"),
    ("ocredit", "RHEL-09-611100"),
    ("difok", "RHEL-09-611115"),
    ("maxrepeat", "RHEL-09-611125"),
    ("maxclassrepeat", "RHEL-09-611120"),
    ("enforce_for_root", "RHEL-09-611060"),
    ("SHA_CRYPT_MIN_ROUNDS 100000", "RHEL-09-611050"),
])
def test_each_required_line_removed_names_the_rule_it_breaks(needle, rule):
    assert rule in rules(without(STIG_RHEL9, needle))


def test_a_comment_does_not_encrypt_and_the_last_flag_wins():
    text = STIG_RHEL9.replace("autopart --type=lvm --encrypted --passphrase=%s" % SECRET,
                              "autopart --type=lvm  # --encrypted")
    assert rules(text) == ["RHEL-09-231190"]
    found = judge(read_kickstart(text, "RHEL9"), ["stig"], "RHEL9")["deviations"][0]
    assert found["where"] == {"line": 8} and found["found"] == "autopart without --encrypted"


def test_storage_lines_are_encrypted_through_their_physical_volumes():
    storage = ("part /boot --size=1024\npart pv.01 --grow --encrypted --passphrase=%s\nvolgroup sys pv.01\n"
               "logvol / --vgname=sys --name=root --grow\nlogvol swap --vgname=sys --name=swap --size=512\n" % SECRET)
    text = STIG_RHEL9.replace("autopart --type=lvm --encrypted --passphrase=%s\n" % SECRET, storage)
    assert rules(text) == []
    plain_swap = text.replace("logvol swap --vgname=sys --name=swap --size=512\n", "part swap --size=512\n")
    found = judge(read_kickstart(plain_swap, "RHEL9"), ["stig"], "RHEL9")["deviations"]
    assert [(d["rule"], d["found"], d["where"]) for d in found] == [
        ("RHEL-09-231190", "part swap is not encrypted", {"line": 12})]


def test_no_storage_at_all_is_a_deviation_but_an_include_is_not_checked():
    text = without(STIG_RHEL9, "autopart ")
    assert "RHEL-09-231190" in rules(text)
    included = text.replace("zerombr\n", "zerombr\n%include /tmp/part-include\n")
    found = judge(read_kickstart(included, "RHEL9"), ["stig"], "RHEL9")
    assert "RHEL-09-231190" not in [d["rule"] for d in found["deviations"]]
    assert [(d["rule"], d["where"]) for d in found["not_checked"]] == [
        ("RHEL-09-231190", {"line": line_of(included, "%include")})]
    # A script's write the reader does not follow brings no storage line: still a deviation.
    unread = text.replace("%end\n", "python3 -c 'x' > /etc/login.defs\n%end\n")
    assert [u["scope"] for u in read_kickstart(unread, "RHEL9")["unknown"]] == ["script"]
    assert "RHEL-09-231190" in rules(unread)


def test_hashes_the_profile_does_not_allow_and_too_few_rounds():
    text = STIG_RHEL9.replace("user --name=alice --groups=wheel --iscrypted --password=%s" % SHA,
                              "user --name=alice --iscrypted --password=%s" % YES)
    text = text.replace("rootpw --iscrypted %s" % SHA, "rootpw --iscrypted $6$rounds=5000$0123456789abcdef$" + "A" * 86)
    found = judge(read_kickstart(text, "RHEL9"), ["stig"], "RHEL9")["deviations"]
    assert sorted((d["what"], d["where"]["line"]) for d in found) == [("min_rounds", 3), ("schemes", 4)]


def test_fewer_tries_ask_more_and_the_release_default_hashing_counts():
    # retry: libpwquality's default (1) is within the STIG's "at most 3".
    assert rules(without(STIG_RHEL9, "retry")) == []
    # ENCRYPT_METHOD: RHEL 9 hashes with SHA-512 by default, RHEL 10 with yescrypt.
    assert rules(without(STIG_RHEL9, "ENCRYPT_METHOD SHA512")) == []
    rhel10 = STIG_RHEL9.replace("#version=RHEL9", "#version=RHEL10")
    assert rules(rhel10, target="RHEL10") == []
    found = judge(read_kickstart(without(rhel10, "ENCRYPT_METHOD SHA512"), "RHEL10"), ["stig"], "RHEL10")
    assert [d["found"] for d in found["deviations"]] == [
        "login.defs keeps the release's yescrypt (no ENCRYPT_METHOD written)"]


def test_a_password_in_the_clear_on_rhel10_is_hashed_as_yescrypt_which_stig_refuses():
    text = STIG_RHEL9.replace("#version=RHEL9", "#version=RHEL10").replace(
        "rootpw --iscrypted %s" % SHA, "rootpw --plaintext %s" % SECRET)
    found = judge(read_kickstart(text, "RHEL10"), ["stig"], "RHEL10")["deviations"]
    assert [(d["what"], d["found"]) for d in found] == [
        ("schemes", "rootpw of root is in the clear, and the installer hashes it as yescrypt")]
    assert SECRET not in json.dumps(found)
    # Of --iscrypted and --plaintext the last one wins, as the installer reads the line.
    both = text.replace("rootpw --plaintext", "rootpw --iscrypted --plaintext")
    assert [d["found"] for d in judge(read_kickstart(both, "RHEL10"), ["stig"], "RHEL10")["deviations"]] == [
        "rootpw of root is in the clear, and the installer hashes it as yescrypt"]
    # No rootpw line: a person types it at the installer, which hashes it as yescrypt.
    found = judge(read_kickstart(without(text, "rootpw"), "RHEL10"), ["stig"], "RHEL10")["deviations"]
    assert [d["found"] for d in found] == [
        "no rootpw line: the installer asks a person for root's password and hashes it as yescrypt"]


def test_templates_are_not_checked_never_accepted():
    text = STIG_RHEL9.replace("bootloader --iscrypted --password=%s" % GRUB, "bootloader <%= grub_pass %>")
    text = text.replace("autopart --type=lvm --encrypted --passphrase=%s" % SECRET,
                        "autopart --type=lvm {{ kickstart_luks_options }}")
    found = judge(read_kickstart(text, "RHEL9", template=True), ["stig"], "RHEL9")
    assert found["deviations"] == []
    assert sorted(d["what"] for d in found["not_checked"]) == ["bootloader_password", "encryption"]


def test_waivers_and_policies():
    text = STIG_RHEL9 + "%anaconda\npwpolicy root --minlen=15 --minquality=1 --notstrict --nochanges --notempty\n%end\n"
    found = judge(read_kickstart(text, "RHEL9"), ["stig"], "RHEL9")
    assert [(d["what"], d["rules"], d["where"]) for d in found["deviations"]] == [
        ("policies", ["RHEL-09-611090", "RHEL-09-611060"], {"line": line_of(text, "pwpolicy root")})]
    waived = judge(read_kickstart(text, "RHEL9"), ["stig"], "RHEL9",
                   exceptions=["RHEL-09-611090", "RHEL-09-611060"])
    assert waived["deviations"] == [] and len(waived["waived"]) == 1
    assert judge(read_kickstart(text, "RHEL9"), ["stig"], "RHEL9", skip=("policies",))["deviations"] == []


def test_later_drop_ins_win_as_libpwquality_reads_them():
    text = STIG_RHEL9.replace("%end\n", "echo 'minlen = 8' > /etc/security/pwquality.conf.d/90-late.conf\n%end\n")
    posture = read_kickstart(text, "RHEL9")
    assert posture["pwquality"]["settings"]["minlen"] == 8
    assert posture["pwquality"]["origins"]["minlen"] == {"line": line_of(text, "90-late"),
                                                         "file": "/etc/security/pwquality.conf.d/90-late.conf"}
    assert rules(text) == ["RHEL-09-611090"]


def test_a_key_two_files_set_differently_is_a_conflict_the_later_file_winning():
    text = STIG_RHEL9.replace("%end\n", "echo 'minlen = 8' > /etc/security/pwquality.conf.d/90-late.conf\n"
                              "echo 'difok = 8' >> /etc/security/pwquality.conf.d/90-late.conf\n%end\n")
    dropin = "/etc/security/pwquality.conf.d/50-kickstart-pwpolicy.conf"
    late = "/etc/security/pwquality.conf.d/90-late.conf"
    conflicts = read_kickstart(text, "RHEL9")["pwquality"]["conflicts"]
    # difok: the same value in both files is no conflict
    assert conflicts == [{"key": "minlen", "values": [
        {"value": 15, "where": {"line": line_of(text, "minlen = 15"), "file": dropin}},
        {"value": 8, "where": {"line": line_of(text, "90-late"), "file": late}}]}]
    assert read_kickstart(STIG_RHEL9, "RHEL9")["pwquality"]["conflicts"] == []


def test_pwquality_conf_is_read_after_the_drop_ins_and_wins():
    text = STIG_RHEL9.replace("%end\n", "echo 'minlen = 8' >> /etc/security/pwquality.conf\n%end\n")
    posture = read_kickstart(text, "RHEL9")
    assert posture["pwquality"]["settings"]["minlen"] == 8
    assert posture["pwquality"]["origins"]["minlen"]["file"] == "/etc/security/pwquality.conf"
    assert [c["key"] for c in posture["pwquality"]["conflicts"]] == ["minlen"]
    assert rules(text) == ["RHEL-09-611090"]


def test_a_line_libpwquality_refuses_stops_its_reading_there():
    text = STIG_RHEL9.replace("minlen = 15\n", "minlen = 15\nminlenght = 20\n")
    posture = read_kickstart(text, "RHEL9")
    assert sorted(posture["pwquality"]["settings"]) == ["minlen"]
    assert [(u["what"], u["scope"], u["where"]["line"]) for u in posture["unknown"]] == [
        ("a line that is no libpwquality setting in /etc/security/pwquality.conf.d/50-kickstart-pwpolicy.conf: "
         "libpwquality reads nothing from here on", "script", line_of(text, "minlenght"))]
    assert "RHEL-09-611130" in rules(text)


def test_the_posture_holds_no_secret_or_hash():
    text = STIG_RHEL9.replace("rootpw --iscrypted %s" % SHA, "rootpw --plaintext %s" % SECRET)
    posture = read_kickstart(text, "RHEL9")
    dumped = json.dumps(posture) + json.dumps(judge(posture, ["stig", "cis_server_l2"], "RHEL9"))
    for value in (SECRET, SHA[20:40], GRUB[30:60]):
        assert value not in dumped
    assert [(d["command"], d["form"]) for d in posture["at_rest"]] == [
        ("rootpw", "plaintext"), ("user", "crypt"), ("bootloader", "grub_pbkdf2"), ("autopart", "passphrase")]


def test_a_url_credential_is_a_secret_at_rest():
    posture = read_kickstart("url --url=https://user:%s@mirror.example.com/os\n" % SECRET, "RHEL9")
    assert [d["command"] for d in posture["at_rest"]] == ["url"]


def test_sentences_name_line_rule_and_fix():
    found = judge(read_kickstart(without(STIG_RHEL9, "bootloader "), "RHEL9"), ["stig"], "RHEL9")["deviations"]
    assert [sentence(d) for d in found] == [
        "stig (RHEL9): rule RHEL-09-212010: no bootloader line; write bootloader --iscrypted "
        "--password=grub.pbkdf2.sha512... (grub2-mkpasswd-pbkdf2)"]


def test_sed_substitutions_set_keys_and_writes_not_followed_are_unknown():
    text = STIG_RHEL9.replace("%end\n", "sed -i 's/^SHA_CRYPT_MIN_ROUNDS.*/SHA_CRYPT_MIN_ROUNDS 5000/' "
                              "/etc/login.defs\nsed -i -e 's/^minlen/#&/' /etc/security/pwquality.conf\n"
                              "python3 -c 'x' > /mnt/sysimage/etc/security/pwquality.conf.d/99-x.conf\n%end\n")
    posture = read_kickstart(text, "RHEL9")
    assert posture["login_defs"]["SHA_CRYPT_MIN_ROUNDS"]["value"] == 5000
    assert [item["what"] for item in posture["unknown"]] == [
        "a sed edit of /etc/security/pwquality.conf that is not read",
        "a write to /etc/security/pwquality.conf.d/99-x.conf that is not read"]
    assert rules(text) == ["RHEL-09-611050"]


@pytest.mark.parametrize("target, uis", [
    ("RHEL9", [("gtk", "nothing", True), ("tui", "too_short", True)]),
    ("F43", [("gtk", "nothing", True), ("tui", "too_short", True), ("webui", "too_short", False)]),
    ("F45", [("gtk", "nothing", True), ("tui", "too_short", True), ("webui", "nothing", True)]),
])
def test_the_installer_interfaces_and_what_a_loose_policy_lets_through(target, uis):
    posture = read_kickstart("#version=%s\n" % target, target)
    assert [(ui["ui"], ui["non_strict_blocks"], ui["empty_user_password"]) for ui in posture["installer"]["uis"]] == uis


def test_a_loose_policy_says_what_the_interfaces_let_through():
    text = STIG_RHEL9 + "%anaconda\npwpolicy user --minlen=15 --minquality=1 --notstrict --nochanges --emptyok\n%end\n"
    found = [d["found"] for d in judge(read_kickstart(text, "RHEL9"), ["stig"], "RHEL9")["deviations"]]
    assert found == [
        "pwpolicy user --notstrict (a password it refuses is taken in the GTK interface)",
        "pwpolicy user --emptyok (an empty password is taken in the GTK interface, the text interface)"]


def test_policies_given_are_judged_without_a_profile():
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import build_policies
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.judge import judge_policies
    text = STIG_RHEL9 + "%anaconda\npwpolicy user --minlen=8 --notstrict\n%end\n"
    found = judge_policies(read_kickstart(text, "RHEL9"), build_policies({"user": {"strict": True}}, target="RHEL9"))
    assert [sentence(d) for d in found["deviations"]] == [
        "line %d: rule policies.user.strict: pwpolicy user --notstrict (a password it refuses is taken in the GTK "
        "interface); write pwpolicy user --strict" % line_of(text, "pwpolicy user")]
