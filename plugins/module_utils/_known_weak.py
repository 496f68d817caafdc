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
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._hash_schemes import grub_parts

# The most worker threads a check starts, however many cores the machine has.
MAX_WORKERS = 8
DEFAULT_BUDGET = 2.0
MAX_BUDGET = 3600.0


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
    """What checking one distinct hash gave: ``found``, ``tried`` (candidates hashed) and ``supported``."""

    def __init__(self, supported=True):
        self.supported = supported
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
    system's libxcrypt cannot compute (found at its first candidate), and
    every crypt hash where libxcrypt is missing, gets an Outcome with
    ``supported`` false and ``tried`` 0.
    """
    threads = threads or workers()
    lib = _libxcrypt.load()
    outcomes, tasks = {}, []
    for hashed, kind in hashes:
        if hashed in outcomes:
            continue
        if kind == "grub_pbkdf2" and grub_parts(hashed):
            job = functools.partial(_grub_job, hashed)
        elif kind == "crypt" and lib is not None:
            job = functools.partial(_crypt_job, lib, hashed)
        else:
            outcomes[hashed] = Outcome(supported=False)
            continue
        outcomes[hashed] = outcome = Outcome()
        if budget <= 0:
            continue
        tasks.extend((job, outcome, shard, threads, budget / threads, cands) for shard in range(threads))
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
