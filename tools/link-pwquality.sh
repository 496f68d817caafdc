#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: link-pwquality.sh VENV
# Make the distribution's libpwquality Python binding importable in VENV by
# linking it into the virtualenv's site-packages, when it was built for the
# same ABI (its file name carries the tag, e.g. .cpython-311-x86_64-linux-gnu.so).
# Otherwise the collection reaches libpwquality.so.1 directly, which it does
# on its own; this script then only says so.
set -euo pipefail
venv=${1:?usage: link-pwquality.sh VENV}
py="$venv/bin/python"
read -r suffix purelib minor < <("$py" -c 'import sys, sysconfig
print(sysconfig.get_config_var("EXT_SUFFIX"), sysconfig.get_paths()["platlib"], "%d.%d" % sys.version_info[:2])')
name="pwquality$suffix"
if [ -e "$purelib/$name" ]; then
    exit 0
fi
for dir in /usr/lib/python3/dist-packages "/usr/lib64/python$minor/site-packages" \
           "/usr/lib/python$minor/site-packages" "/usr/lib/python$minor/dist-packages"; do
    if [ -f "$dir/$name" ]; then
        ln -sfn "$dir/$name" "$purelib/$name"
        if "$py" -c 'import pwquality' 2>/dev/null; then
            echo "link-pwquality: $venv uses $dir/$name"
            exit 0
        fi
        rm -f "$purelib/$name"
    fi
done
echo "link-pwquality: no distribution pwquality binding for Python $minor ($name);" \
     "$venv will use libpwquality.so.1 directly"
