#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: find-python.sh MIN MAX     (minor versions of Python 3; MAX defaults to MIN)
# Print the absolute path of a Python interpreter whose version lies in
# [3.MIN, 3.MAX].  The distribution's own python3 comes first (its pwquality
# binding can then be shared with a virtualenv), then python3.N from the
# highest N down, then the interpreters pyenv has installed, named by their
# absolute path: a pyenv shim exits 127 for a version the shell has not
# selected, so shims are never printed.
# Exits 1 (printing nothing) when none is found.
set -euo pipefail
min_minor=${1:?usage: find-python.sh MIN [MAX]}
max_minor=${2:-$min_minor}
pyenv_root=${PYENV_ROOT:-$HOME/.pyenv}
candidates=(/usr/bin/python3 /usr/local/bin/python3)
for minor in $(seq "$max_minor" -1 "$min_minor"); do
    candidates+=("/usr/bin/python3.$minor" "/usr/local/bin/python3.$minor" "python3.$minor")
    # pyenv's own installs, newest patch release first.
    while read -r dir; do
        [ -d "$dir" ] && candidates+=("$dir/bin/python3.$minor")
    done < <(printf '%s\n' "$pyenv_root/versions/3.$minor".* | sort -t. -k3,3nr)
done
for candidate in "${candidates[@]}"; do
    path=$(command -v "$candidate" 2>/dev/null) || continue
    case $path in */shims/*) continue ;; esac
    if "$path" -c "import sys; sys.exit(not ((3, $min_minor) <= sys.version_info[:2] <= (3, $max_minor)))" 2>/dev/null; then
        echo "$path"
        exit 0
    fi
done
exit 1
