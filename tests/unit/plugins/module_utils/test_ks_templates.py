# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Unrendered templates of other tools: with validate=False only the %anaconda sections are read.

Each template is a small kickstart template in one tool's syntax; the
lines the tools care about (``<% %>`` and ``%>`` at a line start, ``%{ }``,
``#if``/``$SNIPPET``, ``{% %}``) would stop pykickstart, which reads a leading
``%`` as a section header.
"""

import os
import re

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import edit_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import KickstartEditError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart, sections_only
from ansible_collections.kickstart.pwpolicy.tests.unit.conftest import ROOT

# The templates are shared with the ks_pwpolicy integration target.
FILES = os.path.join(ROOT, "tests", "integration", "targets", "ks_pwpolicy", "files")


def template(name):
    with open(os.path.join(FILES, name)) as handle:
        return handle.read()


FOREMAN_ERB = template("foreman.erb")
TERRAFORM_HCL = template("terraform.tftpl")
COBBLER_CHEETAH = template("cobbler.ks")
JINJA = template("site.ks.j2")

TEMPLATES = [
    pytest.param(FOREMAN_ERB, "RHEL8", id="foreman-erb"),
    pytest.param(TERRAFORM_HCL, "F33", id="terraform-hcl"),
    pytest.param(COBBLER_CHEETAH, "RHEL7", id="cobbler-cheetah"),
    pytest.param(JINJA, "RHEL8", id="jinja"),
]
WANTED = {"root": {"minlen": 12, "minquality": 40, "strict": True}}


@pytest.mark.parametrize("template, target", TEMPLATES)
def test_templates_are_refused_when_validating(template, target):
    with pytest.raises(KickstartEditError):
        edit_kickstart(template, WANTED, target=target)


@pytest.mark.parametrize("template, target", TEMPLATES)
def test_templates_get_their_policy_and_keep_every_other_byte(template, target):
    result = edit_kickstart(template, WANTED, target=target, validate=False)
    assert result.changed
    before_section = template.split("%anaconda\n", 1)[0]
    assert result.text.startswith(before_section)  # every template line, byte for byte
    added = result.text[len(before_section):]
    assert re.fullmatch(r"\n?%anaconda\npwpolicy root --minlen=12 --minquality=40 --strict --\w+ --\w+\n%end\n",
                        added), added
    assert result.policies["root"].minlen == 12
    assert not any("pykickstart" in warning for warning in result.warnings)
    again = edit_kickstart(result.text, WANTED, target=target, validate=False)
    assert not again.changed and again.text == result.text


def test_an_existing_section_in_a_template_is_edited_in_place():
    result = edit_kickstart(TERRAFORM_HCL, WANTED, target="F33", validate=False)
    assert result.previous["root"].minlen == 6
    assert result.text.startswith(TERRAFORM_HCL.split("%anaconda", 1)[0])
    assert result.text.endswith("%anaconda\npwpolicy root --minlen=12 --minquality=40 --strict --nochanges "
                                "--emptyok\n%end\n")


def test_state_absent_removes_the_section_from_a_template():
    result = edit_kickstart(TERRAFORM_HCL, None, state="absent", target="F33", validate=False)
    assert "%anaconda" not in result.text and "pwpolicy" not in result.text
    assert result.text == TERRAFORM_HCL.split("%anaconda", 1)[0]


def test_only_sections_are_read_and_line_numbers_stay():
    text = "%{ if x ~}\n%anaconda\npwpolicy root --minlen=6\n%end\n%>\n"
    shown = sections_only(text.splitlines(True))
    assert shown == "\n%anaconda\npwpolicy root --minlen=6\n%end\n\n"
    assert len(shown.splitlines()) == len(text.splitlines())


def test_errors_inside_a_section_still_name_their_line():
    text = FOREMAN_ERB + "%anaconda\npwpolicy root --bogus\n%end\n"
    with pytest.raises(KickstartEditError) as err:
        parse_kickstart(text, "RHEL8", validate=False)
    assert err.value.lineno == len(FOREMAN_ERB.splitlines()) + 2


def test_a_lone_carriage_return_before_a_blanked_line_keeps_the_numbering():
    text = "lang en_US.UTF-8\r%include /tmp/part.ks\n%anaconda\npwpolicy root --minlen=8\n%end\n"
    parsed = parse_kickstart(text, "F33", validate=False)
    assert parsed.sections[0].header == 3 and parsed.entries[0].lineno == 4
    result = edit_kickstart(text, None, state="absent", product="server", target="F33", validate=False)
    assert result.text == "lang en_US.UTF-8\r%include /tmp/part.ks\n"


def test_anaconda_inside_a_script_is_script_text():
    text = "%post\ncat <<EOF\n%anaconda\npwpolicy root --minlen=1\n%end\n"
    assert parse_kickstart(text, "F33", validate=False).sections == []


def test_an_unterminated_script_section_is_an_error_not_a_place_for_the_policy():
    with pytest.raises(KickstartEditError, match="line 2: section %post does not end with %end") as err:
        edit_kickstart("lang en_US.UTF-8\n%post\necho hi\n", WANTED, target="F33", validate=False)
    assert err.value.lineno == 2
