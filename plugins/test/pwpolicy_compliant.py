# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``pwpolicy_compliant`` test: the ``ok`` of the pwpolicy_check report."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.filter.pwpolicy_check import pwpolicy_check


def pwpolicy_compliant(password, policy, user=None, product=None, target=None, settings=None):
    """True when the password is acceptable under the policy (accepted or accepted_weak)."""
    return pwpolicy_check(password, policy, user=user, product=product, target=target, settings=settings)["ok"]


class TestModule(object):
    """Password policy tests."""

    def tests(self):
        return {"pwpolicy_compliant": pwpolicy_compliant}
