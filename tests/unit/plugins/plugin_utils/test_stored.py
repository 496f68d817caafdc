# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A generated value kept in a vault file: written once 0600 and encrypted, read back, replaced only on request."""

import multiprocessing
import os
import stat
import time

import pytest
from ansible.parsing.vault import VaultLib, VaultSecret, is_encrypted

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _files
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _generate
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _stored
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._stored import StoredError, stored_value
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

SECRETS = [("default", VaultSecret(b"the-run-vault-password"))]
OTHER = [("default", VaultSecret(b"another-vault-password"))]
BEFORE_THE_RUN = 0.0  # a run that began long before any file of the test was written
AFTER_NOW = 4e9  # a run that began after every file of the test was written


@pytest.fixture(scope="module")
def plan():
    return _generate.prepare(policy="root")


def decrypt(path, secrets=None):
    with open(path, "rb") as stream:
        return VaultLib(secrets or SECRETS).decrypt(stream.read()).decode("utf-8")


def test_an_absent_file_is_written_encrypted_0600_and_read_back(tmp_path, plan):
    path = str(tmp_path / "root.vault")
    value, action = stored_value(path, plan, SECRETS)
    assert action == _stored.GENERATED
    with open(path, "rb") as stream:
        data = stream.read()
    assert is_encrypted(data) and data.startswith(b"$ANSIBLE_VAULT;1.1;AES256\n")
    assert_no_leak(value, data.decode("ascii"), piece=6)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert decrypt(path) == value
    assert sorted(os.listdir(str(tmp_path))) == ["root.vault"]  # no temporary or lock file left
    before = os.stat(path)
    again, action = stored_value(path, plan, SECRETS, started=BEFORE_THE_RUN)
    assert (again, action) == (value, _stored.READ)
    after = os.stat(path)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)  # never rewritten


def test_a_file_written_with_ansible_vault_and_a_newline_is_read(tmp_path, plan):
    path = tmp_path / "root.vault"
    value = _generate.generate(plan)
    path.write_bytes(VaultLib(SECRETS).encrypt(value + "\n"))
    assert stored_value(str(path), plan, SECRETS) == (value, _stored.READ)


def test_vault_id_chooses_the_secret_and_labels_the_file(tmp_path, plan):
    secrets = [("dev", VaultSecret(b"dev-password")), ("prod", VaultSecret(b"prod-password"))]
    path = str(tmp_path / "root.vault")
    value, dummy = stored_value(path, plan, secrets, vault_id="prod")
    assert (tmp_path / "root.vault").read_bytes().startswith(b"$ANSIBLE_VAULT;1.2;AES256;prod\n")
    assert decrypt(path, [secrets[1]]) == value
    with pytest.raises(Exception):
        decrypt(path, [secrets[0]])
    other = str(tmp_path / "other.vault")
    stored_value(other, plan, secrets, default_identity="prod")
    assert (tmp_path / "other.vault").read_bytes().startswith(b"$ANSIBLE_VAULT;1.2;AES256;prod\n")
    with pytest.raises(StoredError, match="no vault secret has the vault id 'test' \\(vault_id\\); the run's vault "
                                          "ids are dev, prod"):
        stored_value(str(tmp_path / "third.vault"), plan, secrets, vault_id="test")
    assert not (tmp_path / "third.vault").exists()


def test_regenerate_replaces_a_file_of_an_earlier_run_once(tmp_path, plan):
    path = str(tmp_path / "root.vault")
    first, dummy = stored_value(path, plan, SECRETS)
    second, action = stored_value(path, plan, SECRETS, regenerate=True, started=AFTER_NOW)
    assert action == _stored.REGENERATED and second != first and decrypt(path) == second
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    # Written since this run began: read back, not replaced again.
    assert stored_value(path, plan, SECRETS, regenerate=True, started=BEFORE_THE_RUN) == (second, _stored.READ)


def test_regenerate_replaces_a_file_the_secrets_cannot_read(tmp_path, plan):
    path = tmp_path / "root.vault"
    path.write_bytes(VaultLib(OTHER).encrypt("old-value-of-another-vault"))
    value, action = stored_value(str(path), plan, SECRETS, regenerate=True, started=AFTER_NOW)
    assert action == _stored.REGENERATED and decrypt(str(path)) == value


