# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The files the audit reads beside the inventory: kickstarts and templates, each secret one finding.

The audit playbook's ``kickstart_audit_paths`` are glob patterns (``**``
included), relative to the directory ``ansible-playbook`` runs in; a file is
read as an unrendered template when its name ends in one of
:data:`TEMPLATE_SUFFIXES` or it matches a pattern of
``kickstart_audit_templates``.

The patterns are expanded here as :mod:`glob` expands them (``*``, ``?``,
``[...]``, ``**`` for any number of directories, a name starting with a dot
matched only by a part starting with one), but without recursion and without
leaving the tree a pattern names.  Its fixed part (the directories before the
first wildcard) is taken as given, links included; below it, ``**`` never
follows a symbolic link to a directory, and no link whose target lies outside
the fixed part is followed (a directory is skipped, with one warning; a file
is an ``error`` finding).  So links make no cycle and no way out, a tree of
any depth is walked, and the directories walked are bounded
(:data:`MAX_DIRECTORIES`).  A directory that cannot be listed is an ``error``
finding of its own, and the rest of the tree is still read.

Each file is read as the ``ks_secrets_info`` module reads one
(``module_utils._files`` and ``module_utils._ks_secrets``, their only home),
on the controller.

Every secret becomes a finding of the audit's shape (``host`` null, ``file``
and ``line`` set, plus the secret's ``command``, ``account``, ``form``,
``scheme``, ``cost``, ``tried`` and the ids of its ``findings``), whose
``verdict`` is its worst finding's level in :data:`LEVELS`, so that
``kickstart_fail_on`` judges a file's secret as it judges a host's.  A file
that cannot be read and a pattern that matches no file are ``error``
findings.  Nothing here holds a secret, a hash or a line of a file: reasons
and hints are the module's own words.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import errno
import fnmatch
import os
import re

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError, plain_type
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._files import decode_text, read_bytes
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._known_weak import DEFAULT_BUDGET, check_budget
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_secrets import (
    read_secrets, template_look, template_look_message)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.judge import judge
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.kickstart import read_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._profiles import (
    PROFILES,
    TARGETS,
    profile_name,
    suggestion,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import VERDICTS

# Names of unrendered templates: Foreman (ERB), Jinja, Cobbler and Terraform conventions.
TEMPLATE_SUFFIXES = (".erb", ".j2", ".jinja", ".jinja2", ".tmpl", ".tpl", ".tftpl")
# More files than any repository of kickstarts holds: refused, with what to do.
MAX_FILES = 10000
# More directories than the patterns of any repository of kickstarts walk, all patterns together: refused too.
MAX_DIRECTORIES = 100000

# What each finding of a file's secret weighs: the one place it is decided.  A
# secret's verdict is its worst finding's level (none: accepted), and
# kickstart_fail_on judges it as it judges a host's secret: rejected fails
# under rejected and weak, accepted_weak under weak only.
LEVELS = {
    "plaintext": "rejected",       # anyone who can read the file has the secret
    "known_weak": "rejected",      # the hash opens with a password attackers try first
    "policy": "rejected",          # a common or short password, or a scheme the profile forbids
    "legacy_scheme": "accepted_weak",  # the password may be strong; its hash is fast to attack
    "low_cost": "accepted_weak",       # the same, for rounds or cost below the minimum
}
# The finding of a file that cannot be read (verdict error), and of a pattern that matches no file.
UNREADABLE = "unreadable"
NO_MATCH = "no_match"
# A secret the reader cannot judge: a value the template fills in, a hash no scheme reads.  Never accepted.
NOT_CHECKED = "not_checked"
UNPARSED = "unparsed"
# What the judge finds against kickstart_audit_profile (the rule ids are the profile's own).
DEVIATION = "deviation"
_FORM_WORDS = {
    NOT_CHECKED: ("the template fills the value in, so it is not checked here",
                  "check the value where it is kept (a vault) with the audit over hosts or check_secrets"),
    UNPARSED: ("given as a hash (--iscrypted), but no hashing scheme reads it: the installer writes it as it is, "
               "and no password opens the account",
               "write a crypt hash (yescrypt or sha512crypt) made from a vaulted password, or lock the account"),
}

# The rules of the SARIF report, in its order: id, name, what it means, what to do.
RULES = (
    ("plaintext", "PlaintextSecret",
     "A password, passphrase or credential written in the clear",
     "Anyone who can read the file, or fetch it from the server that installs from it, has the secret.",
     "Write a crypt hash (yescrypt or sha512crypt) made from a vaulted password, or render the value from a "
     "vault at deploy time and keep it out of the repository."),
    ("legacy_scheme", "LegacyHashScheme",
     "A password hash in a legacy scheme (DES, MD5 crypt and the others libxcrypt no longer counts as strong)",
     "An attacker who has the file tries passwords against the hash far faster than against yescrypt or "
     "sha512crypt.",
     "Choose a new password and hash it with yescrypt or sha512crypt."),
    ("low_cost", "LowHashCost",
     "A password hash with rounds or cost below the scheme's default or the profile's minimum",
     "Each guess costs an attacker less than the scheme's default (or the profile) asks.",
     "Hash the password again at the default rounds or cost, or more."),
    ("known_weak", "KnownWeakPassword",
     "A password hash of a password from the list of likely ones",
     "The hash is of a tool's default, a word of the file, a common password or a usual variation of one: "
     "among the first passwords an attacker tries.",
     "Choose a new, random password, keep it in a vault and hash it again."),
    ("policy", "PolicyViolation",
     "A password that is common, a tool's default, a word of the file or too short, or a scheme the profile "
     "forbids",
     "The secret breaks the rules a password in the file must keep.",
     "Choose a random password, keep it in a vault and write its hash."),
    (UNPARSED, "UnparsedHash",
     "A value given as a hash that no hashing scheme reads",
     "The installer writes the value as the account's hash as it is: no password opens the account, and a "
     "placeholder a harness should have filled in may have been left.",
     "Write a crypt hash (yescrypt or sha512crypt) made from a vaulted password, or lock the account."),
    (NOT_CHECKED, "NotChecked",
     "A value a template fills in, or a part of the file the audit cannot read, so nothing judged it",
     "Whatever the template puts there reaches the installer unchecked by this audit.",
     "Check the value where it is kept (a vault), or audit the rendered kickstart."),
    (DEVIATION, "ProfileDeviation",
     "What the kickstart would make of the system breaks a rule of kickstart_audit_profile",
     "Read as the installer will read it, the kickstart does not meet the compliance profile: the result names "
     "the rule id, what was expected and what was found.",
     "Change the line as the result says, or waive the rule for the file in kickstart_audit_baseline."),
    (UNREADABLE, "UnreadableFile",
     "A file the audit cannot read as a kickstart or template",
     "The file is not a regular UTF-8 text file within the size and line limits, so its secrets were not "
     "checked.",
     "Give the right file, or leave it out of kickstart_audit_paths."),
)
_LEVELS_OF_RULES = dict(LEVELS)
_LEVELS_OF_RULES.update({UNREADABLE: "error", UNPARSED: UNPARSED, NOT_CHECKED: NOT_CHECKED, DEVIATION: "rejected"})


class AuditFilesError(PwpolicyError):
    """The audit's paths or templates are of the wrong shape, or match too many files."""


def patterns_of(value, what):
    """``value`` (a list of glob patterns, or one string of comma-separated ones) as a list of patterns."""
    if value is None:
        return []
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, (list, tuple)):
        raise AuditFilesError("%s must be a list of glob patterns (or one string of comma-separated ones), got %s"
                              % (what, plain_type(value)))
    patterns = []
    for index, pattern in enumerate(value):
        if not isinstance(pattern, str):
            raise AuditFilesError("%s[%d] must be a glob pattern (a string), got %s"
                                  % (what, index, plain_type(pattern)))
        if "\0" in pattern:
            raise AuditFilesError("%s[%d] holds a NUL character; give a path or glob pattern" % (what, index))
        pattern = pattern.strip()
        if pattern:
            patterns.append(pattern)
    return patterns


