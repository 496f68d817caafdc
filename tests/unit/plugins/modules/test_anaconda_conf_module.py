# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import stat

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _updates_image as ui
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf_parse import parse_conf
from ansible_collections.kickstart.pwpolicy.plugins.modules import anaconda_conf as module
from ansible_collections.kickstart.pwpolicy.tests.unit.module_runner import module_calls, warnings

DROPIN = "etc/anaconda/conf.d/90-kickstart-pwpolicy.conf"


run, ok, fail = module_calls(module.main)


def by_name(result, key="policies"):
    return dict((p["name"], p) for p in result[key])


# --------------------------------------------------------------------------
# dest
# --------------------------------------------------------------------------

def test_dest_write_then_idempotent(capsys, tmp_path):
    dest = tmp_path / "90.conf"
    first = ok(capsys, product="server", target="RHEL10", dest=str(dest))
    assert first["changed"] is True
    assert dest.read_text() == first["conf"]
    assert stat.S_IMODE(os.stat(str(dest)).st_mode) == 0o644
    assert first["previous"] == []
    assert [p["name"] for p in first["policies"]] == ["root", "user", "luks"]
    assert by_name(first)["luks"]["minlen"] == 20
    second = ok(capsys, product="server", target="RHEL10", dest=str(dest))
    assert second["changed"] is False
    assert second["previous"] == second["policies"] == first["policies"]


def test_dest_update_diff_and_backup(capsys, tmp_path):
    dest = tmp_path / "90.conf"
    ok(capsys, target="F40", dest=str(dest), policies={})
    before = dest.read_text()
    result = ok(capsys, target="F40", dest=str(dest), policies={"root": {"minlen": 12}}, diff=True, backup=True)
    assert result["changed"] is True
    assert result["diff"]["before"] == before
    assert result["diff"]["after"] == dest.read_text()
    assert "root (quality 1, length 12)" in result["diff"]["after"]
    assert by_name(result, "previous")["root"]["minlen"] == 6
    with open(result["backup_file"]) as stream:
        assert stream.read() == before


def test_dest_check_mode_writes_nothing(capsys, tmp_path):
    dest = tmp_path / "90.conf"
    result = ok(capsys, product="cloud", target="F40", dest=str(dest), check_mode=True, diff=True)
    assert result["changed"] is True
    assert not dest.exists()
    assert result["diff"]["before"] == ""
    assert "password_policies =" in result["diff"]["after"]
    ok(capsys, product="cloud", target="F40", dest=str(dest))
    result = ok(capsys, product="cloud", target="F40", dest=str(dest), check_mode=True)
    assert result["changed"] is False


def test_dest_mode_and_unreadable_previous_drop_in(capsys, tmp_path):
    dest = tmp_path / "90.conf"
    dest.write_text("[User Interface]\npassword_policies = root (quality 1)\n")
    result = ok(capsys, product="workstation", target="F40", dest=str(dest), mode="0600")
    assert result["changed"] is True
    assert result["previous"] == []
    assert "line 2: length is required" in warnings(result) and "it will be replaced" in warnings(result)
    assert stat.S_IMODE(os.stat(str(dest)).st_mode) == 0o600
    again = ok(capsys, product="workstation", target="F40", dest=str(dest), mode="0640")
    assert again["changed"] is True  # only the mode
    assert stat.S_IMODE(os.stat(str(dest)).st_mode) == 0o640


def test_workstation_changesok_maps_to_can_change(capsys, tmp_path):
    result = ok(capsys, product="workstation", target="F40", content="")
    assert "can_change_root = True" in result["conf"]
    assert "can_change_users = True" in result["conf"]


def test_luks_changesok_warns(capsys):
    result = ok(capsys, target="F40", policies={"luks": {"changesok": True}})
    assert "policy 'luks': changesok has no anaconda configuration option" in warnings(result)
    assert by_name(result)["luks"]["changesok"] is False


# --------------------------------------------------------------------------
# updates image
# --------------------------------------------------------------------------

def test_image_build_and_idempotence(capsys, tmp_path):
    image = tmp_path / "updates.img"
    first = ok(capsys, product="server", target="F40", updates_image=str(image))
    assert first["changed"] is True
    assert first["updates_image"] == str(image)
    assert first["dropin"] == DROPIN
    data = image.read_bytes()
    assert data == ui.build_image({DROPIN: first["conf"]})
    assert stat.S_IMODE(os.stat(str(image)).st_mode) == 0o644
    os.utime(str(image), (1, 1))  # the file's own time does not matter
    second = ok(capsys, product="server", target="F40", updates_image=str(image))
    assert second["changed"] is False
    assert second["previous"] == first["policies"]
    assert image.read_bytes() == data


