# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The passwords %pre and %post scripts set are secrets at rest too, read from what the scripts do."""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_secrets import read_secrets
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.judge import judge
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.kickstart import read_kickstart
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

HASH = "$6$saltsalt$" + "A" * 86
PLAIN = "Summer-Marker-2024!"


def secrets_of(body, template=False, before="#version=RHEL9\nrootpw --lock\n"):
    report = read_secrets(before + "%post\n" + body + "%end\n", template=template, budget=0)
    found = report.to_list()
    assert_no_leak(PLAIN, found)
    return [(s["line"], s["command"], s["account"], s["form"], [f["id"] for f in s["findings"]])
            for s in found if s["command"] != "rootpw"]


@pytest.mark.parametrize("body, expected", [
    ("echo 'root:%s' | chpasswd\n" % PLAIN, [(4, "chpasswd", "root", "plaintext", ["plaintext"])]),
    ("echo 'ops:%s' | chpasswd -e\n" % HASH, [(4, "chpasswd", "ops", "crypt", [])]),
    ("printf '%%s\\n' 'root:%s' | /usr/sbin/chpasswd\n" % PLAIN, [(4, "chpasswd", "root", "plaintext", ["plaintext"])]),
    ("chpasswd <<'EOF'\nroot:%s\nops:$PW\nEOF\n" % PLAIN, [(5, "chpasswd", "root", "plaintext", ["plaintext"])]),
    ("chpasswd <<< 'root:%s'\n" % PLAIN, [(4, "chpasswd", "root", "plaintext", ["plaintext"])]),
    ("echo '%s' | passwd --stdin ops\n" % PLAIN, [(4, "passwd", "ops", "plaintext", ["plaintext"])]),
    ("usermod -p '%s' alice\n" % HASH, [(4, "usermod", "alice", "crypt", [])]),
    ("useradd --password '%s' -m bob\n" % HASH, [(4, "useradd", "bob", "crypt", [])]),
    ("printf '%%s\\n%%s\\n' '%s' '%s' | grub2-setpassword\n" % (PLAIN, PLAIN),
     [(4, "grub2-setpassword", "root", "plaintext", ["plaintext"])]),
    ("echo -n '%s' | cryptsetup luksAddKey /dev/vda2 -\n" % PLAIN,
     [(4, "cryptsetup", None, "passphrase", ["plaintext"])]),
    ("cryptsetup luksFormat /dev/vdb1 <<< '%s'\n" % PLAIN, [(4, "cryptsetup", None, "passphrase", ["plaintext"])]),
    # A value the script computes or reads is none of its text.
    ("echo \"root:$(cat /tmp/pw)\" | chpasswd\nusermod -p \"$HASH\" alice\necho $PW | passwd --stdin root\n", []),
    # A comment is no command.
    ("# echo 'root:%s' | chpasswd\n" % PLAIN, []),
])
def test_what_a_script_sets_is_a_secret(body, expected):
    assert secrets_of(body) == expected


def test_in_a_template_a_filled_in_value_is_template():
    assert secrets_of("echo 'root:<%= @root_pw %>' | chpasswd\n", template=True) == [
        (4, "chpasswd", "root", "template", [])]


def test_outside_a_script_nothing_is_read():
    text = "#version=RHEL9\n%%packages\nchpasswd\n%%end\necho 'root:%s' | chpasswd\n" % PLAIN
    assert [s["command"] for s in read_secrets(text, budget=0).to_list()] == []


def test_the_posture_and_the_judge_see_script_passwords():
    text = ("#version=RHEL10\nautopart --encrypted --passphrase=x\nbootloader --timeout=3\n%%post\n"
            "echo 'root:%s' | chpasswd\nprintf '%%s\\n' '%s' '%s' | grub2-setpassword\n%%end\n" % (PLAIN, PLAIN, PLAIN))
    posture = read_kickstart(text, "RHEL10")
    assert [(a["name"], a["command"], a["form"]) for a in posture["accounts"]] == [("root", "chpasswd", "plaintext")]
    assert posture["bootloader"]["form"] == "plaintext" and posture["bootloader"]["where"] == {"line": 6}
    found = judge(posture, ["stig"], "RHEL10")["deviations"]
    assert "RHEL-10-212010" not in [d["rule"] for d in found]  # the script sets GRUB's password
    assert "chpasswd of root is in the clear, and the installer hashes it as yescrypt" in [d["found"] for d in found]
