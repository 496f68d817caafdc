# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The render_kickstart action's own steps (the role's integration targets run it end to end)."""

import os

import pytest
from ansible.plugins.action import ActionBase

from ansible_collections.kickstart.pwpolicy.plugins.action import render_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.action.render_kickstart import ActionModule
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import build_policies


def resolved(pwpolicies=None, product="server", target=None):
    """The policies as the pre-flight returns them: all three names, every field."""
    return dict((name, policy.to_dict()) for name, policy in
                build_policies(pwpolicies, product=product, target=target, every_name=True).items())


class _Task(object):
    no_log = False
    check_mode = False
    diff = False
    args = {}


class _Recorder(ActionModule):
    """The action with the module calls recorded instead of run."""

    def __init__(self):  # pylint: disable=super-init-not-called
        self._task = _Task()
        self._templar = None
        self.calls = []

    def _execute_module(self, module_name=None, module_args=None, task_vars=None, **kwargs):
        self.calls.append((module_name, module_args, self._task.no_log))
        return {"changed": False}

    def _template(self, value):
        return value


def test_modules_given_the_kickstart_text_run_as_no_log_and_the_task_is_left_as_it_was():
    action = _Recorder()
    own = dict((name, None) for name in render_kickstart.OWN_ARGS)
    plain = {"dest": "/srv/ks/a.ks", "product": "server", "pwpolicies": None, "target": "RHEL9"}
    action._kickstart(own, plain, resolved(), "rootpw --plaintext secret-text\n", "present", {}, "a")
    action._module("ansible.builtin.stat", {"path": "/srv/ks", "get_checksum": False}, {})
    (name, args, no_log), (stat_name, stat_args, stat_no_log) = action.calls
    assert (name, no_log) == ("kickstart.pwpolicy.ks_pwpolicy", True)
    assert args["content"].startswith("rootpw") and args["path"] == "/srv/ks/a.ks"
    assert "mode" not in args and "owner" not in args  # unset arguments are left out
    assert (stat_name, stat_no_log) == ("ansible.builtin.stat", False)
    assert action._task.no_log is False


def test_the_check_pass_is_the_write_in_check_mode():
    action = _Recorder()
    modes = []
    recorded = action._execute_module
    action._execute_module = lambda **kwargs: modes.append(action._task.check_mode) or recorded(**kwargs)
    own = dict((name, None) for name in render_kickstart.OWN_ARGS)
    own["mode"] = "0600"
    plain = {"dest": "/srv/ks/a.ks", "product": "server", "pwpolicies": None, "target": "F40"}
    action._kickstart(own, plain, resolved(), "text\n", "absent", {}, "a", check=True)
    (_name, args, _no_log), = action.calls
    assert args["path"] == "/srv/ks/a.ks" and args["mode"] == "0600" and args["state"] == "absent"
    assert modes == [True] and action._task.check_mode is False


def test_directories_are_looked_at_only_for_two_files_or_when_created():
    own = {"create_dirs": False}
    assert ActionModule._dirs(own, "/srv/ks/a.ks", None) == []
    assert ActionModule._dirs(own, "/srv/ks/a.ks", "/srv/img/a.img") == ["/srv/ks", "/srv/img"]
    assert ActionModule._dirs(own, "/srv/ks/a.ks", "/srv/ks/a.img") == ["/srv/ks"]
    assert ActionModule._dirs({"create_dirs": True}, "/srv/ks/a.ks", None) == ["/srv/ks"]


class _Checked(_Recorder):
    """The action with the pre-flight's outcome given: what run() does after it."""

    def __init__(self, flags, plain, policies=None, warnings=None):  # pylint: disable=super-init-not-called
        super(_Checked, self).__init__()
        self._task.args = {"dest": plain["dest"], "delivery": "auto"}
        self.flags, self.plain = flags, plain
        self.policies = resolved() if policies is None else policies
        self.warnings = warnings

    def _own(self):
        own = dict((name, None) for name in render_kickstart.OWN_ARGS)
        own["create_dirs"] = False
        return own

    def _check(self, result, task_vars):
        result.update(delivery=self.flags, policies=self.policies)
        if self.warnings:
            result["warnings"] = list(self.warnings)
        return result, self.plain, []


