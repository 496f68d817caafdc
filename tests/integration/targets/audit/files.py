# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the audit target's repository of kickstarts and templates, with secrets at rest.

  files.py DIR [--move N]

DIR/ks/plain.ks holds a root password in the clear, DIR/ks/weak.ks a SHA-512
crypt hash (default rounds) of a common password, made here with libxcrypt,
DIR/ks/low.ks one of a random password at 1,000 rounds, DIR/ks/binary.ks is no
text; DIR/templates/site.erb is a Foreman template with a password in the
clear and values it fills in; DIR/cobbler/sample.ks is a Cobbler template read
as one only when kickstart_audit_templates names it.  Every password in the
clear starts with LEAKMARK.

Prints the findings the audit must report for them, as JSON:
{"PATH:LINE SECRET": [VERDICT, [FINDING IDS]]}; writes the hashes to
DIR.hashes (the outputs must not hold them).  With --move N, adds N comment
lines at the top of ks/plain.ks and templates/site.erb instead, and prints
the findings with their new lines.
"""

import ctypes
import json
import os
import random
import sys


def crypt(password, setting):
    lib = ctypes.CDLL("libcrypt.so.1")
    lib.crypt.restype = ctypes.c_char_p
    lib.crypt.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    return lib.crypt(password.encode(), setting.encode()).decode("ascii")


MOVED = ("ks/plain.ks", "templates/site.erb")


# (path, line, secret, verdict, finding ids) of every secret the audit must report.
EXPECTED = (
    ("ks/plain.ks", 3, "rootpw", "rejected", ["plaintext"]),
    ("ks/weak.ks", 2, "rootpw", "rejected", ["known_weak"]),
    ("ks/weak.ks", 3, "user:ops", "accepted", []),
    ("ks/low.ks", 2, "rootpw", "accepted_weak", ["low_cost"]),
    ("ks/binary.ks", None, "file", "error", ["unreadable"]),
    ("templates/site.erb", 3, "rootpw", "rejected", ["plaintext"]),
    # A value the template fills in is never accepted: nothing judged it.
    ("templates/site.erb", 5, "rootpw", "not_checked", ["not_checked"]),
    ("templates/site.erb", 7, "part", "not_checked", ["not_checked"]),
    ("cobbler/sample.ks", 2, "rootpw", "not_checked", ["not_checked"]),  # a template by kickstart_audit_templates
)


def expected(moved=0):
    found = {}
    for path, line, secret, verdict, ids in EXPECTED:
        if line is not None:
            path = "%s:%d" % (path, line + (moved if path in MOVED else 0))
        found["%s %s" % (path, secret)] = [verdict, ids]
    return found


def move(directory, count):
    for name in MOVED:
        path = os.path.join(directory, name)
        with open(path) as handle:
            text = handle.read()
        with open(path, "w") as handle:
            handle.write("# moved down a line\n" * count + text)
    json.dump(expected(count), sys.stdout, indent=1, sort_keys=True)


def main(directory, option=None, count=None):
    if option == "--move":
        return move(directory, int(count))
    rng = random.Random()
    alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    salt = "".join(rng.choice(alphabet) for dummy in range(16))
    weak = crypt("password", "$6$%s" % salt)
    low = crypt("".join(rng.choice(alphabet) for dummy in range(24)), "$6$rounds=1000$%s" % salt[::-1])
    files = {
        "ks/plain.ks": "#version=RHEL9\nlang en_US.UTF-8\nrootpw --plaintext LEAKMARK-plain-Rt5%xQw\n"
                       "%packages\n@core\n%end\n",
        "ks/weak.ks": "#version=RHEL9\nrootpw --iscrypted %s\nuser --name=ops --lock\n" % weak,
        "ks/low.ks": "#version=RHEL9\nrootpw --iscrypted %s\n" % low,
        "templates/site.erb": "<%# kind: provision %>\n<% if @host.params['lab'] -%>\n"
                              "rootpw --plaintext LEAKMARK-erb-Zx9#wq\n<% else -%>\n"
                              "rootpw --iscrypted <%= root_pass %>\n<% end -%>\n"
                              "part / --encrypted --passphrase=<%= luks_pass %>\n",
        "cobbler/sample.ks": "#if $getVar('lab', '')\nrootpw $root_password\n#end if\n",
    }
    for name, text in files.items():
        path = os.path.join(directory, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(text)
    with open(os.path.join(directory, "ks", "binary.ks"), "wb") as handle:
        handle.write(b"\x7fELF\x02\x01\x01\x00\xff\xfe\x00binary")
    with open(directory.rstrip("/") + ".hashes", "w") as handle:
        handle.write("%s\n%s\n" % (weak, low))
    json.dump(expected(), sys.stdout, indent=1, sort_keys=True)
    return None


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
