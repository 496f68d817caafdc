# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reading password policies from an anaconda configuration drop-in.

The format is described in ``_anaconda_conf``.  :func:`parse_conf` accepts
what the installer accepts and rejects what it rejects, naming the line.

A file given by mistake (a kickstart, another program's INI file) may hold
secrets, so no error or warning repeats any text of the file: they name the
file, the line number and what was expected.  :func:`policy_text_only` is
what a diff or a result may show of a file.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import configparser
import re

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf import (
    CHANGE_OPTIONS,
    OPTION,
    SECTION,
    ConfError,
    NotConfError,
    conf_release,
    defaults_target,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf_render import HEADER, target_of_line
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import INT_FIELDS, NAMES, PolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy_read import out_of_range, read_policy
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import DBUS_UINT16, NEWEST, parse_release

# configparser's section header rule.
_SECTION_RE = re.compile(r"\[(?P<header>.+)\]")
_INT_ATTRS = {"quality": "minquality", "length": "minlen"}
_FLAG_ATTRS = {"strict": "strict", "empty": "emptyok"}
# configparser's boolean words (case-insensitive), as the installer reads them.
_BOOL_WORDS = {"1": True, "yes": True, "true": True, "on": True,
               "0": False, "no": False, "false": False, "off": False}


class _Interpolation(configparser.BasicInterpolation):
    """configparser's interpolation (``%%`` and ``%(name)s``), reading a value by index.

    The standard one slices off what it has read at every ``%``, copying the
    rest of the value each time: time quadratic in a value of many ``%%``.
    Results and errors are the same.
    """

    def _interpolate_some(self, parser, option, accum, rest, section, map, depth):  # pylint: disable=redefined-builtin
        rawval = parser.get(section, option, raw=True, fallback=rest)
        if depth > configparser.MAX_INTERPOLATION_DEPTH:
            raise configparser.InterpolationDepthError(option, section, rawval)
        index = 0
        while index < len(rest):
            percent = rest.find("%", index)
            if percent < 0:
                accum.append(rest[index:])
                return
            accum.append(rest[index:percent])
            follow = rest[percent + 1:percent + 2]
            if follow == "%":
                accum.append("%")
                index = percent + 2
            elif follow == "(":
                match = self._KEYCRE.match(rest, percent)
                if match is None:
                    raise configparser.InterpolationSyntaxError(
                        option, section, "bad interpolation variable reference %r" % rest[percent:])
                index = match.end()
                try:
                    value = map[parser.optionxform(match.group(1))]
                except KeyError:
                    raise configparser.InterpolationMissingOptionError(
                        option, section, rawval, parser.optionxform(match.group(1)))
                if "%" in value:
                    self._interpolate_some(parser, option, accum, value, section, map, depth + 1)
                else:
                    accum.append(value)
            else:
                raise configparser.InterpolationSyntaxError(
                    option, section, "'%%' must be followed by '%%' or '(', found: %r" % (rest[percent:],))


class _ConfigParser(configparser.ConfigParser):
    """``configparser.ConfigParser`` with its default settings, read in time linear in the text.

    Its option rule ``(?P<option>.*?)\\s*(?P<vi>=|:)\\s*(?P<value>.*)$`` tries
    every blank run once for each character before it (quadratic on a line
    with a long run of blanks); this one matches the same on every line (a
    line holds no newline): the text before the first ``=`` or ``:`` without
    its trailing blanks, the delimiter, and the rest without its leading blanks.
    """

    OPTCRE = re.compile(r"(?P<option>(?:\s*[^\s=:])*)\s*(?P<vi>[=:])\s*(?P<value>.*)$")

    def __init__(self):
        super(_ConfigParser, self).__init__(interpolation=_Interpolation())


def _split_two(text):
    """Cut ``text`` (stripped) at its first run of whitespace: always two strings."""
    parts = text.strip().split(None, 1)
    return (parts + ["", ""])[:2]


def _raw_items(rest, skip_blank):
    """``{attr: value}`` of the text after a policy name, a later item replacing an earlier one.

    Items are only checked afterwards, so "quality, quality 3" is fine.  An
    empty item ("a,,b", a trailing comma) is always skipped; one of blanks only
    ("a, ,b", "a, )") only with ``skip_blank`` (anaconda 38.2 and later).
    """
    raw = {}
    for item in rest.strip("()").split(","):
        if item == "" or (skip_blank and not item.strip()):
            continue
        key, value = _split_two(item)
        raw.pop(key, None)
        raw[key] = value
    return raw


def _attr_value(where, key, value):
    """The value of one attribute as the installer reads it, or :class:`ConfError` (without the line's text)."""
    if key in _FLAG_ATTRS and not value:
        return True
    if key in _INT_ATTRS and value:
        try:
            return int(value)
        except ValueError:
            raise ConfError("%s: %s must be a whole number, e.g. '%s 6'" % (where, key, key))
    if key in _INT_ATTRS:
        raise ConfError("%s: %s needs a number, e.g. '%s 6'" % (where, key, key))
    if key in _FLAG_ATTRS:
        raise ConfError("%s: %s is a flag and takes no value (write '%s' or leave it out)" % (where, key, key))
    raise ConfError("%s: an attribute is not one the installer knows: valid attributes are quality N, "
                    "length N, strict, empty" % where)


def parse_policy_line(line, lineno=None, release=None):
    """Parse one ``password_policies`` line into ``(name, {attr: value})``.

    Accepts exactly what the installer ``release`` (default: the newest)
    accepts and raises :class:`ConfError` for what it rejects, naming the line
    (by number: the message holds no text of the line).
    Attribute values are returned as the installer reads them (``int`` for
    quality/length, ``True`` for flags); a repeated attribute keeps its last
    value, as in the installer.
    """
    where = ("line %d" % lineno) if lineno else "policy line"
    release = parse_release(NEWEST) if release is None else release
    name, rest = _split_two(line)
    items = _raw_items(rest, release.conf_skips_blank_attributes).items()
    if not release.conf_skips_blank_attributes and "" in dict(items):
        raise ConfError("%s: an attribute between two commas is blank; %s rejects that (anaconda "
                        "38.2, Fedora 38 and RHEL 10, accept it): remove the extra comma"
                        % (where, release.label))
    attrs = dict((key, _attr_value(where, key, value)) for key, value in items)
    if not name:
        raise ConfError("%s: the policy has no name (root, user or luks)" % where)
    for key in ("length", "quality"):
        if key not in attrs:
            raise ConfError("%s: %s is required, e.g. '%s (quality 1, length 6)'"
                            % (where, key, name if name in NAMES else "root"))
    return name, attrs


def _option_start(raw, in_section, option):
    """``(in_section, found)`` after the line ``raw``; ``found`` is the option's first value or None."""
    stripped = raw.strip()
    if stripped.startswith(("#", ";")) or not stripped:
        return in_section, None
    header = _SECTION_RE.match(stripped)
    if header:
        return header.group("header") == SECTION, None
    match = _ConfigParser.OPTCRE.match(stripped) if in_section else None
    if match and match.group("option").lower() == option:
        return in_section, match.group("value").strip()
    return in_section, None


def _value_lines(text, option):
    """Line numbers of the value lines of ``option`` in the policy section (raw scan).

    Mirrors configparser's layout rules closely enough to point errors at the
    right line: returns ``(option_lineno, [(lineno, stripped_text), ...])`` or
    ``(None, [])`` when the option is not found.
    """
    in_section, found, values, option_indent = False, None, [], 0
    for lineno, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if found is None:
            in_section, first = _option_start(raw, in_section, option)
            if first is not None:
                found, option_indent = lineno, len(raw) - len(raw.lstrip())
                values = [(lineno, first)] if first else []
        elif stripped.startswith(("#", ";")):
            continue
        elif not stripped:
            values.append((lineno, ""))
        elif len(raw) - len(raw.lstrip()) > option_indent:
            values.append((lineno, stripped))
        else:
            break
    while values and not values[-1][1]:
        values.pop()
    first = 0
    while first < len(values) and not values[first][1]:
        first += 1
    return found, values[first:]


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


def _get(parser, option, source, text):
    try:
        return parser.get(SECTION, option)
    except configparser.Error as exc:  # an interpolation error: its message would quote the value
        raise ConfError("%s, %s: %s: the installer's configparser cannot read the value (%s): a '%%' must be "
                        "written '%%%%', '%%(name)s' names another option of the section"
                        % (source, _line_ref(_value_lines(text, option)[0]), option, type(exc).__name__))


def _ini_error(exc, source):
    """:class:`NotConfError` for what configparser refused: the line and what was expected, not the text."""
    errors = getattr(exc, "errors", None) or []
    lineno = getattr(exc, "lineno", None) or (errors[0][0] if errors else None)
    if isinstance(exc, configparser.MissingSectionHeaderError):
        expected = "a section header such as [%s] before the first option" % SECTION
    elif isinstance(exc, configparser.DuplicateSectionError):
        expected = "each section once, and this one was given before"
    elif isinstance(exc, configparser.DuplicateOptionError):
        ours = exc.section == SECTION and exc.option in (OPTION,) + tuple(CHANGE_OPTIONS.values())
        expected = "each option once in a section, and %s was given before" % (exc.option if ours else "this one")
    else:
        expected = "a [section] header, 'option = value', an indented continuation, a comment or a blank line"
    more = " (and %d more)" % (len(errors) - 1) if len(errors) > 1 else ""
    return NotConfError("%s is not a valid anaconda configuration file: %s%s: expected %s (its text is not "
                        "shown: it may be another kind of file, a kickstart say)"
                        % (source, _line_ref(lineno), more, expected))


def _change_flags(parser, text, source):
    """``{name: bool or None}``: ``can_change_root`` / ``can_change_users`` by policy name."""
    flags = {}
    for name, option in CHANGE_OPTIONS.items():
        if not parser.has_option(SECTION, option):
            flags[name] = None
            continue
        word = _get(parser, option, source, text).strip().lower()
        if word not in _BOOL_WORDS:
            raise ConfError(
                "%s, %s: %s must be True or False (or yes/no, on/off, 1/0)"
                % (source, _line_ref(_value_lines(text, option)[0]), option))
        flags[name] = _BOOL_WORDS[word]
    return flags


def _numbered_policy_lines(parser, text, source):
    """``[(lineno, line), ...]`` of ``password_policies``; every line carries the option's line
    number when the raw scan and configparser disagree."""
    lines = _get(parser, OPTION, source, text).strip().split("\n")
    option_line, scanned = _value_lines(text, OPTION)
    if [item[1] for item in scanned] == [line.strip() for line in lines]:
        return [(item[0], line) for item, line in zip(scanned, lines)]
    return [(option_line, line) for line in lines]


def _check_range(attrs, where, release, warnings):
    """What the installer does with a quality/length outside the ranges the module writes."""
    for attr, field in sorted(_INT_ATTRS.items()):
        value = attrs[attr]
        if not out_of_range(field, value):
            continue
        low, high = INT_FIELDS[field]
        if not DBUS_UINT16[0] <= value <= DBUS_UINT16[1]:
            raise ConfError("%s: %s %d: the installer passes it over D-Bus as an unsigned 16-bit integer "
                            "(0 to 65535) and stops on this value; write a value from %d to %d"
                            % (where, attr, value, low, high))
        warnings.append("%s: %s %d is outside %d to %d, the range this module writes; %s takes it as given"
                        % (where, attr, value, low, high, release.label))


def _policy(name, attrs, flag, defaults, where):
    values = parse_release(defaults).omitted_defaults(name)
    values.update(minlen=attrs["length"], minquality=attrs["quality"],
                  strict=attrs.get("strict", False), emptyok=attrs.get("empty", False))
    if flag is not None:
        values["changesok"] = flag
    try:
        return read_policy(name=name, **values)
    except PolicyError as exc:
        raise ConfError("%s: %s" % (where, exc))


def _policies(parser, text, source, flags, release, warnings):
    """``{name: Policy}`` of ``password_policies`` (first line of a name wins); adds to ``warnings``."""
    policies = {}
    for lineno, line in _numbered_policy_lines(parser, text, source):
        try:
            name, attrs = parse_policy_line(line, lineno, release)
        except ConfError as exc:
            raise ConfError("%s, %s" % (source, exc))
        where = "%s, %s" % (source, _line_ref(lineno))
        if name not in NAMES:
            warnings.append("%s: the policy's name is not one the installer uses (%s); ignored"
                            % (where, ", ".join(NAMES)))
        elif name in policies:
            warnings.append("%s: policy %r is given again; the installer uses the first one" % (where, name))
        else:  # only this line of the name reaches D-Bus (PasswordPolicy.from_defaults)
            _check_range(attrs, where, release, warnings)
            policies[name] = _policy(name, attrs, flags.get(name), defaults_target(release), where)
    return dict((n, policies[n]) for n in NAMES if n in policies)


def parse_conf(text, target=None, source="configuration"):
    """Parse drop-in ``text`` into a :class:`ParsedConf`.

    The INI layer is read by ``configparser`` with its default settings (what
    the installer uses), so duplicate sections or options, a line outside any
    section and interpolation errors are rejected just as the installer would.
    Each policy line then goes through :func:`parse_policy_line` with the
    rules of release ``target``.  Values our model cannot hold are reported
    with the line: a name other than root/user/luks is ignored with a warning,
    numbers outside 0-1024 / 0-100 are taken as given with a warning (outside
    0-65535, where the installer's D-Bus layer stops, they are errors).  ``changesok`` comes from ``can_change_root`` / ``can_change_users``
    when set, else from the release's default.
    """
    release = conf_release(target)
    parser = _ConfigParser()
    try:
        parser.read_string(text, source)
    except configparser.Error as exc:
        raise _ini_error(exc, source)
    warnings = []
    if not parser.has_section(SECTION):
        return ParsedConf({}, None, None, False, warnings)
    flags = _change_flags(parser, text, source)
    has_policies = parser.has_option(SECTION, OPTION)
    policies = _policies(parser, text, source, flags, release, warnings) if has_policies else {}
    return ParsedConf(policies, flags["root"], flags["user"], has_policies, warnings)


_HEADER_LINES = frozenset(HEADER.splitlines())


def _policy_line(text, release):
    """True when ``text`` reads as a policy of a name the installer uses (so it holds no other text)."""
    try:
        return parse_policy_line(text, release=release)[0] in NAMES
    except ConfError:
        return False


def _our_option(text):
    """``(option, value)`` of an ``option = value`` line, the option lower-cased; ``(None, None)`` else."""
    cut = min([at for at in (text.find("="), text.find(":")) if at >= 0] or [-1])
    if cut < 0:
        return None, None
    return text[:cut].strip().lower(), text[cut + 1:].strip()


def policy_text_only(text, target=None):
    """``text`` as a diff or a result may show it: every line that is not provably password-policy text hidden.

    Kept: blank lines, the header comment this collection writes (its
    target line included), the
    ``[User Interface]`` header, ``can_change_root`` / ``can_change_users``
    with a boolean word, and ``password_policies`` with its lines that read as
    a policy of root, user or luks.  Any other line (comments and other
    sections included) becomes ``<line N not shown>``: a file given by mistake
    shows its line numbers, never its text.
    """
    release = conf_release(target)
    shown = []
    ours = in_policies = False
    for lineno, line in enumerate(text.splitlines(True), 1):
        body = (line.splitlines() or [""])[0]
        stripped = body.strip()
        indented = body[:1] in (" ", "\t")
        keep = not stripped or body in _HEADER_LINES or target_of_line(body) is not None
        if keep or stripped[:1] in ("#", ";"):
            pass
        elif indented and in_policies:
            keep = _policy_line(stripped, release)
        elif stripped.startswith("["):
            keep = ours = stripped == "[%s]" % SECTION
            in_policies = False
        else:
            option, value = _our_option(stripped) if ours and not indented else (None, None)
            in_policies = option == OPTION
            if in_policies:
                keep = not value or _policy_line(value, release)
            elif option in CHANGE_OPTIONS.values():
                keep = value.lower() in _BOOL_WORDS
        shown.append(line if keep else "<line %d not shown>%s" % (lineno, line[len(body):]))
    return "".join(shown)