def test_run_started_is_when_this_process_began():
    started = _stored.run_started(os.getpid())
    if started is None:
        pytest.skip("no /proc on this controller")
    assert 0 < started <= time.time()
    assert _stored.run_started(-1) is None


def test_no_vault_secret_is_an_error_and_writes_nothing(tmp_path, plan):
    path = tmp_path / "root.vault"
    for check_mode in (False, True):
        with pytest.raises(StoredError, match="no vault secret to encrypt it with, and it is never written in "
                                              "plaintext: give one with --vault-id, --vault-password-file or "
                                              "--ask-vault-pass, or set ANSIBLE_VAULT_PASSWORD_FILE"):
            stored_value(str(path), plan, [], check_mode=check_mode)
    assert os.listdir(str(tmp_path)) == []
    path.write_bytes(VaultLib(SECRETS).encrypt("a-stored-value-Xy7!"))
    with pytest.raises(StoredError, match="file=%s is vault-encrypted and this run has no vault secret to decrypt "
                                          "it: give one with --vault-id" % path):
        stored_value(str(path), plan, [])


def test_a_wrong_vault_secret_is_an_error_naming_the_file_not_the_content(tmp_path, plan):
    path = tmp_path / "root.vault"
    value = _generate.generate(plan)
    path.write_bytes(VaultLib(OTHER).encrypt(value))
    before = path.read_bytes()
    with pytest.raises(StoredError) as caught:
        stored_value(str(path), plan, SECRETS)
    message = str(caught.value)
    assert message.startswith("file=%s cannot be decrypted with the vault secrets of this run (vault ids default)"
                              % path)
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
    assert_no_leak(value, message, piece=6)
    assert "ANSIBLE_VAULT" not in message and before.decode("ascii").splitlines()[1] not in message
    assert path.read_bytes() == before


@pytest.mark.parametrize("content", [b"Xk9#mQ2!zLp7qR5@wT-plain\n", b"$ANSIBLE_VAULT;1.1;AES256\nnot-hex\n"])
def test_not_a_vault_file_is_an_error_and_stays(tmp_path, plan, content):
    path = tmp_path / "root.vault"
    path.write_bytes(content)
    with pytest.raises(StoredError) as caught:
        stored_value(str(path), plan, SECRETS)
    message = str(caught.value)
    assert message.startswith("file=%s is not " % path)
    assert "Xk9#mQ2" not in message and "not-hex" not in message
    assert path.read_bytes() == content


def test_a_value_a_tightened_policy_refuses_is_an_error_that_names_regenerate(tmp_path, plan):
    path = str(tmp_path / "root.vault")
    value, dummy = stored_value(path, plan, SECRETS)
    tighter = _generate.prepare(policy={"name": "root", "minlen": 40, "minquality": 1, "strict": True})
    with pytest.raises(StoredError) as caught:
        stored_value(path, tighter, SECRETS)
    message = str(caught.value)
    assert message.startswith("the value stored in file=%s is not accepted by the root policy (minlen 40, "
                              "minquality 1, strict): " % path)
    assert "Give regenerate=true to replace it" in message
    assert_no_leak(value, message, piece=6)
    assert decrypt(path) == value
    renewed, action = stored_value(path, tighter, SECRETS, regenerate=True, started=AFTER_NOW)
    assert action == _stored.REGENERATED and len(renewed) >= 40


def test_a_stored_value_on_the_blocklist_is_refused(tmp_path, plan):
    path = tmp_path / "root.vault"
    path.write_bytes(VaultLib(SECRETS).encrypt("password123"))
    with pytest.raises(StoredError, match="is not accepted by .*Give regenerate=true") as caught:
        stored_value(str(path), plan, SECRETS)
    assert_no_leak("password123", str(caught.value))


