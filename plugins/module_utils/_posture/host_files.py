# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""An installed host's files under ``root``, each looked up as the host would, read-only.

``root`` is the host's ``/`` (``/`` itself, a mounted image, a test tree).
Every path given and named here is the host's (``/etc/shadow``); a symbolic
link is followed inside ``root``: an absolute link starts again at ``root``,
``..`` never goes above it, and more than :data:`MAX_LINKS` links in one
lookup (a loop) is an entry of the unknown list, never a traceback.

What cannot be read (a file that is not a regular one, too large,
unreadable; a directory that cannot be listed or holds too many entries) is
an *unknown entry*, ``{what, scope: "host", where: {file, line?}}``, appended
to the list the caller gives; its ``what`` names the host's paths, never
``root``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import errno
import os
import stat

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._files import FileError, describe_os_error, read_bytes

SCOPE = "host"
MAX_LINKS = 40  # the kernel's bound on symbolic links in one lookup (MAXSYMLINKS)


def unknown_entry(what, path, line=None):
    """``{what, scope: "host", where: {file, line?}}``: what was not read on the host, and where."""
    where = {"file": path}
    if line is not None:
        where["line"] = line
    return {"what": what, "scope": SCOPE, "where": where}


def _is_link(local):
    try:
        return stat.S_ISLNK(os.lstat(local).st_mode)
    except OSError:
        return False


class HostFiles(object):
    """The files of the host at ``root``; what cannot be read goes to the list ``unknown`` (``self.unknowns``)."""

    def __init__(self, root="/", unknown=None):
        self.root = os.path.abspath(root or "/")
        self.unknowns = [] if unknown is None else unknown

    def unknown(self, what, path, line=None):
        """Append (and return) the unknown entry for ``path`` (the host's) with ``what``."""
        entry = unknown_entry(what, path, line)
        self.unknowns.append(entry)
        return entry

    def local(self, path):
        """The path under ``root`` of the host path ``path``, as given (no link followed)."""
        return os.path.join(self.root, path.lstrip("/"))

    def _resolve(self, path):
        """The host path ``path`` resolves to, every symbolic link followed inside ``root``; FileError for more
        than MAX_LINKS links or a link that cannot be read."""
        parts = [part for part in path.split("/") if part and part != "."]
        done, links = [], 0
        while parts:
            part = parts.pop(0)
            if part == "..":
                if done:
                    done.pop()
                continue
            local = os.path.join(self.root, *(done + [part]))
            if not _is_link(local):
                done.append(part)
                continue
            links += 1
            if links > MAX_LINKS:
                raise FileError("cannot resolve %s: more than %d symbolic links (a loop)" % (path, MAX_LINKS))
            try:
                target = os.readlink(local)
            except OSError as exc:
                raise FileError(describe_os_error("read the link", "/" + "/".join(done + [part]), exc))
            if target.startswith("/"):
                done = []
            parts = [piece for piece in target.split("/") if piece and piece != "."] + parts
        return "/" + "/".join(done)

    def resolve(self, path):
        """The host path ``path`` resolves to (its links followed inside ``root``), or None for a loop or a link
        that cannot be read."""
        try:
            return self._resolve(path)
        except FileError:
            return None

    def _parent_resolved(self, path):
        """The local path of ``path`` with its directory resolved and its last name as it is (not followed)."""
        head, name = os.path.split("/" + path.strip("/"))
        parent = self.resolve(head)
        if parent is None or not name:
            return None
        return self.local(parent + "/" + name if parent != "/" else "/" + name)

    def _real(self, path):
        resolved = self.resolve(path)
        return None if resolved is None else self.local(resolved)

    def is_file(self, path):
        real = self._real(path)
        return real is not None and os.path.isfile(real)

    def is_dir(self, path):
        real = self._real(path)
        return real is not None and os.path.isdir(real)

    def exists(self, path):
        """Whether ``path`` leads to anything (its links followed)."""
        real = self._real(path)
        return real is not None and os.path.exists(real)

    def lexists(self, path):
        """Whether there is an entry at ``path`` (a symbolic link counts, wherever it points)."""
        local = self._parent_resolved(path)
        return local is not None and os.path.lexists(local)

    def is_link(self, path):
        """Whether ``path`` itself (its directory resolved) is a symbolic link."""
        local = self._parent_resolved(path)
        return local is not None and _is_link(local)

    def link(self, path):
        """The host path the symbolic link at ``path`` resolves to, or None when ``path`` is no link (or a loop)."""
        return self.resolve(path) if self.is_link(path) else None

    def _message(self, message, path, resolved):
        """The first clause of an error's message (what failed on which path, why), naming the host's ``path``
        (and where it leads when that differs), never ``root``."""
        shown = path if resolved in (None, path) else "%s (which leads to %s)" % (path, resolved)
        if resolved is not None:
            message = message.replace(self.local(resolved), shown)
        if self.root != "/":
            message = message.replace(self.root.rstrip("/") + "/", "/")
        at = message.find(shown)
        cut = message.find("; ", at + len(shown) if at >= 0 else 0)
        return message if cut < 0 else message[:cut]

    def read_text(self, path, limit):
        """The text of the host file ``path`` (UTF-8, an odd byte replaced), or None when there is none; one that
        cannot be read (a loop, not a regular file, over ``limit`` bytes, unreadable) is an unknown entry."""
        resolved = None
        try:
            resolved = self._resolve(path)
            data = read_bytes(self.local(resolved), limit, "file")
        except FileError as exc:
            self.unknown(self._message(str(exc), path, resolved), path)
            return None
        if data is None:
            return None
        return data.decode("utf-8", "replace")

    def list_dir(self, path, limit=None, keep=None, kind="entries"):
        """The names in the host directory ``path`` that ``keep(name)`` accepts (all without ``keep``), in C-locale
        (byte) order, at most ``limit`` of them ([] when there is no such directory); more than ``limit``, a loop
        or a directory that cannot be listed is an unknown entry."""
        resolved = None
        try:
            resolved = self._resolve(path)
            names = os.listdir(self.local(resolved))
        except FileError as exc:
            self.unknown(self._message(str(exc), path, resolved), path)
            return []
        except OSError as exc:
            if exc.errno not in (errno.ENOENT, errno.ENOTDIR):
                self.unknown(self._message(describe_os_error("list", self.local(resolved), exc), path, resolved),
                             path)
            return []
        if keep is not None:
            names = [name for name in names if keep(name)]
        names.sort(key=os.fsencode)
        if limit is not None and len(names) > limit:
            self.unknown("%s holds %d %s; the first %d by name are read" % (path, len(names), kind, limit), path)
            names = names[:limit]
        return names
