# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The audit's one task over every host (plugin_utils/_audit_hosts.py), on a real inventory.

Each host's check is the one check_secrets makes with role_vars on that
host's variables; spreading the hosts over processes changes nothing of it;
a vaulted secret is decrypted in the process that checks it, one that cannot
be is an error finding of that secret; a check that crashes or a process
that dies is said without a value.
"""

import os

import pytest

from ansible.inventory.manager import InventoryManager
from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret

try:
    from ansible.parsing.vault import VaultSecretsContext
except ImportError:  # ansible-core before 2.19: the loader's secrets decrypt
    VaultSecretsContext = None
from ansible.template import Templar
from ansible.vars.hostvars import HostVars
from ansible.vars.manager import VariableManager

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _audit_hosts
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._audit_hosts import (
    HostsCheck,
    host_arguments,
    processes_for,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_check import SecretsCheck
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import SecretReader
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

VAULT_PASSWORD = b"unit-test-only"
STRONG = "Xk9#mQ2!zLp7qR5@wT"
SHORT = "abc12"
OTHER_VAULT = "Hq4$nV8&cW2@rT6!yB"


def vaulted(text, password=VAULT_PASSWORD):
    secret = VaultSecret(password)
    data = VaultLib([("default", secret)]).encrypt(text.encode(), secret).decode("ascii")
    return "!vault |\n" + "".join("      %s\n" % line for line in data.splitlines())


def load_inventory(tmp_path, monkeypatch):
    """``(templar, hostvars)`` of the inventory ``tmp_path/hosts.ini``, its vaulted values decrypted with
    VAULT_PASSWORD as the command line sets it."""
    secrets = [("default", VaultSecret(VAULT_PASSWORD))]
    loader = DataLoader()
    loader.set_vault_secrets(secrets)
    if VaultSecretsContext is not None:  # ansible-core 2.19+ decrypts with the run's secrets, as the CLI sets them
        monkeypatch.setattr(VaultSecretsContext, "_current", VaultSecretsContext(secrets))
    manager = InventoryManager(loader=loader, sources=[str(tmp_path / "hosts.ini")])
    variables = VariableManager(loader=loader, inventory=manager)
    hostvars = HostVars(inventory=manager, variable_manager=variables, loader=loader)
    return Templar(loader=loader, variables={}), hostvars


@pytest.fixture
def inventory(tmp_path, monkeypatch):
    """Six hosts over two products: strong, short and foreign-vault secrets, one host with the weakest link off."""
    hosts = {
        "srv1": "kickstart_root_password: %s" % vaulted(STRONG),
        "srv2": "kickstart_root_password: %s" % vaulted(SHORT),
        "srv3": "kickstart_root_password: %s" % vaulted(OTHER_VAULT, b"another-password"),
        "ws1": "kickstart_users:\n  - name: alice\n    password: %s" % vaulted(STRONG),
        "ws2": "kickstart_luks_passphrase: %s" % vaulted("correct horse battery staple"),
        "ws3": "kickstart_root_password: %s\nkickstart_weakest_link: never\n" % vaulted(STRONG),
    }
    (tmp_path / "host_vars").mkdir()
    (tmp_path / "group_vars").mkdir()
    for host, text in hosts.items():
        (tmp_path / "host_vars" / (host + ".yml")).write_text(text)
    (tmp_path / "group_vars" / "server.yml").write_text("kickstart_product: server\nkickstart_target: RHEL9\n")
    (tmp_path / "group_vars" / "workstation.yml").write_text("kickstart_product: workstation\nkickstart_target: F40\n")
    (tmp_path / "hosts.ini").write_text("[server]\nsrv1\nsrv2\nsrv3\n\n[workstation]\nws1\nws2\nws3\n")
    return load_inventory(tmp_path, monkeypatch) + (sorted(hosts),)


def check_alone(templar, hostvars, host, hosts):
    """check_secrets with role_vars on one host's variables, as a task of its own would run it."""
    task_vars = dict(hostvars.raw_get(host), ansible_play_hosts=hosts, ansible_play_hosts_all=hosts)
    host_templar = templar.copy_with_new_env(available_variables=task_vars)

    def get(name):
        return host_templar.template(task_vars[name]) if name in task_vars else _audit_hosts._MISSING  # pylint: disable=protected-access

    args = host_arguments(get)
    return SecretsCheck(SecretReader(host_templar.template, host_templar), args).run({}, task_vars)[0]


