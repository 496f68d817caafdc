#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# For every compliance profile and target the collection knows (one host
# each, one run of the role over them all): the kickstart the role writes,
# read back by the judge as the installer will read it, has no deviation and
# nothing the judge could not check (kickstart_result.profile.read_back);
# then judge_table.py removes each line the profile needs, in turn, and the
# judge must name a rule of the profile for it.
set -eu
umask 077

here="$(cd "$(dirname "$0")" && pwd)"
base="${OUTPUT_DIR:-$(mktemp -d)}/role_read_back"
rm -rf "$base"
mkdir -p "$base/ks"
python="$(ansible-playbook --version | sed -n 's/^  python version = .*(\(.*\))$/\1/p')"
[ -x "$python" ] || python="$(command -v python3 || command -v python)"
export ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 ANSIBLE_DEPRECATION_WARNINGS=0

profiles=(stig cis_server_l1 cis_server_l2 cis_workstation_l1 cis_workstation_l2 ospp pci_dss anssi nist_800_63b)
targets=(RHEL8 RHEL9 RHEL10)
{
    echo "[every]"
    for profile in "${profiles[@]}"; do
        for target in "${targets[@]}"; do
            echo "$profile-$target kickstart_profile=$profile kickstart_target=$target ansible_connection=local"
        done
    done
} >"$base/hosts.ini"

ansible-playbook -i "$base/hosts.ini" -e "ks_dir=$base/ks" -e "ansible_python_interpreter=$python" \
    "$here/render.yml"

failures=0
for profile in "${profiles[@]}"; do
    for target in "${targets[@]}"; do
        if ! out=$("$python" "$here/judge_table.py" "$base/ks/$profile-$target.ks" "$profile" "$target"); then
            echo "FAIL: $out" >&2
            failures=$((failures + 1))
        fi
    done
done
echo "role_read_back: ${#profiles[@]} profiles x ${#targets[@]} targets, $failures failed"
[ "$failures" -eq 0 ]
