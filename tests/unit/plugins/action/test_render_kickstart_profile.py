# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""render_kickstart with a compliance profile: the hashing narrowed, the cost held to the profile's minimum, the
boot loader's GRUB 2 hash with the documented salt, and what the %post drop-in is given."""

import hashlib
import os

import pytest
from ansible.plugins.action import ActionBase

from ansible_collections.kickstart.pwpolicy.plugins.action import render_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import secret
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._profile_check import RoleProfile, select
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.action.test_render_kickstart_hashes import _Action, own

GRUB = "Gq7%wZ4!vX8n-Rb2#kT"


def view(profile, target, exceptions=None):
    return RoleProfile(select(profile, target), exceptions)


@pytest.mark.parametrize("profile, target, wanted, expected", [
    ("stig", "RHEL10", "auto", ("sha512crypt", 656000)),  # the installer writes yescrypt; STIG asks for SHA-512
    ("stig", "RHEL9", "auto", ("sha512crypt", 656000)),
    ("pci_dss", "RHEL10", "auto", ("yescrypt", 5)),
    ("nist_800_63b", "RHEL10", "auto", ("yescrypt", 5)),
])
def test_a_profile_narrows_auto(profile, target, wanted, expected):
    action = _Action(target=target, dest="/srv/ks/a.ks")
    assert action._hashing(own(hash=wanted), "web01", view(profile, target)) == expected


def test_a_scheme_the_profile_does_not_allow_is_refused_naming_its_rules(monkeypatch):
    action = _Action(target="RHEL10", dest="/srv/ks/a.ks")
    with pytest.raises(render_kickstart.PwpolicyError) as caught:
        action._hashing(own(hash="yescrypt"), "web01", view("stig", "RHEL10"))
    message = str(caught.value)
    assert message.startswith("web01: the password hashes cannot be made, so nothing was written")
    assert "the selected compliance profile does not allow yescrypt password hashes; use sha512crypt" in message
    assert "stig (RHEL10) rules RHEL-10-600740, RHEL-10-600750, RHEL-10-600650, RHEL-10-600710; " \
           "kickstart_profile_exceptions waives them" in message
    # Waived, yescrypt is the user's to choose.
    every = ["RHEL-10-600740", "RHEL-10-600750", "RHEL-10-600650", "RHEL-10-600710"]
    assert action._hashing(own(hash="yescrypt"), "web01", view("stig", "RHEL10", every)) == ("yescrypt", 5)


def test_the_cost_below_the_profiles_minimum_is_a_deviation_of_the_pre_flight():
    found = view("stig", "RHEL9")
    assert _Action(target="RHEL9", dest="/a.ks")._hashing(own(hash_rounds=5000), "web01", found) == (
        "sha512crypt", 5000)
    assert [(d.what, d.given, d.asked) for d in found.deviations] == [
        ("kickstart_password_hash_rounds", 5000, 100000)]
    anssi = view("anssi", "RHEL10")
    _Action(target="RHEL10", dest="/a.ks")._hashing(own(), "web01", anssi)
    assert [(d.what, d.given, d.asked) for d in anssi.deviations] == [("kickstart_password_hash_cost", 5, 11)]


@pytest.mark.parametrize("iterations", [999, 10000001, "many"])
def test_boot_loader_iterations_out_of_range_stop_before_anything_is_read(monkeypatch, iterations):
    monkeypatch.setattr(ActionBase, "run", lambda self, tmp=None, task_vars=None: {})
    action = _Action(target="RHEL9", dest="/srv/ks/a.ks", bootloader_iterations=iterations, bootloader_password=GRUB)
    result = action.run(task_vars={"inventory_hostname": "web01"})
    assert result["failed"] and not action.checked
    assert result["msg"] == (
        "web01: the boot-loader password hash cannot be made, so nothing was written (the kickstart /srv/ks/a.ks "
        "was not changed): bootloader_iterations (the role's kickstart_bootloader_password_iterations) is %s, but "
        "GRUB 2 PBKDF2 iterations must be a whole number from 1000 to 10000000" % iterations)


def test_the_boot_loader_hash_is_grubs_with_the_documented_salt_and_never_a_crypt_hash():
    action = _Action(target="RHEL9", dest="/a.ks")
    action._hashing(own(bootloader_iterations="1000"), "web01")
    items = [secret("root", "root", value="Xk9#mQ2!zLp7qR5@wT", user="root"),
             secret("bootloader", "root", value=GRUB, user="root")]
    hashes = action._hashes(own(salt_seed="seed", host_id="web01"), ("sha512crypt", 5000), items, {})
    salt = hashlib.sha512(b"seed|web01|bootloader").digest()
    digest = hashlib.pbkdf2_hmac("sha512", GRUB.encode("utf-8"), salt, 1000, 64)
    assert hashes["bootloader"] == "grub.pbkdf2.sha512.1000.%s.%s" % (salt.hex().upper(), digest.hex().upper())
    assert hashes["root"].startswith("$6$")
    # Idempotent: the same inputs, the same line.
    assert action._hashes(own(salt_seed="seed", host_id="web01"), ("sha512crypt", 5000), items, {}) == hashes
    other = action._hashes(own(salt_seed="seed", host_id="web02"), ("sha512crypt", 5000), items, {})
    assert other["bootloader"] != hashes["bootloader"]


def test_the_default_iterations_are_grubs():
    action = _Action(target="RHEL9", dest="/a.ks")
    action._hashing(own(), "web01")
    hashes = action._hashes(own(), ("sha512crypt", 5000), [secret("bootloader", "root", value=GRUB, user="root")],
                            {"inventory_hostname": "web01"})
    assert hashes["bootloader"].startswith("grub.pbkdf2.sha512.10000.")


class _Rendering(_Action):
    """The template step alone, with a pre-flight whose check by profile is given."""

    def __init__(self, found):
        super(_Rendering, self).__init__()
        self.seen = {}
        self._loader = None
        self._secrets_check = type("Check", (), {"profile_view": found})()

    def _preflight(self):
        return self._secrets_check


def test_the_template_gets_every_setting_and_the_login_defs_lines(monkeypatch):
    from ansible.plugins.loader import lookup_loader
    rendering = _Rendering(view("stig", "RHEL9"))

    class _Lookup(object):
        def run(self, terms, variables):
            rendering.seen.update(variables)
            return ["text"]
    monkeypatch.setattr(lookup_loader, "get", lambda *args, **kwargs: _Lookup())
    rendering._templar = type("Templar", (), {"available_variables": {}})()
    check = {"policies": {}, "delivery": {"section": False}}
    rendering._render(own(), {"target": "RHEL9"}, check, {}, {}, "sha512crypt")
    seen = rendering.seen
    assert seen["kickstart_pwquality"]["minclass"] == 4 and seen["kickstart_pwquality"]["retry"] == 3
    assert seen["kickstart_login_defs"] == [["ENCRYPT_METHOD", "SHA512"], ["SHA_CRYPT_MIN_ROUNDS", 100000]]


def test_the_role_templates_write_the_hash_never_a_password():
    from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import ROOT
    with open(os.path.join(ROOT, "roles", "kickstart", "templates", "bootloader.j2"), encoding="utf-8") as handle:
        text = handle.read()
    assert "__kickstart_hashes" in text and "kickstart_bootloader_password" not in text.split("-#}", 1)[1]
