# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Which words of a kickstart command line carry a secret, as the target's pykickstart reads them.

pykickstart reads a command's options with ``argparse``, which takes any
unambiguous prefix of a long option (``--passp=x`` is ``--passphrase=x``).
So the options are never matched by name here: each option word is resolved
by the command's own parser for the target release, and what it resolves to
decides.  An option carries a secret when it takes a value and its name says
so (``--passphrase``, ``--password``, ``--hw-passphrase``, ``--md5pass``,
``--wpakey``, ``--activation-key``...), or when it says how a password is
written (``--iscrypted``, ``--plaintext``).  A command whose parser has
``--plaintext`` but no password option (``rootpw``, ``sshpw``) takes the
password as its argument.  A URL with a user or password in it
(``https://user:pass@host``) is a secret wherever it appears.

:func:`secret_words` returns, for one line, what carries a secret, as
descriptions that name the command and the option as written, never a value.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_commands import (  # noqa: F401 pylint: disable=unused-import
    NoParser,
    handler_for,
    parser_of,
    resolve,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import split_words

# An option whose name (or destination) says it holds a secret, when it takes a value.
SECRET_NAME_RE = re.compile(r"pass|pw|secret|token|wpakey|wepkey|activation.?key", re.I)
# A flag that says how a password on the line is written.
PASSWORD_FORM_RE = re.compile(r"iscrypted|plaintext", re.I)
# A URL with a user (and maybe a password) before the host.  Anchored on "://" without the scheme, so
# that a search never backtracks over a long word: each attempt ends at the next "/".
URL_CREDENTIALS_RE = re.compile(r"://[^/?#@\s]*@")


def _names(action):
    return list(action.option_strings) + [str(action.dest)]


def is_secret_option(action):
    """Whether the option ``action`` holds a secret, or says how a password on its line is written."""
    if any(PASSWORD_FORM_RE.search(name) for name in _names(action)):
        return True
    return action.nargs != 0 and any(SECRET_NAME_RE.search(name) for name in _names(action))


def takes_password_argument(parser):
    """Whether the command takes a password as its argument (``rootpw``, ``sshpw``): it has ``--plaintext``
    but no option that holds the password."""
    actions = [action for action in parser._actions if action.option_strings]  # pylint: disable=protected-access
    plaintext = any("--plaintext" in action.option_strings for action in actions)
    return plaintext and not any(action.nargs != 0 and is_secret_option(action) for action in actions)


def option_words(words):
    """The option words of a command's words (after the command, up to a lone ``--``)."""
    for word in words[1:]:
        if word == "--":
            return
        if word.startswith("-") and len(word) > 1:
            yield word


def secret_words(line, handler, command=None):
    """What carries a secret on ``line`` (a command line), as descriptions without any value.

    ``command`` is the command the words belong to when ``line`` holds options only
    (the role writes the command word itself).  Raises ValueError when the line
    cannot be split into words (an unclosed quote).
    """
    words = split_words(line)
    if command is not None:
        words = [command] + words
    if not words:
        return []
    found = []
    parser = parser_of(handler, words[0])
    if parser is not None and takes_password_argument(parser):
        found.append("the command %s, which takes a password as its argument" % words[0])
    for word in option_words(words):
        option = word.split("=", 1)[0]
        if parser is not None:
            actions = resolve(parser, word)
            secret = [action for action in actions if is_secret_option(action)]
        else:  # a command pykickstart reads without a parser (realm, auth...): the option's name decides
            secret = [option] if SECRET_NAME_RE.search(option) or PASSWORD_FORM_RE.search(option) else []
        if secret:
            full = sorted(set(action.option_strings[0] for action in secret if hasattr(action, "option_strings")))
            shown = option if not full or full == [option] else "%s (%s)" % (option, " or ".join(full))
            found.append("the option %s of %s" % (shown, words[0]))
    if any(URL_CREDENTIALS_RE.search(word) for word in words[1:]):
        found.append("a URL with a user name or password in it, on %s" % words[0])
    return found
