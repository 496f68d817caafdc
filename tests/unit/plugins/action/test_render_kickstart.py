# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The render_kickstart action's own steps (the role's integration targets run it end to end)."""

from ansible.plugins.action import ActionBase

from ansible_collections.kickstart.pwpolicy.plugins.action import render_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.action.render_kickstart import ActionModule, _first_cause


class _Task(object):
    no_log = False
    check_mode = False
    args = {}


class _Recorder(ActionModule):
    """The action with the module calls recorded instead of run."""

    def __init__(self):  # pylint: disable=super-init-not-called
        self._task = _Task()
        self.calls = []

    def _execute_module(self, module_name=None, module_args=None, task_vars=None, **kwargs):
        self.calls.append((module_name, module_args, self._task.no_log))
        return {"changed": False}

    def _template(self, value):
        return value


def test_the_cause_is_ansibles_innermost_message_once():
    message = ("Error while resolving value for 'content': The error was: 'site_hostname' is undefined. "
               "'site_hostname' is undefined\nmore lines")
    assert _first_cause(message) == "'site_hostname' is undefined"
    assert _first_cause("Could not hash the secret. rounds must be at least 1000") == "rounds must be at least 1000"
    assert _first_cause("") == ""


def test_modules_given_the_kickstart_text_run_as_no_log_and_the_task_is_left_as_it_was():
    action = _Recorder()
    own = dict((name, None) for name in render_kickstart.OWN_ARGS)
    plain = {"dest": "/srv/ks/a.ks", "product": "server", "pwpolicies": None, "target": "RHEL9"}
    action._kickstart(own, plain, "rootpw --plaintext secret-text\n", "present", {}, "a")
    action._module("ansible.builtin.stat", {"path": "/srv/ks", "get_checksum": False}, {})
    (name, args, no_log), (stat_name, stat_args, stat_no_log) = action.calls
    assert (name, no_log) == ("kickstart.pwpolicy.ks_pwpolicy", True)
    assert args["content"].startswith("rootpw") and args["path"] == "/srv/ks/a.ks"
    assert "mode" not in args and "policies" not in args  # unset arguments are left out
    assert (stat_name, stat_no_log) == ("ansible.builtin.stat", False)
    assert action._task.no_log is False


def test_the_validation_pass_writes_nothing():
    action = _Recorder()
    own = dict((name, None) for name in render_kickstart.OWN_ARGS)
    own["mode"] = "0600"
    plain = {"dest": "/srv/ks/a.ks", "product": "server", "pwpolicies": None, "target": "F40"}
    action._kickstart(own, plain, "text\n", "absent", {}, "a", write=False)
    (_name, args, _no_log), = action.calls
    assert "path" not in args and "mode" not in args and args["state"] == "absent"


def test_directories_are_looked_at_only_for_two_files_or_when_created():
    own = {"create_dirs": False}
    assert ActionModule._dirs(own, "/srv/ks/a.ks", None) == []
    assert ActionModule._dirs(own, "/srv/ks/a.ks", "/srv/img/a.img") == ["/srv/ks", "/srv/img"]
    assert ActionModule._dirs(own, "/srv/ks/a.ks", "/srv/ks/a.img") == ["/srv/ks"]
    assert ActionModule._dirs({"create_dirs": True}, "/srv/ks/a.ks", None) == ["/srv/ks"]


class _Checked(_Recorder):
    """The action with the pre-flight's outcome given: what run() does after it."""

    def __init__(self, flags, plain):  # pylint: disable=super-init-not-called
        super(_Checked, self).__init__()
        self._task.args = {"dest": plain["dest"], "delivery": "auto"}
        self.flags, self.plain = flags, plain

    def _own(self):
        own = dict((name, None) for name in render_kickstart.OWN_ARGS)
        own["create_dirs"] = False
        return own

    def _check(self, result, task_vars):
        result.update(delivery=self.flags, policies={})
        return result, self.plain, []


def test_an_updates_image_delivery_without_its_path_stops_before_rendering(monkeypatch):
    # ActionBase.run needs a whole task executor; its result here is the empty one it starts from.
    monkeypatch.setattr(ActionBase, "run", lambda self, tmp=None, task_vars=None: {})
    plain = {"dest": "/srv/ks/a.ks", "product": "server", "pwpolicies": None, "target": "F40", "updates_image": None}
    action = _Checked({"section": False, "updates_image": True}, plain)
    result = action.run(task_vars={})
    assert result["failed"] and "give updates_image" in result["msg"] and "F40" in result["msg"]
    assert action.calls == []
