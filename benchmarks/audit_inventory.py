# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""An inventory of HOSTS hosts over the three products, three vaulted secrets each, for the audit benchmark.

    audit_inventory.py DIR HOSTS VAULT_PASSWORD_FILE [SHARED]

SHARED (default 0) is the share of hosts whose secrets are their product's,
in the product's group_vars (a fleet's one root password for hundreds of
hosts): with 0.9, nine hosts in ten have no secret of their own.  Prints the
number of distinct vaulted values written.  Encrypting takes a while (one key
derivation per value, as ansible-vault does, spread over the cores); it is not
part of the timing.  DIR/vaulted.json lists every distinct vaulted value, each
``[vault text, account, product]``, for the audit's floor.
"""

import concurrent.futures
import json
import os
import random
import string
import sys

from ansible.parsing.vault import VaultLib, VaultSecret

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "unit"))
# The checkout importable as the collection, as bench.py makes it.
import checkout  # noqa: E402,F401  pylint: disable=unused-import
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._known_weak import usable_cores  # noqa: E402

PRODUCTS = (("server", "RHEL9"), ("cloud", "F40"), ("workstation", "F40"))
SECRETS_PER_HOST = 3


def _encrypt(job):
    """One process's share: each text vaulted with the password in ``password_file``."""
    password_file, texts = job
    with open(password_file, "rb") as handle:
        secret = VaultSecret(handle.read().strip())
    vault = VaultLib([("default", secret)])
    return [vault.encrypt(text.encode(), secret).decode("ascii") for text in texts]


def encrypt_all(password_file, texts):
    """Every text vaulted, in order, over one process per usable core."""
    processes = usable_cores()
    size = -(-len(texts) // processes)
    chunks = [texts[i:i + size] for i in range(0, len(texts), size)]
    with concurrent.futures.ProcessPoolExecutor(max_workers=processes) as pool:
        return [data for share in pool.map(_encrypt, [(password_file, chunk) for chunk in chunks]) for data in share]


def main(directory, count, password_file, shared="0"):
    count = int(count)
    # Hosts with secrets of their own, in every ten: one at 0.9.
    own_in_ten = 10 - int(round(float(shared) * 10))
    rng = random.Random(20151)
    alphabet = string.ascii_letters + string.digits + "!#%&*+-=?@^_"
    owners = [index for index in range(count) if index % 10 < own_in_ten]
    # (account, product) of each distinct secret: the products' shared ones first, then the hosts' own.
    places = []
    if own_in_ten < 10:
        for product, dummy in PRODUCTS:
            places.extend([("root", product), ("alice", product), (None, product)])
    for index in owners:
        product = PRODUCTS[index % 3][0]
        places.extend([("root", product), ("alice", product), (None, product)])
    texts = ["".join(rng.choice(alphabet) for dummy in range(rng.randint(8, 24))) for dummy in places]
    written = encrypt_all(password_file, texts)
    values = iter(written)

    def vaulted():
        return "!vault |\n" + "".join("      %s\n" % line for line in next(values).splitlines())

    def secrets_yaml():
        return ("kickstart_root_password: %skickstart_users:\n  - name: alice\n    password: %s"
                "kickstart_luks_passphrase: %s" % (vaulted(), vaulted().replace("\n      ", "\n          "),
                                                   vaulted()))

    os.makedirs(os.path.join(directory, "host_vars"))
    os.makedirs(os.path.join(directory, "group_vars"))
    group_secrets = dict((product, secrets_yaml()) for product, dummy in PRODUCTS) if own_in_ten < 10 else {}
    groups = dict((product, []) for product, dummy in PRODUCTS)
    for index in range(count):
        groups[PRODUCTS[index % 3][0]].append("h%05d" % index)
    for index in owners:
        with open(os.path.join(directory, "host_vars", "h%05d.yml" % index), "w") as handle:
            handle.write(secrets_yaml())
    with open(os.path.join(directory, "hosts.ini"), "w") as handle:
        for product, target in PRODUCTS:
            handle.write("[%s]\n%s\n\n" % (product, "\n".join(groups[product])))
            with open(os.path.join(directory, "group_vars", product + ".yml"), "w") as group:
                group.write("kickstart_product: %s\nkickstart_target: %s\n%s"
                            % (product, target, group_secrets.get(product, "")))
    with open(os.path.join(directory, "vaulted.json"), "w") as handle:
        json.dump([[text, account, product] for text, (account, product) in zip(written, places)], handle)
    print(len(written))


if __name__ == "__main__":
    main(*sys.argv[1:])
