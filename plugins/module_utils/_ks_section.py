# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``%anaconda`` kickstart section and its ``pwpolicy`` command, on pykickstart.

pykickstart knows ``%anaconda`` only as an opaque ``NullSection``.  Here the
section gets a real implementation on pykickstart's own machinery (``Section``,
``BaseHandler``, ``KickstartCommand``/``BaseData`` and ``KSOptionParser``),
registered in place of that ``NullSection`` (:func:`make_parser`), so a whole
kickstart is parsed by pykickstart for the chosen installer release while every
``pwpolicy`` line becomes a :class:`~_policy.Policy` with its real line number.
``_ks_parse.parse_kickstart`` runs it.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import traceback

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_import import defer_load, undo as undo_deferred_load
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import KickstartEditError, split_words
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_read import (
    check_values,
    ignored_line_warning,
    other_command,
    read_option_ints,
    split_dashes,
    unknown_name_warning,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import NAMES, SECTION, PolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy_read import read_policy
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import COMMAND_REMOVED

PYKICKSTART_IMPORT_ERROR = None
defer_load()  # pykickstart.load (and requests) only if something loads a file through it
try:
    from pykickstart.base import BaseData, BaseHandler, KickstartCommand
    # The parser (_ks_parse) takes the error classes from here, with the stand-ins below.
    from pykickstart.errors import KickstartError, KickstartVersionError, KickstartWarning  # pylint: disable=unused-import
    from pykickstart.options import KSOptionParser
    from pykickstart.parser import KickstartParser
    from pykickstart.sections import Section
    from pykickstart import version as ks_version
    HAS_PYKICKSTART = True
except ImportError:
    undo_deferred_load()
    HAS_PYKICKSTART = False
    PYKICKSTART_IMPORT_ERROR = traceback.format_exc()
    # Stand-ins so the classes below can be defined; nothing works without
    # pykickstart and every entry point says so (see require_pykickstart).

    class _Missing(object):
        removedKeywords = []
        removedAttrs = []

    BaseData = BaseHandler = KickstartCommand = KickstartParser = Section = _Missing
    KickstartError = KickstartVersionError = Exception
    KickstartWarning = Warning
    KSOptionParser = ks_version = None

PYKICKSTART_PACKAGE = "pykickstart"
COMMAND = "pwpolicy"
# More words than any real pwpolicy line has (a name, 5 options and their values).
_MAX_WORDS = 64
_FIELDS = ("minlen", "minquality", "strict", "changesok", "emptyok")


class MissingPykickstart(ImportError):
    """pykickstart is not importable here."""


def require_pykickstart():
    if not HAS_PYKICKSTART:
        raise MissingPykickstart(PYKICKSTART_IMPORT_ERROR or "pykickstart is not installed")


class PwPolicyData(BaseData):
    """One ``pwpolicy`` line.  ``policy`` is the complete :class:`Policy` it means."""

    removedKeywords = []
    removedAttrs = []

    def __init__(self, *args, **kwargs):
        BaseData.__init__(self, *args, **kwargs)
        self.name = kwargs.get("name", "")
        self.policy = kwargs.get("policy")

    def __str__(self):
        return "" if self.policy is None else self.policy.render() + "\n"


class PwPolicy(KickstartCommand):
    """The ``pwpolicy`` command of the ``%anaconda`` section.

    Options omitted from a line take the value the target release's anaconda
    gave them (``Release.omitted_defaults``).  Either spelling of each flag
    pair is accepted, in any order; the last one given wins, as in anaconda.
    Integers, ``--``, values out of range and names other than root, user and
    luks are read as the release read them (``_ks_read``); a line with such a
    name has no ``policy``.
    """

    removedKeywords = KickstartCommand.removedKeywords
    removedAttrs = KickstartCommand.removedAttrs

    def __init__(self, writePriority=0, *args, **kwargs):
        KickstartCommand.__init__(self, writePriority, *args, **kwargs)
        self.release = kwargs.get("release")
        self.policyList = kwargs.get("policyList", [])
        self.op = self._getParser()

    def __str__(self):
        return "".join(str(data) for data in self.policyList)

    def _getParser(self):
        # version= is the release that introduced the option (Fedora 22).
        op = KSOptionParser(prog=COMMAND, version=ks_version.F22,
                            description="Password policy of the installer's user interface.")
        # The integers are read by the release's rules (_ks_read.read_option_ints).
        op.add_argument("--minlen", default=None, version=ks_version.F22,
                        help="Minimum password length.")
        op.add_argument("--minquality", default=None, version=ks_version.F22,
                        help="Minimum libpwquality score.")
        for dest, (on, off) in (("strict", ("--strict", "--notstrict")),
                                ("changesok", ("--changesok", "--nochanges")),
                                ("emptyok", ("--emptyok", "--notempty"))):
            op.add_argument(on, dest=dest, action="store_true", default=None,
                            version=ks_version.F22, help="Set %s." % dest)
            op.add_argument(off, dest=dest, action="store_false", default=None,
                            version=ks_version.F22, help="Clear %s." % dest)
        return op

    def dataList(self):
        return self.policyList

    @property
    def dataClass(self):
        return PwPolicyData

    def _name(self, extra, positional):
        options = [arg for arg in extra if arg.startswith("-")]
        if options:
            raise KickstartEditError(
                "unknown option %s for pwpolicy: valid options are --minlen, --minquality, "
                "--strict/--notstrict, --changesok/--nochanges, --emptyok/--notempty%s"
                % (", ".join(repr(o) for o in options),
                   " ('--' before the name was accepted up to Fedora 27 and on RHEL 7 only)"
                   if "--" in options else ""), self.lineno)
        extra = extra + positional
        if not extra:
            raise KickstartEditError(
                "pwpolicy needs a policy name: one of %s" % ", ".join(NAMES), self.lineno)
        if len(extra) > 1:
            raise KickstartEditError(
                "pwpolicy takes one policy name, got %s" % ", ".join(repr(e) for e in extra), self.lineno)
        return extra[0]

    def parse(self, args):
        args, positional = split_dashes(args, self.release)
        namespace, extra = self.op.parse_known_args(args=args, lineno=self.lineno)
        name = self._name(extra, positional)
        read_option_ints(namespace, self.release, self.lineno)
        data = self.dataClass(name=name)
        data.lineno = self.lineno
        given = dict((field, getattr(namespace, field)) for field in _FIELDS
                     if getattr(namespace, field) is not None)
        # Fedora 34 / RHEL 9 send every line, any name, over D-Bus: a value it cannot carry stops them.
        found = check_values(name, given, self.release, self.lineno)
        if name not in NAMES:
            self.handler.warnings.append(unknown_name_warning(name, self.lineno, self.release))
            return data
        self.handler.warnings.extend(found)
        values = self.release.omitted_defaults(name)
        values.update(given)
        try:
            data.policy = read_policy(name=name, **values)
        except PolicyError as exc:
            raise KickstartEditError(str(exc), self.lineno)
        return data


class AnacondaSectionHandler(BaseHandler):
    """A handler that knows only the ``%anaconda`` section's command."""

    def __init__(self, version, release):
        self.version = version
        BaseHandler.__init__(self, mapping={COMMAND: PwPolicy},
                             dataMapping={"PwPolicyData": PwPolicyData})
        self.release = release
        self.warnings = []
        for command in self.commands.values():
            command.handler = self
            command.release = release


class SectionInfo(object):
    """Where one ``%anaconda`` section sits in the file (1-based line numbers)."""

    def __init__(self, header):
        self.header = header
        self.end = None
        self.entries = []   # PwPolicyData, in file order
        self.others = []    # (lineno, command word) of other commands


class AnacondaSection(Section):
    """The ``%anaconda`` section, registered in place of pykickstart's NullSection.

    pykickstart's parser hands ``handleLine`` no line number, so the section
    sees every line (``allLines``) and keeps its own place in the source text:
    lines the parser keeps to itself (``%include``, ``%ksappend``, ``%end``)
    are skipped by matching the next line handed over.
    """

    sectionOpen = SECTION
    allLines = True

    def __init__(self, handler, source_lines, template_lines=frozenset(), **kwargs):
        Section.__init__(self, handler, **kwargs)
        self.source = source_lines
        self.template_lines = template_lines  # lines of an unrendered template, kept as they are
        self.sections = []
        self.warnings = []
        self._next = 0

    def _locate(self, line):
        while self._next < len(self.source) and self.source[self._next] != line:
            self._next += 1
        self._next += 1
        return self._next

    def handleHeader(self, lineno, args):
        Section.handleHeader(self, lineno, args)
        self.sections.append(SectionInfo(lineno))
        self._next = lineno
        if len(args) > 1:
            self.warnings.append("kickstart line %d: %%anaconda takes no arguments; %s ignored"
                                 % (lineno, " ".join(args[1:])))

    def handleLine(self, line):
        lineno = self._locate(line)
        if self.handler.release.support != COMMAND_REMOVED:
            return self._handle(line, lineno)
        try:
            return self._handle(line, lineno)
        except (KickstartEditError, KickstartError) as exc:
            # Fedora 35 ignores what the section holds: what it cannot read is no error.
            self.sections[-1].others.append((lineno, None))
            self.warnings.append(ignored_line_warning(exc, line, lineno, self.handler.release))
        return None

    def _handle(self, line, lineno):
        info = self.sections[-1]
        if lineno in self.template_lines:
            info.others.append((lineno, None))
            self.warnings.append("kickstart line %d: a template line inside %%anaconda is kept as it is; what the "
                                 "template renders there is not read" % lineno)
            return None
        try:
            args = split_words(line)
        except ValueError as exc:
            raise KickstartEditError("cannot split the line into words: %s" % exc, lineno)
        if not args:
            return None
        if args[0] != COMMAND:
            info.others.append((lineno, args[0]))
            self.warnings.append(other_command(args[0], line, lineno, self.handler.release))
            return None
        if len(args) > _MAX_WORDS:
            # argparse takes time quadratic in the number of options.
            raise KickstartEditError(
                "pwpolicy line has %d words: a pwpolicy line is a policy name and at most "
                "5 options" % len(args), lineno)
        self.handler.currentCmd = args[0]
        self.handler.currentLine = line
        data = self.handler.dispatcher(args, lineno)
        self.warnings.extend(self.handler.warnings)
        del self.handler.warnings[:]
        info.entries.append(data)
        return data

    def finalize(self):
        Section.finalize(self)
        while self._next < len(self.source):
            words = self.source[self._next].split()
            self._next += 1
            if words and words[0] == "%end":
                self.sections[-1].end = self._next
                break


class _Parser(KickstartParser):
    """pykickstart's parser with our ``%anaconda`` section instead of the NullSection."""

    def __init__(self, handler, anaconda_section, **kwargs):
        self._anaconda_section = anaconda_section
        KickstartParser.__init__(self, handler, **kwargs)

    def setupSections(self):
        KickstartParser.setupSections(self)
        self.registerSection(self._anaconda_section)


def make_parser(handler, version, release, lines, validate, template_lines=frozenset()):
    """pykickstart's parser over ``handler`` with an :class:`AnacondaSection` for ``release``.

    ``lines`` are the lines pykickstart reads; ``template_lines`` the numbers
    of template lines among them, kept as they are.  Returns ``(parser,
    section)``; after the parse ``section.sections`` and ``section.warnings``
    hold what the ``%anaconda`` sections held.
    """
    section = AnacondaSection(AnacondaSectionHandler(version, release), lines, template_lines)
    parser = _Parser(handler, section, followIncludes=False, missingIncludeIsFatal=False,
                     errorsAreFatal=validate, unknownSectionIsFatal=validate)
    return parser, section
