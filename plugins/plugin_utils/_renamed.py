# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Role variables under their earlier names: still read, and said to be deprecated.

The role's defaults read each earlier name (``kickstart_fail_on`` defaults to
``kickstart_audit_fail_on``); the actions that the role and the audit
playbook call say, once per run, which earlier names a play still sets.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.utils.display import Display

# Earlier name -> name (renamed in 0.3.0; the earlier names go in REMOVED_IN).
RENAMED = (
    ("kickstart_audit_fail_on", "kickstart_fail_on"),
    ("kickstart_crack_warn_seconds", "kickstart_warn_crack_seconds"),
)
REMOVED_IN = "1.0.0"
COLLECTION = "kickstart.pwpolicy"


def renamed_in_use(task_vars):
    """The deprecation messages for the earlier names ``task_vars`` defines (never their values)."""
    return ["the role variable %s is deprecated: set %s instead (the earlier name is read until it is removed)"
            % (old, new) for old, new in RENAMED if old in (task_vars or {})]


def announce_renamed(task_vars, display=None):
    """Show each deprecation of :func:`renamed_in_use`, from the first host of the play only.

    Each host's task runs in a worker process of its own, where Ansible cannot
    tell that another host said the same: so one host says it for the play.
    """
    task_vars = task_vars or {}
    first = (task_vars.get("ansible_play_hosts") or [task_vars.get("inventory_hostname")])[0]
    if first != task_vars.get("inventory_hostname"):
        return
    display = display or Display()
    for message in renamed_in_use(task_vars):
        display.deprecated(message, version=REMOVED_IN, collection_name=COLLECTION)
