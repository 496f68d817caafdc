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
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import NAMES, Policy, PolicyError

INDENT = "    "
HEADER = (
    "# Anaconda configuration drop-in: installer password policies.\n"
    "# Managed by kickstart.pwpolicy.anaconda_conf; local edits are replaced.\n"
)


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


def render_conf(policies):
    """The drop-in text for an iterable or mapping of :class:`Policy` objects.

    Returns ``(text, warnings)``.  Options are written in a fixed order so the
    same policies always give the same bytes.
    """
    ordered = _ordered(policies)
    if not ordered:
        raise PolicyError("no policies to write: give at least one of %s" % ", ".join(NAMES))
    warnings = []
    lines = [HEADER.rstrip("\n"), "[%s]" % SECTION]
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
