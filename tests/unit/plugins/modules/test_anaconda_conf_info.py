# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

import gzip
import json
import os

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _updates_image as ui
from ansible_collections.kickstart.pwpolicy.plugins.modules import anaconda_conf as writer
from ansible_collections.kickstart.pwpolicy.plugins.modules import anaconda_conf_info as module
from ansible_collections.kickstart.pwpolicy.tests.unit.module_runner import deprecations, module_calls, warnings

DROPIN = "etc/anaconda/conf.d/90-kickstart-pwpolicy.conf"
CONF = ("[User Interface]\n"
        "can_change_root = True\n"
        "password_policies =\n"
        "    root (quality 40, length 12, strict)\n"
        "    user (quality 10, length 8, empty)\n"
        "    luks (quality 50, length 24, strict)\n")
ROOT = dict(name="root", minlen=12, minquality=40, strict=True, emptyok=False, changesok=True)
USER = dict(name="user", minlen=8, minquality=10, strict=False, emptyok=True, changesok=False)
LUKS = dict(name="luks", minlen=24, minquality=50, strict=True, emptyok=False, changesok=False)

run, ok, fail = module_calls(module.main)
write_run, write_ok, write_fail = module_calls(writer.main)


def test_content(capsys):
    result = ok(capsys, content=CONF, target="F40")
    assert result["changed"] is False
    assert result["policies"] == [ROOT, USER, LUKS]
    assert (result["kind"], result["target"], result["conf"]) == ("dropin", "F40", CONF)
    assert "dropin" not in result and "warnings" not in result


def test_default_target_is_devel(capsys):
    assert ok(capsys, content=CONF)["target"] == "DEVEL"


@pytest.mark.parametrize("check_mode", [False, True])
def test_path_dropin_and_image(capsys, tmp_path, check_mode):
    dropin, image = tmp_path / "90.conf", tmp_path / "updates.img"
    dropin.write_text(CONF)
    image.write_bytes(ui.build_image({DROPIN: CONF}))
    stamps = [os.stat(str(p)).st_mtime_ns for p in (dropin, image)]
    result = ok(capsys, path=str(dropin), target="RHEL10", check_mode=check_mode)
    assert (result["changed"], result["kind"], result["policies"]) == (False, "dropin", [ROOT, USER, LUKS])
    result = ok(capsys, path=str(image), target="RHEL10", check_mode=check_mode)
    assert (result["changed"], result["kind"], result["dropin"]) == (False, "updates_image", DROPIN)
    assert result["policies"] == [ROOT, USER, LUKS] and result["conf"] == CONF
    assert [os.stat(str(p)).st_mtime_ns for p in (dropin, image)] == stamps
    assert dropin.read_text() == CONF


def test_plain_cpio_and_other_conf_name(capsys, tmp_path):
    image = tmp_path / "updates.img"
    image.write_bytes(gzip.decompress(ui.build_image({"etc/anaconda/conf.d/50-site.conf": CONF})))
    result = ok(capsys, path=str(image), target="F40", conf_name="50-site.conf")
    assert result["dropin"] == "etc/anaconda/conf.d/50-site.conf"
    assert result["policies"] == [ROOT, USER, LUKS]


def test_reads_what_the_writer_wrote(capsys, tmp_path):
    dest, image = tmp_path / "90.conf", tmp_path / "updates.img"
    written = write_ok(capsys, product="workstation", target="F42", policies={"luks": {"minlen": 30}},
                       dest=str(dest), updates_image=str(image))
    for source in (dict(path=str(dest)), dict(path=str(image)), dict(content=written["conf"])):
        result = ok(capsys, target="F42", **source)
        assert result["policies"] == written["policies"]
        assert result["conf"] == written["conf"]
    assert [p["minlen"] for p in result["policies"]] == [8, 8, 30]


@pytest.mark.parametrize("target", ["RHEL10", "F38"])
def test_reads_by_the_release_the_writer_wrote_for(capsys, tmp_path, target):
    dest, image = tmp_path / "90.conf", tmp_path / "updates.img"
    write_ok(capsys, product="server", target=target, dest=str(dest), updates_image=str(image))
    for path in (dest, image):
        result = ok(capsys, path=str(path))
        assert result["target"] == target
        assert "warnings" not in result


def test_a_given_target_wins_over_the_header_with_a_warning(capsys, tmp_path):
    image = tmp_path / "updates.img"
    write_ok(capsys, product="server", target="RHEL10", updates_image=str(image))
    result = ok(capsys, path=str(image), target="F42")
    assert result["target"] == "F42"
    assert "%s:%s was written for RHEL10; it is read by the rules of F42, as target says" % (image, DROPIN) \
        in warnings(result)
    assert "warnings" not in ok(capsys, path=str(image), target="RHEL10")


def test_missing_names_and_no_policies_warn(capsys):
    result = ok(capsys, content="[User Interface]\npassword_policies = root (quality 1, length 6)\n", target="F40")
    assert [p["name"] for p in result["policies"]] == ["root"]
    assert "has no line for user" in warnings(result) and "has no line for luks" in warnings(result)
    result = ok(capsys, content="[User Interface]\ncan_change_root = False\n", target="F40")
    assert result["policies"] == []
    assert "sets no password_policies in [User Interface]" in warnings(result)
    result = ok(capsys, content="", target="F40")
    assert result["policies"] == [] and "sets no password_policies" in warnings(result)


