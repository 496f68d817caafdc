#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The demo behind `make demo`: the three product presets (server, cloud,
# workstation) rendered as %anaconda sections by the installed collection.
# Also written to build/demo/presets.ks.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export ANSIBLE_COLLECTIONS_PATH=${ANSIBLE_COLLECTIONS_PATH:-$root/build/collections}
mkdir -p "$root/build/demo"
echo "== Password policy presets as %anaconda sections (kickstart.pwpolicy) =="
echo
"$root/.venv/bin/python" "$root/tools/demo.py" "$root/build/demo/presets.ks"
echo
echo "(written to build/demo/presets.ks)"
