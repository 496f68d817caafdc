# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The linear-time readers give what the standard library's (slower) ones give, for every input.

``split_words`` against ``shlex.split(line, comments=True)``; the drop-in
reader's INI parser (option rule and ``%`` interpolation) against
``configparser.ConfigParser``.  (Their speed is shown by
``benchmarks/bench.py --only linear``, not here.)
"""

import configparser
import shlex

from hypothesis import given
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf_parse import _ConfigParser
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


# Characters of INI lines: blanks (Unicode ones too), delimiters, interpolation and comment characters.
_INI_CHARS = " \t\r\x0b\x0c\xa0\u2028=:ab%()s#;[]"


@given(line=st.one_of(st.text(alphabet=_INI_CHARS, max_size=30), st.text(max_size=30)))
@fs.fuzz_settings(10)
def test_the_option_rule_matches_as_configparsers(line):
    line = line.replace("\n", "")  # configparser matches single lines
    ours, theirs = _ConfigParser.OPTCRE.match(line), configparser.ConfigParser.OPTCRE.match(line)
    assert (ours and ours.group("option", "vi", "value")) == (theirs and theirs.group("option", "vi", "value"))


def _read_all(parser, text):
    """Every section's options, raw and interpolated (or the error's type and message)."""
    try:
        parser.read_string(text, "conf")
    except configparser.Error as exc:
        return type(exc).__name__, str(exc)
    found = {}
    for section in parser.sections():
        for option in parser.options(section):
            raw = parser.get(section, option, raw=True)
            try:
                found[section, option] = (raw, parser.get(section, option))
            except configparser.Error as exc:
                found[section, option] = (raw, type(exc).__name__, str(exc))
    return found


_INI_LINES = ("[User Interface]\n", "[DEFAULT]\n", "x = %(y)s%%\n", "y = a%(x)s\n", "y = 1%%2\n", "z = %(q)s\n",
              "w = %\n", "w = %(\n", "w = %x\n", "v = %(Y)s\n", "w = %%(y)s\n", "password_policies =\n", "  root %(y)s%%\n",
              "k" + " " * 9 + "v = 1\n", "k\t : v\n", "= v\n", "k\n", "\n", "  more\n", "# c\n")


@given(text=st.one_of(fs.mutated_confs(), st.lists(st.sampled_from(_INI_LINES), max_size=12).map(
    lambda lines: "[User Interface]\n" + "".join(lines))))
@fs.fuzz_settings(3)
def test_the_drop_in_ini_parser_reads_as_configparser(text):
    assert _read_all(_ConfigParser(), text) == _read_all(configparser.ConfigParser(), text)
