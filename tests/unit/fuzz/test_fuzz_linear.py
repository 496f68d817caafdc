# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The linear-time readers give what the standard library's (slower) ones give, for every input.

``split_words`` against ``shlex.split(line, comments=True)``.  (Their speed
is shown by ``benchmarks/bench.py --only linear``, not here.)
"""

import shlex

from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import split_words
from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz import strategies as fs

# Every character shlex treats specially, and a few it does not.
_SHLEX_CHARS = " \t\r\n#'\"\\a=-\u00e9\u00df\x0b\x0c\u00a0$"


def _outcome(split, line):
    try:
        return split(line)
    except ValueError as exc:
        return "ValueError: %s" % exc


@given(line=st.one_of(st.text(alphabet=_SHLEX_CHARS, max_size=40), st.text(max_size=40)))
@fs.fuzz_settings(10)
def test_split_words_is_shlex_split(line):
    assert _outcome(split_words, line) == _outcome(lambda text: shlex.split(text, comments=True), line)
