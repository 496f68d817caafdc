# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Policies as an installer read them, next to the model of ``_policy``.

Installers took ``minlen``/``minquality`` from a kickstart or their
configuration as given, so what they read may lie outside the ranges a user
may ask the modules to write (``_policy.INT_FIELDS``).  :func:`read_policy`
makes a :class:`~_policy.Policy` when the values fit and a :class:`ReadPolicy`
when they do not; everything else is checked as for any policy.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from dataclasses import dataclass

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import (
    FIELDS,
    INT_FIELDS,
    Policy,
    check_name,
    convert_field,
)


@dataclass(frozen=True)
class ReadPolicy(Policy):
    """A policy as an installer read it from a kickstart or its configuration.

    Installers took ``minlen``/``minquality`` as given, so they may lie outside
    the ranges a user may ask for (:data:`INT_FIELDS`); everything else is
    checked as in :class:`Policy`.  Made by :func:`read_policy` only for such values.
    """

    def __post_init__(self):
        check_name(self.name)
        for field in FIELDS[1:]:
            value = getattr(self, field)
            if not (field in INT_FIELDS and _is_int(value)):
                object.__setattr__(self, field, convert_field(self.name, field, value))


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def out_of_range(field, value):
    """True when integer ``value`` of ``field`` lies outside the range users may write."""
    low, high = INT_FIELDS[field]
    return not low <= value <= high


def read_policy(**fields):
    """A :class:`Policy`, or a :class:`ReadPolicy` when an integer field is out of range."""
    lenient = any(_is_int(fields.get(f)) and out_of_range(f, fields[f]) for f in INT_FIELDS)
    return (ReadPolicy if lenient else Policy)(**fields)