def test_an_updates_image_delivery_without_its_path_stops_before_rendering(monkeypatch):
    # ActionBase.run needs a whole task executor; its result here is the empty one it starts from.
    monkeypatch.setattr(ActionBase, "run", lambda self, tmp=None, task_vars=None: {})
    plain = {"dest": "/srv/ks/a.ks", "product": "server", "pwpolicies": None, "target": "F40", "updates_image": None}
    action = _Checked({"section": False, "updates_image": True}, plain)
    result = action.run(task_vars={})
    assert result["failed"] and "give updates_image" in result["msg"] and "F40" in result["msg"]
    assert action.calls == []


class _NotJson(_Recorder):
    """A module run by an interpreter that printed no result (a pyenv shim for a Python not selected)."""

    def _execute_module(self, module_name=None, module_args=None, task_vars=None, **kwargs):
        return {"failed": True, "msg": "Module result deserialization failed: No start of json char found",
                "module_stdout": "", "rc": 127,
                "module_stderr": "pyenv: python3.13: command not found\n\n"
                                 "The `python3.13' command exists in these Python versions:\n  3.13.0\n"}


def test_a_module_that_returned_no_result_shows_what_it_printed():
    action = _NotJson()
    own = dict((name, None) for name in render_kickstart.OWN_ARGS)
    plain = {"dest": "/srv/ks/a.ks", "product": "server", "pwpolicies": None, "target": "RHEL9"}
    with pytest.raises(render_kickstart.RenderError) as raised:
        action._kickstart(own, plain, resolved(), "text\n", "present", {}, "a")
    cause = raised.value.cause
    assert cause.startswith("Module result deserialization failed: No start of json char found; the module printed: "
                            "pyenv: python3.13: command not found | The `python3.13' command exists")
    assert "check ansible_python_interpreter" in cause


def test_module_failure_keeps_a_json_failure_as_it_is_and_bounds_long_output():
    assert render_kickstart.module_failure({"failed": True, "msg": "policy 'root': bad"}) == "policy 'root': bad"
    noisy = render_kickstart.module_failure({"msg": "MODULE FAILURE", "module_stderr": "x" * 5000 + "\nlast line\n"})
    assert "last line" in noisy and len(noisy) < render_kickstart.OUTPUT_CHARS + 200


# -- the whole run against the real modules, on real files ----------------------

HASHED = "lang en_US.UTF-8\nrootpw --iscrypted $6$rounds=5000$salt$%s\n" % ("x" * 86)


class _RealModules(_Checked):
    """The action after its pre-flight, with ks_pwpolicy and anaconda_conf run in-process on real files."""

    def __init__(self, capsys, target, dest, image, content, base_url=None, flags=None, policies=None,
                 warnings=None):  # pylint: disable=super-init-not-called
        plain = {"dest": str(dest), "product": "server", "pwpolicies": None, "target": target,
                 "updates_image": str(image) if image else None}
        super(_RealModules, self).__init__(flags or {"section": image is None, "updates_image": image is not None},
                                           plain, policies, warnings)
        self.capsys, self.content, self.base_url, self.modes = capsys, content, base_url, []

    def _own(self):
        own = super(_RealModules, self)._own()
        own["base_url"] = self.base_url
        return own

    def _render(self, own, plain, check, task_vars, hashes=None, scheme=None, boot_line=None):
        return self.content

    def _execute_module(self, module_name=None, module_args=None, task_vars=None, **kwargs):
        from ansible_collections.kickstart.pwpolicy.plugins.modules import anaconda_conf, ks_pwpolicy
        from ansible_collections.kickstart.pwpolicy.tests.unit.module_runner import run_module

        self.modes.append((module_name, self._task.check_mode))
        if module_name == "ansible.builtin.stat":
            path = module_args["path"]
            return {"stat": {"exists": os.path.exists(path), "isdir": os.path.isdir(path)}}
        main = {"kickstart.pwpolicy.ks_pwpolicy": ks_pwpolicy.main,
                "kickstart.pwpolicy.anaconda_conf": anaconda_conf.main}[module_name]
        done = run_module(main, self.capsys, module_args, check_mode=self._task.check_mode, diff=self._task.diff)
        # What ActionBase makes of a module's warnings: their texts (ansible-core 2.19 returns them as events).
        done["warnings"] = [item["event"]["msg"] if isinstance(item, dict) else item
                            for item in done.get("warnings", [])]
        return done


