# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The one place where the modules read and write files.

A kickstart holds secrets (crypt hashes, a LUKS passphrase), so writing one
follows these rules:

* the new content goes to a temporary file created mode 0600 in the target's
  directory (``mkstemp``: ``O_EXCL``, never through a link), is given its
  final mode, owner and SELinux context *before* it is renamed over the
  target, so the path never shows the content with wider permissions;
* the new file belongs to the user the module runs as (or ``owner`` and
  ``group``): an existing file of another user is replaced as a new one
  (its owner, group and mode are not copied, so a file planted in a shared
  directory does not make its owner the owner of the secrets);
* the target is never written through a symbolic link: a link is refused,
  naming where it points (``refuse_link``);
* a mode is never a number (``mode_error``): YAML reads ``600`` as decimal;
* a backup is a new ``mkstemp`` file (``O_EXCL``, a random name, mode 0600
  or the source's mode if narrower) holding the bytes already read, removed
  again if it cannot be written completely;
* the temporary file is removed on every way out (an error, ``fail_json``,
  ``SIGTERM``); ``replace_atomic`` is that one replacement, for the modules'
  files and the audit's reports alike;
* read-modify-write runs under an exclusive ``flock`` on the target's
  directory, so two runs on one file never lose each other's update; the
  wait for it is bounded (``LOCK_WAIT``);
* reading refuses what is not a regular file (a FIFO would block forever, a
  device could be endless, and opening one can act: a tape rewinds, a
  watchdog starts) by ``stat``, before it opens anything, and anything larger
  than a limit (``open_regular``).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import errno
import fcntl
import os
import signal
import stat
import tempfile
import time

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError

MiB = 1024 * 1024
# No real kickstart or updates image comes near this.
MAX_FILE_SIZE = 16 * MiB
# Seconds DirectoryLock waits for another process's lock (polled every LOCK_POLL seconds).
LOCK_WAIT = 120
LOCK_POLL = 0.05


class FileError(PwpolicyError):
    """A file cannot be read or written; the message names the path and what to do."""


def _kind(mode):
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _advice(exc, path):
    """What to do about an OSError on ``path``."""
    code = getattr(exc, "errno", None)
    directory = os.path.dirname(path) or "."
    if code in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "check that %s is writable by the user the module runs as (become?)" % directory
    if code in (errno.ENOSPC, errno.EDQUOT):
        return "free space on the filesystem of %s (or raise the quota)" % directory
    if code == errno.ENOENT:
        return "create the directory %s first" % directory
    return "check the path and its directory"


def describe_os_error(action, path, exc):
    """One line: what failed on which path, why (strerror, never a traceback) and what to do."""
    reason = getattr(exc, "strerror", None) or exc.__class__.__name__
    return "cannot %s %s: %s; %s" % (action, path, reason, _advice(exc, path))


def _refuse_irregular(info, path, what, limit):
    if not stat.S_ISREG(info.st_mode):
        raise FileError("%s %s is %s, not a regular file; give the path of a file" % (what, path, _kind(info.st_mode)))
    if limit is not None and info.st_size > limit:
        raise FileError("%s %s has %d bytes, more than the %d read at most; "
                        "give the right file" % (what, path, info.st_size, limit))


def open_regular(path, what="file", limit=None):
    """A descriptor open for reading on the regular file at ``path``, or None when there is none.

    Whatever is not a regular file (a FIFO, a device, a socket, a directory),
    and with ``limit`` a file larger than ``limit`` bytes, is refused by
    ``stat`` before it is opened: opening a FIFO blocks, opening a device can
    act.  The open descriptor's ``fstat`` must show the same regular file, so
    a path replaced in between is refused as well (and the open itself does
    not block or take a terminal).  The caller closes the descriptor.
    """
    try:
        before = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            return None
        raise FileError(describe_os_error("read", path, exc))
    _refuse_irregular(before, path, what, limit)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            return None
        raise FileError(describe_os_error("read", path, exc))
    try:
        info = os.fstat(fd)
        if (info.st_dev, info.st_ino) != (before.st_dev, before.st_ino):
            raise FileError("%s %s was replaced while it was being opened; run again" % (what, path))
        _refuse_irregular(info, path, what, limit)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(path, limit=MAX_FILE_SIZE, what="file"):
    """The bytes of the regular file at ``path``, or None when there is none.

    Refuses anything but a regular file, and anything larger than ``limit``
    bytes, before opening it (``open_regular``).
    """
    fd = open_regular(path, what, limit)
    if fd is None:
        return None
    try:
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, 1024 * 1024)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:  # the file grew while being read
                raise FileError("%s %s is larger than %d bytes; give the right file" % (what, path, limit))
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise FileError(describe_os_error("read", path, exc))
    finally:
        os.close(fd)


