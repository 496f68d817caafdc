# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``pwpolicy_check`` filter: a thin wrapper over plugin_utils._verdict."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.errors import AnsibleFilterError
from ansible.module_utils.common.text.converters import to_text
from ansible.utils.display import Display

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError, plain_type
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._exposure import add_estimate
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verdict import RULES, check_against
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._redact import hide, leaves
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import FIELDS, NAMES, PRODUCTS
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._profiles import PROFILES, TARGETS
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._options import options_checked

_NOT_PASSWORDS = (bool, int, float, list, tuple, dict, set, type(None))
# Words of the policy model, the rules' names, the profiles and their releases: never secrets, and the messages
# need them.
_SAFE_WORDS = frozenset(NAMES + FIELDS + PRODUCTS + RULES + PROFILES + TARGETS)
# The conflicts already warned about by this process (Ansible's display drops repeats across processes).
_WARNED = set()


def warn_conflicts(report, caller="pwpolicy_check", display=None):
    """One warning for the conflicts of a check by profile, once per process for the same conflicts."""
    conflicts = report.get("conflicts")
    if not conflicts:
        return
    message = "%s: the compliance profiles %s for %s, the policy or the settings disagree; the stricter value of " \
        "each applies (the report's conflicts): %s" % (caller, ", ".join(report["profile"]["names"]),
                                                       report["profile"]["target"], " | ".join(conflicts))
    if message not in _WARNED:
        _WARNED.add(message)
        (display or Display()).warning(message)


def _plain(value, what):
    """The text of a plain or vaulted string, never repeated in an error.

    ansible-core 2.16-2.18 hand a vaulted value over as an
    AnsibleVaultEncryptedUnicode (not a str) that decrypts when converted;
    2.19 and later hand over an already decrypted, tagged str.  to_text()
    covers both; a wrong vault password raises Ansible's own vault error here
    (2.16-2.18) or stops Ansible before the filter is called (2.19+).
    """
    if isinstance(value, _NOT_PASSWORDS):
        raise AnsibleFilterError(
            "pwpolicy_check: %s must be a string or a vaulted string, got %s%s"
            % (what, plain_type(value),
               " (is the variable set?)" if value is None else " (quote it in YAML)"))
    return to_text(value, errors="surrogate_or_strict")


def _without_dictpath(settings):
    """``settings`` less the dictionary path, which errors name so that a missing dictionary can be found."""
    if isinstance(settings, dict):
        return dict((key, value) for key, value in settings.items() if key != "dictpath")
    return settings


def pwpolicy_check(password, policy, user=None, product=None, target=None, settings=None,
                   rules="collection", fips=False, estimate=None, profile=None, blocklist=None):
    """Check one password against one policy, or by compliance profile; return the report (never the password)."""
    text = _plain(password, "the password")
    if user is not None:
        user = _plain(user, "user")
    if policy is not None and not isinstance(policy, (dict, str)) and not isinstance(policy, _NOT_PASSWORDS):
        policy = _plain(policy, "policy")
    # A vaulted profile name or blocklist path (ansible-core 2.16-2.18 hand it over encrypted).
    if profile is not None and not isinstance(profile, (str, _NOT_PASSWORDS)):
        profile = _plain(profile, "profile")
    if blocklist is not None and not isinstance(blocklist, (str, _NOT_PASSWORDS)):
        blocklist = _plain(blocklist, "blocklist")
    try:
        report = check_against(text, policy, product=product, target=target, user=user, settings=settings,
                               rules=rules, fips=fips, profile=profile, blocklist=blocklist)
        # Guess estimates and exposures only when asked for (plugin_utils/_exposure.py);
        # fips=true also models a LUKS2 keyslot formatted for FIPS unless the estimate says otherwise.
        if fips and estimate is True:
            estimate = {'fips': True}
        elif fips and isinstance(estimate, dict) and 'fips' not in estimate:
            estimate = dict(estimate, fips=True)
        report = add_estimate(report, text, user=user, product=product, estimate=estimate)
    except PwpolicyError as exc:
        # The password, and any argument that may come from a vaulted variable (a policy field, a name, a
        # setting), is never repeated, in any escaped form.  The product, the target and the blocklist's path are
        # named (they are no secrets, and where to look); an unknown profile name only when it is a typo of one
        # (module_utils/_profiles.py, unknown_profile).
        given = leaves([text, user, policy, _without_dictpath(settings), rules]) - _SAFE_WORDS
        raise AnsibleFilterError("pwpolicy_check: %s" % hide(str(exc), given))
    warn_conflicts(report)
    return report


class FilterModule(object):
    """Password policy filters."""

    def filters(self):
        return {"pwpolicy_check": options_checked("pwpolicy_check", AnsibleFilterError)(pwpolicy_check)}
