# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""module_utils/_redact.py: every form of a secret value is hidden from messages, diffs and warnings."""

import shlex

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _redact
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import edit_kickstart, section_regions
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import KickstartEditError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._redact import (
    line_secrets,
    redact_line,
    redact_message,
    redacted_text,
)

SECRETS = ["a\\secret-1", "it's \"mixed\"-2", "tab\there-3", "caf\u00e9\u00df-4"]


@pytest.mark.parametrize("secret", SECRETS)
def test_escaped_forms_of_a_secret_are_hidden(secret):
    line = "rootpw --plaintext %s\n" % shlex.quote(secret)
    for form in (secret, repr(secret), repr(secret)[1:-1], secret.replace("\\", "\\\\"),
                 secret.encode("unicode_escape").decode("ascii")):
        message = "pykickstart says: bad value %s here" % form
        hidden = redact_message(message, line)
        assert "<hidden>" in hidden, (form, hidden)
        assert form not in hidden


def test_redacted_text_keeps_lines_without_secrets():
    text = "lang en_US.UTF-8\nrootpw --iscrypted $6$salt$hash\npart / --passphrase=Pass-Word-1 --encrypted\n"
    out = redacted_text(text)
    assert out.splitlines()[0] == "lang en_US.UTF-8"
    assert "$6$salt$hash" not in out and "Pass-Word-1" not in out
    assert out.count("\n") == 3


@pytest.mark.parametrize("end", ["\x0c", "\x85", "\u2028", "\r"])
def test_a_line_ending_in_any_line_boundary_keeps_it_and_hides_the_value(end):
    text = "rootpw --plaintext Pass-Word-1" + end + "lang en_US.UTF-8" + end
    out = redacted_text(text)
    assert out == "rootpw --plaintext <hidden>" + end + "lang en_US.UTF-8" + end
    assert out.splitlines() == ["rootpw --plaintext <hidden>", "lang en_US.UTF-8"]


def test_section_regions_hide_secret_commands_inside_anaconda():
    text = "#version=F36\n%anaconda\nrootpw --plaintext Very-Secret-7\npwpolicy root --minlen=6\n%end\n"
    parsed = parse_kickstart(text, "F36", validate=False)
    regions = section_regions(parsed)
    assert "Very-Secret-7" not in regions and "rootpw --plaintext <hidden>" in regions
    assert "Very-Secret-7" not in "".join(parsed.warnings)
    # where the installer reads the section, the stray command is an error, and it names no secret
    with pytest.raises(KickstartEditError) as info:
        parse_kickstart(text, "RHEL8", validate=False)
    assert "Very-Secret-7" not in str(info.value) and "Unknown command" in str(info.value)


def test_many_secret_lines_are_redacted_once_per_file(monkeypatch):
    """600 duplicate user lines took a minute: the secrets were collected again for every message."""
    text = "".join("user --name=u%d --password=secret%d --plaintext\n" % (i % 3, i) for i in range(600))
    calls = []

    def counting(line):
        calls.append(1)
        return line_secrets(line)

    monkeypatch.setattr(_redact, "line_secrets", counting)
    result = edit_kickstart(text, product="server", target="RHEL8")
    assert result.warnings
    assert 0 < len(calls) <= 4 * 600  # linear in the lines, not lines x messages
    assert not any("secret1" in w for w in result.warnings)


@pytest.mark.parametrize("line", [
    "autopart --encrypted --passphrase=Sekr1t\\ Vale\\ \\\"x\\ \\'y\n",
    "autopart --encrypted --passphrase='Sekr1t Vale \"x'\n",
    "rootpw --plaintext \"Sekr1t Vale\" --lock\r\n",
    "  user --name=alice --password=Sekr1t-Vale --plaintext\n",
])
def test_redacted_lines_keep_no_form_of_a_value(line):
    out = redact_line(line)
    assert "Sekr1t" not in out and "Vale" not in out
    assert out.endswith(line[len(line.rstrip("\r\n")):])
    assert out.split()[0] == line.split()[0]


def test_an_unbalanced_quote_keeps_only_the_command():
    assert redact_line("rootpw --plaintext 'Sekr1t Vale\n") == "rootpw <hidden>\n"


