# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Installer updates images (``inst.updates=``): gzip-compressed ``newc`` cpio archives.

The installer unpacks an updates image over its own root file system, so an
image that holds ``etc/anaconda/conf.d/NN-name.conf`` adds a configuration
drop-in.  The format is the SVR4 "new ASCII" cpio format (``newc``, magic
``070701``), compressed with gzip.

Why this is written here with the standard library rather than by calling
``cpio``: the Python standard library has no cpio writer, and no well-kept
pure-Python package does this job (libarchive bindings need the C library on
every managed node).  The ``cpio`` tool is not installed everywhere a module
runs, and what it writes depends on the files it is fed (inode and device
numbers, owners, times), so reproducible output would need a staged tree plus
options that not every cpio version has.  The ``newc`` layout is a 110-byte
ASCII header, the NUL-terminated name and the data, each padded to four
bytes, then a ``TRAILER!!!`` entry: a few dozen lines that give byte-identical
output for the same input on every host.

Reproducibility: members are written in a fixed order, with inode numbers
counted from 1, owner and group 0, a fixed modification time (0 unless
given), no device numbers; the gzip header carries mtime 0 and no file name.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError

import gzip
import io
import posixpath
import stat
import zlib

NEWC_MAGIC = b"070701"
CRC_MAGIC = b"070702"
GZIP_MAGIC = b"\x1f\x8b"
TRAILER = "TRAILER!!!"
HEADER_LEN = 110
DIR_MODE = stat.S_IFDIR | 0o755
FILE_MODE = stat.S_IFREG | 0o644


# An updates image with a drop-in is a few kilobytes; refuse to unpack more than this.
MAX_UNPACKED = 16 * 1024 * 1024
# Bytes of compressed input given to a gzip member's decompressor at first, and at most at once.
_FIRST_STEP = 64
_MAX_STEP = 1024 * 1024


class UpdatesImageError(PwpolicyError):
    """An updates image that cannot be built or read; the message says why."""


class Member(object):
    """One archive member as read back from an image."""

    __slots__ = ("name", "mode", "uid", "gid", "nlink", "mtime", "ino", "data")

    def __init__(self, name, mode, uid=0, gid=0, nlink=1, mtime=0, ino=0, data=b""):
        self.name = name
        self.mode = mode
        self.uid = uid
        self.gid = gid
        self.nlink = nlink
        self.mtime = mtime
        self.ino = ino
        self.data = data

    @property
    def is_dir(self):
        return stat.S_ISDIR(self.mode)

    def __repr__(self):
        return "Member(%r, mode=%o, size=%d)" % (self.name, self.mode, len(self.data))


def _check_path(path):
    if not isinstance(path, str) or not path or path.startswith("/") or "\\" in path:
        raise UpdatesImageError(
            "member path %r must be relative to the installer's root, e.g. "
            "etc/anaconda/conf.d/90-kickstart-pwpolicy.conf" % (path,))
    parts = path.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise UpdatesImageError(
            "member path %r must not contain empty, '.' or '..' components" % (path,))
    return parts


def _tree(files):
    """Ordered ``(name, mode, data)`` entries: every parent directory, then files."""
    entries = {}
    for path in sorted(files):
        data = files[path]
        if isinstance(data, str):
            data = data.encode("utf-8")
        if not isinstance(data, bytes):
            raise UpdatesImageError("content of %r must be text or bytes" % (path,))
        parts = _check_path(path)
        for depth in range(1, len(parts)):
            parent = "/".join(parts[:depth])
            if entries.get(parent, (DIR_MODE,))[0] != DIR_MODE:
                raise UpdatesImageError("%r is both a file and a directory" % parent)
            entries[parent] = (DIR_MODE, b"")
        if path in entries:
            raise UpdatesImageError("%r is both a file and a directory" % path)
        entries[path] = (FILE_MODE, data)
    # Sorted names put each directory before everything inside it.
    return [(name, entries[name][0], entries[name][1]) for name in sorted(entries)]


def _pad(length):
    return b"\0" * ((4 - length % 4) % 4)


def _header(ino, mode, nlink, mtime, size, namesize):
    fields = (ino, mode, 0, 0, nlink, mtime, size, 0, 0, 0, 0, namesize, 0)
    return NEWC_MAGIC + b"".join(b"%08X" % value for value in fields)


def build_cpio(files, mtime=0):
    """The uncompressed ``newc`` archive (bytes) for ``{path: content}``."""
    if not isinstance(mtime, int) or isinstance(mtime, bool) or not 0 <= mtime <= 0xFFFFFFFF:
        raise UpdatesImageError(
            "mtime must be a whole number of seconds from 0 to 4294967295, got %r" % (mtime,))
    entries = _tree(files)
    subdirs = {}
    for name, mode, dummy in entries:
        if mode == DIR_MODE and "/" in name:
            parent = name.rsplit("/", 1)[0]
            subdirs[parent] = subdirs.get(parent, 0) + 1
    out = io.BytesIO()
    for ino, (name, mode, data) in enumerate(entries, 1):
        encoded = name.encode("utf-8") + b"\0"
        nlink = 2 + subdirs.get(name, 0) if mode == DIR_MODE else 1
        head = _header(ino, mode, nlink, mtime, len(data), len(encoded)) + encoded
        out.write(head + _pad(len(head)) + data + _pad(len(data)))
    encoded = TRAILER.encode("ascii") + b"\0"
    head = _header(0, 0, 1, 0, 0, len(encoded)) + encoded
    out.write(head + _pad(len(head)))
    return out.getvalue()


