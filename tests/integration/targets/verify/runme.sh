#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The verify playbook over three installed hosts, each a tree under
# kickstart_verify_root (no test touches this machine's /etc) reached by a
# local connection: RHEL 9 after a STIG remediation (it holds what is
# declared: the STIG), RHEL 9 as installed (the STIG's deviations and the
# kickstart the installer left), and a remediated host whose inventory
# declares more than the STIG (drift).  build.py makes them with the real
# tools (libxcrypt through the collection's hashing, cryptsetup luksFormat,
# grub-mkpasswd-pbkdf2).  Checked: the exit status per kickstart_fail_on, the
# table, the JSON, JUnit and SARIF reports (rule ids, file and line on the
# host), each failing host failing as itself in the recap, narrowing with
# kickstart_verify_hosts, no secret or hash in any output at -vvv (no vault
# password is given: declaring a host reads no secret), and with
# kickstart_verify_secrets the installed hashes compared with the vaulted
# values (drift's root password was changed on the host).
set -eu
umask 077

here="$(cd "$(dirname "$0")" && pwd)"
base="${OUTPUT_DIR:-$(mktemp -d)}/verify"
rm -rf "$base"
mkdir -p "$base/runs"
python="$(ansible-playbook --version | sed -n 's/^  python version = .*(\(.*\))$/\1/p')"
[ -x "$python" ] || python="$(command -v python3 || command -v python)"

export ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 ANSIBLE_DEPRECATION_WARNINGS=0
"$python" "$here/build.py" "$base" "$here/vault-password"

failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# verify NAME EXPECTED_RC [ansible-playbook args...]
verify() {
    local name="$1" expected="$2" rc=0
    shift 2
    ansible-playbook kickstart.pwpolicy.verify -i "$base/inventory/hosts.ini" \
        -e "kickstart_audit_json=$base/runs/$name.json" -e "kickstart_audit_junit=$base/runs/$name.xml" \
        -e "kickstart_audit_sarif=$base/runs/$name.sarif" "$@" \
        >"$base/runs/$name.stdout" 2>"$base/runs/$name.stderr" || rc=$?
    [ "$rc" = "$expected" ] || fail "$name: exit status $rc, expected $expected"
    echo "ok: $name (exit $rc)"
}

# recap NAME HOST: the host's line of the run's PLAY RECAP
recap() {
    sed -n '/^PLAY RECAP/,$p' "$base/runs/$1.stdout" | grep -E "^$2 +:" || true
}

verify rejected 2 -vvv
"$python" "$here/check.py" "$base/runs/rejected.json" "$base/runs/rejected.xml" "$base/runs/rejected.sarif" \
    "$base/trees" || fail "rejected: the reports do not hold what each host was built with"
grep -q -E "^kickstart.pwpolicy verify \(fail_on=rejected\)$" "$base/runs/rejected.stdout" \
    || fail "rejected: no table"
grep -q -E "^shipped +minlen +rejected$" "$base/runs/rejected.stdout" || fail "rejected: no row for shipped's minlen"
grep -q -F "    reason: rule RHEL-09-611090: minlen not set (libpwquality's default 8); stig (RHEL9) asks minlen" \
    "$base/runs/rejected.stdout" || fail "rejected: no reason under shipped's minlen row"
grep -q -E "^drift +pwquality.maxsequence +rejected$" "$base/runs/rejected.stdout" \
    || fail "rejected: no row for drift's maxsequence"
grep -q -E "^stig +kickstart_target +accepted$" "$base/runs/rejected.stdout" || fail "rejected: no row for stig"
grep -q -E "findings on 2 of 3 hosts fail \(fail_on=rejected\)" "$base/runs/rejected.stdout" \
    || fail "rejected: no summary line"
for host in shipped drift; do
    recap rejected "$host" | grep -q -E " failed=1 " || fail "rejected: the recap does not count $host failed"
    grep -q -F "fatal: [$host]: FAILED!" "$base/runs/rejected.stdout" || fail "rejected: $host does not fail as itself"
done
recap rejected stig | grep -q -E " failed=0 " || fail "rejected: the recap counts stig failed"
[ "$(grep -c -F 'FAILED!' "$base/runs/rejected.stdout")" = 2 ] || fail "rejected: not exactly the 2 failing hosts fail"
grep -q -E "2 of [0-9]+ findings fail \(fail_on=rejected\): pwquality.difok rejected, pwquality.maxsequence rejected" \
    "$base/runs/rejected.stdout" || fail "rejected: drift's failure does not name what fails"

verify never 0 -e kickstart_fail_on=never -e kickstart_verify_hosts=stig:drift
grep -q -F "failed=1" "$base/runs/never.stdout" && fail "never: a host fails although nothing trips fail_on"
"$python" -c 'import json, sys; hosts = sorted(set(f["host"] for f in json.load(open(sys.argv[1]))));
assert hosts == ["drift", "stig"], hosts' "$base/runs/never.json" || fail "never: kickstart_verify_hosts not kept"

# With kickstart_verify_secrets and the vault: the installed hashes against the vaulted values, on the controller.
verify secrets 2 -e kickstart_verify_secrets=true --vault-password-file "$here/vault-password" \
    -e kickstart_verify_hosts=stig:drift -e kickstart_audit_show=problems
"$python" - "$base/runs/secrets.json" "$base/luks.img" <<'PY' \
    || fail "secrets: the comparisons and the LUKS estimate are not what the hosts were built with"
import json, sys
rows = set((f["host"], f["secret"], f["verdict"], (f["rules"] or [None])[0], f.get("file"), f.get("line"))
           for f in json.load(open(sys.argv[1])) if f["secret"] in ("root", "bootloader"))
rule = "kickstart.pwpolicy.secret_changed"
expected = {("stig", "root", "accepted", rule, None, None), ("stig", "bootloader", "accepted", rule, None, None),
            ("drift", "root", "rejected", rule, "/etc/shadow", 1), ("drift", "bootloader", "accepted", rule, None, None)}
assert rows == expected, sorted(rows)
# The declared LUKS passphrase, estimated on the header's own key slot (argon2id at 32 MiB, as made), not on the
# installer's assumed defaults.
header = sys.argv[2]
luks = [f for f in json.load(open(sys.argv[1])) if f["secret"] == "luks"]
assert len(luks) == 1 and luks[0]["host"] == "stig" and luks[0]["verdict"] == "accepted", luks
assert luks[0]["file"] == header and luks[0]["rules"] == ["kickstart.pwpolicy.luks_estimate"], luks
assert "on key slot 0 of %s (argon2id, 32 MiB, 4 iterations)" % header in luks[0]["reasons"][0], luks
PY
grep -q -E "^drift +root +rejected$" "$base/runs/secrets.stdout" || fail "secrets: no row for drift's changed root password"
grep -q -F '"file://drift/etc/shadow"' "$base/runs/secrets.sarif" || fail "secrets: SARIF does not place drift's root"

if grep -q -i "traceback" "$base/runs/"*.stdout "$base/runs/"*.stderr; then
    fail "a run printed a traceback"
fi
# No secret, hash or salt made for the hosts shows anywhere (the -vvv run prints every result).
while IFS= read -r secret; do
    [ -n "$secret" ] || continue
    if grep -r -q -F -e "$secret" "$base/runs"; then
        fail "an output holds a secret or hash made for the hosts"
    fi
done <"$base/secrets"

[ "$failures" = 0 ] || { echo "$failures failure(s); outputs in $base/runs" >&2; exit 1; }
echo "all checks passed"
