# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""meta/runtime.yml's action groups hold every public module and action of the collection.

A module or action plugin added later without joining the group would not get
the defaults of ``group/kickstart.pwpolicy.pwpolicy``; the integration target
action_group shows that the group's defaults reach a module and an action, and
that the deprecated ``group/kickstart.pwpolicy.kickstart`` still does.
"""

import os

import yaml

from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import ROOT

# The kickstart role's internal step: the role gives it every argument, so no group's defaults reach it.
INTERNAL = {"render_kickstart"}


def plugin_names(kind):
    directory = os.path.join(ROOT, "plugins", kind)
    return {name[:-3] for name in os.listdir(directory)
            if name.endswith(".py") and name != "__init__.py"}


def action_groups():
    with open(os.path.join(ROOT, "meta", "runtime.yml")) as handle:
        return yaml.safe_load(handle)["action_groups"]


def test_the_action_group_lists_every_public_module_and_action():
    group = action_groups()["pwpolicy"]
    assert len(group) == len(set(group))
    assert set(group) == (plugin_names("modules") | plugin_names("action")) - INTERNAL


def test_the_deprecated_group_lists_the_same_plugins():
    groups = action_groups()
    assert set(groups) == {"pwpolicy", "kickstart"}
    assert groups["kickstart"] == groups["pwpolicy"]


def test_every_action_plugin_has_its_documentation_module():
    assert plugin_names("action") <= plugin_names("modules")