def _run(monkeypatch, action):
    monkeypatch.setattr(ActionBase, "run", lambda self, tmp=None, task_vars=None: {})
    return action.run(task_vars={"inventory_hostname": "web01"})


@pytest.mark.parametrize("blocker", ["directory", "link"])
def test_a_kickstart_that_cannot_be_written_leaves_the_updates_image_unbuilt(monkeypatch, capsys, tmp_path, blocker):
    dest, image = tmp_path / "web01.ks", tmp_path / "web01.updates.img"
    if blocker == "directory":
        dest.mkdir()  # the kickstart validates, but cannot be written there
    else:
        dest.symlink_to(tmp_path / "elsewhere.ks")  # a link is refused
    action = _RealModules(capsys, "F40", dest, image, HASHED)
    result = _run(monkeypatch, action)
    assert result["failed"] and result["changed"] is False
    assert "the kickstart could not be written on web01" in result["msg"] and "updates image" not in result["msg"]
    assert not image.exists() and sorted(os.listdir(str(tmp_path))) == ["web01.ks"]
    # The write was tried in check mode first, and the image module never ran.
    assert ("kickstart.pwpolicy.ks_pwpolicy", True) in action.modes
    assert "kickstart.pwpolicy.anaconda_conf" not in [name for name, _check in action.modes]


def test_the_write_is_checked_before_the_image_and_done_after_it(monkeypatch, capsys, tmp_path):
    dest, image = tmp_path / "web01.ks", tmp_path / "web01.updates.img"
    action = _RealModules(capsys, "RHEL10", dest, image, HASHED, base_url="http://ks.example.com/ks")
    result = _run(monkeypatch, action)
    assert not result.get("failed"), result.get("msg")
    assert [step for step in action.modes if step[0] != "ansible.builtin.stat"] == [
        ("kickstart.pwpolicy.ks_pwpolicy", True), ("kickstart.pwpolicy.anaconda_conf", False),
        ("kickstart.pwpolicy.ks_pwpolicy", False)]
    assert action._task.check_mode is False
    assert dest.exists() and image.exists()
    assert result["boot_args"] == ("inst.ks=http://ks.example.com/ks/web01.ks "
                                   "inst.updates=http://ks.example.com/ks/web01.updates.img inst.nosave=input_ks,output_ks")


@pytest.mark.parametrize("target, content, base_url, boot_line", [
    # A hash in the kickstart: the installer is told not to keep a copy of it.
    ("RHEL9", HASHED, "http://ks.example.com/ks/", "inst.ks=http://ks.example.com/ks/web01.ks inst.nosave=input_ks,output_ks"),
    ("F25", HASHED, None, "inst.ks={dest} inst.nosave=input_ks,output_ks"),
    # No secret in the kickstart: still none in the installer's own generated one (a typed password's hash).
    ("RHEL9", "lang en_US.UTF-8\nrootpw --lock\n", None, "inst.ks={dest} inst.nosave=output_ks"),
    # Fedora 23 keeps no copy.
    ("F23", HASHED, None, "inst.ks={dest}"),
    # Any secret ks_secrets_info reports counts, a credential too (the template of one's own writes it).
    ("RHEL9", "lang en_US.UTF-8\nrootpw --lock\nrhsm --organization=acme --activation-key=ak-web\n", None,
     "inst.ks={dest} inst.nosave=input_ks,output_ks"),
    ("RHEL9", "lang en_US.UTF-8\nrootpw --lock\nurl --url=https://mirror:s3cr3t@mirror.example.com/os\n", None,
     "inst.ks={dest} inst.nosave=input_ks,output_ks"),
])
def test_boot_args_is_the_whole_boot_line(monkeypatch, capsys, tmp_path, target, content, base_url, boot_line):
    dest = tmp_path / "web01.ks"
    result = _run(monkeypatch, _RealModules(capsys, target, dest, None, content, base_url=base_url))
    assert not result.get("failed"), result.get("msg")
    assert result["boot_args"] == boot_line.format(dest=dest)
    assert "original-ks.cfg" not in " ".join(result.get("warnings", []))


