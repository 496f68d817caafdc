# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""module_utils/_ks_secrets.py: every secret-bearing command and every scheme, with hashes made in the test."""

import os
import secrets
import string

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _candidates, _ks_secrets, _libxcrypt
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_secrets import (
    FINDINGS,
    FORMS,
    mask_templates,
    read_secrets,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import corpus_dir
from ansible_collections.kickstart.pwpolicy.tests.unit.hashes import LIB, crypt_hash, grub_hash, needs_libxcrypt
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak
from ansible_collections.kickstart.pwpolicy.tests.unit.samples import COBBLER_CHEETAH, FOREMAN_ERB

CORPUS = corpus_dir()


crypt = crypt_hash
grub = grub_hash


def random_password():
    return "".join(secrets.choice(string.ascii_letters + string.digits + "!#%&*+-=?@^_") for dummy in range(20))


def one(text, **kwargs):
    kwargs.setdefault("budget", 5)
    report = read_secrets(text, **kwargs)
    assert len(report.secrets) == 1, report.to_list()
    return report.to_list()[0]


def ids(entry):
    return [finding["id"] for finding in entry["findings"]]


# --- every scheme -----------------------------------------------------------------------------------------

SCHEMES = [
    # prefix, count, scheme, cost, findings for a hash of "vagrant" (the first candidate)
    (b"", 0, "des", None, ["legacy_scheme", "known_weak"]),
    (b"_", 0, "bsdicrypt", 725, ["legacy_scheme", "known_weak"]),
    (b"$1$", 0, "md5crypt", None, ["legacy_scheme", "known_weak"]),
    (b"$3$", 0, "nthash", None, ["legacy_scheme", "known_weak"]),
    (b"$md5", 0, "sunmd5", None, ["legacy_scheme", "known_weak"]),
    (b"$sha1", 0, "sha1crypt", None, ["legacy_scheme", "known_weak"]),
    (b"$5$", 0, "sha256crypt", 5000, ["known_weak"]),
    (b"$5$", 1000, "sha256crypt", 1000, ["low_cost", "known_weak"]),
    (b"$6$", 0, "sha512crypt", 5000, ["known_weak"]),
    (b"$6$", 1000, "sha512crypt", 1000, ["low_cost", "known_weak"]),
    (b"$y$", 5, "yescrypt", 5, ["known_weak"]),
    (b"$y$", 1, "yescrypt", 1, ["low_cost", "known_weak"]),
    (b"$gy$", 1, "gost_yescrypt", 1, ["low_cost", "known_weak"]),
    (b"$2b$", 10, "bcrypt", 10, ["known_weak"]),
    (b"$2b$", 4, "bcrypt", 4, ["low_cost", "known_weak"]),
    (b"$2y$", 4, "bcrypt", 4, ["low_cost", "known_weak"]),
    (b"$7$", 0, "scrypt", 14, ["known_weak"]),
]
IDS = ["%s-%d" % (row[2], row[1]) for row in SCHEMES]


@needs_libxcrypt
@pytest.mark.parametrize("prefix, count, scheme, cost, findings", SCHEMES, ids=IDS)
def test_every_scheme_its_cost_and_a_tool_default_found(prefix, count, scheme, cost, findings):
    hashed = crypt("vagrant", prefix, count)
    entry = one("rootpw --iscrypted %s\n" % hashed)
    assert (entry["form"], entry["scheme"], entry["account"]) == ("crypt", scheme, "root")
    if cost is not None:
        assert entry["cost"] == cost
    assert ids(entry) == findings
    assert entry["tried"] is None  # found: how far down the list it was would say which candidate matched
    assert_no_leak("vagrant", entry)
    assert_no_leak(hashed, entry)


@needs_libxcrypt
@pytest.mark.parametrize("prefix, count, scheme, cost, findings", SCHEMES, ids=IDS)
def test_fresh_hashes_of_random_passwords_are_not_known_weak(prefix, count, scheme, cost, findings):
    # 1 s: a guess of every scheme fits, with room on a slower CPU.
    entry = one("rootpw --iscrypted %s\n" % crypt(random_password(), prefix, count), budget=1.0)
    assert "known_weak" not in ids(entry)
    assert ids(entry) == [finding for finding in findings if finding != "known_weak"]
    assert entry["tried"] > 0


@needs_libxcrypt
@pytest.mark.parametrize("password, words", [
    ("Vagrant1", {}),                                   # a usual variation of a tool default
    ("P@ssw0rd", {}),
    ("web01", {}),                                      # the host name of the file
    ("Web01!", {}),
    ("Fedora2019", {}),
    ("sunshine", {}),                                   # a common password
    ("Corp-Secret-7", {"wordlist": ["Corp-Secret-7"]}),  # the user's own list
])
def test_likely_passwords_are_found(password, words):
    text = "network --hostname=web01.example.com\nrootpw --iscrypted %s\n" % crypt(password, b"$6$", 1000)
    entry = one(text, budget=30, **words)
    assert "known_weak" in ids(entry)


def test_grub_hashes():
    entry = one("bootloader --location=mbr --iscrypted --password=%s\n" % grub("vagrant"))
    assert (entry["form"], entry["scheme"], entry["cost"], ids(entry)) == (
        "grub_pbkdf2", "pbkdf2_sha512", 10000, ["known_weak"])
    entry = one("bootloader --iscrypted --password=%s\n" % grub(random_password(), 1000), budget=0.2)
    assert (entry["cost"], ids(entry)) == (1000, ["low_cost"]) and entry["tried"] > 0


# --- every command --------------------------------------------------------------------------------------

COMMANDS = [
    # line, command, account, form, findings
    ("rootpw vagrant", "rootpw", "root", "plaintext", ["plaintext", "policy"]),
    ("rootpw --plaintext 'Xq7#long and random'", "rootpw", "root", "plaintext", ["plaintext"]),
    ("rootpw --lock", "rootpw", "root", "locked", []),
    ("rootpw --iscrypted --lock locked", "rootpw", "root", "locked", []),
    ("rootpw --iscrypted '!!'", "rootpw", "root", "locked", []),
    ("rootpw --iscr notahash", "rootpw", "root", "crypt", []),
    ("user --name=admin --password=admin --plaintext", "user", "admin", "plaintext", ["plaintext", "policy"]),
    ("user --name=ops --groups=wheel --lock", "user", "ops", "locked", []),
    ("user --name=ops", None, None, None, None),
    ("sshpw --username=root qweqwe --plaintext", "sshpw", "root", "plaintext", ["plaintext", "policy"]),
    ("sshpw --username=ops --sshkey 'ssh-ed25519 AAAAC3Nza ops'", None, None, None, None),
    ("bootloader --location=mbr --password=grubpass", "bootloader", "root", "plaintext", ["plaintext"]),
    ("part / --size=500 --encrypted --passphrase=changeme", "part", None, "passphrase", ["plaintext", "policy"]),
    ("logvol / --vgname=vg --name=root --encrypted --passphrase='a long passphrase here'", "logvol", None,
     "passphrase", ["plaintext"]),
    ("raid / --level=1 --device=md0 --encrypted --passphrase=X9zk-44qp raid.1 raid.2", "raid", None, "passphrase",
     ["plaintext"]),
    ("autopart --encrypted --passphrase=fedora", "autopart", None, "passphrase", ["plaintext", "policy"]),
    ("part / --encrypted", None, None, None, None),
    ("rhsm --organization=1234 --activation-key=ak-9f2c-ops", "rhsm", None, "plaintext", ["plaintext"]),
    ("iscsi --ipaddr=10.0.0.1 --user=ini --password=Yz8-sec-p", "iscsi", "ini", "plaintext", ["plaintext"]),
    ("vnc --password anaconda", "vnc", None, "plaintext", ["plaintext", "policy"]),
    ("network --device=wlp1s0 --essid=lab --wpakey=Kq3-88-wifi", "network", None, "plaintext", ["plaintext"]),
    ("realm join --one-time-password=T0k3n-aa example.com", "realm", None, "plaintext", ["plaintext"]),
    ("url --url=http://mirror.example.com/os", None, None, None, None),
    ("url --url=http://repo:Zz-9-abcd@mirror.example.com/os", "url", "repo", "plaintext", ["plaintext"]),
    ("repo --name=x --baseurl=http://m/x --proxy=http://anaconda:qweqwe@proxy:3128", "repo", "anaconda",
     "plaintext", ["plaintext", "policy"]),
    ("liveimg --url=https://t0ken-abc123@host/img", "liveimg", None, "plaintext", ["plaintext"]),
    ("'rootpw' changeme", "rootpw", "root", "plaintext", ["plaintext", "policy"]),
]


@pytest.mark.parametrize("line, command, account, form, findings", COMMANDS, ids=[row[0] for row in COMMANDS])
def test_every_secret_bearing_command(line, command, account, form, findings):
    report = read_secrets(line + "\n", budget=0)
    if command is None:
        assert report.secrets == []
        return
    (entry,) = report.to_list()
    assert (entry["line"], entry["command"], entry["account"], entry["form"], ids(entry)) == (
        1, command, account, form, findings)
    assert entry["form"] in FORMS and set(ids(entry)) <= set(FINDINGS)
    for value in ("vagrant", "qweqwe", "changeme", "grubpass", "ak-9f2c-ops", "Yz8-sec-p", "Kq3-88-wifi",
                  "T0k3n-aa", "Zz-9-abcd", "t0ken-abc123", "X9zk-44qp", "a long passphrase here"):
        if value in line:
            assert_no_leak(value, entry)


def test_two_secrets_on_one_line():
    report = read_secrets("iscsi --ipaddr=10.0.0.1 --user=a --password=Pw-one-1 --reverse-user=b "
                          "--reverse-password=Pw-two-2\n", budget=0)
    assert [(e["account"], e["form"]) for e in report.to_list()] == [("a", "plaintext"), ("b", "plaintext")]


def test_abbreviated_options_are_read_as_the_installer_reads_them():
    pytest.importorskip("pykickstart")
    entry = one("rootpw --iscr $1$abcdefgh$abcdefghijklmnopqrstuv\n", budget=0)
    assert (entry["form"], entry["scheme"]) == ("crypt", "md5crypt")
    entry = one("part / --encr --passp=changeme\n", budget=0)
    assert entry["form"] == "passphrase"


# --- flags that contradict each other, and comments ----------------------------------------------------

# Lines whose flags contradict each other or sit in a comment, each with its form as the installer reads it.
FLAG_LINES = [
    ("rootpw --iscrypted --plaintext Hunter-2-x", "plaintext"),
    ("rootpw --plaintext --iscrypted $6$abcdefgh$" + "a" * 86, "crypt"),
    ("rootpw --iscrypted --plaintext --iscrypted $6$abcdefgh$" + "a" * 86, "crypt"),
    ("user --name=ops --password=Hunter-2-x --iscrypted --plaintext", "plaintext"),
    ("user --name=ops --plaintext --password=$6$abcdefgh$" + "a" * 86 + " --iscrypted", "crypt"),
    ("sshpw --username=ops --iscrypted --plaintext Hunter-2-x", "plaintext"),
    ("sshpw --username=ops --plaintext --iscrypted $6$abcdefgh$" + "a" * 86, "crypt"),
    ("rootpw --plaintext Hunter-2-x # --iscrypted", "plaintext"),
    ("rootpw --plaintext Hunter-2-x #--iscrypted", "plaintext"),
    ("rootpw --iscrypted $6$abcdefgh$" + "a" * 86 + " # --plaintext", "crypt"),
    ("user --name=ops --password=Hunter-2-x #--iscrypted", "plaintext"),
    ("bootloader --password=Hunter-2-x # --iscrypted", "plaintext"),
]


def pykickstart_form(line):
    """The form pykickstart itself (RHEL9) gives the password of ``line``: the oracle of the tests below."""
    pytest.importorskip("pykickstart")
    from pykickstart.parser import KickstartParser
    from pykickstart.version import RHEL9, makeVersion
    handler = makeVersion(RHEL9)
    KickstartParser(handler).readKickstartFromString(line + "\n")
    command = line.split()[0]
    data = {"rootpw": handler.rootpw, "bootloader": handler.bootloader}.get(command)
    if data is None:
        data = (handler.user.userList if command == "user" else handler.sshpw.sshUserList)[0]
    return "crypt" if data.isCrypted else "plaintext"


def without_pykickstart(monkeypatch):
    def refuse(target):
        raise _ks_secrets.NoParser("pykickstart is not installed")
    monkeypatch.setattr(_ks_secrets, "handler_for", refuse)


@pytest.mark.parametrize("with_parser", [True, False], ids=["pykickstart", "without"])
@pytest.mark.parametrize("line, form", FLAG_LINES, ids=[row[0][:60] for row in FLAG_LINES])
def test_the_last_of_iscrypted_and_plaintext_wins_and_a_comment_is_not_read(monkeypatch, line, form, with_parser):
    assert pykickstart_form(line) == form  # the expectation is the installer's own reading
    if not with_parser:
        without_pykickstart(monkeypatch)
    entry = one(line + "\n", target="RHEL9", budget=0)
    assert entry["form"] == form
    assert ids(entry)[:1] == (["plaintext"] if form == "plaintext" else [])
    assert_no_leak("Hunter-2-x", entry)


def test_pykickstart_decides_abbreviated_and_conflicting_flags():
    pytest.importorskip("pykickstart")
    for line in ("rootpw --iscr --plain Hunter-2-x", "rootpw --isc --plaint --iscry Hunter-2-x",
                 "user --name=ops --password=Hunter-2-x --iscr --plain --lo"):
        assert one(line + "\n", target="RHEL9", budget=0)["form"] == pykickstart_form(line)


def test_a_line_the_installer_cannot_split_is_read_up_to_its_comment():
    # An unclosed quote: the installer refuses the line, the file still holds the password in the clear.
    entry = one('rootpw --plaintext "Hunter-2-x # --iscrypted\n', budget=0)
    assert entry["form"] == "plaintext" and ids(entry)[:1] == ["plaintext"]


def test_a_locked_account_stays_locked_whatever_its_flags_say():
    assert one("rootpw --lock --iscrypted --plaintext\n", budget=0)["form"] == "locked"


# --- credentials in URLs --------------------------------------------------------------------------------

TOKEN = "ghp_Wq3Zr8Ty1Uk5Ip9Ol2Nm7Bv4Cx6Za0Sd3Fg8"
URL_LINES = [
    # line, the account shown (None: the user part is taken for a credential itself)
    ("url --url=https://%s:x-oauth-basic@github.com/org/os" % TOKEN, None),
    ("url --url=https://%s:X-OAuth-Basic@github.com/org/os" % TOKEN, None),
    ("url --url=https://%s:@packages.example.com/os" % TOKEN, None),
    ("url --url=https://tokenkeyabc:@packages.example.com/os", None),
    ("url --url=https://%s@github.com/org/os" % TOKEN, None),
    ("repo --name=x --baseurl=https://%s:Zz-9-abcd@h/x" % TOKEN, None),
    ("repo --name=x --baseurl=https://glpat-abcdefghij:Zz-9-abcd@h/x", None),
    ("repo --name=x --baseurl=https://k7Rt2mQp:Zz-9-abcd@h/x", None),
    ("repo --name=x --baseurl=https://QwErTyUiOpAsDfGh:Zz-9-abcd@h/x", None),
    ("repo --name=x --baseurl=https://deploy20240101:Zz-9-abcd@h/x", None),
    ("repo --name=x --baseurl=https://averyveryverylongusername:Zz-9-abcd@h/x", None),
    ("repo --name=x --baseurl=https://user%40example.com:Zz-9-abcd@h/x", None),
    ("liveimg --url=https://Q2xhc3NpY1Rva2Vu:x@h/img", None),
    ("url --url=http://repo:Zz-9-abcd@mirror.example.com/os", "repo"),
    ("url --url=https://x-access-token:%s@github.com/org/os" % TOKEN, "x-access-token"),
    ("url --url=https://svc_mirror.ro:Zz-9-abcd@mirror.example.com/os", "svc_mirror.ro"),
    ("url --url=https://JohnSmith:Zz-9-abcd@mirror.example.com/os", "JohnSmith"),
    ("url --url=https://MIRROR:Zz-9-abcd@mirror.example.com/os", "MIRROR"),
    ("rhsm --organization=1 --proxy=http://proxyuser1:Zz-9-abcd@proxy:3128", "proxyuser1"),
]


@pytest.mark.parametrize("line, account", URL_LINES, ids=[row[0][:70] for row in URL_LINES])
def test_a_url_user_part_is_an_account_only_when_it_reads_as_a_plain_account_name(line, account):
    entry = one(line + "\n", budget=0)
    assert (entry["form"], entry["account"], ids(entry)[:1]) == ("plaintext", account, ["plaintext"])
    assert entry["findings"][0]["reason"].startswith("url credentials are written in the clear")
    user = line.split("://")[1].split("@")[0].split(":")[0]
    if account is None:
        assert_no_leak(user, entry)
        assert "no account is named" in entry["findings"][0]["reason"]
    for secret in (TOKEN, "Zz-9-abcd"):
        if secret not in (account or ""):
            assert_no_leak(secret, entry)


def test_a_token_with_an_empty_password_is_reported():
    entry = one("url --url=https://a1B2c3D4e5F6g7H8i9J0:@yum.example.com/el9/\n", budget=0)
    assert (entry["command"], entry["account"], entry["form"]) == ("url", None, "plaintext")
    assert "plaintext" in ids(entry)


def test_a_token_in_a_url_is_no_account_word_of_the_file(monkeypatch):
    # The account names of a file are candidates of the known-weak check; a token must not become one.
    seen = []
    original = _candidates.file_words

    def spy(text, accounts=(), **kwargs):
        seen.extend(accounts)
        return original(text, accounts=accounts, **kwargs)
    monkeypatch.setattr(_candidates, "file_words", spy)
    read_secrets("url --url=https://%s:x-oauth-basic@github.com/o\n" % TOKEN, budget=0)
    assert seen == [] and TOKEN not in seen


def test_lines_inside_sections_are_not_commands():
    text = "%post\nrootpw vagrant\necho 'user --name=x --password=y'\n%end\n%packages\nrootpw\n%end\n"
    assert read_secrets(text, budget=0).secrets == []


# --- profiles -------------------------------------------------------------------------------------------

@needs_libxcrypt
def test_a_profile_raises_the_minimum_and_names_its_rules():
    hashed = crypt(random_password(), b"$6$", 5000)
    entry = one("#version=RHEL9\nrootpw --iscrypted %s\n" % hashed, profile="stig", budget=0)
    (finding,) = entry["findings"]
    assert finding["id"] == "low_cost"
    assert "below 100000, what stig (RHEL9) asks (rule RHEL-09-611050, RHEL-09-611055)" in finding["reason"]
    yes = one("rootpw --iscrypted %s\n" % crypt(random_password(), b"$y$", 5), target="RHEL9", profile="stig",
              budget=0)
    assert ids(yes) == ["policy"] and "stores passwords as sha512crypt" in yes["findings"][0]["reason"]
    assert ids(one("rootpw --iscrypted %s\n" % crypt(random_password(), b"$y$", 5), target="RHEL10",
                   profile="cis_server_l1", budget=0)) == []


def test_a_profile_holds_plaintexts_to_its_minimum_length():
    entry = one("rootpw --plaintext Xq7#pLm2\n", target="RHEL9", profile="stig", budget=0)
    assert ids(entry) == ["plaintext", "policy"]
    assert entry["findings"][1]["reason"] == "shorter than the 15 characters stig (RHEL9) asks (rule RHEL-09-611090)"


@pytest.mark.parametrize("kwargs, says", [
    (dict(profile="stig"), "profile stig needs a target release"),
    (dict(profile="stig", target="F40"), "compliance profile 'stig' has no values for target 'F40'"),
    # A target like no release name may be a secret in the wrong variable: hidden; a typo of one is shown.
    (dict(target="NOPE12"), "unknown target '<hidden>'"),
    (dict(target="RHLE9"), "unknown target 'RHLE9'"),
])
def test_profile_and_target_errors(kwargs, says):
    with pytest.raises(PwpolicyError, match=says):
        read_secrets("rootpw --lock\n", **kwargs)


# --- templates ------------------------------------------------------------------------------------------

def test_foreman_and_cobbler_templates_read_without_errors():
    foreman = read_secrets(FOREMAN_ERB, template=True, budget=0).to_list()
    assert [(e["command"], e["form"]) for e in foreman] == [("rootpw", "template"), ("user", "template"),
                                                            ("bootloader", "template")]
    cobbler = read_secrets(COBBLER_CHEETAH, template=True, budget=0).to_list()
    assert [(e["line"], e["command"], e["form"]) for e in cobbler] == [
        (7, "rootpw", "template"), (9, "rootpw", "template"), (12, "autopart", "template")]


@needs_libxcrypt
def test_a_hash_in_a_template_is_a_hash_not_a_placeholder():
    hashed = crypt("vagrant", b"$y$", 1)  # "$y$..." would look like Cheetah's $y
    entry = one("#if $x\nrootpw --iscrypted %s\n#end if\n" % hashed, template=True)
    assert (entry["form"], entry["scheme"]) == ("crypt", "yescrypt") and "known_weak" in ids(entry)


@pytest.mark.parametrize("value", ["<%= root_pass %>", "{{ vault_root }}", "${root_hash}", "$default_password",
                                   "$getVar('pw', '')", "@ROOTPW@"])
def test_template_values(value):
    assert one("rootpw --iscrypted %s\n" % value, template=True, budget=0)["form"] == "template"
    assert one("user --name=x --password=%s\n" % value, template=True, budget=0)["form"] == "template"


def test_masking_is_linear_and_keeps_unclosed_openers():
    assert mask_templates("a <%= x %> b {{ y }} c %{ z } ${w}") == "a \ue000 b \ue000 c \ue000 \ue000"
    assert mask_templates("<% <% <% x") == "<% <% <% x"
    assert len(mask_templates("<%" * 8000 + "{{" * 8000)) == 32000


# --- the corpus, leaks, bad input -----------------------------------------------------------------------

def corpus_files():
    found = []
    for top, dirs, names in os.walk(CORPUS):
        dirs.sort()
        found.extend(os.path.join(top, name) for name in sorted(names) if not name.endswith(".md"))
    return found


@pytest.mark.skipif(CORPUS is None, reason="the corpus is not next to the checkout")
def test_the_corpus_reads_without_errors_and_its_plaintext_passwords_are_found():
    plaintext = weak = 0
    for path in corpus_files():
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        for template in (False, True):
            report = read_secrets(text, template=template, budget=0)
            for entry in report.to_list():
                plaintext += "plaintext" in ids(entry)
                weak += "policy" in ids(entry)
    assert plaintext > 100 and weak > 100  # the installer's tests set rootpw qweqwe and testcase in the clear


@needs_libxcrypt
def test_nothing_shows_a_secret_a_hash_or_the_candidate():
    secret_hash = crypt("Vagrant1", b"$6$", 1000)
    lines = ["network --hostname=web01", "rootpw --iscrypted %s" % secret_hash,
             "user --name=ops --password=Ops-Pw-77 --plaintext", "part / --encrypted --passphrase=Luks-Pp-55",
             "url --url=http://u:Url-Pw-33@m/os", "bootloader --password=%s --iscrypted" % grub("Grub-Pw-11")]
    report = read_secrets("\n".join(lines) + "\n", budget=5)
    shown = (report.to_list(), report.warnings)
    for value in ("Vagrant1", secret_hash, "Ops-Pw-77", "Luks-Pp-55", "Url-Pw-33", "Grub-Pw-11", lines[-1][24:]):
        assert_no_leak(value, shown)
    assert_no_leak(secret_hash, shown, piece=20)


@pytest.mark.parametrize("text, says", [
    ("rootpw x\n\0\1\2", "line 2 holds a NUL character"),
    ("rootpw --plaintext x\n" * 501, "more than 500 secrets (this is line 501)"),
    ("rootpw " + "x" * 20000 + "\n", "more than the 16384 any kickstart command"),
    ("lang en_US\n" * 2001, "more than 2000 command lines"),
])
def test_bad_input_gets_a_clear_error(text, says):
    with pytest.raises(PwpolicyError) as caught:
        read_secrets(text, budget=0)
    assert says in str(caught.value)
    assert "x" * 10 not in str(caught.value)


def test_a_10_mb_file_is_read_in_one_bounded_pass():
    text = "rootpw --lock\n%post\n" + ("echo " + "y" * 995 + "\n") * 10000 + "%end\n"
    assert len(text) > 10 * 1000 * 1000
    assert [e["form"] for e in read_secrets(text, budget=0).to_list()] == ["locked"]


def test_hostile_templates_are_read_in_a_bounded_pass():
    hostile = ("rootpw --iscrypted " + "<%" * 4000 + "\n") + ("user --name=a --password='" + "{{" * 4000 + "\n") \
        + ("$SNIPPET('" * 1000 + "\n") + "<%= section_end -%>\n" * 100
    report = read_secrets(hostile, template=True, budget=0)
    assert [e["command"] for e in report.to_list()] == ["rootpw", "user"]


@needs_libxcrypt
def test_without_libxcrypt_hashes_are_not_tried_and_a_warning_says_so(monkeypatch):
    monkeypatch.setattr(_libxcrypt, "load", lambda: None)
    report = read_secrets("rootpw --iscrypted %s\n" % crypt("vagrant", b"$1$"), budget=1)
    (entry,) = report.to_list()
    assert entry["tried"] == 0 and ids(entry) == ["legacy_scheme"]
    assert "libxcrypt (libcrypt.so.1) cannot be loaded on this node" in report.warnings[0]


def test_the_reader_keeps_values_out_of_its_dicts():
    entry = read_secrets("rootpw --plaintext Sekr3t-value\n", budget=0).secrets[0]
    assert "Sekr3t-value" not in repr(entry.to_dict()) and entry._value == "Sekr3t-value"
    assert _ks_secrets.MAX_SECRET_LINES == 500


@needs_libxcrypt
def test_a_scheme_this_libxcrypt_cannot_compute_is_named_in_a_warning():
    if LIB.gensalt(b"$sm3$", 0, None) is not None:
        pytest.skip("this libxcrypt computes SM3 crypt")
    report = read_secrets("rootpw --iscrypted $sm3$saltsalt$%s\n" % ("a" * 43), budget=1)
    (entry,) = report.to_list()
    assert (entry["scheme"], entry["tried"], ids(entry)) == ("sm3crypt", 0, [])
    assert report.warnings == ["this node's libxcrypt cannot compute sm3crypt hashes: they were not tried against "
                               "known-weak passwords"]


def test_a_grub_md5pass_gets_the_grub_hint_not_the_accounts():
    found = read_secrets("bootloader --md5pass=$1$abcdefgh$" + "a" * 22 + "\n", budget=0).to_list()
    legacy = [f for f in found[0]["findings"] if f["id"] == "legacy_scheme"]
    assert len(legacy) == 1 and "grub2-mkpasswd-pbkdf2" in legacy[0]["hint"] and "--md5pass" in legacy[0]["hint"]
