# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A generated secret kept in an Ansible Vault file: written once, read back on every later run.

:func:`stored_value` serves the ``file=`` option of the ``pwpolicy_password``
lookup.  The file holds the value alone (no newline), encrypted with a vault
secret of the run, as ``ansible-vault encrypt`` would write it, so
``ansible-vault view`` and the ``ansible.builtin.unvault`` lookup read it too.

* An absent file: a value is generated (:mod:`._generate`), encrypted and
  written atomically (``module_utils/_files.replace_atomic``: a temporary file
  0600 in the same directory, synced, renamed).  Generation and writing run
  under an exclusive ``flock`` on the file's directory
  (``module_utils/_files.DirectoryLock``), and the file is looked for again
  once the lock is held, so parallel forks asking for one path get one value.
* A present file: decrypted and returned, never rewritten.  A value the
  requested policy no longer accepts is an error that says ``regenerate=true``
  replaces it.
* ``regenerate=true``: a file written before this run began is replaced by a
  new value, once; later calls of the same run (other hosts, other
  templatings of the same expression) read that value back.  The run is the
  controller's ``ansible-playbook`` process (the parent of the worker
  processes); where its start time cannot be read (no ``/proc``), every call
  replaces the file.
* Check mode: nothing is written.  Where a run would write, a new value is
  returned unstored and ``action`` says so.

Nothing this module raises or returns besides the value holds the value or
the file's content: messages name the path, the policy and what to do.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import errno
import multiprocessing
import os
import time

from ansible.parsing.vault import AnsibleVaultError, VaultLib, is_encrypted

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _files
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _generate

# A vault file of one password is a few hundred bytes; anything far larger is not one of ours.
MAX_STORED_SIZE = 64 * 1024
HOW_TO_GIVE_A_SECRET = ("give one with --vault-id, --vault-password-file or --ask-vault-pass, or set "
                        "ANSIBLE_VAULT_PASSWORD_FILE")

# Set (to who reads, such as "the audit") among the variables a lookup is templated with: file= is read back only.
READ_ONLY_VARIABLE = "__kickstart_pwpolicy_read_only"
READ, GENERATED, REGENERATED, NOT_STORED = "read", "generated", "regenerated", "not stored (check mode)"


class StoredError(PwpolicyError):
    """The file cannot be read, decrypted, written or accepted; the message names the path, never the value."""


def _vault_ids(secrets):
    """The run's vault ids, for a message."""
    return ", ".join(sorted(set(identity for identity, dummy in secrets)))


def encrypt_secret(secrets, vault_id=None, default_identity=None):
    """``(vault id, secret)`` to encrypt with: ``vault_id``'s, else ``default_identity``'s, else the first one.

    ``secrets`` are the run's ``(vault id, VaultSecret)`` pairs (the loader's);
    ``default_identity`` is ``DEFAULT_VAULT_ENCRYPT_IDENTITY`` (as
    ``ansible-vault encrypt`` takes it).
    """
    if not secrets:
        raise StoredError("no vault secret to encrypt it with, and it is never written in plaintext: "
                          + HOW_TO_GIVE_A_SECRET)
    wanted = vault_id or default_identity
    if wanted:
        for identity, secret in secrets:
            if identity == wanted:
                return identity, secret
        raise StoredError("no vault secret has the vault id %r (%s); the run's vault ids are %s: give vault_id one "
                          "of them, or add it with --vault-id %s@SOURCE"
                          % (wanted, "vault_id" if vault_id else "DEFAULT_VAULT_ENCRYPT_IDENTITY",
                             _vault_ids(secrets), wanted))
    return secrets[0]


