# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Blocklist lookup (NIST SP 800-63B-4 3.1.1.2): is a password a breached or common one?

Three kinds of source, all local and offline (nothing here opens a network
connection):

* a Pwned Passwords **range directory**, as Have I Been Pwned's downloader
  writes it: one file per 5-hex-digit prefix of the SHA-1 (``ABCDE.txt`` or
  ``ABCDE``), each line ``SUFFIX:COUNT`` (the other 35 hex digits);
* one **sorted file** of ``SHA1:COUNT`` lines (the downloader's single-file
  output), searched by binary search with ``seek``: a lookup reads a number of
  lines that grows with the logarithm of the file's size, never the file.
  Every line a lookup reads must be in order with the lines it read before
  (each probe lies between the two it was chosen between, and the last block
  is read whole), so a file ordered by count, as Have I Been Pwned also
  publishes it, is an error naming the fix (:data:`SORT_FIX`), never a list
  that lets breached passwords pass; :func:`scan` checks every line;
* the **shipped** list (``"shipped"``): zxcvbn's 30,000 common passwords and
  the defaults of installers and provisioning tools
  (``module_utils/_common_passwords.py``, which the node reads too), compared
  in lower case.

A count of 0 (Have I Been Pwned's padding lines) is not a hit.  An empty
sorted file or range file is an error (it would pass every password), and so
is a source that is not a regular file: a FIFO or a device is refused by
``stat`` before it is opened (``module_utils._files.open_regular``).

Nothing here returns, words or logs the password or its hash; an error about
a corpus names the source but neither a range file's name (the first five
digits of the hash) nor a position in a sorted file (which would tell as
much).  :func:`scan` reads a whole source and names the file and line of the
first ill-formed line, independently of any password.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import hashlib
import os
import re

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._files import FileError, open_regular

SHIPPED = "shipped"
FORMATS = ("range", "sorted", SHIPPED)
REASON = "appears in a list of breached or common passwords"
HINT = ("choose another password, one that is on no such list: several random words, or a password from a "
        "password manager's generator")
RANGE_NAME = re.compile(r"^[0-9A-Fa-f]{5}(\.txt)?$")
_RANGE_LINE = re.compile(rb"^([0-9A-Fa-f]{35}):([0-9]+)\r?\n?$")
_SORTED_LINE = re.compile(rb"^([0-9A-Fa-f]{40}):([0-9]+)\r?\n?$")
RANGE_FORM = "SUFFIX:COUNT (35 hexadecimal digits, a colon, a count)"
SORTED_FORM = "SHA1:COUNT (40 hexadecimal digits, a colon, a count), sorted by the hash"
# How a sorted file gets its order (C collation: the order the search compares in).
SORT_FIX = "LC_ALL=C sort -t: -k1,1 -o FILE FILE"
# Below this many bytes between the bounds, the sorted search reads the lines one by one.
LINEAR_BYTES = 1024
# The bytes at the end of a sorted file read for its last line (a line has 42 to about 60).
ENDS_BYTES = 128

_SHIPPED_WORDS = []


class BlocklistError(PwpolicyError):
    """A blocklist source cannot be used.  The message names the source, never the password or its hash."""


def _sha1(password):
    if not isinstance(password, str):
        raise BlocklistError("the password to look up must be a string, got %s" % type(password).__name__)
    return hashlib.sha1(password.encode("utf-8")).hexdigest().upper().encode("ascii")


def shipped_words():
    """The shipped list as a frozenset of lower-case words (read once)."""
    if not _SHIPPED_WORDS:
        from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _common_passwords
        words = set(_common_passwords.COMMON.split("\n"))
        words.update(_common_passwords.TOOL_DEFAULTS)
        words.discard("")
        _SHIPPED_WORDS.append(frozenset(words))
    return _SHIPPED_WORDS[0]


