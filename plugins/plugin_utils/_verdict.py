# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The verdict on one password under one policy, with reasons and hints.

The installer never checks a password a kickstart supplies, so a verdict
always reads the policy by one of two sets of rules (``RULES``):

``collection`` (the default) reads each field as its name says:

* an empty password is ``accepted`` with ``emptyok`` and ``rejected`` without;
* shorter than ``minlen`` characters, rejected by libpwquality, or scored
  below ``minquality`` is a failure: ``rejected`` under ``strict``,
  ``accepted_weak`` otherwise;
* anything else is ``accepted``.

``installer`` gives what the current installer's screens let a person
choose: the text mode's password prompt for ``root`` and ``user``, the
graphical LUKS passphrase dialog for ``luks`` (see :mod:`._installer_rules`).

With ``fips`` a LUKS passphrase shorter than 8 characters is rejected under
either rules, as the installer refuses it in FIPS mode.

A check by compliance profile (:func:`check_against` with ``profile``, see
:mod:`._profile_check`) gives libpwquality every setting of the profiles on
its one settings object, names each class and pattern setting the password
breaks as a reason of its own (:mod:`._setting_reasons`), and, where a
profile asks for one or ``blocklist`` is given, compares the password with
the shipped list of common passwords and the breach corpus given
(:mod:`._blocklist`).  Both go with the collection's rules only.

