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

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _ks_secrets
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import edit_kickstart, read_policies
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import END, KickstartEditError, section_roles
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart, sections_only
from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import ROOT
from ansible_collections.kickstart.pwpolicy.tests.unit.samples import COBBLER_CHEETAH as COBBLER_SHAPE
from ansible_collections.kickstart.pwpolicy.tests.unit.samples import FOREMAN_ERB as FOREMAN_SHAPE

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


# A Cobbler template choosing the root policy with Cheetah's #if/#else, which pykickstart reads as comments.
CHEETAH_BRANCHES = COBBLER_CHEETAH + (
    "%anaconda\n"
    "#if $getVar('hardened', '') == 'yes'\n"
    "pwpolicy root --minlen=15 --minquality=50 --strict\n"
    "#else\n"
    "pwpolicy root --minlen=8 --minquality=1\n"
    "#end if\n"
    "%end\n")
BRANCH_START = len(COBBLER_CHEETAH.splitlines()) + 1  # the %anaconda line


def lines_of(text):
    return text.splitlines(True)


@pytest.mark.parametrize("target", ["RHEL7", "F33", "RHEL9"])
def test_a_policy_in_each_cheetah_branch_is_edited_in_place_not_removed(target):
    result = edit_kickstart(CHEETAH_BRANCHES, WANTED, target=target, validate=False)
    before, after = lines_of(CHEETAH_BRANCHES), lines_of(result.text)
    assert len(after) == len(before)
    changed = [i + 1 - BRANCH_START for i, (old, new) in enumerate(zip(before, after)) if old != new]
    assert changed == [2, 4]  # both branches' lines, nothing else
    assert after[BRANCH_START + 1] == after[BRANCH_START + 3]
    assert after[BRANCH_START + 1].startswith("pwpolicy root --minlen=12 --minquality=40 --strict ")
    assert any("lines %d, %d: pwpolicy root is inside a Cheetah block" % (BRANCH_START + 2, BRANCH_START + 4) in w
               and "none is removed as a duplicate" in w for w in result.warnings)
    again = edit_kickstart(result.text, WANTED, target=target, validate=False)
    assert not again.changed and again.text == result.text


def test_a_policy_already_right_in_one_branch_is_still_set_in_the_other():
    result = edit_kickstart(CHEETAH_BRANCHES, {"root": {"minlen": 15, "minquality": 50, "strict": True}},
                            target="RHEL7", validate=False)
    branch_lines = lines_of(result.text)[BRANCH_START + 1:BRANCH_START + 4:2]
    assert branch_lines[0] == "pwpolicy root --minlen=15 --minquality=50 --strict\n"  # equivalent: untouched
    assert branch_lines[1].startswith("pwpolicy root --minlen=15 --minquality=50 --strict ")


def test_duplicates_in_one_branch_and_at_the_top_are_still_duplicates():
    text = ("%anaconda\n"
            "pwpolicy root --minlen=6\n"
            "#if $x\n"
            "pwpolicy root --minlen=7\n"
            "pwpolicy root --minlen=8\n"
            "#for $i in $range(2)\n"
            "pwpolicy root --minlen=9\n"
            "#end for\n"
            "#else\n"
            "pwpolicy luks --minlen=20\n"
            "#end if\n"
            "pwpolicy root --minlen=10\n"
            "%end\n")
    result = edit_kickstart(text, {"root": {"minlen": 12}, "user": {}}, target="F33", validate=False)
    kept = [line for line in lines_of(result.text) if line.startswith("pwpolicy")]
    root = "pwpolicy root --minlen=12 --minquality=1 --notstrict --nochanges --emptyok\n"
    user = "pwpolicy user --minlen=6 --minquality=1 --notstrict --nochanges --emptyok\n"
    # one line at the top, one in the #if branch, one in the #for block; the luks branch as it was;
    # the new user line after the root line outside every block
    assert kept == [root, user, root, root, "pwpolicy luks --minlen=20\n"]
    assert result.text.startswith("%anaconda\n" + root + user + "#if $x\n")


def test_read_policies_warns_about_a_policy_inside_a_cheetah_block():
    read = read_policies(CHEETAH_BRANCHES, "RHEL7", validate=False)
    assert any("pwpolicy root is inside a Cheetah block" in w for w in read.warnings)


@pytest.mark.parametrize("text", [
    "%anaconda\n# if hardened\npwpolicy root --minlen=7\n# else\npwpolicy root --minlen=8\n# end if\n%end\n",
    "%anaconda\n#for the lab\npwpolicy root --minlen=7\npwpolicy root --minlen=8\n%end\n",
])
def test_comments_that_only_look_like_cheetah_are_comments(text):
    result = edit_kickstart(text, {"root": {"minlen": 12}}, target="F33", validate=False)
    assert sum(line.startswith("pwpolicy root") for line in lines_of(result.text)) == 1
    assert not any("Cheetah" in w for w in result.warnings)


def test_when_validating_the_installer_reads_cheetah_lines_as_comments():
    text = "#version=F33\n" + CHEETAH_BRANCHES[len(COBBLER_CHEETAH):]
    result = edit_kickstart(text, WANTED)
    assert sum(line.startswith("pwpolicy root") for line in lines_of(result.text)) == 1


# --- the templates the provisioning tools ship ------------------------------------------------------------