# ---------------------------------------------------------------------------
# Sources
# ---------------------------------------------------------------------------
def _source_from(item, index):
    """``(format, path)`` of one source given as a path, ``"shipped"`` or ``{path, format}``."""
    where = "blocklist source %d" % (index + 1)
    if isinstance(item, dict):
        unknown = sorted(set(item) - {"path", "format"})
        if unknown:
            raise BlocklistError("%s: unknown key %s: give path and, optionally, format (%s)"
                                 % (where, ", ".join(map(repr, unknown)), ", ".join(FORMATS)))
        kind, path = item.get("format"), item.get("path")
        if kind is not None and kind not in FORMATS:
            raise BlocklistError("%s: unknown format %r: give one of %s" % (where, kind, ", ".join(FORMATS)))
        if kind == SHIPPED:
            return SHIPPED, None
    elif isinstance(item, str):
        kind, path = None, item
        if item.strip() == SHIPPED:
            return SHIPPED, None
    else:
        raise BlocklistError("%s must be a path, %r or a dict with path and format, got %s"
                             % (where, SHIPPED, type(item).__name__))
    if not isinstance(path, str) or not path.strip():
        raise BlocklistError("%s: give the path of a Pwned Passwords range directory or sorted file" % where)
    path = os.path.expanduser(path)
    if kind is None:
        kind = "range" if os.path.isdir(path) else "sorted"
    if kind == "range" and not os.path.isdir(path):
        raise BlocklistError("blocklist %s: not a directory (a range directory holds one file per 5-hex-digit "
                             "prefix, as the Pwned Passwords downloader writes it)" % path)
    if kind == "sorted" and os.path.exists(path) and not os.path.isfile(path):
        raise BlocklistError("blocklist %s: not a regular file (give a sorted file of %s, or a range directory)"
                             % (path, SORTED_FORM))
    if kind == "sorted" and not os.path.isfile(path):
        raise BlocklistError("blocklist %s: no such file (give a sorted file of %s, or a range directory)"
                             % (path, SORTED_FORM))
    if not os.access(path, os.R_OK | (os.X_OK if kind == "range" else 0)):
        raise BlocklistError("blocklist %s: not readable by this user: give a %s this user can read"
                             % (path, "range directory" if kind == "range" else "sorted file"))
    return kind, path


def normalize_sources(sources):
    """Validate ``sources`` (a path, ``"shipped"``, a dict, or a list of them): ``[(format, path)]``."""
    if sources is None:
        return []
    if isinstance(sources, (str, dict)):
        sources = [sources]
    if not isinstance(sources, (list, tuple)):
        raise BlocklistError("blocklist must be a list of sources (paths, %r, or dicts with path and format), got %s"
                             % (SHIPPED, type(sources).__name__))
    return [_source_from(item, index) for index, item in enumerate(sources)]


def describe(kind, path):
    """How a reason names a source."""
    if kind == SHIPPED:
        return "the list of common passwords shipped with the collection"
    return "the breach corpus %s" % path


# ---------------------------------------------------------------------------
# Range directory
# ---------------------------------------------------------------------------
def _range_file(directory, prefix):
    for name in (prefix + ".txt", prefix, prefix.lower() + ".txt", prefix.lower()):
        candidate = os.path.join(directory, name)
        if os.path.exists(candidate):  # not opened here: open_regular refuses what is not a regular file
            return candidate
    return None


def in_range_directory(password, directory):
    """Whether the password is in the range directory (with a count above 0)."""
    digest = _sha1(password)
    prefix, suffix = digest[:5].decode("ascii"), digest[5:]
    path = _range_file(directory, prefix)
    # No message names the range file: its name is the first five digits of the password's hash.
    try:
        fd = None if path is None else open_regular(path, "range file")
    except FileError:
        raise BlocklistError("blocklist %s: a range file this password needs is not a regular file or cannot be "
                             "read (the file is not named here: its name is part of the password's hash); run a "
                             "scan of the directory to find it" % directory)
    if fd is None:
        raise BlocklistError("blocklist %s: the range file this password needs is missing (a complete download "
                             "holds 1,048,576 files named by 5 hexadecimal digits); download the whole corpus"
                             % directory)
    lines = 0
    try:
        with os.fdopen(fd, "rb") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                lines += 1
                match = _RANGE_LINE.match(line)
                if match is None:
                    raise BlocklistError("blocklist %s: line %d of one of its range files is not %s (the file is "
                                         "not named here: its name is part of the password's hash); run a scan "
                                         "of the directory to find it" % (directory, number, RANGE_FORM))
                if match.group(1).upper() == suffix:
                    return int(match.group(2)) > 0
    except OSError as exc:
        raise BlocklistError("blocklist %s: a range file cannot be read: %s" % (directory, exc.strerror))
    if not lines:
        raise BlocklistError("blocklist %s: a range file this password needs is empty (the file is not named here: "
                             "its name is part of the password's hash; a complete download has no empty one); "
                             "download the whole corpus again, or run a scan of the directory to find it" % directory)
    return False


