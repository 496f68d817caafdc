# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os

import pytest
from ansible.module_utils.ansible_release import __version__ as ansible_version

from ansible_collections.kickstart.pwpolicy.plugins.modules import ks_pwpolicy as writer
from ansible_collections.kickstart.pwpolicy.plugins.modules import ks_pwpolicy_info as module

from ansible_collections.kickstart.pwpolicy.tests.unit.module_runner import deprecations, module_calls, warnings

SECRET = "CorrectHorseBattery"
KS = ("#version=F33\n"
      "lang en_US.UTF-8\n"
      "rootpw --plaintext %s\n"
      "%%anaconda\n"
      "pwpolicy root --minlen=10 --minquality=40 --strict --nochanges --notempty\n"
      "pwpolicy luks --minlen 20\n"
      "%%end\n" % SECRET)
ROOT = dict(name="root", minlen=10, minquality=40, strict=True, emptyok=False, changesok=False)
# F33: an omitted option means minquality 1, not strict, no changes, empty allowed.
LUKS = dict(name="luks", minlen=20, minquality=1, strict=False, emptyok=True, changesok=False)

run, ok, fail = module_calls(module.main)
ANSIBLE_CORE = tuple(int(part) for part in ansible_version.split(".")[:2])
write_run, write_ok, write_fail = module_calls(writer.main)


def test_content(capsys):
    result = ok(capsys, content=KS)
    assert result["changed"] is False
    assert result["target"] == "F33"
    assert result["policies"] == [ROOT, LUKS]
    assert "warnings" not in result
    assert "kickstart" not in result


def test_path_check_mode_and_the_file_stays(capsys, tmp_path):
    path = tmp_path / "host.ks"
    path.write_text(KS)
    os.chmod(str(path), 0o600)
    before = os.stat(str(path))
    for check_mode in (False, True):
        result = ok(capsys, path=str(path), check_mode=check_mode)
        assert result["changed"] is False
        assert result["policies"] == [ROOT, LUKS]
    after = os.stat(str(path))
    assert path.read_text() == KS
    assert (after.st_mtime_ns, after.st_mode) == (before.st_mtime_ns, before.st_mode)


def test_relative_path(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.ks").write_text(KS)
    assert ok(capsys, path="a.ks")["policies"] == [ROOT, LUKS]


def test_same_policies_as_the_writer_returns(capsys):
    written = write_ok(capsys, content="#version=RHEL8\n", product="server")
    result = ok(capsys, content=written["kickstart"])
    assert result["policies"] == written["policies"]
    assert [p["minlen"] for p in result["policies"]] == [15, 15, 20]


def test_target_overrides_the_version_line(capsys):
    # F25: an omitted --minquality means 50, an omitted --strict means strict.
    result = ok(capsys, content=KS, target="F25")
    assert result["target"] == "F25"
    luks = result["policies"][1]
    assert (luks["minquality"], luks["strict"]) == (50, True)


def test_no_section_gives_no_policies(capsys):
    result = ok(capsys, content="#version=RHEL8\nlang en_US\n")
    assert result["policies"] == []
    assert result["target"] == "RHEL8"


def test_duplicates_warn_and_name_the_one_in_effect(capsys):
    text = "#version=F34\n%anaconda\npwpolicy root --minlen=7\npwpolicy root --minlen=9\n%end\n"
    result = ok(capsys, content=text)
    assert result["policies"][0]["minlen"] == 9
    assert "the last one, on line 4, is in effect for F34" in warnings(result)
    assert "deprecated" in warnings(result)


def test_removed_section_still_reads_with_a_warning(capsys):
    result = ok(capsys, content="#version=F40\n%anaconda\npwpolicy root --minlen=12\n%end\n")
    assert result["policies"][0]["minlen"] == 12
    assert "password_policies" in warnings(result)


def test_validate_false_reads_only_the_sections(capsys):
    text = "#version=F33\nbogus_command --x\n%{ if x ~}\n%anaconda\npwpolicy root --minlen=11\n%end\n"
    assert "kickstart line 2" in fail(capsys, content=text)
    result = ok(capsys, content=text, validate=False)
    assert result["policies"][0]["minlen"] == 11
    assert "line 2" not in warnings(result) and "bogus" not in warnings(result)


@pytest.mark.parametrize("args, message", [
    (dict(content="lang en_US\n"), "no #version= line: set target"),
    (dict(content=KS, target="Fedora33"), "unknown target 'Fedora33'"),
    (dict(content="#version=F33\nrootpw --plaintext %s\n%%anaconda\npwpolicy root --minlen=x\n%%end\n" % SECRET),
     "kickstart line 4: argument --minlen: invalid int value: 'x'"),
    (dict(content="#version=F33\n%anaconda\nlang en_US\n%end\n"), "kickstart line 3: 'lang' inside %anaconda"),
    (dict(content="#version=F33\nrootpw a b %s\n" % SECRET), "kickstart line 2: "),
    (dict(), "one of the following is required: path, content"),
    (dict(content=KS, path="/tmp/x.ks"), "mutually exclusive: path|content"),
    (dict(content=KS, policies={}), "Unsupported parameters"),
])
def test_errors(capsys, args, message):
    msg = fail(capsys, **args)
    assert message in msg
    assert SECRET not in msg


def test_error_names_path_and_line(capsys, tmp_path):
    path = tmp_path / "bad.ks"
    path.write_text("#version=F33\n%anaconda\npwpolicy root --bogus\n%end\n")
    result = run(capsys, path=str(path))
    assert result["failed"] is True
    assert result["lineno"] == 3
    assert str(path) in result["msg"]


def test_file_errors(capsys, tmp_path):
    assert "does not exist" in fail(capsys, path=str(tmp_path / "missing.ks"))
    assert "is a directory" in fail(capsys, path=str(tmp_path))
    binary = tmp_path / "latin1.ks"
    binary.write_bytes(b"#version=F33\nlang caf\xe9\n")
    assert "is not UTF-8 text" in fail(capsys, path=str(binary))


def test_no_secret_in_the_result(capsys):
    # ansible-core 2.21 adds ``invocation`` only when asked; older cores always add it and know no such flag.
    ask = dict(_ansible_inject_invocation=True) if ANSIBLE_CORE >= (2, 21) else {}
    result = run(capsys, content=KS, **ask)
    assert SECRET not in json.dumps(result)
    assert result["invocation"]["module_args"]["content"] != KS


# --------------------------------------------------------------------------
# ks_pwpolicy's read-only spelling
# --------------------------------------------------------------------------

def test_writer_read_spelling_is_deprecated_and_still_reads(capsys):
    old = write_ok(capsys, content=KS, state="absent", policies={})
    assert old["changed"] is False
    assert old["policies"] == [ROOT, LUKS]
    assert "kickstart.pwpolicy.ks_pwpolicy_info" in deprecations(old)
    assert "1.0.0" in deprecations(old)


@pytest.mark.parametrize("args", [
    dict(state="absent"),
    dict(state="absent", policies={"root": {}}),
    dict(state="absent", product="server", policies={}),
    dict(policies={"root": {}}),
])
def test_writer_other_spellings_are_not_deprecated(capsys, args):
    result = write_ok(capsys, content=KS, **args)
    assert "deprecations" not in result or "ks_pwpolicy_info" not in deprecations(result)
