# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Exit 0 when each password on stdin gives its hash through libxcrypt's crypt(), as a login would check it.

stdin: PASSWORD, HASH, PASSWORD, HASH, ... one per line (the scenarios give the vaulted passwords here, never
on the command line).  Exit 1 when a pair does not match, 2 when the input has no pair or an odd line.
"""

import ctypes
import sys


def main():
    fields = sys.stdin.buffer.read().split(b"\n")
    if fields and fields[-1] == b"":
        fields.pop()
    if not fields or len(fields) % 2:
        return 2
    lib = ctypes.CDLL("libcrypt.so.1")
    lib.crypt.restype = ctypes.c_char_p
    lib.crypt.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    pairs = zip(fields[0::2], fields[1::2])
    return 0 if all(lib.crypt(password, hashed) == hashed for password, hashed in pairs) else 1


if __name__ == "__main__":
    sys.exit(main())
