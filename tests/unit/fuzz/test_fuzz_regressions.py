# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Inputs the fuzzers found that once broke the shared code, kept as plain tests.

The fuzz tests also run most of them as explicit ``@example`` inputs.
"""

import argparse

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import edit_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import KickstartEditError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import PolicyError, policy_from
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._redact import redact_line
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak


def test_pwpolicy_line_with_thousands_of_options_is_refused_before_argparse(monkeypatch):
    # argparse is quadratic in the number of options: 20,000 flags took 16 s a
    # line.  The line is refused on its word count, before argparse sees it.
    long_calls = []
    real = argparse.ArgumentParser.parse_known_args

    def counting(self, args=None, namespace=None):
        if args is not None and len(args) > 100:
            long_calls.append(len(args))
        return real(self, args, namespace)

    monkeypatch.setattr(argparse.ArgumentParser, "parse_known_args", counting)
    text = "%anaconda\npwpolicy root " + " ".join(["--strict"] * 20000) + "\n%end\n"
    with pytest.raises(KickstartEditError, match=r"kickstart line 2: pwpolicy line has 20002 words"):
        parse_kickstart(text, "F33")
    assert long_calls == []


def test_pwpolicy_line_with_repeated_options_still_parses():
    text = "%anaconda\npwpolicy root " + " ".join(["--strict", "--notstrict"] * 10) + " --minlen 9\n%end\n"
    assert parse_kickstart(text, "F33").policies["root"].minlen == 9


@pytest.mark.parametrize("directive", ["%include /tmp/more-policies.ks", "%ksappend /tmp/more.ks"])
def test_absent_keeps_a_section_with_an_include(directive):
    # Removing the last pwpolicy line used to delete the whole section, the
    # %include (whose file may hold commands of the section) with it.
    text = "#version=F33\nlang en_US.UTF-8\n%%anaconda\n%s\npwpolicy root --minlen=8\n%%end\n" % directive
    result = edit_kickstart(text, state="absent", validate=False)
    assert result.text == "#version=F33\nlang en_US.UTF-8\n%%anaconda\n%s\n%%end\n" % directive
    assert result.changed and result.policies == {}


def test_absent_still_removes_a_section_of_pwpolicy_lines_and_comments():
    text = "#version=F33\nlang en_US.UTF-8\n\n%anaconda\n# site policy\npwpolicy root --minlen=8\n%end\n"
    assert edit_kickstart(text, state="absent").text == "#version=F33\nlang en_US.UTF-8\n"


@pytest.mark.parametrize("name", [[], {}, ["root"], 3])
def test_policy_from_with_an_unhashable_or_odd_name(name):
    # {"name": []} raised TypeError (unhashable type) instead of PolicyError.
    with pytest.raises(PolicyError, match="unknown policy name"):
        policy_from({"name": name, "minlen": 8})


@pytest.mark.parametrize("value", ["\u00b2", "++3", "+\u00b9"])
def test_digit_like_strings_that_int_cannot_read(value):
    # str.isdigit() accepts them, int() does not: a bare ValueError escaped.
    with pytest.raises(PolicyError, match="minlen must be a whole number"):
        policy_from({"name": "root", "minlen": value})


@pytest.mark.parametrize("line", ["'rootpw --plaintext Fz9MarkerSecret '\n",
                                  '"user --name=bob --password=Fz9MarkerSecret"\n'])
def test_a_quoted_command_with_a_secret_stays_hidden(line):
    # pykickstart reads the quoted words as one unknown command and quoted it,
    # secret included, in its error: the command word was not recognised.
    with pytest.raises(KickstartEditError, match="line 2: Unknown command") as info:
        parse_kickstart("#version=F33\n" + line, "F33")
    assert_no_leak("Fz9MarkerSecret", str(info.value))
    assert_no_leak("Fz9MarkerSecret", redact_line(line))
