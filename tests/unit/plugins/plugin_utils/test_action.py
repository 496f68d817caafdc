# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The actions' base: arguments checked against a spec, no secret value touched or shown, ActionBase.run called."""

import pytest
from ansible.plugins.action import ActionBase

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _action
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._action import (
    ActionModuleBase,
    ArgumentError,
    check_arguments,
    secret_names,
)

SECRET = "Hunter-7!secret-Value"
SPEC = {"product": {"type": "raw"}, "root_password": {"type": "raw", "no_log": True}, "count": {"type": "int"},
        "users": {"type": "raw", "no_log": True}}


class Untouchable(object):
    """A vaulted value this run cannot decrypt: any look at it fails."""

    def _fail(self, *args, **kwargs):
        raise AssertionError("the value was looked at")

    __str__ = __repr__ = __iter__ = __len__ = __eq__ = __hash__ = __deepcopy__ = __copy__ = __reduce_ex__ = _fail


def test_unknown_arguments_are_named_with_the_valid_ones_in_the_specs_order():
    with pytest.raises(ArgumentError) as raised:
        check_arguments("check_secrets", SPEC, {"zeta": 1, "alpha": SECRET, "product": "server"})
    assert str(raised.value) == ("check_secrets: unknown argument(s) alpha, zeta; valid arguments are product, "
                                 "root_password, count, users")


def test_no_secret_value_reaches_the_validator_or_a_message(monkeypatch):
    seen = []
    validate = _action.ArgumentSpecValidator.validate

    def recording(self, parameters, *args, **kwargs):
        seen.append(dict(parameters))
        return validate(self, parameters, *args, **kwargs)

    monkeypatch.setattr(_action.ArgumentSpecValidator, "validate", recording)
    args = {"root_password": Untouchable(), "users": [{"name": "a", "password": Untouchable()}], "product": SECRET}
    check_arguments("x", SPEC, args)  # passes: nothing of the values is looked at
    with pytest.raises(ArgumentError) as raised:
        check_arguments("x", SPEC, dict(args, extra=SECRET, count="many"))
    assert seen[0] == {"root_password": None, "users": None, "product": None}
    assert seen[1] == {"root_password": None, "users": None, "product": None, "extra": None, "count": "many"}
    assert SECRET not in str(raised.value) and "extra" in str(raised.value)


def test_a_typed_argument_is_validated():
    with pytest.raises(ArgumentError, match="^x: .*count"):
        check_arguments("x", SPEC, {"count": "many", "root_password": SECRET})
    check_arguments("x", SPEC, {"count": "3"})


def test_the_secrets_are_the_no_log_arguments():
    assert secret_names(SPEC) == frozenset(("root_password", "users"))


class _Action(ActionModuleBase):
    NAME = "demo"
    ARGUMENT_SPEC = SPEC

    def __init__(self, args):  # pylint: disable=super-init-not-called
        self._task = type("Task", (), {"args": args})()
        self.ran = []

    def _run(self, result, args, task_vars):
        self.ran.append((args, task_vars))
        result["done"] = True
        return result


def test_run_calls_actionbase_run_then_the_actions_run(monkeypatch):
    calls = []
    monkeypatch.setattr(ActionBase, "run", lambda self, tmp=None, task_vars=None: calls.append(task_vars) or {"a": 1})
    action = _Action({"product": "server", "root_password": SECRET})
    assert action.run(task_vars=None) == {"a": 1, "done": True}
    assert calls == [None] and action.ran == [({"product": "server", "root_password": SECRET}, {})]


def test_run_stops_on_an_unknown_argument_without_the_actions_run(monkeypatch):
    monkeypatch.setattr(ActionBase, "run", lambda self, tmp=None, task_vars=None: {})
    action = _Action({"root_password": SECRET, "bogus": SECRET})
    result = action.run(task_vars={})
    assert result == {"failed": True, "msg": "demo: unknown argument(s) bogus; valid arguments are product, "
                                             "root_password, count, users"}
    assert action.ran == []


def test_secrets_are_left_untemplated_for_the_action(monkeypatch):
    templated = []

    def finalize(cls, name, value, templar, context):
        templated.append(name)
        return "templated"

    monkeypatch.setattr(ActionBase, "finalize_task_arg", classmethod(finalize), raising=False)
    raw = Untouchable()
    assert _Action.finalize_task_arg("root_password", raw, None, None) is raw
    assert _Action.finalize_task_arg("product", "{{ x }}", None, None) == "templated"
    assert templated == ["product"]


@pytest.mark.parametrize("name", ["audit_report", "check_secrets", "render_kickstart", "verify_report",
                                  "weakest_link"])
def test_the_actions_convert_their_values_themselves_and_their_secrets_are_no_log(name):
    import importlib
    spec = importlib.import_module("ansible_collections.kickstart.pwpolicy.plugins.action." + name).ActionModule.ARGUMENT_SPEC
    assert set(option["type"] for option in spec.values()) == {"raw"}
    expected = frozenset() if name in ("audit_report", "verify_report") else frozenset(
        ("root_password", "users", "luks_passphrase", "bootloader_password"))
    assert secret_names(spec) == expected