def is_template(path, templates=()):
    """Whether ``path`` is read as an unrendered template: by its name's ending, or a pattern of ``templates``."""
    if path.lower().endswith(TEMPLATE_SUFFIXES):
        return True
    return any(fnmatch.fnmatchcase(path, pattern) or fnmatch.fnmatchcase(os.path.basename(path), pattern)
               for pattern in templates)


_MAGIC = re.compile(r"[*?[]")


class _Walk(object):
    """The walk of one run's patterns: the directories listed, the errors and the links not followed."""

    def __init__(self):
        self.directories = 0
        self.problems = []  # error findings of paths (a directory that cannot be listed, a link out of the tree)
        self.outside = []   # links to directories outside the tree, not followed
        self._told = set()

    def problem(self, path, reason, hint):
        """An ``error`` finding of ``path`` (once, however many patterns reach it)."""
        if path not in self._told:
            self._told.add(path)
            self.problems.append(unreadable(path, reason, hint))

    def not_followed(self, path):
        """A link to a directory outside the tree, left out (said once)."""
        if path not in self._told:
            self._told.add(path)
            self.outside.append(path)

    def listing(self, directory, pattern):
        """The entries of ``directory``, sorted by name; a directory that cannot be listed is a finding."""
        self.directories += 1
        if self.directories > MAX_DIRECTORIES:
            raise AuditFilesError("kickstart_audit_paths walk more than %d directories (pattern %r); no repository of "
                                  "kickstarts has that many: narrow the patterns (a fixed directory before the "
                                  "first wildcard, ** only below it)" % (MAX_DIRECTORIES, pattern))
        try:
            with os.scandir(directory or os.curdir) as entries:
                return sorted(entries, key=lambda entry: entry.name)
        except OSError as exc:
            if exc.errno not in (errno.ENOENT, errno.ENOTDIR):  # gone, or never a directory: nothing to read
                shown = directory or os.curdir
                self.problem(shown, "directory %s cannot be read: %s; the files below it were not checked"
                             % (shown, exc.strerror or type(exc).__name__),
                             "make the directory readable by the user the audit runs as, or narrow the pattern %s"
                             % pattern)
            return []