def test_image_equal_content_other_bytes_is_not_a_change(capsys, tmp_path):
    image = tmp_path / "updates.img"
    conf = ok(capsys, product="server", target="F40")["conf"]
    # same members, other compression level: content is what counts
    import gzip
    image.write_bytes(gzip.compress(ui.build_cpio({DROPIN: conf}), compresslevel=1, mtime=0))
    before = image.read_bytes()
    result = ok(capsys, product="server", target="F40", updates_image=str(image))
    assert result["changed"] is False
    assert image.read_bytes() == before


def test_image_changes_with_conf_name_and_mtime(capsys, tmp_path):
    image = tmp_path / "updates.img"
    ok(capsys, target="RHEL10", updates_image=str(image), policies={})
    result = ok(capsys, target="RHEL10", updates_image=str(image), conf_name="99-x.conf", diff=True, policies={})
    assert result["changed"] is True and result["dropin"] == "etc/anaconda/conf.d/99-x.conf"
    assert result["diff"]["before"] == ""
    members = ui.read_image(image.read_bytes())
    assert [m.name for m in members][-1] == "etc/anaconda/conf.d/99-x.conf"
    result = ok(capsys, target="RHEL10", updates_image=str(image), conf_name="99-x.conf", image_mtime=1234,
                policies={})
    assert result["changed"] is True
    assert all(m.mtime == 1234 for m in ui.read_image(image.read_bytes()))


def test_dest_and_image_together_with_diff_list(capsys, tmp_path):
    dest, image = tmp_path / "90.conf", tmp_path / "updates.img"
    result = ok(capsys, product="cloud", target="RHEL10", dest=str(dest), updates_image=str(image), diff=True)
    assert isinstance(result["diff"], list) and len(result["diff"]) == 2
    assert result["diff"][1]["before_header"] == "%s:%s" % (image, DROPIN)
    assert ui.image_files(ui.read_image(image.read_bytes())) == {DROPIN: dest.read_bytes()}
    again = ok(capsys, product="cloud", target="RHEL10", dest=str(dest), updates_image=str(image), diff=True)
    assert again["changed"] is False and "diff" not in again


def test_image_check_mode(capsys, tmp_path):
    image = tmp_path / "updates.img"
    result = ok(capsys, product="cloud", target="RHEL10", updates_image=str(image), check_mode=True)
    assert result["changed"] is True and not image.exists()


def test_a_damaged_image_is_replaced_with_warning_and_backup(capsys, tmp_path):
    image = tmp_path / "updates.img"
    image.write_bytes(b"\x1f\x8bnot an image")
    result = ok(capsys, target="RHEL10", updates_image=str(image), backup=True, policies=[])
    assert result["changed"] is True
    assert "is not a readable updates image" in warnings(result)
    with open(result["backup_image"], "rb") as stream:
        assert stream.read() == b"\x1f\x8bnot an image"
    assert ui.image_files(ui.read_image(image.read_bytes()))[DROPIN].decode() == result["conf"]


# --------------------------------------------------------------------------
# content and read modes
# --------------------------------------------------------------------------

def test_render_only_is_not_a_change(capsys):
    result = ok(capsys, product="server", target="F42")
    assert result["changed"] is False
    assert parse_conf(result["conf"], "F42").policies["root"].minlen == 15
    assert "dest" not in result and "updates_image" not in result


def test_content_mode(capsys):
    conf = ok(capsys, product="server", target="F42")["conf"]
    same = ok(capsys, product="server", target="F42", content=conf, diff=True)
    assert same["changed"] is False and same["previous"] == same["policies"]
    other = ok(capsys, product="cloud", target="F42", policies={"luks": {"minlen": 40}}, content=conf, diff=True)
    assert other["changed"] is True
    assert other["diff"]["before"] == conf and other["diff"]["after"] == other["conf"]


def test_empty_policies_write_the_shipped_defaults(capsys):
    result = ok(capsys, target="RHEL10", policies={})
    assert "    user (quality 1, length 6, empty)\n" in result["conf"]
    assert by_name(result)["root"] == dict(name="root", minlen=6, minquality=1, strict=False,
                                           emptyok=False, changesok=False)