def test_host_arguments_defaults_and_earlier_names():
    def get_from(values):
        return lambda name: values.get(name, _audit_hosts._MISSING)  # pylint: disable=protected-access

    args = host_arguments(get_from({"inventory_hostname": "web01"}))
    assert args["role_vars"] is True and args["fail"] is False and args["fail_on"] == "rejected"
    assert "profile" not in args and "blocklist" not in args
    assert args["weakest"]["hash"] == "auto" and args["weakest"]["hostname"] == "web01"
    assert args["weakest"]["require_estimates"] is False and args["weakest"]["rounds"] is None

    args = host_arguments(get_from({"inventory_hostname": "web01", "kickstart_audit_fail_on": "weak",
                                    "kickstart_crack_warn_seconds": 60, "kickstart_host_id": "web01.example",
                                    "kickstart_profile": "stig", "kickstart_weakest_link": "required"}))
    assert args["fail_on"] == "weak" and args["profile"] == "stig"
    assert args["weakest"]["warn_seconds"] == 60 and args["weakest"]["hostname"] == "web01.example"
    assert args["weakest"]["require_estimates"] is True

    args = host_arguments(get_from({"kickstart_fail_on": "never", "kickstart_audit_fail_on": "weak",
                                    "kickstart_weakest_link": "never"}))
    assert args["fail_on"] == "never" and "weakest" not in args


@pytest.mark.parametrize("processes", [1, 2, 4])
def test_each_host_is_checked_as_its_own_task_would(inventory, processes):
    templar, hostvars, hosts = inventory
    done = HostsCheck(templar, hostvars, hosts).run(processes)
    assert sorted(done) == hosts
    for host in hosts:
        alone = check_alone(templar, hostvars, host, hosts)
        assert done[host] == dict((key, alone[key]) for key in _audit_hosts.KEPT if key in alone), host
        for secret in (STRONG, SHORT, OTHER_VAULT):
            assert_no_leak(secret, done[host], piece=5)
    verdicts = dict((host, [(f["secret"], f["verdict"]) for f in done[host]["findings"]]) for host in hosts)
    assert verdicts["srv1"] == [("root", "accepted")]
    assert verdicts["srv2"] == [("root", "rejected")]
    assert verdicts["srv3"] == [("root", "error")]  # encrypted with a vault password this run lacks
    assert "vault" in done["srv3"]["findings"][0]["reasons"][0]
    assert "weakest_link" in done["srv1"] and "weakest_link" not in done["ws3"]


def test_a_host_the_inventory_lacks_is_a_failed_check_that_names_it(inventory):
    templar, hostvars, dummy_hosts = inventory
    done = HostsCheck(templar, hostvars, ["srv1", "nosuchhost"]).run(2)
    assert done["nosuchhost"] == {"failed": True, "msg": "nosuchhost: not a host of the inventory"}
    assert [f["verdict"] for f in done["srv1"]["findings"]] == ["accepted"]


@pytest.mark.parametrize("processes", [1, 2])
def test_a_crashing_check_is_said_without_its_text(inventory, monkeypatch, processes):
    templar, hostvars, hosts = inventory

    def crash(self, result, task_vars, announce=True):
        raise ValueError("a message that quotes %s" % STRONG)

    monkeypatch.setattr(SecretsCheck, "run", crash)
    done = HostsCheck(templar, hostvars, hosts).run(processes)
    assert done["srv1"] == {"failed": True, "msg": _audit_hosts.CRASHED % ("srv1", "ValueError")}
    assert_no_leak(STRONG, done, piece=5)


