# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Parsing a whole kickstart with pykickstart and the ``%anaconda`` section of ``_ks_section``.

:func:`parse_kickstart` returns a :class:`ParsedKickstart`: the ``%anaconda``
sections (``SectionInfo``), their ``pwpolicy`` entries, the policy in effect
for each name, and warnings.  pykickstart's errors and warnings never carry a
value of a line that may hold a secret.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import io
import re
import warnings
from contextlib import redirect_stderr

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import (
    BODY,
    END,
    KickstartEditError,
    check_bounds,
    first_word,
    is_template_line,
    kickstart_release,
    newline_of,
    section_roles,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_section import (
    COMMAND,
    SECTION,
    KickstartError,
    KickstartVersionError,
    KickstartWarning,
    ks_version,
    make_parser,
    require_pykickstart,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import NAMES
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._redact import FileSecrets, redact_message
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import COMMAND_REMOVED


def _pykickstart_version(release):
    try:
        return ks_version.stringToVersion(release.name)
    except KickstartVersionError:
        if release.is_fedora and release.major > _devel_major():
            return ks_version.DEVEL
        raise KickstartEditError(
            "pykickstart %s does not know the release %s: install a newer pykickstart on the "
            "managed node or set target to a release it knows" % (_pykickstart_release(), release.name))


def _devel_major():
    name = ks_version.versionToString(ks_version.DEVEL, skipDevel=True)
    match = re.fullmatch(r"F(\d+)", name or "")
    return int(match.group(1)) if match else 0


def _pykickstart_release():
    try:
        from pykickstart import __version__
        return __version__
    except ImportError:  # pragma: no cover
        return "(unknown version)"


_PRISTINE_HANDLERS = {}


def _fresh_handler(version):
    """A new pykickstart handler for ``version`` (copying a pristine one is faster than building it)."""
    if version not in _PRISTINE_HANDLERS:
        _PRISTINE_HANDLERS[version] = ks_version.makeVersion(version)
    pristine = _PRISTINE_HANDLERS[version]
    # The commands' option parsers hold no parse state worth copying: share them.
    memo = {}
    for command in pristine.commands.values():
        parser = getattr(command, "op", None)
        if parser is not None:
            memo[id(parser)] = parser
    return copy.deepcopy(pristine, memo)


class ParsedKickstart(object):
    """What :func:`parse_kickstart` found.

    ``lines`` are the source lines with their endings; ``sections`` the
    ``%anaconda`` sections (:class:`SectionInfo`) with their pwpolicy entries
    (``PwPolicyData`` with ``lineno`` and ``policy``); ``policies`` the policy
    in effect for each name.
    """

    def __init__(self, text, release, lines, sections, warnings_):
        self.text = text
        self.release = release
        self.lines = lines
        self.sections = sections
        self.warnings = warnings_
        # Every pwpolicy line, names the installer ignores included (their policy is None).
        self.entries = [entry for info in sections for entry in info.entries]
        self.policies = {}
        if release.support == COMMAND_REMOVED:
            return  # Fedora 35 ignores the section's content: no policy is in effect.
        for name in NAMES:
            found = [e for e in self.entries if e.name == name]
            if found:
                self.policies[name] = self._in_effect(found)
                if len(found) > 1:
                    self.warnings.append(self._duplicate_warning(name, found))

    def _in_effect(self, found):
        """The policy the installer used from the lines ``found`` for one name (see effective_entry)."""
        winner = found[-1] if self.release.last_duplicate_wins else found[0]
        if self.release.changesok_from_first and winner.policy.changesok != found[0].policy.changesok:
            return winner.policy.replace(changesok=found[0].policy.changesok)
        return winner.policy

    def _duplicate_warning(self, name, found):
        release = self.release
        winner = self.effective_entry(name)
        message = ("pwpolicy %s is given %d times (kickstart lines %s): the %s one, on line %d, "
                   "is in effect for %s" % (name, len(found), _some_lines([e.lineno for e in found]),
                                            "last" if release.last_duplicate_wins else "first",
                                            winner.lineno, release.name))
        if release.changesok_from_first:
            message += (", except changesok, which %s takes from the first one, on line %d"
                        % (release.label, found[0].lineno))
        return message

    def effective_entry(self, name):
        """The line whose values are in effect for ``name`` (on Fedora 34 / RHEL 9 but its changesok)."""
        found = [e for e in self.entries if e.name == name]
        if not found:
            return None
        return found[-1] if self.release.last_duplicate_wins else found[0]


# A duplicate warning names this many line numbers, then how many more there are.
_SHOWN_LINES = 5


def _some_lines(numbers):
    """``"2, 4"``; past _SHOWN_LINES numbers, the first ones and how many more: ``"2, 4, 6, 8, 10 and 995 more"``."""
    shown = ", ".join(str(number) for number in numbers[:_SHOWN_LINES])
    if len(numbers) > _SHOWN_LINES:
        shown += " and %d more" % (len(numbers) - _SHOWN_LINES)
    return shown


def _clean_error(exc, lines, release, secrets):
    """A KickstartEditError from a pykickstart error, with the line number and no secrets."""
    lineno = getattr(exc, "lineno", None)
    message = getattr(exc, "message", None) or str(exc)
    if isinstance(message, tuple):
        message = message[-1]
    message = " ".join(str(message).split()) or "pykickstart cannot read this line"
    if lineno and 0 < lineno <= len(lines):
        message = redact_message(message, lines[lineno - 1])
    else:
        message = secrets.hide(message)
        lineno = None
    if message.startswith("Unknown command: %s" % COMMAND):
        message += "; pwpolicy is valid only inside a %s ... %%end section" % SECTION
    return KickstartEditError("%s (pykickstart, release %s)" % (message, release.name), lineno)


def read_captured(parser, text):
    """Run pykickstart's ``parser`` on ``text``: ``(warnings caught, what it printed)``; its errors propagate."""
    stderr = io.StringIO()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with redirect_stderr(stderr):
            parser.readKickstartFromString(text)
    return caught, stderr.getvalue()


def _run_parser(parser, text, lines, release, secrets):
    """Run pykickstart on ``text``; return its warnings and what it printed (raw)."""
    try:
        caught, printed = read_captured(parser, text)
    except KickstartEditError:
        raise
    except Exception as exc:  # pykickstart raises a few plain errors on odd input
        if isinstance(exc, KickstartError):
            raise _clean_error(exc, lines, release, secrets)
        raise KickstartEditError(
            "pykickstart cannot read the kickstart for %s: %s: %s"
            % (release.name, type(exc).__name__, secrets.hide(str(exc))))
    found = [str(w.message) for w in caught if issubclass(w.category, KickstartWarning)]
    return found + printed.split("\n\n")


def _clean_warnings(own, raw, release, secrets):
    found = [secrets.hide(message) for message in own]
    seen = set(found)
    for message in raw:
        # Hidden before and after blanks collapse: a value may hold blanks of its own.
        message = secrets.hide(" ".join(secrets.hide(message).split()))
        if message:
            message = "pykickstart (%s): %s" % (release.name, message)
            if message not in seen:
                seen.add(message)
                found.append(message)
    return found


def template_reading(lines):
    """What pykickstart reads of a template: ``(lines, template line numbers)``.

    Outside the ``%anaconda`` sections a file may be a template for another
    tool (ERB's ``<% %>``, Terraform's ``%{ }``, Cheetah's ``#if`` and
    ``$SNIPPET``, Jinja): its lines are opaque text that is never
    interpreted, and blank lines in their place keep every line number.  A
    section ends at a line whose first word is ``%end`` or at a template
    expression that names a section end (Foreman's ``<%= section_end -%>``),
    which pykickstart reads as ``%end``.  Inside ``%anaconda`` a template line
    (``$SNIPPET(...)``, ``<%= ... %>``) is kept as it is: pykickstart reads a
    comment in its place, and its number is among the template line numbers.
    ``%anaconda`` inside a script or ``%packages`` section is the section's text.
    """
    roles, unterminated = section_roles(lines, template=True)
    if unterminated is not None and unterminated[0] != SECTION:  # pykickstart reports an open %anaconda itself
        raise KickstartEditError("section %s does not end with %%end; end it with a %%end line" % unterminated[0],
                                 unterminated[1])
    out, kept = [], []
    for number, (line, (role, section)) in enumerate(zip(lines, roles), 1):
        if section == SECTION and role == END and first_word(line) != "%end":
            out.append("%end" + newline_of(line))
        elif section == SECTION and role == BODY and is_template_line(line):
            out.append("#" + newline_of(line))
            kept.append(number)
        elif section == SECTION:
            out.append(line)
        elif out and out[-1].endswith("\r"):
            out.append("\r")  # "\n" here would join the "\r" before it into one "\r\n" line ending
        else:
            out.append("\n")
    return out, frozenset(kept)


def sections_only(lines):
    """The text pykickstart reads without validation: the ``%anaconda`` sections, every other line blank
    (see :func:`template_reading`)."""
    return "".join(template_reading(lines)[0])


def parse_kickstart(text, target=None, validate=True):
    """Parse a kickstart with pykickstart for ``target`` (a release name or Release).

    With ``validate`` the whole file is parsed and every pykickstart error is
    fatal.  Without it only the ``%anaconda`` sections are interpreted (see
    :func:`template_reading`), so templates of other tools can be edited.
    ``%include`` is never followed and ``%ksappend`` never read: those files
    often exist only inside the installer.  Raises :class:`KickstartEditError`
    naming the line.
    """
    require_pykickstart()
    if not isinstance(text, str):
        raise KickstartEditError("the kickstart must be text, got %s" % type(text).__name__)
    release = kickstart_release(target, text)
    version = _pykickstart_version(release)
    lines = text.splitlines(True)
    check_bounds(lines)
    secrets = FileSecrets(lines)
    source, kept = (lines, frozenset()) if validate else template_reading(lines)
    parser, section = make_parser(_fresh_handler(version), version, release, source, validate, kept)
    raw = _run_parser(parser, text if validate else "".join(source), lines, release, secrets)
    found = _clean_warnings(section.warnings, raw, release, secrets)
    return ParsedKickstart(text, release, lines, section.sections, found)