def test_check_mode_writes_nothing(tmp_path, plan):
    path = tmp_path / "root.vault"
    value, action = stored_value(str(path), plan, SECRETS, check_mode=True)
    assert action == _stored.NOT_STORED and value and not path.exists()
    stored, dummy = stored_value(str(path), plan, SECRETS)
    before = path.read_bytes()
    assert stored_value(str(path), plan, SECRETS, check_mode=True) == (stored, _stored.READ)
    other, action = stored_value(str(path), plan, SECRETS, check_mode=True, regenerate=True, started=AFTER_NOW)
    assert action == _stored.NOT_STORED and other != stored and path.read_bytes() == before


def test_the_directory_must_exist(tmp_path, plan):
    path = tmp_path / "secrets" / "root.vault"
    with pytest.raises(StoredError, match="the directory %s of file=%s does not exist: create it"
                                          % (tmp_path / "secrets", path)):
        stored_value(str(path), plan, SECRETS)
    assert not (tmp_path / "secrets").exists()


def test_a_link_is_not_written_through(tmp_path, plan):
    (tmp_path / "root.vault").symlink_to(tmp_path / "elsewhere.vault")
    with pytest.raises(StoredError, match="is a symbolic link"):
        stored_value(str(tmp_path / "root.vault"), plan, SECRETS)
    assert not (tmp_path / "elsewhere.vault").exists()


def test_a_value_written_while_waiting_for_the_lock_is_read_not_replaced(tmp_path, plan, monkeypatch):
    """Another fork held the lock and wrote the file: the one that waited reads that value."""
    path = tmp_path / "root.vault"
    theirs = _generate.generate(plan)
    enter = _files.DirectoryLock.__enter__

    def locked_after_the_other_fork(self):
        path.write_bytes(VaultLib(SECRETS).encrypt(theirs))
        return enter(self)

    monkeypatch.setattr(_files.DirectoryLock, "__enter__", locked_after_the_other_fork)
    calls = []
    value, action = stored_value(str(path), plan, SECRETS, generate=lambda p: calls.append(p) or "never-used-Xy7!")
    assert (value, action, calls) == (theirs, _stored.READ, [])


def _one_fork(path, queue):
    plan = _generate.prepare(policy="root")
    queue.put(stored_value(path, plan, SECRETS))


def test_parallel_processes_on_one_path_get_one_value(tmp_path):
    path = str(tmp_path / "root.vault")
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    workers = [context.Process(target=_one_fork, args=(path, queue)) for dummy in range(6)]
    for worker in workers:
        worker.start()
    results = [queue.get(timeout=120) for dummy in workers]
    for worker in workers:
        worker.join()
    assert len(set(value for value, dummy in results)) == 1
    assert sorted(action for dummy, action in results) == [_stored.GENERATED] + [_stored.READ] * 5
    assert decrypt(path) == results[0][0]


def test_read_only_reads_back_and_never_writes(tmp_path, plan):
    path = str(tmp_path / "root.vault")
    with pytest.raises(StoredError) as caught:
        stored_value(path, plan, SECRETS, read_only="the audit")
    assert str(caught.value).startswith("file=%s does not exist, and the audit only reads a stored value, never "
                                        "generates one" % path)
    assert not os.path.exists(path)
    value, dummy = stored_value(path, plan, SECRETS)
    before = os.stat(path).st_mtime_ns
    assert stored_value(path, plan, SECRETS, read_only="the audit", regenerate=True) == (value, _stored.READ)
    assert os.stat(path).st_mtime_ns == before


def test_a_file_inside_an_inventory_directory_is_refused(tmp_path, plan):
    inventory = tmp_path / "inventory"
    (inventory / "secrets").mkdir(parents=True)
    path = str(inventory / "secrets" / "root.vault")
    with pytest.raises(StoredError) as caught:
        stored_value(path, plan, SECRETS, inventory_sources=[str(tmp_path / "hosts.ini"), str(inventory)])
    assert "is inside the inventory directory %s" % inventory in str(caught.value)
    assert str(tmp_path / "secrets") in str(caught.value)
    assert not os.path.exists(path)
    (tmp_path / "secrets").mkdir()
    outside = str(tmp_path / "secrets" / "root.vault")
    value, action = stored_value(outside, plan, SECRETS, inventory_sources=[str(inventory)])
    assert action == _stored.GENERATED and value