def _split(pattern):
    """``(fixed, parts, directories only)`` of a pattern: the directory before its first wildcard, the parts from
    the wildcard on (None, without one) and whether it ends in a slash."""
    parts = pattern.split(os.sep)
    for index, part in enumerate(parts):
        if _MAGIC.search(part):
            fixed = os.sep.join(parts[:index]) or (os.sep if pattern.startswith(os.sep) else "")
            rest = []
            for part in parts[index:]:
                if part and not (part == "**" and rest and rest[-1] == "**"):  # ** twice is ** once
                    rest.append(part)
            if rest[-1] == "**":
                rest.append("*")  # a last ** matches every file below: **/* (directories are left out)
            return fixed, rest, parts[-1] == ""
    return None, None, False


def _inside(path, root):
    real = os.path.realpath(path)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _expand(pattern, walk):
    """The paths ``pattern`` matches that are not directories, as :func:`collect` describes; iterative."""
    fixed, parts, directories_only = _split(pattern)
    if parts is None:  # no wildcard: the path as given, through any link
        if os.path.lexists(pattern) and not os.path.isdir(pattern):
            yield pattern
        return
    if directories_only:  # a pattern ending in a slash matches directories only, and no directory is read
        return
    root = os.path.realpath(fixed or os.curdir)
    join = os.path.join
    # (directory, index of the part to match in it, its entries when already listed)
    stack, seen = [(fixed, 0, None)], set()
    while stack:
        directory, index, entries = stack.pop()
        if (directory, index) in seen:  # one directory reached twice for one part (**/*/** and the like)
            continue
        seen.add((directory, index))
        part, last = parts[index], index == len(parts) - 1
        if entries is None and (part == "**" or _MAGIC.search(part)):
            entries = walk.listing(directory, pattern)
        found = []
        if part == "**":  # no directory more (the next part, here), or one more real directory (never a link)
            found.append((directory, index + 1, entries))
            found.extend((join(directory, entry.name), index, None) for entry in entries
                         if not entry.name.startswith(".") and entry.is_dir(follow_symlinks=False))
        else:
            if entries is not None:
                hidden = part.startswith(".")
                matched = [(join(directory, entry.name), entry.is_symlink(), entry.is_dir()) for entry in entries
                           if (hidden or not entry.name.startswith(".")) and fnmatch.fnmatchcase(entry.name, part)]
            else:
                path = join(directory, part)
                matched = [(path, os.path.islink(path), os.path.isdir(path))] if os.path.lexists(path) else []
            for path, link, is_dir in matched:
                if link and not _inside(path, root):
                    if is_dir and not last:
                        walk.not_followed(path)
                    elif not is_dir and last:
                        walk.problem(path, "%s is a symbolic link that leads outside %s, where the pattern %s starts; "
                                     "not read" % (path, fixed or os.curdir, pattern),
                                     "name the file itself (or the link, without a wildcard) in kickstart_audit_paths, "
                                     "or remove the link")
                elif last:
                    if not is_dir:
                        yield path
                elif is_dir:
                    found.append((path, index + 1, None))
        stack.extend(reversed(found))  # depth first, in name order


