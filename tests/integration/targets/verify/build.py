# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Builds the verify target's installed hosts (trees) and their inventory.

  build.py DIR VAULT_PASSWORD_FILE

Three hosts, each an "installed system" under DIR/trees/HOST made from the
distributions' files (tests/unit/plugins/module_utils/fixtures/host, see its
README), with what the real tools make here: each shadow entry hashed by
libxcrypt through the collection's own hashing (plugin_utils/_crypt.py), a
LUKS2 header made by ``cryptsetup luksFormat`` on a file, GRUB 2's password
by ``grub-mkpasswd-pbkdf2``:

* ``stig``: RHEL 9 after a STIG remediation, root hashed at 100,000 rounds, a
  boot-loader password, the LUKS header: what the inventory declares (the
  STIG) holds;
* ``shipped``: RHEL 9 as installed, root at SHA-512 crypt's 5,000 rounds, no
  boot-loader password, the kickstart the installer left in /root with root's
  password in the clear: the STIG's deviations;
* ``drift``: the remediated tree, but its inventory declares more than the
  STIG (kickstart_pwquality_settings difok 10, maxsequence 3), which the host
  does not enforce, and its vault holds another root password than the one
  installed (changed on the host since).

Writes DIR/inventory/hosts.ini and host_vars (local connection, every host's
root password and boot-loader password vaulted) and DIR/secrets (one marker a line: every secret and hash made here,
which no output may hold).
"""

import json
import os
import shutil
import subprocess
import sys


def collection_root():
    """Where the collection under test is: in ANSIBLE_COLLECTIONS_PATH (ansible-test points it at its copy)."""
    for path in os.environ.get("ANSIBLE_COLLECTIONS_PATH", "").split(os.pathsep):
        for base in (path, os.path.dirname(path)):
            if base and os.path.isdir(os.path.join(base, "ansible_collections", "kickstart", "pwpolicy")):
                return base
    sys.exit("the collection is not in ANSIBLE_COLLECTIONS_PATH (run the target with ansible-test)")


sys.path.insert(0, collection_root())
COLLECTION = os.path.join(sys.path[0], "ansible_collections", "kickstart", "pwpolicy")

from ansible.parsing.vault import VaultLib, VaultSecret  # noqa: E402  pylint: disable=wrong-import-position

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _crypt  # noqa: E402  pylint: disable=wrong-import-position

FIXTURES = os.path.join(COLLECTION, "tests", "unit", "plugins", "module_utils", "fixtures", "host")
SEARCH = os.pathsep.join([os.environ.get("PATH", os.defpath), "/usr/sbin", "/sbin", "/usr/bin", "/bin"])
ENV = dict(os.environ, PATH=SEARCH, LC_ALL="C")
RHEL9 = 'NAME="Red Hat Enterprise Linux"\nVERSION="9.6 (Plow)"\nID="rhel"\nID_LIKE="fedora"\nVERSION_ID="9.6"\n'
ROOT_SECRET = "Verify-Target-Root-3f8a"
GRUB_SECRET = "Verify-Target-Grub-6c21"
LUKS_SECRET = "Verify-Target-Luks-90be"
# host: (tree, root's rounds, boot-loader password, LUKS header, kickstart left in /root)
HOSTS = {
    "stig": ("rhel9-stig", 100000, True, True, False),
    "shipped": ("rhel9", 5000, False, False, True),
    "drift": ("rhel9-stig", 100000, True, False, False),
}
# The vaulted value of each host's root password: drift's was changed on the host since (its vault holds another).
CHANGED_SECRET = "Verify-Target-Changed-d417"
VAULTED_ROOT = {"drift": CHANGED_SECRET}
HOST_VARS = {
    "drift": "kickstart_pwquality_settings:\n  difok: 10\n  maxsequence: 3\n",
}


def tool(*names):
    for name in names:
        found = shutil.which(name, path=SEARCH)
        if found:
            return found
    sys.exit("%s is not installed (Debian: cryptsetup-bin and grub-common; Fedora/RHEL: cryptsetup and "
             "grub2-tools-minimal; bindep.txt's test profile)" % " or ".join(names))


def write(root, path, text, mode=0o644):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as handle:
        handle.write(text)
    os.chmod(full, mode)


def grub_password():
    done = subprocess.run([tool("grub2-mkpasswd-pbkdf2", "grub-mkpasswd-pbkdf2"), "-c", "10000"],
                          input="%s\n%s\n" % (GRUB_SECRET, GRUB_SECRET), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, env=ENV, check=True)
    return [word for word in done.stdout.split() if word.startswith("grub.pbkdf2.")][0]


def luks_header(path, key_file):
    with open(path, "wb") as handle:
        handle.truncate(20 * 1024 * 1024)
    subprocess.run([tool("cryptsetup"), "--batch-mode", "luksFormat", "--type", "luks2", "--pbkdf", "argon2id",
                    "--pbkdf-memory", "32768", "--pbkdf-force-iterations", "4", "--pbkdf-parallel", "1", path,
                    key_file], check=True, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def vaulted(text, password_file):
    with open(password_file, "rb") as handle:
        secret = VaultSecret(handle.read().strip())
    data = VaultLib([("default", secret)]).encrypt(text.encode(), secret).decode("ascii")
    return "!vault |\n" + "".join("      %s\n" % line for line in data.splitlines())


def main():
    base, password_file = sys.argv[1:3]
    markers = [ROOT_SECRET, GRUB_SECRET, LUKS_SECRET, CHANGED_SECRET]
    key_file = os.path.join(base, "luks-key")
    write(base, "luks-key", LUKS_SECRET, 0o600)
    header = os.path.join(base, "luks.img")
    luks_header(header, key_file)
    grub = grub_password()
    markers.append(grub)
    lines = []
    os.makedirs(os.path.join(base, "inventory", "host_vars"))
    for host, (name, rounds, bootloader, luks, leftover) in HOSTS.items():
        root = os.path.join(base, "trees", host)
        shutil.copytree(os.path.join(FIXTURES, name), root)
        os.makedirs(os.path.join(root, "etc", "pam.d"))
        for stack in ("system-auth", "password-auth"):  # the links authselect makes
            os.symlink("/etc/authselect/" + stack, os.path.join(root, "etc", "pam.d", stack))
        write(root, "/etc/os-release", RHEL9)
        salt = _crypt.account_salt("verify-target", host, "root")
        hashed = _crypt.hash_secret(ROOT_SECRET, "sha512crypt", salt, rounds)
        markers.extend([hashed, hashed.split("$")[-1]])
        write(root, "/etc/shadow", "root:%s:19700:0:99999:7:::\nbin:*:19700:0:99999:7:::\n" % hashed, 0o600)
        if bootloader:
            write(root, "/boot/grub2/user.cfg", "GRUB2_PASSWORD=%s\n" % grub, 0o600)
        if leftover:
            write(root, "/root/original-ks.cfg", "#version=RHEL9\nrootpw --plaintext %s\n" % ROOT_SECRET, 0o600)
        lines.append(host)
        with open(os.path.join(base, "inventory", "host_vars", host + ".yml"), "w") as handle:
            # A host with the LUKS header declares its passphrase: its estimate is made on the header's key slot.
            handle.write("---\nkickstart_verify_root: %s\n%skickstart_root_password: %s%s%s" % (
                json.dumps(root), "kickstart_verify_devices: [%s]\nkickstart_luks_passphrase: %s" % (
                    json.dumps(header), vaulted(LUKS_SECRET, password_file)) if luks else "",
                vaulted(VAULTED_ROOT.get(host, ROOT_SECRET), password_file),
                "kickstart_bootloader_password: %s" % vaulted(GRUB_SECRET, password_file) if bootloader else "",
                HOST_VARS.get(host, "")))
    with open(os.path.join(base, "inventory", "hosts.ini"), "w") as handle:
        handle.write("[installed]\n%s\n\n[installed:vars]\nansible_connection=local\n"
                     "ansible_python_interpreter=%s\nkickstart_verify_become=false\nkickstart_target=RHEL9\n"
                     "kickstart_product=server\nkickstart_profile=stig\n" % ("\n".join(lines), sys.executable))
    with open(os.path.join(base, "secrets"), "w") as handle:
        handle.write("\n".join(markers) + "\n")


if __name__ == "__main__":
    main()
