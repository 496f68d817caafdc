# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the role writes from content that passes its checks parses back with pykickstart as given.

Controller side: the role's templates are rendered with ansible-core's
Templar, as the render action renders them (the checks themselves are node
code: module_utils/test_ks_content.py).
"""

import os
import re
import shlex

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._ks_content import (
    content_problems,
    input_problems,
    secret_problems,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.plugin_utils.test_ks_content import ROLE, server


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
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._crypt import account_salt, hash_secret
    # What the render_kickstart action gives the templates: the accounts' hashes.
    hashes = dict((label, hash_secret("Xk9#mQ2!zLp7qR5@", "sha512crypt", account_salt("seed", "host", label), 1000))
                  for label in ["root"] + ["user:" + user["name"] for user in users])
    variables = dict(__kickstart_content=content, __kickstart_target="RHEL8", kickstart_product="server",
                     __kickstart_hashes=hashes,
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
                  kickstart_bootloader_command=render("bootloader.j2"),
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
                   for value in (lang, keyboard, timezone, gecos, key, package, luks)) or any(
        re.match(r"\s*%[A-Za-z]", line) for line in script.splitlines())  # pykickstart keeps "%" or "%1" in a script
    if injected:
        assert problems, "a value that adds lines passed the checks"
    # assume() rather than return: hypothesis then draws more examples until
    # enough pass the checks, however its generator leans (it differs between
    # environments), instead of counting the refused ones as run.
    assume(not problems)
    # Legal, but pykickstart reads these as something else than one plain item.
    assume(not (package.strip().startswith(("#", "-", "@")) or not package.strip() or package != package.strip()
                or " " in package or "#" in package or not script.strip() or script != script.strip()
                or "#" in key or "#" in gecos))
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


STORAGE_LINES = [
    "part / --grow --encrypted", "part / --grow  # --encrypted", "part / --grow #--encrypted",
    "part / --grow --encrypted  # the root file system", "part / --grow --encrypted#x",
    "part / --grow '--encrypted'", 'part / --grow "--encrypted"', "part / --grow \\--encrypted",
    "part / --grow --label='a --encrypted b'", "part / --grow --encr", "part /boot --size=1024  # boot",
]


def test_the_passphrase_goes_only_where_the_installer_reads_encrypted():
    """Of every storage line that passes the checks, the installer reads --encrypted on exactly those the profile
    check counts, and each of them gets the passphrase; none lands in a comment."""
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._ks_content import encrypts
    luks = "Disk-Pass-7 x"
    passed = 0
    for line in STORAGE_LINES:
        content = server(storage=[line])
        if content_problems(content, "RHEL8"):
            continue
        passed += 1
        text = _render(content, [], [], luks)
        (partition,) = _parse(text).partition.partitions
        assert partition.encrypted is encrypts(line, "RHEL8"), line
        assert partition.passphrase == (luks if partition.encrypted else ""), line
        # The passphrase is on the kickstart only where the installer reads it.
        assert text.count(shlex.quote(luks)) == int(partition.encrypted), line
    assert passed == 3  # --encrypted as it is, and two lines where the installer reads no --encrypted