def collect(patterns, templates=(), walk=None):
    """``(files, unmatched)``: the files ``patterns`` match, each ``(path, template)``, and the patterns matching none.

    Paths are as the patterns give them (a relative pattern gives paths
    relative to the current directory), normalized, each once, in pattern
    order and sorted within a pattern.  Directories a pattern matches are left
    out; anything else (a FIFO, a device) is kept, for the reader to refuse.
    ``walk`` (a :class:`_Walk`) gets the findings of paths that cannot be
    walked and the links not followed; more than :data:`MAX_FILES` files or
    :data:`MAX_DIRECTORIES` directories raise :class:`AuditFilesError`.
    """
    walk = _Walk() if walk is None else walk
    files, seen, unmatched = [], set(), []
    for pattern in patterns:
        matches = []
        for found in _expand(os.path.expanduser(pattern), walk):
            matches.append(os.path.normpath(found))
            if len(matches) + len(files) > MAX_FILES:
                raise AuditFilesError("kickstart_audit_paths match more than %d files (pattern %r); no repository of "
                                      "kickstarts holds that many: narrow the patterns" % (MAX_FILES, pattern))
        if not matches:
            unmatched.append(pattern)
        for path in sorted(matches):
            if path not in seen:
                seen.add(path)
                files.append((path, is_template(path, templates)))
    return files, unmatched


# The commands whose only secret is a URL's credentials: one without a plain account name is named for them.
URL_COMMANDS = ("url", "repo", "liveimg", "ostreesetup", "ostreecontainer")


def secret_label(command, account):
    """How a file's secret is named in the reports: ``rootpw``, ``user:alice``, ``bootloader``, ``url:admin``,
    and ``url credentials`` where the URL's user part may be a token (never shown)."""
    if account and command not in ("rootpw", "bootloader"):
        return "%s:%s" % (command, account)
    if command in URL_COMMANDS:
        return "%s credentials" % command
    return command


def verdict_of(ids):
    """A secret's verdict from the ids of its findings: its worst finding's level in :data:`LEVELS`."""
    levels = [_LEVELS_OF_RULES[finding] for finding in ids] or ["accepted"]
    return max(levels, key=VERDICTS.index)


def secret_ids(secret):
    """The ids of a secret's findings, with :data:`NOT_CHECKED` for a value the template fills in and
    :data:`UNPARSED` for a hash no scheme reads (neither is ever accepted)."""
    ids = [finding["id"] for finding in secret["findings"]]
    if secret["form"] == "template":
        ids.append(NOT_CHECKED)
    elif secret["form"] == "crypt" and secret["scheme"] is None:
        ids.append(UNPARSED)
    return ids


def _finding(path, line, label, verdict, reasons, hints, ids, secret=None):
    found = {"host": None, "secret": label, "verdict": verdict, "ok": verdict in ("accepted", "accepted_weak"),
             "score": None, "strength": None, "reasons": list(reasons), "hints": list(hints), "policy": None,
             "file": path, "line": line, "command": None, "account": None, "form": None, "scheme": None,
             "cost": None, "tried": None, "findings": list(ids)}
    if secret is not None:
        found.update((key, secret[key]) for key in ("command", "account", "form", "scheme", "cost", "tried"))
    return found


def unreadable(path, reason, hint, line=None):
    """The ``error`` finding of a file that cannot be read (``line``: the line the reading stopped at)."""
    return _finding(path, line, "file", "error", [reason], [hint], [UNREADABLE])