def test_fedora_24_keeps_the_copy_and_the_result_warns(monkeypatch, capsys, tmp_path):
    dest = tmp_path / "web01.ks"
    result = _run(monkeypatch, _RealModules(capsys, "F24", dest, None, HASHED))
    assert result["boot_args"] == "inst.ks=%s" % dest
    warned = [text for text in result["warnings"] if "/root/original-ks.cfg" in text]
    assert len(warned) == 1 and "Fedora 25" in warned[0]
    assert ("x" * 86) not in str(result)


@pytest.mark.parametrize("check_mode", [True, False])
def test_the_diff_is_the_masked_kickstart_and_only_when_the_task_asks(monkeypatch, capsys, tmp_path, check_mode):
    dest = tmp_path / "web01.ks"
    old_hash, new_hash = "$6$rounds=5000$salt$%s" % ("o" * 86), "$6$rounds=5000$salt$%s" % ("n" * 86)
    before = "lang en_US.UTF-8\ntimezone Etc/UTC\nrootpw --iscrypted %s\n" % old_hash
    dest.write_text(before)
    dest.chmod(0o600)
    after = before.replace("Etc/UTC", "Europe/Berlin").replace(old_hash, new_hash)
    quiet = _RealModules(capsys, "RHEL8", dest, None, after)
    quiet._task.check_mode = check_mode
    assert "diff" not in _run(monkeypatch, quiet)
    dest.write_text(before)
    action = _RealModules(capsys, "RHEL8", dest, None, after)
    action._task.check_mode, action._task.diff = check_mode, True
    result = _run(monkeypatch, action)
    assert not result.get("failed"), result.get("msg")
    diff = result["diff"]
    assert diff["before"].splitlines()[1:3] == ["timezone Etc/UTC", "rootpw --iscrypted <hidden>"]
    assert diff["after"].splitlines()[1:3] == ["timezone Europe/Berlin", "rootpw --iscrypted <hidden: changed>"]
    assert "ooooo" not in str(result) and "nnnnn" not in str(result)
    assert (dest.read_text() == before) is check_mode


def recording_modules(display_utils, messages, extra=()):
    """_RealModules whose modules' warnings (and ``extra``) are recorded for the task, as ansible-core 2.19+ does,
    and left out of their results."""

    class _Recording(_RealModules):
        def _execute_module(self, module_name=None, module_args=None, task_vars=None, **kwargs):
            done = super(_Recording, self)._execute_module(module_name, module_args, task_vars, **kwargs)
            context = display_utils.DeferredWarningContext.current()
            for text in done.pop("warnings", []) + list(extra):
                context.capture(messages.WarningSummary(event=messages.Event(msg=text)))
            done["warnings"] = []
            return done

    return _Recording


class _NoDirectory(_RealModules):
    """A host where the kickstart's directory is missing, and would be created (check mode)."""

    def _execute_module(self, module_name=None, module_args=None, task_vars=None, **kwargs):
        if module_name == "ansible.builtin.file":
            self.modes.append((module_name, self._task.check_mode))
            return {"changed": True}
        return super(_NoDirectory, self)._execute_module(module_name, module_args, task_vars, **kwargs)


def test_in_check_mode_a_missing_directory_gives_the_new_file_masked(monkeypatch, capsys, tmp_path):
    dest = tmp_path / "new" / "web01.ks"
    action = _NoDirectory(capsys, "RHEL9", dest, None, HASHED)
    action._own = lambda: dict(_RealModules._own(action), create_dirs=True)
    action._task.check_mode, action._task.diff = True, True
    result = _run(monkeypatch, action)
    assert result["changed"] and result["diff"]["before"] == ""
    assert result["diff"]["after"] == "lang en_US.UTF-8\nrootpw --iscrypted <hidden>\n"
    assert not dest.parent.exists()
