#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The README's first example, as written, against an inventory that says
# nothing about connections or interpreters (one host at an address nothing
# answers on): it writes one kickstart per host, mode 0600, creating their
# directory (kickstart_create_dirs), and a second run changes nothing.  The
# role prints each host's boot line once and each notice once for both hosts
# (RHEL 9's %anaconda deprecation; with a plain http:// kickstart_base_url,
# that too); kickstart_acknowledge silences one, and an unknown id stops the
# role.  --check --diff with a changed time zone and root password shows them
# masked, writing nothing.
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
# A third run serves the kickstarts over plain http:// and acknowledges the deprecation.
printf 'kickstart_base_url: http://ks.example.com/ks/\nkickstart_acknowledge: [anaconda_deprecated]\n' >"$base/third.yml"
ansible-playbook -i "$base/hosts.ini" -e "@$base/secrets.yml" -e "@$base/third.yml" "$base/example.yml" \
    >"$base/third.out" 2>&1 || { cat "$base/third.out"; echo "FAIL: the README example failed (third run)" >&2; exit 1; }
grep -q -E "node1 +: ok=[0-9]+ +changed=[1-9]" "$base/first.out" || { echo "FAIL: first run changed nothing" >&2; exit 1; }
grep -q -E "node1 +: ok=[0-9]+ +changed=0 .*failed=0" "$base/second.out" \
    || { echo "FAIL: the second run changed something" >&2; exit 1; }
[ "$(stat -c %a "$base/ks")" = 755 ] || { echo "FAIL: the kickstart directory is not mode 0755" >&2; exit 1; }
for host in node1 node2; do
    [ "$(stat -c %a "$base/ks/$host.ks")" = 600 ] || { echo "FAIL: $host.ks is not mode 0600" >&2; exit 1; }
    grep -q "^%anaconda" "$base/ks/$host.ks" || { echo "FAIL: $host.ks has no %anaconda section" >&2; exit 1; }
done

# One boot line per host, printed once; the kickstart's header names it.
once() {  # once RUN TEXT: TEXT is in exactly one line of RUN's output
    [ "$(grep -c -F -- "$2" "$base/$1.out")" = 1 ] \
        || { cat "$base/$1.out"; echo "FAIL: '$2' is not printed once ($1 run)" >&2; exit 1; }
}
for host in node1 node2; do
    once first "\"$host: inst.ks=$base/ks/$host.ks inst.nosave=input_ks,output_ks  (no kickstart_base_url: the paths as written"
    line="inst.ks=http://ks.example.com/ks/$host.ks inst.nosave=input_ks,output_ks"
    once third "\"$host: $line\""
    grep -q -x -F "# Boot the installer with: $line" "$base/ks/$host.ks" \
        || { echo "FAIL: $host.ks does not name its boot line" >&2; exit 1; }
done
# Each notice once for both hosts, with their number, and not as a warning of each host; an acknowledged one not.
once first "WARNING (2 hosts: node1, node2): target RHEL9: RHEL 9 deprecated the %anaconda section"
once third "WARNING (2 hosts: node1, node2): kickstart_base_url is plain http://"
if grep -q -F "deprecated the %anaconda" "$base/third.out"; then
    cat "$base/third.out"; echo "FAIL: the acknowledged notice is still printed" >&2; exit 1
fi
if grep -q -E "^\[WARNING\]: .*(deprecated the %anaconda|plain http://)" "$base/first.out" "$base/third.out"; then
    cat "$base/first.out" "$base/third.out"; echo "FAIL: a notice is still a warning of each host" >&2; exit 1
fi
# An id that names no notice stops the role before anything is written, naming the valid ids.
if ansible-playbook -i "$base/hosts.ini" -e "@$base/secrets.yml" -e '{"kickstart_acknowledge": ["http"]}' \
        "$base/example.yml" >"$base/unknown.out" 2>&1; then
    cat "$base/unknown.out"; echo "FAIL: an unknown notice id was accepted" >&2; exit 1
fi
grep -q "anaconda_deprecated, http_base_url" "$base/unknown.out" \
    || { cat "$base/unknown.out"; echo "FAIL: the unknown id's error does not name the valid ids" >&2; exit 1; }

if grep -q -F "Readme-Example-Horse" "$base/first.out" "$base/second.out" "$base/third.out"; then
    echo "FAIL: the password is in the output" >&2
    exit 1
fi

# --check --diff with another time zone and another root password: the masked
# diff shows the changed timezone line and that the root password changed,
# never a password or a hash, and nothing is written.
sums="$(sha256sum "$base/ks/node1.ks" "$base/ks/node2.ks")"
printf 'vault_root_password: "Readme-Example-Changed-Otter-77"\n' >"$base/changed.yml"
ansible-playbook -i "$base/hosts.ini" -e "@$base/secrets.yml" -e "@$base/changed.yml" \
    -e '{"kickstart_content": {"timezone": "Europe/Berlin"}}' --check --diff "$base/example.yml" >"$base/diff.out" 2>&1 \
    || { cat "$base/diff.out"; echo "FAIL: the README example failed (--check --diff)" >&2; exit 1; }
