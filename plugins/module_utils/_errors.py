# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The one exception base of the collection.

Every error the collection raises on purpose is a :class:`PwpolicyError`: a
``ValueError`` whose message is safe to show (it never holds a secret) and
says what to do.  ``lineno`` is the 1-based line of the input the error is
about, when there is one.  Plugins catch this class once and turn it into
``fail_json`` or ``AnsibleFilterError``; anything else is a bug.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class PwpolicyError(ValueError):
    """A clear, secret-free error about the input, optionally at a line."""

    def __init__(self, message, lineno=None):
        super(PwpolicyError, self).__init__(message)
        self.message = message
        self.lineno = lineno

    def __str__(self):
        return self.message


def plain_type(value):
    """The type of ``value`` as a message names it: ``a string``, ``a number``, ``a boolean``, ``a list``, ``a mapping``...

    Never Python's class name: ansible-core 2.19 hands over tagged values
    (``_AnsibleTaggedInt``), whose names mean nothing to the user.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bytes):
        return "bytes"
    if isinstance(value, dict) or (hasattr(value, "keys") and hasattr(value, "__getitem__")):
        return "a mapping"
    if isinstance(value, (list, tuple, set, frozenset)):
        return "a list"
    return "a value of another type"
