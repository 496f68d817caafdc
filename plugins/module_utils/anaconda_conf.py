# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Password policies as an anaconda configuration drop-in.

Fedora 34+ and RHEL 9+ installers read their password policies from anaconda
configuration files (INI files read with Python's ``configparser``), section
``[User Interface]``:

* ``password_policies``: one policy per line, ``NAME (ATTR, ATTR, ...)``.
  The name ends at the first whitespace; the rest loses its surrounding
  parentheses and is cut at commas; items that are empty strings are skipped;
  each item is an attribute name, optionally followed by whitespace and a
  value.  ``quality N`` and ``length N`` are required integers; ``strict`` and
  ``empty`` are flags written without a value (absent means false).  Anything
  else is an error that stops the installer.  When a name appears twice the
  installer uses the first line.
* ``can_change_root`` / ``can_change_users``: booleans; whether the installer
  UI may change a root account / user accounts that the kickstart already
  configured.  They are the configuration form of ``changesok``.

How our model maps onto that:

* ``minquality`` -> ``quality``, ``minlen`` -> ``length``, ``strict`` ->
  ``strict``, ``emptyok`` -> ``empty``.
* ``changesok`` of ``root`` -> ``can_change_root``, of ``user`` ->
  ``can_change_users``.  The ``luks`` policy has no such option (a LUKS
  passphrase is not an account the UI re-edits), so its ``changesok`` cannot
  be expressed: rendering reports a warning when it is true, and parsing gives
  ``luks`` the release's default (false).
* A drop-in's ``password_policies`` replaces the whole list the installer
  read before, and a name missing from the list gets no limits at all (length
  0, quality 0, empty allowed).  So the drop-in always carries all three names:
  a name the user did not give is written with the shipped default of the
  target release (or the product preset), never left out.

This module does not import anything from anaconda: the grammar above is
implemented here from its documented behaviour, and ``configparser`` (the same
standard parser the installer uses) reads the INI layer so that a file we
accept is a file the installer accepts.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError

import configparser
import re

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import (
    NAMES,
    Policy,
    PolicyError,
    build_policies,
    check_product,
    normalize_policies,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import (
    COMMAND_REMOVED,
    NEWEST,
    SECTION_REMOVED,
    ReleaseError,
    parse_release,
)

SECTION = "User Interface"
OPTION = "password_policies"
# policy name -> configuration option holding its changesok
CHANGE_OPTIONS = {"root": "can_change_root", "user": "can_change_users"}
# Where an updates image puts drop-ins, relative to the installer's root.
CONF_DIR = "etc/anaconda/conf.d"
DEFAULT_CONF_NAME = "90-kickstart-pwpolicy.conf"
INDENT = "    "
HEADER = (
    "# Anaconda configuration drop-in: installer password policies.\n"
    "# Managed by kickstart.pwpolicy.anaconda_conf; local edits are replaced.\n"
)

_CONF_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*\.conf")
# configparser's section header rule.
_SECTION_RE = re.compile(r"\[(?P<header>.+)\]")
_INT_ATTRS = {"quality": "minquality", "length": "minlen"}
_FLAG_ATTRS = {"strict": "strict", "empty": "emptyok"}
# configparser's boolean words (case-insensitive), as the installer reads them.
_BOOL_WORDS = {"1": True, "yes": True, "true": True, "on": True,
               "0": False, "no": False, "false": False, "off": False}


class ConfError(PwpolicyError):
    """Invalid anaconda configuration text or an unusable target.

    The message names the line (when there is one) and what to do.
    """


# ---------------------------------------------------------------------------
# Releases
# ---------------------------------------------------------------------------

def conf_release(target=None):
    """The :class:`Release` for ``target`` if it reads anaconda configuration.

    Raises :class:`ConfError` for older releases, pointing to ``ks_pwpolicy``.
    """
    try:
        release = parse_release(NEWEST if target is None else target)
    except ReleaseError as exc:
        raise ConfError(str(exc))
    if not release.reads_anaconda_conf:
        raise ConfError(
            "target %s does not read password policies from anaconda configuration "
            "(that starts with Fedora 34 and RHEL 9); for %s use the %%anaconda pwpolicy "
            "section instead (module kickstart.pwpolicy.ks_pwpolicy)" % (release.name, release.label))
    return release


def _defaults_target(release):
    """The release whose omitted defaults are ``release``'s shipped configuration.

    The ``[User Interface]`` block of anaconda.conf is the same from Fedora 34
    and RHEL 9 on; release.py models it as the omitted defaults of the releases
    without ``pwpolicy``.  Fedora 34 and RHEL 9 still had the kickstart command,
    whose omitted options meant something else (empty allowed for every name),
    so their configuration defaults are read from the next release.
    """
    if release.support in (SECTION_REMOVED, COMMAND_REMOVED):
        return release.name
    return "F36" if release.is_fedora else "RHEL10"


def conf_policies(policies=None, product=None, target=None):
    """``{name: Policy}`` for all three names, ready to render for ``target``.

    User fields override the ``product`` preset (when given) field by field,
    else the target's shipped configuration defaults.  Names the user left out
    are filled too (see the module docstring for why).
    """
    release = conf_release(target)
    given = normalize_policies(policies)
    check_product(product)
    complete = dict((name, given.get(name, {})) for name in NAMES)
    return build_policies(complete, product=product, target=_defaults_target(release))


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------

def render_policy_line(policy):
    """One ``password_policies`` line for a :class:`Policy` (no indent, no newline)."""
    attrs = ["quality %d" % policy.minquality, "length %d" % policy.minlen]
    if policy.strict:
        attrs.append("strict")
    if policy.emptyok:
        attrs.append("empty")
    return "%s (%s)" % (policy.name, ", ".join(attrs))


def _ordered(policies):
    if isinstance(policies, dict):
        policies = list(policies.values())
    for item in policies:
        if not isinstance(item, Policy):
            raise TypeError("expected Policy objects, got %r" % (item,))
    names = [p.name for p in policies]
    for name in set(names):
        if names.count(name) > 1:
            raise PolicyError("policy %r is given more than once" % name)
    return sorted(policies, key=lambda p: NAMES.index(p.name))


def render_conf(policies):
    """The drop-in text for an iterable or mapping of :class:`Policy` objects.

    Returns ``(text, warnings)``.  Options are written in a fixed order so the
    same policies always give the same bytes.
    """
    ordered = _ordered(policies)
    if not ordered:
        raise PolicyError("no policies to write: give at least one of %s" % ", ".join(NAMES))
    warnings = []
    lines = [HEADER.rstrip("\n"), "[%s]" % SECTION]
    by_name = dict((p.name, p) for p in ordered)
    for name in ("root", "user"):
        if name in by_name:
            lines.append("%s = %s" % (CHANGE_OPTIONS[name], "True" if by_name[name].changesok else "False"))
    if "luks" in by_name and by_name["luks"].changesok:
        warnings.append(
            "policy 'luks': changesok has no anaconda configuration option (only root and "
            "user accounts have can_change_root / can_change_users); it is not written")
    lines.append("%s =" % OPTION)
    for policy in ordered:
        lines.append(INDENT + render_policy_line(policy))
    return "\n".join(lines) + "\n", warnings


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------

def _split_two(text):
    """Cut ``text`` (stripped) at its first run of whitespace: always two strings."""
    parts = text.strip().split(None, 1)
    return (parts + ["", ""])[:2]


def parse_policy_line(line, lineno=None):
    """Parse one ``password_policies`` line into ``(name, {attr: value})``.

    Accepts exactly what the installer accepts and raises :class:`ConfError`
    for what it rejects, naming the line.  Attribute values are returned as the
    installer reads them (``int`` for quality/length, ``True`` for flags); a
    repeated attribute keeps its last value, as in the installer.
    """
    where = ("line %d" % lineno) if lineno else "policy line"
    name, rest = _split_two(line)
    # Items first, a later item replacing an earlier one of the same name;
    # only then is each checked (so "quality, quality 3" is fine).
    raw = {}
    for item in rest.strip("()").split(","):
        if item == "":
            continue  # "a,,b" and a trailing comma are fine; " " is not
        key, value = _split_two(item)
        raw.pop(key, None)
        raw[key] = value
    attrs = {}
    for key, value in raw.items():
        if key in _FLAG_ATTRS and not value:
            attrs[key] = True
        elif key in _INT_ATTRS and value:
            try:
                attrs[key] = int(value)
            except ValueError:
                raise ConfError(
                    "%s: %r: %s must be a whole number, got %r" % (where, line.strip(), key, value))
        elif key in _INT_ATTRS:
            raise ConfError(
                "%s: %r: %s needs a number, e.g. '%s 6'" % (where, line.strip(), key, key))
        elif key in _FLAG_ATTRS:
            raise ConfError(
                "%s: %r: %s is a flag and takes no value (write '%s' or leave it out)"
                % (where, line.strip(), key, key))
        else:
            raise ConfError(
                "%s: %r: unknown attribute %r: valid attributes are quality N, length N, "
                "strict, empty" % (where, line.strip(), key))
    if not name:
        raise ConfError("%s: %r: the policy has no name (root, user or luks)" % (where, line.strip()))
    for key in ("length", "quality"):
        if key not in attrs:
            raise ConfError(
                "%s: %r: %s is required, e.g. '%s (quality 1, length 6)'"
                % (where, line.strip(), key, name))
    return name, attrs


def _value_lines(text, section, option):
    """Line numbers of the value lines of ``option`` in ``section`` (raw scan).

    Mirrors configparser's layout rules closely enough to point errors at the
    right line: returns ``(option_lineno, [(lineno, stripped_text), ...])`` or
    ``(None, [])`` when the option is not found.
    """
    in_section = False
    option_re = re.compile(r"^(?P<key>[^=:\s][^=:]*?)\s*[=:]\s*(?P<value>.*)$")
    found = None
    values = []
    option_indent = 0
    for lineno, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if found is not None:
            indent = len(raw) - len(raw.lstrip())
            if stripped.startswith(("#", ";")):
                continue
            if not stripped:
                values.append((lineno, ""))
                continue
            if indent > option_indent:
                values.append((lineno, stripped))
                continue
            break
        if stripped.startswith(("#", ";")) or not stripped:
            continue
        header = _SECTION_RE.match(stripped)
        if header:
            in_section = header.group("header") == section
            continue
        if in_section:
            match = option_re.match(stripped)
            if match and match.group("key").strip().lower() == option:
                found = lineno
                option_indent = len(raw) - len(raw.lstrip())
                first = match.group("value").strip()
                values = [(lineno, first)] if first else []
    while values and not values[-1][1]:
        values.pop()
    while values and not values[0][1]:
        values.pop(0)
    return found, values


def _option_lineno(text, section, option):
    return _value_lines(text, section, option)[0]


def _line_ref(lineno):
    return ("line %d" % lineno) if lineno else "the file"


class ParsedConf(object):
    """What a drop-in says about password policies.

    ``policies``: ``{name: Policy}`` for the names anaconda uses (first line
    of a name wins, as in the installer); ``can_change_root`` /
    ``can_change_users``: the booleans, ``None`` when the file does not set
    them; ``has_policies``: whether the file sets ``password_policies``;
    ``warnings``: things the installer accepts but that probably are mistakes.
    """

    def __init__(self, policies, can_change_root, can_change_users, has_policies, warnings):
        self.policies = policies
        self.can_change_root = can_change_root
        self.can_change_users = can_change_users
        self.has_policies = has_policies
        self.warnings = warnings


def parse_conf(text, target=None, source="configuration"):
    """Parse drop-in ``text`` into a :class:`ParsedConf`.

    The INI layer is read by ``configparser`` with its default settings (what
    the installer uses), so duplicate sections or options, a line outside any
    section and interpolation errors are rejected just as the installer would.
    Each policy line then goes through :func:`parse_policy_line`.  Values our
    model cannot hold (a name other than root/user/luks is ignored with a
    warning; numbers outside 0-1024 / 0-100 are errors) are reported with the
    line.  ``changesok`` comes from ``can_change_root`` / ``can_change_users``
    when set, else from the release's default.
    """
    release = conf_release(target)
    defaults_target = _defaults_target(release)
    parser = configparser.ConfigParser()
    try:
        parser.read_string(text, source)
    except configparser.Error as exc:
        raise ConfError("%s is not a valid anaconda configuration file: %s"
                        % (source, " ".join(str(exc).split())))
    warnings = []
    if not parser.has_section(SECTION):
        return ParsedConf({}, None, None, False, warnings)

    flags = {}
    for name, option in CHANGE_OPTIONS.items():
        if not parser.has_option(SECTION, option):
            flags[name] = None
            continue
        try:
            given = parser.get(SECTION, option)
        except configparser.Error as exc:
            raise ConfError("%s: %s: %s" % (source, option, " ".join(str(exc).split())))
        word = given.strip().lower()
        if word not in _BOOL_WORDS:
            raise ConfError(
                "%s, %s: %s must be True or False, got %r"
                % (source, _line_ref(_option_lineno(text, SECTION, option)), option, given))
        flags[name] = _BOOL_WORDS[word]

    policies = {}
    has_policies = parser.has_option(SECTION, OPTION)
    if has_policies:
        try:
            value = parser.get(SECTION, OPTION)
        except configparser.Error as exc:
            raise ConfError("%s: %s: %s" % (source, OPTION, " ".join(str(exc).split())))
        option_line, scanned = _value_lines(text, SECTION, OPTION)
        lines = value.strip().split("\n")
        if [item[1] for item in scanned] == [line.strip() for line in lines]:
            numbered = [(item[0], line) for item, line in zip(scanned, lines)]
        else:
            numbered = [(option_line, line) for line in lines]
        for lineno, line in numbered:
            try:
                name, attrs = parse_policy_line(line, lineno)
            except ConfError as exc:
                raise ConfError("%s, %s" % (source, exc))
            if name not in NAMES:
                warnings.append(
                    "%s, %s: policy %r is not one the installer uses (%s); ignored"
                    % (source, _line_ref(lineno), name, ", ".join(NAMES)))
                continue
            if name in policies:
                warnings.append(
                    "%s, %s: policy %r is given again; the installer uses the first one"
                    % (source, _line_ref(lineno), name))
                continue
            values = parse_release(defaults_target).omitted_defaults(name)
            values.update(minlen=attrs["length"], minquality=attrs["quality"],
                          strict=attrs.get("strict", False), emptyok=attrs.get("empty", False))
            if flags.get(name) is not None:
                values["changesok"] = flags[name]
            try:
                policies[name] = Policy(name=name, **values)
            except PolicyError as exc:
                raise ConfError("%s, %s: %s" % (source, _line_ref(lineno), exc))
    ordered = dict((n, policies[n]) for n in NAMES if n in policies)
    return ParsedConf(ordered, flags["root"], flags["user"], has_policies, warnings)


def check_conf_name(name):
    """Validate a drop-in file name (``NN-name.conf``); returns it."""
    if not isinstance(name, str) or not _CONF_NAME_RE.fullmatch(name):
        raise ConfError(
            "conf_name %r is not a usable drop-in file name: the installer reads only files "
            "named *.conf in %s; use letters, digits, '.', '_', '+' or '-', no '/', "
            "for example %s" % (name, CONF_DIR, DEFAULT_CONF_NAME))
    return name


def dropin_path(conf_name=DEFAULT_CONF_NAME):
    """Path of the drop-in inside the installer's root (and an updates image)."""
    return "%s/%s" % (CONF_DIR, check_conf_name(conf_name))
