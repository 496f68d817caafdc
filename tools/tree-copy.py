# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Copy the collection's source files to DEST/ansible_collections/kickstart/pwpolicy.

ansible-test needs the collection inside an ``ansible_collections/NS/NAME``
tree.  The copy holds exactly what ``git ls-files -co --exclude-standard``
lists (tracked files plus new files that are not ignored), so virtualenvs,
build output and caches stay out.  Outside a git checkout, everything but
those is copied.  DEST's old copy is replaced, and the copy gets an empty git
repository of its own.  Prints the copy's path.
"""

import os
import shutil
import subprocess
import sys

SKIP_DIRS = {".git", ".venv", "build", ".cache", ".pytest_cache", ".hypothesis",
             "__pycache__", "collections", ".tox", ".nox"}


def source_files(root):
    try:
        out = subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "-z"],
            cwd=root, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        return [f for f in out.decode("utf-8").split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for dirpath, dirnames, filenames in os.walk(root):
            rel = os.path.relpath(dirpath, root)
            dirnames[:] = [d for d in dirnames
                           if d not in SKIP_DIRS and not d.startswith(".venv")
                           and os.path.normpath(os.path.join(rel, d)) != os.path.join("tests", "output")]
            files.extend(os.path.normpath(os.path.join(rel, f)) for f in filenames
                         if not f.endswith((".pyc", ".tar.gz")))
        return files


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tree-copy.py DEST")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dest = os.path.join(os.path.abspath(sys.argv[1]), "ansible_collections", "kickstart", "pwpolicy")
    if os.path.commonpath([root, dest]) == dest:
        sys.exit("tree-copy.py: DEST must not contain the source tree")
    if os.path.lexists(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    for rel in source_files(root):
        src = os.path.join(root, rel)
        if not os.path.lexists(src):  # deleted in the work tree, not yet in git
            continue
        target = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if os.path.islink(src):
            os.symlink(os.readlink(src), target)
        elif os.path.isfile(src):
            shutil.copy2(src, target)
    # An empty repository of its own: ansible-test lists a collection's files
    # with git when it finds a repository, and would otherwise find ours
    # (where build/ is ignored) and see no files at all.
    subprocess.run(["git", "init", "-q", dest], check=True)
    print(dest)


if __name__ == "__main__":
    main()
