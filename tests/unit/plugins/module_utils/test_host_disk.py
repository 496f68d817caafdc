# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The disk side of a host's posture, on headers, hashes and files the real tools make in the test run.

The LUKS headers are made by ``cryptsetup luksFormat`` on plain files (small
memory and forced iterations, so that each takes a fraction of a second) and
read back by the real ``cryptsetup`` through ``read_luks``; the GRUB 2 hashes
are ``grub-mkpasswd-pbkdf2``'s.  With ``KSPW_REQUIRE_TOOLS=1`` (or the file
``tests/unit/require-tools``, which the test layer writes into its copy of
the tree, as ansible-test passes no variable of its own to pytest) a missing
tool fails these tests; otherwise they are skipped with the reason.
"""

import atexit
import json
import os
import shutil
import subprocess
import tempfile

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _libxcrypt
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture import host_disk
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.host_disk import (
    USER_CFG,
    grub_lines,
    luks1_from_dump,
    luks2_from_dump,
    luks2_from_json,
    read_bootloader,
    read_disk,
    read_leftovers,
    read_luks,
)

# tests/unit/require-tools: what the test layer writes into its copy of the tree for KSPW_REQUIRE_TOOLS=1.
REQUIRE_TOOLS = (os.environ.get("KSPW_REQUIRE_TOOLS") == "1" or os.path.exists(os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "require-tools")))
SEARCH = os.pathsep.join([os.environ.get("PATH", os.defpath), "/usr/sbin", "/sbin", "/usr/bin", "/bin"])
ENV = dict(os.environ, PATH=SEARCH, LC_ALL="C")
KEY_ONE = "Key-One-Marker-5d1e"
KEY_TWO = "Key-Two-Marker-9a7c"
GRUB_SECRET = "Grub-Pass-Marker-31f0"
ROOT_SECRET = "Root-Pass-Marker-6b2a"
LUKS_SECRET = "Luks-Pass-Marker-0c44"
URL_SECRET = "Url-Pass-Marker-8e13"
PLAIN_GRUB = "Plain-Grub-Marker-77d2"


def tool(*names):
    """The path of the first of ``names`` installed; fails (KSPW_REQUIRE_TOOLS=1) or skips without one."""
    for name in names:
        found = shutil.which(name, path=SEARCH)
        if found:
            return found
    message = ("%s is not installed (Debian: cryptsetup-bin and grub-common; Fedora/RHEL: cryptsetup and "
               "grub2-tools-minimal; bindep.txt's test profile)" % " or ".join(names))
    if REQUIRE_TOOLS:
        pytest.fail(message)
    pytest.skip(message)


def real_run(argv):
    """What the module's run_command does: the command's ``(rc, stdout, stderr)``; OSError when it is missing."""
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, env=ENV,
                          check=False)
    return done.returncode, done.stdout, done.stderr


def cryptsetup(*args, **kwargs):
    command = [tool("cryptsetup"), "--batch-mode"] + list(args)
    subprocess.run(command, check=True, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


# The headers: name, LUKS type and luksFormat's options; then luksAddKey's options for a second key; then tokens.
CLEVIS = {"type": "clevis", "keyslots": ["3"],
          "jwe": {"ciphertext": "Q0lQSEVS", "encrypted_key": "", "iv": "SVY", "protected": "UFJPVA", "tag": "VEFH"}}
RECIPE = (
    # LUKS2: Argon2id in slot 0, PBKDF2 in slot 3, two Clevis-like tokens (a binding is a token of type clevis).
    ("luks2", "luks2", ["--pbkdf", "argon2id", "--pbkdf-memory", "32768", "--pbkdf-force-iterations", "4",
                        "--pbkdf-parallel", "1"],
     ["--key-slot", "3", "--pbkdf", "pbkdf2", "--hash", "sha512", "--pbkdf-force-iterations", "1000"],
     [(0, CLEVIS), (4, {"type": "clevis", "keyslots": ["3", "0"], "jwe": {"ciphertext": "Q0lQSEVS"}})]),
    # LUKS2: Argon2i, a 256-bit volume key, another PBKDF2 hash.
    ("argon2i", "luks2", ["--pbkdf", "argon2i", "--pbkdf-memory", "16384", "--pbkdf-force-iterations", "5",
                          "--pbkdf-parallel", "2", "--cipher", "aes-xts-plain64", "--key-size", "256"],
     ["--pbkdf", "pbkdf2", "--hash", "sha256", "--pbkdf-force-iterations", "1200"], []),
    # LUKS1: PBKDF2 only, two slots of their own iterations, a CBC cipher.
    ("luks1", "luks1", ["--hash", "sha256", "--pbkdf-force-iterations", "1000", "--cipher", "aes-cbc-essiv:sha256",
                        "--key-size", "256"],
     ["--key-slot", "5", "--pbkdf-force-iterations", "2000"], []),
)
# ansible-test runs each test in a fork of the process that imported this file: the headers are made once, in a
# directory of that process, removed when it exits.
HEADERS_DIR = os.path.join(tempfile.gettempdir(), "kspw-luks-%d" % os.getpid())
atexit.register(shutil.rmtree, HEADERS_DIR, True)


@pytest.fixture(scope="session")
def headers():
    """The LUKS headers of RECIPE and a file of zeros, made once: ``{name: path}``."""
    tool("cryptsetup")
    made = dict((name, os.path.join(HEADERS_DIR, name)) for name in [entry[0] for entry in RECIPE] + ["plain"])
    done = os.path.join(HEADERS_DIR, "done")
    if os.path.exists(done):
        with open(done) as handle:
            if handle.read() == repr(RECIPE):
                return made
    shutil.rmtree(HEADERS_DIR, True)
    os.makedirs(HEADERS_DIR)
    for name, key in (("key-one", KEY_ONE), ("key-two", KEY_TWO)):
        with open(os.path.join(HEADERS_DIR, name), "w") as handle:
            handle.write(key)
    for name, luks_type, options, second, tokens in RECIPE:
        with open(made[name], "wb") as handle:
            handle.truncate(20 * 1024 * 1024)
        cryptsetup("luksFormat", "--type", luks_type, *(options + [made[name], os.path.join(HEADERS_DIR, "key-one")]))
        cryptsetup("luksAddKey", "--key-file", os.path.join(HEADERS_DIR, "key-one"),
                   *(second + [made[name], os.path.join(HEADERS_DIR, "key-two")]))
        for token_id, token in tokens:
            cryptsetup("token", "import", "--token-id", str(token_id), made[name], input=json.dumps(token).encode())
    with open(made["plain"], "wb") as handle:
        handle.write(b"\0" * 4096)
    with open(done, "w") as handle:
        handle.write(repr(RECIPE))
    return made


def kdf(kdf_type, hash_name=None, iterations=None, memory=None, threads=None):
    return {"type": kdf_type, "hash": hash_name, "iterations": iterations, "time": None, "memory": memory,
            "threads": threads}


def device(path, version, cipher, key_size, keyslots, tokens=()):
    return {"command": "luks", "name": path, "encrypted": True, "luks_version": version, "cipher": cipher,
            "key_size": key_size, "keyslots": keyslots, "tokens": list(tokens), "where": {"file": path}}


def expected(headers):
    return {
        "luks2": device(headers["luks2"], 2, "aes-xts-plain64", 512, [
            {"slot": 0, "kdf": kdf("argon2id", iterations=4, memory=32768, threads=1)},
            {"slot": 3, "kdf": kdf("pbkdf2", "sha512", 1000)},
        ], [{"type": "clevis", "keyslots": [3]}, {"type": "clevis", "keyslots": [0, 3]}]),
        "argon2i": device(headers["argon2i"], 2, "aes-xts-plain64", 256, [
            {"slot": 0, "kdf": kdf("argon2i", iterations=5, memory=16384, threads=2)},
            {"slot": 1, "kdf": kdf("pbkdf2", "sha256", 1200)},
        ]),
        "luks1": device(headers["luks1"], 1, "aes-cbc-essiv:sha256", 256, [
            {"slot": 0, "kdf": kdf("pbkdf2", "sha256", 1000)},
            {"slot": 5, "kdf": kdf("pbkdf2", "sha256", 2000)},
        ]),
    }


def strings(value):
    """Every string in ``value``, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item)


