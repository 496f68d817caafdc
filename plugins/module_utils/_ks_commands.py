# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A kickstart command's options as the target release's pykickstart reads them.

pykickstart reads a command's options with ``argparse``, which takes any
unambiguous prefix of a long option (``--passp=x`` is ``--passphrase=x``,
``--iscr`` is ``--iscrypted``).  :func:`resolve` resolves an option word with
the command's own parser (:func:`parser_of`) of a release's handler
(:func:`handler_for`), so a reader never matches options by name; and
:func:`parse_known` reads a command's words with that parser, so that options
which share a destination (``--iscrypted`` and ``--plaintext``) resolve as the
installer resolves them: the last one given wins.  Used on the controller
(the role's secret checks) and on the node (``ks_secrets_info``).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import warnings

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import kickstart_release
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import _pykickstart_version
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_section import HAS_PYKICKSTART, ks_version


class NoParser(Exception):
    """pykickstart is not installed where the check runs."""


_HANDLERS = {}


def handler_for(target):
    """The pykickstart handler of ``target`` (DEVEL when none is given or pykickstart does not know it)."""
    if not HAS_PYKICKSTART:
        raise NoParser("pykickstart is not installed")
    try:
        version = _pykickstart_version(kickstart_release(target)) if target else ks_version.DEVEL
    except Exception:  # pylint: disable=broad-except
        version = ks_version.DEVEL  # the target itself is reported by the policy check
    if version not in _HANDLERS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _HANDLERS[version] = ks_version.makeVersion(version)
    return _HANDLERS[version]


def parser_of(handler, command):
    """The option parser of ``command`` in ``handler``, or None (unknown command, or one without a parser)."""
    found = handler.commands.get(command)
    return getattr(found, "op", None) if found is not None else None


def resolve(parser, word):
    """The actions ``word`` (``--opt``, ``--opt=value``, an abbreviation) may stand for in ``parser``."""
    name = word.split("=", 1)[0]
    actions = getattr(parser, "_option_string_actions", {})
    if name in actions:
        return [actions[name]]
    if not getattr(parser, "allow_abbrev", True):
        return []
    try:
        tuples = parser._get_option_tuples(word)  # pylint: disable=protected-access
    except Exception:  # pylint: disable=broad-except
        return []  # pykickstart refuses the word itself
    return [found[0] for found in tuples if found and found[0] is not None]


def parse_known(parser, words):
    """What ``parser`` makes of a command's ``words`` (the command word left out): argparse's namespace, as
    pykickstart's ``parse_known_args`` gives it to the command (words it does not know are left out).

    Of two options that store to one destination (``--iscrypted`` and ``--plaintext``: ``isCrypted``) the last
    one given wins.  None when the parser refuses the words (a required option missing, a value of the wrong
    type): its message may quote a value, so it is never passed on.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # deprecated options: the installer only warns
            return parser.parse_known_args(list(words))[0]
    except Exception:  # pylint: disable=broad-except
        return None
