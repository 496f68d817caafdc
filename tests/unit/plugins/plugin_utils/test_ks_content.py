# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The role's input checks (what the role writes parsing back as given: plugins/action/test_render_content.py)."""

import copy
import os

import pytest
import yaml

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._ks_content import (
    content_problems,
    input_problems,
    secret_problems,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import ROOT
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

ROLE = os.path.join(ROOT, "roles", "kickstart")


def preset(product):
    """The product's content as the role loads it (vars/main/<product>.yml)."""
    with open(os.path.join(ROLE, "vars", "main", "%s.yml" % product)) as handle:
        return yaml.safe_load(handle)["__kickstart_%s_content" % product]


SERVER = preset("server")
INJECTED = "reboot\nrootpw --plaintext evil-Secret-1"


def server(**overrides):
    content = copy.deepcopy(SERVER)
    content.update(overrides)
    return content


def labels(problems):
    return [p["label"] for p in problems]


def test_the_presets_have_no_problems():
    for product in ("server", "cloud", "workstation"):
        data = preset(product)
        data = {k: v for k, v in data.items() if not (isinstance(v, str) and "{{" in v)}
        for key, value in (("autopart_type", "lvm"), ("packages", ["@core"])):
            data.setdefault(key, value)
        assert input_problems(server(**data)) == []


@pytest.mark.parametrize("key", ["finish", "timezone", "keyboard", "lang", "network", "firewall", "bootloader",
                                 "autopart_options", "luks_options", "packages_options", "source"])
@pytest.mark.parametrize("breaker", ["\n", "\r", "\0"])
def test_a_line_break_or_nul_in_a_value_is_refused_by_name(key, breaker):
    value = "x%sy" % breaker if key != "finish" else "reboot%srootpw --plaintext evil" % breaker
    problems = input_problems(server(**{key: value}))
    assert labels(problems) == ["kickstart_content.%s" % key]
    assert_no_leak("evil", problems)


@pytest.mark.parametrize("key, item", [
    ("packages", "vim\n%end\nrootpw --plaintext evil"), ("packages", "%post"),
    ("extra_commands", "%pre"), ("extra_commands", "lang x\nrootpw y"),
    ("post_scripts", "echo hi\n%end\nrootpw --plaintext evil\n%post\ntrue"),
    ("post_scripts", "echo hi\n  %packages"), ("post_scripts", "a\0b"),
    ("services_enabled", "sshd,evil"), ("default_user_groups", "wheel users"),
])
def test_list_items_that_would_add_lines_or_sections_are_refused(key, item):
    problems = input_problems(server(**{key: [item]}))
    assert labels(problems) == ["kickstart_content.%s[0]" % key]


@pytest.mark.parametrize("key", ["packages", "services_enabled", "extra_commands", "post_scripts",
                                 "default_user_groups"])
def test_a_string_where_a_list_belongs_is_refused(key):
    assert labels(input_problems(server(**{key: "openssh-server"}))) == ["kickstart_content.%s" % key]


@pytest.mark.parametrize("options", ["--passphrase=other", "--cipher=aes --passphrase other",
                                     "--encrypted", "--cipher-passphrase=x"])
def test_options_the_role_sets_itself_are_refused(options):
    problems = input_problems(server(luks_options=options, autopart_options=options))
    assert labels(problems) == ["kickstart_content.autopart_options", "kickstart_content.luks_options"]
    assert_no_leak("other", problems)


def test_choices_are_checked():
    problems = input_problems(server(selinux="enforcing\nrootpw x", install_mode="gui", finish="sleep 5"))
    assert sorted(labels(problems)) == ["kickstart_content.finish", "kickstart_content.install_mode",
                                        "kickstart_content.selinux"]


def test_users_and_keys():
    users = [{"name": "alice", "gecos": "A\nrootpw x", "ssh_keys": "ssh-ed25519 AAAA"},
             {"name": "alice"}, {"name": "Bad Name"}, {"name": "bob", "groups": "wheel"},
             {"name": "carol", "ssh_keys": ["ssh-ed25519 AAAA\0"]}, "dave"]
    problems = input_problems(server(), users, root_ssh_keys="ssh-ed25519 AAAA")
    assert labels(problems) == [
        "kickstart_users[0].gecos", "kickstart_users[0].ssh_keys", "kickstart_users[1].name",
        "kickstart_users[2].name", "kickstart_users[3].groups", "kickstart_users[4].ssh_keys[0]",
        "kickstart_users[5]", "kickstart_root_ssh_keys"]


def test_updates_image_on_the_kickstart_path_is_refused():
    problems = input_problems(server(), dest="/srv/ks/a.ks", updates_image="/srv/ks/./a.ks")
    assert labels(problems) == ["kickstart_updates_image"]


@pytest.mark.parametrize("dest, image, expected", [
    ("srv/ks/a.ks", None, ["kickstart_dest"]),
    ("/srv/ks/a.ks", "a.img", ["kickstart_updates_image"]),
    ("./a.ks", "../a.img", ["kickstart_dest", "kickstart_updates_image"]),
    ("/srv/ks/a.ks", "/srv/ks/a.img", []),
])
def test_the_paths_written_must_be_absolute(dest, image, expected):
    problems = input_problems(server(), dest=dest, updates_image=image)
    assert labels(problems) == expected
    assert all("absolute" in problem["reasons"][0] for problem in problems)


def test_secrets_with_nul_or_line_breaks_are_named_not_shown():
    problems = (secret_problems("kickstart_root_password", "Evil\0Secret-1")
                + secret_problems("kickstart_luks_passphrase", "Evil\nSecret-2")
                + secret_problems("kickstart_users[0].password", "Evil\rSecret-3"))
    assert labels(problems) == ["kickstart_root_password", "kickstart_luks_passphrase",
                                "kickstart_users[0].password"]
    assert_no_leak("Secret", problems)


@pytest.mark.parametrize("storage, expected", [
    (["part /boot --fstype=xfs --size=1024", "part pv.01 --grow --encrypted", "volgroup vg pv.01",
      "logvol / --vgname=vg --name=root --size=1 --grow"], []),
    (["rootpw --plaintext x"], ["kickstart_content.storage[0]"]),
    (["part / --encrypted --passphrase=x"], ["kickstart_content.storage[0]"]),
    (["part /\nrootpw x"], ["kickstart_content.storage[0]"]),
    ("part / --grow", ["kickstart_content.storage"]),
])
def test_storage_lines_are_storage_commands_without_a_passphrase(storage, expected):
    assert labels(content_problems(server(storage=storage))) == expected


@pytest.mark.parametrize("line, reason", [
    ("part / --grow  # --encrypted", "has --encrypted in a comment or inside quotes, where the installer does not "
                                     "read it as an option: nothing would be encrypted"),
    ("part / --grow --label='a --encrypted b'", "has --encrypted in a comment or inside quotes"),
    ("part / --grow --encrypted  # root", "has a comment (#), and the role adds the LUKS passphrase at the end of a "
                                          "line with --encrypted, where the installer would read it as part of the "
                                          "comment"),
    ("part / --grow --encrypted#x", "has a comment (#)"),
    ("part / --grow '--encrypted'", "has --encrypted quoted or escaped: the installer reads it as an option"),
    ("part / --grow \\--encrypted", "has --encrypted quoted or escaped"),
    ("part / --grow '--encr'", "sets --encr, which part reads as --encrypted"),
    ("part / --label='open", "cannot be split into words as the installer reads them (an unclosed quote)"),
])
def test_encrypted_is_judged_as_the_installer_reads_the_line(line, reason):
    found = content_problems(server(storage=["part /boot --size=1024  # a comment is fine here", line]), "RHEL9")
    assert labels(found) == ["kickstart_content.storage[1]"]
    assert found[0]["reasons"][0].startswith(reason)


@pytest.mark.parametrize("scripts, expected", [
    ([{"body": "echo hi", "log": "/root/ks-post.log", "interpreter": "/usr/bin/python3", "nochroot": True,
       "erroronfail": False}], []),
    (["echo plain"], []),
    ([{"body": "echo hi", "log": "relative.log"}], ["kickstart_content.post_scripts[0].log"]),
    ([{"body": "echo hi", "log": "/a b"}], ["kickstart_content.post_scripts[0].log"]),
    ([{"body": "echo hi", "nochroot": "yes"}], ["kickstart_content.post_scripts[0].nochroot"]),
    ([{"body": "ok\n%end\nrootpw x"}], ["kickstart_content.post_scripts[0].body"]),
    ([{"script": "echo hi"}], ["kickstart_content.post_scripts[0]"]),
])
def test_post_scripts_as_bodies_or_mappings(scripts, expected):
    assert labels(content_problems(server(post_scripts=scripts))) == expected


def test_pre_scripts_take_no_nochroot():
    found = content_problems(server(pre_scripts=[{"body": "echo", "nochroot": True}]))
    assert labels(found) == ["kickstart_content.pre_scripts[0]"]
    assert "nochroot" in found[0]["reasons"][0]


@pytest.mark.parametrize("hostname, expected", [
    ("", []), ("web01.example.com", []), ("two words", ["kickstart_content.hostname"]),
    ("web01\nrootpw x", ["kickstart_content.hostname"]),
])
def test_hostname_is_one_word(hostname, expected):
    assert labels(content_problems(server(hostname=hostname))) == expected