def test_a_long_script_line_is_hidden_whole(monkeypatch):
    """Past the command-line bound, a line is hidden after its first word, without splitting it into words."""
    words = " ".join("w%d" % i for i in range(20000))
    line = "  echo password=Secr3t " + words + "\n"
    assert len(line) > _redact.MAX_LINE_CHARS

    def no_words(_line):
        raise AssertionError("a long line is not split into words")

    monkeypatch.setattr(_redact, "split_words", no_words)
    assert redact_line(line) == "  echo <hidden>\n"
    assert redacted_text("%post\n" + line + "%end\n") == "%post\n  echo <hidden>\n%end\n"
    secrets = line_secrets(line)
    assert secrets == {line.strip().split(None, 1)[1]}
    assert "Secr3t" not in redact_message("bad line: " + line.strip(), line)


DERIVED = [
    # What the role's templates give a template: the shell-quoted passphrase and the crypt hashes.
    "$6$rounds=656000$5fed04220a611e93$5e8oAR2un9R1xtrnCBnubvwjTUvcTNZiCbjHFTKVGabUcn6IIPU4pG2svDv8x0tufSRf2bi3Lp3wYzZA925Ou0",
    "$6$5fed04220a611e93$5e8oAR2un9R1xtrnCBnubvwjTUvcTNZiCbjHFTKVGabUcn6IIPU4pG2svDv8x0tufSRf2bi3Lp3wYzZA925Ou0",
    "$y$j9T$F5Jx5fExrKuPp53xLKQ..1$X3DX6M94c7o7ZGv6btRJfL.kjGLzCC0n9AnJrj5hAX1",
    "$5$rounds=5000$saltsalt$Gcm6FsVtF/Qa77ZKD.iwsJlCVPY0XSMgLJL0Hnww/c1",
    "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW",
    # What a site template may add: a GRUB2 password hash (bootloader --iscrypted --password=...).
    "grub.pbkdf2.sha512.10000.4A1B2C3D4E5F60718293A4B5C6D7E8F9.0F1E2D3C4B5A69788796A5B4C3D2E1F0AABBCCDD",
]


@pytest.mark.parametrize("secret", SECRETS + ["Delta-Harbor's 5521 lantern quartz"])
def test_derived_forms_of_a_secret_are_hidden(secret):
    """A template error quotes what the template was given: the passphrase shell-quoted on an option, the
    account lines with their hashes, inside Python's repr of a longer text."""
    given = "--encrypted --passphrase=%s|rootpw --iscrypted %s\n%s" % (
        shlex.quote(secret), shlex.quote(DERIVED[0]), "\n".join(DERIVED[1:]))
    for shown in (given, repr(given), repr(given)[1:-1], repr(given + "\"'")):
        message = "kickstart: rendering failed: object of type 'dict' has no attribute %s" % shown
        hidden = _redact.hide(message, [secret])
        assert "no attribute" in hidden and "<hidden>" in hidden
        for form in [secret, shlex.quote(secret), repr(secret)[1:-1]] + DERIVED:
            assert form not in hidden, (form, hidden)
        for piece in ("5fed04220a611e93", "j9T", "4A1B2C3D", "Harbor", "secret-1", "mixed", "here-3", "caf"):
            assert piece not in hidden, (piece, hidden)


@pytest.mark.parametrize("text, held", [
    ("rootpw --iscrypted $6$salt$hash\n", True),
    ("rootpw secret-in-plain-text\n", True),
    ("rootpw --lock\n", False),
    ("user --name=alice --password=$6$x$y --iscrypted\n", True),
    ("autopart --encrypted --passphrase='a b c'\n", True),
    ("  'bootloader' --location=mbr --password=grub.pbkdf2.sha512.x\n", True),
    ("sshpw --username=install inst-pass\n", True),
    ("network --bootproto=dhcp\nurl --url=http://mirror/os\nuser --name=alice\n", False),
    ("lang en_US.UTF-8\n%post\necho password\n%end\n", False),
    ("lang en_US\x0crootpw --plaintext x\n", True),  # the installer splits lines at a form feed too
])
def test_holds_secret_finds_passwords_passphrases_and_hashes(text, held):
    assert _redact.holds_secret(text) is held
