#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: make-venv.sh DIR MIN-MAX [MIN-MAX ...]
# Make sure DIR is a virtualenv whose Python 3 minor version lies in one of the
# ranges, tried in the order given (tools/find-python.sh picks the interpreter).
# A virtualenv left by an earlier layout with another Python is made again:
# pip cannot install a pin its Python does not support.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: make-venv.sh DIR MIN-MAX [MIN-MAX ...]}
shift
in_range() {
    local python=$1 range min max
    for range in "$@"; do
        min=${range%-*} max=${range#*-}
        "$python" -c "import sys; sys.exit(not ((3, $min) <= sys.version_info[:2] <= (3, $max)))" 2>/dev/null && return 0
    done
    return 1
}
if [ -x "$dir/bin/python" ]; then
    in_range "$dir/bin/python" "$@" && exit 0
    echo "$dir has Python $("$dir/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])'), outside $*: making it again"
    rm -rf "$dir"
fi
for range in "$@"; do
    if py=$("$here/find-python.sh" "${range%-*}" "${range#*-}"); then
        echo "creating $dir with $py"
        exec "$py" -m venv "$dir"
    fi
done
echo "no Python 3 in $* found for $dir (pyenv install 3.13, or the distribution's python3.12 package)" >&2
exit 1
