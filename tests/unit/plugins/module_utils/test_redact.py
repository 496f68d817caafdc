# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""module_utils/_redact.py: every form of a secret value is hidden from messages, diffs and warnings."""

import difflib
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


# ---------------------------------------------------------------------------
# A whole kickstart, masked for a diff
# ---------------------------------------------------------------------------

# Every secret-bearing form of a kickstart, each secret holding "Sekr1t" (hashes: "HASHX").
WHOLE = r"""#version=RHEL9
lang en_US.UTF-8
timezone UTC --utc
rootpw --iscrypted $6$rounds=656000$abcdefgh$OLDHASHXOLDHASHXOLDHASHX
user --name=alice --password=$6$salt$ALICEHASHX --iscrypted --groups=wheel
user --name=bob --password='Sekr1t user 1' --plaintext
bootloader --iscrypted --password=grub.pbkdf2.sha512.10000.AABBCC.DDEEFF --location=mbr
bootloader --md5pass=$1$salt$MD5HASHX
part /home --fstype=xfs --size=1000 --encrypted --passphrase='Sekr1t part 2'
logvol / --vgname=vg --name=root --encrypted --passphrase=Sekr1t-lv-3
raid /data --level=1 --device=md0 --encrypted --passphrase "Sekr1t raid 4"
autopart --type=lvm --encrypted --passphrase=Sekr1t\ auto\ 5 --hw-passphrase=Sekr1t-hw-6
url --url=http://bob:Sekr1t-url-7@mirror.example.com/os
repo --name=extra --baseurl=https://Sekr1tToken8@repo.example.com/x
liveimg --url=https://user:Sekr1t-live-9@img.example.com/live.img --proxy=http://p:Sekr1t-px-10@proxy:3128
ostreesetup --osname=os --url=https://Sekr1tTok11:x-oauth-basic@git.example.com/repo --ref=main
sshpw --username=install Sekr1t-ssh-12 --plaintext
iscsi --ipaddr=192.0.2.1 --user=u --password=Sekr1t-iscsi-13 --reverse-user=r --reverse-password=Sekr1t-rev-14
vnc --password=Sekr1t-vnc-15
rdp --username=admin --password=Sekr1t-rdp-16
network --device=wlan0 --wpakey=Sekr1t-wpa-17
realm join --one-time-password=Sekr1t-otp-18 example.com
rhsm --organization=1 --activation-key=Sekr1t-key-19
rootpw -pSekr1t-dash-20
#rootpw --plaintext Sekr1t-comment-21
# old hash: $6$salt$COMMENTHASHX
%include http://u:Sekr1t-inc-22@ks.example.com/common.ks
%pre
echo hello
%end
%post --log=/root/post.log
echo 'root:Sekr1t-chp-23' | chpasswd
printf '%s\n' 'carl:Sekr1t-printf-24' | chpasswd
usermod -p '$6$x$USERMODHASHX' bob
useradd --password=Sekr1t-useradd-25 dan
useradd -pSekr1t-useradd-26 dan2
chpasswd <<EOF
carol:Sekr1t-here-27
EOF
cat <<'END' | chpasswd -e
erin:$6$y$HEREHASHX
END
passwd --stdin frank <<< Sekr1t-here-string-28
passwd --stdin gil <<PW
Sekr1t-passwd-29
PW
grub2-setpassword <<G
Sekr1t-grub-30
Sekr1t-grub-30
G
cryptsetup luksFormat /dev/vdb <<K
Sekr1t-luks-31
K
echo 'dave:Sekr1t-cont-32' \
  | chpasswd
echo "eve:Sekr1t-multi
line-33" | chpasswd
export ADMIN_PW=Sekr1t-env-34
curl -u admin:$ADMIN_PW https://api:Sekr1t-api-35@example.com/register
systemctl enable sshd
%end
%packages
@core
%end
"""
KEPT = ("#version=RHEL9\n", "lang en_US.UTF-8\n", "timezone UTC --utc\n", "echo hello\n", "systemctl enable sshd\n",
        "%packages\n", "@core\n", "%post --log=/root/post.log\n")