@pytest.mark.parametrize("template", [FOREMAN_SHAPE, COBBLER_SHAPE], ids=["foreman", "cobbler"])
def test_the_shapes_the_provisioning_tools_ship_are_read_and_edited(template):
    assert read_policies(template, "RHEL8", validate=False).policies == {}
    result = edit_kickstart(template, WANTED, target="RHEL8", validate=False)
    assert result.text.startswith(template)  # every template line as it was, the new section after them
    assert result.text[len(template):].lstrip("\n").startswith("%anaconda\npwpolicy root --minlen=12 ")
    again = edit_kickstart(result.text, WANTED, target="RHEL8", validate=False)
    assert not again.changed


def test_a_section_end_expression_closes_a_script_section():
    """Foreman's templates end %packages, %pre and %post with <%= section_end -%>, never %end."""
    lines = FOREMAN_SHAPE.splitlines(True)
    roles = section_roles(lines, template=True)[0]
    ends = [number for number, (role, dummy) in enumerate(roles, 1) if role == END]
    assert [lines[n - 1] for n in ends] == ["<%= section_end -%>\n"] * 3
    assert section_roles(lines)[1] == ("%packages", lines.index("%packages\n") + 1)  # not a template: open


def test_a_section_end_expression_closes_anaconda_too():
    text = "lang en_US\r\n%anaconda\r\npwpolicy root --minlen=6\r\n<%= section_end -%>\r\n%post\r\necho\r\n<%= section_end -%>\r\n"
    assert read_policies(text, "RHEL8", validate=False).policies["root"].minlen == 6
    result = edit_kickstart(text, WANTED, target="RHEL8", validate=False)
    assert result.text == text.replace("pwpolicy root --minlen=6\r\n", "pwpolicy root --minlen=12 --minquality=40 "
                                       "--strict --nochanges --emptyok\r\n")
    gone = edit_kickstart(text, None, state="absent", target="RHEL8", validate=False)
    assert gone.text == "lang en_US\r\n%post\r\necho\r\n<%= section_end -%>\r\n"  # the section with its end line


@pytest.mark.parametrize("line", ["$SNIPPET('anaconda_policy')\n", "<%= snippet 'policy' %>\n",
                                  "{{ extra_policy }}\n", "%{ if hardened ~}\n"])
def test_a_template_line_inside_anaconda_is_kept_never_an_error(line):
    text = COBBLER_SHAPE + "%anaconda\n" + line + "pwpolicy root --minlen=6\n%end\n"
    number = len(COBBLER_SHAPE.splitlines()) + 2
    read = read_policies(text, "RHEL8", validate=False)
    assert read.policies["root"].minlen == 6
    assert "kickstart line %d: a template line inside %%anaconda is kept as it is" % number in read.warnings[0]
    # The section keeps the template line when its last policy goes.
    gone = edit_kickstart(text, None, state="absent", target="RHEL8", validate=False)
    assert gone.text == COBBLER_SHAPE + "%anaconda\n" + line + "%end\n"
    with pytest.raises(KickstartEditError):  # a kickstart (validate) is read as the installer reads it
        read_policies("#version=RHEL8\n" + text[len(COBBLER_SHAPE):].replace("%{", "$x"), "RHEL8")


def test_an_unterminated_section_names_its_line_once():
    with pytest.raises(KickstartEditError) as err:
        read_policies("lang en_US\n%post\necho\n", "F33", validate=False)
    assert str(err.value) == "kickstart line 2: section %post does not end with %end; end it with a %end line"


# ---------------------------------------------------------------------------
# A template read as a rendered kickstart is told apart (_ks_secrets.template_look)
# ---------------------------------------------------------------------------

def _look(text):
    read = _ks_secrets.read_lines(text, False, None)
    return _ks_secrets.template_look(read[3], read[4])


@pytest.mark.parametrize("text, kind", [
    (FOREMAN_ERB, "ERB"), (COBBLER_CHEETAH, "Cheetah"), (JINJA, "Jinja"),
    ("lang en_US.UTF-8\n#if $getVar('x', '')\nrootpw --iscrypted $pw\n#end if\n", "Cheetah"),
    ("lang en_US.UTF-8\n%post\n$SNIPPET('post_install')\n%end\n", "Cheetah"),
    ("lang en_US.UTF-8\nrootpw --iscrypted {{ root_hash }}\n", "Jinja"),
    ("lang en_US.UTF-8\n#else\r\n", "Cheetah"),
])
def test_a_template_read_as_a_kickstart_is_told_apart_by_its_first_template_line(text, kind):
    number, found = _look(text)
    assert found == kind
    lines = text.splitlines()
    assert number == next(i for i, line in enumerate(lines, 1) if _look("\n".join(lines[:i]) + "\n"))


@pytest.mark.parametrize("text", [
    "#version=RHEL9\n# if you need a GUI, add @^graphical-server-environment\n#end of the storage part\n"
    "rootpw --iscrypted $6$rounds=5000$abcdefgh$" + "x" * 86 + "\nuser --name=a --iscrypted --password=$y$j9T$abc$def\n",
    "lang en_US.UTF-8\n%post\nfor f in {a,b}; do echo \"${f}\" '{{' ; done\n%end\n",
])
def test_a_kickstart_with_hashes_shell_and_comments_is_not_taken_for_a_template(text):
    assert _look(text) is None


def test_the_template_warning_names_the_line_and_the_tool_and_no_value():
    message = _ks_secrets.template_look_message((3, "ERB"), "set template: true")
    assert message.startswith("line 3 looks like an ERB (Foreman) template line") and "set template: true" in message
