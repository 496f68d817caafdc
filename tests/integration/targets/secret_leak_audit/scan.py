# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Leak scanner of the secret-leak audit.

Reads the marker secrets from stdin (NUL-separated, never from arguments or
the environment), then scans files and directories for any trace of them:
the whole marker, the word LEAKMARK in any case, and every 6-character piece
of what follows it (so a truncated, quoted or escaped copy is found too).
It never prints what it found, only where and which marker (by number).

  scan.py [--allow GLOB]... [--hashed FILE]... [--grub FILE]... [--hashes-of FILE]... [--no-temp DIR]... PATH...

--allow GLOB   files that may hold markers (the kickstarts and their backups):
               they must be mode 0600 instead
--hashed FILE  a rendered kickstart: rootpw and user --password must be
               SHA-512 crypt or yescrypt hashes (--iscrypted) of a marker, with salts that
               hold no piece of one; no marker may appear in it except on the
               autopart --passphrase line; no other file may hold its hashes
--grub FILE    a rendered kickstart that must hold a boot-loader password: the
               bootloader line's --password must be a GRUB 2 PBKDF2 hash
               (--iscrypted, grub.pbkdf2.sha512...) of a marker (checked on
               every --hashed kickstart that has one)
--hashes-of FILE  a rendered kickstart whose password hashes no other file
               may hold (as --hashed, without checking the kickstart itself)
--no-temp DIR  DIR must hold no file left behind (temporary files)
Exit status: the number of problems (capped at 100).
"""

from __future__ import annotations

import argparse
import ctypes
import fnmatch
import gzip
import hashlib
import os
import re
import shlex
import stat
import sys
import warnings

PREFIX = b"leakmark"
PIECE = 6


def pieces(marker):
    """Byte strings whose presence betrays ``marker``."""
    raw = marker.encode("utf-8")
    found = {raw}
    tail = raw[raw.lower().find(PREFIX) + len(PREFIX):] if PREFIX in raw.lower() else raw
    for part in tail.splitlines():
        for start in range(0, max(len(part) - PIECE, 0) + 1):
            piece = part[start:start + PIECE]
            if len(piece) == PIECE:
                found.add(piece)
    return found


def hits(data, markers):
    """Numbers (1-based) of the markers of which a trace is in ``data``."""
    numbers = []
    lower = data.lower()
    for number, marker in enumerate(markers, 1):
        if any(piece in data for piece in pieces(marker)):
            numbers.append(number)
    if not numbers and PREFIX in lower:
        numbers.append(0)
    return numbers


def walk(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, _dirs, files in os.walk(path):
                for name in sorted(files):
                    yield os.path.join(root, name)
        elif os.path.lexists(path):
            yield path


GRUB = re.compile(r"^grub\.pbkdf2\.sha512\.([0-9]+)\.([0-9A-F]{128})\.([0-9A-F]{128})$")
HASHED = re.compile(r"^(\$6\$(rounds=\d+\$)?[./0-9A-Za-z]{1,16}\$[./0-9A-Za-z]{86}"
                    r"|\$y\$[./0-9A-Za-z]+\$[./0-9A-Za-z]+\$[./0-9A-Za-z]{43})$")


def _verifier():
    """crypt(3) of libxcrypt (SHA-512 crypt and yescrypt), else passlib's SHA-512 crypt."""
    try:
        lib = ctypes.CDLL("libcrypt.so.1")
        lib.crypt.restype = ctypes.c_char_p
        lib.crypt.argtypes = [ctypes.c_char_p, ctypes.c_char_p]

        def verify(secret, hashed):
            return lib.crypt(secret.encode("utf-8"), hashed.encode("ascii")) == hashed.encode("ascii")
    except OSError:
        from passlib.hash import sha512_crypt

        def verify(secret, hashed):
            return hashed.startswith("$6$") and sha512_crypt.verify(secret, hashed)
    return verify


def check_grub(path, lineno, args, markers, problems):
    """The bootloader line's password: --iscrypted, a GRUB 2 PBKDF2 hash of a marker. True when it is one."""
    values = [a.split("=", 1)[1] for a in args[1:] if a.startswith("--password=")]
    if not values:
        return False
    match = GRUB.match(values[0]) if len(values) == 1 else None
    if "--iscrypted" not in args or match is None:
        problems.append("%s line %d: bootloader password is not one --iscrypted GRUB 2 PBKDF2 hash" % (path, lineno))
        return False
    iterations, salt, digest = int(match.group(1)), bytes.fromhex(match.group(2)), bytes.fromhex(match.group(3))
    if not any(hashlib.pbkdf2_hmac("sha512", marker.encode("utf-8"), salt, iterations, 64) == digest
               for marker in markers):
        problems.append("%s line %d: bootloader hash is not the hash of any marker" % (path, lineno))
        return False
    return True


