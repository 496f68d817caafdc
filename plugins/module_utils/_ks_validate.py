# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Validating an edit of a validated kickstart by parsing its ``%anaconda`` sections alone.

:func:`parse_edited` returns what ``parse_kickstart(new_text, release)`` would
(a :class:`~_ks_parse.ParsedKickstart`), or None when this module cannot prove
that; the caller then parses the whole new text.  It is used only when the
input passed the full, validating parse.

Why the sections are enough (the proof; ``tests/unit/fuzz/test_fuzz_revalidate.py``
holds it to full parses):

1. The edit keeps every line outside the ``%anaconda`` sections as it is
   (checked: :func:`_windows` refuses a change anywhere else, and a change
   of a section's header or ``%end`` line), except blank lines right before
   a section it removes, and it may append blank lines and one section at
   the end.  The new lines must be exactly ``splitlines`` of the new text, so
   no line ending joins two lines.
2. pykickstart reads a file line by line.  A ``%anaconda`` header is read in
   the command state (from F8 on, a header inside another section is an
   unterminated-section error; older releases are not taken here), and the
   section runs to the line pykickstart takes as its ``%end``; its lines go
   to the section's own handler (``AnacondaSectionHandler``), never to the
   main handler.  So the main handler and every other section see the same
   lines, in the same order, in the old and the new text (a blank line in
   the command state does nothing), and they pass as they did in the old
   text; only their line numbers differ, which pykickstart puts in messages
   only.
3. The new text's sections are parsed here (:func:`_parse_windows`), all of
   them in one text, one after the other, each reported at its own line
   number.  The parser knows every section, as the full parse does, but its
   main handler knows no command and entering any section but ``%anaconda``
   fails.  So that parse succeeds only if each window (a header to the line
   ``SectionInfo.end`` names, or to the last appended line) is exactly one
   section to pykickstart: a section ending early leaves the window's last
   line, whose first word is ``%end``, in the command state, where it is an
   unknown section; a section running past its window meets the next
   window's header or the end of the text, both unterminated-section errors.
   Whether a line ends a section depends on that line alone, so the old
   text's windows were exactly its sections too.  The section object sees
   the same lines as in a full parse of the new text and finds the same
   sections, entries, line numbers and warnings.
4. ``check_bounds`` counts command and ``%packages`` lines; its state is
   back to "no section" after every line pykickstart reads as a section's
   ``%end`` and before every section header, so a section's share of the
   counts depends on its own lines.  Every changed or new section must add
   nothing (its lines counted alone), so the counts cannot grow; the words
   of lines it does not count are not checked either.

Any refusal, error, warning or output of the section parse gives None: the
full parse then gives its own verdict, error message and warnings.  The
warnings of the result are those of the sections (pykickstart's warnings
about other lines are the old text's, reported once by the caller).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import bisect

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import KickstartEditError, check_bounds
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import (
    ParsedKickstart,
    _pykickstart_version,
    read_captured,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_section import (
    SECTION,
    AnacondaSectionHandler,
    ks_version,
    make_parser,
)


class Splice(object):
    """Old lines with lines replaced, deleted and inserted: the new ``lines`` and ``text``.

    ``replace`` maps an old index to its new text, ``delete`` holds old
    indexes, ``insert`` maps an old index (or ``len(lines)``) to texts that
    go before that line.  The work is per change, not per line.
    """

    def __init__(self, lines, replace, delete, insert):
        self.replace, self.delete, self.insert = replace, delete, insert
        self.changed = set(replace) | set(delete)
        self.lines = []
        self._runs = []  # (old index, new index) where a run of kept lines starts
        self._old = lines
        pos = 0
        for index in sorted(self.changed | set(insert)):
            self._keep(pos, index)
            for text in insert.get(index, ()):
                self.lines.extend(text.splitlines(True))
            if index < len(lines) and index not in delete:
                self._runs.append((index, len(self.lines)))
                self.lines.append(replace.get(index, lines[index]))
            pos = index + 1
        self._keep(pos, len(lines))
        self.text = "".join(self.lines)

    def _keep(self, start, stop):
        if start < stop:
            self._runs.append((start, len(self.lines)))
            self.lines.extend(self._old[start:stop])

    def new_index(self, old):
        """Where old line ``old`` (kept or replaced, not deleted) is in ``lines``."""
        at = bisect.bisect_right(self._runs, (old, len(self.lines))) - 1
        start, new = self._runs[at]
        return new + old - start


def _changed(info, splice):
    """Whether a section stays (True), goes whole (False) or has a change on its edges (None); and if touched."""
    first, last = info.header - 1, info.end - 1
    if all(index in splice.delete for index in range(first, last + 1)):
        return False, True
    if any(edge in splice.delete or edge in splice.replace for edge in (first, last)):
        return None, None
    touched = any(first < index < last for index in splice.changed) \
        or any(first < index <= last for index in splice.insert)
    return True, touched


def _windows(parsed, splice):
    """[(first, last, changed)] of the new text's sections (0-based, inclusive), or None."""
    old = parsed.lines
    windows, kept, covered, gone = [], [], set(), set()
    for info in parsed.sections:
        if info.end is None:
            return None
        stays, touched = _changed(info, splice)
        if stays is None:
            return None
        inside = range(info.header - 1, info.end)
        covered.update(inside)
        if stays:
            kept.append((info.header - 1, info.end - 1))
            windows.append((splice.new_index(info.header - 1), splice.new_index(info.end - 1), touched))
        else:
            gone.update(inside)
    for index in splice.changed:
        # Outside the sections only a blank line right before a section that
        # goes may go: pykickstart read it in the command state (inside
        # another section the header would have been an unterminated-section
        # error), where a blank line does nothing.
        if index not in covered and not (index in splice.delete and old[index].strip() == "" and index + 1 in gone):
            return None
    for index in splice.insert:
        if index != len(old) and not any(first < index <= last for first, last in kept):
            return None
    if len(old) in splice.insert:
        appended = _appended(splice, len(old))
        if appended is None:
            return None
        windows.append(appended)
    return windows


def _appended(splice, old_count):
    """The window of what went after the old last line: blank lines, then (to be proved) one section."""
    lines = splice.lines
    start = len(lines) - sum(len(text.splitlines(True)) for text in splice.insert[old_count])
    while start < len(lines) - 1 and lines[start].strip() == "":
        start += 1  # blank lines in the command state: pykickstart skips them
    if start >= len(lines) or lines[-1].split()[:1] != ["%end"]:
        return None  # like every window, it must end on a line whose first word is %end
    return start, len(lines) - 1, True


class _NoCommands(AnacondaSectionHandler):
    """The main handler of the sections-only parse: any command there is unknown (an error)."""

    def __init__(self, version, release):
        AnacondaSectionHandler.__init__(self, version, release)
        self.commands.clear()


def _refuse(lineno, args):
    raise ValueError("section %s at line %d of the windows" % (args[0], lineno))


def _parse_windows(new_lines, windows, parsed):
    """Parse the windows alone with their real line numbers; the section object, or None."""
    text_lines, starts = [], {}
    for first, last, dummy_changed in windows:
        starts[len(text_lines) + 1] = first + 1
        text_lines.extend(new_lines[first:last + 1])
    text = "".join(text_lines)
    if text.splitlines(True) != text_lines:
        return None
    release = parsed.release
    version = _pykickstart_version(release)
    if version < ks_version.F8:
        return None  # before F8 a section header also ended the section before it
    parser, section = make_parser(_NoCommands(version, release), version, release, new_lines, True)
    header = section.handleHeader
    # Each header is reported at its line in the new text, so every line
    # number the section records and reports is the new text's; a header
    # anywhere else fails (KeyError).
    section.handleHeader = lambda lineno, args: header(starts[lineno], args)
    # Every other section stays registered (inside ours its header is an
    # unterminated-section error, as in the full parse), but entering one is
    # refused: a window is one %anaconda section and nothing else.
    registered = getattr(parser, "_sections", None)  # pykickstart's registry of sections
    if not isinstance(registered, dict) or registered.get(SECTION) is not section:
        return None
    for other in registered.values():
        if other is not section:
            other.handleHeader = _refuse
    try:
        caught, printed = read_captured(parser, text)
    except Exception:  # pylint: disable=broad-except
        return None  # the full parse gives the verdict and the message
    if caught or printed or len(section.sections) != len(windows):
        return None
    return section


def _adds_nothing(window):
    """True when check_bounds counts no line of ``window`` (its messages would number the window's lines)."""
    try:
        return check_bounds(window) == (0, 0)
    except KickstartEditError:
        return False


def parse_edited(parsed, splice):
    """What ``parse_kickstart(splice.text, parsed.release)`` returns, from the sections alone; or None.

    ``parsed`` is the validating parse of the old text, ``splice`` the
    :class:`Splice` of its lines that made the new text.  None: no proof
    here, parse the whole text.
    """
    if splice.text.splitlines(True) != splice.lines:
        return None  # a line ending joined two lines
    windows = _windows(parsed, splice)
    if windows is None:
        return None
    for first, last, changed in windows:
        if changed and not _adds_nothing(splice.lines[first:last + 1]):
            return None
    section = _parse_windows(splice.lines, windows, parsed)
    if section is None:
        return None
    return ParsedKickstart(splice.text, parsed.release, splice.lines, section.sections, list(section.warnings))