def assert_no_secret(value, *secrets):
    for text in strings(value):
        for secret in secrets:
            assert secret not in text


def dump(path, *args):
    return real_run([tool("cryptsetup"), "luksDump"] + list(args) + [path])[1]


# ---------------------------------------------------------------------------
# LUKS
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["luks2", "argon2i", "luks1"])
def test_each_key_slot_as_made(headers, name):
    found, unknown = read_luks(real_run, devices=[headers[name]])
    assert unknown == []
    assert found == [expected(headers)[name]]


def test_headers_listed_by_blkid(headers):
    """blkid lists the LUKS files among others (the plain file is none), each read in turn."""
    tool("blkid")

    def run(argv):
        if argv[0] == "blkid":
            argv = argv + [headers["plain"], headers["luks1"], headers["luks2"]]
        return real_run(argv)

    found, unknown = read_luks(run)
    assert unknown == []
    assert found == [expected(headers)["luks1"], expected(headers)["luks2"]]


def test_luks2_without_json_dump_reads_the_text(headers):
    """cryptsetup before 2.4 has no --dump-json-metadata: the text dump of the same header reads the same."""
    def run(argv):
        if "--dump-json-metadata" in argv:
            return 1, "", "cryptsetup: unknown option"
        return real_run(argv)

    found, unknown = read_luks(run, devices=[headers["luks2"], headers["argon2i"]])
    assert unknown == []
    assert found == [expected(headers)["luks2"], expected(headers)["argon2i"]]
    text, metadata = dump(headers["luks2"]), dump(headers["luks2"], "--dump-json-metadata")
    assert luks2_from_dump(text, "x") == luks2_from_json(metadata, "x")


