# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The audit benchmark (bench.py step 4): the audit playbook against its floor.

An audit cannot take less than one vault decryption per secret (a PBKDF2 key
derivation over each value's own salt) plus one libpwquality check.  The
floor is measured in the same run over the same inventory: every vaulted value
decrypted with ansible-core's own vault code and checked once, spread over one
process per core this process may run on (its CPU affinity, as the audit
counts them).  Starting those processes is inside the floor: the audit starts
its workers too.
"""

import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

from benchlib import report

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._known_weak import usable_cores  # bench.py imports checkout

AUDIT_HOSTS = (1000, 10000)
AUDIT_LIMIT_PER_1000 = 60.0
SECRETS_PER_HOST = 3


def _decrypt_and_check(job):
    """One process's share of the floor: decrypt each vaulted value, then one libpwquality check of it."""
    password_file, texts = job
    from ansible.parsing.vault import VaultLib, VaultSecret
    import checkout  # noqa: F401  (the collection importable in this process too)
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _pwquality
    with open(password_file, "rb") as handle:
        vault = VaultLib([("default", VaultSecret(handle.read().strip()))])
    backend = _pwquality.load_backend()
    settings = backend.make_settings((), 15)
    for text in texts:
        backend.raw_check(settings, vault.decrypt(text).decode("utf-8"), "root")
    return len(texts)


def floor(password_file, texts, processes):
    """Wall time of decrypting and checking every value of ``texts`` in ``processes`` fresh processes."""
    chunks = [texts[i::processes] for i in range(processes)]
    start = time.perf_counter()
    with concurrent.futures.ProcessPoolExecutor(max_workers=processes) as pool:
        done = sum(pool.map(_decrypt_and_check, [(password_file, chunk) for chunk in chunks]))
    wall = time.perf_counter() - start
    if done != len(texts):
        raise SystemExit("audit floor: %d of %d values decrypted" % (done, len(texts)))
    return wall


def audit_run(bindir, env, work, inventory, password_file, hosts, extra=()):
    """Wall time of one audit playbook run over ``inventory`` (its report checked for every secret)."""
    report_file = os.path.join(work, "audit.json")
    start = time.perf_counter()
    # Its warnings (a weak estimate per host) go to a file: shown only if the run fails.
    with open(os.path.join(work, "audit.stderr"), "w+") as errors:
        done = subprocess.run([os.path.join(bindir, "ansible-playbook"), "kickstart.pwpolicy.audit",
                               "-i", os.path.join(inventory, "hosts.ini"), "--vault-password-file",
                               password_file, "-e", "kickstart_fail_on=never", "-e", "kickstart_audit_show=none",
                               "-e", "kickstart_audit_json=" + report_file] + list(extra),
                              cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=errors, check=False)
        wall = time.perf_counter() - start
        if done.returncode:
            errors.seek(0)
            sys.stderr.write(errors.read()[-4000:])
            raise SystemExit("audit benchmark: the audit playbook exited %d" % done.returncode)
    with open(report_file) as handle:
        if handle.read().count('"verdict"') != SECRETS_PER_HOST * hosts:
            raise SystemExit("audit benchmark: the report does not hold %d findings" % (SECRETS_PER_HOST * hosts))
    return wall


def bench_audit(root, collections_dir, host_counts):
    """The audit playbook over each host count (one run each) against the floor of the same inventory.

    At the first host count the audit runs a second time without the weakest-link estimates
    (kickstart_weakest_link=never): the floor leaves them out, and they are the audit's largest cost
    beyond it.
    """
    bindir = os.path.dirname(sys.executable)
    processes = usable_cores()  # as the audit counts them
    print("4. audit playbook vs its floor: one vault decryption and one libpwquality check per secret, "
          "in %d processes (%s hosts x %d vaulted secrets, default forks)"
          % (processes, ", ".join(format(n, ",") for n in host_counts), SECRETS_PER_HOST))
    env = dict(os.environ, ANSIBLE_NOCOLOR="1",
               ANSIBLE_COLLECTIONS_PATH=os.environ.get("ANSIBLE_COLLECTIONS_PATH", collections_dir))
    for index, hosts in enumerate(host_counts):
        with tempfile.TemporaryDirectory(prefix="kspw-audit-") as work:
            password_file = os.path.join(work, "vault-password")
            with open(password_file, "w") as handle:
                handle.write("benchmark-only\n")
            inventory = os.path.join(work, "inventory")
            subprocess.run([sys.executable, os.path.join(root, "benchmarks", "audit_inventory.py"), inventory,
                            str(hosts), password_file], check=True, stdout=subprocess.DEVNULL)
            with open(os.path.join(inventory, "vaulted.json")) as handle:
                texts = json.load(handle)
            ours = audit_run(bindir, env, work, inventory, password_file, hosts)
            base = floor(password_file, texts, processes)
            bare = None if index else audit_run(bindir, env, work, inventory, password_file, hosts,
                                                ("-e", "kickstart_weakest_link=never"))
        secrets = SECRETS_PER_HOST * hosts
        label = "audit, %s hosts, %s secrets" % (format(hosts, ","), format(secrets, ","))
        report(label + ", vs its floor", ours, base, secrets, "secret")
        if bare is not None:
            report(label + ", no weakest-link estimates, vs its floor", bare, base, secrets, "secret")
        limit = AUDIT_LIMIT_PER_1000 * hosts / 1000
        print("  audit wall time %.1f s (limit %.0f s), floor %.1f s: %s"
              % (ours, limit, base, "ok" if ours < limit else "OVER"))
