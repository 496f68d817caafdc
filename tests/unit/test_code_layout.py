# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Where code lives: node code (modules, module_utils) apart from controller code (plugin_utils and the rest).

Node code is sent to the managed node, so it may import only itself and
``ansible.module_utils``; controller code lives in ``plugins/plugin_utils``
and may import node code.  Every file of ``module_utils`` is node code, that
is, some module needs it; controller-only code does not go back there.
"""

import ast
import glob
import os

import pytest

from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import ROOT

PREFIX = "ansible_collections.kickstart.pwpolicy.plugins."
NODE_FILES = sorted(glob.glob(os.path.join(ROOT, "plugins", "modules", "*.py"))
                    + glob.glob(os.path.join(ROOT, "plugins", "module_utils", "*.py")))


def imports(path):
    """Every module name ``path`` imports (``from X import Y`` gives X and X.Y)."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), path)
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
            names.extend("%s.%s" % (node.module, alias.name) for alias in node.names)
    return names


def _allowed_on_the_node(name):
    if name.startswith("ansible_collections."):
        return name.startswith(PREFIX + "module_utils")
    return name == "ansible" or name.startswith("ansible.module_utils") or not name.startswith("ansible")


@pytest.mark.parametrize("path", NODE_FILES, ids=lambda path: os.path.relpath(path, ROOT))
def test_node_code_imports_no_controller_code(path):
    wrong = [name for name in imports(path) if not _allowed_on_the_node(name)]
    assert wrong == [], "%s imports controller code: %s" % (os.path.relpath(path, ROOT), ", ".join(wrong))


def test_every_module_utils_file_is_needed_by_a_module():
    utils = dict((os.path.basename(path)[:-3], path)
                 for path in glob.glob(os.path.join(ROOT, "plugins", "module_utils", "*.py"))
                 if not path.endswith("__init__.py"))

    def needs(path):
        return set(name[len(PREFIX + "module_utils."):].split(".")[0] for name in imports(path)
                   if name.startswith(PREFIX + "module_utils.")) & set(utils)

    reached = set()
    todo = set()
    for path in glob.glob(os.path.join(ROOT, "plugins", "modules", "*.py")):
        todo |= needs(path)
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo |= needs(utils[name]) - reached
    assert sorted(set(utils) - reached) == [], "controller-only code in module_utils: move it to plugin_utils"


def test_the_test_catches_controller_imports(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verdict import check\n"
                   "from ansible.template import Templar\nimport json\n")
    assert [name for name in imports(str(bad)) if not _allowed_on_the_node(name)] == [
        "ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verdict",
        "ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verdict.check",
        "ansible.template", "ansible.template.Templar"]
