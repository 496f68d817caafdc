# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The kickstart text given as ``content`` never shows in a failed result, argument errors included."""

import json

import pytest
from ansible.module_utils.ansible_release import __version__ as ansible_version

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._argspec import HIDDEN_TEXT
from ansible_collections.kickstart.pwpolicy.plugins.modules import anaconda_conf, anaconda_conf_info, ks_pwpolicy, ks_pwpolicy_info
from ansible_collections.kickstart.pwpolicy.tests.unit.module_runner import module_calls

SECRET = "Tr0ub4dor&3-horse"
KS = "#version=F33\nrootpw --plaintext %s\n" % SECRET
# ansible-core 2.21 adds ``invocation`` only when asked; older cores always add it and know no such flag.
ASK = dict(_ansible_inject_invocation=True) \
    if tuple(int(part) for part in ansible_version.split(".")[:2]) >= (2, 21) else {}

BAD_ARGUMENTS = [
    dict(bogus=1),                    # an unknown option
    dict(conf_name=["x"]),            # a value of the wrong type
    dict(target=["F33"]),             # a list for a string
]


# The conf modules are given a kickstart by mistake as often as a drop-in.
MODULES = [ks_pwpolicy, ks_pwpolicy_info, anaconda_conf, anaconda_conf_info]


@pytest.mark.parametrize("module", MODULES, ids=["ks_pwpolicy", "ks_pwpolicy_info", "anaconda_conf", "anaconda_conf_info"])
@pytest.mark.parametrize("bad", BAD_ARGUMENTS, ids=["unknown", "type", "list"])
def test_argument_errors_hide_the_text(capsys, module, bad):
    run = module_calls(module.main)[0]
    result = run(capsys, content=KS, **dict(ASK, **bad))
    assert result["failed"] is True
    assert SECRET not in json.dumps(result)
    assert result["invocation"]["module_args"]["content"] == HIDDEN_TEXT


def test_exclusive_arguments_hide_the_text(capsys, tmp_path):
    run = module_calls(ks_pwpolicy_info.main)[0]
    result = run(capsys, content=KS, path=str(tmp_path / "x.ks"), **ASK)
    assert result["failed"] is True and "mutually exclusive" in result["msg"]
    assert SECRET not in json.dumps(result)