def test_read_mode(capsys, tmp_path):
    dest, image = tmp_path / "90.conf", tmp_path / "updates.img"
    written = ok(capsys, product="workstation", target="F40", dest=str(dest), updates_image=str(image))
    for source in (dict(dest=str(dest)), dict(updates_image=str(image)), dict(content=written["conf"])):
        result = ok(capsys, target="F40", **source)
        assert result["changed"] is False
        assert result["policies"] == written["policies"]
        assert result["conf"] == written["conf"]


def test_read_mode_errors(capsys, tmp_path):
    msg = fail(capsys, target="F40", dest=str(tmp_path / "missing.conf"))
    assert "does not exist" in msg
    bad = tmp_path / "bad.conf"
    bad.write_text("[User Interface]\npassword_policies =\n  root (quality 1)\n")
    msg = fail(capsys, target="F40", dest=str(bad))
    assert "line 3" in msg and "length is required" in msg
    image = tmp_path / "updates.img"
    image.write_bytes(ui.build_image({"etc/other": "x"}))
    msg = fail(capsys, target="F40", updates_image=str(image))
    assert "holds no %s" % DROPIN in msg
    image.write_bytes(b"junk")
    msg = fail(capsys, target="F40", updates_image=str(image))
    assert "cannot read it as an updates image" in msg


# --------------------------------------------------------------------------
# errors
# --------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (dict(target="RHEL8", product="server"), "kickstart.pwpolicy.ks_pwpolicy"),
    (dict(target="F33", product="server"), "Fedora 34 and RHEL 9"),
    (dict(target="F99x", product="server"), "unknown target"),
    (dict(target="F40", policies={"admin": {}}), "unknown policy name"),
    (dict(target="F40", policies={"root": {"minlen": -1}}), "minlen must be a whole number"),
    (dict(target="F40", policies={"root": {"strickt": True}}), "unknown key 'strickt'"),
    (dict(target="F40", policies="root"), "policies must be a dict"),
    (dict(target="F40", product="server", conf_name="pw.cfg"), "*.conf"),
    (dict(target="F40", product="server", image_mtime=-5), "image_mtime"),
    (dict(target="F40", product="server", content="", dest="/tmp/x.conf"), "mutually exclusive"),
    (dict(target="F40", product="server", content="", updates_image="/tmp/x.img"), "mutually exclusive"),
    (dict(target="F40", product="server", dest="/nonexistent-dir/x.conf"), "does not exist; create it first"),
])
def test_errors(capsys, args, message):
    assert message in fail(capsys, **args)


def test_dest_is_a_directory(capsys, tmp_path):
    assert "is a directory" in fail(capsys, target="F40", product="server", dest=str(tmp_path))


def test_failed_run_leaves_the_file_untouched(capsys, tmp_path):
    dest = tmp_path / "90.conf"
    dest.write_text("keep me\n")
    fail(capsys, target="F40", policies={"root": {"minlen": "x"}}, dest=str(dest))
    assert dest.read_text() == "keep me\n"