def build_image(files, mtime=0):
    """The gzip-compressed ``newc`` archive for ``{path: content}``.

    ``files`` maps paths relative to the installer's root (``etc/...``) to text
    (written as UTF-8) or bytes.  Parent directories are added (mode 0755),
    files get mode 0644; everything is owned by 0:0 and carries ``mtime``.
    The same arguments always give the same bytes.
    """
    raw = build_cpio(files, mtime)
    out = io.BytesIO()
    # filename="" and mtime=0: no name and no time stamp in the gzip header.
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, compresslevel=9, mtime=0) as stream:
        stream.write(raw)
    return out.getvalue()


def read_cpio(raw):
    """Parse an uncompressed ``newc`` (or ``crc``) archive into a list of :class:`Member`."""
    members = []
    offset = 0
    while True:
        head = raw[offset:offset + HEADER_LEN]
        if len(head) < HEADER_LEN:
            raise UpdatesImageError(
                "cpio archive ends at byte %d without its %s entry" % (offset, TRAILER))
        if head[:6] not in (NEWC_MAGIC, CRC_MAGIC):
            raise UpdatesImageError(
                "byte %d: not a newc cpio header (magic %r, expected %r); build the image "
                "with 'cpio -H newc'" % (offset, bytes(head[:6]), NEWC_MAGIC))
        try:
            fields = [int(head[6 + 8 * i:14 + 8 * i], 16) for i in range(13)]
        except ValueError:
            raise UpdatesImageError("byte %d: cpio header has a field that is not hexadecimal" % offset)
        ino, mode, uid, gid, nlink, mtime, size = fields[:7]
        namesize = fields[11]
        name_start = offset + HEADER_LEN
        name_end = name_start + namesize
        if namesize < 1 or name_end > len(raw) or raw[name_end - 1:name_end] != b"\0":
            raise UpdatesImageError("byte %d: cpio member name is truncated" % offset)
        try:
            name = raw[name_start:name_end - 1].decode("utf-8")
        except UnicodeDecodeError:
            raise UpdatesImageError("byte %d: cpio member name is not UTF-8" % offset)
        data_start = name_end + len(_pad(name_end - offset))
        data_end = data_start + size
        if data_end > len(raw):
            raise UpdatesImageError("cpio member %r is truncated" % name)
        if name == TRAILER:
            return members
        members.append(Member(name, mode, uid, gid, nlink, mtime, ino, bytes(raw[data_start:data_end])))
        offset = data_end + len(_pad(data_end))


def is_image(data):
    """True when ``data`` starts like an updates image (gzip data or a ``newc`` archive).

    No anaconda configuration text starts so: its first line is a comment, a
    blank line or a section header.
    """
    return data[:2] == GZIP_MAGIC or data[:6] in (NEWC_MAGIC, CRC_MAGIC)


def read_image(data):
    """Members of a gzip-compressed (or plain) ``newc`` updates image."""
    if data[:2] == GZIP_MAGIC:
        data = _gunzip(data, MAX_UNPACKED)
    elif len(data) > MAX_UNPACKED:
        raise UpdatesImageError("the image holds more than %d bytes; an updates image with a configuration "
                                "drop-in is a few kilobytes: give the right file" % MAX_UNPACKED)
    return read_cpio(data)


def _gunzip(data, limit):
    """``data`` decompressed (every gzip member), refusing more than ``limit`` bytes of output.

    Each member's decompressor is fed a slice of the input that starts small and
    doubles, so the input left over after a member (which zlib copies) is never
    much longer than the member: time stays linear in the input, however many
    (empty) members it holds.
    """
    out = []
    size = offset = 0
    view = memoryview(data)
    while offset < len(data):
        stream = zlib.decompressobj(wbits=31)
        step = _FIRST_STEP
        while not stream.eof:
            if offset == len(data):
                raise UpdatesImageError("the image is not valid gzip data: it ends too early")
            piece = view[offset:offset + step]
            try:
                chunk = stream.decompress(piece, limit + 1 - size)
            except zlib.error as exc:
                raise UpdatesImageError("the image is not valid gzip data: %s" % exc)
            size += len(chunk)
            if size > limit or stream.unconsumed_tail:
                raise UpdatesImageError("the image unpacks to more than %d bytes (a compression bomb, or not an "
                                        "updates image); give the right file" % limit)
            out.append(chunk)
            offset += len(piece) - len(stream.unused_data)
            step = min(2 * step, _MAX_STEP)
    return b"".join(out)


def _member_path(name):
    """A member name as a path relative to the root: ``/etc/x`` and ``./etc/x`` (what
    ``find . | cpio -o`` writes) become ``etc/x``; the root itself is ``.``."""
    return posixpath.normpath(name.lstrip("/"))


def image_files(members):
    """``{path: bytes}`` of the regular files among ``members`` (names normalized)."""
    files = {}
    for member in members:
        if stat.S_ISREG(member.mode):
            files[_member_path(member.name)] = member.data
    return files


def member_text(members, name):
    """The UTF-8 text of the regular file ``name`` among ``members``; None when there is none.

    Raises :class:`UpdatesImageError` when the file is not UTF-8 text.
    """
    data = image_files(members).get(name)
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UpdatesImageError("%s is not UTF-8 text" % name)


def same_content(members, files, mtime=None):
    """True when ``members`` hold exactly ``files`` (same data, regular files
    mode 0644, parent directories present), whatever their inode numbers or
    times; with ``mtime`` given, the times must match too."""
    wanted = {}
    for name, mode, data in _tree(files):
        wanted[name] = (mode, data)
    found = {}
    for member in members:
        name = _member_path(member.name)
        if name == ".":
            continue
        if member.uid != 0 or member.gid != 0:
            return False
        if mtime is not None and member.mtime != mtime:
            return False
        found[name] = (member.mode, member.data)
    return found == wanted
