# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The role's input checks, and the property that what the role writes parses back as given."""

import copy
import os
import shlex

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_content import (
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


# ---------------------------------------------------------------------------
# Property: whatever passes the checks parses back with pykickstart as given.
# ---------------------------------------------------------------------------

def _render(content, users, root_keys, luks):
    from ansible.parsing.dataloader import DataLoader
    from ansible.template import Templar
    try:
        from ansible.template import trust_as_template
    except ImportError:  # ansible-core < 2.19 templates every string
        def trust_as_template(text):
            return text
    variables = dict(__kickstart_content=content, __kickstart_target="RHEL8", kickstart_product="server",
                     kickstart_salt_seed="seed", kickstart_host_id="host", kickstart_password_hash_rounds=1000,
                     kickstart_root_ssh_keys=root_keys, kickstart_users=users, kickstart_luks_passphrase=luks,
                     kickstart_pwquality_dropin=False, kickstart_root_password="Xk9#mQ2!zLp7qR5@")

    def render(name, **more):
        with open(os.path.join(ROLE, "templates", name)) as handle:
            source = handle.read()
        return Templar(loader=DataLoader(), variables=dict(variables, **more)).template(trust_as_template(source))

    # The role's render task gives the template these (tasks/render.yml).
    luks_options = ("--encrypted --passphrase=" + shlex.quote(luks)) if luks else ""
    return render("kickstart.ks.j2", kickstart_account_commands=render("accounts.j2"),
                  kickstart_luks_options=luks_options, kickstart_pwquality_post="")


def _parse(text):
    from pykickstart.parser import KickstartParser
    from pykickstart.version import makeVersion
    handler = makeVersion("RHEL8")
    KickstartParser(handler).readKickstartFromString(text)
    return handler


REACHED = []
PRINTABLE = st.characters(blacklist_categories=("Cs",), blacklist_characters="\0")
WORD = st.text(PRINTABLE, min_size=1, max_size=12)
LINE = st.text(PRINTABLE, min_size=1, max_size=20)
# Half plain items, half anything: enough examples get through the checks to be rendered and parsed.
PACKAGE = st.one_of(st.from_regex(r"[a-z0-9][a-z0-9._+-]{0,15}", fullmatch=True), LINE)
SCRIPT = st.one_of(st.from_regex(r"[a-z]+( [a-zA-Z0-9/._-]+){0,3}", fullmatch=True), st.text(PRINTABLE, max_size=40))


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(lang=WORD, keyboard=WORD, timezone=WORD, gecos=LINE, key=LINE, package=PACKAGE, script=SCRIPT,
       luks=LINE, finish=st.sampled_from(["reboot", "poweroff", "halt", "shutdown", "reboot --eject"]))
def test_what_passes_the_checks_parses_back_as_given(lang, keyboard, timezone, gecos, key, package, script,
                                                     luks, finish):
    content = server(lang=lang, keyboard=keyboard, timezone=timezone, packages=[package], post_scripts=[script],
                     finish=finish)
    users = [{"name": "alice", "gecos": gecos, "ssh_keys": [key], "password": "Xk9#mQ2!zLp7qR5"}]
    problems = input_problems(content, users, [key]) + secret_problems("kickstart_luks_passphrase", luks)
    injected = any(len((value + "x").splitlines()) != 1
                   for value in (lang, keyboard, timezone, gecos, key, package, luks)) or any(line.lstrip().startswith("%") for line in script.splitlines())
    if injected:
        assert problems, "a value that adds lines passed the checks"
    if problems:
        return
    if package.strip().startswith(("#", "-", "@")) or not package.strip() or package != package.strip() \
            or " " in package or "#" in package or not script.strip() or script != script.strip() \
            or "#" in key or "#" in gecos:
        return  # legal, but pykickstart reads these as something else than one plain item
    REACHED.append(1)
    handler = _parse(_render(content, users, [key], luks))
    assert handler.lang.lang == lang
    assert handler.keyboard.keyboard == keyboard
    assert handler.timezone.timezone == timezone
    assert handler.user.userList[0].gecos == gecos
    assert [k.key for k in handler.sshkey.sshUserList] == [key, key]
    assert handler.packages.packageList == [package]
    assert [s.script.strip() for s in handler.scripts] == [script]
    assert handler.autopart.passphrase == luks
    assert handler.rootpw.isCrypted and handler.reboot.action is not None


def test_the_property_reached_pykickstart():
    """The property above must not pass by skipping: most examples are rendered and parsed."""
    if not REACHED:
        test_what_passes_the_checks_parses_back_as_given()
    assert len(REACHED) >= 20, len(REACHED)  # of 40 examples


def test_storage_scripts_and_hostname_render_as_pykickstart_reads_them():
    content = server(
        hostname="web01.example.com",
        storage=["part /boot --fstype=xfs --size=1024", "part pv.01 --grow --encrypted", "volgroup sys pv.01",
                 "logvol / --vgname=sys --name=root --size=1 --grow"],
        pre_scripts=[{"body": "echo pre", "log": "/tmp/pre.log", "interpreter": "/usr/bin/bash"}],
        post_scripts=["echo plain", {"body": "echo outside", "nochroot": True, "erroronfail": True}])
    assert content_problems(content) == []
    luks = "Disk pass 'x' #7"
    handler = _parse(_render(content, [], [], luks))
    assert not handler.autopart.autopart
    boot, pv = handler.partition.partitions
    assert (boot.mountpoint, boot.size, pv.encrypted, pv.passphrase) == ("/boot", 1024, True, luks)
    assert handler.logvol.lvList[0].mountpoint == "/" and handler.volgroup.vgList[0].vgname == "sys"
    assert [n.hostname for n in handler.network.network if n.hostname] == ["web01.example.com"]
    pre, plain, outside = handler.scripts
    assert (pre.type, pre.logfile, pre.interp, pre.script.strip()) == (0, "/tmp/pre.log", "/usr/bin/bash", "echo pre")
    assert (plain.script.strip(), plain.inChroot, plain.errorOnFail) == ("echo plain", True, False)
    assert (outside.script.strip(), outside.inChroot, outside.errorOnFail) == ("echo outside", False, True)
