# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The shared leak assertion finds what a plain ``in json.dumps(...)`` would miss."""

import pytest

from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

SECRET = 'Pässwörd "q" \\ 7'


@pytest.mark.parametrize("shown", [
    {"msg": "value %s here" % SECRET},  # non-ASCII, which json.dumps escapes by default
    'escaped: "P\\u00e4ssw\\u00f6rd \\"q\\" \\\\ 7"',  # JSON-escaped inside a message
    "repr: %r" % SECRET,
    "shell: --passphrase='Pässwörd \"q\" \\ 7'",
])
def test_every_form_of_the_secret_is_found(shown):
    with pytest.raises(AssertionError):
        assert_no_leak(SECRET, shown)


def test_pieces_are_found_when_asked():
    assert_no_leak(SECRET, "only Pässw here")
    with pytest.raises(AssertionError, match="5-character piece"):
        assert_no_leak(SECRET, "only Pässw here", piece=5)


def test_absent_secrets_pass():
    assert_no_leak(SECRET, {"msg": "nothing to see"}, "<hidden>", piece=5)
    assert_no_leak("", "anything")
