# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""An installed host against what the inventory declares for it (plugin_utils/_verify.py).

What is declared is read from a real inventory (the audit's reading) and made
into the settings the kickstart role writes by rendering the role's own
template; what the host enforces is read by the host reader from the
distributions' trees (module_utils/fixtures/host) with a shadow file
libxcrypt writes here.  No secret is read to declare, and none reaches a
finding.
"""

import pytest

from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import lookup_loader

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.host import read_host
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _verify
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._audit_hosts import HostsCheck
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._report import clean
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verify import (
    LEFTOVER_RULE,
    NOT_READ_RULE,
    SECRET_RULE,
    TARGET_RULE,
    declare,
    secret_findings,
    template_renderer,
    verify_host,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.hashes import crypt_hash, grub_hash, needs_libxcrypt
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.module_utils.test_posture_host_auth import tree, write
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.plugin_utils.test_audit_hosts import (
    load_inventory,
    vaulted,
)

ROOT_SECRET = "Verify-Root-Marker-41c9"
GRUB_SECRET = "Verify-Grub-Marker-7d05"
RHEL9 = 'NAME="Red Hat Enterprise Linux"\nID="rhel"\nID_LIKE="fedora"\nVERSION_ID="9.6"\n'
# The STIG's libpwquality settings for RHEL 9, as the role writes them (and the remediated tree has them).
STIG_SETTINGS = {"minlen": 15, "dcredit": -1, "ucredit": -1, "lcredit": -1, "ocredit": -1, "difok": 8,
                 "minclass": 4, "maxrepeat": 3, "maxclassrepeat": 4, "dictcheck": 1, "retry": 3,
                 "enforce_for_root": 1, "enforcing": 1}


@pytest.fixture
def declared(tmp_path, monkeypatch):
    """``{host: Declared}`` of an inventory whose root passwords are vaulted with a vault this run lacks."""
    other = vaulted(ROOT_SECRET, b"a-vault-this-run-lacks")
    hosts = {
        "stig9": "kickstart_target: rhel9\nkickstart_product: server\nkickstart_profile: stig\n",
        "tight9": ("kickstart_target: RHEL9\nkickstart_product: server\nkickstart_profile: [stig]\n"
                   "kickstart_pwquality_settings: {difok: 10, maxsequence: 3}\n"),
        "waiving9": ("kickstart_target: RHEL9\nkickstart_product: server\nkickstart_profile: stig\n"
                     "kickstart_profile_exceptions: [RHEL-09-611090]\n"),
        "plain8": "kickstart_target: RHEL8\nkickstart_product: server\n",
        "nodropin": "kickstart_target: RHEL9\nkickstart_product: server\nkickstart_pwquality_dropin: false\n",
        "broken": "kickstart_target: RHEL9\nkickstart_profile: stgi\n",
    }
    (tmp_path / "host_vars").mkdir()
    for host, text in hosts.items():
        (tmp_path / "host_vars" / (host + ".yml")).write_text(text + "kickstart_root_password: %s" % other)
    (tmp_path / "hosts.ini").write_text("\n".join(hosts) + "\n")
    templar, hostvars = load_inventory(tmp_path, monkeypatch)
    # The template lookup as the action loads it, without the plugin loader's collection finder.
    original = lookup_loader.get
    monkeypatch.setattr(lookup_loader, "get", lambda name, *args, **kwargs: original(
        "template" if name == "ansible.builtin.template" else name, *args, **kwargs))
    check = HostsCheck(templar, hostvars, list(hosts))
    render = template_renderer(DataLoader())
    found = {}
    for host in hosts:
        task_vars = check.variables(host)
        found[host] = declare(check.templar.copy_with_new_env(available_variables=task_vars), task_vars, render)
    return found


def installed(tmp_path, name, rounds=100000, grub=True, leftover=False):
    """The tree ``name`` made a RHEL 9 host: os-release, root's SHA-512 crypt hash at ``rounds``, GRUB 2's password
    and, with ``leftover``, a kickstart left in /root with root's password in the clear."""
    root = tree(tmp_path, name)
    write(root, "/etc/os-release", RHEL9)
    hashed = crypt_hash(ROOT_SECRET, b"$6$", rounds)
    write(root, "/etc/shadow", "root:%s:19700:0:99999:7:::\n" % hashed)
    if grub:
        write(root, "/boot/grub2/user.cfg", "GRUB2_PASSWORD=%s\n" % grub_hash(GRUB_SECRET))
    if leftover:
        write(root, "/root/original-ks.cfg", "rootpw --plaintext %s\n" % ROOT_SECRET)
    return {"posture": read_host(root), "changed": False}, hashed


def table(findings):
    return [(f["secret"], f["verdict"], (f["rules"] or [None])[0], f.get("file"), f.get("line")) for f in findings]


def test_declared_as_the_role_writes_it_without_reading_a_secret(declared):
    stig = declared["stig9"]
    assert stig.problem is None and stig.target == "RHEL9" and stig.profiles == ("stig",)
    assert stig.pwquality == STIG_SETTINGS
    assert stig.login_defs == {"ENCRYPT_METHOD": "SHA512", "SHA_CRYPT_MIN_ROUNDS": 100000}
    # Where the role's drop-in sets each: its own file, from the role's template.
    assert stig.origins["minlen"]["file"] == "/etc/security/pwquality.conf.d/50-kickstart-pwpolicy.conf"
    tight = declared["tight9"]
    assert tight.pwquality["difok"] == 10 and tight.pwquality["maxsequence"] == 3
    # Without a profile: the product's policies (server: strict), no login.defs line.
    plain = declared["plain8"]
    assert plain.profiles == () and plain.login_defs == {} and plain.pwquality["enforcing"] == 1
    assert declared["nodropin"].dropin is False and declared["nodropin"].pwquality == {}
    assert "stgi" in declared["broken"].problem and "stig" in declared["broken"].problem


@needs_libxcrypt
def test_a_remediated_host_passes_what_it_was_declared(tmp_path, declared):
    posture, hashed = installed(tmp_path, "rhel9-stig")
    found = [clean(f) for f in verify_host("web01", posture, declared["stig9"])]
    verdicts = set(f["verdict"] for f in found)
    assert verdicts == {"accepted", "not_checked"}, table(found)
    assert ("kickstart_target", "accepted", TARGET_RULE, None, None) in table(found)
    assert ("role settings", "accepted", None, None, None) in table(found)
    assert ("leftovers", "accepted", None, None, None) in table(found)
    # The LUKS devices are not read here (no command runner): not checked, never accepted.
    assert ("not read", "not_checked", NOT_READ_RULE, "/dev", None) in table(found)
    assert ("encryption", "not_checked", "RHEL-09-231190", None, None) in table(found)
    for value in (ROOT_SECRET, hashed, GRUB_SECRET):
        assert_no_leak(value, found)


@needs_libxcrypt
def test_a_host_as_shipped_deviates_with_its_rules_files_and_lines(tmp_path, declared):
    posture, dummy = installed(tmp_path, "rhel9", rounds=5000, grub=False, leftover=True)
    found = [clean(f) for f in verify_host("web02", posture, declared["stig9"])]
    rows = table(found)
    # The judge: minlen is not set anywhere, so it goes where its fix says; login.defs has the line it lacks.
    assert ("minlen", "rejected", "RHEL-09-611090", "/etc/security/pwquality.conf", None) in rows
    minlen = [f for f in found if f["secret"] == "minlen"][0]
    assert minlen["reasons"] == ["rule RHEL-09-611090: minlen not set (libpwquality's default 8); stig (RHEL9) asks "
                                 "minlen = 15"]
    assert "/etc/security/pwquality.conf" in minlen["hints"][0]
    rounds = [f for f in found if f["secret"] == "min_rounds"]
    assert ("/etc/shadow", 1) in [(f["file"], f["line"]) for f in rounds]
    assert any(f["file"] == "/etc/authselect/system-auth" and f["line"] for f in rounds)
    # What the judge reports is not reported again as the role's settings, nor said to be in effect.
    assert not [f for f in found if f["secret"].startswith("pwquality.")], rows
    settings = [f for f in found if f["secret"] == "role settings"][0]
    assert settings["verdict"] == "accepted" and "each reported under the profile's rule" in settings["reasons"][0]
    leftover = [f for f in found if f["secret"] == "leftover:/root/original-ks.cfg"][0]
    assert (leftover["verdict"], leftover["rules"]) == ("rejected", [LEFTOVER_RULE])
    assert leftover["file"] == "/root/original-ks.cfg"
    assert leftover["reasons"][0].startswith("/root/original-ks.cfg keeps 1 secret (1 in the clear)")
    assert "inst.nosave=input_ks,output_ks" in leftover["hints"][0]
    assert_no_leak(ROOT_SECRET, found)


@needs_libxcrypt
def test_drift_beyond_the_profile_is_named_by_the_profiles_rule_or_the_collections(tmp_path, declared):
    posture, dummy = installed(tmp_path, "rhel9-stig")
    found = [clean(f) for f in verify_host("web03", posture, declared["tight9"])]
    drift = dict((f["secret"], f) for f in found if f["secret"].startswith("pwquality."))
    assert sorted(drift) == ["pwquality.difok", "pwquality.maxsequence"]
    # difok: the host has the STIG's 8 (in pwquality.conf, with its line), the role writes 10: the STIG's rule.
    difok = drift["pwquality.difok"]
    assert difok["rules"][0].startswith("RHEL-09-") and difok["file"] == "/etc/security/pwquality.conf"
    assert difok["line"] and "difok = 8 (/etc/security/pwquality.conf line %d)" % difok["line"] in difok["reasons"][0]
    assert difok["reasons"][0].endswith(
        "the kickstart role writes difok = 10 (in /etc/security/pwquality.conf.d/50-kickstart-pwpolicy.conf)")
    # maxsequence: no profile rule sets it.
    assert drift["pwquality.maxsequence"]["rules"] == ["kickstart.pwpolicy.pwquality.maxsequence"]
    assert drift["pwquality.maxsequence"]["file"] == "/etc/security/pwquality.conf"
    assert not [f for f in found if f["secret"] == "role settings"]


@needs_libxcrypt
def test_a_waived_rule_is_reported_waived_and_a_target_mismatch_rejected(tmp_path, declared):
    posture, dummy = installed(tmp_path, "rhel9")
    found = [clean(f) for f in verify_host("web04", posture, declared["waiving9"])]
    minlen = [f for f in found if f["secret"] == "minlen"][0]
    assert minlen["verdict"] == "rejected" and minlen["waived"] is True
    assert minlen["waiver"] == "kickstart_profile_exceptions lists RHEL-09-611090"
    other = [clean(f) for f in verify_host("web05", posture, declared["plain8"])]
    target = [f for f in other if f["secret"] == "kickstart_target"][0]
    assert target["verdict"] == "rejected" and target["file"] == "/etc/os-release"
    assert target["reasons"] == ["the host runs RHEL9 (/etc/os-release); kickstart_target declares RHEL8"]


def test_a_host_without_a_posture_or_a_declaration_is_an_error(declared):
    assert table(verify_host("web06", None, declared["stig9"])) == [("posture", "error", None, None, None)]
    failed = verify_host("web06", {"failed": True, "msg": "cryptsetup stopped"}, declared["stig9"])
    assert failed[0]["reasons"] == ["the host's posture was not read: cryptsetup stopped"]
    broken = verify_host("web07", {"posture": read_host("/nonexistent-root")}, declared["broken"])
    assert broken[0]["secret"] == "declared" and broken[0]["verdict"] == "error"


def test_the_secrets_compared_with_the_vault():
    result = {"secrets": [
        {"secret": "root", "where": {"file": "/etc/shadow", "line": 1}, "matches": True, "reason": None},
        {"secret": "user:alice", "where": {"file": "/etc/shadow", "line": 7}, "matches": False, "reason": None},
        {"secret": "bootloader", "where": None, "matches": None, "reason": "no vaulted value"}]}
    found = [clean(f) for f in secret_findings("web08", result)]
    assert table(found) == [("root", "accepted", SECRET_RULE, None, None),
                            ("user:alice", "rejected", SECRET_RULE, "/etc/shadow", 7),
                            ("bootloader", "not_checked", SECRET_RULE, None, None)]
    assert "kickstart_users" in found[1]["reasons"][0] and found[2]["reasons"] == ["not compared: no vaulted value"]
    assert secret_findings("web08", None) == [] and secret_findings("web08", {"skipped": True}) == []
    assert secret_findings("web08", {"failed": True, "msg": "no vault"})[0]["verdict"] == "error"


def test_the_rules_are_described_for_sarif():
    assert _verify.rule_description(LEFTOVER_RULE)[0].startswith("A kickstart or installer log")
    assert "minlen" in _verify.rule_description("kickstart.pwpolicy.pwquality.minlen")[0]
    assert "RHEL-09-611090" in _verify.rule_description("RHEL-09-611090")[0]


LUKS_PASSPHRASE = "Verify-Unit-Luks-7d3e"
ARGON2_1G = {"type": "argon2id", "hash": None, "iterations": 4, "time": None, "memory": 1048576, "threads": 4}
PBKDF2_1K = {"type": "pbkdf2", "hash": "sha256", "iterations": 1000, "time": None, "memory": None, "threads": None}


def luks_of(slots, variables):
    posture = {"devices": [{"command": "luks", "name": "/dev/vda3", "keyslots": [
        {"slot": index, "kdf": kdf} for index, kdf in enumerate(slots)], "where": {"file": "/dev/vda3"}}]}

    def get(name):
        return variables.get(name, _verify._MISSING)

    def read(name):
        return variables.get(name), None
    return _verify.luks_findings("web01", posture, get, read)


def test_the_luks_passphrase_is_estimated_on_the_slot_an_attacker_picks():
    strong = luks_of([ARGON2_1G], {"kickstart_luks_passphrase": LUKS_PASSPHRASE})
    weak = luks_of([ARGON2_1G, PBKDF2_1K],
                   {"kickstart_luks_passphrase": LUKS_PASSPHRASE, "kickstart_min_crack_seconds": 10 ** 12})
    assert [(f["verdict"], f["file"], f["rules"]) for f in strong] == [
        ("accepted", "/dev/vda3", ["kickstart.pwpolicy.luks_estimate"])]
    assert "on key slot 0 of /dev/vda3 (argon2id, 1 GiB, 4 iterations)" in strong[0]["reasons"][0]
    # The PBKDF2 slot of 1,000 iterations is the one attacked, and it falls below the floor asked.
    assert weak[0]["verdict"] == "rejected" and "luksConvertKey" in weak[0]["hints"][0]
    assert "key slot 1 of /dev/vda3 (pbkdf2-sha256, 1000 iterations)" in weak[0]["reasons"][0]
    for found in (strong, weak):
        assert_no_leak(LUKS_PASSPHRASE, found)


def test_no_luks_finding_without_a_passphrase_or_a_key_slot():
    assert luks_of([ARGON2_1G], {}) == []
    assert luks_of([], {"kickstart_luks_passphrase": LUKS_PASSPHRASE}) == []
