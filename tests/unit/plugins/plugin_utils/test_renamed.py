# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

import os

import yaml

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _renamed
from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import ROOT


class _Display(object):
    def __init__(self):
        self.calls = []

    def deprecated(self, msg, version=None, collection_name=None):
        self.calls.append((msg, version, collection_name))


def test_an_earlier_name_in_use_is_deprecated_without_its_value():
    display = _Display()
    _renamed.announce_renamed({"kickstart_audit_fail_on": "weak", "kickstart_fail_on": "weak"}, display)
    assert display.calls == [("the role variable kickstart_audit_fail_on is deprecated: set kickstart_fail_on instead "
                              "(the earlier name is read until it is removed)", "1.0.0", "kickstart.pwpolicy")]
    assert "weak" not in display.calls[0][0]


def test_the_first_host_of_the_play_says_it_for_all():
    display = _Display()
    for host in ("a", "b", "c"):
        _renamed.announce_renamed({"kickstart_crack_warn_seconds": 9, "inventory_hostname": host,
                                   "ansible_play_hosts": ["a", "b", "c"]}, display)
    assert [call[0].split(" is ")[0] for call in display.calls] == ["the role variable kickstart_crack_warn_seconds"]


def test_nothing_is_said_when_only_the_new_names_are_set():
    display = _Display()
    _renamed.announce_renamed({"kickstart_fail_on": "weak", "kickstart_warn_crack_seconds": 60}, display)
    _renamed.announce_renamed(None, display)
    assert display.calls == []


def test_the_role_defaults_read_every_earlier_name():
    with open(os.path.join(ROOT, "roles", "kickstart", "defaults", "main.yml")) as handle:
        defaults = yaml.safe_load(handle)
    for old, new in _renamed.RENAMED:
        assert old not in defaults  # else every run would be told it uses the earlier name
        assert "{{ %s | default(" % old in defaults[new], new
