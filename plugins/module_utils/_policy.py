# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The password policy model: the one definition every plugin and the role use.

A policy is ``{name, minlen, minquality, strict, emptyok, changesok}`` where
``name`` is one of anaconda's policy names (``root``, ``user``, ``luks``).
This module validates user input, fills omitted fields (from a product preset,
else from what the target installer release made an omitted option mean),
and renders one ``pwpolicy`` kickstart line in anaconda's own format.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError

import dataclasses
from dataclasses import dataclass

from ansible.module_utils.parsing.convert_bool import BOOLEANS_FALSE, BOOLEANS_TRUE

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import KickstartEditError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._names import shown_name
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import (
    NEWEST,
    parse_release,
    support_message,
)

# Anaconda's policy names, in the order anaconda and we write them.
NAMES = ("root", "user", "luks")
# Every key a user may write in a policy.
FIELDS = ("name", "minlen", "minquality", "strict", "emptyok", "changesok")
INT_FIELDS = {"minlen": (0, 1024), "minquality": (0, 100)}
FLAG_FIELDS = ("strict", "emptyok", "changesok")
# kickstart spelling of each flag: field -> (when true, when false)
FLAG_OPTIONS = {
    "strict": ("--strict", "--notstrict"),
    "changesok": ("--changesok", "--nochanges"),
    "emptyok": ("--emptyok", "--notempty"),
}
# anaconda's str() order: minlen, minquality, strict, changes, empty
RENDER_FLAG_ORDER = ("strict", "changesok", "emptyok")
PRODUCTS = ("server", "cloud", "workstation")
# An unknown product is shown when it is one word of letters ("laptop"), as a product is named, or a typo of one;
# any other value (digits, symbols: a secret in the wrong variable, say) is hidden (_names.shown_name).
PRODUCT_LIKE = re.compile(r"[A-Za-z]{1,16}")


class PolicyError(PwpolicyError):
    """Invalid policy input.  The message names the field, the value and what is allowed."""


# ---------------------------------------------------------------------------
# Product presets.
#
# Anaconda never shipped per-product password policies: its upstream
# configuration (data/anaconda.conf, Fedora 34 on) gives every product
# root/user/luks "quality 1, length 6", with only "user" allowing an empty
# password, and no Fedora product image we could find overrode the old
# interactive-defaults.ks.  The presets below are therefore our choice, made
# from the 2015 Fedora debate (FESCo ticket 1412 and its "Passphrase policy"):
#
# * Coach, do not block, where a person is at the keyboard: Workstation's
#   root and user policies are not strict (a weak password is reported as
#   accepted_weak with reasons, the installer asks to confirm it) and allow
#   changes in the installer UI.  Length 8 is FESCo's passphrase minimum.
# * Be strict where nobody is: Server and Cloud passwords come from code and
#   vaults, so nothing stops them from being long.  Length 15 is NIST SP
#   800-63B rev. 4's minimum for a password used as the only factor.
# * Quality 30 everywhere: it is where anaconda's strength meter moves from
#   "fair" to "good".  libpwquality's score shrinks as minlen grows (its
#   divisor is 3 * minlen + 8), so a higher bar would reject strong secrets:
#   a random 20-character password scores 36 at minlen 20, a four-word
#   28-character passphrase 47.
# * Be strictest for LUKS everywhere: a LUKS passphrase is attacked offline at
#   full speed (the cryptsetup FAQ asks for well over 64 bits), so it is
#   strict in every product, longest on unattended machines, and never empty.
# ---------------------------------------------------------------------------
_STRICT_LOGIN = dict(minlen=15, minquality=30, strict=True, emptyok=False, changesok=False)
_STRICT_LUKS = dict(minlen=20, minquality=30, strict=True, emptyok=False, changesok=False)

PRESETS = {
    "server": {
        "root": dict(_STRICT_LOGIN),
        "user": dict(_STRICT_LOGIN),
        "luks": dict(_STRICT_LUKS),
    },
    "cloud": {
        # Cloud images lock root and take keys from cloud-init; a password that
        # is set anyway protects a console reachable from the provider's web UI.
        "root": dict(_STRICT_LOGIN),
        "user": dict(_STRICT_LOGIN),
        "luks": dict(_STRICT_LUKS),
    },
    "workstation": {
        # Empty root means "lock root", which is Workstation's own default.
        "root": dict(minlen=8, minquality=30, strict=False, emptyok=True, changesok=True),
        "user": dict(minlen=8, minquality=30, strict=False, emptyok=False, changesok=True),
        # Typed at every boot, attacked offline: strict, 16 bytes or more.
        "luks": dict(minlen=16, minquality=30, strict=True, emptyok=False, changesok=False),
    },
}


