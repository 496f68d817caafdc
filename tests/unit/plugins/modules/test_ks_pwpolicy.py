# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import stat

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.modules import ks_pwpolicy as module
from ansible_collections.kickstart.pwpolicy.tests.unit.module_runner import module_calls, warnings
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

SEED = "pwpolicy root --minlen=8 --minquality=50 --strict --nochanges --emptyok"
KS = ("#version=F33\r\n"
      "lang en_US.UTF-8\r\n"
      "rootpw --plaintext CorrectHorseBattery\r\n"
      "%include /tmp/generated-in-pre.ks\r\n"
      "\r\n"
      "%anaconda\r\n"
      "pwpolicy user --minlen 4\r\n"
      "%end")


run, ok, fail = module_calls(module.main)


def by_name(policies):
    return dict((p["name"], p) for p in policies)


def write(path, text):
    with open(str(path), "wb") as handle:
        handle.write(text.encode("utf-8"))


def read(path):
    with open(str(path), "rb") as handle:
        return handle.read().decode("utf-8")


def test_content_mode_seed(capsys):
    result = ok(capsys, content="#version=F25\nlang en_US\n", policies={"root": {}})
    assert result["kickstart"] == "#version=F25\nlang en_US\n\n%anaconda\n" + SEED + "\n%end\n"
    assert result["changed"] is True
    assert result["previous"] == []
    assert result["policies"] == [dict(name="root", minlen=8, minquality=50, strict=True,
                                       emptyok=True, changesok=False)]
    assert result["target"] == "F25"


def test_path_mode_surgical_idempotent_and_backup(capsys, tmp_path):
    path = tmp_path / "host.ks"
    write(path, KS)
    os.chmod(str(path), 0o640)
    first = ok(capsys, path=str(path), policies=[{"name": "user", "minlen": 10}, {"name": "root"}],
               backup=True)
    assert first["changed"] is True
    assert read(path) == KS.replace(
        "pwpolicy user --minlen 4\r\n",
        "pwpolicy root --minlen=6 --minquality=1 --notstrict --nochanges --emptyok\r\n"
        "pwpolicy user --minlen=10 --minquality=1 --notstrict --nochanges --emptyok\r\n")
    assert read(first["backup_file"]) == KS
    assert stat.S_IMODE(os.stat(str(path)).st_mode) == 0o640  # existing mode kept
    assert by_name(first["previous"])["user"]["minlen"] == 4
    second = ok(capsys, path=str(path), policies=[{"name": "user", "minlen": 10}, {"name": "root"}],
                backup=True)
    assert second["changed"] is False
    assert "backup_file" not in second
    assert second["policies"] == first["policies"] == second["previous"]


def test_new_file_is_0600(capsys, tmp_path):
    path = tmp_path / "new.ks"
    result = ok(capsys, path=str(path), target="RHEL8", product="server")
    assert result["changed"] is True
    assert stat.S_IMODE(os.stat(str(path)).st_mode) == 0o600
    assert read(path).startswith("%anaconda\npwpolicy root ")
    assert ok(capsys, path=str(path), target="RHEL8", product="server")["changed"] is False


def test_new_file_honours_mode(capsys, tmp_path):
    path = tmp_path / "new.ks"
    ok(capsys, path=str(path), target="RHEL8", policies={"root": {}}, mode="0640")
    assert stat.S_IMODE(os.stat(str(path)).st_mode) == 0o640


def test_a_missing_path_alone_is_created_with_a_warning(capsys, tmp_path):
    path = tmp_path / "typo.ks"
    result = ok(capsys, path=str(path), target="RHEL8", policies={"root": {}})
    assert result["changed"] is True and path.exists()
    assert ("%s does not exist: it is created holding only the %%anaconda section" % path
            in warnings(result))


def test_a_missing_path_with_content_is_created_without_a_warning(capsys, tmp_path):
    path = tmp_path / "new.ks"
    result = ok(capsys, path=str(path), content="#version=RHEL8\nlang en_US\n", policies={"root": {}})
    assert result["changed"] is True and path.exists()
    assert "does not exist" not in warnings(result)


@pytest.mark.parametrize("check_mode", [False, True])
def test_create_false_refuses_a_missing_path(capsys, tmp_path, check_mode):
    path = tmp_path / "typo.ks"
    message = fail(capsys, path=str(path), target="RHEL8", policies={"root": {}}, create=False,
                   check_mode=check_mode)
    assert message == ("path %s does not exist (create is false); give the path of an existing kickstart, "
                       "or set create to true" % path)
    assert not path.exists()


def test_create_false_edits_an_existing_path(capsys, tmp_path):
    path = tmp_path / "host.ks"
    write(path, KS)
    assert ok(capsys, path=str(path), policies={"root": {}}, create=False)["changed"] is True


def test_absent_on_missing_file_creates_nothing(capsys, tmp_path):
    path = tmp_path / "none.ks"
    result = ok(capsys, path=str(path), target="F33", state="absent")
    assert result["changed"] is False and not path.exists()