def test_parser_warnings_come_back(capsys):
    text = CONF + "    admin (quality 1, length 1)\n    root (quality 1, length 1)\n"
    result = ok(capsys, content=text, target="F40")
    assert result["policies"] == [ROOT, USER, LUKS]
    assert "line 7: the policy's name is not one the installer uses" in warnings(result)
    assert "line 8: policy 'root' is given again; the installer uses the first one" in warnings(result)


@pytest.mark.parametrize("args, message", [
    (dict(content=CONF, target="RHEL8"), "kickstart.pwpolicy.ks_pwpolicy"),
    (dict(content=CONF, target="F99x"), "unknown target"),
    (dict(content="[User Interface]\npassword_policies =\n  root (quality 1)\n", target="F40"),
     "content, line 3: length is required"),
    (dict(content="password_policies = root\n", target="F40"), "content is not a valid anaconda configuration"),
    (dict(content="[User Interface]\ncan_change_root = maybe\n", target="F40"), "can_change_root must be True or False"),
    (dict(target="F40"), "one of the following is required: path, content"),
    (dict(content=CONF, path="/tmp/x.conf"), "mutually exclusive: path|content"),
    (dict(content=CONF, product="server"), "Unsupported parameters"),
])
def test_errors(capsys, args, message):
    assert message in fail(capsys, **args)


def test_path_errors(capsys, tmp_path):
    assert "does not exist" in fail(capsys, path=str(tmp_path / "missing.conf"), target="F40")
    assert "is a directory" in fail(capsys, path=str(tmp_path), target="F40")
    image = tmp_path / "updates.img"
    image.write_bytes(ui.build_image({"etc/other": "x"}))
    msg = fail(capsys, path=str(image), target="F40")
    assert "is an updates image that holds no %s; set conf_name" % DROPIN in msg
    image.write_bytes(b"\x1f\x8bjunk")
    assert "cannot read it as an updates image" in fail(capsys, path=str(image), target="F40")
    image.write_bytes(ui.build_image({DROPIN: b"\xff\xfe"}))
    assert "%s is not UTF-8 text" % DROPIN in fail(capsys, path=str(image), target="F40")
    assert "conf_name" in fail(capsys, path=str(image), target="F40", conf_name="../x.conf")
    bad = tmp_path / "bad.conf"
    bad.write_text("[User Interface]\npassword_policies =\n  root (quality 1)\n")
    assert "%s, line 3" % bad in fail(capsys, path=str(bad), target="F40")


# --------------------------------------------------------------------------
# anaconda_conf's read mode
# --------------------------------------------------------------------------

def test_writer_read_mode_is_deprecated_and_still_reads(capsys, tmp_path):
    dest = tmp_path / "90.conf"
    dest.write_text(CONF)
    old = write_ok(capsys, target="F40", dest=str(dest))
    assert old["changed"] is False and old["policies"] == [ROOT, USER, LUKS]
    assert "kickstart.pwpolicy.anaconda_conf_info" in deprecations(old)
    assert "1.0.0" in deprecations(old)
    failed = write_run(capsys, target="F40", dest=str(tmp_path / "missing.conf"))
    assert failed["failed"] is True
    assert "anaconda_conf_info" in deprecations(failed)


def test_writer_does_not_warn_when_writing(capsys):
    for args in (dict(policies={}), dict(product="server")):
        result = write_ok(capsys, target="F40", **args)
        assert "anaconda_conf_info" not in deprecations(result)


# --------------------------------------------------------------------------
# a file given by mistake (a kickstart): never quoted
# --------------------------------------------------------------------------

SECRET = "Zq7Secret"
KICKSTART = ("#version=RHEL9\nlang en_US.UTF-8\nrootpw --plaintext %s\nuser --name=ops --password=%s:x\n"
             % (SECRET, SECRET))


def shown(result):
    """Everything the run shows but the arguments it echoes."""
    return json.dumps(dict((key, value) for key, value in result.items() if key != "invocation"))


@pytest.mark.parametrize("text, message", [
    (KICKSTART, "line 2: expected a section header such as [User Interface]"),
    ("[User Interface]\n" + KICKSTART, "line 3 (and 1 more): expected a [section] header"),
    ("[User Interface]\npassword_policies = root (quality 1, length %s)\n" % SECRET, "line 2: length must be"),
])
@pytest.mark.parametrize("check_mode", [False, True])
def test_a_kickstart_read_by_mistake_is_never_quoted(capsys, tmp_path, text, message, check_mode):
    path = tmp_path / "host.ks"
    path.write_text(text)
    for args in (dict(path=str(path)), dict(content=text)):
        result = run(capsys, target="RHEL10", check_mode=check_mode, **args)
        assert result["failed"] is True and message in result["msg"]
        assert SECRET not in shown(result)


def test_conf_shows_the_policy_lines_of_a_file_only(capsys):
    text = "[client]\npassword = %s\n\n%s# %s\n" % (SECRET, CONF, SECRET)
    result = ok(capsys, content=text, target="F40")
    assert result["policies"] == [ROOT, USER, LUKS]
    assert result["conf"] == "<line 1 not shown>\n<line 2 not shown>\n\n%s<line 10 not shown>\n" % CONF
    assert SECRET not in shown(result)
