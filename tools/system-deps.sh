#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: system-deps.sh [test]
# Install the system packages the collection needs (with "test": and its
# tests), when they are missing: those bindep.txt lists for this platform,
# its "test" profile included when asked.  bindep runs from a small virtual
# environment, .venv-bindep, made with the Python that tools/find-python.sh picks; that Python (on
# Debian and Ubuntu with its venv module) is the one thing installed here
# without bindep, as bindep needs it to run.
# Uses apt-get (Debian, Ubuntu) or dnf (Fedora, RHEL); sudo when not root.
# Does nothing (and needs no privileges) when everything is there already.
set -euo pipefail
profile=${1:-}
case $profile in ''|test) ;; *) echo "usage: system-deps.sh [test]" >&2; exit 2 ;; esac
profiles=()
[ -z "$profile" ] || profiles=("$profile")
root=$(cd "$(dirname "$0")/.." && pwd)
here="$root/tools"
tool_venv="$root/.venv-bindep"
tool_requirements="$here/requirements-bindep.txt"

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

if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
    manager=apt
elif command -v dnf >/dev/null 2>&1; then
    manager=dnf
else
    manager=
fi

apt_updated=
install_packages() {  # PACKAGE...
    echo "system-deps: installing $*"
    case $manager in
        apt)
            [ -n "$apt_updated" ] || run_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
            apt_updated=1
            run_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
            ;;
        dnf)
            run_root dnf install -y -q "$@"
            ;;
    esac
}

# 1. A Python 3.11 to 3.13 that can create virtual environments.
if [ "$manager" = apt ]; then
    # Debian's python3.X needs python3.X-venv (ensurepip) for "python -m venv".
    if py=$("$here/find-python.sh" 11 13); then
        case "$(readlink -f "$py")" in
            /usr/bin/python3*)
                ver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
                dpkg-query -W -f='${Status}' "python$ver-venv" 2>/dev/null | grep -q 'install ok installed' ||
                    install_packages "python$ver-venv"
                ;;
        esac
    else
        install_packages python3 python3-venv
    fi
elif [ "$manager" = dnf ]; then
    # RHEL 9's python3 is 3.9: python3.12 is the one in range there.
    "$here/find-python.sh" 11 13 >/dev/null || install_packages python3
    "$here/find-python.sh" 11 13 >/dev/null || install_packages python3.12
fi
py=$("$here/find-python.sh" 11 13) || {
    echo "system-deps: no Python 3.11 to 3.13 found; install one" >&2
    exit 1
}

# 2. bindep, in its own virtual environment.
if [ ! -x "$tool_venv/bin/bindep" ] || [ "$tool_requirements" -nt "$tool_venv/.stamp" ]; then
    [ -x "$tool_venv/bin/python" ] || "$py" -m venv "$tool_venv"
    "$tool_venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$tool_requirements"
    touch "$tool_venv/.stamp"
fi

# 3. What bindep.txt lists and this machine lacks.
status=0
missing=$("$tool_venv/bin/bindep" --brief --file "$root/bindep.txt" ${profiles[@]+"${profiles[@]}"} 2>/dev/null) || status=$?
if [ "$status" -eq 0 ]; then
    exit 0
fi
if [ -z "$manager" ]; then
    echo "system-deps: neither apt-get nor dnf found; install what bindep.txt lists" \
         "for this platform yourself${missing:+: ${missing//$'\n'/ }}" >&2
    exit 0
fi
if [ "$status" -ne 1 ] || [ -z "$missing" ]; then
    # A bindep.txt it cannot read, or a package of the wrong version: its own words.
    "$tool_venv/bin/bindep" --file "$root/bindep.txt" ${profiles[@]+"${profiles[@]}"} >&2 || true
    echo "system-deps: bindep failed (exit $status)" >&2
    exit 1
fi
mapfile -t packages <<<"$missing"
install_packages "${packages[@]}"