def check_hashed(path, markers, problems, grub=False):
    verify = _verifier()
    with open(path, "rb") as handle:
        text = handle.read().decode("utf-8")
    seen = grub_seen = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        words = line.split(None, 1)
        if not words:
            continue
        if words[0] == "autopart":
            continue  # the passphrase goes there as the installer needs it
        if any(piece in line.encode("utf-8") for marker in markers for piece in pieces(marker)):
            problems.append("%s line %d: holds a piece of a marker outside the autopart line" % (path, lineno))
            continue
        if words[0] == "bootloader":
            grub_seen += check_grub(path, lineno, shlex.split(line), markers, problems)
            continue
        if words[0] not in ("rootpw", "user"):
            continue
        args = shlex.split(line)
        if words[0] == "rootpw":
            values = [a for a in args[1:] if not a.startswith("--")]
        else:
            values = [a.split("=", 1)[1] for a in args[1:] if a.startswith("--password=")]
            if not values:
                continue
        if "--plaintext" in args or "--iscrypted" not in args:
            if values:
                problems.append("%s line %d: %s password not marked --iscrypted" % (path, lineno, words[0]))
            continue
        if len(values) != 1 or not HASHED.match(values[0]):
            problems.append("%s line %d: %s password is not one SHA-512 crypt or yescrypt hash"
                            % (path, lineno, words[0]))
            continue
        seen += 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if not any(verify(marker, values[0]) for marker in markers):
                problems.append("%s line %d: %s hash is not the hash of any marker" % (path, lineno, words[0]))
    if not seen:
        problems.append("%s: no hashed password found (the audit expects some)" % path)
    if grub and not grub_seen:
        problems.append("%s: no GRUB 2 hash of a boot-loader password found (the audit expects one)" % path)


def digests(paths):
    """The digest part of every crypt hash on the rootpw and user lines of the kickstarts ``paths``."""
    found = set()
    for path in paths:
        try:
            with open(path, "rb") as handle:
                text = handle.read().decode("utf-8")
        except OSError:
            continue  # check_hashed reports it
        for line in text.splitlines():
            for word in line.replace("'", " ").replace("=", " ").split():
                if HASHED.match(word):
                    found.add(word.rsplit("$", 1)[1].encode("ascii"))
                elif GRUB.match(word):  # the hash, in either case (a copy could be lower-cased)
                    digest = word.rsplit(".", 1)[1]
                    found.update((digest.encode("ascii"), digest.lower().encode("ascii")))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--allow", action="append", default=[])
    parser.add_argument("--hashed", action="append", default=[])
    parser.add_argument("--grub", action="append", default=[])
    parser.add_argument("--hashes-of", action="append", default=[])
    parser.add_argument("--no-temp", action="append", default=[])
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args()
    markers = [m for m in sys.stdin.buffer.read().decode("utf-8").split("\0") if m]
    if not markers:
        print("scan.py: no markers on stdin", file=sys.stderr)
        return 100
    problems = []
    hashes = digests(args.hashed + args.hashes_of)
    for path in walk(args.paths):
        if any(fnmatch.fnmatch(path, pattern) for pattern in args.allow):
            mode = stat.S_IMODE(os.lstat(path).st_mode)
            if mode != 0o600:
                problems.append("%s: holds secrets but has mode %04o, not 0600" % (path, mode))
            continue
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as exc:
            problems.append("%s: cannot read (%s)" % (path, exc.strerror))
            continue
        if data[:2] == b"\x1f\x8b":  # gzip (the updates image): scan what it holds too
            try:
                data += gzip.decompress(data)
            except (OSError, EOFError):
                problems.append("%s: gzip data that cannot be read" % path)
        numbers = hits(data, markers)
        if numbers:
            problems.append("%s: trace of marker(s) %s" % (path, ", ".join("#%d" % n if n else "LEAKMARK" for n in numbers)))
        if any(digest in data for digest in hashes):
            problems.append("%s: holds a password hash of the kickstarts" % path)
    for path in args.hashed:
        check_hashed(path, markers, problems, grub=path in args.grub)
    for directory in args.no_temp:
        left = list(walk([directory]))
        if left:
            problems.append("%s: %d file(s) left behind, e.g. %s" % (directory, len(left), left[0]))
    for problem in problems:
        print("LEAK: " + problem)
    return min(len(problems), 100)


if __name__ == "__main__":
    sys.exit(main())
