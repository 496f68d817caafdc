# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Write the audit's vaulted files in one process (as ansible-vault would, one call per value).

Reads NUL-terminated fields from stdin (the markers never go through
arguments or the environment), one step after the other, each appending to
its file (a file is emptied the first time a step names it):

  text OUT TEXT                        TEXT as it is
  file VAULT_PASSWORD_FILE OUT N (NAME VALUE){N}
                                       a whole vault-encrypted file holding the
                                       JSON object {NAME: VALUE, ...} (YAML reads it)
  inline VAULT_PASSWORD_FILE OUT INDENT NAME VALUE
                                       INDENT NAME: !vault | and the encrypted
                                       VALUE, as ansible-vault encrypt_string
                                       --stdin-name NAME writes it
"""

from __future__ import annotations

import json
import sys

from ansible.parsing.vault import VaultLib, VaultSecret


def _secret(path):
    with open(path, "rb") as handle:
        return VaultSecret(handle.read().strip())


def _encrypt(password_file, text):
    return VaultLib([("default", _secret(password_file))]).encrypt(text.encode("utf-8")).decode("ascii")


def main():
    fields = sys.stdin.buffer.read().decode("utf-8").split("\0")
    fields.pop()  # what follows the last NUL
    fields.reverse()
    started = set()

    def append(path, text):
        with open(path, "a" if path in started else "w", encoding="utf-8") as handle:
            handle.write(text)
        started.add(path)

    while fields:
        step = fields.pop()
        if step == "text":
            out = fields.pop()
            append(out, fields.pop())
        elif step == "file":
            password_file, out, count = fields.pop(), fields.pop(), int(fields.pop())
            data = dict((fields.pop(), fields.pop()) for dummy in range(count))
            append(out, _encrypt(password_file, json.dumps(data)) + "\n")
        elif step == "inline":
            password_file, out, indent, name = fields.pop(), fields.pop(), fields.pop(), fields.pop()
            data = _encrypt(password_file, fields.pop())
            append(out, "%s%s: !vault |\n%s" % (indent, name, "".join(
                "%s          %s\n" % (indent, line) for line in data.splitlines())))
        else:
            sys.exit("vault.py: unknown step %r" % step)


if __name__ == "__main__":
    main()
