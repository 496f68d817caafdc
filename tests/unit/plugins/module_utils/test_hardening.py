# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Redaction, input bounds and name checks that hostile input used to get past."""

import gzip
import io

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import edit_kickstart, section_regions
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import (
    MAX_COMMAND_LINES,
    MAX_COMMAND_WORDS,
    MAX_PACKAGE_LINES,
    KickstartEditError,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._redact import (
    line_secrets,
    redact_line,
    redact_message,
    redacted_text,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _redact
from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _verdict as pwcheck
from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _updates_image as ui
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import Policy
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf import ConfError, check_conf_name

SECRETS = ["a\\secret-1", "it's \"mixed\"-2", "tab\there-3", "caf\u00e9\u00df-4"]


@pytest.mark.parametrize("secret", SECRETS)
def test_escaped_forms_of_a_secret_are_hidden(secret):
    import shlex
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


def test_section_regions_hide_secret_commands_inside_anaconda():
    text = "#version=RHEL8\n%anaconda\nrootpw --plaintext Very-Secret-7\npwpolicy root --minlen=6\n%end\n"
    parsed = parse_kickstart(text, "RHEL8", validate=False)
    regions = section_regions(parsed)
    assert "Very-Secret-7" not in regions and "rootpw --plaintext <hidden>" in regions


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


def test_gzip_bomb_is_refused():
    bomb = io.BytesIO()
    with gzip.GzipFile(fileobj=bomb, mode="wb") as stream:
        for _megabyte in range(ui.MAX_UNPACKED // (1024 * 1024) + 1):
            stream.write(b"\0" * 1024 * 1024)
    data = bomb.getvalue()
    assert len(data) < 100 * 1024
    with pytest.raises(ui.UpdatesImageError, match="more than"):
        ui.read_image(data)


def test_plain_oversized_image_is_refused():
    with pytest.raises(ui.UpdatesImageError, match="more than"):
        ui.read_image(b"070701" + b"0" * ui.MAX_UNPACKED)


@pytest.mark.parametrize("name", ["90-x.conf\n", "90-x.conf\r", "90-x.conf\nmore", " 90-x.conf", "90-x.conf\0"])
def test_conf_names_match_as_a_whole(name):
    with pytest.raises(ConfError):
        check_conf_name(name)


def test_overlong_password_never_reaches_libpwquality(monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("libpwquality was called")

    monkeypatch.setattr(pwcheck, "get_backend", boom)
    policy = Policy("luks", 8, 1, False, False, False)
    report = pwcheck.check_password("x" * 90000, policy)
    assert report["verdict"] == "rejected" and not report["ok"]
    assert "longer than 4096 characters (has 90000)" in report["reasons"][0]


def test_overlong_user_name_is_an_error():
    policy = Policy("user", 8, 1, False, False, False)
    with pytest.raises(pwcheck.PwcheckError, match="has 90000 characters"):
        pwcheck.check_password("Correct-Horse-9", policy, user="u" * 90000)


def test_every_error_class_shares_one_base():
    for cls in (KickstartEditError, pwcheck.PwcheckError, ui.UpdatesImageError, ConfError):
        assert issubclass(cls, PwpolicyError) and issubclass(cls, ValueError)


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
