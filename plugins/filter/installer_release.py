# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``installer_release`` filter: a thin wrapper over the release matrix (module_utils._release)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.errors import AnsibleFilterError

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import release_info
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._options import options_checked


def installer_release(name):
    """What an installer release does with password policies (see the plugin docs)."""
    try:
        return release_info(name)
    except PwpolicyError as exc:
        raise AnsibleFilterError("installer_release: %s" % exc)


class FilterModule(object):
    """The release matrix for templates and playbooks."""

    def filters(self):
        return {"installer_release": options_checked("installer_release", AnsibleFilterError)(installer_release)}