def refuse_link(path, what="path"):
    """Raise FileError when ``path`` is a symbolic link: the writers never write through one."""
    if os.path.islink(path):
        try:
            points = os.readlink(path)
        except OSError:
            points = "?"
        raise FileError("%s %s is a symbolic link (to %s); the module does not write through links, so that the "
                        "file it writes is the one you named: give the real path instead" % (what, path, points))


def mode_error(value, option="mode"):
    """The error for a ``mode`` given as a number, else None.

    YAML reads ``600`` as the decimal number 600 (octal 1130) and ``0600`` as
    384, and the two cannot be told apart, so only a string is taken.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return ("%s %d is a number, which would be used as decimal (octal %s); give the mode as a quoted string, "
            "octal ('0600') or symbolic ('u=rw,go=')" % (option, value, format(value, "o")))


def decode_text(data, path, what="file"):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileError("%s %s is not UTF-8 text (byte %d); it must be UTF-8" % (what, path, exc.start))


def read_text(path, what="path"):
    """``(text, absolute path)`` of the UTF-8 file the option ``what`` names; a FileError if it does not exist."""
    path = os.path.abspath(path)
    data = read_bytes(path, what=what)
    if data is None:
        raise FileError("%s %s does not exist" % (what, path))
    return decode_text(data, path, what=what), path


class DirectoryLock(object):
    """An exclusive ``flock`` on a directory, held for one read-modify-write.

    Locking the directory (not the file) survives the rename that replaces the
    file, and leaves no lock file behind.
    """

    def __init__(self, directory):
        self.directory = directory
        self._fd = None

    def __enter__(self):
        waited = 0.0
        try:
            self._fd = os.open(self.directory, os.O_RDONLY)
            while True:
                try:
                    fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return self
                except OSError as exc:
                    if exc.errno not in (errno.EAGAIN, errno.EWOULDBLOCK) or waited >= LOCK_WAIT:
                        raise
                time.sleep(LOCK_POLL)
                waited += LOCK_POLL
        except OSError as exc:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
            if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                raise FileError("the directory %s is locked by another process (another run writing a file in it) "
                                "and was not released within %d seconds; let that run finish (find it with "
                                "'fuser %s') and run again" % (self.directory, LOCK_WAIT, self.directory))
            raise FileError(describe_os_error("lock the directory", self.directory, exc))

    def __exit__(self, *exc_info):
        if self._fd is not None:
            os.close(self._fd)  # closing drops the lock
            self._fd = None
        return False


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    os.fsync(fd)


def backup(path, data, source_mode):
    """A backup of ``path`` holding ``data``; returns its name.

    The name is random (``mkstemp``: created with ``O_EXCL``, so no existing
    file or link is ever opened) and the file is 0600, or the source's mode if
    narrower, from its first byte.  An incomplete backup is removed.
    """
    directory, base = os.path.split(os.path.abspath(path))
    stamp = time.strftime("%Y-%m-%d@%H:%M:%S")
    try:
        fd, name = tempfile.mkstemp(prefix="%s.%s." % (base, stamp), suffix="~", dir=directory)
    except OSError as exc:
        raise FileError(describe_os_error("create a backup of", path, exc) + "; nothing was changed")
    try:
        os.fchmod(fd, stat.S_IMODE(source_mode) & 0o600)
        _write_all(fd, data)
    except BaseException as exc:
        os.close(fd)
        os.unlink(name)
        if isinstance(exc, OSError):
            raise FileError(describe_os_error("write the backup of", path, exc) + "; nothing was changed")
        raise
    os.close(fd)
    return name


class _Terminated(SystemExit):
    pass


def _on_signal(signum, frame):
    raise _Terminated(128 + signum)


def _prepare(module, tmp, path, existing, new_mode, file_args):
    """Give ``tmp`` the mode, owner and context ``path`` must end up with (fails before any rename).

    An existing file keeps its mode and group only when it belongs to the
    user the module runs as; the owner is never copied (``tmp`` is ours).
    """
    if existing is not None and existing.st_uid == os.geteuid():
        os.chmod(tmp, stat.S_IMODE(existing.st_mode))
        if existing.st_gid != os.stat(tmp).st_gid:
            try:
                os.chown(tmp, -1, existing.st_gid)
            except OSError:
                pass  # a group this user is not in: the file gets the user's group
    else:
        os.chmod(tmp, new_mode)
    if module.selinux_enabled():
        context = module.selinux_context(path) if existing is not None else module.selinux_default_context(path)
        module.set_context_if_different(tmp, context, False)
    if file_args:
        tmp_args = dict(file_args, path=tmp)
        module.set_fs_attributes_if_different(tmp_args, False)


def replace_atomic(path, data, prepare=None):
    """Replace ``path`` by the bytes ``data`` through a temporary file beside it, renamed over it.

    The temporary file is created mode 0600 (``mkstemp``: ``O_EXCL``, never
    through a link), written completely and synced, given to ``prepare``
    (``prepare(tmp)``: mode, owner, context) and renamed.  It is removed on
    every way out that does not rename it: an error (``OSError`` is raised
    again for the caller to word), an exception of ``prepare``, ``SIGTERM``,
    ``SIGHUP`` or ``SIGINT``.  ``data`` must already be bytes: text is encoded
    by the caller, so an encoding error never leaves a temporary file.
    """
    if not isinstance(data, bytes):
        raise TypeError("replace_atomic takes bytes, not %s" % type(data).__name__)
    path = os.path.abspath(path)
    fd, tmp = tempfile.mkstemp(prefix=".%s." % os.path.basename(path), dir=os.path.dirname(path))
    previous = {}
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        try:
            previous[signum] = signal.signal(signum, _on_signal)
        except (ValueError, OSError):  # not the main thread
            pass
    try:
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        if prepare is not None:
            prepare(tmp)
        os.rename(tmp, path)
    except BaseException:
        _remove(tmp)
        raise
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def write_atomic(module, path, data, new_mode=0o600, file_args=None):
    """Replace ``path`` by ``data`` atomically, never readable with wider permissions.

    A new file gets ``new_mode`` (an existing one of the user the module runs
    as keeps its mode and group, any existing one its SELinux context; one of
    another user is replaced as a new file; a symbolic link is refused);
    ``file_args`` (``load_file_common_arguments``) are applied to the
    temporary file before the rename, so a bad owner or mode fails with the
    target untouched.  On failure the module fails with a
    message that names the path and what to do.
    """
    path = os.path.abspath(path)
    try:
        refuse_link(path)
        existing = os.lstat(path)
    except FileError as exc:
        module.fail_json(msg=str(exc))
    except OSError:
        existing = None

    def prepare(tmp):
        module.add_cleanup_file(tmp)
        _prepare(module, tmp, path, existing, new_mode, file_args)

    try:
        replace_atomic(path, data, prepare)
    except OSError as exc:
        module.fail_json(msg=describe_os_error("write", path, exc) + "; the file was not changed")


def _remove(name):
    try:
        os.unlink(name)
    except OSError:
        pass