def test_no_salt_digest_or_token_data(headers):
    found, dummy = read_luks(real_run, devices=[headers["luks2"], headers["luks1"]])
    text = json.dumps(found)
    for word in ("salt", "digest", "jwe", "Q0lQSEVS", KEY_ONE, KEY_TWO):
        assert word not in text
    salt = json.loads(dump(headers["luks2"], "--dump-json-metadata"))["keyslots"]["0"]["kdf"]["salt"]
    assert salt not in text


def test_not_luks_or_missing_is_unknown(headers, tmp_path):
    missing = str(tmp_path / "missing")
    found, unknown = read_luks(real_run, devices=[headers["plain"], missing, headers["luks1"]])
    assert found == [expected(headers)["luks1"]]
    assert [entry["where"] for entry in unknown] == [{"file": headers["plain"]}, {"file": missing}]
    assert all(entry["scope"] == "host" and "cryptsetup cannot read" in entry["what"] for entry in unknown)


@pytest.mark.parametrize("how", ["rc", "oserror"])
def test_cryptsetup_missing(headers, how):
    def run(argv):
        if argv[0] == "cryptsetup":
            if how == "rc":
                return 127, "", "cryptsetup: command not found"
            raise OSError(2, "No such file or directory")
        return real_run(argv)

    found, unknown = read_luks(run, devices=[headers["luks1"], headers["luks2"]])
    assert found == []
    assert [entry["where"]["file"] for entry in unknown] == [headers["luks1"], headers["luks2"]]
    assert all("cryptsetup is not installed" in entry["what"] for entry in unknown)


def test_listing_fails_is_unknown():
    found, unknown = read_luks(lambda argv: (127, "", ""))
    assert found == []
    assert len(unknown) == 1 and "could not be listed" in unknown[0]["what"]


def test_lsblk_when_no_blkid():
    """Without blkid, lsblk's JSON is read (every device of this machine; none of them need be LUKS)."""
    tool("lsblk")
    asked = []

    def run(argv):
        asked.append(argv[0])
        if argv[0] == "blkid":
            return 127, "", ""
        if argv[0] == "cryptsetup":
            return 1, "", ""
        return real_run(argv)

    found, unknown = read_luks(run)
    assert asked[:2] == ["blkid", "lsblk"]
    assert not any("could not be listed" in entry["what"] for entry in unknown)


