# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Random passwords and passphrases that a policy (or a compliance profile) accepts.

:func:`prepare` turns the options of the ``pwpolicy_password`` lookup into a
:class:`Plan`: the policy (:mod:`._verdict` resolves it with the shared
model, or ``module_utils/_profiles.py`` gives it with the profile's libpwquality
settings), the kind, the length or number of words, the character classes the
settings require and the blocklist sources (:mod:`._blocklist`, the shipped
list always).  :func:`generate` draws candidates with a random source (by
default :class:`secrets.SystemRandom`, the operating system's generator) until
one is ``accepted`` by :func:`._verdict.check_password` and is on no
blocklist, at most :data:`MAX_ATTEMPTS` times.

Passphrase words are zxcvbn's ``english_wikipedia`` and ``us_tv_and_film``
frequency lists (the Python package ``zxcvbn``, MIT licence, which the guess
estimates already use), reduced to the words of 4 to 8 lower-case ASCII
letters: 29,357 words, 14.8 bits each.  Where ``maxclassrepeat`` limits the
words to 4 letters there are 1,119 (10.1 bits), and the default number of
words grows so that a passphrase's words carry at least :data:`MIN_BITS`.

Nothing this module raises holds a candidate or any part of it: an error
names the policy, the options and the reasons the verdict gave, which never
repeat the password.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections
import math
import re
import secrets
import string

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _profiles
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import one_line_problem
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._names import shown_name
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import NAMES, PRODUCT_LIKE, PRODUCTS
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _blocklist
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pwq_settings import (
    LIBPWQUALITY_MIN_LENGTH,
    normalize_settings,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verdict import (
    MAX_PASSWORD_LENGTH,
    check_password,
    resolve,
)

KINDS = ("password", "passphrase")
MAX_ATTEMPTS = 100
DEFAULT_WORDS = 6
MAX_WORDS = 256
DEFAULT_SEPARATOR = "-"
MIN_DEFAULT_LENGTH = 16
LENGTH_MARGIN = 4
WORD_LENGTHS = (4, 8)
WORD_SOURCES = ("english_wikipedia", "us_tv_and_film")
MIN_BITS = 64

# libpwquality's four classes.  The symbols leave out what a shell, YAML,
# Jinja, a kickstart line or a URL would take for syntax: quotes, backslash,
# blanks, $, `, #, %, &, ;, |, <, >, braces, brackets and parentheses.
LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
SYMBOLS = "!*+,-./:=?@^_~"
CLASSES = (("lcredit", "lower-case letter", LOWER), ("ucredit", "upper-case letter", UPPER),
           ("dcredit", "digit", DIGITS), ("ocredit", "other character", SYMBOLS))

_WORDS = {}


class GenerateError(PwpolicyError):
    """Bad options, or no acceptable candidate.  The message never holds a candidate."""


# ---------------------------------------------------------------------------
# The word list
# ---------------------------------------------------------------------------
def word_list(shortest=WORD_LENGTHS[0], longest=WORD_LENGTHS[1]):
    """The passphrase words from ``shortest`` to ``longest`` letters, a tuple (read once per range)."""
    key = (shortest, longest)
    if key not in _WORDS:
        try:
            from zxcvbn.frequency_lists import FREQUENCY_LISTS
        except ImportError:
            raise GenerateError("kind=passphrase takes its words from the Python package zxcvbn, which is not "
                                "installed on the controller: install it (pip install zxcvbn) or use kind=password")
        pattern = re.compile(r"[a-z]{%d,%d}" % key)
        words = sorted(set(word for source in WORD_SOURCES for word in FREQUENCY_LISTS[source]
                           if pattern.fullmatch(word)))
        _WORDS[key] = tuple(words)
    return _WORDS[key]


# ---------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------
class Plan(object):
    """What to generate, validated: see :func:`prepare`."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def describe(self):
        """The policy, its settings and the kind, in words (never a candidate)."""
        text = "the %s policy (minlen %d, minquality %d%s)" % (
            self.policy.name, self.policy.minlen, self.policy.minquality, ", strict" if self.policy.strict else "")
        if self.origin:
            text = "%s of %s" % (text, self.origin)
        if self.settings:
            text += " with the libpwquality settings %s" % ", ".join(
                "%s=%s" % item for item in sorted(self.settings.items()))
        return text


def few_words(plan):
    """A warning (never a value) when ``plan``'s passphrase words carry fewer bits than :data:`MIN_BITS`, the
    least the default number of words carries for the same words; else None."""
    if plan.kind != "passphrase":
        return None
    each = math.log2(len(plan.vocabulary))
    if plan.words * each >= MIN_BITS:
        return None
    enough = int(math.ceil(MIN_BITS / each))
    return ("words=%d: the words of this passphrase carry %.0f bits of randomness, below the %d bits the lookup "
            "gives a passphrase for the same policy by default (%d words of a public list of %d): its length meets "
            "the policy, but the words, not the letters, are what an attacker guesses. Give words=%d or more, or "
            "leave words out" % (plan.words, plan.words * each, MIN_BITS, max(enough, DEFAULT_WORDS),
                                 len(plan.vocabulary), enough))


def _whole(value, what):
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not re.fullmatch(r"\s*\d+\s*", str(value)):
        raise GenerateError("%s must be a whole number, got %s" % (what, type(value).__name__
                                                                   if not isinstance(value, str) else repr(value)))
    return int(value)


def _policy(policy, product, profile, target, policy_name):
    """(Policy, settings from the profile, a description of where the policy comes from)."""
    if profile is not None:
        if policy is not None:
            raise GenerateError("give either policy or profile (with target and policy_name), not both")
        if policy_name is None:
            policy_name = "user"
        if policy_name not in NAMES:
            raise GenerateError("unknown policy_name %r: give one of %s" % (policy_name, ", ".join(NAMES)))
        try:
            name, normalized = _profiles.check_profile(profile, target)
        except PwpolicyError as exc:
            raise GenerateError(str(exc))
        settings = dict((key, value) for key, value in _profiles.pwquality(name, normalized).items()
                        if key not in _profiles.NOT_FOR_A_CHECK)
        fields = _profiles.policies(name, normalized)[policy_name]
        return resolve(fields), settings, "compliance profile %s for %s" % (name, normalized)
    if policy_name is not None and policy_name != "user":
        raise GenerateError("policy_name goes with profile; without a profile give policy (%s or a dict)"
                            % ", ".join(NAMES))
    if policy is None:
        policy = "user"
    if product is None:
        product = "server"
    if product not in PRODUCTS:
        raise GenerateError("unknown product %s: give one of %s"
                            % (shown_name(product, PRODUCTS, PRODUCT_LIKE), ", ".join(PRODUCTS)))
    if isinstance(policy, str) and policy not in NAMES:
        raise GenerateError("policy must be a dict of policy fields or a policy name (%s); the string given is "
                            "not a policy name" % ", ".join(NAMES))
    if not isinstance(policy, (str, dict)):
        raise GenerateError("policy must be a dict of policy fields or a policy name (%s), got %s"
                            % (", ".join(NAMES), type(policy).__name__))
    try:
        resolved = resolve(policy, product=product)
    except PwpolicyError as exc:
        raise GenerateError(str(exc))
    origin = None if isinstance(policy, dict) and set(policy) >= {"minlen", "minquality"} else \
        "the %s preset" % product
    return resolved, {}, origin


def required_classes(items):
    """{credit setting: how many characters of that class} the libpwquality settings require, minclass aside."""
    return dict((name, -value) for name, value in items if name.endswith("credit") and value < 0)


def _class_of(character):
    for credit, _word, members in CLASSES:
        if character in members or (credit == "ocredit" and not character.isalnum()):
            return credit
    return "ocredit"


def _passphrase_additions(items, separator, words):
    """{credit: count} a passphrase adds to its lower-case words and separators to meet the settings."""
    needed = required_classes(items)
    needed.pop("lcredit", None)  # the words are lower case
    present = set(["lcredit"]) | set(_class_of(character) for character in separator) if words > 1 else {"lcredit"}
    for credit in list(needed):
        if credit in present:
            count = sum(1 for character in separator if _class_of(character) == credit) * (words - 1)
            if count >= needed[credit]:
                del needed[credit]
    minclass = dict(items).get("minclass", 0)
    for credit in ("dcredit", "ucredit", "ocredit"):
        if len(present | set(needed)) >= minclass:
            break
        if credit not in present and credit not in needed:
            needed[credit] = 1
    if needed.get("ucredit", 0) > words:
        raise GenerateError("the settings ask for %d upper-case letters, more than the %d words a passphrase "
                            "capitalises: give more words or kind=password" % (needed["ucredit"], words))
    return needed


def prepare(policy=None, product=None, profile=None, target=None, policy_name=None, settings=None,
            kind="password", length=None, words=None, separator=None, blocklist=None, username=None):
    """Validate the lookup's options; return a :class:`Plan`.  Raises :class:`GenerateError` naming what to give."""
    if kind not in KINDS:
        raise GenerateError("unknown kind %r: give one of %s" % (kind, ", ".join(KINDS)))
    resolved, profile_settings, origin = _policy(policy, product, profile, target, policy_name)
    merged = dict(profile_settings)
    if settings is not None:
        if not isinstance(settings, dict):
            raise GenerateError("settings must be a dict of libpwquality settings, got %s" % type(settings).__name__)
        merged.update(settings)
    try:
        items = normalize_settings(merged)
        sources = _blocklist.normalize_sources([_blocklist.SHIPPED] + (
            [] if blocklist is None else list(blocklist) if isinstance(blocklist, (list, tuple)) else [blocklist]))
    except PwpolicyError as exc:
        raise GenerateError(str(exc))
    if username is not None and (not isinstance(username, str) or not username.strip()):
        raise GenerateError("username must be the account name, a non-empty string")
    plan = Plan(policy=resolved, settings=dict(items), items=items, origin=origin, kind=kind, sources=sources,
                username=username, length=None, words=None, separator=None, needed={}, vocabulary=())
    minimum = max(resolved.minlen, LIBPWQUALITY_MIN_LENGTH)
    if kind == "password":
        if words is not None or separator is not None:
            raise GenerateError("words and separator are for kind=passphrase; for a password give length")
        plan.needed = dict((credit, max(1, count)) for credit, count in
                           [(c, required_classes(items).get(c, 0)) for c, _w, _m in CLASSES])
        plan.length = max(resolved.minlen + LENGTH_MARGIN, MIN_DEFAULT_LENGTH) if length is None else \
            _whole(length, "length")
        if plan.length < minimum:
            raise GenerateError("length %d is below the %d characters %s asks for: give length %d or more"
                                % (plan.length, minimum, plan.describe(), minimum))
        if plan.length > MAX_PASSWORD_LENGTH:
            raise GenerateError("length %d is over %d, the most a check takes: give at most %d"
                                % (plan.length, MAX_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH))
        if sum(plan.needed.values()) > plan.length:
            raise GenerateError("the settings ask for %d characters of given classes, more than length %d: give "
                                "a longer length" % (sum(plan.needed.values()), plan.length))
        return plan
    if length is not None:
        raise GenerateError("length is for kind=password; for a passphrase give words (the number of words)")
    plan.separator = DEFAULT_SEPARATOR if separator is None else separator
    if not isinstance(plan.separator, str) or len(plan.separator) > 8 or one_line_problem(plan.separator):
        raise GenerateError("separator must be a string of at most 8 characters on one line")
    longest = WORD_LENGTHS[1]
    maxclassrepeat = plan.settings.get("maxclassrepeat", 0)
    if maxclassrepeat:
        if not any(_class_of(c) != "lcredit" for c in plan.separator):
            raise GenerateError("maxclassrepeat=%d refuses lower-case words run together: give a separator that "
                                "is not a lower-case letter" % maxclassrepeat)
        longest = min(longest, maxclassrepeat)
        if longest < WORD_LENGTHS[0]:
            raise GenerateError("maxclassrepeat=%d refuses every word of %d letters or more: use kind=password"
                                % (maxclassrepeat, WORD_LENGTHS[0]))
    plan.vocabulary = word_list(WORD_LENGTHS[0], longest)
    if words is None:
        plan.words = max(DEFAULT_WORDS, int(math.ceil(MIN_BITS / math.log2(len(plan.vocabulary)))))
    else:
        plan.words = _whole(words, "words")
    if not 1 <= plan.words <= MAX_WORDS:
        raise GenerateError("words must be from 1 to %d, got %d" % (MAX_WORDS, plan.words))
    plan.needed = _passphrase_additions(items, plan.separator, plan.words)
    most = plan.words * longest + (plan.words - 1) * len(plan.separator) + sum(plan.needed.values())
    if most < minimum:
        raise GenerateError("words=%d gives at most %d characters, below the %d characters %s asks for: give more "
                            "words" % (plan.words, most, minimum, plan.describe()))
    if most > MAX_PASSWORD_LENGTH:
        raise GenerateError("words=%d may give more than %d characters, the most a check takes: give fewer words"
                            % (plan.words, MAX_PASSWORD_LENGTH))
    return plan


# ---------------------------------------------------------------------------
# Candidates
# ---------------------------------------------------------------------------
def _password(plan, rng):
    characters = []
    for credit, _word, members in CLASSES:
        characters.extend(rng.choice(members) for dummy in range(plan.needed[credit]))
    everything = LOWER + UPPER + DIGITS + SYMBOLS
    characters.extend(rng.choice(everything) for dummy in range(plan.length - len(characters)))
    rng.shuffle(characters)
    return "".join(characters)


def _passphrase(plan, rng):
    chosen = [rng.choice(plan.vocabulary) for dummy in range(plan.words)]
    positions = list(range(plan.words))
    rng.shuffle(positions)
    for index in positions[:plan.needed.get("ucredit", 0)]:
        chosen[index] = chosen[index][0].upper() + chosen[index][1:]
    for credit, members in (("dcredit", DIGITS), ("ocredit", SYMBOLS)):
        for dummy in range(plan.needed.get(credit, 0)):
            index = rng.choice(positions)
            chosen[index] += rng.choice(members)
    return plan.separator.join(chosen)


def candidate(plan, rng):
    """One candidate for ``plan`` drawn with ``rng`` (``choice`` and ``shuffle``, as :class:`random.Random`)."""
    return _password(plan, rng) if plan.kind == "password" else _passphrase(plan, rng)


def refusal(plan, value, backend=None):
    """None when ``plan``'s policy accepts ``value`` and no blocklist holds it, else the first reason (no value)."""
    for kind, path in plan.sources:
        if _blocklist.lookup(value, kind, path):
            return "%s (%s)" % (_blocklist.REASON, _blocklist.describe(kind, path))
    report = check_password(value, plan.policy, user=plan.username, settings=plan.settings or None,
                            backend=backend)
    if report["verdict"] == "accepted":
        return None
    return report["reasons"][0] if report["reasons"] else "the verdict is %s" % report["verdict"]


def generate(plan, rng=None, attempts=MAX_ATTEMPTS, backend=None):
    """A candidate ``plan``'s policy accepts, drawn at most ``attempts`` times; :class:`GenerateError` after."""
    rng = rng or secrets.SystemRandom()
    reasons = collections.Counter()
    for _attempt in range(attempts):
        value = candidate(plan, rng)
        reason = refusal(plan, value, backend=backend)
        if reason is None:
            return value
        reasons[reason] += 1
    what = ("password of %d characters" % plan.length if plan.kind == "password"
            else "passphrase of %d words" % plan.words)
    change = ("give a longer length or relax the libpwquality settings named in the reasons" if plan.kind == "password"
              else "give more words, another separator, or kind=password")
    raise GenerateError("no %s that %s accepts in %d attempts; the candidates were refused because: %s. To change: %s"
                        % (what, plan.describe(), attempts,
                           "; ".join("%s (%d times)" % item for item in reasons.most_common(3)), change))
