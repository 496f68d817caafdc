# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The one leak assertion of the unit tests: a secret, in any form it could be shown in, appears nowhere.

Objects are looked at as they would be shown: strings as they are, anything
else as JSON *without* escaping non-ASCII (``json.dumps`` escapes it by
default, which would hide a leaked non-ASCII secret from a plain ``in``) and
as its ``repr``.  The forms of the secret are this file's own, independent of
the redaction code under test.
"""

import json
import shlex


def forms(secret):
    """The secret and the escaped forms a message, a JSON result or a shell line could show it in."""
    found = {
        secret,
        json.dumps(secret, ensure_ascii=False)[1:-1],
        json.dumps(secret)[1:-1],
        repr(secret)[1:-1],
        secret.encode("unicode_escape").decode("ascii"),
        secret.replace("\\", "\\\\"),
        shlex.quote(secret),
    }
    return {form for form in found if form}


def shown(*objects):
    """One text holding every way the objects could be shown."""
    parts = []
    for item in objects:
        if isinstance(item, str):
            parts.append(item)
        else:
            parts.append(json.dumps(item, ensure_ascii=False, default=str))
            parts.append(json.dumps(item, default=str))
            parts.append(repr(item))
    return "\n".join(parts)


def assert_no_leak(secret, *objects, piece=None):
    """Fail when ``secret`` (or, with ``piece=N``, any N-character piece of it) shows in ``objects``."""
    if not secret:
        return
    text = shown(*objects)
    for form in forms(secret):
        assert form not in text, "the secret shows in the output (as %r-escaped form)" % type(form).__name__
    if piece:
        for start in range(0, max(0, len(secret) - piece + 1)):
            assert secret[start:start + piece] not in text, "a %d-character piece of the secret shows" % piece
