# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The pwpolicy_check filter with plain and vaulted values, on the running ansible-core."""

import json
import os
import subprocess
import sys

import pytest
from ansible.errors import AnsibleFilterError
from ansible.parsing.vault import AnsibleVaultError

from ansible_collections.kickstart.pwpolicy.plugins.filter.pwpolicy_check import FilterModule, pwpolicy_check
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _pwquality
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak as shared_assert_no_leak

SECRET = "Xk9#mQ2!zLp7qR5@wT"  # 18 characters
WEAK = "Summer2024"


def assert_no_leak(password, *shown):
    shared_assert_no_leak(password, *shown, piece=5)


# Templating runs in a fresh interpreter: the collection loader must import this
# collection itself (here it is already imported as a plain package).
TEMPLATE_SCRIPT = r"""
import json, os, sys
from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret
from ansible.plugins.loader import init_plugin_loader
from ansible.template import Templar
try:
    from ansible.template import trust_as_template
except ImportError:
    trust_as_template = lambda text: text
try:
    from ansible.parsing.vault import VaultSecretsContext
except ImportError:
    VaultSecretsContext = None

request = json.load(sys.stdin)
secrets = [("default", VaultSecret(b"right"))]
if VaultSecretsContext is not None:
    VaultSecretsContext.initialize(VaultSecretsContext(secrets))
init_plugin_loader(os.environ["ANSIBLE_COLLECTIONS_PATH"].split(os.pathsep))
loader = DataLoader()
loader.set_vault_secrets(secrets)
ciphertext = VaultLib([("default", VaultSecret(request["vault_password"].encode()))]).encrypt(request["plaintext"])
if isinstance(ciphertext, bytes):
    ciphertext = ciphertext.decode()
value = loader.load("value: !vault |\n  %s\n" % ciphertext.strip().replace("\n", "\n  "))["value"]
variables = {"pw": value, "outer": {"pw": value}}
try:
    result = Templar(loader=loader, variables=variables).template(trust_as_template(request["expression"]))
    print(json.dumps({"result": result, "type": type(value).__name__}))
except Exception as exc:
    print(json.dumps({"error": type(exc).__name__, "message": str(exc), "mro": [c.__name__ for c in type(exc).__mro__]}))
"""


