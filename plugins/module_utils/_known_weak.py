# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Is a hash of a password from the candidate list?  Bounded in time, on every core.

:func:`check_hashes` hashes the candidates of a :class:`_candidates.CandidateList`
with each distinct hash's own setting, as a login would: libxcrypt's
``crypt_rn`` at C speed for crypt(3) hashes (every scheme the system's
libxcrypt knows), ``hashlib.pbkdf2_hmac`` for GRUB 2's PBKDF2 hashes.  Both
release the GIL while they hash, so threads use every core.

Each distinct hash gets ``budget`` seconds of hashing, counted on each core
it uses: its candidates are dealt round-robin to one task per worker thread,
and each task stops after ``budget / workers`` seconds, at the end of the
list, or when another task of the same hash has found its password.  So a
slow scheme (yescrypt, bcrypt) gets fewer candidates than a fast one, a run
over ``n`` distinct hashes takes at most about ``n * budget / workers``
seconds, and identical hashes (the same full hash string) are hashed once.
What a check returns is whether the password was found and how many
candidates were hashed; never which candidate matched, and never the hash.

No hash is computed before its cost is known to fit.  The cost a hash
states (its rounds, bcrypt's cost, yescrypt's and scrypt's N, r, p and t,
GRUB's iterations) gives the work of one guess in its scheme's units
(:func:`work`: rounds, ``2 ** cost``, blocks of 128 bytes times r...), and
:func:`guess_seconds` times that by what one unit takes on this node: one
hash of the same scheme at a low cost (1,000 rounds, bcrypt cost 4, yescrypt
and scrypt at N=1024 and r=8), timed once per process (the fastest of a few
runs, in CPU time), up to 1.5 times over for memory beyond the CPU's caches.  A
hash that asks for more memory than :data:`MAX_HASH_MEMORY` per thread
(yescrypt's and scrypt's ``128 * N * r`` bytes and their per-lane blocks) or
whose one guess takes longer than the whole budget is not hashed at all: its
Outcome has ``skipped`` (why, naming the cost, never the hash) and ``tried``
0.  A guess that fits the budget but not its share of one thread gets fewer
threads, each with a longer share, so no first candidate overruns its task.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import functools
import hashlib
import hmac
import os
import threading
import time

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _libxcrypt
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError, plain_type
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._hash_schemes import (
    YESCRYPT_RW_FLAVOR,
    grub_parts,
    identify,
)

# The most worker threads a check starts, however many cores the machine has.
MAX_WORKERS = 8
DEFAULT_BUDGET = 2.0
MAX_BUDGET = 3600.0
# The most memory one guess may take on each thread (yescrypt and scrypt): libxcrypt's yescrypt cost 8 fits.
MAX_HASH_MEMORY = 256 * 1024 * 1024


def check_budget(budget):
    """``budget`` (seconds of hashing per distinct hash, on each core) as a float, or the default.

    Raises :class:`PwpolicyError` for anything but a number of seconds from 0 to :data:`MAX_BUDGET`.
    """
    if budget is None:
        return DEFAULT_BUDGET
    try:
        value = float(budget)
    except (TypeError, ValueError):
        value = None
    if isinstance(budget, bool) or value is None or not 0 <= value <= MAX_BUDGET:
        number = isinstance(budget, (int, float)) and not isinstance(budget, bool)
        raise PwpolicyError("budget must be a number of seconds from 0 to %d, got %s"
                            % (MAX_BUDGET, budget if number else plain_type(budget)))
    return value


def usable_cores():
    """The cores this process may run on (its CPU affinity where the system has one), at least 1."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        count = os.cpu_count() or 1
    return max(1, count)


def workers():
    """How many threads hash at once: the cores this process may run on, at most :data:`MAX_WORKERS`."""
    return min(MAX_WORKERS, usable_cores())


class Outcome(object):
    """What checking one distinct hash gave: ``found``, ``tried`` (candidates hashed) and ``supported``.

    ``skipped`` is None, or why the hash was not hashed at all (its cost or
    memory does not fit the bounds): text naming the stated cost, never the hash.
    """

    def __init__(self, supported=True, skipped=None):
        self.supported = supported
        self.skipped = skipped
        self.found = False
        self.tried = 0
        self._lock = threading.Lock()

    def add(self, tried, found, supported=True):
        with self._lock:
            self.tried += tried
            self.found = self.found or found
            if not supported:
                self.supported, self.tried = False, 0

    @property
    def done(self):
        return self.found or not self.supported


def _crypt_job(lib, hashed):
    """In the calling thread: ``(check, verify)`` for a crypt hash.

    ``check(phrase)`` is True, False, or None where libxcrypt cannot compute
    the hash's scheme (used on the first candidate); ``verify(phrase)`` is
    the fast True or False of every other candidate.
    """
    setting = hashed.encode("ascii")

    def check(phrase):
        result = lib.crypt(phrase, setting)
        return None if result is None else result == setting
    return check, lib.verifier(setting)


# --- the cost model ---------------------------------------------------------------------------------------------

# The bytes of yescrypt's S-boxes and their context for each lane (p) of the read-write flavors.
_SBOX_BYTES = 12288 + 64
# What one unit costs in memory beyond the CPU's caches, as a multiple of what it costs in the calibration hash's
# 1 MiB (measured in CPU time: 1.05 to 1.5 times from 4 to 256 MiB).
_MEMORY_FACTOR = 1.5
_REFERENCE_SALT = b"CalibrationSalt1"
_SHA_PREFIX = {"sha256crypt": b"$5$", "sha512crypt": b"$6$", "sm3crypt": b"$sm3$"}
_YESCRYPT_PREFIX = {"yescrypt": b"$y$", "gost_yescrypt": b"$gy$", "sm3_yescrypt": b"$sm3y$"}
_B64 = b"./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
# The reference of every scheme whose cost is fixed, or that has no stated cost: one unit of work each.
_FIXED = {"des": b"Ca", "bigcrypt": b"Ca", "md5crypt": b"$1$Calibrat", "nthash": b"$3$"}


def hash_memory(form):
    """The bytes one guess at ``form`` (a :class:`_hash_schemes.HashForm`) allocates on its thread.

    yescrypt and scrypt: ``128 * N * r`` for the big array, ``128 * r * p`` and
    ``256 * r`` for the blocks and ``p`` S-boxes for yescrypt's read-write
    flavors, as libxcrypt allocates them; 0 for the other schemes (a few KiB).
    """
    params = form.params
    if params is None:
        return 0
    lanes = 128 * params.r * params.p + 256 * params.r
    if params.flavor >= YESCRYPT_RW_FLAVOR:
        lanes += _SBOX_BYTES * params.p
    return 128 * params.n * params.r + lanes


def _memory_work(params):
    """The blocks of 128 * r bytes one yescrypt or scrypt hash mixes, times r."""
    n, r, p, t = params.n, params.r, params.p, params.t
    if params.flavor >= YESCRYPT_RW_FLAVOR:
        # Read-write: N blocks written, then a third (t=0), two thirds (t=1) or t-1 times N read back; a pre-hash
        # of N/64 where N/p >= 256 and N*r/p >= 2^17; each lane fills its 96-block S-box.
        again = -(-n // 3) if t == 0 else -(-2 * n // 3) if t == 1 else n * (t - 1)
        prehash = (n // 64) * 4 // 3 if n // p >= 0x100 and n // p * r >= 0x20000 else 0
        return r * (n + again + prehash) + 96 * p
    # Classic scrypt and its WORM flavor: each lane writes N blocks and reads N (t=1: 1.5 N, more: t N) back.
    again = n if t == 0 else -(-3 * n // 2) if t == 1 else n * t
    return r * p * (n + again)


def work(form):
    """The work of one guess at ``form`` in its scheme's units, as an int.

    Rounds (SHA-crypt, clamped to libxcrypt's 1,000 to 999,999,999; BSDi;
    SHA-1 crypt; Sun MD5's 4,096 plus its own), ``2 ** cost`` (bcrypt), GRUB's
    iterations, yescrypt's and scrypt's blocks times r; 1 for a scheme whose
    cost is fixed.
    """
    scheme, cost = form.scheme, form.cost
    if scheme in _SHA_PREFIX:
        return min(max(cost, 1000), 999999999)
    if scheme in ("bsdicrypt", "sha1crypt", "pbkdf2_sha512"):
        return max(cost or 0, 1)
    if scheme == "sunmd5":
        return 4096 + (cost or 0)
    if scheme in ("bcrypt", "bcrypt_x"):
        return 2 ** cost
    if form.params is not None:
        return _memory_work(form.params)
    return 1


def _reference(form):
    """``(key, compute, units)``: a cheap hash of ``form``'s scheme and the units of its work."""
    scheme = form.scheme
    if scheme == "pbkdf2_sha512":
        def grub():
            return hashlib.pbkdf2_hmac("sha512", b"calibration", _REFERENCE_SALT, 1000, 64)
        return "pbkdf2_sha512", grub, 1000
    if scheme in _SHA_PREFIX:
        setting, units = _SHA_PREFIX[scheme] + b"rounds=1000$" + _REFERENCE_SALT, 1000
    elif scheme == "bsdicrypt":
        setting, units = b"_J9..Cali", 725
    elif scheme == "sunmd5":
        setting, units = b"$md5$Calibrat$", 4096
    elif scheme == "sha1crypt":
        setting, units = b"$sha1$1000$Calibrat$", 1000
    elif scheme in ("bcrypt", "bcrypt_x"):
        setting, units = (b"$2x$04$" if scheme == "bcrypt_x" else b"$2b$04$") + b"Calibration.Salt.Of.22", 16
    elif scheme == "scrypt":
        # N=2^10 (log2 N 10), r=8 and p=1 in 30-bit little-endian fields.
        setting, units = b"$7$86..../...." + _REFERENCE_SALT, 8 * 2 * 1024
    elif scheme in _YESCRYPT_PREFIX and form.params is not None:
        # The hash's own flavor (its mode and flags) with N=2^10 and r=8: "75".  libxcrypt computes the flavors
        # 0, 1 and 47 (its default); one written in more than one character has no reference.
        flavor = form.params.flavor
        if flavor > 47:
            return None
        setting = _YESCRYPT_PREFIX[scheme] + _B64[flavor:flavor + 1] + b"75$" + _REFERENCE_SALT
        params = form.params._replace(n=1024, r=8, p=1, t=0, g=0, nrom=0)
        units = _memory_work(params)
    elif scheme in _FIXED:
        setting, units = _FIXED[scheme], 1
    else:
        return None
    return setting, (lambda lib: lib.crypt(b"calibration", setting) is not None), units


_UNIT_SECONDS = {}
_UNIT_LOCK = threading.Lock()


def _time(compute):
    """The fastest of a few runs of ``compute()`` in seconds of this thread's CPU time, or None when it fails.

    CPU time, so that other work on the node's cores does not make a hash look dearer than it is.
    """
    clock = getattr(time, "thread_time", time.perf_counter)
    best, spent = None, 0.0
    for dummy in range(5):
        started = clock()
        if compute() is False:
            return None
        took = clock() - started
        best = took if best is None else min(best, took)
        spent += took
        if spent > 0.02:
            break
    return max(best, 1e-9)


def guess_seconds(form, lib=None):
    """About how many seconds one guess at ``form`` takes on one of this node's cores, or None.

    None where the node cannot hash the scheme: no libxcrypt (for a crypt
    hash), or its libxcrypt refuses the scheme's reference hash.
    """
    found = _reference(form)
    if found is None:
        return None
    key, compute, units = found
    if form.scheme != "pbkdf2_sha512":
        lib = lib if lib is not None else _libxcrypt.load()
        if lib is None:
            return None
        key, compute = (id(lib), key), functools.partial(compute, lib)
    with _UNIT_LOCK:
        if key not in _UNIT_SECONDS:
            seconds = _time(compute)
            _UNIT_SECONDS[key] = None if seconds is None else seconds / units
        unit = _UNIT_SECONDS[key]
    if unit is None:
        return None
    factor = 1
    if form.params is not None:
        factor = min(_MEMORY_FACTOR, max(1, hash_memory(form) / float(1 << 20)))
    return unit * work(form) * factor


def _duration(seconds):
    if seconds >= 365 * 86400:
        return "more than a year"
    for unit, size in (("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= 2 * size:
            return "%d %s" % (seconds // size, unit)
    return "%.3g s" % seconds


def _stated(form):
    """The cost ``form`` states, in its scheme's words (``rounds 999999999``, ``N=2^19, r=32``)."""
    params = form.params
    if params is not None:
        text = "N=2^%d, r=%d" % (params.n.bit_length() - 1, params.r)
        text += ", p=%d" % params.p if params.p != 1 else ""
        return text + (", t=%d" % params.t if params.t else "")
    return "%s %s" % (form.cost_name or "cost", form.cost)


def _size(count):
    """Bytes as MiB (rounded up), or GiB to one decimal from 1 GiB on."""
    if count >= 1 << 30:
        return "%s GiB" % ("%.1f" % (count / float(1 << 30))).rstrip("0").rstrip(".")
    return "%d MiB" % -(-count // (1 << 20))


def refusal(form, budget, lib=None):
    """Why a hash of ``form`` is not to be hashed within ``budget`` seconds (text), else None.

    The text names the stated cost, what it asks and the bound; never the hash.
    """
    if form.scheme in _YESCRYPT_PREFIX and form.params is None:
        return "its parameters cannot be read, so what they ask cannot be bounded"
    memory = hash_memory(form)
    if memory > MAX_HASH_MEMORY:
        return "%s asks for %s of memory per thread, more than the bound of %s" % (
            _stated(form), _size(memory), _size(MAX_HASH_MEMORY))
    seconds = guess_seconds(form, lib)
    if seconds is not None and seconds > budget:
        return "%s exceeds the budget: one guess takes about %s on this node, the budget is %s" % (
            _stated(form), _duration(seconds), _duration(budget))
    return None


def _grub_job(hashed):
    iterations, salt, digest = grub_parts(hashed)

    def verify(phrase):
        return hmac.compare_digest(hashlib.pbkdf2_hmac("sha512", phrase, salt, iterations, len(digest)), digest)
    return verify, verify


# A task looks at the clock, and at whether another task found the password, after at most this many candidates.
_CHUNK = 64


def _task(job, outcome, shard, shards, seconds, cands):
    """Hash every ``shards``-th candidate from ``shard`` on until the time is up, the list ends or the
    password is found.

    After the first candidate the task knows what one costs, and takes the next
    ones in chunks that fit in the time left (up to :data:`_CHUNK`), so a
    fast scheme is not slowed by the clock and a slow one does not overrun
    the deadline by a hash.
    """
    check, verify = job()
    now = time.monotonic
    started = now()
    deadline = started + seconds
    first = cands.get(shard)
    if first is None:
        return
    matched = check(first)
    if matched is None:
        outcome.add(0, False, supported=False)
        return
    tried, found, index = 1, bool(matched), shard + shards
    while not found and not outcome.done:
        now_ = now()
        fits = int((deadline - now_) * tried / max(now_ - started, 1e-9))
        if fits < 1:
            break
        chunk = cands.stride(index, min(fits, _CHUNK), shards)
        for word in chunk:
            tried += 1
            if verify(word):
                found = True
                break
        if len(chunk) < min(fits, _CHUNK):
            break  # the end of the list
        index += len(chunk) * shards
    outcome.add(tried, found)


def check_hashes(hashes, cands, budget=DEFAULT_BUDGET, threads=None):
    """Check each hash in ``hashes`` against the candidates ``cands``: ``{hash: Outcome}``.

    ``hashes`` are ``(hash, kind)`` pairs, ``kind`` ``"crypt"`` or
    ``"grub_pbkdf2"``; equal hashes are checked once.  A crypt hash that this
    system's libxcrypt cannot compute (its scheme's reference hash or its first
    candidate fails), one of no scheme known here, and every crypt hash where
    libxcrypt is missing, gets an Outcome with ``supported`` false and
    ``tried`` 0; one whose memory or cost does not fit (:func:`refusal`) an
    Outcome with ``skipped`` set and ``tried`` 0.
    """
    threads = threads or workers()
    lib = _libxcrypt.load()
    outcomes, tasks = {}, []
    for hashed, kind in hashes:
        if hashed in outcomes:
            continue
        form = identify(hashed)
        if kind == "grub_pbkdf2" and form is not None and form.is_grub and grub_parts(hashed):
            job = functools.partial(_grub_job, hashed)
        elif kind == "crypt" and form is not None and not form.is_grub and lib is not None:
            job = functools.partial(_crypt_job, lib, hashed)
        else:
            outcomes[hashed] = Outcome(supported=False)
            continue
        if budget <= 0:
            outcomes[hashed] = Outcome()
            continue
        skipped = refusal(form, budget, lib)
        seconds = None if skipped else guess_seconds(form, lib)
        if seconds is None:
            outcomes[hashed] = Outcome(supported=skipped is not None, skipped=skipped)
            continue
        outcomes[hashed] = outcome = Outcome()
        # As many tasks as threads, or fewer where a task's share (budget / tasks) would not fit one guess.
        shards = max(1, min(threads, int(budget / max(seconds, 1e-9))))
        tasks.extend((job, outcome, shard, shards, budget / shards, cands) for shard in range(shards))
    _run(tasks, threads)
    return outcomes


def _run(tasks, threads):
    """Run ``tasks`` on ``threads`` worker threads, in order."""
    if not tasks:
        return
    pending = list(reversed(tasks))
    lock = threading.Lock()
    failures = []

    def work():
        while True:
            with lock:
                if not pending:
                    return
                task = pending.pop()
            try:
                _task(*task)
            except Exception as exc:  # pylint: disable=broad-except
                failures.append(exc)
                return
    started = [threading.Thread(target=work) for dummy in range(min(threads, len(tasks)))]
    for thread in started:
        thread.daemon = True
        thread.start()
    for thread in started:
        thread.join()
    if failures:
        raise RuntimeError("the known-weak check failed: %s" % type(failures[0]).__name__)
