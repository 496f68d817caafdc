#!/usr/bin/env bash
# Real playbooks with a vaulted vars file and inline !vault values, plus a leak
# test: every run (the failing ones included) goes at -vvv and its output must
# never hold a plaintext password.
set -eu

here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
out="${OUTPUT_DIR:-$(mktemp -d)}/filter_pwpolicy_check"
mkdir -p "$out"

# The plaintexts behind vars/vaulted.vault and the inline values in check.yml.
secrets=(
    'Xk9#mQ2!zLp7qR5@wT'
    'sunshine99'
    'Vq8-alice-Tz3#Wm'
    'Grüße-aus-Köln-Tor-2024!'
    'Summer24'
    'Np4;vR8*tY2&kQ6^zB'
)

export ANSIBLE_NOCOLOR=1
export ANSIBLE_FORCE_COLOR=0
export ANSIBLE_DEPRECATION_WARNINGS=0
export ANSIBLE_LOCALHOST_WARNING=0
export ANSIBLE_INVENTORY_UNPARSED_WARNING=0

runs=0
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# run NAME EXPECTED_RC PLAYBOOK [ansible-playbook args...]
run() {
    local name="$1" expected="$2" playbook="$3"
    shift 3
    local rc=0
    runs=$((runs + 1))
    ansible-playbook -i localhost, -c local -vvv "$playbook" "$@" \
        >"$out/$name.stdout" 2>"$out/$name.stderr" || rc=$?
    if [ "$expected" = 0 ] && [ "$rc" != 0 ]; then
        fail "$name: exit code $rc, expected success"
        tail -n 60 "$out/$name.stdout" "$out/$name.stderr" >&2
    elif [ "$expected" != 0 ] && [ "$rc" = 0 ]; then
        fail "$name: succeeded, expected a failure"
    fi
    local leaked
    leaked="$(leaks "$name")"
    if [ -n "$leaked" ]; then
        fail "$name: plaintext password(s) #$leaked appear in the output"
    fi
    echo "ok: $name (exit $rc)"
}

# leaks NAME: the positions (1-based) of the secrets of which the whole or any
# 6-character piece appears in a run's output.  Never prints the matching line.
leaks() {
    local i=0 found="" secret start
    for secret in "${secrets[@]}"; do
        i=$((i + 1))
        for ((start = 0; start + 6 <= ${#secret}; start++)); do
            if grep -q -F -- "${secret:start:6}" "$out/$1.stdout" "$out/$1.stderr"; then
                found="$found $i"
                break
            fi
        done
    done
    echo "${found# }"
}

# expect NAME TEXT: the run's output holds TEXT
expect() {
    if ! grep -q -F -- "$2" "$out/$1.stdout" "$out/$1.stderr"; then
        fail "$1: output lacks: $2"
    fi
}

vault=(--vault-password-file "$here/vault-password")

# The detector itself: a playbook that prints a password on purpose must be caught.
ansible-playbook -i localhost, -c local -vvv leak_canary.yml "${vault[@]}" \
    >"$out/leak_canary.stdout" 2>"$out/leak_canary.stderr" || fail "leak_canary: did not run"
if [ "$(leaks leak_canary)" != "1" ]; then
    fail "leak_canary: the leak detector missed a printed password"
else
    echo "ok: leak detector catches a printed password"
fi
rm -f "$out/leak_canary.stdout" "$out/leak_canary.stderr"

run check 0 check.yml "${vault[@]}"
expect check "shorter than 15 characters (has 8)"

# The same playbook through the shared library instead of the Python binding.
KICKSTART_PWPOLICY_PWQUALITY_BACKEND=ctypes run check_ctypes 0 check.yml "${vault[@]}"

run fail_assert 2 fail_assert.yml "${vault[@]}"
expect fail_assert "root password: shorter than 15 characters (has 10); is based on a dictionary word; add at least 5 more characters"

run fail_compliant 2 fail_compliant.yml "${vault[@]}"
expect fail_compliant "Assertion failed"

run fail_misplaced 2 fail_misplaced.yml "${vault[@]}"
expect fail_misplaced "not a policy name"

run fail_dictionary 2 fail_dictionary.yml "${vault[@]}" -e "missing_dict=$out/no-such-dict/pw_dict"
expect fail_dictionary "cracklib-runtime"
expect fail_dictionary "no-such-dict/pw_dict.pwd"

run fail_vaulted_args 0 fail_vaulted_args.yml "${vault[@]}"

run inline_only 0 inline_only.yml "${vault[@]}"

run wrong_vault_file 1 check.yml --vault-password-file "$here/wrong-vault-password"
expect wrong_vault_file "Decryption failed"

run wrong_vault_inline 2 inline_only.yml --vault-password-file "$here/wrong-vault-password"
expect wrong_vault_inline "Decryption failed"

echo "$runs runs, $failures failures; outputs in $out"
[ "$failures" = 0 ]