def test_check_mode_never_writes(capsys, tmp_path):
    path = tmp_path / "host.ks"
    write(path, KS)
    result = ok(capsys, path=str(path), policies={"luks": {"strict": True}}, check_mode=True, diff=True)
    assert result["changed"] is True
    assert read(path) == KS
    assert "pwpolicy luks" in result["diff"]["after"]
    new = tmp_path / "new.ks"
    assert ok(capsys, path=str(new), target="F33", policies={"root": {}}, check_mode=True)["changed"] is True
    assert not new.exists()


def test_diff_shows_only_anaconda_sections(capsys, tmp_path):
    path = tmp_path / "host.ks"
    write(path, KS)
    result = ok(capsys, path=str(path), policies={"user": {"minlen": 12}}, diff=True)
    assert result["diff"]["before"] == "%anaconda\r\npwpolicy user --minlen 4\r\n%end"
    assert result["diff"]["after"] == \
        "%anaconda\r\npwpolicy user --minlen=12 --minquality=1 --notstrict --nochanges --emptyok\r\n%end"
    assert_no_leak("CorrectHorseBattery", result)


def test_exclusive_and_absent(capsys):
    text = "#version=RHEL8\n%anaconda\npwpolicy root\npwpolicy user\n%end\n"
    result = ok(capsys, content=text, policies={"luks": {}}, exclusive=True)
    assert [p["name"] for p in result["policies"]] == ["luks"]
    gone = ok(capsys, content=result["kickstart"], state="absent")
    assert gone["kickstart"] == "#version=RHEL8\n"


def test_deprecated_target_warns(capsys):
    result = ok(capsys, content="#version=RHEL9\n", policies={"root": {}})
    assert "deprecated" in json.dumps(result.get("warnings", []))


def test_duplicate_warning(capsys):
    result = ok(capsys, content="#version=F33\n%anaconda\npwpolicy root\npwpolicy root --minlen=9\n%end\n",
                policies={}, state="absent")
    assert result["changed"] is False
    assert "the first one, on line 3, is in effect for F33" in json.dumps(result.get("warnings", []))
    assert by_name(result["policies"])["root"]["minlen"] == 6


@pytest.mark.parametrize("args, message", [
    (dict(content="lang en_US\n", policies={"root": {}}), "no #version= line: set target"),
    (dict(content="#version=F33\n%anaconda\npwpolicy root --minlen=x\n%end\n", policies={"root": {}}),
     "kickstart line 3: argument --minlen: invalid int value: 'x'"),
    (dict(content="#version=F33\n%anaconda\ninstallclass --name=x\n%end\n", policies={"root": {}}),
     "kickstart line 3: 'installclass' inside %anaconda: Fedora 33 stops with \"Unknown command\""),
    (dict(content="#version=F33\n%anaconda\npwpolicy root --noempty\n%end\n", policies={"root": {}}),
     "kickstart line 3: unknown option '--noempty'"),
    (dict(content="#version=F33\n%anaconda\npwpolicy\n%end\n", policies={"root": {}}),
     "kickstart line 3: pwpolicy needs a policy name"),
    (dict(content="#version=F40\n", policies={"root": {}}), "password_policies"),
    (dict(content="#version=F33\n", policies={"root": {"size": 3}}), "unknown key 'size'"),
    (dict(content="#version=F33\n"), "needs policies or product"),
    (dict(content="#version=F33\nrootpw a b CorrectHorse\n", policies={"root": {}}), "kickstart line 2: "),
    (dict(content="#version=F33\n", target="Fedora33", policies={"root": {}}), "unknown target 'Fedora33'"),
])
def test_errors(capsys, args, message):
    msg = fail(capsys, **args)
    assert message in msg
    assert "CorrectHorse" not in msg


def test_path_or_content_is_required(capsys):
    assert "one of the following is required" in fail(capsys, policies={})


def test_failure_leaves_file_untouched(capsys, tmp_path):
    path = tmp_path / "bad.ks"
    text = "#version=F33\n%anaconda\npwpolicy root --bogus\n%end\n"
    write(path, text)
    os.chmod(str(path), 0o644)
    msg = fail(capsys, path=str(path), policies={"root": {}}, mode="0600")
    assert "kickstart line 3" in msg and str(path) in msg
    assert read(path) == text
    assert stat.S_IMODE(os.stat(str(path)).st_mode) == 0o644


def test_directory_and_non_utf8(capsys, tmp_path):
    assert "is a directory" in fail(capsys, path=str(tmp_path), policies={"root": {}})
    path = tmp_path / "latin1.ks"
    with open(str(path), "wb") as handle:
        handle.write(b"#version=F33\n# caf\xe9\n")
    assert "not UTF-8" in fail(capsys, path=str(path), policies={"root": {}})


def test_missing_directory(capsys, tmp_path):
    assert "does not exist" in fail(capsys, path=str(tmp_path / "no" / "x.ks"), target="F33",
                                    policies={"root": {}})


def test_missing_pykickstart(capsys, monkeypatch):
    monkeypatch.setattr(module, "HAS_PYKICKSTART", False)
    msg = fail(capsys, content="#version=F33\n", policies={"root": {}})
    assert "pykickstart" in msg and "Failed to import the required Python library" in msg
