# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Options nobody declared are refused, not ignored: the one check of the filters', tests' and lookups' keywords.

A misspelled ``blocklist=`` or ``file=`` must not silently drop the check or
the storage it asks for.  The message names the unknown option and the valid
ones: option names, never a value.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import functools
import inspect


def unknown_options(name, given, valid):
    """The message for the keywords of ``given`` that are not in ``valid`` (``name``: the plugin), or None."""
    unknown = sorted(str(key) for key in given if key not in valid)
    if not unknown:
        return None
    return "%s: unknown option%s %s; %s" % (
        name, "s" if len(unknown) > 1 else "", ", ".join(unknown),
        "its options are %s" % ", ".join(valid) if valid else "it takes no option")


def options_checked(name, error):
    """A decorator: the function's keyword arguments are checked against its own parameters (less the value the
    plugin is applied to), and an unknown one raises ``error`` with :func:`unknown_options`' message."""
    def wrap(func):
        valid = list(inspect.signature(func).parameters)[1:]

        @functools.wraps(func)
        def checked(*args, **kwargs):
            message = unknown_options(name, kwargs, valid)
            if message:
                raise error(message)
            return func(*args, **kwargs)
        return checked
    return wrap
