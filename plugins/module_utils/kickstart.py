# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``%anaconda`` kickstart section and its ``pwpolicy`` command, on pykickstart.

pykickstart knows ``%anaconda`` only as an opaque ``NullSection``.  Here the
section gets a real implementation on pykickstart's own machinery (``Section``,
``BaseHandler``, ``KickstartCommand``/``BaseData`` and ``KSOptionParser``),
registered in place of that ``NullSection``, so a whole kickstart is parsed by
pykickstart for the chosen installer release while every ``pwpolicy`` line
becomes a :class:`~policy.Policy` with its real line number.

On top of the parse sits a surgical editor: it changes only ``pwpolicy`` lines
(and ``%anaconda`` headers/ends when a section is added or removed) in the
original text and keeps every other byte as it was.

Public functions:

* :func:`parse_kickstart` - the parse result (entries, sections, policies in effect, warnings);
* :func:`parse_policies` - just the policies in effect, ``{name: Policy}``;
* :func:`edit_kickstart` - add, replace or remove policies in a kickstart's text;
* :func:`render_section` - a complete ``%anaconda`` section for some policies;
* :func:`release_for` - the target release, from an option or the ``#version=`` line.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._redact import Redactor, hide as _hide

import copy
import io
import re
import shlex
import traceback
import warnings
from contextlib import redirect_stderr

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import (
    NAMES,
    Policy,
    PolicyError,
    build_policies,
    check_name,
    normalize_policies,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import (
    COMMAND_REMOVED,
    DEPRECATED,
    SECTION_REMOVED,
    ReleaseError,
    parse_release,
)

PYKICKSTART_IMPORT_ERROR = None
try:
    from pykickstart.base import BaseData, BaseHandler, KickstartCommand
    from pykickstart.errors import KickstartError, KickstartVersionError, KickstartWarning
    from pykickstart.options import KSOptionParser
    from pykickstart.parser import KickstartParser
    from pykickstart.sections import Section
    from pykickstart import version as ks_version
    HAS_PYKICKSTART = True
except ImportError:
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
SECTION = "%anaconda"
COMMAND = "pwpolicy"
REPLACEMENT = ("anaconda configuration (option password_policies of section [User Interface], "
               "written by the module kickstart.pwpolicy.anaconda_conf)")
# Commands whose arguments may hold a secret: a pykickstart error on such a
# line is reported without the line's values.
_SECRET_COMMANDS = frozenset((
    "rootpw", "user", "sshpw", "bootloader", "autopart", "part", "partition", "logvol",
    "raid", "btrfs", "vnc", "url", "repo", "liveimg", "ostreesetup", "ostreecontainer",
    "network", "rhsm", "authconfig", "auth", "realm", "zfcp", "iscsi", "iscsiname",
))
_VERSION_RE = re.compile(r"^#version=(\S+)")
_NEWLINES = ("\r\n", "\n", "\r")
# More words than any real pwpolicy line has (a name, 5 options and their values).
_MAX_WORDS = 64


class KickstartEditError(PwpolicyError):
    """A kickstart we cannot read or change.  ``lineno`` is the file's line number, if any."""

    def __init__(self, message, lineno=None):
        if lineno is not None:
            message = "kickstart line %d: %s" % (lineno, message)
        super(KickstartEditError, self).__init__(message, lineno)


class MissingPykickstart(ImportError):
    """pykickstart is not importable here."""


def require_pykickstart():
    if not HAS_PYKICKSTART:
        raise MissingPykickstart(PYKICKSTART_IMPORT_ERROR or "pykickstart is not installed")


# ---------------------------------------------------------------------------
# The pwpolicy command and its data, on pykickstart's classes
# ---------------------------------------------------------------------------

class PwPolicyData(BaseData):
    """One ``pwpolicy`` line.  ``policy`` is the complete :class:`Policy` it means."""

    removedKeywords = []
    removedAttrs = []

    def __init__(self, *args, **kwargs):
        BaseData.__init__(self, *args, **kwargs)
        self.name = kwargs.get("name", "")
        self.policy = kwargs.get("policy")
        self.given = kwargs.get("given", ())

    def __str__(self):
        if self.policy is None:
            return ""
        return self.policy.render() + "\n"


class PwPolicy(KickstartCommand):
    """The ``pwpolicy`` command of the ``%anaconda`` section.

    Options omitted from a line take the value the target release's anaconda
    gave them (``Release.omitted_defaults``).  Either spelling of each flag
    pair is accepted, in any order; the last one given wins, as in anaconda.
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
        op.add_argument("--minlen", type=int, default=None, version=ks_version.F22,
                        help="Minimum password length.")
        op.add_argument("--minquality", type=int, default=None, version=ks_version.F22,
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

    def parse(self, args):
        lineno = self.lineno
        namespace, extra = self.op.parse_known_args(args=args, lineno=lineno)
        options = [arg for arg in extra if arg.startswith("-")]
        if options:
            raise KickstartEditError(
                "unknown option %s for pwpolicy: valid options are --minlen, --minquality, "
                "--strict/--notstrict, --changesok/--nochanges, --emptyok/--notempty"
                % ", ".join(repr(o) for o in options), lineno)
        if not extra:
            raise KickstartEditError(
                "pwpolicy needs a policy name: one of %s" % ", ".join(NAMES), lineno)
        if len(extra) > 1:
            raise KickstartEditError(
                "pwpolicy takes one policy name, got %s" % ", ".join(repr(e) for e in extra), lineno)
        name = extra[0]
        try:
            check_name(name)
            values = self.release.omitted_defaults(name)
            given = []
            for field in ("minlen", "minquality", "strict", "changesok", "emptyok"):
                value = getattr(namespace, field)
                if value is not None:
                    values[field] = value
                    given.append(field)
            policy = Policy(name=name, **values)
        except PolicyError as exc:
            raise KickstartEditError(str(exc), lineno)
        data = self.dataClass(name=name, policy=policy, given=tuple(given))
        data.lineno = lineno
        return data


class AnacondaSectionHandler(BaseHandler):
    """A handler that knows only the ``%anaconda`` section's command."""

    def __init__(self, version, release):
        self.version = version
        BaseHandler.__init__(self, mapping={COMMAND: PwPolicy},
                             dataMapping={"PwPolicyData": PwPolicyData})
        self.release = release
        for command in self.commands.values():
            command.handler = self
            command.release = release

    def __str__(self):
        body = "".join(str(command) for command in set(self.commands.values()))
        return "%s\n%s%%end\n" % (SECTION, body) if body else ""


class _SectionInfo(object):
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

    def __init__(self, handler, source_lines, **kwargs):
        Section.__init__(self, handler, **kwargs)
        self.source = source_lines
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
        self.sections.append(_SectionInfo(lineno))
        self._next = lineno
        if len(args) > 1:
            self.warnings.append("kickstart line %d: %%anaconda takes no arguments; %s ignored"
                                 % (lineno, " ".join(args[1:])))

    def handleLine(self, line):
        lineno = self._locate(line)
        info = self.sections[-1]
        try:
            args = shlex.split(line, comments=True)
        except ValueError as exc:
            raise KickstartEditError("cannot split the line into words: %s" % exc, lineno)
        if not args:
            return None
        if args[0] != COMMAND:
            info.others.append((lineno, args[0]))
            self.warnings.append(
                "kickstart line %d: %r inside %%anaconda is not a password policy: it is left as "
                "it is, but anaconda accepted only pwpolicy there (and installclass on Fedora 27 to 29)"
                % (lineno, args[0]))
            return None
        if len(args) > _MAX_WORDS:
            # argparse takes time quadratic in the number of options.
            raise KickstartEditError(
                "pwpolicy line has %d words: a pwpolicy line is a policy name and at most "
                "5 options" % len(args), lineno)
        self.handler.currentCmd = args[0]
        self.handler.currentLine = line
        data = self.handler.dispatcher(args, lineno)
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


# ---------------------------------------------------------------------------
# Releases
# ---------------------------------------------------------------------------

def version_line(text):
    """The release named by the kickstart's ``#version=`` line, or None."""
    for line in text.splitlines():
        match = _VERSION_RE.match(line.strip())
        if match:
            return match.group(1)
    return None


def release_for(target=None, text=None):
    """The :class:`Release` to parse and write for: ``target``, else the ``#version=`` line."""
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


def support_message(release):
    """Why ``release`` cannot take a ``%anaconda`` pwpolicy section, or None if it can."""
    if release.support == COMMAND_REMOVED:
        return ("target %s: Fedora 35 removed the pwpolicy command (its %%anaconda section is "
                "only warned about and the policies are ignored), and Fedora 36 and RHEL 10 "
                "removed the section altogether. Set the policies through %s instead. "
                "state=absent removes a stale section" % (release.name, REPLACEMENT))
    if release.support == SECTION_REMOVED:
        return ("target %s: %s has no %%anaconda section (removed in Fedora 36 and RHEL 10, "
                "pwpolicy already in Fedora 35): a kickstart that still has one makes the "
                "installer stop. Set the policies through %s instead. state=absent removes a "
                "stale section" % (release.name, release.label, REPLACEMENT))
    return None


def deprecation_message(release):
    if release.support == DEPRECATED:
        return ("target %s: %s deprecated the %%anaconda section and pwpolicy; the installer "
                "still applies the policies but warns. The replacement is %s"
                % (release.name, release.label, REPLACEMENT))
    return None


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------

class ParsedKickstart(object):
    """What :func:`parse_kickstart` found.

    ``lines`` are the source lines with their endings; ``sections`` the
    ``%anaconda`` sections with their pwpolicy entries (``PwPolicyData`` with
    ``lineno`` and ``policy``); ``policies`` the policy in effect for each name.
    """

    def __init__(self, text, release, lines, sections, warnings_):
        self.text = text
        self.release = release
        self.lines = lines
        self.sections = sections
        self.warnings = warnings_
        self.entries = [entry for info in sections for entry in info.entries]
        self.policies = {}
        for name in NAMES:
            found = [e for e in self.entries if e.name == name]
            if not found:
                continue
            winner = found[-1] if release.last_duplicate_wins else found[0]
            self.policies[name] = winner.policy
            if len(found) > 1:
                self.warnings.append(
                    "pwpolicy %s is given %d times (kickstart lines %s): the %s one, on line %d, "
                    "is in effect for %s" % (
                        name, len(found), ", ".join(str(e.lineno) for e in found),
                        "last" if release.last_duplicate_wins else "first", winner.lineno,
                        release.name))

    def effective_entry(self, name):
        found = [e for e in self.entries if e.name == name]
        if not found:
            return None
        return found[-1] if self.release.last_duplicate_wins else found[0]


# The command word of a line, quoted or not: cheap enough to run on every line.
_COMMAND_WORD_RE = re.compile(r"""^\s*["']?([^\s"'=]+)""")


def _line_secrets(line):
    """The values on ``line`` that may be secrets (its command may hold one), else nothing."""
    match = _COMMAND_WORD_RE.match(line)
    if not match or (match.group(1) not in _SECRET_COMMANDS and "pass" not in line.lower()):
        return ()
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        words = line.split()
    if not words or (words[0] not in _SECRET_COMMANDS and "pass" not in line.lower()):
        return ()
    secrets = set()
    for word in words[1:]:
        value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
        if value and not value.startswith("-"):
            secrets.add(value)
    # The values as written (quoted or backslash-escaped), as a message may quote the line.
    for word in line.split()[1:]:
        value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
        if len(value) > 2 and not value.startswith("-"):
            secrets.add(value)
    rest = line.strip().split(None, 1)[1:]
    if rest:
        secrets.add(rest[0])
    return secrets


def _redact(message, line):
    """``message`` without the values of ``line`` when its command may hold a secret."""
    return _hide(message, _line_secrets(line))


def redact_line(line):
    """``line`` with every value of a command that may hold a secret replaced by ``<hidden>``.

    The line is rebuilt from its command word and option names, so no form of
    a value (quoted, escaped with backslashes, split over words) survives.
    """
    if not _line_secrets(line):
        return line
    body = line.rstrip("\r\n")
    ending = line[len(body):]
    indent = body[:len(body) - len(body.lstrip())]
    try:
        words = shlex.split(body, comments=True)
    except ValueError:
        words = body.split()[:1]
        return "%s%s <hidden>%s" % (indent, words[0] if words else "", ending)
    out = [words[0]]
    for word in words[1:]:
        if word.startswith("-"):
            name, equals, _value = word.partition("=")
            out.append(name + ("=<hidden>" if equals else ""))
        else:
            out.append("<hidden>")
    return indent + " ".join(out) + ending


def redacted_text(text):
    """``text`` with :func:`redact_line` applied to every line: what a diff of a whole kickstart may show."""
    return "".join(redact_line(line) for line in text.splitlines(True))


class _FileSecrets(object):
    """Every value of every line of one file that may be a secret, collected once per parse."""

    def __init__(self, lines):
        self._lines = lines
        self._redactor = None

    def hide(self, message):
        if self._redactor is None:
            values = set()
            for line in self._lines:
                values.update(_line_secrets(line))
            self._redactor = Redactor(values)
        return self._redactor.hide(message)


def _clean_error(exc, lines, release, secrets=None):
    """A KickstartEditError from a pykickstart error, with the line number and no secrets."""
    lineno = getattr(exc, "lineno", None)
    message = getattr(exc, "message", None) or str(exc)
    if isinstance(message, tuple):
        message = message[-1]
    message = " ".join(str(message).split()) or "pykickstart cannot read this line"
    if lineno and 0 < lineno <= len(lines):
        message = _redact(message, lines[lineno - 1])
    else:
        message = _redact_all(message, secrets or lines)
        lineno = None
    if message.startswith("Unknown command: %s" % COMMAND):
        message += "; pwpolicy is valid only inside a %s ... %%end section" % SECTION
    return KickstartEditError("%s (pykickstart, release %s)" % (message, release.name), lineno)


# Sections whose body lines are not commands (scripts, package lists, add-ons).
_BODY_SECTIONS = ("%pre", "%pre-install", "%post", "%onerror", "%traceback", "%packages", "%addon",
                  "%anaconda")
# No kickstart command takes this many words; pykickstart's option parser
# (argparse) takes time that grows with the square of the options on a line.
MAX_COMMAND_WORDS = 256
# pykickstart's handling of some commands (network, part, ...) and of the
# %packages list also grows with the square of their number; real kickstarts
# stay far below these counts.
MAX_COMMAND_LINES = 2000
MAX_PACKAGE_LINES = 4000
_WORD_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")


def _too_many(lineno, count, what, limit):
    return KickstartEditError(
        "the kickstart has more than %d %s (this is line %d); no installation needs that many, and "
        "the installer's parser slows down with the square of their number: split it up or generate "
        "fewer" % (limit, what, lineno), lineno)


def _check_command_lengths(lines):
    """Refuse what pykickstart would take minutes on: huge command lines, command and package counts."""
    section = None
    commands = packages = 0
    for lineno, line in enumerate(lines, 1):
        first = line.lstrip()[:16].split(None, 1)[:1]
        if first and first[0].startswith("%"):
            section = None if first[0] == "%end" or first[0] not in _BODY_SECTIONS else first[0]
            continue
        if section == "%packages":
            packages += bool(first)
            if packages > MAX_PACKAGE_LINES:
                raise _too_many(lineno, packages - 1, "%packages lines", MAX_PACKAGE_LINES)
            continue
        if section is not None or not first or first[0].startswith("#"):
            continue
        commands += 1
        if commands > MAX_COMMAND_LINES:
            raise _too_many(lineno, commands - 1, "command lines", MAX_COMMAND_LINES)
        if len(line) >= 2 * MAX_COMMAND_WORDS:  # shorter lines cannot hold that many words
            words = line.split()
            if len(words) > MAX_COMMAND_WORDS:
                name = words[0] if _WORD_NAME_RE.fullmatch(words[0]) else "this command"
                raise KickstartEditError(
                    "%s has %d words, more than the %d any kickstart command takes; "
                    "split the line or remove repeated options" % (name, len(words), MAX_COMMAND_WORDS),
                    lineno)


def parse_kickstart(text, target=None, validate=True):
    """Parse a whole kickstart with pykickstart for ``target`` (a release name or Release).

    With ``validate`` every pykickstart error is fatal; without it only errors
    in ``%anaconda`` sections are, and pykickstart's complaints about the rest
    of the file come back as warnings.  ``%include`` is never followed and
    ``%ksappend`` never read: those files often exist only inside the
    installer.  Raises :class:`KickstartEditError` naming the line.
    """
    require_pykickstart()
    if not isinstance(text, str):
        raise KickstartEditError("the kickstart must be text, got %s" % type(text).__name__)
    release = target if hasattr(target, "support") else release_for(target, text)
    version = _pykickstart_version(release)
    lines = text.splitlines(True)
    _check_command_lengths(lines)
    secrets = _FileSecrets(lines)
    handler = _fresh_handler(version)
    section_handler = AnacondaSectionHandler(version, release)
    handler.anaconda = section_handler
    section = AnacondaSection(section_handler, lines)
    parser = _Parser(handler, section, followIncludes=False, missingIncludeIsFatal=False,
                     errorsAreFatal=validate, unknownSectionIsFatal=validate)
    stderr = io.StringIO()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with redirect_stderr(stderr):
                parser.readKickstartFromString(text)
        except KickstartEditError:
            raise
        except Exception as exc:  # pykickstart raises a few plain errors on odd input
            if isinstance(exc, KickstartError):
                raise _clean_error(exc, lines, release, secrets)
            raise KickstartEditError(
                "pykickstart cannot read the kickstart for %s: %s: %s"
                % (release.name, type(exc).__name__, secrets.hide(str(exc))))
    found = list(section.warnings)
    seen = set(found)
    for warning in caught:
        if not issubclass(warning.category, KickstartWarning):
            continue
        message = " ".join(secrets.hide(str(warning.message)).split())
        if message:
            message = "pykickstart (%s): %s" % (release.name, message)
            if message not in seen:
                seen.add(message)
                found.append(message)
    for message in stderr.getvalue().split("\n\n"):
        message = secrets.hide(" ".join(message.split()))
        if message:
            found.append("pykickstart (%s): %s" % (release.name, message))
    return ParsedKickstart(text, release, lines, section.sections, found)


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


def _redact_all(message, lines):
    """``message`` without any value of any line that may hold a secret."""
    secrets = lines if isinstance(lines, _FileSecrets) else _FileSecrets(lines)
    return secrets.hide(message)


def parse_policies(text, target=None, validate=False):
    """The policies a kickstart's ``%anaconda`` sections put in effect, ``{name: Policy}``."""
    return parse_kickstart(text, target, validate=validate).policies


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------

def _as_policies(policies, product=None, target=None):
    if isinstance(policies, dict) and all(isinstance(p, Policy) for p in policies.values()) \
            and policies:
        items = list(policies.values())
    elif isinstance(policies, (list, tuple)) and policies and all(isinstance(p, Policy) for p in policies):
        items = list(policies)
    else:
        items = list(build_policies(policies, product=product, target=target).values())
    return sorted(items, key=lambda p: NAMES.index(p.name))


def render_section(policies=None, product=None, target=None, newline="\n"):
    """A whole ``%anaconda`` section (``%anaconda`` ... ``%end`` with a final newline).

    ``policies`` are :class:`Policy` objects (a list or a dict) or user input
    for :func:`policy.build_policies` (with ``product`` and ``target``).  When
    ``target`` cannot take the section, :class:`KickstartEditError` says why
    and names the replacement.
    """
    if target is not None:
        release = parse_release(target) if not hasattr(target, "support") else target
        refusal = support_message(release)
        if refusal:
            raise KickstartEditError(refusal)
        target = release.name
    items = _as_policies(policies, product, target)
    if not items:
        raise KickstartEditError("no policies to render: give policies or product")
    body = "".join(p.render() + newline for p in items)
    return "%s%s%s%%end%s" % (SECTION, newline, body, newline)


# ---------------------------------------------------------------------------
# Surgical editing
# ---------------------------------------------------------------------------

def _newline_of(line):
    for ending in _NEWLINES:
        if line.endswith(ending):
            return ending
    return ""


def _comment_start(text):
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


def _replace_line(line, policy):
    ending = _newline_of(line)
    body = line[:len(line) - len(ending)] if ending else line
    indent = body[:len(body) - len(body.lstrip(" \t"))]
    comment_at = _comment_start(body)
    comment = body[comment_at:] if comment_at is not None else ""
    return indent + policy.render() + comment + ending


class EditResult(object):
    """The outcome of :func:`edit_kickstart`."""

    def __init__(self, text, changed, policies, previous, warnings_, release,
                 parsed_before=None, parsed_after=None):
        self.parsed_before = parsed_before
        self.parsed_after = parsed_after
        self.text = text
        self.changed = changed
        self.policies = policies
        self.previous = previous
        self.warnings = warnings_
        self.release = release


def _names_to_remove(policies, product, parsed):
    """Names ``state=absent`` removes: those given, all three for a product, every one when neither."""
    if product is not None:
        return list(NAMES)
    if policies is None:
        return [e.name for e in parsed.entries]
    try:
        return list(normalize_policies(policies))
    except PolicyError as exc:
        raise KickstartEditError(str(exc))


def section_regions(parsed_or_text, target=None):
    """The text of each ``%anaconda`` section (header to ``%end``), joined: what a diff shows.

    A line inside a section whose command may hold a secret (a stray
    ``rootpw --plaintext``, say) shows ``<hidden>`` in place of its values.
    """
    parsed = parsed_or_text
    if isinstance(parsed_or_text, str):
        parsed = parse_kickstart(parsed_or_text, target, validate=False)
    chunks = []
    for info in parsed.sections:
        end = info.end or len(parsed.lines)
        chunks.extend(redact_line(line) for line in parsed.lines[info.header - 1:end])
    return "".join(chunks)


def edit_kickstart(text, policies=None, product=None, state="present", exclusive=False,
                   target=None, validate=True):
    """Change a kickstart's ``pwpolicy`` lines; return an :class:`EditResult`.

    * ``state=present``: every given policy (filled from ``product``'s preset
      or ``target``'s defaults) is written; a policy already in the file is
      replaced in place (its duplicates are dropped), a new one goes into the
      existing ``%anaconda`` section in anaconda's order, or into a new
      section appended at the end.  ``exclusive`` removes the lines of every
      name not given.
    * ``state=absent``: the lines of the given names (all names when none are
      given) go, and so does a section left without commands.

    Only those lines change; every other byte of ``text`` is kept.  With
    ``validate`` the input and the result must both parse with pykickstart
    for the target.  Raises :class:`KickstartEditError`.
    """
    if state not in ("present", "absent"):
        raise KickstartEditError("state must be present or absent, got %r" % (state,))
    release = release_for(target, text)
    warnings_ = []
    if state == "present":
        refusal = support_message(release)
        if refusal:
            raise KickstartEditError(refusal)
    parsed = parse_kickstart(text, release, validate=validate)
    warnings_.extend(parsed.warnings)
    lines = parsed.lines
    newline = _newline_of(lines[0]) if lines and _newline_of(lines[0]) else "\n"

    replace = {}        # line index -> new text
    delete = set()      # line indexes
    insert = {}         # line index -> [texts] inserted before that line

    if state == "present":
        if policies is None and product is None:
            raise KickstartEditError("state=present needs policies or product")
        try:
            desired = build_policies(policies, product=product, target=release.name)
        except PolicyError as exc:
            raise KickstartEditError(str(exc))
        if not desired and not exclusive:
            raise KickstartEditError("state=present needs at least one policy (or product)")
        for name, policy in desired.items():
            found = [e for e in parsed.entries if e.name == name]
            if not found:
                continue
            keep = parsed.effective_entry(name)
            if keep.policy != policy:
                replace[keep.lineno - 1] = _replace_line(lines[keep.lineno - 1], policy)
            for entry in found:
                if entry is not keep:
                    delete.add(entry.lineno - 1)
        if exclusive:
            for entry in parsed.entries:
                if entry.name not in desired:
                    delete.add(entry.lineno - 1)
        missing = [p for n, p in desired.items() if not any(e.name == n for e in parsed.entries)]
        if missing:
            remaining = [e for e in parsed.entries if e.lineno - 1 not in delete]
            home = None
            if remaining:
                home = next(info for info in parsed.sections if remaining[0] in info.entries)
            elif parsed.sections:
                home = parsed.sections[0]
            if home is None:
                block = render_section(missing, newline=newline)
                # End the last line, then one blank line before the
                # section (removing a section at the end takes one
                # blank line with it, so adding and removing round-trips).
                tail = ""
                if lines and not _newline_of(lines[-1]):
                    tail += newline
                if lines:
                    tail += newline
                insert.setdefault(len(lines), []).append(tail + block)
            else:
                kept = [e for e in home.entries if e.lineno - 1 not in delete]
                end_index = (home.end or len(lines) + 1) - 1
                for policy in missing:
                    rank = NAMES.index(policy.name)
                    before = [e for e in kept if NAMES.index(e.name) < rank]
                    after = [e for e in kept if NAMES.index(e.name) > rank]
                    if before:
                        at = before[-1].lineno
                    elif after:
                        at = after[0].lineno - 1
                    else:
                        at = end_index
                    insert.setdefault(at, []).append(policy.render() + newline)
    else:
        names = _names_to_remove(policies, product, parsed)
        for entry in parsed.entries:
            if entry.name in names:
                delete.add(entry.lineno - 1)

    # A section that lost its last command goes as a whole.
    for info in parsed.sections:
        indexes = [e.lineno - 1 for e in info.entries]
        if not indexes or not any(i in delete for i in indexes):
            continue
        if info.others or any(i not in delete for i in indexes):
            continue
        end = info.end or len(lines)
        if any(info.header - 1 < at < end for at in insert):
            continue
        if any(lines[index].split()[:1] in (["%include"], ["%ksappend"])
               for index in range(info.header, end)):
            continue  # the included text may hold commands of the section
        for index in range(info.header - 1, end):
            delete.add(index)
        before = info.header - 2
        if before >= 0 and lines[before].strip() == "" and before not in delete \
                and all(i in delete for i in range(end, len(lines))):
            delete.add(before)

    out = []
    for index, line in enumerate(lines):
        out.extend(insert.get(index, ()))
        if index in delete:
            continue
        out.append(replace.get(index, line))
    out.extend(insert.get(len(lines), ()))
    new_text = "".join(out)

    if new_text == text:
        after = parsed
    else:
        try:
            after = parse_kickstart(new_text, release, validate=validate)
        except KickstartEditError as exc:
            raise KickstartEditError("the edited kickstart does not parse for %s: %s"
                                     % (release.name, exc))
        known = set(warnings_)
        warnings_.extend(w for w in after.warnings if w not in known)
    if after.sections:
        if release.support == SECTION_REMOVED:
            if validate:
                raise KickstartEditError(
                    "%s (to remove every policy, use state=absent without policies)"
                    % support_message(release), after.sections[0].header)
            warnings_.append("kickstart line %d: %s" % (after.sections[0].header,
                                                        support_message(release)))
        elif release.support == COMMAND_REMOVED:
            warnings_.append("kickstart line %d: %s" % (after.sections[0].header,
                                                        support_message(release)))
        elif release.support == DEPRECATED and after.entries:
            warnings_.append(deprecation_message(release))
    return EditResult(new_text, new_text != text, after.policies, parsed.policies,
                      warnings_, release, parsed, after)
