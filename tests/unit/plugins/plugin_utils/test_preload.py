# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What each host's pre-flight needs is imported with the actions (plugin_utils/_preload.py).

Ansible's main process imports an action plugin once before the hosts'
workers fork from it; importing the action must import pykickstart's command
modules and zxcvbn with it (when they are installed) and load ansible-core's
filter and test plugins, never fail on a library that is missing, and import
no network code.
"""

import json
import os
import subprocess
import sys

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preload import MODULES, jinja_plugins, preload


def test_what_cannot_be_imported_is_left_to_the_worker():
    assert preload(("json", "kspw_no_such_module", "os.path")) == ["json", "os.path"]


def test_the_jinja_plugins_are_counted_once_loaded():
    assert jinja_plugins() > 100  # ansible-core ships over a hundred filters and tests under their short and long names


@pytest.mark.parametrize("action", ["render_kickstart", "check_secrets", "weakest_link"])
def test_importing_an_action_imports_what_each_host_would(action, tmp_path):
    code = ("import json, sys\n"
            "import ansible_collections.kickstart.pwpolicy.plugins.action.%s\n"
            "found = dict((name, name in sys.modules) for name in %r + ('requests',))\n"
            "for kind in ('filter', 'test'):\n"
            "    found[kind] = any(name.startswith('ansible.plugins.%%s.' %% kind) and 'core' in name for name in sys.modules)\n"
            "print(json.dumps(found))\n"
            % (action, MODULES))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path for path in sys.path if path))
    done = subprocess.run([sys.executable, "-c", code], cwd=str(tmp_path), env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, check=False, universal_newlines=True)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    for name in MODULES:
        try:
            __import__(name)
        except ImportError:
            continue  # not installed here: nothing to preload
        assert found[name], name
    assert found["filter"] and found["test"]  # ansible-core's core filters and tests, as a worker's template loads them
    assert found["requests"] is False  # pykickstart's load module waits for a file to load
