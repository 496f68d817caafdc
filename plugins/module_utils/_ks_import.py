# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""pykickstart's ``load`` module imported on its first use, not with pykickstart.

``pykickstart.version`` and ``pykickstart.parser`` import ``load_to_str`` from
``pykickstart.load``, which imports ``requests`` (and with it urllib3, ssl,
charset_normalizer...) to fetch an ``%include`` or ``ksflatten`` input over
the network.  The modules here never fetch anything, yet paid that import at
every run: about 90 ms of CPU, a quarter of a module run.  :func:`defer_load`
puts a small stand-in in its place before pykickstart is imported: its
``load_to_str`` and ``load_to_file`` import the real module when first called
and hand over to it, and any other name (PEP 562 ``__getattr__``) does the
same, so whatever pykickstart asks of it still works, only later.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import importlib
import sys
import types

NAME = "pykickstart.load"


def _real(stand_in):
    """The real ``pykickstart.load``, imported in place of ``stand_in`` the first time it is needed."""
    module = sys.modules.get(NAME)
    if module is None or module is stand_in:
        sys.modules.pop(NAME, None)
        module = importlib.import_module(NAME)
    return module


def defer_load():
    """Put the stand-in for ``pykickstart.load`` in place, unless pykickstart's is imported already."""
    if NAME in sys.modules:
        return
    stand_in = types.ModuleType(NAME)

    def load_to_str(*args, **kwargs):
        return _real(stand_in).load_to_str(*args, **kwargs)

    def load_to_file(*args, **kwargs):
        return _real(stand_in).load_to_file(*args, **kwargs)

    def attribute(name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(_real(stand_in), name)

    stand_in.load_to_str = load_to_str
    stand_in.load_to_file = load_to_file
    stand_in.__getattr__ = attribute
    sys.modules[NAME] = stand_in


def undo():
    """Take the stand-in away again (pykickstart could not be imported)."""
    module = sys.modules.get(NAME)
    if isinstance(module, types.ModuleType) and getattr(module, "__file__", None) is None:
        sys.modules.pop(NAME, None)
