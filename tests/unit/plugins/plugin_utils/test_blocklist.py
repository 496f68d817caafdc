# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Blocklist lookup: range directories, sorted files by binary search, the shipped list; errors without the hash."""

import hashlib
import math
import os
import random

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _blocklist as blocklist
from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _common_passwords
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak
from ansible_collections.kickstart.pwpolicy.tests.unit.opened import opened  # pylint: disable=unused-import

BREACHED = ["Tr0ub4dor&3", "correct horse battery staple", "hunter2hunter2", "pässwörd-ünïcode"]
CLEAN = ["x9!Vq#2LpZ@7mW$eR4tY", "not in any list at all 8Kq"]


def sha1(password):
    return hashlib.sha1(password.encode("utf-8")).hexdigest().upper()


def random_hashes(count, seed):
    rng = random.Random(seed)
    return ["%040X" % rng.getrandbits(160) for dummy in range(count)]


def write_sorted(path, hashes, newline="\n", counts=None, last_newline=True):
    lines = ["%s:%d" % (digest, (counts or {}).get(digest, 1 + index % 97))
             for index, digest in enumerate(sorted(hashes))]
    text = newline.join(lines) + (newline if last_newline else "")
    path.write_bytes(text.encode("ascii"))
    return str(path)


def write_range(directory, hashes, suffix=".txt", newline="\r\n", counts=None, lower=False):
    directory.mkdir(exist_ok=True)
    by_prefix = {}
    for digest in sorted(hashes):
        by_prefix.setdefault(digest[:5], []).append(digest)
    for prefix, items in by_prefix.items():
        lines = ["%s:%d" % (d[5:].lower() if lower else d[5:], (counts or {}).get(d, 3)) for d in items]
        (directory / (prefix + suffix)).write_bytes((newline.join(lines) + newline).encode("ascii"))
    return str(directory)


def assert_no_hash_in(password, *texts):
    digest = sha1(password)
    for text in texts:
        assert_no_leak(password, text)
        assert digest not in text.upper() and digest[:5] not in text.upper() and digest[5:] not in text.upper()


# --- sorted file -----------------------------------------------------------------------------

@pytest.mark.parametrize("count", [0, 1, 7, 500, 20000])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_sorted_file_finds_every_breached_password(tmp_path, count, newline):
    path = write_sorted(tmp_path / "pwned.txt", random_hashes(count, count) + [sha1(p) for p in BREACHED],
                        newline=newline)
    for password in BREACHED:
        assert blocklist.in_sorted_file(password, path)
    for password in CLEAN:
        assert not blocklist.in_sorted_file(password, path)


def test_first_and_last_lines_and_no_final_newline(tmp_path):
    hashes = sorted(random_hashes(5000, 1) + [sha1(p) for p in BREACHED])
    path = write_sorted(tmp_path / "pwned.txt", hashes, last_newline=False)
    searcher = blocklist.SortedFile(path)
    assert searcher.find(hashes[0].encode()) > 0
    assert searcher.find(hashes[-1].encode()) > 0
    assert searcher.find(b"0" * 40) == 0 or hashes[0] == "0" * 40
    assert searcher.find(b"F" * 40) == 0


def test_lower_case_hashes_are_found(tmp_path):
    path = tmp_path / "pwned.txt"
    path.write_text("".join("%s:4\n" % d.lower() for d in sorted(random_hashes(3000, 2) + [sha1(BREACHED[0])])))
    assert blocklist.in_sorted_file(BREACHED[0], str(path))


def test_a_count_of_zero_is_not_a_hit(tmp_path):
    path = write_sorted(tmp_path / "pwned.txt", random_hashes(100, 3) + [sha1(BREACHED[0])],
                        counts={sha1(BREACHED[0]): 0})
    assert not blocklist.in_sorted_file(BREACHED[0], path)


@pytest.mark.parametrize("lines", [100000, 400000])
def test_the_search_reads_a_logarithmic_number_of_lines(tmp_path, lines):
    """Not timed: the reads are counted.  A whole read would be `lines` reads."""
    path = write_sorted(tmp_path / "pwned.txt", random_hashes(lines, lines) + [sha1(BREACHED[1])])
    searcher = blocklist.SortedFile(path)
    bound = 2 * math.log2(os.path.getsize(path)) + blocklist.LINEAR_BYTES // 40 + 2
    for digest in [sha1(BREACHED[1])] + [sha1(p) for p in CLEAN]:
        searcher.find(digest.encode())
        assert 0 < searcher.reads <= bound
    assert bound < lines / 100


