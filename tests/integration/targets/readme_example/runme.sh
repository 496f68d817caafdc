#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The README's first example, as written, against an inventory that says
# nothing about connections or interpreters (one host at an address nothing
# answers on): it writes one kickstart per host, mode 0600, and a second run
# changes nothing.
set -eu
umask 022

# The collection under test (ansible-test runs a copy of this target elsewhere).
readme=''
IFS=: read -r -a paths <<<"${ANSIBLE_COLLECTIONS_PATH:-}"
for path in "${paths[@]}"; do
    if [ -f "$path/ansible_collections/kickstart/pwpolicy/README.md" ]; then
        readme="$path/ansible_collections/kickstart/pwpolicy/README.md"
        break
    fi
done
[ -n "$readme" ] || { echo "FAIL: no README.md in ANSIBLE_COLLECTIONS_PATH" >&2; exit 1; }
base="${OUTPUT_DIR:-$(mktemp -d)}/readme_example"
rm -rf "$base"
mkdir -p "$base"  # not ks/: the example's kickstart_create_dirs creates it
python="$(ansible-playbook --version | sed -n 's/^  python version = .*(\(.*\))$/\1/p')"
[ -x "$python" ] || python="$(command -v python3 || command -v python)"

# The first yaml block of the README, its /srv/ks/ pointed at this run's directory.
"$python" - "$readme" "$base/ks/" >"$base/example.yml" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
start = text.index("```yaml\n") + len("```yaml\n")
sys.stdout.write(text[start:text.index("```", start)].replace("/srv/ks/", sys.argv[2]))
PY
grep -q "kickstart.pwpolicy.kickstart" "$base/example.yml" || { echo "FAIL: no role in the README example" >&2; exit 1; }

printf '[installs]\nnode1\nnode2 ansible_host=192.0.2.7\n' >"$base/hosts.ini"
printf 'vault_root_password: "Readme-Example-Horse-Battery-42"\n' >"$base/secrets.yml"

export ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0
for run in first second; do
    ansible-playbook -i "$base/hosts.ini" -e "@$base/secrets.yml" "$base/example.yml" >"$base/$run.out" 2>&1 \
        || { cat "$base/$run.out"; echo "FAIL: the README example failed ($run run)" >&2; exit 1; }
done
grep -q -E "node1 +: ok=[0-9]+ +changed=[1-9]" "$base/first.out" || { echo "FAIL: first run changed nothing" >&2; exit 1; }
grep -q -E "node1 +: ok=[0-9]+ +changed=0 .*failed=0" "$base/second.out" \
    || { echo "FAIL: the second run changed something" >&2; exit 1; }
[ "$(stat -c %a "$base/ks")" = 755 ] || { echo "FAIL: the kickstart directory is not mode 0755" >&2; exit 1; }
for host in node1 node2; do
    [ "$(stat -c %a "$base/ks/$host.ks")" = 600 ] || { echo "FAIL: $host.ks is not mode 0600" >&2; exit 1; }
    grep -q "^%anaconda" "$base/ks/$host.ks" || { echo "FAIL: $host.ks has no %anaconda section" >&2; exit 1; }
done
if grep -q -F "Readme-Example-Horse" "$base/first.out" "$base/second.out"; then
    echo "FAIL: the password is in the output" >&2
    exit 1
fi
echo "readme_example: the README's example works as written"