def unmatched(pattern):
    """The ``error`` finding of a pattern that matches no file (so a moved directory cannot pass unnoticed)."""
    return _finding(pattern, None, "pattern", "error",
                    ["matches no file (relative patterns are read from the directory ansible-playbook runs in: %s)"
                     % os.getcwd()],
                    ["correct the pattern, or leave it out of kickstart_audit_paths"], [NO_MATCH])


def file_findings(path, template=False, budget=DEFAULT_BUDGET, threads=None, warnings=None, profiles=(),
                  target=None, looks=None):
    """The findings of the file ``path``: one per secret, in file order, or one ``error`` finding; with
    ``profiles``, the judge's findings after them (:func:`profile_findings`).

    ``warnings`` (a list) gets the reader's warnings (a node without
    libxcrypt); ``looks`` (a list) gets ``(path, (line, kind))`` when a file
    read as a kickstart looks like an unrendered template
    (``_ks_secrets.template_look``).  Never raises for what the file holds.
    """
    try:
        data = read_bytes(path, what="file")
        if data is None:
            return [unreadable(path, "file %s does not exist (a symbolic link to nothing, or removed while the audit "
                               "ran)" % path, "correct the link, or run the audit again")]
        text = decode_text(data, path, what="file")
        # Judged for kickstart_audit_target, a file's secrets are read for it too (one reading serves both).
        report = read_secrets(text, template=template, target=target if profiles else None, budget=budget,
                              threads=threads)
    except PwpolicyError as exc:  # the readers' messages name the file or line, never a value of it
        return [unreadable(path, str(exc), "give a kickstart or template (UTF-8 text, at most 16 MiB, 2,000 command "
                           "lines, 500 secrets), or leave the file out of kickstart_audit_paths", exc.lineno)]
    except Exception as exc:  # pylint: disable=broad-except
        # An error of the reader itself: its message could quote the file, so only its kind is told.
        return [unreadable(path, "could not be read (%s)" % type(exc).__name__,
                           "run the ks_secrets_info module on this file to see the error, and report it")]
    if warnings is not None:
        warnings.extend(message for message in report.warnings if message not in warnings)
    look = None if template or looks is None else template_look(report.read[3], report.read[4])
    if look:
        looks.append((path, look))
    found = []
    for secret in report.to_list():
        ids = secret_ids(secret)
        extra = [_FORM_WORDS[kind] for kind in ids if kind in _FORM_WORDS]
        found.append(_finding(path, secret["line"], secret_label(secret["command"], secret["account"]),
                              verdict_of(ids), [finding["reason"] for finding in secret["findings"]]
                              + [reason for reason, dummy in extra],
                              [finding["hint"] for finding in secret["findings"]] + [hint for dummy, hint in extra],
                              ids, secret))
    if profiles:
        found.extend(profile_findings(path, text, template, profiles, target, report.read))
    return found


def profile_findings(path, text, template, profiles, target=None, read=None):
    """The judge's findings of one file against ``profiles`` (names) for ``target`` (None: its ``#version=``
    line): one ``rejected`` finding per deviation and one ``not_checked`` finding per value it could not check,
    each named ``PROFILE:RULE`` with the rule ids; one ``error`` finding when the file names no release a profile
    has.  ``read``: the text as the secrets' reader read it (read again without it)."""
    try:
        posture = read_kickstart(text, target, template=template, read=read)
    except PwpolicyError as exc:
        return [unreadable(path, str(exc), "give a kickstart or template, or leave the file out", exc.lineno)]
    release = target or posture["target"]
    if release not in TARGETS:
        why = "it is for %s" % release if release else "it names no release"
        return [_finding(path, None, "profile", "error",
                         ["cannot be judged against %s: %s" % (", ".join(profiles), why)],
                         ["add a #version= line naming %s, or set kickstart_audit_target" % " or ".join(TARGETS)],
                         [DEVIATION])]
    judged = judge(posture, profiles, release, skip=())
    found = []
    for kind, entries in (("rejected", judged["deviations"]), (NOT_CHECKED, judged["not_checked"])):
        for entry in entries:
            name = entry["profile"].split(" ", 1)[0]
            where = entry.get("where") or {}
            if kind == "rejected":
                reasons = ["%s (%s asks %s)" % (entry["found"], entry["profile"], entry["expected"])]
                hints = [entry["fix"]]
            else:
                reasons, hints = [entry["reason"]], [_FORM_WORDS[NOT_CHECKED][1]]
            finding = _finding(path, where.get("line"), "%s:%s" % (name, entry["rule"]), kind, reasons, hints,
                               [DEVIATION if kind == "rejected" else NOT_CHECKED])
            finding["rules"] = list(entry["rules"])
            found.append(finding)
    return found