@dataclass(frozen=True)
class Policy:
    """One complete, validated password policy.  Immutable; equal and hashed by its fields.

    The constructor validates and converts every field (``"8"`` becomes 8,
    ``"yes"`` True) and raises :class:`PolicyError` for anything else.
    """

    name: str
    minlen: int
    minquality: int
    strict: bool
    emptyok: bool
    changesok: bool

    def __post_init__(self):
        check_name(self.name)
        for field in FIELDS[1:]:
            object.__setattr__(self, field, convert_field(self.name, field, getattr(self, field)))

    def as_tuple(self):
        return tuple(getattr(self, f) for f in FIELDS)

    def to_dict(self):
        """The policy as a plain dict (what modules and filters return)."""
        return dict((f, getattr(self, f)) for f in FIELDS)

    def replace(self, **fields):
        """A copy with some fields changed (validated like the constructor)."""
        return dataclasses.replace(self, **fields)

    def render(self):
        """The ``pwpolicy`` line, exactly as anaconda writes it (no newline)."""
        parts = ["pwpolicy", self.name,
                 "--minlen=%d" % self.minlen,
                 "--minquality=%d" % self.minquality]
        for field in RENDER_FLAG_ORDER:
            on, off = FLAG_OPTIONS[field]
            parts.append(on if getattr(self, field) else off)
        return " ".join(parts)


def _describe(value):
    return "%r (%s)" % (value, type(value).__name__)


def check_name(name):
    """Validate a policy name; returns it."""
    if not isinstance(name, str) or name not in NAMES:
        raise PolicyError(
            "unknown policy name %s: valid names are %s"
            % (_describe(name) if not isinstance(name, str) else repr(name), ", ".join(NAMES)))
    return name


def convert_field(name, field, value):
    """Validate and convert one field of policy ``name``.

    Integers accept ints and strings of digits (what templating may produce);
    flags accept booleans and Ansible's boolean words (``yes``, ``false``...).
    """
    if field in INT_FIELDS:
        low, high = INT_FIELDS[field]
        number = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and value.strip().lstrip("+").isdigit():
            try:
                number = int(value.strip())
            except ValueError:  # "++3", digits int() does not read (superscripts)
                number = None
        if number is None or not low <= number <= high:
            raise PolicyError(
                "policy %r: %s must be a whole number from %d to %d, got %s"
                % (name, field, low, high, _describe(value)))
        return number
    if field in FLAG_FIELDS:
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            word = value.strip().lower()
            if word in BOOLEANS_TRUE:
                return True
            if word in BOOLEANS_FALSE:
                return False
        raise PolicyError(
            "policy %r: %s must be true or false, got %s" % (name, field, _describe(value)))
    raise PolicyError(
        "policy %r: unknown key %r: valid keys are %s" % (name, field, ", ".join(FIELDS)))


def check_product(product):
    """Validate a product name; returns it (``None`` stays ``None``)."""
    if product is None:
        return None
    if not isinstance(product, str) or product not in PRODUCTS:
        raise PolicyError(
            "unknown product %s: valid products are %s" % (shown_name(product, PRODUCTS, PRODUCT_LIKE),
                                                           ", ".join(PRODUCTS)))
    return product


def _dict_entries(policies):
    """``[(name, fields)]`` of policies given as a dict keyed by name."""
    entries = []
    for key, fields in policies.items():
        fields = {} if fields is None else fields
        if not isinstance(fields, dict):
            raise PolicyError("policy %r must be a dict of fields (%s), got %s"
                              % (key, ", ".join(FIELDS[1:]), _describe(fields)))
        if "name" in fields and fields["name"] != key:
            raise PolicyError("policy %r: name %r does not match its key; drop name or make them equal"
                              % (key, fields["name"]))
        entries.append((key, fields))
    return entries


def _list_entries(policies):
    """``[(name, fields)]`` of policies given as a list of dicts with a name."""
    entries = []
    for index, fields in enumerate(policies):
        if not isinstance(fields, dict):
            raise PolicyError("policies[%d] must be a dict with a name and fields, got %s"
                              % (index, _describe(fields)))
        if "name" not in fields:
            raise PolicyError("policies[%d] has no name: give name: one of %s" % (index, ", ".join(NAMES)))
        entries.append((fields["name"], fields))
    return entries


def _converted_fields(name, fields):
    """The fields of policy ``name``, validated and converted (``name`` itself left out)."""
    converted = {}
    for field, value in fields.items():
        if field == "name":
            continue
        if field not in FIELDS:
            raise PolicyError("policy %r: unknown key %r: valid keys are %s" % (name, field, ", ".join(FIELDS)))
        converted[field] = convert_field(name, field, value)
    return converted


