# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ks_secrets_info module: its arguments, its result, its errors, and that none of them shows a secret."""

import json
import os
from unittest import mock

import pytest
from ansible.module_utils import basic
from ansible.module_utils.ansible_release import __version__ as ansible_version

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _libxcrypt
from ansible_collections.kickstart.pwpolicy.plugins.modules import ks_secrets_info as module
from ansible_collections.kickstart.pwpolicy.tests.unit.hashes import LIB
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak
from ansible_collections.kickstart.pwpolicy.tests.unit.module_runner import module_calls, run_module, warnings
from ansible_collections.kickstart.pwpolicy.tests.unit.samples import FOREMAN_ERB

run, ok, fail = module_calls(module.main)
# ansible-core 2.21 adds ``invocation`` only when asked; older cores always add it and know no such flag.
ASK = dict(_ansible_inject_invocation=True) \
    if tuple(int(part) for part in ansible_version.split(".")[:2]) >= (2, 21) else {}
PLAIN = "Site-Root-Pw-42"
LUKS = "changeme"


def kickstart():
    hashed = LIB.crypt(b"vagrant", b"$1$abcdefgh").decode() if LIB else "$1$abcdefgh$" + "a" * 22
    return ("#version=RHEL9\n"
            "rootpw --iscrypted %s\n"
            "user --name=ops --password=%s --plaintext\n"
            "part / --size=8000 --encrypted --passphrase=%s\n" % (hashed, PLAIN, LUKS)), hashed


def test_content_and_the_result(capsys):
    text, hashed = kickstart()
    result = ok(capsys, content=text, budget=2)
    assert result["changed"] is False and result["target"] == "RHEL9"
    shape = [(s["line"], s["command"], s["account"], s["form"], s["scheme"], [f["id"] for f in s["findings"]])
             for s in result["secrets"]]
    assert shape == [
        (2, "rootpw", "root", "crypt", "md5crypt", ["legacy_scheme"] + (["known_weak"] if LIB else [])),
        (3, "user", "ops", "plaintext", None, ["plaintext"]),
        (4, "part", None, "passphrase", None, ["plaintext", "policy"]),
    ]
    for secret in (PLAIN, LUKS, hashed, "vagrant"):
        assert_no_leak(secret, result)


def test_path_check_mode_and_the_file_stays(capsys, tmp_path):
    text, dummy = kickstart()
    path = tmp_path / "host.ks"
    path.write_text(text)
    os.chmod(str(path), 0o600)
    before = os.stat(str(path))
    results = [ok(capsys, path=str(path), check_mode=check_mode, budget=0) for check_mode in (False, True)]
    assert results[0]["secrets"] == results[1]["secrets"] and not any(r["changed"] for r in results)
    after = os.stat(str(path))
    assert (path.read_text(), after.st_mtime_ns, after.st_mode) == (text, before.st_mtime_ns, before.st_mode)


