# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Kickstart text as lines, without pykickstart.

The error class of kickstart reading and editing, the release a kickstart is
for (``target`` or its ``#version=`` line), line endings and inline comments,
the words of a line (:func:`split_words`, shlex's words in linear time), what
keeps a value off one line (:func:`one_line_problem`: a NUL or any line
boundary ``str.splitlines()`` knows, not only ``\\n``), and the bounds that
keep hostile input from taking pykickstart minutes.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import ReleaseError, parse_release

_VERSION_RE = re.compile(r"^#version=(\S+)")
# The line endings a new line may get (the file's own).
NEWLINES = ("\r\n", "\n", "\r")
# Every line boundary of str.splitlines(), which is where pykickstart (and so
# the installer) splits a kickstart: a form feed, NEL or U+2028 ends a line too.
LINE_BREAKS = NEWLINES + ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")

# Sections whose body is not kickstart commands (scripts, package lists, add-ons).
SCRIPT_SECTIONS = frozenset(("%pre", "%pre-install", "%post", "%onerror", "%traceback", "%packages", "%addon"))
# ... and with %anaconda, whose body is pwpolicy lines: none of them count as commands.
_BODY_SECTIONS = SCRIPT_SECTIONS | {"%anaconda"}
# No kickstart command takes this many words; pykickstart's option parser
# (argparse) takes time that grows with the square of the options on a line.
MAX_COMMAND_WORDS = 256
# pykickstart's handling of some commands (network, part, ...) and of the
# %packages list also grows with the square of their number; real kickstarts
# stay far below these counts.
MAX_COMMAND_LINES = 2000
MAX_PACKAGE_LINES = 4000
# pykickstart splits every command line and section line (``%...``) with
# Python's shlex, in time that grows with the square of a word's length, and
# reads command lines at about half a microsecond a character: these bound a
# line and all command lines together (a long sshkey line is some 3,000).
MAX_LINE_CHARS = 16384
MAX_COMMAND_CHARS = 4 * 1024 * 1024
_WORD_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")
# Cheetah (Cobbler's templates) blocks: pykickstart reads their directive lines ("#if $x",
# "#else", "#end if") as comments, so they may stand inside a %anaconda section, and the
# lines between them are rendered zero, one or more times.
_CHEETAH_BLOCKS = frozenset(("if", "unless", "for", "while", "repeat"))
_CHEETAH_BRANCHES = frozenset(("else", "elif"))
# A line of another tool's template syntax, in an unrendered template: ERB ("<% %>", a "%>" or "-%>"
# that closes a tag begun on an earlier line), Jinja ("{{ }}", "{% %}", "{# #}"), Terraform ("%{ }",
# "${ }") and Cheetah ("$name", "$SNIPPET('...')").  Cheetah's "#if", "#set" ... are comments to every
# kickstart reader already.
_TEMPLATE_LINE_RE = re.compile(r"[ \t]*(?:<%|-?%>|\{[{%#]|%\{|\$)")
# A line that is one template expression naming a section end, such as Foreman's "<%= section_end -%>"
# (its kickstart templates end %packages, %pre and %post with it: "%end", or nothing for RHEL 5).
_END_NAME = r"@?((?:[A-Za-z]\w*_)?end(?:_\w+)?)"
_SECTION_END_RE = re.compile(r"[ \t]*(?:<%%=-?[ \t]*%s[ \t]*-?%%>|\{\{-?[ \t]*%s[ \t]*-?\}\}|\$\{?%s\}?)[ \t]*"
                             % (_END_NAME, _END_NAME, _END_NAME))
# What each line of a kickstart is to the sections (section_roles).
OUTSIDE, HEADER, BODY, END = "outside", "header", "body", "end"


class KickstartEditError(PwpolicyError):
    """A kickstart we cannot read or change.  ``lineno`` is the file's line number, if any."""

    def __init__(self, message, lineno=None):
        if lineno is not None:
            message = "kickstart line %d: %s" % (lineno, message)
        super(KickstartEditError, self).__init__(message, lineno)


def version_line(text):
    """The release named by the kickstart's ``#version=`` line, or None."""
    for line in text.splitlines():
        match = _VERSION_RE.match(line.strip())
        if match:
            return match.group(1)
    return None


def kickstart_release(target=None, text=None):
    """The :class:`Release` to parse and write for: ``target``, else the ``#version=`` line."""
    if hasattr(target, "support"):
        return target
    source = "target"
    if not target and text is not None:
        target = version_line(text)
        source = "the kickstart's #version= line"
        if not target:
            raise KickstartEditError(
                "the kickstart has no #version= line: set target to the installer release "
                "as pykickstart names it (for example F33, RHEL8 or DEVEL)")
    try:
        return parse_release(target)
    except ReleaseError as exc:
        raise KickstartEditError("%s (from %s)" % (exc, source))


def breaks_line(text):
    """Whether ``text`` holds a line boundary: any of :data:`LINE_BREAKS`, as ``str.splitlines()`` (and so
    pykickstart and the installer) reads it."""
    return len((text + "x").splitlines()) != 1


def one_line_problem(text):
    """What keeps ``text`` off one kickstart line: ``"a NUL character"``, ``"a line break"`` (any of
    :data:`LINE_BREAKS`), or None.  The one test of every value written on a line (never quoting it)."""
    if "\0" in text:
        return "a NUL character"
    if breaks_line(text):
        return "a line break"
    return None


def newline_of(line):
    """The line boundary ``line`` ends with (any of :data:`LINE_BREAKS`), or ``''``."""
    for ending in LINE_BREAKS:
        if line.endswith(ending):
            return ending
    return ""


def comment_start(text):
    """Index where an inline ``#`` comment (with the blanks before it) starts, or None."""
    quote = None
    escaped = False
    for index, char in enumerate(text):
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#":
            start = index
            while start > 0 and text[start - 1] in " \t":
                start -= 1
            return start
    return None


# Runs that split_words copies whole: unquoted word characters, and text inside double quotes.
_PLAIN_RUN = re.compile(r"[^ \t\r\n#'\"\\]+")
_DOUBLE_RUN = re.compile(r'[^"\\]+')
_BLANKS = " \t\r\n"


def split_words(line):
    """The words of ``line`` exactly as ``shlex.split(line, comments=True)`` gives them.

    shlex adds a word one character at a time to a string, which takes time
    growing with the square of the word's length; this reads runs of plain
    characters at once and joins each word's pieces once, in time linear in
    the line.  Like shlex (POSIX mode) it raises ``ValueError("No closing
    quotation")`` or ``ValueError("No escaped character")``.
    """
    words = []
    word = None  # the pieces of the word being read; None between words
    index, end = 0, len(line)
    while index < end:
        char = line[index]
        if char in _BLANKS or char == "#":
            if word is not None:
                words.append("".join(word))
                word = None
            if char == "#":  # a comment runs to the end of the line ("\n")
                newline = line.find("\n", index)
                index = end if newline < 0 else newline
            index += 1
            continue
        if word is None:
            word = []
        if char == "\\":
            if index + 1 == end:
                raise ValueError("No escaped character")
            word.append(line[index + 1])
            index += 2
        elif char == "'":
            close = line.find("'", index + 1)
            if close < 0:
                raise ValueError("No closing quotation")
            word.append(line[index + 1:close])
            index = close + 1
        elif char == '"':
            index = _double_quoted(line, index + 1, word)
        else:
            run = _PLAIN_RUN.match(line, index)
            word.append(run.group())
            index = run.end()
    if word is not None:
        words.append("".join(word))
    return words


def _double_quoted(line, index, word):
    """Read the inside of a double-quoted string from ``index`` into ``word``; the index after its quote."""
    while True:
        run = _DOUBLE_RUN.match(line, index)
        if run:
            word.append(run.group())
            index = run.end()
        if index == len(line):
            raise ValueError("No closing quotation")
        if line[index] == '"':
            return index + 1
        if index + 1 == len(line):
            raise ValueError("No escaped character")
        escaped = line[index + 1]
        if escaped not in '"\\':  # inside double quotes only " and \ are escaped
            word.append("\\")
        word.append(escaped)
        index += 2


def _too_many(lineno, count, what, limit):
    return KickstartEditError(
        "the kickstart has more than %d %s (this is line %d); no installation needs that many, and "
        "the installer's parser slows down with the square of their number: split it up or generate "
        "fewer" % (limit, what, lineno), lineno)


def _check_words(line, lineno):
    if len(line) < 2 * MAX_COMMAND_WORDS:  # shorter lines cannot hold that many words
        return
    words = line.split()
    if len(words) > MAX_COMMAND_WORDS:
        name = words[0] if _WORD_NAME_RE.fullmatch(words[0]) else "this command"
        raise KickstartEditError(
            "%s has %d words, more than the %d any kickstart command takes; "
            "split the line or remove repeated options" % (name, len(words), MAX_COMMAND_WORDS),
            lineno)


def _check_length(line, lineno):
    if len(line) > MAX_LINE_CHARS:
        words = line.split(None, 1)
        name = words[0] if words and _WORD_NAME_RE.fullmatch(words[0].lstrip("%")) else "this line"
        raise KickstartEditError(
            "%s is %d characters long, more than the %d any kickstart command or section line needs "
            "(the installer's parser slows down with the square of a word's length): shorten the line"
            % (name, len(line.rstrip("\r\n")), MAX_LINE_CHARS), lineno)


def check_bounds(lines):
    """Refuse what pykickstart would take minutes on: huge command lines, command and package counts.

    Returns the counts ``(command lines, %packages lines)``.
    """
    section = None
    commands = packages = chars = 0
    for lineno, line in enumerate(lines, 1):
        head = line.lstrip()[:16]  # empty for a blank line; else its first character is not a blank
        if head[:1] == "%":
            _check_length(line, lineno)
            word = head.split(None, 1)[0]
            section = None if word == "%end" or word not in _BODY_SECTIONS else word
        elif section is None:
            if head and head[0] != "#":
                commands += 1
                if commands > MAX_COMMAND_LINES:
                    raise _too_many(lineno, commands - 1, "command lines", MAX_COMMAND_LINES)
                _check_words(line, lineno)
                _check_length(line, lineno)
                chars += len(line)
                if chars > MAX_COMMAND_CHARS:
                    raise KickstartEditError(
                        "the command lines up to this one hold more than %d characters; no installation "
                        "needs that many, and the installer's parser reads them slowly: move data into "
                        "%%post scripts or files" % MAX_COMMAND_CHARS, lineno)
        elif section == "%packages" and head:
            packages += 1
            if packages > MAX_PACKAGE_LINES:
                raise _too_many(lineno, packages - 1, "%packages lines", MAX_PACKAGE_LINES)
    return commands, packages


def first_word(line):
    """The first blank-separated word of ``line``, or ``''``."""
    words = line.split(None, 1)
    return words[0] if words else ""


def is_template_line(line):
    """Whether ``line`` is a line of another tool's template syntax (ERB, Jinja, Terraform, Cheetah)."""
    return _TEMPLATE_LINE_RE.match(line) is not None


def is_template_section_end(line):
    """Whether ``line`` is one template expression that ends a section (Foreman's ``<%= section_end -%>``)."""
    body = line[:len(line) - len(newline_of(line))]
    return len(body) < 256 and _SECTION_END_RE.fullmatch(body) is not None


def section_roles(lines, template=False):
    """What each of ``lines`` is to the kickstart's sections: ``(roles, unterminated)``.

    Each role is ``(OUTSIDE, None)``, or ``(HEADER|BODY|END, the section's header word)``.
    A section runs from a line whose first word is ``%anaconda`` or a script,
    ``%packages`` or ``%addon`` header to the next line whose first word is
    ``%end`` (a section header inside a section is its text); with
    ``template`` a template expression naming a section end closes it too
    (:func:`is_template_section_end`).  ``unterminated`` is ``(header word,
    line number)`` of a section the lines leave open, else None.  Linear in
    the text.
    """
    roles = []
    inside, start = None, 0
    for number, line in enumerate(lines, 1):
        head = line.lstrip()[:1]
        word = first_word(line) if head in ("%", "<", "{", "$") else ""
        if inside is None:
            if word in _BODY_SECTIONS:
                inside, start = word, number
                roles.append((HEADER, word))
            else:
                roles.append((OUTSIDE, None))
        elif word == "%end" or (template and head != "%" and word and is_template_section_end(line)):
            roles.append((END, inside))
            inside = None
        else:
            roles.append((BODY, inside))
    return roles, ((inside, start) if inside is not None else None)


def _cheetah_directive(line):
    """``"open"``, ``"branch"``, ``"close"`` or None: what ``line`` is to a Cheetah block."""
    text = line.lstrip(" \t")
    if text[:1] != "#" or not text[1:2].isalpha():  # "# if ..." is a comment, "#if ..." a directive
        return None
    words = text[1:64].replace("(", " ").split(None, 2)
    if words[0] in _CHEETAH_BLOCKS:
        return "open"
    if words[0] in _CHEETAH_BRANCHES:
        return "branch"
    if words[0] == "end" and len(words) > 1 and words[1].rstrip("#:") in _CHEETAH_BLOCKS:
        return "close"
    return None


def template_branches(lines):
    """For each of ``lines``: the Cheetah branch it is in, ``()`` outside every block.

    A branch is a tuple of ``(index of the block's opening line, branch number)``,
    outermost block first; two lines are rendered together for sure only when
    their branches are equal.  A directive without its opening or ``#end`` among
    ``lines`` is taken for a comment.
    """
    roles = [_cheetah_directive(line) for line in lines]
    matched, stack = set(), []
    for index, role in enumerate(roles):
        if role == "open":
            stack.append(index)
        elif role == "close" and stack:
            matched.update((stack.pop(), index))
    branches, stack, current = [], [], ()
    for index, role in enumerate(roles):
        if index in matched and role == "open":
            stack.append([index, 0])
        elif index in matched:
            stack.pop()
        elif role == "branch" and stack:
            stack[-1][1] += 1
        else:
            branches.append(current)
            continue
        current = tuple(tuple(item) for item in stack)
        branches.append(current)
    return branches