def normalize_policies(policies):
    """Turn user input into ``{name: {field: value}}`` with validated, converted values.

    ``policies`` is a dict keyed by policy name (values are dicts of fields) or
    a list of dicts that each carry ``name``.  Fields the user left out stay
    out; the result keeps anaconda's name order.  A name given twice in a
    list is an error.
    """
    if policies is None:
        return {}
    if isinstance(policies, dict):
        entries = _dict_entries(policies)
    elif isinstance(policies, (list, tuple)):
        entries = _list_entries(policies)
    else:
        raise PolicyError("policies must be a dict keyed by policy name or a list of dicts with a name, got %s"
                          % _describe(policies))
    result = {}
    for name, fields in entries:
        check_name(name)
        if name in result:
            raise PolicyError("policy %r is given more than once" % name)
        result[name] = _converted_fields(name, fields)
    return dict((n, result[n]) for n in NAMES if n in result)


def defaults_for(name, product=None, target=None):
    """Complete field values for ``name`` before user overrides.

    A product preset when ``product`` is given, else what the ``target``
    release's anaconda made an omitted option mean (the newest release when
    ``target`` is None).
    """
    check_name(name)
    if check_product(product) is not None:
        return dict(PRESETS[product][name])
    return parse_release(target or NEWEST).omitted_defaults(name)


def build_policies(policies=None, product=None, target=None, every_name=False):
    """Return ``{name: Policy}`` in anaconda's order.

    With a ``product``, all three names are filled from its preset and the
    user's fields override it field by field.  Without one, only the names the
    user gave are returned (all three with ``every_name``), each omitted field
    filled from ``target``'s defaults.
    """
    given = normalize_policies(policies)
    check_product(product)
    names = NAMES if product is not None or every_name else tuple(given)
    built = {}
    for name in names:
        values = defaults_for(name, product, target)
        values.update(given.get(name, {}))
        built[name] = Policy(name=name, **values)
    return built


def policy_from(value, name=None, product=None, target=None):
    """One :class:`Policy` from a dict of fields, a :class:`Policy`, or a name.

    * a dict: its ``name`` (or ``name`` argument) selects the policy; omitted
      fields come from ``product``'s preset, else from ``target``'s defaults;
    * a string: a policy name, which needs ``product`` (or takes ``target``'s
      defaults when no product is given).
    """
    if isinstance(value, Policy):
        return value
    if isinstance(value, str):
        if name is not None and name != value:
            raise PolicyError("policy %r conflicts with name %r" % (value, name))
        return build_policies({value: {}}, product=product, target=target)[value]
    if isinstance(value, dict):
        fields = dict(value)
        policy_name = fields.pop("name", name)
        if policy_name is None:
            raise PolicyError("policy has no name: give name: one of %s" % ", ".join(NAMES))
        check_name(policy_name)
        if name is not None and policy_name != name:
            raise PolicyError("policy %r conflicts with name %r" % (policy_name, name))
        return build_policies({policy_name: fields}, product=product, target=target)[policy_name]
    raise PolicyError(
        "a policy must be a dict of fields or a policy name (%s), got %s"
        % (", ".join(NAMES), _describe(value)))


# The kickstart section that holds the policies (Policy.render gives each line).
SECTION = "%anaconda"


def _as_policies(policies, product=None, target=None):
    if isinstance(policies, dict) and policies and all(isinstance(p, Policy) for p in policies.values()):
        items = list(policies.values())
    elif isinstance(policies, (list, tuple)) and policies and all(isinstance(p, Policy) for p in policies):
        items = list(policies)
    else:
        items = list(build_policies(policies, product=product, target=target).values())
    return sorted(items, key=lambda p: NAMES.index(p.name))


def render_section(policies=None, product=None, target=None, newline="\n"):
    """A whole ``%anaconda`` section (``%anaconda`` ... ``%end`` with a final newline).

    ``policies`` are :class:`Policy` objects (a list or a dict) or user input
    for ``_policy.build_policies`` (with ``product`` and ``target``).  When
    ``target`` cannot take the section, :class:`KickstartEditError` says why
    and names the replacement.
    """
    if target is not None:
        release = target if hasattr(target, "support") else parse_release(target)
        refusal = support_message(release)
        if refusal:
            raise KickstartEditError(refusal)
        target = release.name
    items = _as_policies(policies, product, target)
    if not items:
        raise KickstartEditError("no policies to render: give policies or product")
    body = "".join(p.render() + newline for p in items)
    return "%s%s%s%%end%s" % (SECTION, newline, body, newline)
