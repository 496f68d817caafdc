# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``pwpolicy_compliant`` test: the ``ok`` of the pwpolicy_check report."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.errors import AnsibleFilterError

from ansible_collections.kickstart.pwpolicy.plugins.filter.pwpolicy_check import pwpolicy_check
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._options import options_checked


def pwpolicy_compliant(password, policy, user=None, product=None, target=None, settings=None, allow_weak=True,
                       rules="collection", fips=False, profile=None, blocklist=None):
    """True when the password is acceptable under the policy.

    ``accepted`` always is; ``accepted_weak`` (a weak password a non-strict
    policy lets through) only while ``allow_weak`` is true.  ``rules``,
    ``fips``, ``profile`` and ``blocklist`` are the filter's.
    """
    if not isinstance(allow_weak, bool):
        raise AnsibleFilterError("pwpolicy_compliant: allow_weak must be true or false, got a %s"
                                 % type(allow_weak).__name__)
    report = pwpolicy_check(password, policy, user=user, product=product, target=target, settings=settings,
                            rules=rules, fips=fips, profile=profile, blocklist=blocklist)
    return report["verdict"] == "accepted" or (allow_weak and report["verdict"] == "accepted_weak")


class TestModule(object):
    """Password policy tests."""

    def tests(self):
        return {"pwpolicy_compliant": options_checked("pwpolicy_compliant", AnsibleFilterError)(pwpolicy_compliant)}
