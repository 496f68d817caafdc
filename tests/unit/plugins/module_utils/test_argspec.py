# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _argspec as a
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import PRODUCTS
from ansible_collections.kickstart.pwpolicy.plugins.modules import (
    anaconda_conf,
    anaconda_conf_info,
    ks_pwpolicy,
    ks_pwpolicy_info,
)


def test_policy_options_come_from_the_model():
    options = a.policy_options()
    assert options == dict(policies=dict(type="raw"),
                           product=dict(type="str", choices=["server", "cloud", "workstation"]))
    assert options["product"]["choices"] == list(PRODUCTS)


def test_targets_and_names():
    assert a.kickstart_target_option() == dict(target=dict(type="str"))
    assert a.conf_target_option() == dict(target=dict(type="str", default="DEVEL"))
    assert a.conf_name_option() == dict(conf_name=dict(type="str", default="90-kickstart-pwpolicy.conf"))
    assert a.read_source_options() == dict(path=dict(type="path"), content=dict(type="str"))
    assert a.read_source_rules() == dict(mutually_exclusive=[("path", "content")],
                                         required_one_of=[("path", "content")])


def test_every_call_gives_a_new_dict():
    first = a.policy_options()
    first["product"]["choices"].append("desktop")
    assert a.policy_options()["product"]["choices"] == ["server", "cloud", "workstation"]


def test_spec_merges_and_refuses_a_repeated_option():
    merged = a.spec(a.policy_options(), a.conf_target_option(), backup=dict(type="bool"))
    assert sorted(merged) == ["backup", "policies", "product", "target"]
    with pytest.raises(ValueError, match="option target is given twice"):
        a.spec(a.conf_target_option(), a.kickstart_target_option())
    with pytest.raises(ValueError, match="option policies is given twice"):
        a.spec(a.policy_options(), policies=dict(type="raw"))


@pytest.mark.parametrize("module", [ks_pwpolicy, anaconda_conf, ks_pwpolicy_info, anaconda_conf_info])
def test_each_module_documents_the_shared_fragments(module):
    """The modules take the shared options' docs from the fragment, never their own copy."""
    assert "kickstart.pwpolicy.policy" in module.DOCUMENTATION
    assert "\n  target:\n" not in module.DOCUMENTATION
    assert "\n  product:\n" not in module.DOCUMENTATION
