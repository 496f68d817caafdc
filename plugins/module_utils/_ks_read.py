# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reading a ``%anaconda`` line as the target release's installer did.

The rules come from ``_release`` (which release read what); this module turns
them into what ``_ks_section`` needs while it parses: the words after ``--``,
the integers of ``--minlen``/``--minquality``, values outside the ranges the
module writes, policy names the installer ignores, other commands inside the
section, and (Fedora 35) lines the installer never read.  Every message names
the kickstart line and says what to do; none carries a value of a line that
may hold a secret.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import KickstartEditError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import INT_FIELDS
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy_read import out_of_range
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._redact import redact_message
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import (
    COMMAND_SOME_UPDATES,
    COMMAND_VALID,
)

# Where each command other than pwpolicy was valid (the table is _release.SECTION_COMMANDS).
_WHERE_VALID = {"installclass": "Fedora 27 to 29, RHEL 7 and RHEL 8.0 to 8.2"}


def split_dashes(args, release):
    """``(options, positional)``: optparse (Fedora 22-27, RHEL 7) took every word after
    ``--`` as positional; argparse left ``--`` among the unknown words, an error."""
    if release.optparse_era and "--" in args:
        at = args.index("--")
        return args[:at], args[at + 1:]
    return args, []


def read_option_ints(namespace, release, lineno):
    """Turn ``--minlen``/``--minquality`` text on ``namespace`` into integers as ``release`` read them."""
    for field in INT_FIELDS:
        text = getattr(namespace, field)
        if text is None:
            continue
        try:
            setattr(namespace, field, release.read_int(text))
        except ValueError:
            hint = ""
            if release.optparse_era and text[:1] == "0":
                hint = (" (%s read a leading 0 as octal and 0x as hexadecimal: write the number "
                        "without leading zeros)" % release.label)
            raise KickstartEditError("argument --%s: invalid int value: %r%s"
                                     % (field, text, hint), lineno)


def _effect(field, value):
    if field == "minlen":
        if value < 0:
            return "no minimum length (libpwquality still reports a password under 6 characters as weak)"
        return "every password needs at least %d characters" % value
    if value < 0:
        return "every quality score passes"
    return ("no score reaches it (libpwquality scores at most 100), so where the installer checks the "
            "score a strict policy accepts no password")


def check_values(name, given, release, lineno):
    """Warnings for given ``--minlen``/``--minquality`` values outside the ranges the module writes.

    The installer took them as given; Fedora 34 and RHEL 9 pass them over D-Bus
    as unsigned 16-bit integers, where a value out of that range stops the
    installer (an error here).
    """
    found = []
    for field in INT_FIELDS:
        value = given.get(field)
        if value is None or not out_of_range(field, value):
            continue
        if release.dbus_range and not release.dbus_range[0] <= value <= release.dbus_range[1]:
            raise KickstartEditError(
                "pwpolicy %s --%s=%d: %s passes it to its D-Bus service as an unsigned 16-bit "
                "integer (0 to 65535) and stops on this value; write a value from %d to %d"
                % (name, field, value, release.label, INT_FIELDS[field][0], INT_FIELDS[field][1]),
                lineno)
        if release.can_write_section:
            found.append(
                "kickstart line %d: pwpolicy %s --%s=%d is outside %d to %d, the range this module "
                "writes; %s takes it as given: %s" % (lineno, name, field, value, INT_FIELDS[field][0],
                                                      INT_FIELDS[field][1], release.label, _effect(field, value)))
    return found


def unknown_name_warning(name, lineno, release):
    """The warning for a ``pwpolicy`` line whose name is not root, user or luks."""
    return ("kickstart line %d: the installer ignores policy %r (%s stores any name but uses only "
            "root, user and luks); it is not among the policies in effect" % (lineno, name, release.label))


def other_command(word, line, lineno, release):
    """The warning for command ``word`` inside ``%anaconda``; raises when the installer stops on it."""
    state = release.section_command(word)
    where = _WHERE_VALID.get(word)
    if word == "%ksappend":
        # The installer splices the named file in before it parses (preprocessKickstart).
        message = ("kickstart line %d: %%ksappend inside %%anaconda is not read by this module; the "
                   "installer puts the file's lines there first, so they must be pwpolicy lines" % lineno)
    elif not release.can_write_section:
        message = ("kickstart line %d: %r inside %%anaconda is not a password policy; %s does not "
                   "read the section's commands, so it is left as it is" % (lineno, word, release.label))
    elif state == COMMAND_VALID:
        message = ("kickstart line %d: %r inside %%anaconda is not a password policy; %s accepts it "
                   "there (as %s do), so it is left as it is" % (lineno, word, release.label, where))
    elif state == COMMAND_SOME_UPDATES:
        message = ("kickstart line %d: %r inside %%anaconda is accepted only by %s: RHEL 8.3 and "
                   "later stop with \"Unknown command\"; remove the line unless the installer is "
                   "RHEL 8.0 to 8.2" % (lineno, word, where))
    else:
        valid = "only pwpolicy is valid there"
        valid += " (and installclass on Fedora 27 to 29, RHEL 7 and RHEL 8.0 to 8.2)"
        raise KickstartEditError(redact_message(
            "%r inside %%anaconda: %s stops with \"Unknown command\", %s; remove the line or move the "
            "command out of the section" % (word, release.label, valid), line), lineno)
    return redact_message(message, line)


def ignored_line_warning(exc, line, lineno, release):
    """Fedora 35: the warning for a line of the section the installer never read."""
    message = getattr(exc, "message", None) or str(exc)
    if isinstance(message, tuple):
        message = message[-1]
    message = " ".join(str(message).split())
    prefix = "kickstart line %d: " % lineno
    if message.startswith(prefix):
        message = message[len(prefix):]
    return redact_message(
        "%s%s; %s ignores the content of %%anaconda, so the line is left as it is and sets no policy"
        % (prefix, message, release.label), line)
