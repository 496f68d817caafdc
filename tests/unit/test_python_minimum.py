# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The modules and module_utils import on the managed-node minimum, Python 3.7 (tests/config.yml).

Runs when a Python 3.7 and ansible-core 2.16 (the newest core whose module
code still supports 3.7 on managed nodes; ``.venv-2.16``) are both on this
machine; skipped otherwise.
"""

import glob
import os
import shutil
import subprocess
import tempfile

import pytest

from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import COLLECTIONS_DIR, ROOT


def _python37():
    """A Python 3.7 that runs (a pyenv shim may be on PATH without the version behind it)."""
    candidates = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.7*/bin/python3.7")))
    candidates.append(shutil.which("python3.7"))
    for candidate in candidates:
        if candidate and subprocess.run([candidate, "-c", "import sys; assert sys.version_info[:2] == (3, 7)"],
                                        capture_output=True, check=False).returncode == 0:
            return candidate
    return None


def _ansible_216():
    found = sorted(glob.glob(os.path.join(ROOT, ".venv-2.16", "lib", "python3*", "site-packages", "ansible")))
    return found[-1] if found else None


PYTHON37 = _python37()
ANSIBLE = _ansible_216()
NAMES = (["plugins.module_utils.%s" % os.path.basename(p)[:-3]
          for p in sorted(glob.glob(os.path.join(ROOT, "plugins", "module_utils", "*.py")))
          if not p.endswith("__init__.py")]
         + ["plugins.modules.%s" % name
            for name in ("ks_pwpolicy", "ks_pwpolicy_info", "ks_secrets_info", "anaconda_conf", "anaconda_conf_info")])


@pytest.mark.skipif(not (PYTHON37 and ANSIBLE), reason="needs a Python 3.7 and .venv-2.16 (ansible-core 2.16)")
def test_managed_node_code_imports_on_python_37():
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(ANSIBLE, os.path.join(tmp, "ansible"))
        code = "import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n"
        names = ["ansible_collections.kickstart.pwpolicy.%s" % name for name in NAMES]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([tmp, COLLECTIONS_DIR]))
        done = subprocess.run([PYTHON37, "-c", code] + names, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
