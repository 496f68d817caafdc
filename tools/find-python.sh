#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Print the path of a Python interpreter whose version lies in [3.11, 3.MAX]
# (MAX is the first argument, default 13).  The distribution's own python3
# comes first: its pwquality binding can then be shared with the virtualenv.
# Exits 1 (printing nothing) when none is found.
set -euo pipefail
max_minor=${1:-13}
candidates=(/usr/bin/python3 /usr/local/bin/python3)
for minor in $(seq "$max_minor" -1 11); do
    candidates+=("/usr/bin/python3.$minor" "python3.$minor")
done
candidates+=(python3)
for candidate in "${candidates[@]}"; do
    path=$(command -v "$candidate" 2>/dev/null) || continue
    if "$path" -c "import sys; sys.exit(not ((3, 11) <= sys.version_info[:2] <= (3, $max_minor)))" 2>/dev/null; then
        echo "$path"
        exit 0
    fi
done
exit 1