def test_a_template_with_a_profile_and_a_wordlist(capsys, tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("Site-Root-Pw-42\nother\n")
    text = FOREMAN_ERB + "sshpw --username=root --plaintext Site-Root-Pw-42\n"
    result = ok(capsys, content=text, template=True, profile="stig", target="RHEL9", wordlist=str(words), budget=0)
    assert [(s["command"], s["form"]) for s in result["secrets"]] == [
        ("rootpw", "template"), ("user", "template"), ("bootloader", "template"), ("sshpw", "plaintext")]
    assert [f["id"] for f in result["secrets"][-1]["findings"]] == ["plaintext", "policy"]
    # The one judge: what the template fills in is not checked, never accepted.
    assert "bootloader_password" in [d["what"] for d in result["not_checked"]]
    assert all(d["rule"].startswith("RHEL-09-") for d in result["deviations"] + result["not_checked"])
    assert_no_leak(PLAIN, result)


def test_with_a_profile_the_judge_names_each_deviation(capsys):
    text = "#version=RHEL9\nrootpw --lock\nautopart --type=lvm  # --encrypted\n"
    result = ok(capsys, content=text, profile="stig", budget=0)
    found = dict((d["rule"], d) for d in result["deviations"])
    assert found["RHEL-09-231190"]["where"] == {"line": 3} and found["RHEL-09-231190"]["found"] == (
        "autopart without --encrypted")
    assert found["RHEL-09-212010"]["found"] == "no bootloader line"
    assert "deviations" not in ok(capsys, content=text, budget=0)
    # The profile's name in any case; a typo of one is shown with a suggestion.
    assert ok(capsys, content=text, profile="STIG", budget=0)["deviations"] == result["deviations"]
    assert fail(capsys, content=text, profile="stgi", budget=0).startswith(
        "profile: unknown compliance profile 'stgi' (did you mean 'stig'?): give one of stig, ")


@pytest.mark.parametrize("args, says", [
    (dict(content="rootpw x\n", budget=-1), "budget must be a number of seconds from 0 to 3600, got -1"),
    (dict(content="rootpw x\n", profile="stig"), "profile stig needs a target release"),
    (dict(path="/nonexistent/ks.cfg"), "path /nonexistent/ks.cfg does not exist"),
    (dict(content="rootpw x\n", wordlist="/nonexistent/words"), "wordlist /nonexistent/words does not exist"),
])
def test_errors_are_clear(capsys, args, says):
    assert says in fail(capsys, **args)


def test_binary_and_oversized_files_are_refused(capsys, tmp_path):
    binary = tmp_path / "image.iso"
    binary.write_bytes(b"\x7fELF\xff\xfe\x00rootpw vagrant\n")
    assert "is not UTF-8 text" in fail(capsys, path=str(binary))
    big = tmp_path / "big.ks"
    with open(str(big), "wb") as handle:
        handle.truncate(17 * 1024 * 1024)
    assert "more than the 16777216 read at most" in fail(capsys, path=str(big))
    nul = tmp_path / "nul.ks"
    nul.write_bytes(b"rootpw x\n\x00\x01")
    assert "line 2 holds a NUL character" in fail(capsys, path=str(nul))
    words = tmp_path / "words.bin"
    words.write_bytes(b"a\x00b\n")
    assert "holds a NUL character" in fail(capsys, content="rootpw x\n", wordlist=str(words))


def test_a_failure_shows_no_secret_of_the_content(capsys):
    text = "rootpw --plaintext %s\n" % PLAIN + "lang en_US\n" * 2001
    result = run(capsys, content=text)
    assert result["failed"] and "more than 2000 command lines" in result["msg"]
    assert_no_leak(PLAIN, result)


def logged_runs(capsys, **args):
    """The result of a run and every message the module logged (to syslog or the journal on a node)."""
    logged = []

    def log(self, msg, log_args=None):
        logged.append((msg, log_args))
    result = run_module(module.main, capsys, dict(ASK, **args),
                        patches=[mock.patch.object(basic.AnsibleModule, "log", log)])
    return result, logged


def test_a_nul_in_content_is_refused_by_line_and_the_content_is_never_echoed(capsys):
    text = "rootpw --plaintext %s\nuser --name=ops\0 --password=%s\n" % (PLAIN, LUKS)
    result, logged = logged_runs(capsys, content=text)
    assert result["failed"] and result["lineno"] == 2
    assert result["msg"].startswith("line 2 holds a NUL character")
    for secret in (PLAIN, LUKS):
        assert_no_leak(secret, result, logged)
    assert "msg_to_log" not in result


def test_the_content_is_kept_out_of_the_log_and_the_invocation(capsys):
    # Short content too: "rootpw Hunter2-x" holds a secret in 16 characters or fewer.
    for text in ("rootpw %s\n" % PLAIN, "rootpw Hunter2-x"):
        result, logged = logged_runs(capsys, content=text, budget=0)
        assert not result.get("failed") and [s["form"] for s in result["secrets"]] == ["plaintext"]
        assert_no_leak(text.split()[1], result, logged)
        assert [args["content"] for dummy, args in logged] == ["NOT_LOGGING_PARAMETER"]
        if "invocation" in result:
            assert result["invocation"]["module_args"]["content"] != text


def test_missing_libxcrypt_is_a_warning_not_a_failure(capsys, monkeypatch):
    text, hashed = kickstart()
    monkeypatch.setattr(_libxcrypt, "load", lambda: None)
    result = ok(capsys, content=text, budget=1)
    assert result["secrets"][0]["tried"] == 0
    assert "cannot be loaded on this node" in warnings(result)
    assert_no_leak(hashed, json.dumps(result))
