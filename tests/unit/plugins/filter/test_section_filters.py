# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The installer_release and pwpolicy_section filters, over the whole release matrix."""

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.kickstart.pwpolicy.plugins.filter.installer_release import installer_release
from ansible_collections.kickstart.pwpolicy.plugins.filter.pwpolicy_section import pwpolicy_section
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import edit_kickstart

RELEASES = ["F%d" % n for n in range(22, 47)] + ["RHEL7", "RHEL8", "RHEL9", "RHEL10", "DEVEL"]
# What the installers did, written out independently of the release matrix's code.
SECTION = set(["F%d" % n for n in range(22, 35)] + ["RHEL7", "RHEL8", "RHEL9"])
DEPRECATED = {"F34", "F35", "RHEL9"}
CONF = set(["F%d" % n for n in range(34, 47)] + ["RHEL9", "RHEL10", "DEVEL"])


@pytest.mark.parametrize("name", RELEASES)
def test_installer_release_follows_the_matrix(name):
    info = installer_release(" %s " % name.lower())
    assert info["name"] == (name if name != "DEVEL" else "DEVEL")
    assert info["section"] is (name in SECTION)
    assert info["deprecated"] is (name in DEPRECATED)
    assert info["anaconda_conf"] is (name in CONF)
    assert info["delivery"] == ("section" if name in SECTION else "updates_image")
    assert info["family"] == ("rhel" if name.startswith("RHEL") else "fedora")


@pytest.mark.parametrize("name", ["F21", "RHEL6", "F", "bogus", "", None, 33])
def test_installer_release_refuses_unknown_names(name):
    with pytest.raises(AnsibleFilterError, match="^installer_release: "):
        installer_release(name)


@pytest.mark.parametrize("name", RELEASES)
@pytest.mark.parametrize("product, overrides", [
    ("server", {}), ("workstation", {"root": {"minlen": 12}}), (None, {"luks": {"minlen": 20}, "root": {}}),
])
def test_pwpolicy_section_is_what_the_module_writes(name, product, overrides):
    text = pwpolicy_section(overrides, target=name, product=product)
    if name not in SECTION:
        assert text == ""
        return
    kickstart = "#version=%s\nlang en_US.UTF-8\n" % name
    edited = edit_kickstart(kickstart, policies=overrides, product=product, target=name, validate=False).text
    assert edited == kickstart + "\n" + text
    assert text.startswith("%anaconda\npwpolicy ") and text.endswith("\n%end\n")


def test_pwpolicy_section_needs_policies_or_a_product():
    with pytest.raises(AnsibleFilterError, match="give product"):
        pwpolicy_section({}, target="RHEL8")


@pytest.mark.parametrize("overrides, target, message", [
    ({"admin": {}}, "RHEL8", "unknown policy name"),
    ({"root": {"minlen": 2000}}, "RHEL8", "minlen"),
    ({"root": {}}, "F99x", "unknown target"),
])
def test_pwpolicy_section_errors(overrides, target, message):
    with pytest.raises(AnsibleFilterError, match=message):
        pwpolicy_section(overrides, target=target)
