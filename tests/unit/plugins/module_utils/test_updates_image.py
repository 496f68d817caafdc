# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

import gzip
import io
import os
import shutil
import stat
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _updates_image as ui
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._updates_image import UpdatesImageError

DROPIN = "etc/anaconda/conf.d/90-kickstart-pwpolicy.conf"
TEXT = "[User Interface]\npassword_policies =\n    root (quality 1, length 6)\n"
CPIO = shutil.which("cpio")
needs_cpio = pytest.mark.skipif(CPIO is None, reason="the cpio tool is not installed")


def cpio(args, data, cwd=None):
    proc = subprocess.run([CPIO] + args, input=data, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, check=True)
    return proc.stdout.decode("utf-8")


def tree(root):
    """{relative path: (kind, mode, content)} of everything under root."""
    found = {}
    for base, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(base, name)
            rel = os.path.relpath(path, root)
            info = os.lstat(path)
            if stat.S_ISDIR(info.st_mode):
                found[rel] = ("dir", stat.S_IMODE(info.st_mode), None)
            else:
                with open(path, "rb") as stream:
                    found[rel] = ("file", stat.S_IMODE(info.st_mode), stream.read())
    return found


# --------------------------------------------------------------------------
# with the cpio tool
# --------------------------------------------------------------------------

@needs_cpio
def test_cpio_lists_exactly_the_drop_in_and_its_parents():
    raw = gzip.decompress(ui.build_image({DROPIN: TEXT}))
    listed = cpio(["-t", "--quiet"], raw).splitlines()
    assert listed == ["etc", "etc/anaconda", "etc/anaconda/conf.d", DROPIN]


@needs_cpio
def test_cpio_verbose_listing_shows_root_owner_and_fixed_time():
    raw = gzip.decompress(ui.build_image({DROPIN: TEXT}, mtime=0))
    for line in cpio(["-tv", "--quiet", "--numeric-uid-gid"], raw).splitlines():
        fields = line.split()
        assert fields[2:4] == ["0", "0"], line
        assert "1970" in line, line
        assert fields[0] == ("-rw-r--r--" if line.endswith(".conf") else "drwxr-xr-x"), line


@needs_cpio
def test_cpio_extracts_the_exact_tree(tmp_path):
    raw = gzip.decompress(ui.build_image({DROPIN: TEXT}, mtime=1700000000))
    cpio(["-idm", "--quiet", "--no-absolute-filenames"], raw, cwd=str(tmp_path))
    assert tree(str(tmp_path)) == {
        "etc": ("dir", 0o755, None),
        "etc/anaconda": ("dir", 0o755, None),
        "etc/anaconda/conf.d": ("dir", 0o755, None),
        DROPIN: ("file", 0o644, TEXT.encode("utf-8")),
    }
    assert int(os.stat(str(tmp_path / DROPIN)).st_mtime) == 1700000000


@needs_cpio
@settings(max_examples=30, deadline=None)
@given(files=st.dictionaries(
    st.lists(st.sampled_from(["etc", "anaconda", "conf.d", "a", "b.conf", "x-y"]), min_size=1, max_size=4)
    .map("/".join),
    st.binary(max_size=300), min_size=1, max_size=4))
def test_cpio_extracts_any_tree(tmp_path_factory, files):
    # a path that is also a parent of another path is a conflict
    names = sorted(files)
    conflict = any(b.startswith(a + "/") for a in names for b in names)
    if conflict:
        with pytest.raises(UpdatesImageError):
            ui.build_image(files)
        return
    target = tmp_path_factory.mktemp("x")
    cpio(["-idm", "--quiet"], gzip.decompress(ui.build_image(files)), cwd=str(target))
    extracted = dict((k, v[2]) for k, v in tree(str(target)).items() if v[0] == "file")
    assert extracted == files


@needs_cpio
def test_reader_reads_what_gnu_cpio_writes(tmp_path):
    src = tmp_path / "src"
    (src / "etc/anaconda/conf.d").mkdir(parents=True)
    (src / DROPIN).write_text(TEXT)
    names = "\n".join(["etc", "etc/anaconda", "etc/anaconda/conf.d", DROPIN]) + "\n"
    proc = subprocess.run([CPIO, "-o", "-H", "newc", "--quiet"], input=names.encode(), cwd=str(src),
                          stdout=subprocess.PIPE, check=True)
    members = ui.read_image(gzip.compress(proc.stdout))
    assert [m.name for m in members] == ["etc", "etc/anaconda", "etc/anaconda/conf.d", DROPIN]
    assert ui.image_files(members) == {DROPIN: TEXT.encode()}
    # the same content whatever inode numbers and times the tool used (owner
    # must be root for that, as in a real image)
    if os.getuid() == 0:
        os.chmod(str(src / DROPIN), 0o644)
        assert ui.same_content(members, {DROPIN: TEXT}) is (stat.S_IMODE(members[-1].mode) == 0o644)


# --------------------------------------------------------------------------
# reproducibility
# --------------------------------------------------------------------------

