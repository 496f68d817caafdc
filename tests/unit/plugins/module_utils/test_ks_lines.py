# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""module_utils/_ks_lines.py: the bounds on kickstart input (words per line, command and package lines)."""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import MAX_COMMAND_LINES, MAX_COMMAND_WORDS, MAX_PACKAGE_LINES
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
