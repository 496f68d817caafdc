# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Make this checkout importable as ``ansible_collections.kickstart.pwpolicy``.

Shared by the unit tests (tests/unit/conftest.py imports it) and the
benchmarks (benchmarks/bench.py), which import nothing of each other's.

The collection root is the repository root, so tests would otherwise need an
installed copy.  We point a ``ansible_collections/kickstart/pwpolicy`` link
(in a per-checkout temporary directory) at this tree and put it first on
``sys.path`` and in ``ANSIBLE_COLLECTIONS_PATH``.
"""

import hashlib
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _collections_dir():
    namespace_dir = os.path.dirname(ROOT)
    collections_dir = os.path.dirname(namespace_dir)
    if (os.path.basename(ROOT), os.path.basename(namespace_dir), os.path.basename(collections_dir)) == \
            ("pwpolicy", "kickstart", "ansible_collections"):
        # Already laid out as ansible_collections/kickstart/pwpolicy.
        return os.path.dirname(collections_dir)
    digest = hashlib.sha256(ROOT.encode("utf-8")).hexdigest()[:12]
    base = os.path.join(tempfile.gettempdir(), "kickstart-pwpolicy-%s" % digest)
    namespace = os.path.join(base, "ansible_collections", "kickstart")
    link = os.path.join(namespace, "pwpolicy")
    os.makedirs(namespace, exist_ok=True)
    if os.path.realpath(link) != ROOT:
        tmp = "%s.%d" % (link, os.getpid())
        os.symlink(ROOT, tmp)
        os.replace(tmp, link)
    return base


def _main_checkout():
    """The main checkout of this repository, when ROOT is a linked worktree (``.git`` is a file), else ROOT."""
    try:
        with open(os.path.join(ROOT, ".git")) as handle:
            gitdir = handle.read().strip()
        if not gitdir.startswith("gitdir: "):
            return ROOT
        gitdir = gitdir[len("gitdir: "):]
        with open(os.path.join(gitdir, "commondir")) as handle:
            common = os.path.normpath(os.path.join(gitdir, handle.read().strip()))
        return os.path.dirname(common)
    except OSError:
        return ROOT


def corpus_dir(*parts):
    """The real-world kickstart corpus beside the checkout (``../shared/corpus``), or beside the main checkout
    of a worktree; None when there is none (an installed copy of the collection)."""
    for base in (ROOT, _main_checkout()):
        path = os.path.join(os.path.dirname(base), "shared", "corpus", *parts)
        if os.path.isdir(path):
            return path
    return None


def reference_file(name):
    """A reference data file beside the checkout (``../shared/reference/NAME``), or beside the main checkout of
    a worktree; None when there is none (an installed copy of the collection)."""
    for base in (ROOT, _main_checkout()):
        path = os.path.join(os.path.dirname(base), "shared", "reference", name)
        if os.path.isfile(path):
            return path
    return None


COLLECTIONS_DIR = _collections_dir()
if COLLECTIONS_DIR not in sys.path:
    sys.path.insert(0, COLLECTIONS_DIR)
os.environ["ANSIBLE_COLLECTIONS_PATH"] = COLLECTIONS_DIR
