#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Install the system packages the collection and its tests need, when they
# are missing: libpwquality with its Python binding, cracklib's dictionaries,
# pwscore, cpio (updates images), git, shellcheck (sanity), and what it takes to create a virtual
# environment with a Python >= 3.11 (<= 3.12 as well for ansible-core 2.16).
# Uses apt-get (Debian, Ubuntu) or dnf (Fedora, RHEL); sudo when not root.
# Does nothing (and needs no privileges) when everything is there already.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

run_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        echo "system-deps: need root (or sudo) to run: $*" >&2
        exit 1
    fi
}

missing=()
if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
    installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
    wanted=(python3-pwquality libpwquality1 cracklib-runtime libpwquality-tools cpio git python3-venv make shellcheck)
    for pkg in "${wanted[@]}"; do
        installed "$pkg" || missing+=("$pkg")
    done
    # Debian's python3.X needs python3.X-venv (ensurepip) for "python -m venv".
    if py=$("$here/find-python.sh" 13); then
        case "$(readlink -f "$py")" in
            /usr/bin/python3*)
                ver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
                installed "python$ver-venv" || missing+=("python$ver-venv")
                ;;
        esac
    else
        missing+=(python3)
    fi
    if [ ${#missing[@]} -gt 0 ]; then
        echo "system-deps: installing ${missing[*]}"
        run_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        run_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
elif command -v dnf >/dev/null 2>&1; then
    installed() { rpm -q --whatprovides "$1" >/dev/null 2>&1; }
    wanted=(python3-pwquality libpwquality cracklib-dicts cpio git-core make ShellCheck)
    for pkg in "${wanted[@]}"; do
        installed "$pkg" || missing+=("$pkg")
    done
    "$here/find-python.sh" 13 >/dev/null || missing+=(python3)
    # ansible-core 2.16 runs on Python <= 3.12; Fedora 41+ ship 3.13 as python3.
    "$here/find-python.sh" 12 >/dev/null || missing+=(python3.12)
    if [ ${#missing[@]} -gt 0 ]; then
        echo "system-deps: installing ${missing[*]}"
        run_root dnf install -y -q "${missing[@]}"
    fi
else
    echo "system-deps: neither apt-get nor dnf found; install libpwquality with its Python" \
         "binding, cracklib dictionaries, cpio, git and Python >= 3.11 yourself" >&2
fi
