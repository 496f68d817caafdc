# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""module_utils/_ks_lines.py: the bounds on kickstart input (words per line, command and package lines, line
and command text lengths), the word splitter (shlex's words, in linear time) and what keeps a value off one line."""

import shlex

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import (
    MAX_COMMAND_CHARS,
    MAX_COMMAND_LINES,
    MAX_COMMAND_WORDS,
    MAX_LINE_CHARS,
    MAX_PACKAGE_LINES,
    LINE_BREAKS,
    breaks_line,
    one_line_problem,
    split_words,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart


@pytest.mark.parametrize("words", [MAX_COMMAND_WORDS + 1, 20000])
def test_a_command_line_with_too_many_words_fails_at_once(words):
    text = "#version=RHEL8\nlang en_US.UTF-8\nfirewall --enabled " + " ".join(
        "--port=%d:tcp" % i for i in range(words - 2)) + "\n"
    with pytest.raises(PwpolicyError) as info:
        parse_kickstart(text, "RHEL8", validate=False)
    assert info.value.lineno == 3 and "firewall has %d words" % words in str(info.value)


def test_long_lines_inside_scripts_are_not_commands():
    script = "echo " + " ".join("w%d" % i for i in range(2000))
    text = "#version=RHEL8\nlang en_US.UTF-8\n%%post\n%s\n%%end\n" % script
    assert parse_kickstart(text, "RHEL8", validate=True).lines[3].startswith("echo")


@pytest.mark.parametrize("body, what", [
    ("".join("network --device=eth%d\n" % i for i in range(MAX_COMMAND_LINES + 1)), "command lines"),
    ("%%packages\n%s%%end\n" % "".join("p%d\n" % i for i in range(MAX_PACKAGE_LINES + 1)), "%packages lines"),
])
def test_command_and_package_counts_are_bounded(body, what):
    with pytest.raises(PwpolicyError, match="more than %d %s" % (
            MAX_COMMAND_LINES if what == "command lines" else MAX_PACKAGE_LINES, what)):
        parse_kickstart("#version=RHEL8\n" + body, "RHEL8", validate=False)


def test_counts_at_the_limit_are_accepted():
    body = "".join("network --device=eth%d\n" % i for i in range(MAX_COMMAND_LINES - 1))
    assert parse_kickstart("#version=RHEL8\n" + body, "RHEL8", validate=False)


SHLEX_CASES = [
    "", "   ", "a", "a b\tc\rd\ne", "pwpolicy root --minlen=6 # a comment", "a#b c", "#only a comment",
    "a # one\nb c", "a#\nb", "''", '""', "a '' b", "a''b", "'a b'c\"d e\"", "'a\\b'", '"a\\b"', '"a\\"b"',
    '"a\\\\b"', '"a\\$b"', "a\\ b", "\\#a", "a\\\nb", "'#'", '"#"', "x\x0by\x0cz", "caf\u00e9 \u00df", "\\'",
    "'unclosed", '"unclosed', "a \\", '"a\\', "'a\\'", '"a\\"', "a\u00a0b", "--password=\"p a s s\" x",
]


@pytest.mark.parametrize("line", SHLEX_CASES)
def test_split_words_is_shlex(line):
    try:
        expected = shlex.split(line, comments=True)
    except ValueError as exc:
        with pytest.raises(ValueError) as info:
            split_words(line)
        assert str(info.value) == str(exc)
    else:
        assert split_words(line) == expected


def test_a_command_line_too_long_for_pykickstart_fails_at_once():
    text = "#version=RHEL9\nlang en_US.UTF-8\nsshkey --username=root " + "A" * (MAX_LINE_CHARS + 1) + "\n"
    with pytest.raises(PwpolicyError) as info:
        parse_kickstart(text, "RHEL9", validate=False)
    assert info.value.lineno == 3 and "sshkey is %d characters long" % (MAX_LINE_CHARS + 24) in str(info.value)


def test_a_long_section_line_fails_at_once_and_a_long_script_line_is_read():
    with pytest.raises(PwpolicyError, match="kickstart line 2: %post is"):
        parse_kickstart("#version=RHEL9\n%post " + "A" * MAX_LINE_CHARS + "\necho\n%end\n", "RHEL9")
    text = "#version=RHEL9\n%post\necho " + "A" * MAX_LINE_CHARS + "\n%end\n"
    assert parse_kickstart(text, "RHEL9").lines[2].startswith("echo")


def test_the_command_lines_together_are_bounded():
    line = "sshkey --username=root " + "A" * 8000 + "\n"
    count = MAX_COMMAND_CHARS // len(line)
    assert parse_kickstart("#version=RHEL9\n" + line * count, "RHEL9", validate=False)
    with pytest.raises(PwpolicyError, match="command lines up to this one hold more than %d" % MAX_COMMAND_CHARS):
        parse_kickstart("#version=RHEL9\n" + line * (count + 1), "RHEL9", validate=False)


def test_every_line_boundary_python_knows_breaks_a_line_and_nothing_else_does():
    # Every code point once, each between two letters: splitlines() (pykickstart's and so the installer's split)
    # says which end a line.
    points = [chr(code) for code in range(0x110000) if not 0xD800 <= code < 0xE000]
    ends = set(line[-1] for line in "x".join(points).splitlines(True)[:-1])
    assert ends == set("".join(LINE_BREAKS))
    assert sorted(ends) == sorted("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
    assert [point for point in points if breaks_line("a%sb" % point)] == sorted(ends)
    assert breaks_line("a\r\nb") and breaks_line("\r") and not breaks_line("") and not breaks_line("a\tb c")


@pytest.mark.parametrize("value, problem", [
    ("acme corp", None), ("", None), ("a\tb", None), ("a\x00b", "a NUL character"), ("a\x00\nb", "a NUL character"),
] + [("acme%s%%end" % end, "a line break") for end in LINE_BREAKS])
def test_one_line_problem_names_what_without_the_value(value, problem):
    assert one_line_problem(value) == problem
