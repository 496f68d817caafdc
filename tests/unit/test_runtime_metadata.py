# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""meta/runtime.yml's action group holds every module and action of the collection.

A module or action plugin added later without joining the group would not get
the defaults of ``group/kickstart.pwpolicy.kickstart``; the integration target
action_group shows that the group's defaults reach a module and an action.
"""

import os

import yaml

from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import ROOT


def plugin_names(kind):
    directory = os.path.join(ROOT, "plugins", kind)
    return {name[:-3] for name in os.listdir(directory)
            if name.endswith(".py") and name != "__init__.py"}


def test_the_action_group_lists_every_module_and_action():
    with open(os.path.join(ROOT, "meta", "runtime.yml")) as handle:
        runtime = yaml.safe_load(handle)
    group = runtime["action_groups"]["kickstart"]
    assert len(group) == len(set(group))
    assert set(group) == plugin_names("modules") | plugin_names("action")


def test_every_action_plugin_has_its_documentation_module():
    assert plugin_names("action") <= plugin_names("modules")
