# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The passwords a kickstart's hashes are tried against, most likely first.

Most passwords found in published kickstarts are a tool's default, a word of
the file itself or one of the most common passwords, often with a capital, a
digit, a ``!``, a year or a letter swapped for a digit or symbol.
:func:`candidates` yields them in one order of likelihood over the whole
list, each once:

* every candidate is a *word* with a *variation*: the word as it is, or one
  of :data:`TOP_VARIATIONS` (a capital, ``1``, ``!``, ``123``, one letter
  swapped everywhere as in ``passw0rd``, every usual letter swapped as in
  ``p@ssw0rd``, ``1!``, this year...) or :data:`MORE_VARIATIONS` (more
  digits and suffixes, other swaps, years back to 1990), each with a weight:
  how likely it is beside the word as it is (1);
* the words come from three lists, each most likely first: the defaults of
  installers and provisioning tools (``_common_passwords.TOOL_DEFAULTS``:
  Vagrant, Cobbler, Packer...) followed by the words of the file
  (:func:`file_words`: account and host names, product and OS words); the
  user's own list (``wordlist``, as given, without variations); and zxcvbn's
  30,000 common passwords (``_common_passwords``).  The word at place ``i``
  of a list (from 0) is as likely as the word at place ``i`` of another, and
  likelihood falls as ``1 / (i + 5)``, as word frequencies do;
