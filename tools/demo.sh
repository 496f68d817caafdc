#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The demo behind `make demo`: the kickstart role, from the installed
# collection, checks the example inventory's vaulted passwords against each
# product's policies and renders one kickstart per product into build/demo/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export ANSIBLE_COLLECTIONS_PATH=${ANSIBLE_COLLECTIONS_PATH:-$root/build/collections}
export ANSIBLE_CONFIG="$root/examples/ansible.cfg"
cd "$root/examples"
echo "== kickstart.pwpolicy demo: server, cloud and workstation kickstarts from examples/ =="
echo "   (the vault password file examples/vault-password-EXAMPLE-ONLY.txt is for this example only)"
"$root/.venv/bin/ansible-playbook" playbook.yml  # inventory and vault file: examples/ansible.cfg
echo
echo "Rendered (mode 0600):"
ls -l "$root/build/demo"