def run_started(pid=None):
    """When the controller's run began, in seconds since the epoch, or None where it cannot be read.

    The run is the process that forked this worker (``multiprocessing``'s
    parent), or this process when it is not a worker.  Its start time comes
    from ``/proc/PID/stat`` (clock ticks since boot), set against the clock
    since boot and the wall clock now.
    """
    if pid is None:
        parent = multiprocessing.parent_process()
        pid = parent.pid if parent is not None else os.getpid()
    try:
        with open("/proc/%d/stat" % pid) as stream:
            fields = stream.read().rsplit(")", 1)[1].split()
        ticks = int(fields[19])  # field 22, starttime; the fields after the name begin with field 3
        since_boot = time.clock_gettime(time.CLOCK_BOOTTIME)
        return time.time() - since_boot + ticks / float(os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def _mtime(path):
    try:
        return os.stat(path).st_mtime
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            return None
        raise StoredError(_files.describe_os_error("read", path, exc))


def check_outside_inventory(path, sources):
    """Refuse ``path`` inside a directory among the inventory ``sources`` (``ansible_inventory_sources``).

    Ansible reads every file of an inventory directory as inventory, a vault file too (decrypted with the run's
    secrets): its value would become a host name, shown in every play's output.
    """
    real = os.path.realpath(path)
    for source in sources or ():
        if not isinstance(source, str) or not os.path.isdir(source):
            continue
        directory = os.path.realpath(source)
        if real.startswith(directory.rstrip(os.sep) + os.sep):
            raise StoredError("file=%s is inside the inventory directory %s, whose every file Ansible reads as "
                              "inventory (a vault file decrypted, its value shown as a host name): keep the vault "
                              "files outside it, for example in %s"
                              % (path, source, os.path.join(os.path.dirname(directory), "secrets")))


def read_stored(path, secrets):
    """The value the vault file at ``path`` holds, or None when there is no file."""
    try:
        data = _files.read_bytes(path, limit=MAX_STORED_SIZE, what="file=")
    except _files.FileError as exc:
        raise StoredError(str(exc)) from None
    if data is None:
        return None
    if not is_encrypted(data):
        raise StoredError("file=%s is not an Ansible Vault file (it does not begin with $ANSIBLE_VAULT;): the lookup "
                          "reads only the vault files it writes; move it away to have a new value generated there, or "
                          "give another path" % path)
    if not secrets:
        raise StoredError("file=%s is vault-encrypted and this run has no vault secret to decrypt it: %s"
                          % (path, HOW_TO_GIVE_A_SECRET))
    try:
        plain = VaultLib(secrets).decrypt(data)
    except AnsibleVaultError:
        raise StoredError("file=%s cannot be decrypted with the vault secrets of this run (vault ids %s): give the "
                          "vault secret it was encrypted with (--vault-id, --vault-password-file)"
                          % (path, _vault_ids(secrets))) from None
    except Exception:  # pylint: disable=broad-except  # a damaged envelope: its message may quote the content
        raise StoredError("file=%s is not a valid Ansible Vault file (its envelope cannot be read): restore it, or "
                          "move it away to have a new value generated there" % path) from None
    try:
        value = bytes(plain).decode("utf-8")
    except UnicodeDecodeError:
        raise StoredError("file=%s does not hold UTF-8 text" % path) from None
    if value.endswith("\n"):
        value = value[:-2] if value.endswith("\r\n") else value[:-1]
    if not value:
        raise StoredError("file=%s holds an empty value: give regenerate=true to store a new one" % path)
    if "\n" in value or "\r" in value:
        raise StoredError("file=%s holds more than one line, not one value: give regenerate=true to store a new one"
                          % path)
    return value


def _check(value, path, plan):
    """The stored value must still pass ``plan``'s policy and blocklists (the policy may have been tightened)."""
    reason = _generate.refusal(plan, value)
    if reason is not None:
        raise StoredError("the value stored in file=%s is not accepted by %s: %s. Give regenerate=true to replace it "
                          "with a new value (a system installed with the old one keeps it until it is changed there)"
                          % (path, plan.describe(), reason))
    return value


def _write(path, plan, secrets, vault_id, default_identity, generate):
    identity, secret = encrypt_secret(secrets, vault_id, default_identity)
    if os.path.islink(path):
        raise StoredError("file=%s is a symbolic link: the lookup writes no file through a link, give the real path"
                          % path)
    value = generate(plan)
    try:
        data = VaultLib(secrets).encrypt(value, secret=secret, vault_id=identity)
    except AnsibleVaultError:
        raise StoredError("the vault secret of vault id %r cannot encrypt: check it" % identity) from None
    try:
        _files.replace_atomic(path, data)
    except OSError as exc:
        raise StoredError(_files.describe_os_error("write", path, exc) + "; the file was not changed") from None
    return value


def stored_value(path, plan, secrets, vault_id=None, regenerate=False, check_mode=False, default_identity=None,
                 generate=_generate.generate, started=None, read_only=None, inventory_sources=()):
    """``(value, action)`` for ``file=path``: read back, or generated (``plan``) and stored encrypted.

    ``path`` is absolute; ``secrets`` the run's ``(vault id, VaultSecret)``
    pairs; ``action`` one of :data:`READ`, :data:`GENERATED`,
    :data:`REGENERATED`, :data:`NOT_STORED`.  ``started`` is when the run
    began (default :func:`run_started`): with ``regenerate``, a file written
    since then is read back instead of replaced again.  ``read_only`` (who
    reads, such as the audit) only reads a stored value back: a missing file
    is an error naming ``read_only``, and ``regenerate`` is ignored.  A
    ``path`` inside a directory of ``inventory_sources`` is refused
    (:func:`check_outside_inventory`).
    """
    check_outside_inventory(path, inventory_sources)
    if read_only:
        value = read_stored(path, secrets)
        if value is None:
            raise StoredError("file=%s does not exist, and %s only reads a stored value, never generates one: run the "
                              "play that stores it first, or correct the path (a relative file= is relative to the "
                              "playbook's directory, which for a playbook of a collection is the collection's: give "
                              "an absolute path, for example built from inventory_dir)" % (path, read_only))
        return _check(value, path, plan), READ
    directory = os.path.dirname(path)
    if not os.path.isdir(directory):
        raise StoredError("the directory %s of file=%s does not exist: create it (mode 0700) first, the lookup "
                          "creates no directory" % (directory, path))

    def fresh(mtime):
        when = run_started() if started is None else started
        return mtime is not None and when is not None and mtime >= when

    mtime = _mtime(path)
    if mtime is not None and (not regenerate or fresh(mtime)):
        return _check(read_stored(path, secrets), path, plan), READ
    encrypt_secret(secrets, vault_id, default_identity)  # no secret: the error comes before any lock or value
    if check_mode:
        return generate(plan), NOT_STORED
    try:
        with _files.DirectoryLock(directory):
            mtime = _mtime(path)  # another fork may have written it while this one waited
            if mtime is not None and (not regenerate or fresh(mtime)):
                return _check(read_stored(path, secrets), path, plan), READ
            value = _write(path, plan, secrets, vault_id, default_identity, generate)
            return value, REGENERATED if mtime is not None else GENERATED
    except _files.FileError as exc:
        raise StoredError(str(exc)) from None