diff_fail() {
    grep -v -F -e "Readme-Example" -e "\$6\$" -e "\$y\$" "$base/diff.out" | tail -n 40 >&2
    echo "FAIL: --check --diff: $*" >&2
    exit 1
}
[ "$(grep -c '^+timezone Europe/Berlin' "$base/diff.out")" = 2 ] || diff_fail "no changed timezone line for each host"
[ "$(grep -c '^-timezone ' "$base/diff.out")" = 2 ] || diff_fail "no old timezone line for each host"
[ "$(grep -c '^+rootpw --iscrypted <hidden: changed>' "$base/diff.out")" = 2 ] \
    || diff_fail "the root password's change is not marked"
grep -q -F -e "Readme-Example" "$base/diff.out" && diff_fail "a password is in the output"
grep -q -E '[$](1|2[abxy]?|5|6|7|y|gy)[$]' "$base/diff.out" && diff_fail "a crypt hash is in the output"
while IFS= read -r hash; do
    grep -q -F -e "$hash" -e "${hash##*$}" "$base/diff.out" && diff_fail "a hash of a kickstart is in the output"
done < <(grep -h -o -E '[$](6|y)[$][^ ]+' "$base/ks/node1.ks" "$base/ks/node2.ks")
[ "$sums" = "$(sha256sum "$base/ks/node1.ks" "$base/ks/node2.ks")" ] || diff_fail "a kickstart was written"

# The README's STIG fleet: its group variables and site.yml as written (/srv/ks/ pointed here), the role's run
# (the lookup stores each secret in secrets/), the audit passing (exit 0), then failing (exit 2) with a host of
# weak secrets that fails as itself; no stored secret in any output.
stig="$base/stig"
mkdir -p "$stig/inventory/group_vars/stig" "$stig/inventory/host_vars"
mkdir -m 0700 "$stig/secrets"
"$python" - "$readme" "$base/stig-ks/" "$stig" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
section = text[text.index("## A STIG fleet"):]
blocks = []
start = 0
while len(blocks) < 2:
    start = section.index("```yaml\n", start) + len("```yaml\n")
    blocks.append(section[start:section.index("```", start)])
with open(sys.argv[3] + "/inventory/group_vars/stig/main.yml", "w") as handle:
    handle.write(blocks[0].replace("/srv/ks/", sys.argv[2]))
with open(sys.argv[3] + "/site.yml", "w") as handle:
    handle.write(blocks[1])
PY
printf '[stig]\nweb01\nweb02\n' >"$stig/inventory/hosts"
(umask 077; echo "readme-example-vault-password" >"$stig/vault-pass")
stig_run() {  # NAME EXPECTED_RC PLAYBOOK
    local rc=0
    (cd "$stig" && ansible-playbook -i inventory "$3" --vault-password-file "$stig/vault-pass") >"$stig/$1.out" 2>&1 || rc=$?
    [ "$rc" = "$2" ] || { tail -n 40 "$stig/$1.out"; echo "FAIL: STIG $1: exit $rc, expected $2" >&2; exit 1; }
}
stig_run role 0 site.yml
[ "$(find "$stig/secrets" -name '*.vault' | wc -l)" = 6 ] || { echo "FAIL: STIG: not 3 secrets stored per host" >&2; exit 1; }
for host in web01 web02; do
    [ "$(stat -c %a "$base/stig-ks/$host.ks")" = 600 ] || { echo "FAIL: STIG: $host.ks is not 0600" >&2; exit 1; }
    grep -q "^$host: inst.ks=https://ks.example.com/ks/$host.ks inst.nosave=" "$stig/role.out" \
        || grep -q "\"$host: inst.ks=https://ks.example.com/ks/$host.ks inst.nosave=" "$stig/role.out" \
        || { echo "FAIL: STIG: no boot line for $host" >&2; exit 1; }
done
stig_run audit-green 0 kickstart.pwpolicy.audit
printf '[stig]\nweb01\nweb02\nweb03\n' >"$stig/inventory/hosts"
printf 'kickstart_root_password: "Summer2026!"\n' >"$stig/inventory/host_vars/web03.yml"
stig_run audit-red 2 kickstart.pwpolicy.audit
sed -n '/^PLAY RECAP/,$p' "$stig/audit-red.out" | grep -q -E "^web03 +: .* failed=1 " \
    || { echo "FAIL: STIG: the recap does not count web03 failed" >&2; exit 1; }
sed -n '/^PLAY RECAP/,$p' "$stig/audit-red.out" | grep -q -E "^web0[12] +: .* failed=[1-9]" \
    && { echo "FAIL: STIG: a passing host fails" >&2; exit 1; }
"$python" - "$stig" <<'PY' || { echo "FAIL: STIG: a stored secret is in the output" >&2; exit 1; }
import glob, sys
from ansible.parsing.vault import VaultLib, VaultSecret
here = sys.argv[1]
vault = VaultLib([("default", VaultSecret(open(here + "/vault-pass", "rb").read().strip()))])
outputs = "".join(open(path).read() for path in glob.glob(here + "/*.out"))
for path in glob.glob(here + "/secrets/*.vault"):
    value = vault.decrypt(open(path, "rb").read()).decode()
    assert value not in outputs, path
assert "Summer2026!" not in outputs
PY

echo "readme_example: the README's example works as written"
