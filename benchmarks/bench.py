# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmarks: every number is a ratio against a baseline measured in the same run.

    python benchmarks/bench.py [--runs N] [--only edit,judge,check,profile,role,series,audit,linear,hash,blocklist,atrest]
                               [--series 10,100,1000] [--audit-hosts 1000,10000]

1. edit:   ks_pwpolicy's edit of a kickstart (parse, splice, re-validate)
           vs a bare pykickstart parse of the same text
           (corpus files, and a synthetic 20,000-line kickstart);
2. check:  pwpolicy_check's verdict per password (each libpwquality backend)
           vs a raw libpwquality check() with one settings object,
           and vs one pwscore process per password (2,000 passwords);
   profile: the same check by compliance profile (STIG for RHEL 9: every
           setting on the one libpwquality call, each broken setting counted)
           vs a raw check() with the profile's settings, same minimum lengths;
3. role:   the kickstart role rendering 100 hosts' kickstarts (the role's
           default 656,000 SHA-512 crypt rounds) vs an ansible.builtin.template
           loop rendering the same content; wall and CPU time;
   series: the same two plays for 10, 100 and 1,000 hosts with 5,000 rounds
           on both sides: the per-host cost against the host count;
4. audit:  the kickstart.pwpolicy.audit playbook over 1,000 and 10,000 hosts
           with three vaulted secrets each (60 s per 1,000 hosts at most)
           vs its floor: each vaulted value of the same inventory decrypted by
           ansible-core's vault code, checked once and estimated once (zxcvbn),
           in one process per core (benchmarks/bench_audit.py); at 1,000
           hosts, the audit without its weakest-link estimates
           (kickstart_weakest_link=never) vs the floor without them, and an
           inventory where 90% of the hosts share their product's secrets;
5. linear: hostile shapes that once took time growing with the square of
           their size (a 10 MB kickstart with one long word, 80 KB drop-ins
           with a long blank run or many %%, a 16 MiB updates image of empty
           gzip members), read at twice the size vs once: a ratio near 2 is
           linear, near 4 quadratic (--scale shrinks them, to run the old code),
           and the fuzzers' hostile kickstart shapes (tests/unit/fuzz) at
           40,000 vs 20,000 repetitions;
6. hash:   the role's hashing (plugin_utils/_crypt.py: setting, checks, the
           salt, libxcrypt's crypt_rn) vs a raw libxcrypt crypt_rn call through
           ctypes with a ready setting (crypt_gensalt_rn too for yescrypt),
           SHA-512 crypt at 5,000 and 656,000 rounds, yescrypt at cost 5;
7. blocklist: a lookup in a sorted SHA1:COUNT file of 100,000 to 10 million
           lines by binary search vs reading the whole file once
           (benchmarks/bench_blocklist.py; the files stay in build/bench/);
8. atrest: ks_secrets_info's reading (module_utils/_ks_secrets.py) of a
           repository of 200 kickstarts with 100 hashes of random passwords
           (SHA-512 crypt at 5,000 rounds, yescrypt at cost 5, bcrypt at cost
           10), each tried for the default budget, vs the 2 minutes it must stay
           under on 2 cores, and the same files on disk through the audit
           playbook (kickstart_audit_paths: glob, read, report, the playbook's
           own start) vs the same 2 minutes; the known-weak check's candidate
           rate per scheme (_known_weak, one thread) vs a raw libxcrypt crypt_rn loop over the
           same candidates (it must stay within 1.1x); and two threads vs one
           on the same hashes.

