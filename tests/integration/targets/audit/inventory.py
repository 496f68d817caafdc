# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the audit target's inventory: 21 hosts over the three products, every secret vaulted.

  inventory.py DIR VAULT_PASSWORD_FILE OTHER_VAULT_PASSWORD_FILE

Prints the expected verdict of every secret as JSON ({"HOST SECRET": verdict}).
The marker secrets exist only here and, vault-encrypted, in DIR.

Also writes DIR/blocklist.txt, a sorted SHA1:COUNT breach corpus that holds
srv02's root password among random hashes, and DIR/expected-profile.json, the
verdicts of a run with kickstart_profile=nist_800_63b and that corpus as
kickstart_blocklist; prints the password's SHA-1 to DIR/blocklisted.sha1 (the
outputs must not hold it).
"""

import hashlib
import json
import os
import random
import sys

from ansible.parsing.vault import VaultLib, VaultSecret

PRODUCTS = (("server", "srv", "RHEL9"), ("cloud", "cld", "F40"), ("workstation", "ws", "F40"))


def vault(secret_file, vault_id):
    with open(secret_file, "rb") as handle:
        secret = VaultSecret(handle.read().strip())
    lib = VaultLib([(vault_id, secret)])

    def encrypt(text):
        data = lib.encrypt(text.encode("utf-8"), secret, vault_id=vault_id).decode("ascii")
        return "!vault |\n" + "".join("      %s\n" % line for line in data.splitlines())

    return encrypt


def strong(host, number):
    return "LEAKMARK-%s-%d-Qz8%%vT2!wX9p" % (host, number)


def host_vars(host, product, prod, other, expected):
    root, alice, luks = strong(host, 1), strong(host, 2), strong(host, 3)
    users = "kickstart_users:\n  - name: alice\n    password: %s" % prod(alice)
    lines = []
    verdicts = {"root": "accepted", "user:alice": "accepted", "luks": "accepted"}
    if host == "srv03":
        root = "LEAKMARK1"  # rejected by Server's strict root policy
        verdicts["root"] = "rejected"
    if host == "ws02":
        root = "LEAKMARK"  # Workstation's root policy is not strict: accepted, but weak
        verdicts["root"] = "accepted_weak"
    lines.append("kickstart_root_password: %s" % prod(root))
    if host == "cld05":  # a password that refers to an undefined variable
        users = 'kickstart_users:\n  - name: alice\n    password: "{{ audit_undefined_secret }}"\n'
        verdicts["user:alice"] = "error"
    if host == "srv05":  # an account name that cannot go on a kickstart line
        users = 'kickstart_users:\n  - name: "Alice Smith"\n    password: %s' % prod(alice)
        del verdicts["user:alice"]
        verdicts["kickstart_users[0].name"] = "error"
    lines.append(users)
    if host == "cld04":  # encrypted with a vault id this run has no password for
        lines.append("kickstart_luks_passphrase: %s" % other(luks))
        verdicts["luks"] = "error"
    else:
        lines.append("kickstart_luks_passphrase: %s" % prod(luks))
    for label, verdict in verdicts.items():
        expected["%s %s" % (host, label)] = verdict
    return "\n".join(lines) + "\n"


def main(directory, prod_file, other_file):
    prod, other = vault(prod_file, "prod"), vault(other_file, "other")
    os.makedirs(os.path.join(directory, "group_vars"))
    os.makedirs(os.path.join(directory, "host_vars"))
    expected = {}
    with open(os.path.join(directory, "hosts.ini"), "w") as inventory:
        for product, prefix, target in PRODUCTS:
            hosts = ["%s%02d" % (prefix, number) for number in range(1, 8)]
            # TEST-NET addresses: nothing answers there, and the audit must not try.
            inventory.write("[%s]\n%s\n\n" % (product, "\n".join(
                "%s ansible_host=192.0.2.%d" % (host, 10 + index) for index, host in enumerate(hosts))))
            with open(os.path.join(directory, "group_vars", product + ".yml"), "w") as handle:
                handle.write("kickstart_product: %s\nkickstart_target: %s\n" % (product, target))
            for host in hosts:
                with open(os.path.join(directory, "host_vars", host + ".yml"), "w") as handle:
                    handle.write(host_vars(host, product, prod, other, expected))
    json.dump(expected, sys.stdout, indent=1, sort_keys=True)
    # NIST SP 800-63B (any target): Workstation's root policy becomes strict with 15 characters, and the corpus
    # holds srv02's root password.
    by_profile = dict(expected, **{"ws02 root": "rejected", "srv02 root": "rejected"})
    with open(os.path.join(directory, "expected-profile.json"), "w") as handle:
        json.dump(by_profile, handle, indent=1, sort_keys=True)
    digest = hashlib.sha1(strong("srv02", 1).encode("utf-8")).hexdigest().upper()
    rng = random.Random(20260821)
    hashes = sorted(["%040X" % rng.getrandbits(160) for dummy in range(2000)] + [digest])
    with open(os.path.join(directory, "blocklist.txt"), "w") as handle:
        handle.write("".join("%s:%d\n" % (item, 1 + index % 50) for index, item in enumerate(hashes)))
    with open(os.path.join(directory, "blocklisted.sha1"), "w") as handle:
        handle.write(digest + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
