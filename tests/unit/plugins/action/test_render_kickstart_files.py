# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The render_kickstart action's directory step and modes (the role's integration targets run them for real)."""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.action import render_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.action.render_kickstart import ActionModule, RenderError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError


class _Task(object):
    no_log = False
    check_mode = False
    diff = False
    args = {}


class _Templar(object):
    def template(self, value):
        return value


class _Host(ActionModule):
    """The action on a host where ``existing`` are directories and ``files`` are files; module calls recorded."""

    def __init__(self, existing=(), files=(), args=None):  # pylint: disable=super-init-not-called
        self._task = _Task()
        self._task.args = args or {}
        self._templar = _Templar()
        self.existing, self.files, self.calls = set(existing), set(files), []

    def _execute_module(self, module_name=None, module_args=None, task_vars=None, **kwargs):
        self.calls.append((module_name, module_args))
        if module_name == "ansible.builtin.stat":
            path = module_args["path"]
            return {"stat": {"exists": path in self.existing or path in self.files, "isdir": path in self.existing}}
        return {"changed": True}


def own(**given):
    values = dict((name, None) for name in render_kickstart.OWN_ARGS)
    values.update(create_dirs=True, dir_mode="0755", owner="apache", group="apache")
    values.update(given)
    return values


def test_an_existing_directory_keeps_its_mode_and_owner():
    action = _Host(existing={"/root"})
    assert action._directories(own(), ["/root"], {}, "a") is False
    assert [name for name, _args in action.calls] == ["ansible.builtin.stat"]


def test_only_a_missing_directory_is_created():
    action = _Host(existing={"/srv"})
    assert action._directories(own(), ["/srv", "/srv/ks/new"], {}, "a") is True
    (_stat, _args), (_stat2, _args2), (name, args) = action.calls
    assert name == "ansible.builtin.file"
    assert args == dict(path="/srv/ks/new", state="directory", mode="0755", owner="apache", group="apache")


def test_a_file_where_the_directory_should_be_is_an_error():
    action = _Host(files={"/srv/ks"})
    with pytest.raises(RenderError, match="/srv/ks on a is not a directory"):
        action._directories(own(), ["/srv/ks"], {}, "a")
    assert [name for name, _args in action.calls] == ["ansible.builtin.stat"]


def test_without_create_dirs_a_missing_directory_is_an_error():
    action = _Host()
    with pytest.raises(RenderError, match="does not exist on a; create it first, or set kickstart_create_dirs: true"):
        action._directories(own(create_dirs=False), ["/srv/ks"], {}, "a")


@pytest.mark.parametrize("name, value", [("mode", 600), ("mode", 0o640), ("dir_mode", 755)])
def test_a_numeric_mode_is_refused(name, value):
    action = _Host(args={name: value})
    with pytest.raises(PwpolicyError) as error:
        action._own()
    message = str(error.value)
    # The role's variable, without the action's name.
    assert message.startswith("kickstart_%s %d is a number" % (name, value))
    assert "'0600'" in message


def test_a_string_mode_is_given_as_it_is():
    assert _Host(args={"mode": "600", "dir_mode": "0750"})._own()["mode"] == "600"


@pytest.mark.parametrize("url", ["https://ops:S3cret-Pw@ks.example.com/ks/", "http://ghp_T0kenValue@ks.example.com/"])
def test_a_base_url_with_credentials_is_refused_without_showing_them(url):
    action = _Host(args={"base_url": url})
    with pytest.raises(PwpolicyError) as error:
        action._own()
    message = str(error.value)
    assert message.startswith("kickstart_base_url holds credentials")
    assert "S3cret" not in message and "T0ken" not in message and "ops" not in message


@pytest.mark.parametrize("url", ["", None, "https://ks.example.com/ks/", "http://192.0.2.1:8000/ks?x=a@b"])
def test_a_base_url_without_credentials_is_kept(url):
    assert _Host(args={"base_url": url})._own()["base_url"] == url