* a candidate's score is its word's likelihood times its variation's weight,
  and the candidates come highest score first (ties: the tools' and file's
  words, then the user's list, then the common list).  The words of the
  tools and the file get every variation, the 1,000 most common passwords
  the top ones, the rest of the common list none, and a word without a
  letter (``123456``) none.

So ``Passw0rd`` (a capital and one swap on the second common password) comes
within the first few hundred candidates, the usual variations of the 1,000
most common passwords before the tail of the 30,000, and the list of one
file is finite (57,000 to 70,000).  :class:`CandidateList` holds the list for
one file, built as far as the hashing has come, for every hash and thread.
Nothing here logs or returns which candidate matched anything.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import heapq
import re
import threading
import time

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _common_passwords

# Longer candidates are skipped: no scheme's hash of a typed password needs more.
MAX_CANDIDATE_LENGTH = 256
# At most this many words of a file become candidates.
MAX_FILE_WORDS = 64
# The common passwords that get the top variations.
COMMON_HEAD = 1000
# The word at place i of a list is as likely as 1 / (i + RANK_OFFSET).
RANK_OFFSET = 5
# Letters swapped for digits or symbols: the usual way (P@ssw0rd), with s too (p@$$w0rd), digits only (c3nt05).
_LEET = {"a": "@", "e": "3", "i": "1", "o": "0"}
_LEET_S = {"a": "@", "e": "3", "i": "1", "o": "0", "s": "$"}
_LEET_DIGITS = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5"}
# One letter swapped everywhere it is (passw0rd, p@ssword), most usual first.
_SWAPS = (("o", "0"), ("a", "@"), ("e", "3"), ("i", "1"), ("s", "$"), ("a", "4"), ("s", "5"))
# Product and OS words a kickstart names (with or without a version: centos7, rhel9).
PRODUCT_WORDS = frozenset((
    "redhat", "rhel", "centos", "fedora", "rocky", "rockylinux", "alma", "almalinux", "oracle", "oraclelinux",
    "scientific", "linux", "kickstart", "anaconda", "server", "workstation", "cloud", "stream", "eln",
    "cobbler", "foreman", "satellite", "katello", "spacewalk", "uyuni", "packer", "vagrant", "openstack",
    "ovirt", "rhev", "rhv", "vmware", "esxi", "proxmox", "kvm", "libvirt", "docker", "podman", "kubernetes",
    "openshift", "ansible", "puppet", "chef", "salt", "terraform",
))
_TOKEN_RE = re.compile(r"[A-Za-z][A-Za-z0-9]{1,31}")
_PRODUCT_RE = re.compile(r"([a-z]+)([0-9]{0,2})")
_RELEASE_RE = re.compile(r"(?i)(F|RHEL|fedora|centos)?[-_]?([0-9]{1,2})")
_LETTER_RE = re.compile(r"[^\W\d_]")


def _capital(word):
    return word[:1].upper() + word[1:]


def _leet(word, table=None):
    table = _LEET if table is None else table
    return "".join(table.get(char, char) for char in word)


def _swaps(word):
    """``word`` with each letter of :data:`_SWAPS` that it has swapped everywhere, one letter at a time."""
    return tuple(word.replace(letter, symbol) for letter, symbol in _SWAPS if letter in word)


def _this_year():
    return time.localtime().tm_year


def _one(make):
    return lambda word: (make(word),)


def _top_variations():
    year = str(_this_year())
    return (
        (0.5, _one(_capital)),
        (0.4, _one(lambda w: w + "1")),
        (0.3, _one(lambda w: _capital(w) + "1")),
        (0.2, _one(lambda w: w + "!")),
        (0.2, _one(lambda w: _capital(w) + "!")),
        (0.15, _one(lambda w: w + "123")),
        (0.15, _one(lambda w: _capital(w) + "123")),
        (0.12, _swaps),
        (0.12, lambda w: _swaps(_capital(w))),
        (0.1, _one(_leet)),
        (0.1, _one(lambda w: _capital(_leet(w)))),
        (0.1, _one(lambda w: _capital(w) + "1!")),
        (0.06, _one(lambda w: w + "12")),
        (0.06, _one(lambda w: w + "1234")),
        (0.06, _one(lambda w: w + year)),
        (0.06, _one(lambda w: _capital(w) + year)),
        (0.05, _one(lambda w: w.upper())),
        (0.05, _one(lambda w: _capital(w) + "123!")),
        (0.04, lambda w: tuple(swapped + "1" for swapped in _swaps(_capital(w)))),
        (0.04, lambda w: tuple(swapped + "!" for swapped in _swaps(_capital(w)))),
    )


def _more_variations():
    found = []
    for suffix in ("0", "2", "3", "4", "5", "6", "7", "8", "9", "01", "00", "11", "99", "69", "007",
                   "12345", "123456", "@123", "#1", "!!", "1234!", "12!", "@1"):
        found.append((0.02, _one(lambda w, s=suffix: w + s)))
        found.append((0.02, _one(lambda w, s=suffix: _capital(w) + s)))
    for suffix in ("1", "123", "!", "1!"):
        found.append((0.02, _one(lambda w, s=suffix: _leet(w) + s)))
        found.append((0.02, _one(lambda w, s=suffix: _capital(_leet(w)) + s)))
    for table in (_LEET_S, _LEET_DIGITS):
        found.append((0.02, _one(lambda w, t=table: _leet(w, t))))
        found.append((0.02, _one(lambda w, t=table: _capital(_leet(w, t)))))
    found.append((0.01, _one(lambda w: w + w)))
    found.append((0.01, _one(lambda w: w[::-1])))
    for year in range(_this_year() + 1, 1989, -1):
        if year != _this_year():
            found.append((0.01, _one(lambda w, s=str(year): w + s)))
            found.append((0.01, _one(lambda w, s=str(year): _capital(w) + s)))
        found.append((0.01, _one(lambda w, s=str(year)[2:]: w + s)))
    return tuple(found)


# The variation kinds, most usual first: (weight, a function of a word giving its variations as a tuple).
TOP_VARIATIONS = _top_variations()
MORE_VARIATIONS = _more_variations()

_COMMON = []


def common_passwords():
    """zxcvbn's 30,000 most common passwords, most common first (read once)."""
    if not _COMMON:
        _COMMON.append(tuple(word for word in _common_passwords.COMMON.split("\n") if word))
    return _COMMON[0]


def tool_defaults():
    """The defaults of installers and provisioning tools, most likely in a kickstart first."""
    return _common_passwords.TOOL_DEFAULTS


def _stream(words, weight, kind, order):
    """``(-score, order, place, candidate)`` for ``kind``'s variations of ``words``, highest score first.

    A variation of a word without a letter (``123456``) is left out: people
    vary words, and ``1234561`` is no more likely than the next digits.
    """
    for place, word in enumerate(words):
        if weight < 1 and not _LETTER_RE.search(word):
            continue
        score = -weight / (place + RANK_OFFSET)
        for made in kind(word):
            yield score, order, place, made


def _scored(file_words, wordlist):
    """Every candidate (with repeats) in the order of :func:`candidates`."""
    first = list(tool_defaults()) + list(file_words)
    common = common_passwords()
    head = common[:COMMON_HEAD]
    as_is = _one(lambda word: word)
    streams = [_stream(first, 1.0, as_is, 0), _stream(wordlist, 1.0, as_is, 1), _stream(common, 1.0, as_is, 2)]
    order = 3
    for weight, kind in TOP_VARIATIONS:
        streams.append(_stream(first, weight, kind, order))
        streams.append(_stream(head, weight, kind, order + 1))
        order += 2
    for weight, kind in MORE_VARIATIONS:
        streams.append(_stream(first, weight, kind, order))
        order += 1
    for entry in heapq.merge(*streams):
        yield entry[3]


_FIXED = []


def _fixed_sets():
    """``(every candidate that depends on no file or wordlist, the shipped words)`` as sets (made once)."""
    if not _FIXED:
        _FIXED.append((frozenset(candidates()), frozenset(common_passwords()) | frozenset(tool_defaults())))
    return _FIXED[0]


def is_candidate(value, file_words=(), wordlist=()):
    """Whether ``value`` is among :func:`candidates` of ``file_words`` and ``wordlist`` (without building them).

    Also true for any case of a tool default or a common password, as the
    shipped blocklist compares them.
    """
    fixed, shipped = _fixed_sets()
    if value in fixed or value in wordlist or value.lower() in shipped:
        return True
    words = list(file_words)
    return value in words or any(value in kind(word) for dummy, kind in TOP_VARIATIONS + MORE_VARIATIONS
                                 for word in words)


def candidates(file_words=(), wordlist=()):
    """Every candidate once, in order of likelihood (see the module's docstring), as text.

    A candidate empty, longer than :data:`MAX_CANDIDATE_LENGTH` or holding a
    NUL (which no crypt(3) input can) is left out.
    """
    seen = set()
    for word in _scored(file_words, wordlist):
        if word and word not in seen and len(word) <= MAX_CANDIDATE_LENGTH and "\0" not in word:
            seen.add(word)
            yield word


class CandidateList(object):
    """The candidates of one file as UTF-8 bytes, built as far as anyone has asked, shared by threads."""

    _CHUNK = 512

    def __init__(self, file_words=(), wordlist=()):
        self._source = candidates(file_words, wordlist)
        self._items = []
        self._lock = threading.Lock()
        self._done = False

    @classmethod
    def from_words(cls, words):
        """A list of exactly ``words`` (text), in their order: for a caller's own list, and for tests."""
        made = cls()
        made._source = iter(words)
        return made

    def _fill(self, index):
        """Build the list up to ``index`` (or its end)."""
        items = self._items
        if index < len(items):
            return
        with self._lock:
            while index >= len(items) and not self._done:
                for dummy in range(self._CHUNK):
                    word = next(self._source, None)
                    if word is None:
                        self._done = True
                        break
                    items.append(word.encode("utf-8", "surrogatepass"))

    def get(self, index):
        """The candidate at ``index`` (bytes), or None past the last one."""
        self._fill(index)
        return self._items[index] if index < len(self._items) else None

    def stride(self, index, count, step):
        """Up to ``count`` candidates from ``index`` on, every ``step``-th (fewer at the end of the list)."""
        end = index + (count - 1) * step
        self._fill(end)
        return self._items[index:end + 1:step]


def _labels(host):
    """A host name and its labels without the top-level domain: ``web01.corp.example.com`` gives
    ``web01.corp.example.com``, ``web01``, ``corp``, ``example``."""
    host = host.strip().lower().rstrip(".")
    labels = [label for label in host.split(".") if label]
    found = [host] if len(labels) > 1 else []
    found.extend(labels[:-1] if len(labels) > 1 else labels)
    return found


def release_words(release_name):
    """Words of the release a kickstart names (``RHEL9``: rhel, rhel9, redhat; ``F38``: fedora, fedora38)."""
    if not release_name:
        return []
    match = _RELEASE_RE.fullmatch(release_name.strip())
    if not match:
        return []
    prefix, number = (match.group(1) or "").lower(), match.group(2)
    if prefix in ("f", "fedora"):
        return ["fedora", "fedora" + number]
    if prefix == "rhel":
        return ["rhel", "rhel" + number, "redhat"]
    if prefix == "centos":
        return ["centos", "centos" + number]
    return []


def file_words(text, accounts=(), hosts=(), release_name=None):
    """The words of a kickstart that make likely passwords, most likely first, each once.

    ``accounts`` and ``hosts`` are the file's account and host names; the
    product and OS words (:data:`PRODUCT_WORDS`, alone or with a version:
    ``centos7``) come from anywhere in ``text``, and ``release_name`` (the
    ``#version=`` line or the target) adds its own.  At most
    :data:`MAX_FILE_WORDS` words.
    """
    found = []
    for account in accounts:
        found.append(account.strip().lower())
    for host in hosts:
        found.extend(_labels(host))
    found.extend(release_words(release_name))
    counted = {}
    for token in _TOKEN_RE.findall(text):
        match = _PRODUCT_RE.fullmatch(token.lower())
        if match and match.group(1) in PRODUCT_WORDS:
            for word in (match.group(1), token.lower()):
                counted[word] = counted.get(word, 0) + 1
    found.extend(sorted(counted, key=lambda word: (-counted[word], word)))
    unique = []
    for word in found:
        if word and word not in unique and len(word) <= MAX_CANDIDATE_LENGTH:
            unique.append(word)
    return unique[:MAX_FILE_WORDS]


def wordlist_words(text):
    """The passwords of a wordlist's text: one a line, as written (only the line ending removed)."""
    for line in text.splitlines():
        if line:
            yield line