def test_a_process_that_dies_fails_the_audit(inventory, monkeypatch):
    templar, hostvars, hosts = inventory

    def die(self, hosts):
        os._exit(3)  # pylint: disable=protected-access

    monkeypatch.setattr(HostsCheck, "share", die)
    with pytest.raises(PwpolicyError, match=r"a process checking the hosts stopped \(exit code 3, 3\)"):
        HostsCheck(templar, hostvars, hosts).run(2)


def test_processes_are_the_usable_cores_at_most_forks():
    cores = processes_for(None)
    assert cores >= 1
    assert processes_for(1) == 1
    assert processes_for(10000) == cores


def test_the_audit_and_the_role_judge_a_workstation_under_the_stig_alike(tmp_path, monkeypatch):
    """A Workstation host under the STIG: the preset's looser fields are the role's to tighten, not a conflict the
    audit warns about on every run without naming the host."""
    (tmp_path / "host_vars").mkdir()
    (tmp_path / "host_vars" / "ws9.yml").write_text(
        "kickstart_product: workstation\nkickstart_target: RHEL9\nkickstart_profile: stig\n"
        "kickstart_weakest_link: never\nkickstart_root_password: %s\nkickstart_luks_passphrase: %s\n"
        "kickstart_bootloader_password: %s\n" % (vaulted("LeakMark-r00t-Gq7%wZ4!vX8n"),
                                                 vaulted("LeakMark-l4ks-Jd6#Pw3*Tq8@"),
                                                 vaulted("LeakMark-b00t-Rb2#kT5^yN9d")))
    (tmp_path / "hosts.ini").write_text("[workstation]\nws9\n")
    templar, hostvars = load_inventory(tmp_path, monkeypatch)
    audit = HostsCheck(templar, hostvars, ["ws9"]).run(1)["ws9"]
    # The role's pre-flight: check_secrets with role_vars, where the role's defaults are variables too.
    task_vars = dict(hostvars.raw_get("ws9"), kickstart_profile_exceptions=[], kickstart_pwquality_settings={})
    host_templar = templar.copy_with_new_env(available_variables=task_vars)
    role = SecretsCheck(SecretReader(host_templar.template, host_templar),
                        {"role_vars": True, "fail": False, "profile": "stig"}).run({}, task_vars)[0]
    assert audit["findings"] == role["findings"]
    assert [(f["secret"], f["verdict"]) for f in audit["findings"]] == [
        ("root", "accepted"), ("luks", "accepted"), ("bootloader", "accepted")]
    assert audit.get("warnings", []) == role.get("warnings", []) == []
    assert role["profile"]["deviations"] == []


def test_audit_warnings_say_each_warning_once_for_its_hosts():
    http = "kickstart_base_url is plain http:// while the kickstart holds password hashes: they travel in clear"
    below = "root: offline_sha512crypt (needs a copy of the kickstart), about 4 minutes, below 1.0 years " \
            "(kickstart_warn_crack_seconds): use a longer password"
    results = {
        "h1": {"warnings": ["h1: " + http, "h1: " + below]},
        "h2": {"warnings": ["h2: " + http]},
        "h3": {"warnings": ["h3: " + below.replace("4 minutes", "3 days"), "weakest links not estimated: x"]},
        "h4": {"warnings": ["weakest links not estimated: x"]},
        "h5": {},
    }
    found = _audit_hosts.audit_warnings(["h1", "h2", "h3", "h4", "h5"], results)
    assert found == [
        "h1, h2: " + http,
        "weakest links not estimated: x",
        "2 of 5 hosts keep a secret below kickstart_warn_crack_seconds (h1, h3): the weakest links table above "
        "gives each host's weakest link and how long it would hold",
    ]


def test_audit_warnings_count_the_hosts_they_do_not_name():
    hosts = ["h%02d" % number for number in range(1, 21)]
    results = dict((host, {"warnings": ["%s: same text" % host]}) for host in hosts)
    assert _audit_hosts.audit_warnings(hosts, results) == [
        "h01, h02, h03, h04, h05, h06, h07, h08 and 12 more: same text"]
