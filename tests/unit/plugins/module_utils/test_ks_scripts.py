# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Script lines read as the shell reads them: pipelines, here-documents, what echo and printf write."""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_scripts import (
    here_document,
    pipeline,
    written_text,
)


@pytest.mark.parametrize("command, written", [
    (["echo", "-n", "a", "b", ">", "/etc/x"], ["a b"]),
    (["echo", "a\\nb"], ["a", "b"]),
    (["printf", "%s\\n", "a", "b"], ["a", "b"]),       # the format again for each argument
    (["printf", "%s", "root:x"], ["root:x"]),
    (["printf", "%s\\n%s\\n", "p", "p"], ["p", "p"]),
    (["printf", "%s %s\\n", "a"], None),               # a format this does not follow
    (["printf", "%d\\n", "1"], None),
    (["printf", "one\\ntwo"], ["one", "two"]),
    (["cat", "x"], None),
])
def test_what_echo_and_printf_write(command, written):
    assert written_text(command) == written


def test_a_pipeline_and_its_end():
    assert pipeline(["echo", "x", "|", "chpasswd", "&&", "true"]) == [["echo", "x"], ["chpasswd"]]


def test_a_here_document_ends_at_its_tag_with_tabs_stripped_for_the_dash_form():
    document = here_document("cat > /f <<-'EOF'\n", key="k")
    assert (document.tag, document.strip, document.key) == ("EOF", True, "k")
    assert [document.feed(line, number) for number, line in enumerate(["a = 1\n", "\tEOF\n"], 2)] == [False, True]
    assert document.lines == [("a = 1", 2)]
    assert here_document("echo '<' > /f\n") is None