def template(plaintext, expression, vault_password="right"):
    """Template expression with pw (and outer.pw) a vaulted plaintext, on the running core."""
    proc = subprocess.run(
        [sys.executable, "-c", TEMPLATE_SCRIPT],
        input=json.dumps({"plaintext": plaintext, "expression": expression, "vault_password": vault_password}),
        capture_output=True, text=True, env=dict(os.environ), check=False, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert_no_leak(plaintext, proc.stderr)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_filter_is_registered():
    found = FilterModule().filters()
    assert list(found) == ["pwpolicy_check"] and found["pwpolicy_check"].__wrapped__ is pwpolicy_check  # behind the option check


def test_plain_string():
    report = pwpolicy_check(SECRET, "luks", product="workstation")
    assert report["verdict"] == "accepted"
    assert report["policy"]["minlen"] == 16
    assert_no_leak(SECRET, report)


def test_report_shape():
    report = pwpolicy_check(WEAK, {"name": "root", "minlen": 12, "strict": True})
    assert sorted(report) == ["hints", "ok", "policy", "reasons", "score", "strength", "verdict"]
    assert report["verdict"] == "rejected" and report["ok"] is False
    assert report["reasons"][0] == "shorter than 12 characters (has 10)"


def test_user_policy_passes_the_account_name():
    assert pwpolicy_check("Xk9alicEQ2!z", "user", product="workstation", user="alice")["strength"] == "weak"
    assert pwpolicy_check("Xk9alicEQ2!z", "user", product="workstation", user="bob")["strength"] != "weak"


def test_settings_and_target():
    report = pwpolicy_check("Xk9mQ2zLp7qR", "root", target="F22", settings={"minclass": 4})
    assert report["policy"] == {"name": "root", "minlen": 8, "minquality": 50, "strict": True,
                                "emptyok": True, "changesok": False}
    assert "character classes" in report["reasons"][0]


def test_vaulted_value_direct(vault):
    value = vault(SECRET)
    assert type(value).__name__ in ("AnsibleVaultEncryptedUnicode", "EncryptedString")
    report = pwpolicy_check(value, "luks", product="workstation")
    assert report["verdict"] == "accepted"
    assert report == pwpolicy_check(SECRET, "luks", product="workstation")


CHECK = "{{ pw | kickstart.pwpolicy.pwpolicy_check('root', product='server') }}"


@pytest.mark.parametrize("password,verdict", [(SECRET, "accepted"), (WEAK, "rejected")])
def test_vaulted_value_through_templating(password, verdict):
    out = template(password, CHECK)
    assert out["type"] in ("AnsibleVaultEncryptedUnicode", "EncryptedString")
    report = out["result"]
    assert report["verdict"] == verdict
    assert report == pwpolicy_check(password, "root", product="server")
    assert_no_leak(password, out)
    if verdict == "rejected":
        assert report["reasons"][0] == "shorter than 15 characters (has 10)"


def test_vaulted_value_through_a_nested_variable():
    out = template(SECRET, "{{ outer.pw | kickstart.pwpolicy.pwpolicy_check('luks', product='workstation') }}")
    assert out["result"]["verdict"] == "accepted"


@pytest.mark.parametrize("product,expected", [("cloud", False), ("workstation", True)])
def test_vaulted_value_through_the_test_plugin(product, expected):
    out = template(SECRET, "{{ pw is kickstart.pwpolicy.pwpolicy_compliant('luks', product='%s') }}" % product)
    assert out["result"] is expected  # cloud LUKS wants 20 characters, workstation 16


def test_wrong_vault_password_gives_the_vault_error():
    out = template(SECRET, CHECK, vault_password="wrong")
    assert "AnsibleError" in out["mro"]
    assert out["error"] != "AnsibleFilterError"
    assert "Decryption failed" in out["message"]
    assert "pwpolicy_check:" not in out["message"]


def test_wrong_vault_password_direct_call(vault):
    with pytest.raises(AnsibleVaultError, match="Decryption failed"):
        pwpolicy_check(vault(SECRET, vault_password=b"wrong"), "root", product="server")


@pytest.mark.parametrize("kwargs,message", [
    # The product and the target are no secrets: shown.
    (dict(policy="root", product="laptop"), "unknown product 'laptop'"),
    (dict(policy={"name": "root", "minlenn": 3}), "unknown key '<hidden>'"),
    (dict(policy={"name": "admin"}), "unknown policy name '<hidden>'"),
    (dict(policy=SECRET), "not a policy name"),
    (dict(policy="root", settings={"minlen": 3}), "set the policy's minlen instead"),
    (dict(policy="root", settings={"dictpath": "/nonexistent/pw_dict"}), "cracklib-runtime"),
    (dict(policy="root", user=12), "user must be a string"),
    (dict(policy="root", target="F99x"), "unknown target 'F99x'"),
    (dict(policy="root", settings="minclass=3"), "settings must be a dict"),
    (dict(policy=["root"]), "a policy must be a dict"),
    (dict(policy="root", product="server", rules=SECRET), "rules must be one of collection, installer, got another"),
    (dict(policy="root", product="server", fips="true"), "fips must be true or false, got str"),
])
def test_errors_are_filter_errors_without_the_password(kwargs, message):
    # Any argument may come from a vault: a value given is never repeated,
    # so a typo shows as <hidden> next to the list of valid values.
    policy = kwargs.pop("policy")
    with pytest.raises(AnsibleFilterError) as info:
        pwpolicy_check(SECRET, policy, **kwargs)
    assert message in str(info.value)
    assert str(info.value).startswith("pwpolicy_check: ")
    assert_no_leak(SECRET, str(info.value) + repr(info.value))


def test_password_given_as_policy_is_not_echoed_even_vaulted(vault):
    with pytest.raises(AnsibleFilterError) as info:
        pwpolicy_check("root", vault(SECRET))
    assert_no_leak(SECRET, str(info.value))


@pytest.mark.parametrize("value,message", [
    (None, "got null (is the variable set?)"),
    (12345678, "got a number (quote it in YAML)"),
    (["a"], "got a list"),
    ({"a": 1}, "got a mapping"),
    (True, "got a boolean"),
])
def test_non_string_password(value, message):
    with pytest.raises(AnsibleFilterError) as info:
        pwpolicy_check(value, "root")
    assert message in str(info.value)
    assert "12345678" not in str(info.value)


def test_backend_missing_is_a_filter_error(monkeypatch):
    def unavailable():
        raise _pwquality.BackendUnavailable("cannot check passwords: ... " + _pwquality.PACKAGES_HINT)

    monkeypatch.setattr(_pwquality, "_BACKEND", None)
    monkeypatch.setattr(_pwquality, "load_backend", unavailable)
    with pytest.raises(AnsibleFilterError, match="python3-pwquality"):
        pwpolicy_check(SECRET, "root")


@pytest.mark.parametrize("password,policy,kwargs,collection,installer", [
    # Server root: minlen 15, strict. Too short is rejected either way.
    (WEAK, "root", dict(product="server"), "rejected", "rejected"),
    # Workstation root is not strict: text mode still refuses a password that is too short.
    ("Kx9#mQ2", "root", dict(product="workstation"), "accepted_weak", "rejected"),
    # An empty root password with notempty: text mode takes it as "no password".
    ("", {"name": "root", "emptyok": False}, dict(product="workstation"), "rejected", "accepted"),
    # A FIPS system refuses a LUKS passphrase under 8 characters, strict or not.
    ("Kx9#mQ2", {"name": "luks", "minlen": 6, "minquality": 0, "strict": False}, dict(fips=True),
     "rejected", "rejected"),
])
def test_rules_and_fips_reach_the_check(password, policy, kwargs, collection, installer):
    assert pwpolicy_check(password, policy, **kwargs)["verdict"] == collection
    assert pwpolicy_check(password, policy, rules="collection", **kwargs)["verdict"] == collection
    assert pwpolicy_check(password, policy, rules="installer", **kwargs)["verdict"] == installer


def test_rules_and_fips_through_templating():
    expression = ("{{ pw | kickstart.pwpolicy.pwpolicy_check({'name': 'luks', 'minlen': 6, 'minquality': 0, "
                  "'strict': false}, rules='installer', fips=true) }}")
    out = template("Kx9#mQ2", expression)
    assert out["result"]["verdict"] == "rejected"
    assert out["result"]["reasons"] == [
        "shorter than the 8 characters a LUKS passphrase needs in FIPS mode (has 7)"]
