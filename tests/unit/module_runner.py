# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Run a module's ``main()`` in the test process, as it runs on a managed node."""

import contextlib
import json
from unittest import mock

import pytest

try:
    from ansible.module_utils.testing import patch_module_args
except ImportError:  # ansible-core < 2.19
    from ansible.module_utils import basic

    @contextlib.contextmanager
    def patch_module_args(args):
        data = json.dumps(dict(ANSIBLE_MODULE_ARGS=args)).encode()
        with mock.patch.object(basic, "_ANSIBLE_ARGS", data):
            yield


def _clear_warnings():
    """Forget warnings of earlier in-process module runs (Ansible keeps them in a module global)."""
    from ansible.module_utils.common import warnings as ansible_warnings
    for name in ("_global_warnings", "_global_deprecations"):
        store = getattr(ansible_warnings, name, None)
        if store is not None:
            store.clear()


def run_module(main, capsys, args, check_mode=False, diff=False, patches=()):
    """The result dict of ``main()`` called with module arguments ``args``.

    ``patches`` are extra context managers active during the run.
    """
    _clear_warnings()
    # _ansible_check_mode and _ansible_diff given in args win (the fuzzers draw them).
    args = dict(dict(_ansible_check_mode=check_mode, _ansible_diff=diff), **args)
    args.update(_ansible_remote_tmp="/tmp", _ansible_keep_remote_files=False)
    with contextlib.ExitStack() as stack:
        try:
            from ansible.module_utils import _internal
        except ImportError:  # ansible-core < 2.19
            _internal = None
        if _internal is not None and hasattr(_internal, "is_controller"):
            # Once controller code is imported (other tests do), module warnings
            # would go to the controller's display instead of the result.
            stack.enter_context(mock.patch.object(_internal, "is_controller", False))
        for patch in patches:
            stack.enter_context(patch)
        stack.enter_context(patch_module_args(args))
        with pytest.raises(SystemExit):
            main()
    return json.loads(capsys.readouterr().out)


def module_calls(main):
    """``run``, ``ok`` and ``fail`` for one module's tests.

    ``run(capsys, check_mode=False, diff=False, **args)`` returns the result;
    ``ok`` asserts it did not fail and returns it; ``fail`` asserts it failed
    and returns its message.
    """
    def run(capsys, check_mode=False, diff=False, **args):
        return run_module(main, capsys, args, check_mode=check_mode, diff=diff)

    def ok(capsys, **args):
        result = run(capsys, **args)
        assert not result.get("failed"), result.get("msg")
        return result

    def fail(capsys, **args):
        result = run(capsys, **args)
        assert result.get("failed"), result
        return result["msg"]

    return run, ok, fail


def warnings(result):
    """A result's warnings as one text, to search in."""
    return json.dumps(result.get("warnings", []))


def deprecations(result):
    """A result's deprecations as one text, to search in."""
    return json.dumps(result.get("deprecations", []))
