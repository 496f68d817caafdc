# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The host reader's authentication part: the trees RHEL and Fedora ship and after a STIG remediation
(fixtures/host, see its README), and shadow entries libxcrypt makes here."""

import json
import os
import shutil

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture import host_auth
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.host_auth import (
    read_accounts,
    read_auth,
    read_fips,
    read_pam,
    read_pwquality,
    shadow_entries,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.hashes import LIB, needs_libxcrypt
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "host")
DROP_IN = "/etc/security/pwquality.conf.d/50-kickstart-pwpolicy.conf"
PWQUALITY = "/etc/security/pwquality.conf"
SYSTEM_AUTH = "/etc/authselect/system-auth"
PASSWORD_AUTH = "/etc/authselect/password-auth"
KEYS = ("pwquality", "login_defs", "pam", "accounts", "fips", "fips_where", "unknown")


def tree(tmp_path, name):
    """A copy of the fixture tree ``name`` with authselect's links in etc/pam.d, as the host has them."""
    root = str(tmp_path / name)
    shutil.copytree(os.path.join(FIXTURES, name), root)
    os.makedirs(os.path.join(root, "etc", "pam.d"))
    for stack in ("system-auth", "password-auth"):
        os.symlink("/etc/authselect/" + stack, os.path.join(root, "etc", "pam.d", stack))
    return root


def write(root, path, text):
    local = os.path.join(root, path.lstrip("/"))
    if not os.path.isdir(os.path.dirname(local)):
        os.makedirs(os.path.dirname(local))
    with open(local, "w") as handle:
        handle.write(text)