def test_the_search_visits_the_whole_file_with_linear_bytes_none(tmp_path, monkeypatch):
    """The counter is honest: with the binary search switched off, a miss reads every line."""
    path = write_sorted(tmp_path / "pwned.txt", random_hashes(2000, 9))
    monkeypatch.setattr(blocklist, "LINEAR_BYTES", 10 ** 12)
    searcher = blocklist.SortedFile(path)
    searcher.find(b"F" * 40)
    ends = 2 + blocklist.ENDS_BYTES // 42 + 1  # the first line; the last ENDS_BYTES, a partial line first
    assert 2000 < searcher.reads <= 2000 + ends


def test_an_ill_formed_line_names_the_file_and_not_the_hash(tmp_path):
    hashes = sorted(random_hashes(300, 4) + [sha1(BREACHED[0])])
    path = tmp_path / "pwned.txt"
    path.write_text("".join("%s:1\n" % d for d in hashes).replace(":1\n", ";1\n"))
    with pytest.raises(blocklist.BlocklistError) as caught:
        blocklist.check(BREACHED[0], [str(path)])
    message = str(caught.value)
    assert message.startswith("blocklist %s: a line is not SHA1:COUNT" % path)
    assert "run a scan of the file" in message
    assert_no_hash_in(BREACHED[0], message)


def test_an_unsorted_file_is_an_error(tmp_path):
    password = "whatever"
    assert sha1(password) > "1" * 40
    path = tmp_path / "pwned.txt"
    path.write_text("%s:1\n%s:1\n%s:1\n" % ("1" * 40, "0" * 40, "F" * 40))
    with pytest.raises(blocklist.BlocklistError, match="the lines are not sorted by their hash") as caught:
        blocklist.check(password, [str(path)])
    assert "sort the file by the hash (LC_ALL=C sort -t: -k1,1 -o FILE FILE)" in str(caught.value)


def ordered_by_count(path, hashes, seed):
    """A SHA1:COUNT file as Have I Been Pwned also publishes it: the most frequent first."""
    rng = random.Random(seed)
    counts = sorted((rng.randrange(1, 10 ** 7) for dummy in hashes), reverse=True)
    lines = ["%s:%d\n" % (digest, count) for digest, count in zip(hashes, counts)]
    path.write_text("".join(lines))
    return str(path)


BREACHED_20 = ["123456", "password", "qwerty", "letmein", "dragon", "monkey", "abc123", "iloveyou", "sunshine",
               "princess", "football", "shadow", "superman", "michael", "baseball", "welcome", "trustno1",
               "starwars", "whatever", "passw0rd"]


@pytest.mark.parametrize("others", [0, 20000])
def test_a_file_ordered_by_count_never_lets_a_password_pass(tmp_path, others):
    """Every lookup in it is an error that gives the fix (or, at a probe that lands on it, a hit): never a miss."""
    hashes = [sha1(p) for p in BREACHED_20] + random_hashes(others, 11)
    random.Random(12).shuffle(hashes)
    path = ordered_by_count(tmp_path / "pwned-by-count.txt", hashes, 13)
    for password in BREACHED_20 + CLEAN:
        try:
            reason = blocklist.check(password, [{"path": path, "format": "sorted"}])
        except blocklist.BlocklistError as exc:
            message = str(exc)
            assert "not sorted by their hash" in message and "LC_ALL=C sort -t: -k1,1" in message
            assert sha1(password)[:5] not in message.upper()  # the words of the list are English words
        else:
            assert password in BREACHED_20 and reason is not None, "a lookup in an unsorted file passed"


