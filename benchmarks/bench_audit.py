# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The audit benchmark (bench.py step 4): the audit playbook against its floor.

What any audit that reports what this one reports must do, at the least, is
its floor: decrypt each vaulted value once (a PBKDF2 key derivation over the
value's own salt), check it once with libpwquality, and estimate its guesses
once with the estimator the audit uses (zxcvbn, with the account and product
as user inputs and the reference year set).  The floor is measured in the same
run over the same inventory, with ansible-core's own vault code, spread over
one process per core this process may run on (its CPU affinity, as the audit
counts them).  Starting those processes is inside the floor: the audit starts
its workers too.  The audit without its estimates
(``kickstart_weakest_link=never``) is held to the floor without them.

A second inventory at the first host count gives nine hosts in ten their
product's secrets (one root password in group_vars for hundreds of hosts):
its floor decrypts, checks and estimates each distinct value once, and the
audit's row shows what estimating each distinct secret once per run saves.
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
SHARED = 0.9


def _floor_share(job):
    """One process's share of the floor: decrypt each vaulted value, check it once with libpwquality, and (with
    ``estimate``) estimate its guesses once with zxcvbn."""
    password_file, entries, estimate = job
    from ansible.parsing.vault import VaultLib, VaultSecret
    import checkout  # noqa: F401  (the collection importable in this process too)
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _guesses, _pwquality
    with open(password_file, "rb") as handle:
        vault = VaultLib([("default", VaultSecret(handle.read().strip()))])
    backend = _pwquality.load_backend()
    settings = backend.make_settings((), 15)
    if estimate:
        import zxcvbn
        import zxcvbn.scoring
        zxcvbn.scoring.REFERENCE_YEAR = _guesses.reference_year()
    for text, account, product in entries:
        value = vault.decrypt(text).decode("utf-8")
        backend.raw_check(settings, value, "root")
        if estimate:
            zxcvbn.zxcvbn(value[:_guesses.ZXCVBN_MAX_LENGTH], user_inputs=_guesses.user_inputs(account, None, product),
                          max_length=_guesses.ZXCVBN_MAX_LENGTH)
    return len(entries)


def floor(password_file, entries, processes, estimate=True):
    """Wall time of the floor over ``entries`` ([vault text, account, product], each distinct) in ``processes``
    fresh processes."""
    chunks = [entries[i::processes] for i in range(processes)]
    start = time.perf_counter()
    with concurrent.futures.ProcessPoolExecutor(max_workers=processes) as pool:
        done = sum(pool.map(_floor_share, [(password_file, chunk, estimate) for chunk in chunks]))
    wall = time.perf_counter() - start
    if done != len(entries):
        raise SystemExit("audit floor: %d of %d values decrypted" % (done, len(entries)))
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


def _inventory(root, work, hosts, password_file, shared=0.0):
    """Write the benchmark inventory under ``work``; ``(inventory directory, its distinct vaulted entries)``."""
    inventory = os.path.join(work, "inventory")
    subprocess.run([sys.executable, os.path.join(root, "benchmarks", "audit_inventory.py"), inventory,
                    str(hosts), password_file, str(shared)], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(inventory, "vaulted.json")) as handle:
        return inventory, json.load(handle)


def bench_audit(root, collections_dir, host_counts):
    """The audit playbook over each host count (one run each) against the floor of the same inventory.

    At the first host count the audit runs a second time without the weakest-link estimates
    (kickstart_weakest_link=never), against the floor without estimates, and once more over an
    inventory where SHARED of the hosts share their product's secrets.
    """
    bindir = os.path.dirname(sys.executable)
    processes = usable_cores()  # as the audit counts them
    print("4. audit playbook vs its floor: one vault decryption, one libpwquality check and one zxcvbn estimate "
          "per distinct secret, in %d processes (%s hosts x %d vaulted secrets, default forks)"
          % (processes, ", ".join(format(n, ",") for n in host_counts), SECRETS_PER_HOST))
    env = dict(os.environ, ANSIBLE_NOCOLOR="1",
               ANSIBLE_COLLECTIONS_PATH=os.environ.get("ANSIBLE_COLLECTIONS_PATH", collections_dir))
    for index, hosts in enumerate(host_counts):
        secrets = SECRETS_PER_HOST * hosts
        label = "audit, %s hosts, %s secrets" % (format(hosts, ","), format(secrets, ","))
        with tempfile.TemporaryDirectory(prefix="kspw-audit-") as work:
            password_file = os.path.join(work, "vault-password")
            with open(password_file, "w") as handle:
                handle.write("benchmark-only\n")
            inventory, entries = _inventory(root, work, hosts, password_file)
            ours = audit_run(bindir, env, work, inventory, password_file, hosts)
            base = floor(password_file, entries, processes)
            report(label + ", vs its floor", ours, base, secrets, "secret")
            if not index:
                bare = audit_run(bindir, env, work, inventory, password_file, hosts,
                                 ("-e", "kickstart_weakest_link=never"))
                report(label + ", no estimates, vs its floor without them", bare,
                       floor(password_file, entries, processes, estimate=False), secrets, "secret")
        limit = AUDIT_LIMIT_PER_1000 * hosts / 1000
        print("  audit wall time %.1f s (limit %.0f s), floor %.1f s: %s"
              % (ours, limit, base, "ok" if ours < limit else "OVER"))
        if index:
            continue
        with tempfile.TemporaryDirectory(prefix="kspw-audit-shared-") as work:
            password_file = os.path.join(work, "vault-password")
            with open(password_file, "w") as handle:
                handle.write("benchmark-only\n")
            inventory, entries = _inventory(root, work, hosts, password_file, SHARED)
            shared = audit_run(bindir, env, work, inventory, password_file, hosts)
            report("%s, %d%% of hosts sharing their secrets, vs its floor" % (label, SHARED * 100), shared,
                   floor(password_file, entries, processes), secrets, "secret")
        print("  %d%% shared: %s distinct secrets; the audit took %.1f s against %.1f s with none shared (%.2fx)"
              % (SHARED * 100, format(len(entries), ","), shared, ours, shared / ours))
