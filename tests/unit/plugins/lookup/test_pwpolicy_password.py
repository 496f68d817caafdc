# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The pwpolicy_password lookup: one accepted value in a list, errors as AnsibleLookupError without the value."""

import hashlib
import random

import pytest
from ansible.errors import AnsibleLookupError
from ansible import constants as C
from ansible.module_utils.common.yaml import yaml_load

from ansible_collections.kickstart.pwpolicy.plugins.filter.compliance_profile import compliance_profile
from ansible_collections.kickstart.pwpolicy.plugins.lookup import pwpolicy_password
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _generate
from ansible_collections.kickstart.pwpolicy.plugins.test.pwpolicy_compliant import pwpolicy_compliant
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak


def run(*terms, **options):
    """The lookup as the plugin loader gives it: its options are those of its DOCUMENTATION."""
    plugin = pwpolicy_password.LookupModule()
    plugin._load_name = pwpolicy_password.__name__
    C.config.initialize_plugin_configuration_definitions(
        "lookup", plugin._load_name, yaml_load(pwpolicy_password.DOCUMENTATION)["options"])
    return plugin.run(list(terms), {}, **options)


def profile_settings(name, target):
    return dict((k, v) for k, v in compliance_profile(name, target)["pwquality"].items()
                if k not in ("minlen", "enforce_for_root", "retry"))


@pytest.mark.parametrize("options, policy, product", [
    ({}, "user", "server"),
    ({"policy": "root", "product": "workstation"}, "root", "workstation"),
    ({"policy": "luks", "kind": "passphrase"}, "luks", "server"),
    ({"policy": {"name": "user", "minlen": 10, "minquality": 40, "strict": True}, "length": 12},
     {"name": "user", "minlen": 10, "minquality": 40, "strict": True}, "server"),
])
def test_a_policy_accepts_the_value(options, policy, product):
    found = run(**options)
    assert isinstance(found, list) and len(found) == 1 and isinstance(found[0], str)
    assert pwpolicy_compliant(found[0], policy, product=product, allow_weak=False)


@pytest.mark.parametrize("kind", ["password", "passphrase"])
@pytest.mark.parametrize("name, policy_name", [("stig", "user"), ("stig", "luks"), ("nist_800_63b", "root")])
def test_a_profile_accepts_the_value(name, policy_name, kind):
    [value] = run(profile=name, target="RHEL9", policy_name=policy_name, kind=kind, username="alice")
    policy = compliance_profile(name, "RHEL9")["policies"][policy_name]
    assert pwpolicy_compliant(value, policy, user="alice", settings=profile_settings(name, "RHEL9"), allow_weak=False)


def test_lengths_and_words():
    assert len(run(length=32)[0]) == 32
    assert len(run(kind="passphrase", words=8, separator=".")[0].split(".")) == 8


def test_two_calls_differ():
    assert run() != run()
    assert run(kind="passphrase") != run(kind="passphrase")


@pytest.mark.parametrize("options, expected", [
    ({"profile": "stgi", "target": "RHEL9"}, "pwpolicy_password \\(password\\): unknown compliance profile 'stgi'"),
    ({"profile": "ospp", "target": "RHEL6"}, "has no values for target 'RHEL6': give one of RHEL8"),
    ({"policy": "admin"}, "a policy name \\(root, user, luks\\)"),
    ({"policy_name": "luks"}, "policy_name goes with profile"),
    ({"policy": "luks", "length": 8}, "give length 20 or more"),
    ({"length": 5000}, "give at most 4096"),
    ({"blocklist": ["/nonexistent/corpus"]}, "blocklist /nonexistent/corpus: no such file"),
    ({"kind": "word"}, "kind"),
])
def test_bad_input(options, expected):
    with pytest.raises(AnsibleLookupError, match=expected):
        run(**options)


def test_terms_are_refused():
    with pytest.raises(AnsibleLookupError, match="takes no terms"):
        run("root")