libpwquality itself is reached through :mod:`._pwquality`, once per password.
Nothing this module returns or raises holds the password or any part of it.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _blocklist, _profile_check
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._installer_rules import (
    BLOCKLIST,
    FIPS,
    FIPS_MIN_LENGTH,
    LENGTH,
    MINQUALITY,
    PWQUALITY,
    installer_empty,
    installer_verdict,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import NAMES, Policy, policy_from
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pw_reasons import (
    KEYBOARD_HINT,
    explain,
    strength_band,
    typable,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pwq_settings import (
    ERR_BAD_WORDS,
    ERR_CRACKLIB_CHECK,
    ERR_GECOS_CHECK,
    ERR_MIN_LENGTH,
    ERR_USER_CHECK,
    LIBPWQUALITY_MIN_LENGTH,
    PwcheckError,
    has_positive_credit,
    normalize_settings,
    type_name,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pwquality import (
    check as libpwquality_check,
    get_backend,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._setting_reasons import failures as setting_failures

# libpwquality crashes the process (a segmentation fault) on passwords and user
# names of some 87,000 characters; no installer, passwd or PAM stack takes
# anything near these lengths, so longer input never reaches it.
MAX_PASSWORD_LENGTH = 4096
MAX_USER_LENGTH = 256

COLLECTION = "collection"
INSTALLER = "installer"
RULES = (COLLECTION, INSTALLER)


def account_for(policy_name, user=None):
    """The user name libpwquality gets, as the installer passed it."""
    if policy_name == "root":
        return "root"
    if policy_name == "user":
        return user or None
    return None


def _plural(number, word):
    return "%d %s%s" % (number, word, "" if number == 1 else "s")


# ---------------------------------------------------------------------------
# Arguments and the passwords that never reach libpwquality
# ---------------------------------------------------------------------------
def _check_arguments(password, user, rules, fips):
    if not isinstance(password, str):
        raise PwcheckError("the password must be a string, got %s" % type_name(password))
    try:
        password.encode("utf-8")
    except UnicodeEncodeError:
        raise PwcheckError("the password is not valid text: it holds characters that cannot be encoded as UTF-8")
    if user is not None and not isinstance(user, str):
        raise PwcheckError("user must be a string (the account name), got %s" % type_name(user))
    if user is not None and len(user) > MAX_USER_LENGTH:
        raise PwcheckError("user (the account name) has %d characters; account names have at most %d "
                           "(32 on Linux)" % (len(user), MAX_USER_LENGTH))
    if rules not in RULES:
        raise PwcheckError("rules must be one of %s, got %s" % (", ".join(RULES), _describe(rules)))
    if not isinstance(fips, bool):
        raise PwcheckError("fips must be true or false, got %s" % type_name(fips))


def _describe(value):
    """A wrong option value, described without repeating a string (it may be a secret)."""
    return "another string" if isinstance(value, str) else type_name(value)


def _fail(report, reason, hint):
    report["reasons"].append(reason)
    report["hints"].append(hint)


def _empty(report, policy, rules):
    """The verdict on an empty password."""
    if rules == INSTALLER:
        verdict, reason, hint = installer_empty(policy)
    elif policy.emptyok:
        verdict, reason, hint = "accepted", None, None
    else:
        verdict = "rejected"
        reason = "is empty, and this policy does not allow an empty password"
        hint = ("set a password, or set emptyok to true if an empty one is really meant"
                + (" (for root, empty means the account is locked)" if policy.name == "root" else ""))
    report.update(ok=verdict != "rejected", verdict=verdict)
    if reason:
        _fail(report, reason, hint)


def _refusal(report, password, policy, rules):
    """Fill ``report`` and return True when the password never reaches libpwquality."""
    if password == "":
        _empty(report, policy, rules)
        return True
    if "\0" in password:
        report.update(ok=False, verdict="rejected", strength="weak")
        _fail(report, "contains a NUL character, which no installer, kickstart line or crypt hash can take",
              "choose a password without a NUL character")
        return True
    if len(password) > MAX_PASSWORD_LENGTH:
        report.update(ok=False, verdict="rejected", strength="weak")
        _fail(report, "longer than %d characters (has %d): too long to check, and longer than any installer "
              "or login takes" % (MAX_PASSWORD_LENGTH, len(password)),
              "use at most %d characters (a passphrase of a few dozen is already very strong)"
              % MAX_PASSWORD_LENGTH)
        return True
    return False


# ---------------------------------------------------------------------------
# libpwquality, called once
# ---------------------------------------------------------------------------
def _libpwquality(password, policy, user, items, backend):
    """(rc, aux, stopped_at_length): libpwquality's answer for the rules it owns, in one call.

    The policy's length rule is ours (characters); libpwquality's own counts
    bytes and, once broken, hides every other problem.  A password shorter
    than ``minlen`` characters and bytes (with no positive credit to make up
    for it) would stop at libpwquality's length rule, so it is checked at
    libpwquality's lowest minimum length instead: ``stopped_at_length`` is
    then true and the score (which depends on the minimum length) is not used.
    Every other password is checked at the policy's ``minlen``, so the score
    is the one libpwquality gives for it.  Only a too short password with a
    positive credit needs a second call, as libpwquality's length rule then
    depends on its character classes.
    """
    account = account_for(policy.name, user)
    minlen = policy.minlen
    if len(password) >= minlen or minlen <= LIBPWQUALITY_MIN_LENGTH:
        rc, aux = libpwquality_check(backend, items, minlen, password, account)
        return rc, aux, False
    if not has_positive_credit(items) and len(password.encode("utf-8")) < minlen:
        rc, aux = libpwquality_check(backend, items, LIBPWQUALITY_MIN_LENGTH, password, account)
        return rc, aux, True
    rc, aux = libpwquality_check(backend, items, minlen, password, account)
    if rc != ERR_MIN_LENGTH:
        return rc, aux, False
    rc, aux = libpwquality_check(backend, items, LIBPWQUALITY_MIN_LENGTH, password, account)
    return rc, aux, True


# libpwquality's codes for settings its other reasons do not name, and the setting.
_CODE_SETTINGS = {ERR_CRACKLIB_CHECK: "dictcheck", ERR_USER_CHECK: "usercheck"}


def _named(reason, code, settings, origins):
    """``reason`` with who asks for the setting behind ``code`` (a check by profile), when someone is named."""
    setting = _CODE_SETTINGS.get(code)
    names = origins.get(setting) if setting and setting in settings else None
    return "%s (%s: %s %s)" % (reason, ", ".join(names), setting, settings[setting]) if names else reason


def _failures(report, password, policy, answer, fips, own=(), named=None):
    """Every rule ``password`` breaks, as (kind, reason, hint); fills the report's score and strength.

    ``own`` are the class and pattern settings it breaks (a check by profile,
    :func:`._setting_reasons.failures`), each a reason instead of
    libpwquality's one answer about the first; ``named`` is ``(settings,
    origins)`` of such a check, to name who asks for the dictionary and user
    name checks.
    """
    rc, aux, stopped = answer
    length = len(password)
    too_short = length < policy.minlen
    found = []
    if too_short:
        found.append((LENGTH, "shorter than %s (has %d)" % (_plural(policy.minlen, "character"), length),
                      "add at least %s" % _plural(policy.minlen - length, "more character")))
    found.extend((PWQUALITY, reason, hint) for _code, _setting, reason, hint in own)
    if rc < 0 and not (too_short and rc == ERR_MIN_LENGTH) and rc not in set(item[0] for item in own):
        reason, hint = explain(rc, aux, length)
        found.append((PWQUALITY, _named(reason, rc, *named) if named else reason, hint))
    if stopped or rc < 0:
        report["strength"] = "too_short" if too_short else "weak"
    else:
        report["score"] = rc
        report["strength"] = "too_short" if too_short else "weak" if own else strength_band(rc)
        if rc < policy.minquality:
            found.append((MINQUALITY,
                          "libpwquality scores it %d, below this policy's minquality of %d" % (rc, policy.minquality),
                          "make it longer or less predictable; every character beyond minlen and every extra "
                          "kind of character raises the score"))
    if fips and policy.name == "luks" and length < FIPS_MIN_LENGTH:
        found.append((FIPS, "shorter than the %d characters a LUKS passphrase needs in FIPS mode (has %d)"
                      % (FIPS_MIN_LENGTH, length),
                      "add at least %s (the installer refuses a shorter passphrase in FIPS mode, strict or not)"
                      % _plural(FIPS_MIN_LENGTH - length, "more character")))
    return found


def collection_verdict(policy, found, password_typable):
    """The collection's rules: (verdict, the failures that are reasons)."""
    if any(kind == FIPS for kind, _reason, _hint in found):
        return "rejected", found
    if found:
        return ("rejected" if policy.strict else "accepted_weak"), found
    return "accepted", found


VERDICTS = {COLLECTION: collection_verdict, INSTALLER: installer_verdict}


def check_password(password, policy, user=None, settings=None, backend=None, rules=COLLECTION, fips=False,
                   origins=None, blocklist=()):
    """Check ``password`` (text) against ``policy`` (a :class:`._policy.Policy`).

    ``user`` is the account name for the ``user`` policy (``root`` is used
    for the root policy and no name for ``luks``); ``settings`` are explicit
    libpwquality settings; ``rules`` is one of :data:`RULES`; ``fips`` adds
    the installer's FIPS rule for LUKS passphrases.  With ``origins`` (who
    asks for each setting, ``{setting: [names]}``: a check by profile) every
    class and pattern setting the password breaks is a reason of its own;
    ``blocklist`` are sources (:func:`._blocklist.checked_sources`) that must
    not hold the password.  Returns the report dict ``{ok, verdict, score,
    strength, reasons, hints, policy}``; raises :class:`PwcheckError` when no
    check can be made.
    """
    _check_arguments(password, user, rules, fips)
    return _verdict(password, policy, user, normalize_settings(settings), backend, rules, fips, origins, blocklist)


# libpwquality's answers that come after every setting counted by _setting_reasons: none of those is broken.
_PAST_THE_COUNTED = frozenset((ERR_USER_CHECK, ERR_GECOS_CHECK, ERR_BAD_WORDS, ERR_CRACKLIB_CHECK))


def _verdict(password, policy, user, items, backend, rules, fips, origins, blocklist):
    """:func:`check_password` on checked arguments and normalized settings ``items``."""
    if rules != COLLECTION and (origins is not None or blocklist):
        raise PwcheckError("rules=%s cannot be combined with a compliance profile or a blocklist: they are checks "
                           "of the collection, not of the installer's screens; give rules=collection" % rules)
    report = {"ok": True, "verdict": "accepted", "score": 0, "strength": "empty",
              "reasons": [], "hints": [], "policy": policy.to_dict()}
    if _refusal(report, password, policy, rules):
        return report
    answer = _libpwquality(password, policy, user, items, backend or get_backend())
    password_typable = typable(password)
    own, named = (), None
    if origins is not None:
        named = (dict(items), origins)
        # libpwquality checks the counted settings first: when it accepts the password, or stops at a check that
        # comes after them, none is broken (test_setting_reasons holds the count to libpwquality's answer).
        if answer[0] < 0 and answer[0] not in _PAST_THE_COUNTED:
            own = setting_failures(password, named[0], origins)
    found = _failures(report, password, policy, answer, fips, own, named)
    if blocklist and _blocklist.holds(password, blocklist):
        found.append((BLOCKLIST, _blocklist.REASON, _blocklist.HINT))
        if report["strength"] not in ("too_short", "weak"):
            report["strength"] = "weak"
    verdict, reasons = VERDICTS[rules](policy, found, password_typable)
    for _kind, reason, hint in reasons:
        _fail(report, reason, hint)
    if not password_typable:
        report["hints"].append(KEYBOARD_HINT)
    report.update(ok=verdict != "rejected", verdict=verdict)
    return report


# Resolved policies, keyed by plain arguments: a filter checking many passwords
# against one policy resolves it once.  Policies are immutable; the cache is
# emptied when it grows past a few dozen distinct policies.
_RESOLVED = {}
_RESOLVED_MAX = 64
_PLAIN = (str, int, bool, type(None))
_TEXT = (str,)  # exactly str: a subclass may be a vaulted or tagged value


def _cache_key(policy, product, target):
    """A hashable key for plain arguments; None for anything else (vaulted or tagged values, lists)."""
    if isinstance(policy, dict):
        if not all(type(k) in _TEXT and type(v) in _PLAIN for k, v in policy.items()):
            return None
        # The type is part of the key: True == 1, but only one of them is a valid minlen.
        policy = tuple(sorted((k, type(v).__name__, v) for k, v in policy.items()))
    elif type(policy) not in _TEXT:
        return None
    if type(product) not in _PLAIN or type(target) not in _PLAIN:
        return None
    return policy, type(product).__name__, product, type(target).__name__, target


def resolve(policy, product=None, target=None):
    """The :class:`._policy.Policy` for ``policy`` (a dict, a name or a Policy), resolved once per distinct value."""
    key = _cache_key(policy, product, target)
    resolved = _RESOLVED.get(key) if key is not None else None
    if resolved is None:
        resolved = policy_from(policy, product=product, target=target)
        if key is not None:
            if len(_RESOLVED) >= _RESOLVED_MAX:
                _RESOLVED.clear()
            _RESOLVED[key] = resolved
    return resolved


def _account(policy):
    """``(account, fields given)`` of a policy argument: a name, a dict with a name, or a Policy."""
    if isinstance(policy, Policy):
        fields = policy.to_dict()
    elif isinstance(policy, dict):
        fields = dict(policy)
    elif isinstance(policy, str):
        fields = {"name": policy}
    else:
        raise PwcheckError("policy must be a dict of policy fields or a policy name (%s), got %s"
                           % (", ".join(NAMES), type_name(policy)))
    account = fields.pop("name", None)
    if not isinstance(account, str) or account not in NAMES:
        raise PwcheckError("with a compliance profile, policy names the account: give a policy name (%s) or a "
                           "dict with name: one of them" % ", ".join(NAMES))
    return account, fields


def check_by_profile(password, policy, profile, target=None, product=None, user=None, settings=None, backend=None,
                     rules=COLLECTION, fips=False, blocklist=None):
    """Check ``password`` by the compliance ``profile`` (a name or a list) for ``target``.

    The account's policy is the profiles' merged with the fields ``policy``
    and ``product`` give, the settings the profiles' merged with
    ``settings``, the stricter value of each applying
    (:class:`._profile_check.Selection`).  The report adds ``profile``
    (``{names, target}``) and ``conflicts`` (sentences: where the profiles,
    the policy or the settings disagree, and which value applies).
    """
    _check_arguments(password, user, rules, fips)
    selection = _profile_check.select(profile, target)
    account, fields = _account(policy)
    key = _prepared_key(selection, account, fields, product, settings)
    prepared = _PREPARED.get(key) if key is not None else None
    if prepared is None:
        effective, policy_notes = selection.policy_for(account, _profile_check.given_fields(account, fields, product))
        merged, origins, setting_notes = selection.settings_for(settings)
        prepared = (effective, normalize_settings(merged), origins, selection.conflicts + policy_notes + setting_notes)
        if key is not None:
            if len(_PREPARED) >= _RESOLVED_MAX:
                _PREPARED.clear()
            _PREPARED[key] = prepared
    effective, items, origins, conflicts = prepared
    sources = _blocklist.checked_sources(blocklist, required=selection.blocklist)
    report = _verdict(password, effective, user, items, backend, rules, fips, origins, sources)
    report["profile"] = {"names": list(selection.names), "target": selection.target}
    report["conflicts"] = list(conflicts)
    return report


# What a check by profile derives from its plain arguments (the policy, the settings, who asks for each, the
# conflicts), keyed by them: many passwords checked alike derive it once.
_PREPARED = {}


def _prepared_key(selection, account, fields, product, settings):
    """A hashable key for plain arguments; None for anything else (vaulted or tagged values, lists)."""
    if not fields and settings is None and type(product) in _PLAIN:
        return selection.names, selection.target, account, product
    parts = []
    for given in (fields, settings or {}):
        if not isinstance(given, dict) or not all(type(k) in _TEXT and type(v) in _PLAIN for k, v in given.items()):
            return None
        parts.append(tuple(sorted((k, type(v).__name__, v) for k, v in given.items())))
    if type(product) not in _PLAIN:
        return None
    return (selection.names, selection.target, account, product) + tuple(parts)


def check_against(password, policy, product=None, target=None, user=None, settings=None, backend=None,
                  rules=COLLECTION, fips=False, profile=None, blocklist=None):
    """Resolve ``policy`` with the shared model, then check ``password``.

    ``policy`` is a policy dict, a :class:`._policy.Policy`, or a policy name
    (with ``product`` or ``target`` filling its fields).  A string that is not
    a policy name is refused without repeating it: it may be a password given
    in the wrong place.  With ``profile`` the check is :func:`check_by_profile`
    (``target`` is then the profile's release); ``blocklist`` (a path or a
    list of paths) adds the shipped list and the corpus given.
    """
    if isinstance(policy, str) and policy not in NAMES:
        raise PwcheckError(
            "policy must be a dict of policy fields or a policy name (%s); the string given is "
            "not a policy name (not repeated here in case it is a secret)" % ", ".join(NAMES))
    if _profile_check.wanted(profile):
        return check_by_profile(password, policy, profile, target=target, product=product, user=user,
                                settings=settings, backend=backend, rules=rules, fips=fips, blocklist=blocklist)
    return check_password(password, resolve(policy, product, target), user=user, settings=settings, backend=backend,
                          rules=rules, fips=fips, blocklist=_blocklist.checked_sources(blocklist))
