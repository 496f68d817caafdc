# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The one reader of libpwquality's configuration and of ``/etc/login.defs``, for every source of a posture.

A reader gives the lines it has (from a host's files, or what a kickstart's
``%post`` writes into them) as ``{path: [(text, where)]}``; this reads them
as the programs do.

libpwquality (``pwquality_read_config``, settings.c, every release since
1.3.0) reads the ``*.conf`` files of ``/etc/security/pwquality.conf.d`` in
``strcmp`` order of their names first, and ``/etc/security/pwquality.conf``
last: a later file wins, so the main file overrides every drop-in.  A line is
``name = value`` (or ``name value``; ``#`` starts a comment anywhere); names
are compared without case.  ``enforce_for_root`` and ``local_users_only``
are set by their name alone, whatever follows; every other integer setting
needs a whole integer.  An unknown name, a setting that is not a number or a
line over 1023 bytes stops libpwquality there: nothing after it (in that
file, in the later drop-ins or in the main file) is read.  What stops it is
a *problem* ``{what, where}``, which the caller lists as not read.

A key that two files set to different values is a *conflict*:
``{key, values: [{value, where}]}`` with each file's value in the order read
(the last is the one in effect).

shadow-utils (``def_load``, getdef.c) reads ``login.defs`` as ``NAME VALUE``
lines (a ``#`` comments a whole line only); the value is the rest of the
line; a name set twice keeps its last value.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import re

PWQUALITY_CONF = "/etc/security/pwquality.conf"
PWQUALITY_DIR = "/etc/security/pwquality.conf.d/"
LOGIN_DEFS = "/etc/login.defs"

# libpwquality's settings (settings.c s_map): the integers, the strings, and the flags a name alone sets.
PWQUALITY_INTEGERS = ("difok", "minlen", "dcredit", "ucredit", "lcredit", "ocredit", "minclass", "maxrepeat",
                      "maxclassrepeat", "maxsequence", "gecoscheck", "dictcheck", "usercheck", "usersubstr",
                      "enforcing", "retry")
PWQUALITY_STRINGS = ("badwords", "dictpath")
PWQUALITY_FLAGS = ("enforce_for_root", "local_users_only")
# PWQSETTINGS_MAX_LINELEN: a longer line is a malformed file to libpwquality.
PWQUALITY_MAX_LINE = 1023
_INT_MAX = 2 ** 31 - 1
_STRTOL_RE = re.compile(r"^[ \t\n\r\f\v]*[+-]?[0-9]+$")


def is_drop_in(path):
    """Whether ``path`` is a drop-in libpwquality reads: a name in pwquality.conf.d ending in ``.conf`` (its first
    ``.conf`` at the end, as ``filter_conf`` has it)."""
    if not path.startswith(PWQUALITY_DIR):
        return False
    name = path[len(PWQUALITY_DIR):]
    return "/" not in name and name.find(".conf") == len(name) - 5 >= 0


def pwquality_order(paths):
    """The files of ``paths`` libpwquality reads, in its order: the drop-ins by name (bytes, ``strcmp``), then
    pwquality.conf."""
    drop_ins = sorted((path for path in paths if is_drop_in(path)),
                      key=lambda path: os.fsencode(path[len(PWQUALITY_DIR):]))
    return drop_ins + ([PWQUALITY_CONF] if PWQUALITY_CONF in paths else [])


def _pwquality_line(text):
    """``(name, value)`` of a line as ``read_config_file`` splits it, or None for an empty line or a comment."""
    text = text.split("#", 1)[0].strip()
    if not text:
        return None
    match = re.match(r"([^\s=]*)[\s=]?", text)
    name, rest = match.group(1), text[match.end():]
    equals = match.group(0).endswith("=")
    for index, char in enumerate(rest):
        if char == "=" and not equals:
            equals = True
        elif not char.isspace():
            return name, rest[index:]
    return name, ""


def _pwquality_value(name, value):
    """``(name, value)`` as libpwquality takes the setting, or ``(None, why)`` when it stops there."""
    key = name.lower()
    if key in PWQUALITY_FLAGS:
        return key, 1
    if key in PWQUALITY_STRINGS:
        return key, value
    if key in PWQUALITY_INTEGERS:
        if not _STRTOL_RE.match(value) or not -_INT_MAX - 1 < int(value) < _INT_MAX:
            return None, "%s is not set to a whole number" % key
        return key, int(value)
    return None, "a line that is no libpwquality setting"  # not named: the line could hold anything


def read_pwquality(files):
    """libpwquality's settings from ``files`` (``{path: [(text, where)]}``, pwquality.conf and its drop-ins):
    ``({settings, origins, conflicts}, problems)``; ``problems`` lists ``{what, where}`` where reading stopped."""
    settings, origins, by_key, problems = {}, {}, {}, []
    for path in pwquality_order(files):
        per_file = {}
        stopped = False
        for text, where in files[path]:
            if len(text.encode("utf-8", "surrogateescape").rstrip(b"\n")) >= PWQUALITY_MAX_LINE:
                problems.append({"what": "a line of %s is longer than libpwquality reads (%d bytes): it reads "
                                         "nothing from here on" % (path, PWQUALITY_MAX_LINE), "where": where})
                stopped = True
                break
            split = _pwquality_line(text)
            if split is None:
                continue
            key, value = _pwquality_value(*split)
            if key is None:
                problems.append({"what": "%s in %s: libpwquality reads nothing from here on" % (value, path),
                                 "where": where})
                stopped = True
                break
            settings[key], origins[key] = value, where
            per_file[key] = (value, where)
        for key, found in per_file.items():
            by_key.setdefault(key, []).append(found)
        if stopped:
            break
    conflicts = [{"key": key, "values": [{"value": value, "where": where} for value, where in found]}
                 for key, found in sorted(by_key.items())
                 if len(found) > 1 and len(set(repr(value) for value, dummy in found)) > 1]
    return {"settings": settings, "origins": origins, "conflicts": conflicts}, problems


def _login_defs_value(text):
    text = text.strip()
    if text.startswith('"') and text.count('"') >= 2:
        text = text[1:text.index('"', 1)]
    # A decimal number is an int; an octal (UMASK 022) or hexadecimal one stays as written.
    return int(text) if re.match(r"^[+-]?(?:0|[1-9][0-9]{0,17})$", text) else text


def read_login_defs(lines):
    """``{NAME: {value, where}}`` of the ``[(text, where)]`` of login.defs as shadow-utils reads them (the last
    of a name wins; a decimal number is an int)."""
    found = {}
    for text, where in lines:
        stripped = text.strip(" \t\r\n")
        if not stripped or stripped.startswith("#"):
            continue
        pieces = re.split(r"[ \t]+", stripped, maxsplit=1)
        if len(pieces) < 2:
            continue
        found[pieces[0]] = {"value": _login_defs_value(pieces[1]), "where": where}
    return found


def text_lines(text, path):
    """``[(line, where)]`` of a file's ``text``: each line with ``{file, line}`` (1-based)."""
    return [(line, {"file": path, "line": number}) for number, line in enumerate(text.splitlines(), 1)]