def test_a_file_whose_halves_are_swapped_is_refused(tmp_path):
    """Each half is sorted, so the lines a probe reads agree with their neighbours: the file's ends do not."""
    hashes = sorted(random_hashes(20000, 14) + [sha1(BREACHED[0]), sha1(BREACHED[1])])
    rotated = hashes[len(hashes) // 2:] + hashes[:len(hashes) // 2]
    path = tmp_path / "pwned.txt"
    path.write_text("".join("%s:5\n" % digest for digest in rotated))
    for password in BREACHED[:2] + CLEAN:
        with pytest.raises(blocklist.BlocklistError, match="not sorted by their hash"):
            blocklist.check(password, [str(path)])


@pytest.mark.parametrize("text", ["", "\n\n\r\n"])
def test_an_empty_sorted_file_is_refused_by_check_and_scan(tmp_path, text):
    path = tmp_path / "pwned.txt"
    path.write_text(text)
    with pytest.raises(blocklist.BlocklistError, match="empty .*it would let every password pass"):
        blocklist.check(BREACHED[0], [str(path)])
    with pytest.raises(blocklist.BlocklistError, match="^blocklist %s: empty" % path):
        blocklist.scan([str(path)])


def test_an_empty_range_file_is_refused_without_its_name(tmp_path):
    digest = sha1(BREACHED[0])
    directory = tmp_path / "range"
    directory.mkdir()
    (directory / (digest[:5] + ".txt")).write_text("")
    with pytest.raises(blocklist.BlocklistError) as caught:
        blocklist.check(BREACHED[0], [str(directory)])
    message = str(caught.value)
    assert message.startswith("blocklist %s: a range file this password needs is empty" % directory)
    assert_no_hash_in(BREACHED[0], message)
    with pytest.raises(blocklist.BlocklistError, match="empty"):
        blocklist.scan([str(directory)])


def test_a_sorted_file_with_one_line_out_of_place_is_refused_by_scan(tmp_path):
    hashes = sorted(random_hashes(5000, 15))
    hashes.insert(4000, hashes.pop(10))
    path = tmp_path / "pwned.txt"
    path.write_text("".join("%s:2\n" % digest for digest in hashes))
    with pytest.raises(blocklist.BlocklistError, match=r"^blocklist %s, line 4001: not sorted .*-k1,1" % path):
        blocklist.scan([str(path)])


def test_a_device_as_sorted_file_is_refused_before_it_is_opened(tmp_path, opened):
    with pytest.raises(blocklist.BlocklistError, match="is a character device, not a regular file"):
        blocklist.SortedFile(os.devnull).find(sha1(BREACHED[0]).encode())
    assert os.devnull not in opened
    link = tmp_path / "pwned.txt"
    link.symlink_to(os.devnull)
    with pytest.raises(blocklist.BlocklistError, match="not a regular file"):
        blocklist.check(BREACHED[0], [str(link)])


def test_a_range_file_that_is_a_fifo_or_device_is_refused_before_it_is_opened(tmp_path, opened):
    digest = sha1(BREACHED[0])
    directory = tmp_path / "range"
    directory.mkdir()
    os.mkfifo(str(directory / (digest[:5] + ".txt")))
    with pytest.raises(blocklist.BlocklistError) as caught:
        blocklist.check(BREACHED[0], [str(directory)])
    message = str(caught.value)
    assert message.startswith("blocklist %s: a range file this password needs is not a regular file" % directory)
    assert_no_hash_in(BREACHED[0], message)
    (directory / (digest[:5] + ".txt")).unlink()
    (directory / "00000.txt").symlink_to(os.devnull)
    with pytest.raises(blocklist.BlocklistError, match="00000.txt is a character device, not a regular file"):
        blocklist.scan([str(directory)])
    assert not [path for path in opened if path.startswith(str(directory))]


# --- range directory -------------------------------------------------------------------------

@pytest.mark.parametrize("suffix, newline, lower", [(".txt", "\r\n", False), ("", "\n", True)])
def test_range_directory(tmp_path, suffix, newline, lower):
    hashes = [sha1(p) for p in BREACHED + CLEAN] + random_hashes(50, 5)
    directory = write_range(tmp_path / "range", hashes, suffix=suffix, newline=newline, lower=lower,
                            counts=dict((sha1(p), 0) for p in CLEAN))
    for password in BREACHED:
        assert blocklist.in_range_directory(password, directory)
    for password in CLEAN:  # present with count 0 (padding): not a hit
        assert not blocklist.in_range_directory(password, directory)


def test_a_missing_range_file_says_so_without_its_name(tmp_path):
    directory = write_range(tmp_path / "range", random_hashes(3, 6))
    with pytest.raises(blocklist.BlocklistError) as caught:
        blocklist.check(CLEAN[0], [directory])
    message = str(caught.value)
    assert message.startswith("blocklist %s: the range file this password needs is missing" % directory)
    assert_no_hash_in(CLEAN[0], message)


def test_an_ill_formed_range_line_names_the_directory_and_line_not_the_file(tmp_path):
    digest = sha1(BREACHED[2])
    directory = tmp_path / "range"
    directory.mkdir()
    (directory / (digest[:5] + ".txt")).write_text("%s:1\nnot a line\n%s:9\n" % ("0" * 35, digest[5:]))
    with pytest.raises(blocklist.BlocklistError) as caught:
        blocklist.check(BREACHED[2], [str(directory)])
    message = str(caught.value)
    assert message.startswith("blocklist %s: line 2 of one of its range files is not SUFFIX:COUNT" % directory)
    assert_no_hash_in(BREACHED[2], message)


# --- the shipped list ------------------------------------------------------------------------

@pytest.mark.parametrize("password", ["vagrant", "Vagrant", "packer", "cobbler", "changeme", "redhat", "qweqwe",
                                      "123456", "PASSWORD", "dragon", "trustno1"])
def test_the_shipped_list_holds_common_passwords_and_tool_defaults(password):
    assert blocklist.check(password, ["shipped"]) == (
        "appears in a list of breached or common passwords (the list of common passwords shipped with the collection)")


@pytest.mark.parametrize("password", CLEAN + BREACHED[:1] + [""])
def test_the_shipped_list_misses_strong_passwords(password):
    assert blocklist.check(password, [{"format": "shipped"}]) is None


def test_the_shipped_list_is_what_the_generator_writes():
    pytest.importorskip("zxcvbn")
    from zxcvbn.frequency_lists import FREQUENCY_LISTS
    assert _common_passwords.COMMON.split("\n")[1:-1] == FREQUENCY_LISTS["passwords"]
    assert len(blocklist.shipped_words()) >= 30000
    assert "SPDX-License-Identifier: MIT" in open(_common_passwords.__file__).read(400)


# --- check() and sources ---------------------------------------------------------------------

def test_check_names_the_source_that_holds_the_password(tmp_path):
    path = write_sorted(tmp_path / "pwned.txt", random_hashes(100, 7) + [sha1(BREACHED[3])])
    directory = write_range(tmp_path / "range", [sha1(p) for p in BREACHED[:1] + CLEAN],
                            counts=dict((sha1(p), 0) for p in CLEAN))
    sources = ["shipped", {"path": path, "format": "sorted"}, directory]
    assert blocklist.check(BREACHED[3], sources) == (
        "appears in a list of breached or common passwords (the breach corpus %s)" % path)
    reason = blocklist.check(BREACHED[0], sources)
    assert reason == "appears in a list of breached or common passwords (the breach corpus %s)" % directory
    assert_no_hash_in(BREACHED[0], reason)
    assert blocklist.check(CLEAN[0], sources) is None
    assert blocklist.check(BREACHED[0], []) is None and blocklist.check(BREACHED[0], None) is None


@pytest.mark.parametrize("sources, message", [
    (3, "blocklist must be a list of sources"),
    ([3], "blocklist source 1 must be a path, 'shipped' or a dict with path and format, got int"),
    ([{"path": "/x", "kind": "sorted"}], "blocklist source 1: unknown key 'kind': give path"),
    ([{"path": "/x", "format": "zip"}], "blocklist source 1: unknown format 'zip': give one of range, sorted, shipped"),
    (["shipped", ""], "blocklist source 2: give the path of a Pwned Passwords range directory or sorted file"),
    (["/nonexistent/pwned.txt"], "blocklist /nonexistent/pwned.txt: no such file"),
    ([{"path": "/nonexistent", "format": "range"}], "blocklist /nonexistent: not a directory"),
])
def test_bad_sources(sources, message):
    with pytest.raises(blocklist.BlocklistError, match=message):
        blocklist.check(BREACHED[0], sources)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file(tmp_path):
    path = write_sorted(tmp_path / "pwned.txt", random_hashes(10, 8))
    os.chmod(path, 0)
    with pytest.raises(blocklist.BlocklistError, match="not readable by this user"):
        blocklist.check(BREACHED[0], [path])


def test_a_password_that_is_not_a_string():
    with pytest.raises(blocklist.BlocklistError, match="must be a string, got int"):
        blocklist.check(12345678, ["shipped"])


# --- scan(): where is the bad line -----------------------------------------------------------

def test_scan_names_file_and_line(tmp_path):
    path = tmp_path / "pwned.txt"
    path.write_text("%s:1\n%s:2\nbroken\n" % ("0" * 40, "1" * 40))
    with pytest.raises(blocklist.BlocklistError, match=r"^blocklist %s, line 3: not SHA1:COUNT" % path):
        blocklist.scan([str(path)])
    path.write_text("%s:1\n%s:2\n" % ("1" * 40, "0" * 40))
    with pytest.raises(blocklist.BlocklistError, match=r"^blocklist %s, line 2: not sorted" % path):
        blocklist.scan([str(path)])
    directory = tmp_path / "range"
    directory.mkdir()
    with pytest.raises(blocklist.BlocklistError, match="no range files"):
        blocklist.scan([str(directory)])
    (directory / "ABCDE.txt").write_text("%s:1\n%s\n" % ("0" * 35, "1" * 35))
    with pytest.raises(blocklist.BlocklistError, match=r"^blocklist %s, line 2: not SUFFIX:COUNT"
                       % os.path.join(str(directory), "ABCDE.txt")):
        blocklist.scan([str(directory)])
    (directory / "ABCDE.txt").write_text("%s:1\n" % ("0" * 35))
    blocklist.scan([str(directory), "shipped"])