def strings(value):
    """Every string in ``value`` (keys and values, all the way down)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item)


# ---------------------------------------------------------------------------
# The trees as shipped and after a STIG remediation
# ---------------------------------------------------------------------------

STIG_SETTINGS = {"minlen": 15, "dcredit": -1, "ucredit": -1, "lcredit": -1, "ocredit": -1, "difok": 8,
                 "minclass": 4, "maxrepeat": 3, "maxclassrepeat": 4, "dictcheck": 1, "retry": 3,
                 "enforce_for_root": 1}

# tree: (authselect profile, features, pam_unix hash, pam_pwquality options, line of the pam_pwquality line in
# system-auth, in password-auth, ENCRYPT_METHOD's value and line)
SHIPPED = {
    "rhel8": ("sssd", ["with-fingerprint", "with-silent-lastlog"], "sha512", {"local_users_only": True}, 20, 19,
              "SHA512", 71),
    "rhel9": ("sssd", ["with-fingerprint", "with-silent-lastlog"], "sha512", {"local_users_only": True}, 20, 19,
              "SHA512", 204),
    "rhel10": ("local", [], "yescrypt", {}, 13, 13, "YESCRYPT", 205),
    "fedora": ("local", ["with-silent-lastlog"], "yescrypt", {}, 13, 13, "YESCRYPT", 205),
}
# tree: line of SHA_CRYPT_MIN_ROUNDS in the remediated login.defs
STIG_ROUNDS_LINE = {"rhel8": 73, "rhel9": 269, "rhel10": 306, "fedora": 306}


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_a_shipped_tree_reads_as_the_distribution_has_it(tmp_path, name):
    profile, features, method, quality, system_line, password_line, encrypt, encrypt_line = SHIPPED[name]
    found = read_auth(tree(tmp_path, name))
    assert sorted(found) == sorted(KEYS)
    # libpwquality's compiled defaults: pwquality.conf ships every setting as a comment
    assert found["pwquality"] == {"settings": {}, "origins": {}, "conflicts": []}
    assert found["login_defs"]["ENCRYPT_METHOD"] == {"value": encrypt,
                                                     "where": {"file": "/etc/login.defs", "line": encrypt_line}}
    assert "SHA_CRYPT_MIN_ROUNDS" not in found["login_defs"]
    assert found["pam"]["authselect"] == {"profile": profile, "features": features,
                                          "where": {"file": "/etc/authselect/authselect.conf", "line": 1},
                                          "linked": ["system-auth", "password-auth"]}
    for stack, holder, line in (("system-auth", SYSTEM_AUTH, system_line),
                                ("password-auth", PASSWORD_AUTH, password_line)):
        read = found["pam"]["stacks"][stack]
        assert read["where"] == {"file": "/etc/pam.d/" + stack} and read["link"] == holder
        assert read["pwquality"] == {"present": True, "control": "requisite", "options": quality,
                                     "where": {"file": holder, "line": line}}
        assert read["unix"] == {"present": True, "control": "sufficient", "hash": method, "rounds": None,
                                "options": {method: True, "shadow": True, "nullok": True, "use_authtok": True},
                                "where": {"file": holder, "line": line + 1}}
    assert sorted(found["pam"]["stacks"]) == ["password-auth", "system-auth"]
    assert found["accounts"] == [] and found["fips"] is False and found["fips_where"] is None
    assert found["unknown"] == []


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_a_stig_remediated_tree_reads_with_its_settings_in_pwquality_conf(tmp_path, name):
    profile, features, dummy, quality, system_line, password_line, dummy, encrypt_line = SHIPPED[name]
    found = read_auth(tree(tmp_path, name + "-stig"))
    pwquality = found["pwquality"]
    assert pwquality["settings"] == STIG_SETTINGS
    # appended one after the other at the end of pwquality.conf (79 lines as shipped), in the remediation's order
    assert list(pwquality["origins"].items()) == [
        (key, {"file": PWQUALITY, "line": 80 + index}) for index, key in enumerate(
            ["minlen", "dcredit", "ucredit", "lcredit", "ocredit", "difok", "minclass", "maxrepeat",
             "maxclassrepeat", "dictcheck", "retry", "enforce_for_root"])]
    assert pwquality["conflicts"] == []  # the drop-in was stripped of its settings
    assert found["login_defs"]["ENCRYPT_METHOD"] == {"value": "SHA512",
                                                     "where": {"file": "/etc/login.defs", "line": encrypt_line}}
    assert found["login_defs"]["SHA_CRYPT_MIN_ROUNDS"] == {
        "value": 100000, "where": {"file": "/etc/login.defs", "line": STIG_ROUNDS_LINE[name]}}
    assert found["pam"]["authselect"]["profile"] == "custom/hardening"
    assert found["pam"]["authselect"]["features"] == features
    for stack, holder, line in (("system-auth", SYSTEM_AUTH, system_line),
                                ("password-auth", PASSWORD_AUTH, password_line)):
        read = found["pam"]["stacks"][stack]
        assert read["pwquality"]["options"] == quality
        assert read["unix"] == {"present": True, "control": "sufficient", "hash": "sha512", "rounds": 100000,
                                "options": {"sha512": True, "shadow": True, "use_authtok": True, "rounds": 100000},
                                "where": {"file": holder, "line": line + 1}}
    assert found["unknown"] == []


def test_our_drop_in_on_a_shipped_tree_and_a_key_pwquality_conf_also_sets(tmp_path):
    root = tree(tmp_path, "rhel9")
    write(root, DROP_IN, "# the role's drop-in\nminlen = 15\nminclass = 4\nenforce_for_root\n")
    found = read_pwquality(root)
    assert found["settings"] == {"minlen": 15, "minclass": 4, "enforce_for_root": 1}
    assert found["origins"]["minlen"] == {"file": DROP_IN, "line": 2}
    assert found["conflicts"] == []
    # pwquality.conf is read after every drop-in: its minlen wins, and the two files disagree
    with open(os.path.join(root, PWQUALITY.lstrip("/")), "a") as handle:
        handle.write("minlen = 9\nminclass = 4\n")
    unknown = []
    found = read_pwquality(root, unknown)
    assert found["settings"]["minlen"] == 9
    assert found["origins"]["minlen"] == {"file": PWQUALITY, "line": 80}
    assert found["conflicts"] == [{"key": "minlen", "values": [
        {"value": 15, "where": {"file": DROP_IN, "line": 2}},
        {"value": 9, "where": {"file": PWQUALITY, "line": 80}}]}]
    assert unknown == []


def test_drop_ins_are_read_in_byte_order_and_only_names_ending_in_conf(tmp_path):
    root = str(tmp_path)
    directory = "/etc/security/pwquality.conf.d/"
    write(root, directory + "90-late.conf", "minlen = 12\n")
    write(root, directory + "Z-upper.conf", "minlen = 11\n")  # strcmp: digits, then upper, then lower case
    write(root, directory + "a-lower.conf", "minlen = 10\n")
    write(root, directory + "b.conf.rpmsave", "minlen = 1\n")
    write(root, directory + "c.conf.conf", "minlen = 2\n")  # libpwquality takes the first ".conf" only at the end
    found = read_pwquality(root)
    assert found["settings"] == {"minlen": 10}
    assert [value["where"]["file"].rsplit("/", 1)[1] for value in found["conflicts"][0]["values"]] == [
        "90-late.conf", "Z-upper.conf", "a-lower.conf"]


@pytest.mark.parametrize("line, settings, what", [
    ("minlen=8", {"minlen": 8}, None),
    ("minlen 8", {"minlen": 8}, None),
    ("MinLen = 8 # a comment", {"minlen": 8}, None),
    ("enforce_for_root = 0", {"enforce_for_root": 1}, None),  # a flag: its name alone sets it
    ("badwords = acme corp", {"badwords": "acme corp"}, None),
    ("dictcheck", {}, "dictcheck is not set to a whole number"),
    ("minlen = 8x", {}, "minlen is not set to a whole number"),
    ("minlen == 8", {}, "minlen is not set to a whole number"),
    ("nosuchsetting = 1", {}, "a line that is no libpwquality setting"),
    ("minlen = " + "9" * 1020, {}, "a line of %s is longer than libpwquality reads (1023 bytes)" % PWQUALITY),
])
def test_a_line_reads_as_libpwquality_reads_it_and_a_refused_one_stops_it(tmp_path, line, settings, what):
    root = str(tmp_path)
    write(root, "/etc/security/pwquality.conf.d/10-a.conf", "difok = 3\n")
    write(root, PWQUALITY, "%s\nretry = 2\n" % line)
    unknown = []
    found = read_pwquality(root, unknown)
    if what is None:
        assert found["settings"] == dict(settings, difok=3, retry=2) and unknown == []
        return
    assert found["settings"] == {"difok": 3}  # nothing from the refused line on
    assert len(unknown) == 1 and unknown[0]["what"].startswith(what)
    assert unknown[0]["what"].endswith("reads nothing from here on")
    assert unknown[0]["scope"] == "host" and unknown[0]["where"] == {"file": PWQUALITY, "line": 1}


# ---------------------------------------------------------------------------
# PAM
# ---------------------------------------------------------------------------

def test_includes_and_substacks_are_followed_and_loops_stop(tmp_path):
    root = str(tmp_path)
    write(root, "/etc/pam.d/system-auth", "auth required pam_env.so\npassword include common-pw\n")
    write(root, "/etc/pam.d/common-pw", "# a comment\npassword substack pw-inner\n"
                                        "password sufficient pam_unix.so sha512 \\\n  rounds=65536 yescrypt\n")
    write(root, "/etc/pam.d/pw-inner", "-password requisite pam_pwquality.so retry=3 minlen=15 [x y]\n"
                                       "password include common-pw\n")
    unknown = []
    found = read_pam(root, unknown)
    stack = found["stacks"]["system-auth"]
    assert stack["pwquality"] == {"present": True, "control": "requisite",
                                  "options": {"retry": 3, "minlen": 15, "[x y]": True},
                                  "where": {"file": "/etc/pam.d/pw-inner", "line": 1}}
    # the last hashing option on the line wins, as in pam_unix
    assert (stack["unix"]["hash"], stack["unix"]["rounds"], stack["unix"]["where"]) == (
        "yescrypt", 65536, {"file": "/etc/pam.d/common-pw", "line": 3})
    assert stack["link"] is None and found["authselect"] is None
    assert [u["what"] for u in unknown] == [
        "/etc/pam.d/common-pw includes itself (through /etc/pam.d/system-auth -> /etc/pam.d/common-pw -> "
        "/etc/pam.d/pw-inner): not read again"]


def test_include_depth_is_bounded(tmp_path, monkeypatch):
    root = str(tmp_path)
    monkeypatch.setattr(host_auth, "MAX_PAM_DEPTH", 3)
    for index in range(5):
        write(root, "/etc/pam.d/%s" % ("system-auth" if index == 0 else "s%d" % index),
              "password include s%d\n" % (index + 1))
    unknown = []
    assert read_pam(root, unknown)["stacks"]["system-auth"]["unix"] is None
    assert [u["what"] for u in unknown] == ["/etc/pam.d/s3 is included more than 3 deep: not read"]


def test_debian_common_password_and_a_missing_include(tmp_path):
    root = str(tmp_path)
    write(root, "/etc/pam.d/common-password",
          "password\t[success=1 default=ignore]\tpam_unix.so obscure yescrypt\n"
          "password\trequisite\t\t\tpam_deny.so\n@include common-missing\n")
    unknown = []
    stack = read_pam(root, unknown)["stacks"]["common-password"]
    assert stack["unix"]["control"] == "[success=1 default=ignore]"
    assert stack["unix"]["options"] == {"obscure": True, "yescrypt": True}
    assert stack["pwquality"] is None
    assert [u["what"] for u in unknown] == [
        "/etc/pam.d/common-missing, which /etc/pam.d/common-password includes, is missing"]


def test_a_link_out_of_root_stays_inside_it(tmp_path):
    root = str(tmp_path / "root")
    os.makedirs(os.path.join(root, "etc", "pam.d"))
    outside = tmp_path / "outside-auth"
    outside.write_text("password sufficient pam_unix.so md5\n")
    os.symlink("../../../outside-auth", os.path.join(root, "etc", "pam.d", "system-auth"))
    unknown = []
    stacks = read_pam(root, unknown)["stacks"]
    # "..", above the root, stays at the root: /outside-auth of the host, which it has not
    assert stacks["system-auth"]["unix"] is None and stacks["system-auth"]["link"] == "/outside-auth"
    assert unknown == []


# ---------------------------------------------------------------------------
# /etc/shadow
# ---------------------------------------------------------------------------

# Every scheme libxcrypt makes (test_hash_schemes has the same list), each with the cost asked for and the cost
# the hash says; None: libxcrypt picks it (and it is read back from the hash).
SCHEMES = [
    (b"", 0, "des", None), (b"_", 1001, "bsdicrypt", 1001), (b"$1$", 0, "md5crypt", None),
    (b"$md5", 0, "sunmd5", None), (b"$sha1", 0, "sha1crypt", None), (b"$3$", 0, "nthash", None),
    (b"$5$", 1000, "sha256crypt", 1000), (b"$6$", 0, "sha512crypt", 5000), (b"$6$", 10000, "sha512crypt", 10000),
    (b"$2b$", 4, "bcrypt", 4), (b"$2a$", 5, "bcrypt", 5), (b"$2y$", 6, "bcrypt", 6), (b"$7$", 0, "scrypt", 14),
    (b"$y$", 1, "yescrypt", 1), (b"$y$", 5, "yescrypt", 5), (b"$gy$", 3, "gost_yescrypt", 3),
]


def made_hashes():
    """``[(scheme, cost, hash)]`` for every scheme this libxcrypt makes (at least SHA-512 and yescrypt)."""
    found = []
    for prefix, count, scheme, cost in SCHEMES:
        setting = LIB.gensalt(prefix, count, None)
        if setting is None:
            continue
        hashed = LIB.crypt(b"Host-Pass-3f9a", setting)
        if hashed is not None:
            found.append((scheme, cost, hashed.decode("ascii")))
    assert set(("sha512crypt", "yescrypt")) <= set(scheme for scheme, dummy, dummy in found)
    return found


def salt_and_digest(hashed):
    """The salt and the digest of a crypt hash, as its scheme lays them out."""
    if hashed.startswith("_"):
        return hashed[5:9], hashed[9:]
    if not hashed.startswith("$"):
        return hashed[:2], hashed[2:]  # DES
    fields = hashed.split("$")
    if fields[1].startswith("2"):
        return fields[-1][:22], fields[-1][22:]  # bcrypt: 22 characters of salt, then the digest
    salt = next((field for field in reversed(fields[:-1]) if field), "")
    return salt, fields[-1]


def shadow_line(name, field):
    return "%s:%s:19700:0:99999:7:::\n" % (name, field)


@needs_libxcrypt
def test_every_scheme_is_read_back_with_its_cost_and_no_part_of_any_hash_is_returned(tmp_path):
    root = str(tmp_path)
    made = made_hashes()
    sha = next(hashed for scheme, dummy, hashed in made if scheme == "sha512crypt")
    yes = next(hashed for scheme, dummy, hashed in made if scheme == "yescrypt")
    entries = [("u%d" % index, hashed) for index, (dummy, dummy, hashed) in enumerate(made)] + [
        ("bang", "!"), ("bangbang", "!!"), ("star", "*"), ("locked-sha", "!" + sha), ("locked-yes", "!!" + yes),
        ("empty", ""), ("odd", "not-a-hash")]
    write(root, "/etc/shadow", "".join(shadow_line(name, field) for name, field in entries))
    found = read_auth(root)
    accounts = found["accounts"]
    expected = [{"name": "u%d" % index, "command": "shadow", "form": "crypt", "scheme": scheme, "cost": cost,
                 "usable": True, "where": {"file": "/etc/shadow", "line": index + 1}}
                for index, (scheme, cost, dummy) in enumerate(made)]
    for account, (scheme, cost, hashed) in zip(accounts, made):
        if cost is None and scheme in ("sunmd5", "sha1crypt"):
            assert account["cost"] > 0  # libxcrypt picks the rounds
            expected[accounts.index(account)]["cost"] = account["cost"]
    number = len(made)
    expected += [
        {"name": "bang", "form": "locked", "scheme": None, "cost": None, "usable": False},
        {"name": "bangbang", "form": "locked", "scheme": None, "cost": None, "usable": False},
        {"name": "star", "form": "locked", "scheme": None, "cost": None, "usable": False},
        {"name": "locked-sha", "form": "locked", "scheme": "sha512crypt", "cost": 5000, "usable": False},
        {"name": "locked-yes", "form": "locked", "scheme": "yescrypt", "cost": 1, "usable": False},
        {"name": "empty", "form": "empty", "scheme": None, "cost": None, "usable": True},
        {"name": "odd", "form": "unparsed", "scheme": None, "cost": None, "usable": None},
    ]
    for offset, entry in enumerate(expected[number:], 1):
        entry.update(command="shadow", where={"file": "/etc/shadow", "line": number + offset})
    assert accounts == expected
    # No string anywhere in what is returned holds a hash's salt or digest, nor any 8 characters of a digest.
    returned = list(strings(found))
    for dummy, dummy, hashed in made:
        salt, digest = salt_and_digest(hashed)
        assert len(digest) >= 11
        for text in returned:
            assert digest not in text and hashed not in text
            assert len(salt) < 4 or salt not in text
        assert_no_leak(digest, found, piece=8)
    assert "not-a-hash" not in json.dumps(found)


def test_nis_entries_and_broken_lines_are_named_not_read(tmp_path):
    root = str(tmp_path)
    write(root, "/etc/shadow", "root:!:19700::::::\n+::::::::\nno-colon-here\n\n")
    unknown = []
    accounts = read_accounts(root, unknown)
    assert [(a["name"], a["form"]) for a in accounts] == [("root", "locked")]
    assert [(u["what"], u["where"]) for u in unknown] == [
        ("line 2 of /etc/shadow is a NIS entry: its accounts are not here", {"file": "/etc/shadow", "line": 2}),
        ("line 3 of /etc/shadow is no shadow entry", {"file": "/etc/shadow", "line": 3})]


def test_a_shadow_over_the_cap_or_not_a_file_is_unknown_never_a_traceback(tmp_path, monkeypatch):
    root = str(tmp_path)
    write(root, "/etc/shadow", shadow_line("root", "!") * 100)
    monkeypatch.setattr(host_auth, "MAX_SHADOW_SIZE", 1000)
    found = read_auth(root)
    assert found["accounts"] == []
    assert [u["where"] for u in found["unknown"]] == [{"file": "/etc/shadow"}]
    assert "has 2600 bytes, more than the 1000 read at most" in found["unknown"][0]["what"]
    assert root not in json.dumps(found)  # the host's path, never the root's
    os.remove(os.path.join(root, "etc", "shadow"))
    os.mkfifo(os.path.join(root, "etc", "shadow"))
    os.makedirs(os.path.join(root, "etc", "login.defs"))
    found = read_auth(root)
    assert sorted(u["where"]["file"] for u in found["unknown"]) == ["/etc/login.defs", "/etc/shadow"]
    assert found["accounts"] == [] and found["login_defs"] == {}


# ---------------------------------------------------------------------------
# FIPS
# ---------------------------------------------------------------------------

def test_fips_from_the_kernel_else_the_crypto_policy(tmp_path):
    root = str(tmp_path)
    assert read_fips(root) == (False, None)
    write(root, "/etc/crypto-policies/config", "# the policy\nFIPS:OSPP\n")
    assert read_fips(root) == (True, {"file": "/etc/crypto-policies/config", "line": 2})
    write(root, "/proc/sys/crypto/fips_enabled", "0\n")
    assert read_fips(root) == (False, {"file": "/proc/sys/crypto/fips_enabled", "line": 1})
    write(root, "/proc/sys/crypto/fips_enabled", "1\n")
    found = read_auth(root)
    assert (found["fips"], found["fips_where"]) == (True, {"file": "/proc/sys/crypto/fips_enabled", "line": 1})


def test_an_empty_root_reads_as_nothing_known(tmp_path):
    found = read_auth(str(tmp_path / "missing"))
    assert found == {"pwquality": {"settings": {}, "origins": {}, "conflicts": []}, "login_defs": {},
                     "pam": {"stacks": {}, "authselect": None}, "accounts": [], "fips": False, "fips_where": None,
                     "unknown": []}


def test_shadow_entries_give_each_name_and_field_or_why_a_line_is_none():
    """What the accounts reader and the installed-secrets check both read."""
    text = "root:$6$x$y:1::\n# a comment\n\n:nameless:1\n+nis::\nbin:*:1\n"
    assert list(shadow_entries(text)) == [
        (1, "root", "$6$x$y", None),
        (4, None, None, "line 4 of /etc/shadow is no shadow entry"),
        (5, None, None, "line 5 of /etc/shadow is a NIS entry: its accounts are not here"),
        (6, "bin", "*", None)]