def truncations(text):
    return [text[:cut] for cut in range(0, len(text), max(1, len(text) // 97))]


def test_luks2_json_odd_input_never_raises(headers):
    real = dump(headers["luks2"], "--dump-json-metadata")
    metadata = json.loads(real)
    odd = truncations(real) + ["", "null", "[]", "{}", '{"keyslots": []}', "[" * 100000, "{" * 3 + "x",
                               json.dumps(dict(metadata, keyslots={"0": "x", "1": {"kdf": []}, "a": {}})),
                               json.dumps(dict(metadata, tokens={"0": 5, "1": {"keyslots": "3"}}, segments=[])),
                               None, b"{}"]
    for text in odd:
        entry, unknown = luks2_from_json(text, "/dev/x")
        assert entry is not None or unknown
        for item in unknown:
            assert item["scope"] == "host" and item["where"] == {"file": "/dev/x"}
    entry, unknown = luks2_from_json(odd[-4], "/dev/x")
    assert entry["keyslots"] == [] and len(unknown) == 2
    entry, unknown = luks2_from_json(odd[-3], "/dev/x")
    assert entry["tokens"] == [{"type": None, "keyslots": []}] and entry["cipher"] is None


def test_luks_text_odd_input_never_raises(headers):
    luks1, luks2 = dump(headers["luks1"]), dump(headers["luks2"])
    for text in truncations(luks1) + truncations(luks2) + ["", "Version: x", None, "Version:\t1\n" + "\t:\n" * 5]:
        for parse in (luks1_from_dump, luks2_from_dump):
            entry, unknown = parse(text, "/dev/x")
            assert entry is not None or unknown
    assert luks1_from_dump(luks2, "/dev/x")[0] is None
    assert luks2_from_dump(luks1, "/dev/x")[0] is None
    assert luks1_from_dump(luks1, headers["luks1"]) == (expected(headers)["luks1"], [])


# ---------------------------------------------------------------------------
# The boot loader
# ---------------------------------------------------------------------------

def grub_hash(iterations, password=GRUB_SECRET):
    """``grub-mkpasswd-pbkdf2 -c ITERATIONS``'s hash of ``password``, made by the real tool."""
    command = tool("grub2-mkpasswd-pbkdf2", "grub-mkpasswd-pbkdf2")
    done = subprocess.run([command, "-c", str(iterations)], input="%s\n%s\n" % (password, password),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, env=ENV,
                          check=True)
    words = [word for word in done.stdout.split() if word.startswith("grub.pbkdf2.")]
    assert len(words) == 1
    return words[0]


def write(root, path, text, mode=0o644):
    full = os.path.join(str(root), path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as handle:
        handle.write(text)
    os.chmod(full, mode)
    return full


def test_bootloader_user_cfg(tmp_path):
    hashed = grub_hash(12000)
    write(tmp_path, "/boot/grub2/user.cfg", "GRUB2_PASSWORD=%s\n" % hashed, 0o600)
    found, unknown = read_bootloader(str(tmp_path))
    assert unknown == []
    assert found == {"form": "grub_pbkdf2", "scheme": "pbkdf2_sha512", "cost": 12000, "superusers": ["root"],
                     "where": {"file": "/boot/grub2/user.cfg", "line": 1}}
    assert_no_secret(found, hashed, hashed[len("grub.pbkdf2.sha512.12000."):], "grub.pbkdf2", GRUB_SECRET)


def test_bootloader_grub_cfg_weakest_wins(tmp_path):
    strong, weak = grub_hash(20000), grub_hash(1000)
    write(tmp_path, "/boot/grub2/user.cfg", "GRUB2_PASSWORD=%s\n" % strong)
    grub_cfg = ("### BEGIN /etc/grub.d/00_header ###\nset default=\"0\"\n\n"
                "set superusers=\"root admin\"\nexport superusers\n"
                "password_pbkdf2 root %s\n"
                "menuentry 'Linux' --unrestricted {\n  linux /vmlinuz\n}\n" % weak)
    write(tmp_path, "/boot/grub2/grub.cfg", grub_cfg)
    found, unknown = read_bootloader(str(tmp_path))
    assert unknown == []
    assert found == {"form": "grub_pbkdf2", "scheme": "pbkdf2_sha512", "cost": 1000, "superusers": ["root", "admin"],
                     "where": {"file": "/boot/grub2/grub.cfg", "line": 6}}
    # A password in the clear, anywhere, is what the boot loader is worth.
    write(tmp_path, "/boot/grub2/grub.cfg", grub_cfg + "password admin %s\n" % PLAIN_GRUB)
    found, unknown = read_bootloader(str(tmp_path))
    assert found["form"] == "plaintext" and found["scheme"] is None and found["cost"] is None
    assert found["where"] == {"file": "/boot/grub2/grub.cfg", "line": 10}
    assert_no_secret(found, strong, weak, "grub.pbkdf2", GRUB_SECRET, PLAIN_GRUB)
    assert_no_secret(unknown, strong, weak, "grub.pbkdf2", GRUB_SECRET, PLAIN_GRUB)


def test_bootloader_grub_d_and_efi_link(tmp_path):
    """The distribution's own /etc/grub.d scripts set no password; 40_custom's printed lines do.  A grub.cfg
    that is an absolute link is followed inside the tree."""
    grub_d = "/etc/grub.d"
    if not os.path.isdir(grub_d):
        tool("grub2-mkconfig", "grub-mkconfig")
        pytest.skip("no %s here" % grub_d)
    os.makedirs(str(tmp_path / "etc" / "grub.d"))
    for name in sorted(os.listdir(grub_d)):
        if os.path.isfile(os.path.join(grub_d, name)):
            shutil.copy(os.path.join(grub_d, name), str(tmp_path / "etc" / "grub.d" / name))
    found, unknown = read_bootloader(str(tmp_path))
    assert unknown == []
    assert found["form"] == "none" and found["where"] is None
    hashed = grub_hash(3000)
    write(tmp_path, grub_d + "/40_custom", "#!/bin/sh\nexec tail -n +3 $0\nset superusers=\"boss\"\n"
          "password_pbkdf2 boss %s\n" % hashed, 0o755)
    write(tmp_path, "/boot/efi/EFI/fedora/grub.cfg", "set superusers=\"root\"\npassword_pbkdf2 root %s\n"
          % grub_hash(5000))
    os.makedirs(str(tmp_path / "boot" / "grub2"))
    os.symlink("/boot/efi/EFI/fedora/grub.cfg", str(tmp_path / "boot" / "grub2" / "grub.cfg"))
    found, unknown = read_bootloader(str(tmp_path))
    assert unknown == []
    assert found["cost"] == 3000 and found["where"] == {"file": grub_d + "/40_custom", "line": 4}
    assert found["superusers"] == ["root", "boss"]
    os.remove(str(tmp_path / "etc" / "grub.d" / "40_custom"))
    found, dummy = read_bootloader(str(tmp_path))
    assert found["cost"] == 5000 and found["where"]["file"] == "/boot/grub2/grub.cfg"


def test_grub_lines_give_each_password_line_with_its_user():
    """What the boot-loader reader and the installed-secrets check both read: each line, its user and value."""
    text = ("set superusers=\"root admin\"\npassword_pbkdf2 root grub.pbkdf2.sha512.1000.AA.BB\n"
            "password admin %s\npassword_pbkdf2 root ${GRUB2_PASSWORD}\npassword_pbkdf2 root\n" % PLAIN_GRUB)
    path = "/boot/grub2/grub.cfg"
    assert list(grub_lines(text, path)) == [
        ("superusers", {"file": path, "line": 1}, ["root", "admin"], None),
        ("password_pbkdf2", {"file": path, "line": 2}, "root", "grub.pbkdf2.sha512.1000.AA.BB"),
        ("password", {"file": path, "line": 3}, "admin", PLAIN_GRUB),
        ("unparsed", {"file": path, "line": 5}, None, None)]
    assert list(grub_lines("GRUB2_PASSWORD=grub.pbkdf2.sha512.1000.AA.BB\n", USER_CFG)) == [
        ("password_pbkdf2", {"file": USER_CFG, "line": 1}, None, "grub.pbkdf2.sha512.1000.AA.BB")]
    # A # inside a word or quotes is the password's; one that begins a word starts a comment (sh's and GRUB's rule).
    text = "password root pass#word # a comment\npassword root 'quoted # kept' #cut\npassword root a\\ #b\n"
    assert [found[3] for found in grub_lines(text, path)] == ["pass#word", "quoted # kept", "a #b"]


def test_bootloader_none_and_unparsed(tmp_path):
    assert read_bootloader(str(tmp_path)) == (None, [])
    write(tmp_path, "/boot/grub/grub.cfg", "password_pbkdf2 root not-a-hash\npassword_pbkdf2 root 'open\n")
    found, unknown = read_bootloader(str(tmp_path))
    assert found["form"] == "unparsed" and found["where"] == {"file": "/boot/grub/grub.cfg", "line": 1}
    assert_no_secret(found, "not-a-hash")
    write(tmp_path, "/etc/grub.d/99_big", "#" * (host_disk.MAX_CONFIG_BYTES + 1))
    found, unknown = read_bootloader(str(tmp_path))
    assert [entry["where"] for entry in unknown] == [{"file": "/etc/grub.d/99_big"}]
    assert str(tmp_path) not in unknown[0]["what"]


# ---------------------------------------------------------------------------
# Leftover kickstarts
# ---------------------------------------------------------------------------

def crypted(password):
    lib = _libxcrypt.load()
    if lib is not None:
        return lib.crypt(password.encode(), lib.gensalt(b"$6$", 5000, None)).decode()
    openssl = tool("openssl")
    return subprocess.run([openssl, "passwd", "-6", "-stdin"], input=password + "\n", stdout=subprocess.PIPE,
                          universal_newlines=True, check=True, env=ENV).stdout.strip()


def test_leftovers_counts_and_kinds(tmp_path):
    hashed = crypted(ROOT_SECRET)
    assert hashed.startswith("$6$")
    write(tmp_path, "/root/original-ks.cfg",
          "#version=RHEL9\ntext\nrootpw --plaintext %s\nzerombr\nclearpart --all\n"
          "autopart --encrypted --passphrase=%s\nurl --url=https://builder:%s@repo.example.com/os\n"
          "%%post\necho 'alice:%s' | chpasswd\n%%end\n" % (ROOT_SECRET, LUKS_SECRET, URL_SECRET, ROOT_SECRET), 0o600)
    write(tmp_path, "/root/anaconda-ks.cfg",
          "# Generated by Anaconda\nrootpw --iscrypted %s\nuser --name=bob --lock\n" % hashed, 0o600)
    write(tmp_path, "/var/log/anaconda/ks-script-x.log",
          "+ cat /tmp/ks.cfg\nrootpw --plaintext %s\nbootloader --password=%s\nscript done\n"
          % (ROOT_SECRET, PLAIN_GRUB))
    write(tmp_path, "/var/log/anaconda/anaconda.log", "INF anaconda: Anaconda started\n" * 3000)
    os.makedirs(str(tmp_path / "var" / "log" / "anaconda" / "old"))
    found, unknown = read_leftovers(str(tmp_path))
    assert unknown == []
    assert found == [
        {"path": "/root/original-ks.cfg", "exists": True, "secrets": 4, "plaintext": 4,
         "kinds": ["rootpw", "luks passphrase", "url credential", "user"]},
        {"path": "/root/anaconda-ks.cfg", "exists": True, "secrets": 1, "plaintext": 0, "kinds": ["rootpw"]},
        {"path": "/var/log/anaconda/anaconda.log", "exists": True, "secrets": 0, "plaintext": 0, "kinds": []},
        {"path": "/var/log/anaconda/ks-script-x.log", "exists": True, "secrets": 2, "plaintext": 2,
         "kinds": ["rootpw", "bootloader"]},
    ]
    assert_no_secret(found, ROOT_SECRET, LUKS_SECRET, URL_SECRET, PLAIN_GRUB, hashed, "builder")


def test_leftovers_missing_unreadable_bounded(tmp_path, monkeypatch):
    assert read_leftovers(str(tmp_path)) == ([
        {"path": "/root/original-ks.cfg", "exists": False, "secrets": 0, "plaintext": 0, "kinds": []},
        {"path": "/root/anaconda-ks.cfg", "exists": False, "secrets": 0, "plaintext": 0, "kinds": []},
    ], [])
    write(tmp_path, "/root/original-ks.cfg", "rootpw --plaintext %s\n\0\n" % ROOT_SECRET)
    for number in range(5):
        write(tmp_path, "/var/log/anaconda/log%d" % number, "rootpw --plaintext %s\n" % ROOT_SECRET)
    monkeypatch.setattr(host_disk, "MAX_LOG_FILES", 3)
    found, unknown = read_leftovers(str(tmp_path))
    assert found[0] == {"path": "/root/original-ks.cfg", "exists": True, "secrets": None, "plaintext": None,
                        "kinds": []}
    assert [entry["path"] for entry in found[2:]] == ["/var/log/anaconda/log0", "/var/log/anaconda/log1",
                                                      "/var/log/anaconda/log2"]
    assert [entry["where"]["file"] for entry in unknown] == ["/var/log/anaconda", "/root/original-ks.cfg"]
    assert "NUL" in unknown[1]["what"]
    assert_no_secret([found, unknown], ROOT_SECRET)


# ---------------------------------------------------------------------------
# All of it
# ---------------------------------------------------------------------------

def test_read_disk(headers, tmp_path):
    write(tmp_path, "/boot/grub2/user.cfg", "GRUB2_PASSWORD=%s\n" % grub_hash(1500))
    posture = read_disk(str(tmp_path), real_run, devices=[headers["luks2"]])
    assert sorted(posture) == ["bootloader", "devices", "leftovers", "unknown"]
    assert posture["devices"] == [expected(headers)["luks2"]]
    assert posture["bootloader"]["cost"] == 1500
    assert [entry["exists"] for entry in posture["leftovers"]] == [False, False]
    assert posture["unknown"] == []
    posture = read_disk(str(tmp_path))
    assert posture["devices"] == [] and "no command runner" in posture["unknown"][0]["what"]
    posture = read_disk(str(tmp_path), real_run)
    assert posture["devices"] == [] and "give the devices" in posture["unknown"][0]["what"]
