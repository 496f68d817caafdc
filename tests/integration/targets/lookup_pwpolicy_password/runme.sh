#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The lookup over two runs of stored.yml on two hosts. Run 1 runs tasks/main.yml
# (the lookup without file=) and writes the vault files (0600, encrypted, one
# with vault_id=other); run 2 reads the same values back without rewriting the
# files, rotates the shared one once with regenerate=true and checks the errors
# (a tightened policy, not a vault file, no secret of the file's vault id).
# No stored value shows in any output at -vvv.
set -eu
umask 022

here="$(cd "$(dirname "$0")" && pwd)"
out="${OUTPUT_DIR:-$(mktemp -d)}/lookup_pwpolicy_password"
rm -rf "$out"
mkdir -p "$out/secrets"
python="$(ansible-playbook --version | sed -n 's/^  python version = .*(\(.*\))$/\1/p')"
[ -x "$python" ] || python="$(command -v python3 || command -v python)"
export ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 ANSIBLE_DEPRECATION_WARNINGS=0 ANSIBLE_LOCALHOST_WARNING=0

cp "$here/stored.yml" "$out/"
echo 'not a vault file' >"$out/plain.txt"
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
stored() {
    local run="$1"
    shift
    ansible-playbook -vvv -i h1,h2 -c local -f 2 -e "ansible_python_interpreter=$python" -e "run=$run" \
        -e "target_dir=$here" "$out/stored.yml" "$@" >"$out/run$run.log" 2>&1 ||
        { tail -n 60 "$out/run$run.log" >&2; fail "run $run"; }
}

stored 1 --vault-id "default@$here/vault-password" --vault-id "other@$here/other-vault-password"
for file in shared h1 h2 other; do
    path="$out/secrets/$file.vault"
    [ "$(stat -c %a "$path")" = 600 ] || fail "$path: mode $(stat -c %a "$path"), expected 600"
    header="\$ANSIBLE_VAULT;1.1;AES256"
    [ "$file" != other ] || header="\$ANSIBLE_VAULT;1.2;AES256;other"
    [ "$(head -n 1 "$path")" = "$header" ] || fail "$path: not vault-encrypted as expected"
done
cp -p "$out/secrets/h1.vault" "$out/h1.vault.run1"
cp -p "$out/secrets/shared.vault" "$out/shared.vault.run1"

stored 2 --vault-password-file "$here/vault-password"
cmp -s "$out/secrets/h1.vault" "$out/h1.vault.run1" || fail "run 2 rewrote secrets/h1.vault"
[ "$(stat -c %Y "$out/secrets/h1.vault")" = "$(stat -c %Y "$out/h1.vault.run1")" ] || fail "run 2 touched h1.vault"
[ "$(grep -c 'pwpolicy_password: file=.*/secrets/shared.vault: value regenerated' "$out/run2.log")" = 1 ] ||
    fail "run 2: the shared value was not regenerated exactly once"

# The audit only reads a stored value back: for a file that is missing it reports an error and writes nothing.
cat >"$out/audit-inventory.yml" <<INVENTORY
all:
  hosts:
    h1:
      kickstart_root_password: "{{ lookup('kickstart.pwpolicy.pwpolicy_password', policy='luks', kind='passphrase', file='$out/secrets/h1.vault') }}"
    h2:
      kickstart_root_password: "{{ lookup('kickstart.pwpolicy.pwpolicy_password', policy='root', file='$out/secrets/missing.vault') }}"
  vars:
    kickstart_product: server
    kickstart_target: RHEL9
INVENTORY
ansible-playbook kickstart.pwpolicy.audit -i "$out/audit-inventory.yml" --vault-password-file "$here/vault-password" \
    -e kickstart_fail_on=never -e kickstart_audit_show=none -e "kickstart_audit_json=$out/audit.json" \
    -e kickstart_weakest_link=never >"$out/run-audit.log" 2>&1 || { tail -n 40 "$out/run-audit.log" >&2; fail "the audit"; }
[ ! -e "$out/secrets/missing.vault" ] || fail "the audit stored a value"
"$python" - "$out/audit.json" <<'PYTHON' || fail "the audit's findings for the stored values"
import json, sys
found = dict((f["host"], f) for f in json.load(open(sys.argv[1])) if f.get("host"))
assert found["h1"]["verdict"] == "accepted", found["h1"]
# The lookup's own error, which names the file and never a value, is the finding's reason.
assert found["h2"]["verdict"] == "error", found["h2"]
assert "the audit only reads a stored value, never generates one" in " ".join(found["h2"]["reasons"]), found["h2"]
PYTHON

# Every value stored (the shared one before and after its rotation), decrypted here, shows in no output.
"$python" - "$here" "$out" <<'PYTHON' >"$out/values" || fail "the stored values cannot be decrypted"
import sys
from ansible.parsing.vault import VaultLib, VaultSecret
here, out = sys.argv[1:]
secrets = [(name, VaultSecret(open("%s/%s" % (here, source), "rb").read().strip()))
           for name, source in (("default", "vault-password"), ("other", "other-vault-password"))]
for path in ("shared.vault.run1", "secrets/shared.vault", "secrets/h1.vault", "secrets/h2.vault", "secrets/other.vault"):
    print(VaultLib(secrets).decrypt(open("%s/%s" % (out, path), "rb").read()).decode("utf-8"))
PYTHON
[ "$(sort -u "$out/values" | grep -c .)" = 5 ] || fail "expected 5 different stored values"
while IFS= read -r value; do
    if grep -qF -- "$value" "$out"/run*.log "$out/audit.json"; then
        fail "a stored value shows in the output"
    fi
done <"$out/values"
rm -f "$out/values"

[ "$failures" = 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "lookup_pwpolicy_password: all checks passed"
