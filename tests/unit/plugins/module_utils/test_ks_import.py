# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""pykickstart's load module on first use (module_utils/_ks_import.py), in a fresh interpreter each.

Parsing and validating a kickstart imports neither pykickstart.load nor
requests; what pykickstart asks of the load module (loading a file, any other
name) still works and then imports the real one.
"""

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("pykickstart")

PRELUDE = """
import json, sys
from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _ks_section
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
def loaded():
    return {"requests": "requests" in sys.modules,
            "load_file": getattr(sys.modules.get("pykickstart.load"), "__file__", None) is not None}
"""


def run(code, tmp_path):
    """What ``code`` prints (JSON), run after PRELUDE in a new interpreter with this one's import path."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path for path in sys.path if path))
    done = subprocess.run([sys.executable, "-c", PRELUDE + code], cwd=str(tmp_path), env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False, universal_newlines=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_parsing_a_kickstart_imports_no_network_code(tmp_path):
    found = run("""
before = loaded()
parsed = parse_kickstart("lang en_US.UTF-8\\nrootpw --lock\\n%anaconda\\npwpolicy root --minlen=10\\n%end\\n", "RHEL9")
print(json.dumps({"before": before, "after": loaded(), "has": _ks_section.HAS_PYKICKSTART}))
""", tmp_path)
    assert found["has"] is True
    assert found["before"] == {"requests": False, "load_file": False}
    assert found["after"] == {"requests": False, "load_file": False}


def test_loading_through_the_stand_in_imports_the_real_module(tmp_path):
    (tmp_path / "part.ks").write_text("rootpw --lock\n")
    found = run("""
import pykickstart.load, pykickstart.version
text = pykickstart.version.load_to_str("part.ks")  # as pykickstart's own code calls it
other = pykickstart.load._load_file("part.ks")  # a name the stand-in does not define
print(json.dumps({"text": text, "other": other, "after": loaded()}))
""", tmp_path)
    assert found["text"] == found["other"] == "rootpw --lock\n"
    assert found["after"] == {"requests": True, "load_file": True}
