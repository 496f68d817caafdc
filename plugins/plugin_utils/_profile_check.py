# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checking passwords by compliance profile: what one or several selected profiles ask, merged into one check.

A :class:`Selection` is one or more profiles (:mod:`._profiles`) for one
target release.  It gives a check

* the **policy** of each account (``root``, ``user``, ``luks``): the
  profiles' policies merged field by field;
* the **libpwquality settings**: every setting the profiles set, each at its
  merged value, less those that are no setting of a check (``minlen`` is the
  policy's, ``enforce_for_root`` and ``retry`` only change how the PAM module
  behaves; every profile's policies are strict, for root too);
* whether a **blocklist** is required (NIST SP 800-63B);
* the **conflicts**, in plain words.

One rule decides every value, and nothing is picked silently: where two
values differ, **the stricter applies**, and the difference is named in the
conflicts.  Between profiles, :func:`._profiles.conflicts` names it (with the
rule ids); where a profile forbids what another requires (NIST SP 800-63B
forbids the composition rules the STIG requires), the check applies the rule
that is required, since a password can meet both (only a verifier cannot
enforce both), and says so.  The policy argument and the ``settings`` of a
check are merged the same way: a field or setting they give that is looser
than the profiles' is replaced by the profiles' value and named; one they do
not give is the profiles'.

Nothing here sees a password.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import plain_type
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import (
    FIELDS,
    NAMES,
    Policy,
    defaults_for,
    normalize_policies,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _profiles
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pwq_settings import normalize_settings

# The policy fields a check merges (the name is the account's).
POLICY_FIELDS = FIELDS[1:]
GIVEN_SETTINGS = "settings"

_SELECTIONS = {}
_SELECTIONS_MAX = 32


class Selection(object):
    """The profiles ``names`` (validated, in the order given) for ``target`` (validated, upper case)."""

    def __init__(self, names, target):
        self.names = tuple(names)
        self.target = target
        self.label = "%s for %s" % (", ".join(self.names), target)
        values = dict((name, _profiles.pwquality(name, target)) for name in self.names)
        merged, origins = {}, {}
        for key in _profiles.PWQUALITY:
            asked = [(name, values[name][key]) for name in self.names if key in values[name]]
            if not asked:
                continue
            merged[key] = _profiles.stricter(key, [value for _name, value in asked])
            origins[key] = [name for name, value in asked if value == merged[key]]
        self.minlen = merged["minlen"]
        self.settings = dict((key, value) for key, value in merged.items() if key not in _profiles.NOT_FOR_A_CHECK)
        self.origins = origins
        self.policies = {}
        for account in NAMES:
            fields = {}
            for field in POLICY_FIELDS:
                fields[field] = _profiles.stricter(field, [_profiles.policies(name, target)[account][field]
                                                           for name in self.names])
            self.policies[account] = fields
        self.blocklist = any(_profiles.requires_blocklist(name, target) for name in self.names)
        self.conflicts = _profiles.conflicts(list(self.names), target)
        if self.conflicts:
            self.conflicts.append(self._applied())

    def _applied(self):
        """The sentence that says which value of each setting the check applies."""
        applied = ["minlen %d" % self.minlen] + [
            "%s %s" % (key, self.settings[key]) for key in _profiles.PWQUALITY if key in self.settings]
        forbidding = [name for name in self.names if _profiles.forbids_composition(name)]
        text = ("this check applies the stricter value of each setting the profiles %s set: %s"
                % (", ".join(self.names), ", ".join(applied)))
        if forbidding and len(forbidding) < len(self.names):
            text += ("; a password that meets these has the character types one profile requires and still "
                     "meets %s, which only forbids requiring them" % ", ".join(forbidding))
        return text

    def who(self, key):
        """The profiles that ask for the applied value of ``key``."""
        return ", ".join(self.origins.get(key) or self.names)

    def policy_for(self, account, given=None):
        """``(Policy, conflicts)``: the account's policy of the profiles, merged with ``given`` (fields the caller
        set: the policy argument's, a product preset's), the stricter value of each field applying."""
        fields = dict(self.policies[account])
        notes = []
        for field, value in (given or {}).items():
            if field not in fields:
                continue
            applied = _profiles.stricter(field, [value, fields[field]])
            if applied != value:
                if field == "minlen":
                    asked = "the %s asked by %s (%s)" % (fields[field], self.who(field), _rule_ids(self, field))
                else:
                    asked = "%s %s in the policies of %s" % (field, _shown(fields[field]), ", ".join(self.names))
                notes.append("%s policy: %s %s as given is looser than %s; the stricter %s applies"
                             % (account, field, _shown(value), asked, _shown(applied)))
            fields[field] = applied
        return Policy(name=account, **fields), notes

    def settings_for(self, given=None):
        """``(settings, origins, conflicts)``: the profiles' libpwquality settings merged with ``given`` (the
        ``settings`` argument, validated here), the stricter value of each applying; ``origins`` names who asks for
        each applied value."""
        settings = dict(self.settings)
        origins = dict((key, list(names)) for key, names in self.origins.items())
        notes = []
        forbidding = [name for name in self.names if _profiles.forbids_composition(name)]
        for key, value in normalize_settings(given):
            if key in settings and key in _STRICTER_KEYS:
                applied = _profiles.stricter(key, [value, settings[key]])
                if applied != value:
                    notes.append("settings: %s %s as given is looser than the %s asked by %s (%s); the stricter %s "
                                 "applies" % (key, value, settings[key], self.who(key), _rule_ids(self, key),
                                              applied))
                    continue
                if applied == settings[key]:
                    origins[key] = origins.get(key, []) + [GIVEN_SETTINGS]
                    continue
            if forbidding and key in _profiles.COMPOSITION and _asks_composition(key, value) \
                    and not _asks_composition(key, settings.get(key, 0)):
                notes.append("settings: %s %s is a composition rule, which %s forbids; the check applies it as given"
                             % (key, value, ", ".join(forbidding)))
            settings[key] = value
            origins[key] = [GIVEN_SETTINGS]
        return settings, origins, notes


_STRICTER_KEYS = frozenset(key for key in _profiles.PWQUALITY if key not in _profiles.NOT_FOR_A_CHECK)


def _asks_composition(key, value):
    return value > 1 if key == "minclass" else value < 0


def _shown(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _rule_ids(selection, key):
    return "; ".join("%s %s" % (name, _profiles.rule_ids(name, selection.target, key))
                     for name in selection.origins.get(key, ()))


def wanted(profile):
    """Whether ``profile`` asks for a check by profile: not None, an empty string or an empty list."""
    if profile is None or (isinstance(profile, str) and not profile.strip()):
        return False
    return not (isinstance(profile, (list, tuple)) and not profile)


def _names(profile):
    """The profile names given (a name, names separated by commas, or a list of names), in order, once each."""
    if isinstance(profile, str):
        profile = profile.split(",")
    if not isinstance(profile, (list, tuple)) or not profile:
        raise _profiles.ProfileError("profile must be a compliance profile name or a list of them (%s)"
                                     % ", ".join(_profiles.PROFILES))
    names = []
    for name in profile:
        if not isinstance(name, str) or name.strip() not in _profiles.PROFILES:
            raise _profiles.ProfileError("unknown compliance profile %s: give one of %s"
                                         % (repr(name) if isinstance(name, str) else "(%s)" % plain_type(name),
                                            ", ".join(_profiles.PROFILES)))
        if name.strip() not in names:
            names.append(name.strip())
    return names


def _same_everywhere(name):
    """Whether a profile asks the same on every release (NIST SP 800-63B): it needs no target."""
    return all(_profiles.entry(name, target) is _profiles.entry(name, _profiles.TARGETS[0])
               for target in _profiles.TARGETS)


def _target(names, target):
    """The release whose values ``names`` take: the target given, or the newest for profiles that ask the same on
    every release (for those any target will do, a Fedora release too)."""
    if all(_same_everywhere(name) for name in names):
        given = target.strip().upper() if isinstance(target, str) else None
        return given if given in _profiles.TARGETS else _profiles.TARGETS[-1]
    if target is None or (isinstance(target, str) and not target.strip()):
        raise _profiles.ProfileError("compliance profile %s needs a target release: give target, one of %s"
                                     % (", ".join(name for name in names if not _same_everywhere(name)),
                                        ", ".join(_profiles.TARGETS)))
    for name in names:
        target = _profiles.check_profile(name, target)[1]
    return target


def select(profile, target=None):
    """The :class:`Selection` of ``profile`` (a name or a list) for ``target``; :class:`._profiles.ProfileError`
    names what to give.  Selections of plain names are made once."""
    key = None
    if target is None or isinstance(target, str):
        if isinstance(profile, str):
            key = ((profile,), target)
        elif isinstance(profile, (list, tuple)) and all(isinstance(name, str) for name in profile):
            key = (tuple(profile), target)
    if key is not None and key in _SELECTIONS:
        return _SELECTIONS[key]
    names = _names(profile)
    selection = Selection(names, _target(names, target))
    if key is not None:
        if len(_SELECTIONS) >= _SELECTIONS_MAX:
            _SELECTIONS.clear()
        _SELECTIONS[key] = selection
    return selection


def given_fields(account, fields=None, product=None):
    """The policy fields a caller set for ``account``: a product's preset, then ``fields``, validated."""
    given = defaults_for(account, product) if product is not None else {}
    if fields:
        given.update(normalize_policies({account: fields}).get(account, {}))
    return given
