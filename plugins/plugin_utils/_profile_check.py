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

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError, plain_type
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
        # Every setting of the profiles, merged (minlen, enforce_for_root and retry too: the installed system's).
        self.merged = merged
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


def _names(profile, variable=None):
    """The profile names given (a name, names separated by commas, or a list of names, any case), in order, once
    each (:func:`._profiles.profile_names`).

    An unknown name is shown only when it is a typo of a profile name, and any other is ``<hidden>`` with its
    position, whether given alone, in a list or in a comma-separated string: a secret given in the wrong variable
    would otherwise be printed by every caller.
    """
    return _profiles.profile_names(profile, variable)


def _same_everywhere(name):
    """Whether a profile asks the same on every release (NIST SP 800-63B): it needs no target."""
    return all(_profiles.entry(name, target) is _profiles.entry(name, _profiles.TARGETS[0])
               for target in _profiles.TARGETS)


def _target(names, target, target_var="target"):
    """The release whose values ``names`` take: the target given, or the newest for profiles that ask the same on
    every release (for those any target will do, a Fedora release too); ``target_var`` names it in a message."""
    if all(_same_everywhere(name) for name in names):
        given = target.strip().upper() if isinstance(target, str) else None
        return given if given in _profiles.TARGETS else _profiles.TARGETS[-1]
    if target is None or (isinstance(target, str) and not target.strip()):
        raise _profiles.ProfileError("compliance profile %s needs a target release: give %s, one of %s"
                                     % (", ".join(name for name in names if not _same_everywhere(name)),
                                        target_var, ", ".join(_profiles.TARGETS)))
    for name in names:
        target = _profiles.check_profile(name, target)[1]
    return target


def select(profile, target=None, variable=None, target_var="target"):
    """The :class:`Selection` of ``profile`` (a name or a list, any case) for ``target``;
    :class:`._profiles.ProfileError` names what to give (``variable`` and ``target_var``: where the profile and the
    target were given).  Selections of plain names are made once."""
    key = None
    if target is None or isinstance(target, str):
        if isinstance(profile, str):
            key = ((profile,), target)
        elif isinstance(profile, (list, tuple)) and all(isinstance(name, str) for name in profile):
            key = (tuple(profile), target)
    if key is not None and key in _SELECTIONS:
        return _SELECTIONS[key]
    names = _names(profile, variable)
    selection = Selection(names, _target(names, target, target_var))
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


# ---------------------------------------------------------------------------
# The kickstart role: a value given may ask more than the profiles, never less
# ---------------------------------------------------------------------------
# The role's variables, as its messages name them.
EXCEPTIONS_VAR = "kickstart_profile_exceptions"
SETTINGS_VAR = "kickstart_pwquality_settings"
POLICIES_VAR = "kickstart_pwpolicies"
BOOTLOADER_VAR = "kickstart_bootloader_password"
LUKS_VAR = "kickstart_luks_passphrase"
DROPIN_VAR = "kickstart_pwquality_dropin"
# What the %post drop-in writes on the installed system: every libpwquality setting and the login.defs hashing.
DROPIN_KEYS = _profiles.PWQUALITY + ("schemes", "min_rounds")
# What a profile's values become in /etc/login.defs, by crypt scheme.
ENCRYPT_METHODS = {"sha512crypt": "SHA512", "yescrypt": "YESCRYPT"}
MIN_COST_KEYS = {"sha512crypt": "SHA_CRYPT_MIN_ROUNDS", "yescrypt": "YESCRYPT_COST_FACTOR"}


