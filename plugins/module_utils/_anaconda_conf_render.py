# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writing password policies as an anaconda configuration drop-in.

The format and how our policy fields map onto it are described in
``_anaconda_conf``.  The same policies always give the same text.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf import (
    CHANGE_OPTIONS,
    OPTION,
    SECTION,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import one_line_problem
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import NAMES, Policy, PolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import ReleaseError, parse_release

INDENT = "    "
HEADER = (
    "# Anaconda configuration drop-in: installer password policies.\n"
    "# Managed by kickstart.pwpolicy.anaconda_conf; local edits are replaced.\n"
)
# The release the drop-in was written for, on the line after HEADER, so that
# a reader (anaconda_conf_info) applies that release's rules without being told.
TARGET_LINE = "# Written for installer release %s."
_TARGET_PREFIX, _TARGET_SUFFIX = TARGET_LINE.split("%s")


def target_of_line(line):
    """The release a :data:`TARGET_LINE` names (its pykickstart name), or None for any other line."""
    if not (line.startswith(_TARGET_PREFIX) and line.endswith(_TARGET_SUFFIX)):
        return None
    try:
        return parse_release(line[len(_TARGET_PREFIX):len(line) - len(_TARGET_SUFFIX)]).name
    except ReleaseError:
        return None


def written_for(text):
    """The release the drop-in ``text`` says it was written for, or None.

    Only the leading comment lines are read (the target line sits in the
    header), so the cost does not depend on the rest of the text.
    """
    for line in text.splitlines()[:len(HEADER.splitlines()) + 1]:
        name = target_of_line(line.rstrip())
        if name is not None:
            return name
        if not line.startswith("#"):
            return None
    return None


def render_policy_line(policy):
    """One ``password_policies`` line for a :class:`Policy` (no indent, no newline)."""
    attrs = ["quality %d" % policy.minquality, "length %d" % policy.minlen]
    if policy.strict:
        attrs.append("strict")
    if policy.emptyok:
        attrs.append("empty")
    return "%s (%s)" % (policy.name, ", ".join(attrs))


def _ordered(policies):
    if isinstance(policies, dict):
        policies = list(policies.values())
    for item in policies:
        if not isinstance(item, Policy):
            raise TypeError("expected Policy objects, got %r" % (item,))
    names = [p.name for p in policies]
    for name in set(names):
        if names.count(name) > 1:
            raise PolicyError("policy %r is given more than once" % name)
    return sorted(policies, key=lambda p: NAMES.index(p.name))


def render_conf(policies, target=None):
    """The drop-in text for an iterable or mapping of :class:`Policy` objects.

    Returns ``(text, warnings)``.  Options are written in a fixed order so the
    same policies always give the same bytes.  ``target``, a release name,
    is recorded in the header (:data:`TARGET_LINE`).
    """
    ordered = _ordered(policies)
    if target is not None and (not isinstance(target, str) or one_line_problem(target)):
        raise PolicyError("target must be a release name on one line (it goes on a comment line of the drop-in)")
    if not ordered:
        raise PolicyError("no policies to write: give at least one of %s" % ", ".join(NAMES))
    warnings = []
    lines = [HEADER.rstrip("\n")]
    if target is not None:
        lines.append(TARGET_LINE % target)
    lines.append("[%s]" % SECTION)
    by_name = dict((p.name, p) for p in ordered)
    for name in ("root", "user"):
        if name in by_name:
            lines.append("%s = %s" % (CHANGE_OPTIONS[name], "True" if by_name[name].changesok else "False"))
    if "luks" in by_name and by_name["luks"].changesok:
        warnings.append(
            "policy 'luks': changesok has no anaconda configuration option (only root and "
            "user accounts have can_change_root / can_change_users); it is not written")
    lines.append("%s =" % OPTION)
    for policy in ordered:
        lines.append(INDENT + render_policy_line(policy))
    return "\n".join(lines) + "\n", warnings