# ---------------------------------------------------------------------------
# Sorted file, searched by binary search
# ---------------------------------------------------------------------------
class SortedFile(object):
    """One sorted ``SHA1:COUNT`` file, searched without loading it.

    ``reads`` counts the reads of the last :meth:`find` (each ``readline``
    after a ``seek``, the partial line skipped included): about twice the
    base-2 logarithm of the file's size, plus the lines of the last block and
    the few at the file's two ends.

    Every line read is checked against the order: the first and the last
    line of the file bound every key, a probe must sort between the two lines
    the search narrowed to (it lies between them in the file), and the last
    block is read whole, each line in order with its neighbours.
    A file that is not sorted by the hash is refused as soon as a lookup reads
    a line out of place (a file ordered by count, at its first lookups).  A
    lookup reads too few lines to prove a whole file sorted: one line out of
    place elsewhere shows at the lookups that pass it, and :func:`scan` reads
    every line.  An empty file is refused.
    """

    def __init__(self, path):
        self.path = path
        self.reads = 0
        self._keys = 0

    def _ill_formed(self):
        return BlocklistError("blocklist %s: a line is not %s (its position is not named here: it would tell part "
                              "of the password's hash); run a scan of the file to find it" % (self.path, SORTED_FORM))

    def _unsorted(self):
        return BlocklistError("blocklist %s: the lines are not sorted by their hash (a file ordered by count, as Have "
                              "I Been Pwned also publishes it, cannot be searched: it would let breached passwords "
                              "pass); sort the file by the hash (%s) or download the one ordered by hash, or give "
                              "the range directory; a scan of the file names the first line out of order"
                              % (self.path, SORT_FIX))

    def _parse(self, line):
        match = _SORTED_LINE.match(line)
        if match is None:
            raise self._ill_formed()
        self._keys += 1
        return match.group(1).upper(), int(match.group(2))

    def _key(self, line):
        """The key and count of a line just read (one read)."""
        self.reads += 1
        return self._parse(line)

    def find(self, digest):
        """The count of ``digest`` (upper-case hex bytes) in the file, or 0."""
        self.reads = self._keys = 0
        try:
            fd = open_regular(self.path, "blocklist")
        except FileError as exc:  # names the file the user gave, nothing of the password
            raise BlocklistError(str(exc))
        if fd is None:
            raise BlocklistError("blocklist %s: no such file (give a sorted file of %s, or a range directory)"
                                 % (self.path, SORTED_FORM))
        try:
            with os.fdopen(fd, "rb") as handle:
                handle.seek(0, os.SEEK_END)
                # Invariant: a line holding digest starts at an offset in [low, high); low is a line start.
                # below and above bound every key from low on and before high: at first the file's first and
                # last keys, then those of the probes just before low and from high on.
                low, high = 0, handle.tell()
                below, above = self._ends(handle, high)
                while high - low > LINEAR_BYTES:
                    middle = (low + high) // 2
                    handle.seek(middle)
                    handle.readline()  # the rest of the line middle falls in
                    self.reads += 1
                    start = handle.tell()
                    if start >= high:
                        high = middle + 1
                        continue
                    line = handle.readline()
                    key, count = self._key(line)
                    if key == digest:
                        return count
                    if (below is not None and key < below) or (above is not None and key > above):
                        raise self._unsorted()
                    if key < digest:
                        low, below = start + len(line), key
                    else:
                        high, above = middle + 1, key  # no line starts between middle and start
                count = self._scan_between(handle, low, high, digest, below, above)
        except OSError as exc:
            raise BlocklistError("blocklist %s: cannot be read: %s" % (self.path, exc.strerror))
        if not self._keys:
            raise BlocklistError("blocklist %s: empty (not one line of %s): it would let every password pass; give "
                                 "the whole corpus" % (self.path, SORTED_FORM))
        return count

    def _ends(self, handle, size):
        """The keys of the file's first and last lines (None for a blank one)."""
        handle.seek(0)
        line = handle.readline()
        first = self._key(line)[0] if line.strip() else None
        lines = [line]
        tail = max(len(line), size - ENDS_BYTES)
        if tail < size:
            handle.seek(tail - 1)
            handle.readline()  # to the first line starting at tail or after
            self.reads += 1
            lines = list(iter(handle.readline, b""))  # ENDS_BYTES at most: a few lines
            self.reads += len(lines)
        lines = [line for line in lines if line.strip()]
        return first, self._parse(lines[-1])[0] if lines else None

    def _scan_between(self, handle, low, high, digest, below, above):
        """The count of ``digest`` among the lines starting in [low, high), each checked for order."""
        handle.seek(low)
        previous, found = below, 0
        while handle.tell() < high:
            line = handle.readline()
            if not line:
                break
            if not line.strip():
                continue
            key, count = self._key(line)
            if (previous is not None and key < previous) or (above is not None and key > above):
                raise self._unsorted()
            previous = key
            if key == digest:
                found = found or count
        return found


