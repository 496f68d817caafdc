# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``pwpolicy_section`` filter: the section text ks_pwpolicy writes, for users' own templates."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.errors import AnsibleFilterError

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import parse_release
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import render_section
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._options import options_checked


def pwpolicy_section(overrides, target, product=None):
    """The ``%anaconda`` ... ``%end`` text for ``target``, or ``''`` where the target takes none."""
    try:
        release = parse_release(target)
        if not release.can_write_section:
            return ""
        if overrides is None:
            overrides = {}
        if not overrides and product is None:
            raise PwpolicyError("give product, or at least one policy in the overrides")
        return render_section(overrides, product=product, target=release)
    except PwpolicyError as exc:
        raise AnsibleFilterError("pwpolicy_section: %s" % exc)


class FilterModule(object):
    """Policy sections for users' own kickstart templates."""

    def filters(self):
        return {"pwpolicy_section": options_checked("pwpolicy_section", AnsibleFilterError)(pwpolicy_section)}
