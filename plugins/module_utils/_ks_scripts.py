# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The lines of a kickstart's ``%pre`` and ``%post`` scripts, read as the shell reads them: the one home of it.

Two readers follow what scripts do, never what their comments say: the
posture's (``_posture/kickstart.py``: what a script writes into libpwquality's
files and ``/etc/login.defs``) and the secrets' (``_ks_script_secrets.py``:
the passwords a script sets).  Both take a line's words (``_ks_lines.split_words``,
as ``shlex`` with comments) apart here: the commands of a pipeline, a
here-document's opener and body, and the text ``echo`` or ``printf`` writes.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

# The opener of a here-document: <<TAG, <<-TAG (tabs stripped from the body), quoted or not.
_HEREDOC_RE = re.compile(r"<<(-?)[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")
# A printf format of %s and line breaks alone ("%s", "%s\n", "%s\n%s\n"), which this follows exactly.
_PLAIN_FORMAT_RE = re.compile(r"^(?:%s|\\n|\n)+$")
_ECHO_FLAGS = ("-e", "-n", "-E", "-ne", "-en")


class HereDocument(object):
    """The body of a here-document opened on a line, until the line that is its tag; ``key``: the caller's."""

    def __init__(self, tag, strip, key):
        self.tag = tag
        self.strip = strip
        self.key = key
        self.lines = []  # [(text, kickstart line number)]

    def feed(self, line, number):
        """Take one more line of the script: True when it closes the document (it is not part of the body)."""
        text = line.rstrip("\r\n")
        if (text.lstrip("\t") if self.strip else text) == self.tag:
            return True
        self.lines.append((text, number))
        return False


def here_document(line, key=None):
    """The :class:`HereDocument` ``line`` opens (``<<TAG``), or None."""
    match = _HEREDOC_RE.search(line)
    return HereDocument(match.group(3), match.group(1) == "-", key) if match else None


def pipeline(words):
    """The commands of a line split at ``|`` words (``||``, ``&&`` or ``;`` ends the first list)."""
    commands, current = [], []
    for word in words:
        if word in ("||", "&&", ";"):
            break
        if word == "|":
            commands.append(current)
            current = []
        else:
            current.append(word)
    commands.append(current)
    return [command for command in commands if command]


def written_text(command):
    """The lines an ``echo`` or ``printf`` command writes (up to its first redirection), or None: another
    command, or a ``printf`` format this does not follow."""
    if not command or command[0] not in ("echo", "printf"):
        return None
    args = []
    for word in command[1:]:
        if word.startswith(">"):
            break
        args.append(word)
    if command[0] == "echo":
        while args and args[0] in _ECHO_FLAGS:
            args.pop(0)
        return " ".join(args).replace("\\n", "\n").split("\n")
    if not args:
        return None
    form, values = args[0].replace("\\n", "\n"), args[1:]
    if "%" not in form:
        return form.split("\n")
    if not _PLAIN_FORMAT_RE.match(form):
        return None
    # printf uses the format again until the arguments are used up (a missing one is empty).
    slots = form.count("%s")
    pieces = form.split("%s")
    written = []
    for start in range(0, max(len(values), 1), slots):
        chunk = values[start:start + slots] + [""] * slots
        written.append(pieces[0] + "".join(chunk[index] + pieces[index + 1] for index in range(slots)))
    return "".join(written).rstrip("\n").split("\n")