def _typo(name):
    """`` ('stgi', did you mean 'stig'?)`` for a typo of a profile name; nothing for any other name."""
    near = suggestion(name)
    if near is None:
        return ""
    return " (%r, did you mean %s%s?)" % (name.strip(), "one of " if len(near) > 1 else "",
                                          ", ".join(repr(n) for n in near))


def _profile_names(value, what):
    """The profile names of ``value`` (a name, a comma-separated string or a list), validated; an unknown one is
    named by its position only (a value in the wrong variable could be a secret)."""
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, (list, tuple)) or not all(isinstance(name, str) for name in value):
        raise AuditFilesError("%s must be a profile name, a list of them or a mapping of patterns to them, got %s"
                              % (what, plain_type(value)))
    given = [name for name in value if name.strip()]
    names = [profile_name(name) for name in given]  # any case
    # A typo of a profile name is shown with the names it is close to (module_utils/_profiles.py, suggestion).
    unknown = ["%s[%d]%s" % (what, index, _typo(given[index])) for index, name in enumerate(names) if name is None]
    if unknown:
        verb = "is" if len(unknown) == 1 else "are"
        raise AuditFilesError("%s %s no compliance profile; give %s" % (", ".join(unknown), verb, ", ".join(PROFILES)))
    return names


def profile_plan(value, what="kickstart_audit_profile"):
    """``[(pattern, names)]`` from ``kickstart_audit_profile``: names for every file (pattern None), or a mapping
    of glob patterns to names (the first pattern a file's path or name matches applies)."""
    if value is None or value == "" or value == []:
        return []
    if isinstance(value, dict):
        return [(pattern, _profile_names(names, "%s[%s]" % (what, pattern))) for pattern, names in value.items()]
    return [(None, _profile_names(value, what))]


def profiles_for(path, plan):
    """The profile names ``plan`` gives the file ``path`` (empty: none)."""
    for pattern, names in plan:
        if pattern is None or fnmatch.fnmatch(path, pattern) or fnmatch.fnmatch(os.path.basename(path), pattern):
            return names
    return []


BASELINE_KEYS = ("rule", "file", "reason")