def test_relative_paths_are_taken_from_where_the_module_runs(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = ok(capsys, product="server", target="RHEL10", dest="90.conf", updates_image="updates.img")
    assert result["changed"] is True
    assert (tmp_path / "90.conf").read_text() == result["conf"]
    assert ui.image_files(ui.read_image((tmp_path / "updates.img").read_bytes()))[DROPIN] == result["conf"].encode()
    again = ok(capsys, product="server", target="RHEL10", dest="90.conf", updates_image="updates.img")
    assert again["changed"] is False


def test_check_mode_reports_a_change_when_the_directory_is_not_there_yet(capsys, tmp_path):
    missing = tmp_path / "later"
    result = ok(capsys, check_mode=True, product="server", target="RHEL10",
                dest=str(missing / "90.conf"), updates_image=str(missing / "updates.img"))
    assert result["changed"] is True
    assert not missing.exists()


# --------------------------------------------------------------------------
# a file given by mistake (a kickstart): never quoted, never replaced
# --------------------------------------------------------------------------

SECRET = "Zq7Secret"
KICKSTART = ("#version=RHEL9\nlang en_US.UTF-8\nrootpw --plaintext %s\nuser --name=ops --password=%s:x\n"
             % (SECRET, SECRET))
# INI files that are no drop-in of ours, or a broken one: replaced (the module owns dest), shown masked.
OTHER_INI = [
    "[client]\npassword = %s\n" % SECRET,
    "[User Interface]\ncan_change_root = %s\n" % SECRET,
    "[User Interface]\npassword_policies =\n    root (quality 1, length 6)\n    %s (quality 1, length 6)\n" % SECRET,
    "[User Interface]\npassword_policies = root (quality %s, length 6)\n" % SECRET,
]


def shown(result):
    """Everything the run shows: its result (the arguments it echoes left out), warnings and diff included."""
    return json.dumps(dict((key, value) for key, value in result.items() if key != "invocation"))


@pytest.mark.parametrize("check_mode", [False, True])
@pytest.mark.parametrize("text", [KICKSTART, "[User Interface]\n" + KICKSTART])
def test_a_kickstart_as_dest_is_refused_and_never_quoted(capsys, tmp_path, text, check_mode):
    dest = tmp_path / "host.ks"
    dest.write_text(text)
    result = run(capsys, product="server", target="RHEL10", dest=str(dest), diff=True, check_mode=check_mode,
                 backup=True)
    assert result["failed"] is True and "diff" not in result
    assert "%s is not a valid anaconda configuration file: line " % dest in result["msg"]
    assert "it is not replaced: point path at the drop-in" in result["msg"]
    assert SECRET not in shown(result)
    assert dest.read_text() == text and os.listdir(str(tmp_path)) == ["host.ks"]


@pytest.mark.parametrize("text", OTHER_INI)
def test_a_diff_of_another_ini_file_shows_its_policy_lines_only(capsys, tmp_path, text):
    dest = tmp_path / "90.conf"
    dest.write_text(text)
    check = ok(capsys, product="server", target="RHEL10", dest=str(dest), diff=True, check_mode=True)
    result = ok(capsys, product="server", target="RHEL10", dest=str(dest), diff=True)
    for run_result in (check, result):
        assert run_result["changed"] is True and "not shown>" in run_result["diff"]["before"]
        assert SECRET not in shown(run_result)
    assert dest.read_text() == result["conf"]


@pytest.mark.parametrize("text", [KICKSTART] + OTHER_INI)
def test_content_mode_never_shows_a_foreign_line(capsys, text):
    result = ok(capsys, product="server", target="RHEL10", content=text, diff=True)
    assert result["changed"] is True and "not shown>" in result["diff"]["before"]
    assert SECRET not in shown(result)


def test_a_kickstart_in_the_image_or_as_the_image_is_never_quoted(capsys, tmp_path):
    image = tmp_path / "updates.img"
    image.write_bytes(ui.build_image({DROPIN: KICKSTART}))
    result = ok(capsys, product="server", target="RHEL10", updates_image=str(image), diff=True)
    assert result["changed"] is True and "<line 3 not shown>" in result["diff"]["before"]
    assert "line 2: expected a section header" in warnings(result) and SECRET not in shown(result)
    image.write_text(KICKSTART)
    for check_mode in (True, False):
        result = run(capsys, product="server", target="RHEL10", updates_image=str(image), diff=True,
                     check_mode=check_mode)
        assert result["failed"] is True and "it is neither gzip data nor a newc cpio archive" in result["msg"]
        assert "it is not replaced" in result["msg"] and SECRET not in shown(result)
    assert image.read_text() == KICKSTART


@pytest.mark.parametrize("source", ["dest", "updates_image", "content"])
def test_the_deprecated_read_mode_never_quotes_a_kickstart(capsys, tmp_path, source):
    path = tmp_path / "host.ks"
    path.write_text(KICKSTART)
    args = dict(content=KICKSTART) if source == "content" else {source: str(path)}
    result = run(capsys, target="RHEL10", diff=True, **args)
    assert result["failed"] is True and ("line 2" in result["msg"] or "neither gzip" in result["msg"])
    assert SECRET not in shown(result)


@pytest.mark.parametrize("option", ["path", "dest"])
def test_path_is_the_option_and_dest_its_alias(capsys, tmp_path, option):
    target = tmp_path / "90.conf"
    result = ok(capsys, product="server", target="RHEL10", **{option: str(target)})
    assert result["changed"] and result["path"] == result["dest"] == str(target)
    assert "password_policies" in target.read_text()