class Deviation(object):
    """A value given that asks less of a password than profile ``name`` does (or that the profile forbids, or a
    secret it requires that is missing): ``what`` the variable, ``rules`` the ids of the rules that ask for it,
    ``problem`` the words after the variable (``%(profile)s`` names the profile), ``fix`` what to do."""

    def __init__(self, what, name, target, rules, problem, fix, given=None, asked=None):
        self.what = what
        self.profile = "%s (%s)" % (name, target)
        self.rules = list(rules)
        self.problem = problem % {"profile": self.profile}
        self.fix = fix
        self.given = given
        self.asked = asked

    def waived_by(self, exceptions):
        """Whether ``exceptions`` lists every rule that asks for the value."""
        return bool(self.rules) and all(rule in exceptions for rule in self.rules)

    def _rules(self):
        return "%s %s" % ("rule" if len(self.rules) == 1 else "rules", ", ".join(self.rules))

    def problem_dict(self, exceptions_var=EXCEPTIONS_VAR):
        """``{label, reasons, hints}`` (as plugin_utils._ks_content names a value's problems): the variable, the
        values and rule ids, and what to do."""
        return {"label": self.what, "reasons": ["%s (%s)" % (self.problem, self._rules())],
                "hints": ["%s, or list %s in %s" % (self.fix, ", ".join(self.rules), exceptions_var)]}

    def error(self, exceptions_var=EXCEPTIONS_VAR):
        """The sentence of the failure: what, the profile's value, the rule ids, and what to do."""
        found = self.problem_dict(exceptions_var)
        return "%s %s: %s" % (self.what, found["reasons"][0], found["hints"][0])

    def warning(self, exceptions_var=EXCEPTIONS_VAR):
        """The sentence of a waived deviation."""
        return "%s waives %s: %s %s" % (exceptions_var, self._rules(), self.what, self.problem)


def _encrypts(line, target):
    """:func:`._ks_content.encrypts`, imported on first use: a check by profile of the filter never needs it, nor
    pykickstart, which it imports."""
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._ks_content import encrypts
    return encrypts(line, target)


def _bound(key):
    """``or more`` / ``or less``: which way a value of ``key`` asks more."""
    return "or more" if _profiles.stricter(key, [0, 1]) == 1 else "or less"


def _fix(key, asked):
    if isinstance(asked, bool):
        return "set it to %s" % _shown(asked)
    return "give %s %s" % (asked, _bound(key))


def check_exceptions(selection, exceptions, variable=EXCEPTIONS_VAR):
    """``exceptions`` (rule ids) validated against the rules of ``selection``: a tuple; ProfileError names what is
    wrong (not a list, not a rule of the profiles selected, no profile selected); ``variable`` names them."""
    if exceptions is None or exceptions == "":
        return ()
    if isinstance(exceptions, str) or not isinstance(exceptions, (list, tuple)) \
            or not all(isinstance(rule, str) for rule in exceptions):
        raise _profiles.ProfileError("%s must be a list of rule ids (strings), got %s"
                                     % (variable, plain_type(exceptions)))
    given = [rule.strip() for rule in exceptions]
    if given and selection is None:
        raise _profiles.ProfileError("%s lists rules, but no compliance profile is selected (kickstart_profile)"
                                     % variable)
    if selection is None:
        return ()
    known = []
    for name in selection.names:
        known.extend(rule["id"] for rule in _profiles.entry(name, selection.target)["rules"]
                     if rule["values"] and rule["id"] not in known)
    # Named by position: a value in the wrong variable could be a secret.
    unknown = ["%s[%d]" % (variable, index) for index, rule in enumerate(given) if rule not in known]
    if unknown:
        raise _profiles.ProfileError("%s %s no rule of %s that sets a value; its rules are %s"
                                     % (", ".join(unknown), "is" if len(unknown) == 1 else "are",
                                        selection.label, ", ".join(known)))
    return tuple(given)