def read_baseline(path, what="kickstart_audit_baseline"):
    """The waivers of a baseline file: a YAML or JSON list of ``{rule, file, reason}`` (``rule`` a finding's id
    such as ``plaintext`` or a profile's rule id, ``file`` a glob pattern of the paths as reported, ``reason`` why
    it is waived).  AuditFilesError names the entry and the key that is wrong, never a value."""
    if path is None or path == "":
        return []
    import yaml  # the controller has it: ansible-core needs it
    try:
        data = read_bytes(path, what=what)
        if data is None:
            raise AuditFilesError("%s %s does not exist; give the path of the baseline file" % (what, path))
        entries = yaml.safe_load(decode_text(data, path, what=what))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise AuditFilesError("%s %s is no YAML or JSON list%s; give a list of {rule, file, reason}"
                              % (what, path, " (line %d)" % (mark.line + 1) if mark is not None else ""))
    except PwpolicyError as exc:
        raise AuditFilesError(str(exc))
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise AuditFilesError("%s %s must be a list of {rule, file, reason}, got %s" % (what, path, plain_type(entries)))
    for index, entry in enumerate(entries):
        label = "%s %s entry %d" % (what, path, index + 1)
        if not isinstance(entry, dict):
            raise AuditFilesError("%s must be a mapping with rule and file, got %s" % (label, plain_type(entry)))
        unknown = sorted(str(key) for key in entry if key not in BASELINE_KEYS)
        if unknown:
            raise AuditFilesError("%s has unknown keys %s; its keys are %s"
                                  % (label, ", ".join(unknown), ", ".join(BASELINE_KEYS)))
        for key in ("rule", "file"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise AuditFilesError("%s needs %s (text)" % (label, key))
        if "reason" in entry and not isinstance(entry["reason"], str):
            raise AuditFilesError("%s: reason must be text" % label)
    return entries


def apply_baseline(findings, entries):
    """Mark each finding a waiver of ``entries`` covers (its file matches the waiver's pattern and the waiver's
    rule is one of its ids or rule ids): ``waived`` true and ``waiver`` the reason.  A waived finding keeps its
    verdict and is still reported; it stops nothing.  Returns how many each entry waived."""
    used = [0] * len(entries)
    for finding in findings:
        if not finding.get("file"):
            continue
        ids = set(finding.get("findings") or ()) | set(finding.get("rules") or ())
        for index, entry in enumerate(entries):
            if entry["rule"] in ids and fnmatch.fnmatch(finding["file"], entry["file"]):
                finding["waived"] = True
                finding["waiver"] = entry.get("reason") or "waived by the baseline (no reason given)"
                used[index] += 1
                break
    return used


def audit_files(paths, templates=None, budget=None, threads=None, profile=None, target=None, baseline=None):
    """``(findings, files, warnings)`` for the patterns ``paths``: every secret of every file they match.

    ``files`` are the paths read (a file without a secret among them);
    a pattern that matches no file, a directory that cannot be listed and a
    link to a file outside a pattern's tree give ``error`` findings.
    ``profile`` (:func:`profile_plan`) judges each file against compliance
    profiles for ``target`` (None: the file's ``#version=`` line);
    ``baseline`` (:func:`read_baseline`) waives findings by rule and file.
    """
    try:
        budget = check_budget(budget)
    except PwpolicyError as exc:
        raise AuditFilesError(str(exc))
    plan = profile_plan(profile)
    if target not in (None, "") and target not in TARGETS:
        raise AuditFilesError("kickstart_audit_target must be one of %s (the releases the profiles have), got %s"
                              % (", ".join(TARGETS), target if isinstance(target, str) and len(target) < 16
                                 else plain_type(target)))
    waivers = read_baseline(baseline)
    walk = _Walk()
    collected, missing = collect(patterns_of(paths, "paths"), patterns_of(templates, "templates"), walk)
    findings, warnings = [unmatched(pattern) for pattern in missing] + walk.problems, []
    if walk.outside:
        warnings.append("kickstart_audit_paths: %d symbolic link%s to a directory outside the directory its pattern "
                        "starts in not followed (%s%s); name a linked directory before the first wildcard of a "
                        "pattern to read it" % (len(walk.outside), "s" if len(walk.outside) > 1 else "",
                                                ", ".join(walk.outside[:5]),
                                                " and %d more" % (len(walk.outside) - 5) if len(walk.outside) > 5
                                                else ""))
    looks = []
    for path, template in collected:
        findings.extend(file_findings(path, template, budget, threads, warnings, profiles_for(path, plan),
                                      target or None, looks))
    if looks:
        warnings.append(_looks_warning(looks))
    for entry, count in zip(waivers, apply_baseline(findings, waivers)):
        if not count:
            warnings.append("kickstart_audit_baseline: the waiver of %s for %s matched no finding; remove it if "
                            "the finding is fixed" % (entry["rule"], entry["file"]))
    return findings, [path for path, dummy in collected], warnings


def _looks_warning(looks):
    """One warning for every file read as a kickstart that looks like an unrendered template."""
    them = "it" if len(looks) == 1 else "them"
    how = ("name %s in kickstart_audit_templates, or give %s a template's name ending (%s)"
           % (them, them, ", ".join(TEMPLATE_SUFFIXES)))
    if len(looks) == 1:
        path, look = looks[0]
        return "file %s: %s" % (path, template_look_message(look, how))
    shown = ", ".join("%s (line %d, %s)" % (path, number, kind) for path, (number, kind) in looks[:5])
    more = " and %d more" % (len(looks) - 5) if len(looks) > 5 else ""
    return ("%d files read as rendered kickstarts look like unrendered templates (%s%s), so a value a template "
            "fills in would be judged as the value itself: %s" % (len(looks), shown, more, how))


def rule_level(rule):
    """The verdict a rule's findings get (``error`` for an unreadable file)."""
    return _LEVELS_OF_RULES[rule]
