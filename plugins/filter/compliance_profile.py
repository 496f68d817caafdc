# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``compliance_profile`` filter: a thin wrapper over the profile model (module_utils._profiles)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.errors import AnsibleFilterError

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._profiles import profile
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._options import options_checked


def compliance_profile(name, target, others=None):
    """What a compliance profile asks of passwords on a target release (see the plugin docs)."""
    if others is None:
        others = []
    elif isinstance(others, str):
        others = [others]
    elif not isinstance(others, (list, tuple)):
        raise AnsibleFilterError("compliance_profile: others must be a list of profile names, got %s"
                                 % type(others).__name__)
    try:
        return profile(name, target, others)
    except PwpolicyError as exc:
        raise AnsibleFilterError("compliance_profile: %s" % exc)


class FilterModule(object):
    """Compliance profiles for templates and playbooks."""

    def filters(self):
        return {"compliance_profile": options_checked("compliance_profile", AnsibleFilterError)(compliance_profile)}