class RoleProfile(object):
    """What the kickstart role makes of the compliance profiles ``selection`` (a :class:`Selection`, or None):
    the profiles fill every policy field and libpwquality setting the user does not give, and a value the user
    gives may ask more, never less, unless ``exceptions`` lists every rule that asks for it (a warning then, and
    the value given applies).  ``settings``: the user's libpwquality settings (validated here).

    Each step adds its :class:`Deviation` to :attr:`deviations`; :meth:`errors` and :meth:`warnings` say them.
    Nothing here sees a secret.
    """

    def __init__(self, selection, exceptions=None, settings=None, settings_var=SETTINGS_VAR,
                 exceptions_var=EXCEPTIONS_VAR):
        self.selection = selection
        self.exceptions_var = exceptions_var
        self.exceptions = check_exceptions(selection, exceptions, exceptions_var)
        self.settings_var = settings_var
        try:
            self.given_settings = dict(normalize_settings(settings))
        except PwpolicyError as exc:
            raise _profiles.ProfileError("%s: %s" % (settings_var, exc))
        self.deviations = []
        self._pwquality = None

    @property
    def names(self):
        return self.selection.names if self.selection is not None else ()

    def _target(self):
        return self.selection.target

    def _add(self, deviation):
        if deviation.rules:  # a value no rule asks for is the user's to set
            self.deviations.append(deviation)

    def errors(self):
        """One sentence for each deviation no exception waives."""
        return [d.error(self.exceptions_var) for d in self.deviations if not d.waived_by(self.exceptions)]

    def problems(self):
        """``{label, reasons, hints}`` of each deviation no exception waives."""
        return [d.problem_dict(self.exceptions_var) for d in self.deviations if not d.waived_by(self.exceptions)]

    def warnings(self):
        """One sentence for each deviation the exceptions waive."""
        return [d.warning(self.exceptions_var) for d in self.deviations if d.waived_by(self.exceptions)]

    def _waived(self, name, key):
        """Whether every rule of profile ``name`` that sets ``key`` is waived (and there is one)."""
        rules = _profiles.rule_list(name, self._target(), key)
        return bool(rules) and all(rule in self.exceptions for rule in rules)

    # -- policies --------------------------------------------------------
    def policy(self, account, preset=None, given=None, label=POLICIES_VAR):
        """The account's :class:`Policy`: the profiles' merged with the product's ``preset`` (the stricter value of
        each field), then each field the user gave (``given``) as given, a looser one a deviation.  Only with a
        profile: without one the policies are the preset's under the user's, as the pre-flight resolves them."""
        fields = dict(self.selection.policies[account])
        for field, value in (preset or {}).items():
            if field in fields:
                fields[field] = _profiles.stricter(field, [value, fields[field]])
        for field, value in (given or {}).items():
            if field not in fields:
                continue
            for name in self.names:
                asked = _profiles.policies(name, self._target())[account][field]
                if _profiles.stricter(field, [value, asked]) != value:
                    self._add(Deviation(
                        "%s.%s.%s" % (label, account, field), name, self._target(),
                        _profiles.rule_list(name, self._target(), *_profiles.policy_field_keys(account, field)),
                        "%s is looser than the %s %%(profile)s asks" % (_shown(value), _shown(asked)),
                        _fix(field, asked),
                        value, asked))
            fields[field] = value
        return Policy(name=account, **fields)

    # -- libpwquality settings ---------------------------------------------
    def _setting_deviations(self, key, value):
        label = "%s.%s" % (self.settings_var, key)
        for name in self.names:
            target = self._target()
            if _profiles.forbids_composition(name) and (
                    (key in _profiles.COMPOSITION and _asks_composition(key, value))
                    or (key in _profiles.PATTERN and value > 0)):
                self._add(Deviation(label, name, target, _profiles.rule_list(name, target, "minclass"),
                                    "%s is a composition rule, which %%(profile)s forbids" % value,
                                    "leave %s out" % key, value, None))
                continue
            asked = _profiles.pwquality(name, target).get(key)
            if asked is not None and key in _STRICTER_KEYS and _profiles.stricter(key, [value, asked]) != value:
                self._add(Deviation(label, name, target, _profiles.rule_list(name, target, key),
                                    "%s is looser than the %s %%(profile)s asks" % (value, asked),
                                    _fix(key, asked),
                                    value, asked))

    def pwquality(self):
        """``(every, check, origins)``: every libpwquality setting for the installed system (the profiles' merged,
        then the user's; ``minlen``, ``enforce_for_root`` and ``retry`` among them where a profile sets them),
        the settings of a check (without those three), and who asks for each setting of the check.  Worked out
        once (a deviation is added once)."""
        if self._pwquality is None:
            self._pwquality = self._settings()
        return self._pwquality

    def _settings(self):
        every = dict(self.selection.merged) if self.selection is not None else {}
        origins = dict((key, list(names)) for key, names in self.selection.origins.items()) \
            if self.selection is not None else {}
        for key, value in sorted(self.given_settings.items()):
            self._setting_deviations(key, value)
            every[key] = value
            origins[key] = [self.settings_var]
        ordered = dict((key, every[key]) for key in _profiles.PWQUALITY if key in every)
        ordered.update((key, value) for key, value in every.items() if key not in ordered)
        check = dict((key, value) for key, value in ordered.items() if key not in _profiles.NOT_FOR_A_CHECK)
        origins = dict((key, names) for key, names in origins.items() if key in check)
        return ordered, check, origins

    # -- what must be there ------------------------------------------------
    def requirements(self, bootloader_password, luks_passphrase, storage=None, pwquality_dropin=True):
        """Deviations for a boot-loader password or disk encryption a profile requires and the kickstart lacks, and
        for the installed system's libpwquality and login.defs settings when the drop-in is not written
        (``pwquality_dropin`` false): one per profile, naming every rule of it that sets one of them.

        ``storage``: the storage lines of kickstart_content (empty: autopart, encrypted with the passphrase);
        with lines, the installer must read ``--encrypted`` on one (:func:`._ks_content.encrypts`: never in a
        comment or inside quotes) for the passphrase to be used."""
        for name in self.names:
            target = self._target()
            data = _profiles.profile(name, target)
            if data["bootloader_password"] and not bootloader_password:
                self._add(Deviation(BOOTLOADER_VAR, name, target,
                                    _profiles.rule_list(name, target, "bootloader_password"),
                                    "is not set, but %(profile)s requires a boot-loader password",
                                    "set it (vaulted)"))
            if data["encryption"]:
                rules = _profiles.rule_list(name, target, "encryption")
                if not luks_passphrase:
                    self._add(Deviation(LUKS_VAR, name, target, rules,
                                        "is not set, but %(profile)s requires encrypted disks",
                                        "set it (vaulted)"))
                elif storage and not any(_encrypts(line, target) for line in storage):
                    self._add(Deviation("kickstart_content.storage", name, target, rules,
                                        "has no line with --encrypted, so no disk is encrypted, but %(profile)s "
                                        "requires encrypted disks", "add --encrypted to the lines of the encrypted "
                                        "devices"))
            if not pwquality_dropin:
                self._add(Deviation(DROPIN_VAR, name, target, _profiles.rule_list(name, target, *DROPIN_KEYS),
                                    "is false, so the installed system gets none of the libpwquality settings and "
                                    "/etc/login.defs lines %(profile)s asks for", "set it to true", False, True))

    # -- hashing ------------------------------------------------------------
    def allowed_schemes(self):
        """The crypt schemes every profile allows whose scheme rules are not all waived; None: any."""
        allowed = None
        for name in self.names:
            schemes = _profiles.crypt_schemes(name, self._target())
            if schemes and not self._waived(name, "schemes"):
                allowed = [s for s in (allowed if allowed is not None else schemes) if s in schemes]
        return allowed

    def scheme_rules(self):
        """``stig (RHEL9) rules ...``: the rules that ask for a scheme, for a message."""
        return "; ".join("%s (%s) %s" % (name, self._target(), _profiles.rule_ids(name, self._target(), "schemes"))
                         for name in self.names if _profiles.crypt_schemes(name, self._target()))

    def hash_cost(self, scheme, cost, variable):
        """Deviations for the hashes' cost (``variable``: the role's variable of it) below a profile's minimum."""
        for name in self.names:
            target = self._target()
            minimum = _profiles.hashing(name, target)["min_rounds"]
            if minimum is not None and scheme in _profiles.crypt_schemes(name, target) and cost < minimum:
                self._add(Deviation(variable, name, target, _profiles.rule_list(name, target, "min_rounds"),
                                    "%s is below the %d %%(profile)s asks for %s" % (cost, minimum, scheme),
                                    "give %d or more" % minimum, cost, minimum))

    def login_defs(self, scheme):
        """``[(KEY, value)]`` for ``/etc/login.defs`` where a profile asks (and its rules are not waived): the
        hashing scheme (``ENCRYPT_METHOD``) and its least cost (``SHA_CRYPT_MIN_ROUNDS`` or
        ``YESCRYPT_COST_FACTOR``)."""
        method, minimum = False, None
        for name in self.names:
            target = self._target()
            schemes = _profiles.crypt_schemes(name, target)
            if schemes and not self._waived(name, "schemes"):
                method = True
            rounds = _profiles.hashing(name, target)["min_rounds"]
            if rounds is not None and scheme in schemes and not self._waived(name, "min_rounds"):
                minimum = rounds if minimum is None else max(minimum, rounds)
        lines = []
        if method and scheme in ENCRYPT_METHODS:
            lines.append(("ENCRYPT_METHOD", ENCRYPT_METHODS[scheme]))
        if minimum is not None and scheme in MIN_COST_KEYS:
            lines.append((MIN_COST_KEYS[scheme], minimum))
        return lines