def test_byte_identical_rebuilds():
    first = ui.build_image({DROPIN: TEXT, "etc/other.conf": b"x"})
    second = ui.build_image({"etc/other.conf": b"x", DROPIN: TEXT})
    assert first == second


def test_gzip_header_has_no_time_and_no_name():
    data = ui.build_image({DROPIN: TEXT})
    assert data[:3] == b"\x1f\x8b\x08"
    flags = data[3]
    assert flags & 0x08 == 0  # FNAME
    assert data[4:8] == b"\0\0\0\0"  # MTIME


def test_mtime_and_content_change_the_bytes():
    base = ui.build_image({DROPIN: TEXT})
    assert ui.build_image({DROPIN: TEXT}, mtime=1) != base
    assert ui.build_image({DROPIN: TEXT + "\n"}) != base


def test_header_fields():
    members = ui.read_image(ui.build_image({DROPIN: TEXT}, mtime=42))
    assert [m.ino for m in members] == [1, 2, 3, 4]
    assert [m.nlink for m in members] == [3, 3, 2, 1]
    assert all(m.uid == 0 and m.gid == 0 and m.mtime == 42 for m in members)
    assert [oct(m.mode) for m in members] == [oct(0o40755)] * 3 + [oct(0o100644)]
    assert members[-1].data == TEXT.encode()
    assert not members[-1].is_dir and members[0].is_dir


def test_newc_alignment():
    raw = ui.build_cpio({"a": b"123"})
    assert len(raw) % 4 == 0
    assert raw.startswith(b"070701")
    assert b"TRAILER!!!\0" in raw


@settings(max_examples=100, deadline=None)
@given(files=st.dictionaries(
    st.from_regex(r"[a-z0-9._-]{1,12}(/[a-z0-9_-]{1,8}){0,2}", fullmatch=True)
    .filter(lambda p: not any(part in (".", "..") for part in p.split("/"))),
    st.binary(max_size=200), min_size=1, max_size=5),
    mtime=st.integers(0, 0xFFFFFFFF))
def test_read_back_round_trip(files, mtime):
    names = sorted(files)
    if any(b.startswith(a + "/") for a in names for b in names):
        return
    image = ui.build_image(files, mtime)
    members = ui.read_image(image)
    assert ui.image_files(members) == files
    assert ui.same_content(members, files, mtime)
    assert ui.same_content(members, files)
    assert image == ui.build_image(dict(reversed(list(files.items()))), mtime)


# --------------------------------------------------------------------------
# same_content
# --------------------------------------------------------------------------

def test_same_content_differences():
    members = ui.read_image(ui.build_image({DROPIN: TEXT}, mtime=5))
    assert ui.same_content(members, {DROPIN: TEXT})
    assert ui.same_content(members, {DROPIN: TEXT}, mtime=5)
    assert not ui.same_content(members, {DROPIN: TEXT}, mtime=0)
    assert not ui.same_content(members, {DROPIN: TEXT + "x"})
    assert not ui.same_content(members, {DROPIN: TEXT, "etc/x": ""})
    assert not ui.same_content(members[:-1], {DROPIN: TEXT})
    assert not ui.same_content(members[1:], {DROPIN: TEXT})
    changed = list(members)
    changed[-1] = ui.Member(DROPIN, 0o100600, data=TEXT.encode())
    assert not ui.same_content(changed, {DROPIN: TEXT})
    changed[-1] = ui.Member(DROPIN, 0o100644, uid=1000, data=TEXT.encode())
    assert not ui.same_content(changed, {DROPIN: TEXT})
    dotted = [ui.Member(".", 0o40755)] + [ui.Member("./" + m.name, m.mode, data=m.data) for m in members]
    assert ui.same_content(dotted, {DROPIN: TEXT})


def test_plain_cpio_is_readable_too():
    raw = ui.build_cpio({"a/b": "x"})
    assert ui.image_files(ui.read_image(raw)) == {"a/b": b"x"}


def test_read_image_from_file(tmp_path):
    path = tmp_path / "updates.img"
    path.write_bytes(ui.build_image({DROPIN: TEXT}))
    assert ui.image_files(ui.read_image(path.read_bytes())) == {DROPIN: TEXT.encode()}


# --------------------------------------------------------------------------
# errors
# --------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/etc/x.conf", "", "etc//x", "etc/../x", "./etc/x", "etc\\x", None])
def test_bad_member_paths(path):
    with pytest.raises(UpdatesImageError) as err:
        ui.build_image({path: "x"})
    assert "member path" in str(err.value)


def test_file_and_directory_conflict():
    with pytest.raises(UpdatesImageError) as err:
        ui.build_image({"etc": "x", "etc/a": "y"})
    assert "both a file and a directory" in str(err.value)


@pytest.mark.parametrize("mtime", [-1, 2 ** 32, 1.5, "0", True])
def test_bad_mtime(mtime):
    with pytest.raises(UpdatesImageError) as err:
        ui.build_image({"a": "x"}, mtime)
    assert "mtime" in str(err.value)