def test_a_whole_kickstart_keeps_no_secret_and_every_line_without_one():
    out = redacted_text(WHOLE)
    for piece in ("Sekr1t", "HASHX", "AABBCC", "DDEEFF", "x-oauth-basic@"):
        assert piece not in out, [line for line in out.splitlines() if piece in line]
    assert len(out.splitlines()) == len(WHOLE.splitlines())
    lines = out.splitlines(True)
    for line in KEPT:
        assert line in lines, line
    assert "rootpw --iscrypted <hidden>\n" in lines
    assert "autopart --type=<hidden> --encrypted --passphrase=<hidden> --hw-passphrase=<hidden>\n" in lines
    assert "%include http://<hidden>@ks.example.com/common.ks\n" in lines
    assert "#rootpw --plaintext <hidden>\n" in lines
    assert "# old hash: <hidden>\n" in lines


def test_script_commands_that_set_a_password_are_hidden_whole_with_what_feeds_them():
    out = redacted_text(WHOLE).splitlines()
    start = out.index("%post --log=/root/post.log")
    script = out[start + 1:out.index("%end", start)]
    assert script[:3] == ["echo <hidden>", "printf <hidden>", "usermod <hidden>"]
    # A here-document's body is hidden with the command that reads it, its tag shown.
    assert script[5:8] == ["chpasswd <hidden>", "<hidden>", "EOF"]
    assert script[8:11] == ["cat <hidden>", "<hidden>", "END"]
    # A command the shell continues (a backslash, a quote open at the end of the line) is one command.
    assert script[22:26] == ["echo <hidden>", "  <hidden>", "echo <hidden>", "<hidden>"]
    assert script[26:28] == ["export <hidden>", "curl <hidden>"]
    assert script[-1] == "systemctl enable sshd"


def test_a_quote_left_open_to_the_end_of_a_script_hides_the_rest_of_it():
    text = "timezone UTC\n%post\necho 'unclosed\nroot Sekr1t-open-1\nmore\n%end\n%packages\n@core\n%end\n"
    assert redacted_text(text) == "timezone UTC\n%post\necho <hidden>\n<hidden>\n<hidden>\n%end\n%packages\n@core\n%end\n"


def test_a_word_that_only_starts_with_a_dash_is_a_value():
    assert redact_line("rootpw --plaintext -Sekr1t\n") == "rootpw --plaintext <hidden>\n"
    assert redact_line("user --name=x -pSekr1t --password=--Sekr1t=2\n") == \
        "user --name=<hidden> <hidden> --password=<hidden>\n"


def test_a_text_that_is_no_kickstart_is_hidden_line_by_line():
    assert redacted_text("rootpw x\0\ntimezone UTC\n") == "<hidden>\n<hidden>\n"


def test_every_command_the_secrets_reader_knows_is_a_secret_command():
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_secrets import OPTIONS
    assert set(OPTIONS) <= _redact.SECRET_COMMANDS


def _changed_lines(before, after):
    old, new = _redact.masked_diff(before, after)
    return [line for line in difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and line[:3] not in ("+++", "---")], old + new


def test_the_masked_diff_shows_a_changed_timezone_and_a_changed_secret_but_no_secret():
    after = WHOLE.replace("timezone UTC", "timezone Europe/Berlin").replace("OLDHASHX", "NEWHASHX")
    changed, both = _changed_lines(WHOLE, after)
    assert changed == ["-timezone UTC --utc", "-rootpw --iscrypted <hidden>",
                       "+timezone Europe/Berlin --utc", "+rootpw --iscrypted <hidden: changed>"]
    for piece in ("Sekr1t", "HASHX", "AABBCC"):
        assert piece not in both


def test_an_unchanged_secret_reads_the_same_and_only_the_changed_value_is_marked():
    assert _changed_lines(WHOLE, WHOLE)[0] == []
    after = WHOLE.replace("ALICEHASHX", "ALICENEWHASHX")
    changed, both = _changed_lines(WHOLE, after)
    assert changed == ["-user --name=<hidden> --password=<hidden> --iscrypted --groups=<hidden>",
                       "+user --name=<hidden> --password=<hidden: changed> --iscrypted --groups=<hidden>"]
    assert "ALICE" not in both


def test_a_changed_script_secret_shows_as_a_changed_hidden_line():
    after = WHOLE.replace("Sekr1t-here-27", "Sekr1t-here-99")
    assert _changed_lines(WHOLE, after)[0] == ["-<hidden>", "+<hidden: changed>"]


def test_a_new_file_is_masked_whole_and_a_removed_secret_shows_as_removed():
    old, new = _redact.masked_diff("", WHOLE)
    assert old == "" and new == redacted_text(WHOLE)
    after = WHOLE.replace("vnc --password=Sekr1t-vnc-15\n", "")
    assert _changed_lines(WHOLE, after)[0] == ["-vnc --password=<hidden>"]
