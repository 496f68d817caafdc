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
# Set when an optional package could not be installed, so later runs do not retry.
optional_marker="$here/../build/.optional-packages-unavailable"

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

optional_failed() {
    echo "system-deps: could not install ${optional[*]}; the checks that need it are skipped" >&2
    mkdir -p "$(dirname "$optional_marker")" && touch "$optional_marker"
}

missing=()
optional=()  # wanted, but their absence only skips a check (shellcheck: RHEL has it in EPEL only)
if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
    installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
    wanted=(python3-pwquality libpwquality1 cracklib-runtime libpwquality-tools cpio git python3-venv make)
    for pkg in "${wanted[@]}"; do
        installed "$pkg" || missing+=("$pkg")
    done
    command -v shellcheck >/dev/null 2>&1 || [ -e "$optional_marker" ] || optional+=(shellcheck)
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
    if [ $((${#missing[@]} + ${#optional[@]})) -gt 0 ]; then
        echo "system-deps: installing ${missing[*]} ${optional[*]}"
        run_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    fi
    if [ ${#missing[@]} -gt 0 ]; then
        run_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
    if [ ${#optional[@]} -gt 0 ]; then
        run_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${optional[@]}" ||
            optional_failed
    fi
elif command -v dnf >/dev/null 2>&1; then
    installed() { rpm -q --whatprovides "$1" >/dev/null 2>&1; }
    wanted=(python3-pwquality libpwquality cracklib-dicts cpio git-core make)
    for pkg in "${wanted[@]}"; do
        installed "$pkg" || missing+=("$pkg")
    done
    command -v shellcheck >/dev/null 2>&1 || [ -e "$optional_marker" ] || optional+=(ShellCheck)
    "$here/find-python.sh" 13 >/dev/null || missing+=(python3)
    # ansible-core 2.16 runs on Python <= 3.12; Fedora 41+ ship 3.13 as python3.
    "$here/find-python.sh" 12 >/dev/null || missing+=(python3.12)
    if [ ${#missing[@]} -gt 0 ]; then
        echo "system-deps: installing ${missing[*]}"
        run_root dnf install -y -q "${missing[@]}"
    fi
    if [ ${#optional[@]} -gt 0 ]; then
        echo "system-deps: installing ${optional[*]}"
        run_root dnf install -y -q "${optional[@]}" ||
            optional_failed
    fi
else
    echo "system-deps: neither apt-get nor dnf found; install libpwquality with its Python" \
         "binding, cracklib dictionaries, cpio, git and Python >= 3.11 yourself" >&2
fi