def test_bad_content_type():
    with pytest.raises(UpdatesImageError) as err:
        ui.build_image({"a": 3})
    assert "text or bytes" in str(err.value)


def test_read_errors():
    raw = ui.build_cpio({"a": b"hello"})
    cases = [
        (b"", "without its TRAILER"),
        (b"070707" + raw[6:], "not a newc cpio header"),
        (raw[:6] + b"zzzzzzzz" + raw[14:], "not hexadecimal"),
        (raw[:111], "name is truncated"),
        (raw[:115], "member 'a' is truncated"),
        (raw[:-124], "without its TRAILER"),
        (b"\x1f\x8b\x08garbage", "not valid gzip"),
        (gzip.compress(raw)[:-6], "not valid gzip"),
        (b"070701" + b"0" * 104 + b"abc", "name is truncated"),
    ]
    for data, message in cases:
        with pytest.raises(UpdatesImageError) as err:
            ui.read_image(data)
        assert message in str(err.value), (data[:20], str(err.value))


def test_read_error_non_utf8_name():
    raw = bytearray(ui.build_cpio({"ab": b""}))
    raw[110] = 0xFF
    with pytest.raises(UpdatesImageError) as err:
        ui.read_image(bytes(raw))
    assert "not UTF-8" in str(err.value)


# --------------------------------------------------------------------------
# telling an image from a drop-in, and the drop-in's text
# --------------------------------------------------------------------------

def test_is_image():
    image = ui.build_image({DROPIN: TEXT})
    assert ui.is_image(image) is True
    assert ui.is_image(gzip.decompress(image)) is True
    assert ui.is_image(TEXT.encode()) is False
    assert ui.is_image(b"") is False
    assert ui.is_image(b"# 070701\n[User Interface]\n") is False


def test_member_text():
    members = ui.read_image(ui.build_image({DROPIN: TEXT, "etc/bin": b"\xff"}))
    assert ui.member_text(members, DROPIN) == TEXT
    assert ui.member_text(members, "etc/missing.conf") is None
    # a directory is not a file
    assert ui.member_text(members, "etc") is None
    with pytest.raises(UpdatesImageError, match="etc/bin is not UTF-8 text"):
        ui.member_text(members, "etc/bin")
    dotted = [ui.Member("./" + m.name, m.mode, data=m.data) for m in members]
    assert ui.member_text(dotted, DROPIN) == TEXT


def test_gzip_bomb_is_refused():
    bomb = io.BytesIO()
    with gzip.GzipFile(fileobj=bomb, mode="wb") as stream:
        for _megabyte in range(ui.MAX_UNPACKED // (1024 * 1024) + 1):
            stream.write(b"\0" * 1024 * 1024)
    data = bomb.getvalue()
    assert len(data) < 100 * 1024
    with pytest.raises(ui.UpdatesImageError, match="more than"):
        ui.read_image(data)


def test_plain_oversized_image_is_refused():
    with pytest.raises(ui.UpdatesImageError, match="more than"):
        ui.read_image(b"070701" + b"0" * ui.MAX_UNPACKED)


class _CountingDecompressor(object):
    """zlib's decompressor, counting the bytes of input handed to it (in ``fed``)."""

    fed = [0]

    def __init__(self, real):
        self._real = real

    def decompress(self, data, max_length=0):
        self.fed[0] += len(data)
        return self._real.decompress(data, max_length)

    def __getattr__(self, name):
        return getattr(self._real, name)


def test_many_empty_gzip_members_are_read_in_linear_work(monkeypatch):
    # Each member's decompressor once got all the input after it: work quadratic in the member count.
    image = ui.build_image({DROPIN: TEXT})
    data = gzip.compress(b"", mtime=0) * 20000 + image + gzip.compress(b"", mtime=0) * 20000
    real = ui.zlib.decompressobj
    _CountingDecompressor.fed[0] = 0
    monkeypatch.setattr(ui.zlib, "decompressobj", lambda *args, **kwargs: _CountingDecompressor(real(*args, **kwargs)))
    assert ui.image_files(ui.read_image(data)) == ui.image_files(ui.read_image(image))
    assert _CountingDecompressor.fed[0] < 2 * len(data) + 64 * 40001


@given(parts=st.lists(st.binary(max_size=3000), min_size=1, max_size=6), cut=st.integers(min_value=0, max_value=8000))
@settings(max_examples=150, deadline=None)
def test_gunzip_reads_every_member_as_gzip_does(parts, cut):
    data = b"".join(gzip.compress(part, compresslevel=1, mtime=0) for part in parts)
    assert ui._gunzip(data, ui.MAX_UNPACKED) == gzip.decompress(data)
    short = data[:max(1, cut)]
    try:
        expected = gzip.decompress(short)
    except (EOFError, OSError, gzip.zlib.error):  # cut inside a member: an error, never a wrong result
        with pytest.raises(UpdatesImageError, match="not valid gzip data"):
            ui._gunzip(short, ui.MAX_UNPACKED)
    else:  # cut between members
        assert ui._gunzip(short, ui.MAX_UNPACKED) == expected
