#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: seed-get-pip.sh VENV
# Put tools/get_pip_shim.py where VENV's ansible-test looks for its cached pip
# bootstrap script (~/.ansible/test/cache/get_pip_<pip version>.py), unless a
# script is there already.  The pip version is read from ansible-test itself.
set -euo pipefail
venv=${1:?usage: seed-get-pip.sh VENV}
here=$(cd "$(dirname "$0")" && pwd)
source_file=$("$venv/bin/python" -c 'import ansible_test, os
print(os.path.join(os.path.dirname(ansible_test.__file__), "_internal", "python_requirements.py"))')
version=$(sed -n "s/^ *pip='\([0-9.]*\)',.*/\1/p" "$source_file" | head -n 1)
if [ -z "$version" ]; then
    echo "seed-get-pip: cannot find the pip version in $source_file" >&2
    exit 1
fi
cache="$HOME/.ansible/test/cache/get_pip_${version//./_}.py"
if [ ! -s "$cache" ]; then
    mkdir -p "$(dirname "$cache")"
    cp "$here/get_pip_shim.py" "$cache"
    echo "seed-get-pip: seeded $cache"
fi
