# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The audit over a fleet that shares its secrets: one estimate per secret, and one value used twice said.

Every host of the inventory takes root's password, the LUKS passphrase and the boot loader's password from one
vaulted group variable, as a fleet keeps them in group_vars.
"""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.action.audit_report import ActionModule
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _guesses
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._audit_hosts import HostsCheck
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._weakest import weakest_table
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.plugin_utils.test_audit_hosts import (
    load_inventory,
    vaulted,
)

pytest.importorskip("zxcvbn")

HOSTS = 20
SHARED = "Lantern-Orbit-57-Harbour"
OWN = "Quillon-Brisket-4417-Mast"


@pytest.fixture
def fleet(tmp_path, monkeypatch):
    (tmp_path / "group_vars").mkdir()
    (tmp_path / "host_vars").mkdir()
    (tmp_path / "group_vars" / "fleet.yml").write_text(
        "kickstart_product: server\nkickstart_target: RHEL9\nvault_shared: %s\n"
        "kickstart_root_password: '{{ vault_shared }}'\nkickstart_luks_passphrase: '{{ vault_shared }}'\n"
        "kickstart_bootloader_password: '{{ vault_shared }}'\n" % vaulted(SHARED))
    # One host has a LUKS passphrase of its own.
    (tmp_path / "host_vars" / "web000.yml").write_text("kickstart_luks_passphrase: %s" % vaulted(OWN))
    hosts = ["web%03d" % index for index in range(HOSTS)]
    (tmp_path / "hosts.ini").write_text("[fleet]\n%s\n" % "\n".join(hosts))
    return load_inventory(tmp_path, monkeypatch) + (hosts,)


def test_a_secret_the_fleet_shares_is_estimated_once_and_its_reuse_said_on_every_host(fleet, monkeypatch):
    real = _guesses._zxcvbn()
    calls = []

    def spy(password, user_inputs=None, max_length=72):
        calls.append(user_inputs)
        return real(password, user_inputs=user_inputs, max_length=max_length)

    monkeypatch.setattr(_guesses, "_zxcvbn", lambda: spy)
    templar, hostvars, hosts = fleet
    done = HostsCheck(templar, hostvars, hosts).run(1)
    # 20 hosts, each with its own host name, 40 estimates asked for: the shared secret (root's and the LUKS
    # passphrase alike) once, web000's own passphrase once.
    assert sum(len(done[host]["weakest_link"]["secrets"]) for host in hosts) == 2 * HOSTS
    assert len(calls) == 2
    first = done[hosts[1]]["weakest_link"]["secrets"]
    assert all(done[host]["weakest_link"]["secrets"] == first for host in hosts[1:])

    (own,) = done["web000"]["weakest_link"]["reused"]
    assert own["secrets"] == ["root", "bootloader"]
    for host in hosts[1:]:
        (found,) = done[host]["weakest_link"]["reused"]
        assert found["secrets"] == ["root", "luks", "bootloader"]
        assert [text for text in done[host]["warnings"] if "same secret" in text] == [
            "%s: %s; %s" % (host, found["reason"], found["hint"])]
    # The audit's report: each host's weakest link as audit_report keeps it, and its table.
    reports = ActionModule._weakest(hosts, done)
    assert reports[7]["reused"] == done["web007"]["weakest_link"]["reused"]
    table = weakest_table(reports)
    assert "\nweb007: root, luks and bootloader are the same secret: " in table
    for value in (SHARED, OWN):
        assert_no_leak(value, done, reports, table, piece=5)