def test_the_error_after_the_last_attempt_holds_no_generated_value(tmp_path, monkeypatch):
    plan = _generate.prepare(policy="root")
    source = random.Random(42)
    candidates = [_generate.candidate(plan, source) for dummy in range(_generate.MAX_ATTEMPTS)]
    corpus = tmp_path / "pwned.txt"
    corpus.write_text("".join(sorted(hashlib.sha1(v.encode()).hexdigest().upper() + ":1\n" for v in candidates)))
    monkeypatch.setattr(_generate.secrets, "SystemRandom", lambda: random.Random(42))
    with pytest.raises(AnsibleLookupError) as caught:
        run(policy="root", blocklist=[str(corpus)])
    message = str(caught.value)
    assert "no password of 19 characters that the root policy" in message and "(100 times)" in message
    for value in candidates:
        assert_no_leak(value, message, piece=8)


def test_a_passphrase_of_too_few_words_gets_a_warning_without_its_value(monkeypatch):
    warned = []
    monkeypatch.setattr(pwpolicy_password.display, "warning", warned.append)
    short = {"name": "luks", "minlen": 10, "minquality": 1, "strict": True}
    [value] = run(kind="passphrase", words=2, policy=short)
    assert len(warned) == 1 and warned[0].startswith("pwpolicy_password: words=2: the words of this passphrase carry "
                                                     "30 bits of randomness, below the 64 bits")
    assert "Give words=5 or more" in warned[0]
    assert_no_leak(value, warned)
    del warned[:]
    run(kind="passphrase", words=5, policy=short)
    run(kind="passphrase", policy=short)
    run(policy=short, length=10)
    assert warned == []


def run_with_loader(basedir, secrets, variables=None, **options):
    """The lookup with a loader whose base directory (the playbook's) and vault secrets are given."""
    from ansible.parsing.dataloader import DataLoader
    loader = DataLoader()
    loader.set_basedir(str(basedir))
    loader.set_vault_secrets(secrets)
    plugin = pwpolicy_password.LookupModule(loader=loader)
    plugin._load_name = pwpolicy_password.__name__
    C.config.initialize_plugin_configuration_definitions(
        "lookup", plugin._load_name, yaml_load(pwpolicy_password.DOCUMENTATION)["options"])
    return plugin.run([], variables or {}, **options)


def test_file_is_relative_to_the_playbook_directory_and_read_back(tmp_path):
    from ansible.parsing.vault import VaultLib, VaultSecret
    secrets = [("default", VaultSecret(b"vault-password"))]
    (tmp_path / "secrets").mkdir()
    [first] = run_with_loader(tmp_path, secrets, policy="root", file="secrets/root.vault")
    stored = tmp_path / "secrets" / "root.vault"
    assert VaultLib(secrets).decrypt(stored.read_bytes()).decode() == first
    assert run_with_loader(tmp_path, secrets, policy="root", file="secrets/root.vault") == [first]
    with pytest.raises(AnsibleLookupError) as caught:
        run_with_loader(tmp_path, [], policy="root", file="secrets/root.vault")
    assert str(caught.value).startswith("pwpolicy_password (password): file=%s is vault-encrypted and this run has "
                                        "no vault secret" % stored)
    assert_no_leak(first, str(caught.value), piece=6)


def test_check_mode_returns_a_value_it_does_not_store(tmp_path):
    from ansible.parsing.vault import VaultSecret
    found = run_with_loader(tmp_path, [("default", VaultSecret(b"vault-password"))], {"ansible_check_mode": True},
                            file="user.vault")
    assert len(found) == 1 and found[0] and not (tmp_path / "user.vault").exists()


@pytest.mark.parametrize("options", [{"regenerate": True}, {"vault_id": "prod"}])
def test_file_options_need_file(options):
    with pytest.raises(AnsibleLookupError, match="vault_id and regenerate go with file"):
        run(**options)


def test_the_profile_name_is_matched_in_any_case():
    [value] = run(profile="STIG", target="rhel9", policy_name="user")
    assert pwpolicy_compliant(value, compliance_profile("stig", "RHEL9")["policies"]["user"],
                              settings=profile_settings("stig", "RHEL9"), allow_weak=False)
