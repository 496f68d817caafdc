# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The surgical editor of a kickstart's ``pwpolicy`` lines, and reading and rendering policies.

* :func:`edit_kickstart` changes only ``pwpolicy`` lines (and ``%anaconda``
  headers/ends when a section is added or removed) and keeps every other byte;
* :func:`read_policies` reads the policies in effect, with warnings;
* :func:`render_section` (from ``_policy``) renders a whole ``%anaconda`` section;
* :func:`section_regions` is what a diff shows of the sections (secrets hidden).

Every error is a :class:`~_ks_lines.KickstartEditError` (a ``PwpolicyError``).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from dataclasses import dataclass

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import (
    NEWLINES,
    KickstartEditError,
    comment_start,
    newline_of,
    kickstart_release,
    template_branches,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import ParsedKickstart, parse_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_validate import Splice, parse_edited
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import (
    NAMES,
    PolicyError,
    build_policies,
    normalize_policies,
    render_section,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._redact import redact_line
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import (
    COMMAND_REMOVED,
    DEPRECATED,
    SECTION_REMOVED,
    Release,
    deprecation_message,
    support_message,
)


@dataclass(frozen=True)
class EditResult:
    """The outcome of :func:`edit_kickstart`: the new text, the policies before and after, the warnings."""

    text: str
    changed: bool
    policies: dict
    previous: dict
    warnings: list
    release: Release
    parsed_before: ParsedKickstart
    parsed_after: ParsedKickstart


class ReadResult(object):
    """What :func:`read_policies` found: ``policies`` ``{name: Policy}``, ``warnings``, ``release``."""

    def __init__(self, policies, warnings_, release, parsed):
        self.policies = policies
        self.warnings = warnings_
        self.release = release
        self.parsed = parsed


# ---------------------------------------------------------------------------
# Rendering and reading
# ---------------------------------------------------------------------------

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


def _release_warnings(parsed, release, validate):
    """What the installer ``release`` does with the sections ``parsed`` holds, as warnings."""
    if not parsed.sections:
        return []
    where = "kickstart line %d: " % parsed.sections[0].header
    if release.support == SECTION_REMOVED:
        if validate:
            raise KickstartEditError(
                "%s (to remove every policy, use state=absent without policies)"
                % support_message(release), parsed.sections[0].header)
        return [where + support_message(release)]
    if release.support == COMMAND_REMOVED:
        return [where + support_message(release)]
    if release.support == DEPRECATED and parsed.entries:
        return [deprecation_message(release)]
    return []


def read_policies(text, target=None, validate=True):
    """The policies a kickstart puts in effect for ``target``, and warnings: a :class:`ReadResult`.

    Warnings name duplicates (and which one is in effect), pykickstart's
    complaints (without ``validate``) and what the target release does with
    the section.  Raises :class:`KickstartEditError`.
    """
    parsed = parse_kickstart(text, target, validate=validate)
    warnings_ = list(parsed.warnings)
    warnings_.extend(_template_warnings(parsed, _branches(parsed, validate)))
    warnings_.extend(_release_warnings(parsed, parsed.release, validate=False))
    return ReadResult(dict(parsed.policies), warnings_, parsed.release, parsed)


def _branches(parsed, validate):
    """``{lineno: branch}`` of the pwpolicy lines inside a Cheetah block of their section (templates only).

    Without ``validate`` the file may be a template (see ``_ks_parse.sections_only``); Cobbler's
    Cheetah puts ``#if``/``#else``/``#end if``, which pykickstart reads as comments, around lines.
    """
    if validate:
        return {}
    found = {}
    for info in parsed.sections:
        if not info.entries:
            continue
        branches = template_branches(parsed.lines[info.header:(info.end or len(parsed.lines) + 1) - 1])
        found.update((e.lineno, branches[e.lineno - info.header - 1]) for e in info.entries)
    return dict(item for item in found.items() if item[1])


def _template_warnings(parsed, branches):
    """A warning for each name with a pwpolicy line inside a template block."""
    found = []
    for name in sorted(set(e.name for e in parsed.entries if e.lineno in branches)):
        lines = [str(e.lineno) for e in parsed.entries if e.name == name]
        found.append("kickstart line%s %s: pwpolicy %s is inside a Cheetah block of the template (#if, #else, "
                     "#for ...), so which of its lines the installer gets depends on how the template is "
                     "rendered; each is edited in place and none is removed as a duplicate"
                     % ("s" if len(lines) > 1 else "", ", ".join(lines), name))
    return found


# ---------------------------------------------------------------------------
# Editing
# ---------------------------------------------------------------------------

class _Plan(object):
    """Line changes: ``replace`` index -> text, ``delete`` indexes, ``insert`` index -> texts before it."""

    def __init__(self, parsed, branches):
        self.parsed = parsed
        self.branches = branches  # {lineno: template branch} (see _branches)
        self.lines = parsed.lines
        # New lines end as the first line that ends in a newline (not a form feed, say).
        self.newline = next((newline_of(line) for line in self.lines if newline_of(line) in NEWLINES), "\n")
        self.replace = {}
        self.delete = set()
        self.insert = {}

    def add(self, index, text):
        self.insert.setdefault(index, []).append(text)

    def apply(self):
        """The :class:`Splice` of the changes (its ``text`` is the new kickstart)."""
        return Splice(self.lines, self.replace, self.delete, self.insert)


def _replace_line(line, policy):
    ending = newline_of(line)
    body = line[:len(line) - len(ending)]
    indent = body[:len(body) - len(body.lstrip(" \t"))]
    at = comment_start(body)
    comment = body[at:] if at is not None else ""
    if not comment and ending not in NEWLINES + ("",):
        # A form feed, NEL, U+2028 ... ends the line, but to the installer's shlex it is part of the
        # last word ("--emptyok\x0c" is no option): a comment keeps it out of the words.
        comment = " #"
    return indent + policy.render() + comment + ending


def _desired(policies, product, exclusive, release):
    if policies is None and product is None:
        raise KickstartEditError("state=present needs policies or product")
    try:
        desired = build_policies(policies, product=product, target=release.name)
    except PolicyError as exc:
        raise KickstartEditError(str(exc))
    if not desired and not exclusive:
        raise KickstartEditError("state=present needs at least one policy (or product)")
    return desired


def _plan_replacements(plan, desired, exclusive):
    """Replace the line in effect of each desired name; drop its duplicates (and, exclusive, others).

    Lines in different template branches are no duplicates: each branch keeps its line in effect.
    """
    parsed = plan.parsed
    for name, policy in desired.items():
        branches = {}
        for entry in parsed.entries:
            if entry.name == name:
                branches.setdefault(plan.branches.get(entry.lineno, ()), []).append(entry)
        for found in branches.values():
            keep = found[-1] if parsed.release.last_duplicate_wins else found[0]  # as effective_entry
            if keep.policy != policy:
                plan.replace[keep.lineno - 1] = _replace_line(plan.lines[keep.lineno - 1], policy)
            plan.delete.update(e.lineno - 1 for e in found if e is not keep)
    if exclusive:
        plan.delete.update(e.lineno - 1 for e in parsed.entries if e.name not in desired)


def _append_section(plan, missing):
    """A new section at the end, after one blank line (removal takes that line with it)."""
    lines = plan.lines
    tail = ""
    if lines and not newline_of(lines[-1]):
        tail += plan.newline
    if lines:
        tail += plan.newline
    plan.add(len(lines), tail + render_section(missing, newline=plan.newline))


def _insert_into(plan, home, missing):
    """Each missing policy into section ``home``, in anaconda's name order."""
    kept = [e for e in home.entries if e.lineno - 1 not in plan.delete and e.name in NAMES
            and e.lineno not in plan.branches]  # a new line never goes into a template branch
    end_index = (home.end or len(plan.lines) + 1) - 1
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
        plan.add(at, policy.render() + plan.newline)


def _plan_additions(plan, desired):
    parsed = plan.parsed
    present = set(e.name for e in parsed.entries)
    missing = [p for n, p in desired.items() if n not in present]
    if not missing:
        return
    remaining = [e for e in parsed.entries if e.lineno - 1 not in plan.delete]
    if remaining:
        home = next(info for info in parsed.sections if remaining[0] in info.entries)
    elif parsed.sections:
        home = parsed.sections[0]
    else:
        return _append_section(plan, missing)
    _insert_into(plan, home, missing)


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


def _section_emptied(plan, info):
    """True when ``info`` loses its last command and can go as a whole."""
    indexes = [e.lineno - 1 for e in info.entries]
    if not indexes or info.others or any(i not in plan.delete for i in indexes):
        return False
    end = info.end or len(plan.lines)
    if any(info.header - 1 < at < end for at in plan.insert):
        return False
    # An included file may hold commands of the section.
    return not any(plan.lines[index].split()[:1] in (["%include"], ["%ksappend"])
                   for index in range(info.header, end))


def _drop_empty_sections(plan):
    lines = plan.lines
    for info in plan.parsed.sections:
        if not _section_emptied(plan, info):
            continue
        end = info.end or len(lines)
        plan.delete.update(range(info.header - 1, end))
        before = info.header - 2
        if before >= 0 and lines[before].strip() == "" and before not in plan.delete \
                and all(i in plan.delete for i in range(end, len(lines))):
            plan.delete.add(before)


def _reparse(splice, text, parsed, release, validate):
    """The parse of the edited text: its changed sections when that proves it valid, else all of it."""
    new_text = splice.text
    if new_text == text:
        return parsed
    if validate:
        # The input passed the full parse: see _ks_validate for why its
        # sections decide.  Without validate the input may not parse at
        # all, and the whole new text is parsed as before.
        after = parse_edited(parsed, splice)
        if after is not None:
            return after
    try:
        return parse_kickstart(new_text, release, validate=validate)
    except KickstartEditError as exc:
        raise KickstartEditError("the edited kickstart does not parse for %s: %s" % (release.name, exc))


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
    for the target.  Without it the text may be a template: lines of one name
    in different branches of a Cheetah block (``#if``/``#else``) are no
    duplicates, each is replaced in place (with a warning), and a new line
    never goes into a block.  Raises :class:`KickstartEditError`.
    """
    if state not in ("present", "absent"):
        raise KickstartEditError("state must be present or absent, got %r" % (state,))
    release = kickstart_release(target, text)
    if state == "present" and support_message(release):
        raise KickstartEditError(support_message(release))
    parsed = parse_kickstart(text, release, validate=validate)
    plan = _Plan(parsed, _branches(parsed, validate))
    if state == "present":
        desired = _desired(policies, product, exclusive, release)
        _plan_replacements(plan, desired, exclusive)
        _plan_additions(plan, desired)
    else:
        names = _names_to_remove(policies, product, parsed)
        plan.delete.update(e.lineno - 1 for e in parsed.entries if e.name in names)
    _drop_empty_sections(plan)
    splice = plan.apply()
    new_text = splice.text
    if any(line.endswith("\r") and following.startswith("\n") for line, following in zip(splice.lines, splice.lines[1:])):
        raise KickstartEditError(
            "the edit would join two lines (a line ending in a lone CR and a line starting with LF): "
            "give the kickstart one kind of line ending (LF or CR LF) and run again")
    after = _reparse(splice, text, parsed, release, validate)
    warnings_ = list(parsed.warnings)
    warnings_.extend(w for w in after.warnings if w not in set(parsed.warnings))
    warnings_.extend(_template_warnings(after, _branches(after, validate)))
    warnings_.extend(_release_warnings(after, release, validate))
    return EditResult(new_text, new_text != text, after.policies, parsed.policies,
                      warnings_, release, parsed, after)
