# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The actions share a base (plugin_utils/_action.py), not each other.

No action subclasses or imports another action, none declares its arguments
as an ``ARGS`` tuple (the base checks them against ``ARGUMENT_SPEC``), and
none overrides ``run``: the base's calls ``ActionBase.run`` and then ``_run``.
"""

import ast
import glob
import importlib
import os

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._action import ActionModuleBase
from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import ROOT

PREFIX = "ansible_collections.kickstart.pwpolicy.plugins.action"
NAMES = sorted(os.path.basename(path)[:-3] for path in glob.glob(os.path.join(ROOT, "plugins", "action", "*.py"))
               if not path.endswith("__init__.py"))


def problems(source, classes):
    """What breaks the rule in an action: its ``source`` and its ActionModule's ``classes`` (its MRO)."""
    found = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == PREFIX:
            found.append("imports the action(s) %s" % ", ".join(alias.name for alias in node.names))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PREFIX + "."):
            found.append("imports the action %s" % node.module)
        elif isinstance(node, ast.Import) and any(alias.name.startswith(PREFIX + ".") for alias in node.names):
            found.append("imports an action")
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(target, ast.Name) and target.id == "ARGS" for target in targets):
            found.append("defines an ARGS tuple")
    for cls in classes[1:]:
        module = getattr(cls, "__module__", "")
        if module.startswith(PREFIX + ".") and cls.__name__ == "ActionModule":
            found.append("subclasses %s.ActionModule" % module)
    return found


@pytest.mark.parametrize("name", NAMES)
def test_each_action_subclasses_only_the_base(name):
    module = importlib.import_module("%s.%s" % (PREFIX, name))
    with open(module.__file__, encoding="utf-8") as handle:
        source = handle.read()
    action = module.ActionModule
    assert problems(source, action.__mro__) == []
    assert not hasattr(module, "ARGS")
    assert issubclass(action, ActionModuleBase) and action.__bases__ == (ActionModuleBase,)
    assert "run" not in vars(action), "%s overrides run: implement _run, the base calls ActionBase.run" % name
    assert action.NAME == name and action.ARGUMENT_SPEC


def test_every_action_is_checked():
    assert NAMES == ["audit_report", "check_secrets", "render_kickstart", "verify_report", "verify_secrets",
                     "weakest_link"]


def test_the_test_catches_an_action_that_subclasses_another():
    from ansible_collections.kickstart.pwpolicy.plugins.action.check_secrets import ActionModule as CheckSecrets

    class ActionModule(CheckSecrets):
        pass

    source = ("from %s.check_secrets import ActionModule as CheckSecrets\n"
              "from %s import weakest_link\n"
              "ARGS = ('a', 'b')\n" % (PREFIX, PREFIX))
    assert problems(source, ActionModule.__mro__) == [
        "imports the action %s.check_secrets" % PREFIX,
        "imports the action(s) weakest_link",
        "defines an ARGS tuple",
        "subclasses %s.check_secrets.ActionModule" % PREFIX,
    ]