Each measurement is the median of --runs runs (the role plays: one run each).
Run through `make bench`.  Besides printing, it writes build/bench/results.md
(the table docs/benchmarks.md shows), build/bench/results.json and
build/bench/scaling.png; `benchmarks/publish.py` copies them into the docs.
"""

import argparse
import gzip
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "kickstart-tests")
sys.path.insert(0, os.path.join(ROOT, "tests", "unit"))
import checkout  # noqa: E402  (makes the checkout importable as the collection; shared with the unit tests)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import SECTION, median_time, report  # noqa: E402
import bench_audit  # noqa: E402
import bench_blocklist  # noqa: E402
import bench_host  # noqa: E402
import bench_role  # noqa: E402
import results  # noqa: E402

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _ks_edit as ks  # noqa: E402
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _pwquality, _verdict  # noqa: E402
from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _updates_image  # noqa: E402
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf_parse import parse_conf  # noqa: E402
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError  # noqa: E402
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import build_policies  # noqa: E402
from ansible_collections.kickstart.pwpolicy.tests.unit.samples import passwords  # noqa: E402

TARGET = "RHEL9"
COLLECTIONS_DIR = checkout.COLLECTIONS_DIR
OUT_DIR = os.path.join(ROOT, "build", "bench")


# --- 1. editing kickstarts --------------------------------------------------

def bare_parse(text):
    from pykickstart.parser import KickstartParser
    from pykickstart.version import makeVersion, stringToVersion
    handler = makeVersion(stringToVersion(TARGET))
    parser = KickstartParser(handler, followIncludes=False, missingIncludeIsFatal=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pykickstart warns about corpus files on stderr
        parser.readKickstartFromString(text)


def corpus_texts():
    texts = []
    if not os.path.isdir(CORPUS):
        return texts
    for name in sorted(os.listdir(CORPUS)):
        path = os.path.join(CORPUS, name)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="strict") as handle:
            try:
                text = handle.read()
            except UnicodeDecodeError:
                continue
        try:
            bare_parse(text)
            ks.edit_kickstart(text, product="server", target=TARGET)
        except Exception:  # the benchmark uses the files both accept
            continue
        texts.append(text)
    return texts


def synthetic_kickstart(lines=20000):
    """A long kickstart: commands, 500 packages, a long %post script, a %anaconda section.

    (pykickstart's %packages handling grows with the square of its length, so
    the bulk is a script, as in real long kickstarts.)
    """
    head = ["#version=%s" % TARGET, "lang en_US.UTF-8", "keyboard us", "timezone UTC --utc",
            "rootpw --lock", "text", "reboot", "%packages", "@core"]
    head += ["package-%03d" % i for i in range(500)] + ["%end", "%post"]
    tail = ["%end", "%anaconda",
            "pwpolicy root --minlen=6 --minquality=1 --notstrict --nochanges --emptyok", "%end"]
    body = ["echo step %05d >> /root/post.log" % i for i in range(lines - len(head) - len(tail))]
    return "\n".join(head + body + tail) + "\n"


def bench_edit(runs):
    print("1. ks_pwpolicy edit vs bare pykickstart parse (target %s)" % TARGET)
    texts = corpus_texts()
    if texts:
        ours = median_time(lambda: [ks.edit_kickstart(t, product="server", target=TARGET) for t in texts], runs)
        base = median_time(lambda: [bare_parse(t) for t in texts], runs)
        report("corpus (%d files)" % len(texts), ours, base, len(texts), "file")
    else:
        print("  corpus not found at %s: skipped" % CORPUS)
    big = synthetic_kickstart()
    ours = median_time(lambda: ks.edit_kickstart(big, product="server", target=TARGET), runs)
    base = median_time(lambda: bare_parse(big), runs)
    report("synthetic %d-line kickstart" % big.count("\n"), ours, base, 1, "file")


def bench_judge(runs):
    """Reading a kickstart as the installer will read it (the posture) and judging it against the STIG, against
    one bare pykickstart parse of the same text."""
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.judge import judge
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.kickstart import read_kickstart

    def judged(text):
        judge(read_kickstart(text, TARGET), ["stig"], TARGET)
    print("1b. the posture and the judge (STIG) vs bare pykickstart parse (target %s)" % TARGET)
    texts = corpus_texts()
    if texts:
        ours = median_time(lambda: [judged(t) for t in texts], runs)
        base = median_time(lambda: [bare_parse(t) for t in texts], runs)
        report("corpus (%d files)" % len(texts), ours, base, len(texts), "file")
    else:
        print("  corpus not found at %s: skipped" % CORPUS)
    big = synthetic_kickstart()
    ours = median_time(lambda: judged(big), runs)
    base = median_time(lambda: bare_parse(big), runs)
    report("synthetic %d-line kickstart" % big.count("\n"), ours, base, 1, "file")


# --- 2. checking passwords --------------------------------------------------

def raw_check_baseline(pws, user="root", items=()):
    """raw(lengths): a function checking each of ``pws`` at its minimum length with a raw check().

    The pwquality binding's own check() when importable, else the shared
    library's pwquality_check(); one settings object per minimum length, with
    the libpwquality settings ``items`` (normalized ``(name, value)`` pairs).
    """
    try:
        import pwquality
    except ImportError:
        print("  python binding 'pwquality' not importable: raw baselines use the ctypes backend")
        raw_backend = _pwquality.load_backend("ctypes")

        def raw_ctypes(lengths):
            handles = dict((m, raw_backend.make_settings(tuple(items), m)) for m in set(lengths))
            return lambda: [raw_backend.raw_check(handles[m], pw, user) for pw, m in zip(pws, lengths)]
        return raw_ctypes

    def raw_binding(lengths):
        handles = dict((m, pwquality.PWQSettings()) for m in set(lengths))
        for m, handle in handles.items():
            for name, value in items:
                setattr(handle, name, value)
            handle.minlen = m

        def call():
            for pw, m in zip(pws, lengths):
                try:
                    handles[m].check(pw, None, user)
                except pwquality.PWQError:
                    pass
        return call
    return raw_binding


def bench_check(runs):
    """pwpolicy_check per password vs raw check() calls, and vs one pwscore process per password.

    Two raw baselines: check() at the policy's minlen (it stops at the length
    rule, before the dictionary, for a too-short password), and check() at the
    minimum length the verdict itself uses (libpwquality's lowest for a
    too-short password, so that every problem is found), i.e. the same
    libpwquality work; the second ratio is the verdict's own overhead.
    """
    pws = passwords()
    policy = build_policies(product="server")["root"]
    minlens = [policy.minlen if len(pw) >= policy.minlen else _pwquality.LIBPWQUALITY_MIN_LENGTH for pw in pws]
    print("2. pwpolicy_check per password vs libpwquality (%d passwords, policy server/root, minlen %d, %d shorter)"
          % (len(pws), policy.minlen, sum(len(pw) < policy.minlen for pw in pws)))
    raw = raw_check_baseline(pws)
    base = median_time(raw([policy.minlen] * len(pws)), runs)
    same = median_time(raw(minlens), runs)
    results = {}
    for name in _pwquality.BACKEND_NAMES:
        try:
            backend = _pwquality.load_backend(name)
        except _pwquality.PwcheckError:
            print("  backend %s: not available, skipped" % name)
            continue
        results[name] = median_time(lambda b=backend: [_verdict.check_password(pw, policy, backend=b) for pw in pws],
                                    runs)
        report("pwpolicy_check, %s backend, vs raw check() at minlen" % name, results[name], base, len(pws), "pw")
        report("pwpolicy_check, %s backend, vs raw check(), same minlens" % name, results[name], same, len(pws), "pw")
    from ansible_collections.kickstart.pwpolicy.plugins.filter.pwpolicy_check import pwpolicy_check
    _pwquality.get_backend()
    ours = median_time(lambda: [pwpolicy_check(pw, "root", product="server") for pw in pws], runs)
    report("pwpolicy_check filter ('root', product), vs raw, same minlens", ours, same, len(pws), "pw")
    pwscore = shutil.which("pwscore")
    if not (pwscore and results):
        print("  pwscore (libpwquality-tools) not found: process baseline skipped")
        return

    def processes():
        for pw in pws:
            subprocess.run([pwscore, "root"], input=(pw + "\n").encode(), stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)
    proc = median_time(processes, max(1, min(runs, 3)))
    for name, ours in results.items():
        report("pwpolicy_check, %s backend, vs one pwscore per password" % name, ours, proc, len(pws), "pw")


def bench_profile_check(runs, profile="stig", target="RHEL9"):
    """A check by compliance profile per password vs raw check() calls with the profile's settings on the handle.

    The same minimum lengths on both sides (the policy's for a long enough
    password, libpwquality's lowest for a shorter one), held to the check
    benchmark's bound.  A second row compares with the verdict given the same
    policy and settings without the profile: what the profile adds (merging,
    counting every class and pattern setting, naming them).
    """
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _profile_check
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pwq_settings import normalize_settings

    pws = passwords()
    selection = _profile_check.select(profile, target)
    policy, _notes = selection.policy_for("root")
    items = normalize_settings(selection.settings)
    minlens = [policy.minlen if len(pw) >= policy.minlen else _pwquality.LIBPWQUALITY_MIN_LENGTH for pw in pws]
    print("2b. check by profile %s for %s per password vs libpwquality with its settings (%d passwords, root, "
          "minlen %d, %d shorter)" % (profile, target, len(pws), policy.minlen, sum(len(pw) < policy.minlen
                                                                                    for pw in pws)))
    same = median_time(raw_check_baseline(pws, items=items)(minlens), runs)
    for name in _pwquality.BACKEND_NAMES:
        try:
            backend = _pwquality.load_backend(name)
        except _pwquality.PwcheckError:
            print("  backend %s: not available, skipped" % name)
            continue
        ours = median_time(lambda b=backend: [_verdict.check_against(pw, "root", profile=profile, target=target,
                                                                     backend=b) for pw in pws], runs)
        plain = median_time(lambda b=backend: [_verdict.check_password(pw, policy, settings=selection.settings,
                                                                       backend=b) for pw in pws], runs)
        report("profile check (%s %s), %s backend, vs raw check() with its settings, same minlens"
               % (profile, target, name), ours, same, len(pws), "pw")
        report("profile check (%s %s), %s backend, vs the verdict with the same policy and settings"
               % (profile, target, name), ours, plain, len(pws), "pw")


# --- 5. linear time on hostile shapes ----------------------------------------

def long_word_kickstart(size):
    """A kickstart of ``size`` characters, nearly all one word on a pwpolicy line (read, then refused)."""
    head = "#version=%s\nlang en_US.UTF-8\n%%anaconda\npwpolicy root --minlen=6 " % TARGET
    return head + "x" * (size - len(head) - 6) + "\n%end\n"


def blank_run_conf(size, continuation):
    """A drop-in of ``size`` characters, nearly all one run of blanks inside a continuation or an option line."""
    line = "  x%sy\n" if continuation else "x%sy = 1\n"
    head, tail = "[User Interface]\nother = 1\n", "password_policies = root (quality 1, length 6)\n"
    return head + line % (" " * (size - len(head) - len(tail) - 8)) + tail


def percent_conf(size):
    """A drop-in of ``size`` characters, nearly all ``%%`` on a password_policies line (read, then refused)."""
    head = "[User Interface]\npassword_policies = root (quality 1, length 6)\n  "
    return head + "%%" * ((size - len(head) - 1) // 2) + "\n"


def empty_members_image(size):
    """An updates image of ``size`` bytes: a drop-in, then empty gzip members."""
    image = _updates_image.build_image({"etc/anaconda/conf.d/90-x.conf": "[User Interface]\n"})
    empty = gzip.compress(b"", mtime=0)
    return image + empty * ((size - len(image)) // len(empty))


def read_or_refuse(func, data):
    def call():
        try:
            func(data)
        except PwpolicyError:
            pass
    return call


def bench_linear(runs, scale):
    print("5. hostile shapes at twice the size vs once (ratio near 2: linear; near 4: quadratic)")
    shapes = (
        ("kickstart, one long word in %%anaconda, %s" , 10 * 1000 * 1000, long_word_kickstart,
         lambda text: ks.edit_kickstart(text, product="server", target=TARGET)),
        ("drop-in, one long continuation line, %s", 80 * 1000, lambda n: blank_run_conf(n, True), parse_conf),
        ("drop-in, blank run in an option line, %s", 80 * 1000, lambda n: blank_run_conf(n, False), parse_conf),
        ("drop-in, a value of %%%%, %s", 80 * 1000, percent_conf, parse_conf),
        ("updates image of empty gzip members, %s", 16 * 1024 * 1024, empty_members_image, _updates_image.read_image),
    )
    for label, size, make, read in shapes:
        size = int(size * scale)
        once, twice = make(size), make(2 * size)
        base = median_time(read_or_refuse(read, once), max(1, min(runs, 3)))
        ours = median_time(read_or_refuse(read, twice), max(1, min(runs, 3)))
        report(label % ("%s vs %s bytes" % (format(len(twice), ","), format(len(once), ","))), ours, base, 1, "file")
    # The fuzzers' hostile kickstart shapes (tests/unit/fuzz: each once took
    # time growing with the square of its size), edited at 20,000 and 40,000.
    from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz import strategies as fs
    count = max(1, int(20000 * scale))

    def edit(text):
        return ks.edit_kickstart(text, product="server", target=TARGET)

    for kind in fs.SHAPES:
        once, twice = ("#version=%s\n" % TARGET + fs.hostile_kickstart(kind, n) for n in (count, 2 * count))
        base = median_time(read_or_refuse(edit, once), max(1, min(runs, 3)))
        ours = median_time(read_or_refuse(edit, twice), max(1, min(runs, 3)))
        report("kickstart, %s x %s vs x %s" % (kind, format(2 * count, ","), format(count, ",")), ours, base, 1, "file")


# --- 6. hashing passwords ------------------------------------------------------

def raw_libxcrypt():
    """``(crypt_rn, gensalt_rn)`` of libcrypt.so.1 through ctypes, one work area: the baseline."""
    import ctypes
    lib = ctypes.CDLL("libcrypt.so.1")
    crypt_rn, gensalt_rn = lib.crypt_rn, lib.crypt_gensalt_rn
    crypt_rn.restype, gensalt_rn.restype = ctypes.c_char_p, ctypes.c_char_p
    crypt_rn.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int]
    gensalt_rn.argtypes = [ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                           ctypes.c_int]
    area = ctypes.create_string_buffer(32768)
    out = ctypes.create_string_buffer(256)

    def sha512(phrase, salt, rounds):
        setting = b"$6$" + salt if rounds == 5000 else b"$6$rounds=%d$%s" % (rounds, salt)
        return crypt_rn(phrase, setting, area, 32768)

    def yescrypt(phrase, salt, cost):
        setting = gensalt_rn(b"$y$", cost, salt, len(salt), out, 256)
        return crypt_rn(phrase, setting, area, 32768)
    return {"sha512crypt": sha512, "yescrypt": yescrypt}


def interleaved(baseline, ours, runs):
    """Median times of ``baseline`` and ``ours`` run by turns, in alternating order (ABBA), so that load on a
    shared machine, and whatever the first of a pair leaves behind (yescrypt's 16 MiB), hit both alike."""
    import statistics
    times = ([], [])
    baseline(), ours()
    for run in range(2 * max(runs, 3)):
        for index in ((0, 1) if run % 2 == 0 else (1, 0)):
            func = (baseline, ours)[index]
            start = time.perf_counter()
            func()
            times[index].append(time.perf_counter() - start)
    return statistics.median(times[0]), statistics.median(times[1])


def bench_hash(runs):
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _crypt
    if _crypt.backend().name != "libxcrypt":
        print("6. hashing: libxcrypt not available here, skipped")
        return
    print("6. the role's hashing (_crypt) vs a raw libxcrypt crypt_rn call (ctypes), same passwords and salts")
    raws = raw_libxcrypt()
    for scheme, cost, count in (("sha512crypt", 5000, 200), ("sha512crypt", 656000, 4), ("yescrypt", 5, 40)):
        pws = passwords(count)
        salts = [_crypt.account_salt("seed", "host%d" % index, "root") for index in range(count)]
        encoded = [(pw.encode("utf-8"), salt.encode("ascii")) for pw, salt in zip(pws, salts)]
        raw = raws[scheme]
        if [raw(p, s, cost).decode() for p, s in encoded[:2]] != \
                [_crypt.hash_secret(pw, scheme, salt, cost) for pw, salt in zip(pws[:2], salts[:2])]:
            raise SystemExit("hash: _crypt and the raw call disagree")
        base, ours = interleaved(lambda: [raw(p, s, cost) for p, s in encoded],
                                 lambda: [_crypt.hash_secret(pw, scheme, salt, cost) for pw, salt in zip(pws, salts)],
                                 runs)
        report("%s, %s %s, _crypt vs raw crypt_rn" % (scheme, _crypt.COST_NAMES[scheme], format(cost, ",")),
               ours, base, count, "hash")


# --- 8. secrets at rest --------------------------------------------------------

AT_REST_SCHEMES = ((b"$6$", 0, "sha512crypt, rounds 5,000", 60), (b"$y$", 5, "yescrypt, cost 5", 12),
                   (b"$2b$", 10, "bcrypt, cost 10", 6), (b"$1$", 0, "md5crypt", 600), (b"", 0, "des", 3000))


def at_rest_repository(lib, count=200, hashes=100, seed=20151):
    """``count`` kickstarts, ``hashes`` of them with a crypt hash of a random password (the three strong
    schemes in turn), the others with a password in the clear, a locked root and template values."""
    import random
    rng = random.Random(seed)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    strong = AT_REST_SCHEMES[:3]
    texts = []
    for index in range(count):
        head = "#version=RHEL9\nlang en_US.UTF-8\nnetwork --hostname=host%03d.example.com\n" % index
        if index < hashes:
            prefix, cost = strong[index % 3][:2]
            password = "".join(rng.choice(alphabet) for dummy in range(20)).encode()
            salt = bytes(rng.randrange(256) for dummy in range(16))
            body = "rootpw --iscrypted %s\n" % lib.crypt(password, lib.gensalt(prefix, cost, salt)).decode()
        elif index % 2:
            body = "rootpw --plaintext Pw-%d-%s\nautopart --encrypted --passphrase=pp-%d\n" % (index, "x" * 12, index)
        else:
            body = "rootpw --lock\nuser --name=ops --password=<%%= ops_pw %%> --iscrypted\n"
        texts.append(head + body + "%packages\n@core\n%end\n")
    return texts


def bench_at_rest(runs):
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _known_weak, _libxcrypt
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils._candidates import CandidateList, candidates
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_secrets import read_secrets
    lib = _libxcrypt.load()
    if lib is None:
        print("8. secrets at rest: libxcrypt not available here, skipped")
        return
    print("8. secrets at rest: the known-weak check vs a raw libxcrypt loop; a repository scan vs 2 minutes")
    texts = list(candidates(["host001", "example"]))
    words = [word.encode() for word in texts]
    import ctypes
    crypt_rn = ctypes.CDLL("libcrypt.so.1").crypt_rn
    crypt_rn.restype = ctypes.c_char_p
    crypt_rn.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int]
    area = ctypes.create_string_buffer(32768)
    for prefix, cost, label, count in AT_REST_SCHEMES:
        hashed = lib.crypt(b"not-in-the-list-Zq9", lib.gensalt(prefix, cost, None))
        subset = words[:count]

        def baseline(subset=subset, hashed=hashed):
            for word in subset:
                if crypt_rn(word, hashed, area, 32768) == hashed:
                    break

        def ours(subset=subset, hashed=hashed):
            outcome = _known_weak.check_hashes([(hashed.decode(), "crypt")], CandidateList.from_words(texts[:count]),
                                               budget=10 ** 6, threads=1)
            assert outcome[hashed.decode()].tried == len(subset)
        base, mine = interleaved(baseline, ours, max(1, min(runs, 3)))
        report("%s: candidate rate, one thread vs raw crypt_rn" % label, mine, base, count, "candidate")
    # Both cores: the same hashes with two threads vs one (a ratio near 0.5 is parallel).
    hashes = [(lib.crypt(b"x%d-not-listed" % n, lib.gensalt(b"$6$", 0, None)).decode(), "crypt") for n in range(4)]
    one = median_time(lambda: _known_weak.check_hashes(hashes, CandidateList.from_words(texts[:80]), budget=10 ** 6,
                                                       threads=1), 1)
    two = median_time(lambda: _known_weak.check_hashes(hashes, CandidateList.from_words(texts[:80]), budget=10 ** 6,
                                                       threads=2), 1)
    report("sha512crypt, 4 hashes x 80 candidates: 2 threads vs 1", two, one, 4, "hash")
    # The repository: every hash gets the default budget (none is found), 2 cores.
    texts = at_rest_repository(lib)
    start = time.perf_counter()
    tried = 0
    for text in texts:
        tried += sum(1 for secret in read_secrets(text).secrets if secret.tried)
    wall = time.perf_counter() - start
    if tried != 100:
        raise SystemExit("atrest: %d hashes were tried, not 100" % tried)
    report("200 kickstarts, 100 hashes, default budget: scan vs 2 minutes", wall, 120.0, 1, "scan")
    # The same repository on disk, through the audit playbook (kickstart_audit_paths): the whole scan.
    report("the same, audit playbook over the files: scan vs 2 minutes", audit_files_scan(texts), 120.0, 1, "scan")


def audit_files_scan(texts):
    """Wall time of one ``kickstart.pwpolicy.audit`` run over ``texts`` written as kickstarts, no inventory host."""
    import json
    with tempfile.TemporaryDirectory(prefix="kspw-atrest-") as work:
        os.mkdir(os.path.join(work, "ks"))
        for index, text in enumerate(texts):
            with open(os.path.join(work, "ks", "host%03d.ks" % index), "w") as handle:
                handle.write(text)
        env = dict(os.environ, ANSIBLE_NOCOLOR="1", ANSIBLE_LOCALHOST_WARNING="0",
                   ANSIBLE_COLLECTIONS_PATH=os.environ.get("ANSIBLE_COLLECTIONS_PATH", COLLECTIONS_DIR))
        start = time.perf_counter()
        subprocess.run([os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), "kickstart.pwpolicy.audit",
                        "-i", ",", "-e", "kickstart_audit_paths=ks/*.ks", "-e", "kickstart_fail_on=never",
                        "-e", "kickstart_audit_show=none",
                        "-e", "kickstart_audit_json=" + os.path.join(work, "a.json")],
                       cwd=work, env=env, check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        with open(os.path.join(work, "a.json")) as handle:
            findings = json.load(handle)
    files = set(finding["file"] for finding in findings)
    tried = sum(1 for finding in findings if finding["tried"])
    if len(files) != len(texts) or tried != 100:
        raise SystemExit("atrest: the audit read %d files and tried %d hashes, not %d and 100"
                         % (len(files), tried, len(texts)))
    return wall


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only",
                        default="edit,judge,check,profile,role,series,audit,linear,hash,blocklist,atrest,host")
    parser.add_argument("--series", default=",".join(str(n) for n in bench_role.SERIES_HOSTS),
                        help="host counts of the scaling series (default %(default)s)")
    parser.add_argument("--audit-hosts", default=",".join(str(n) for n in bench_audit.AUDIT_HOSTS),
                        help="host counts of the audit rows (default %(default)s)")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="size factor of the linear shapes (default %(default)s)")
    args = parser.parse_args()
    chosen = set(args.only.split(","))
    started = time.time()
    print("kickstart.pwpolicy benchmarks: median of %d runs; ratio = ours / baseline (same run)" % args.runs)
    where = results.machine()
    print("machine: %s\n" % where)
    steps = (("edit", lambda: bench_edit(args.runs)),
             ("judge", lambda: bench_judge(args.runs)),
             ("check", lambda: bench_check(args.runs)),
             ("profile", lambda: bench_profile_check(args.runs)),
             ("role", lambda: bench_role.bench_role(ROOT, COLLECTIONS_DIR)),
             ("series", lambda: bench_role.bench_series(ROOT, COLLECTIONS_DIR,
                                                        [int(n) for n in args.series.split(",") if n])),
             ("audit", lambda: bench_audit.bench_audit(ROOT, COLLECTIONS_DIR,
                                                       [int(n) for n in args.audit_hosts.split(",") if n])),
             ("linear", lambda: bench_linear(args.runs, args.scale)),
             ("hash", lambda: bench_hash(args.runs)),
             ("blocklist", lambda: bench_blocklist.bench_blocklist(args.runs, OUT_DIR)),
             ("atrest", lambda: bench_at_rest(args.runs)),
             ("host", lambda: bench_host.bench_host(ROOT, args.runs)))
    for name, step in steps:
        if name in chosen:
            SECTION["name"] = name
            step()
    command = "benchmarks/bench.py " + " ".join(sys.argv[1:])
    written = results.write(OUT_DIR, command.strip(), time.time() - started, where)
    print("\nwritten: %s (whole run %.0f s)" % (", ".join(written), time.time() - started))


if __name__ == "__main__":
    main()