def in_sorted_file(password, path):
    """Whether the password is in the sorted file (with a count above 0)."""
    return SortedFile(path).find(_sha1(password)) > 0


# ---------------------------------------------------------------------------
# The check
# ---------------------------------------------------------------------------
def lookup(password, kind, path):
    """Whether one source holds the password."""
    if kind == SHIPPED:
        if not isinstance(password, str):
            raise BlocklistError("the password to look up must be a string, got %s" % type(password).__name__)
        return password.lower() in shipped_words()
    if kind == "range":
        return in_range_directory(password, path)
    return in_sorted_file(password, path)


def checked_sources(blocklist=None, required=False):
    """The sources a check compares passwords with: the shipped list when ``blocklist`` is given or ``required``
    (a compliance profile asks for a blocklist), then ``blocklist`` (a path or a list of paths), validated."""
    given = normalize_sources(None if isinstance(blocklist, str) and not blocklist.strip() else blocklist)
    if not (given or required):
        return []
    return [(SHIPPED, None)] + [source for source in given if source[0] != SHIPPED]


def holds(password, sources):
    """Whether any of ``sources`` (as :func:`normalize_sources` returns them) holds the password; the first that
    does ends the search, and nothing says which."""
    return any(lookup(password, kind, path) for kind, path in sources)


def check(password, sources):
    """``None`` when no source holds the password, else the reason, naming the source.

    ``sources`` is what :func:`normalize_sources` takes.  The reason never
    holds the password or its hash.
    """
    for kind, path in normalize_sources(sources):
        if lookup(password, kind, path):
            return "%s (%s)" % (REASON, describe(kind, path))
    return None


# ---------------------------------------------------------------------------
# Scanning a whole source (no password involved): where is the bad line?
# ---------------------------------------------------------------------------
def _scan_file(path, pattern, form, sorted_keys):
    try:
        fd = open_regular(path, "blocklist")
    except FileError as exc:
        raise BlocklistError(str(exc))
    if fd is None:
        raise BlocklistError("blocklist %s: no such file" % path)
    previous, lines = b"", 0
    try:
        with os.fdopen(fd, "rb") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                match = pattern.match(line)
                if match is None:
                    raise BlocklistError("blocklist %s, line %d: not %s" % (path, number, form))
                key = match.group(1).upper()
                if sorted_keys and key < previous:
                    raise BlocklistError("blocklist %s, line %d: not sorted (its hash sorts before the line "
                                         "above); sort the file by the hash (%s)" % (path, number, SORT_FIX))
                previous = key
                lines += 1
    except OSError as exc:
        raise BlocklistError("blocklist %s: cannot be read: %s" % (path, exc.strerror))
    if not lines:
        raise BlocklistError("blocklist %s: empty (not one line of %s): it would let every password pass; give "
                             "the whole corpus" % (path, form))


def scan(sources):
    """Read every source whole and raise :class:`BlocklistError` naming the file and line of the first fault.

    Linear in the size of the sources; for a user who wants to know where a
    corpus is broken, not for a check.
    """
    for kind, path in normalize_sources(sources):
        if kind == "sorted":
            _scan_file(path, _SORTED_LINE, SORTED_FORM, True)
        elif kind == "range":
            names = sorted(name for name in os.listdir(path) if RANGE_NAME.match(name))
            if not names:
                raise BlocklistError("blocklist %s: no range files (files named by 5 hexadecimal digits, as the "
                                     "Pwned Passwords downloader writes them)" % path)
            for name in names:
                _scan_file(os.path.join(path, name), _RANGE_LINE, RANGE_FORM, False)
