#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The audit playbook over an inventory of 21 hosts (seven per product, every
# secret vaulted, each host at an address nothing answers on): its exit
# status per kickstart_fail_on, its JSON and JUnit reports against the
# verdicts the inventory was written for (a rejected secret, a weak one a
# non-strict policy accepts, one encrypted with a vault id the run lacks, one
# that refers to an undefined variable, an account name that cannot go on a
# kickstart line), narrowing with kickstart_audit_hosts, each host's weakest
# link (and its floor), the same reports from a playbook of one's own
# (check_secrets on each host, audit_report with weakest_var); kickstarts and
# templates beside the inventory and alone (kickstart_audit_paths), with their
# SARIF report; and no secret, hash or ciphertext in any output at -vvv.
set -eu
umask 077

here="$(cd "$(dirname "$0")" && pwd)"
base="${OUTPUT_DIR:-$(mktemp -d)}/audit"
rm -rf "$base"
mkdir -p "$base/runs"
python="$(ansible-playbook --version | sed -n 's/^  python version = .*(\(.*\))$/\1/p')"
[ -x "$python" ] || python="$(command -v python3 || command -v python)"

export ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 ANSIBLE_DEPRECATION_WARNINGS=0
"$python" "$here/inventory.py" "$base/inventory" "$here/vault-prod" "$here/vault-other" >"$base/expected.json"

failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# audit NAME EXPECTED_RC [ansible-playbook args...]
audit() {
    local name="$1" expected="$2" rc=0
    shift 2
    ansible-playbook kickstart.pwpolicy.audit -vvv -i "$base/inventory/hosts.ini" \
        --vault-id "prod@$here/vault-prod" \
        -e "kickstart_audit_json=$base/runs/$name.json" -e "kickstart_audit_junit=$base/runs/$name.xml" "$@" \
        >"$base/runs/$name.stdout" 2>"$base/runs/$name.stderr" || rc=$?
    [ "$rc" = "$expected" ] || fail "$name: exit status $rc, expected $expected"
    echo "ok: $name (exit $rc)"
}

# has_row NAME ROW [REASON]: the run's table has a row matching the regular expression ROW (where, secret,
# verdict: the whole line), and REASON starts one of the reasons under it.
has_row() {
    awk -v row="$2" -v reason="${3-}" '
        $0 ~ ("^" row "$") { found = 1; if (reason == "") { ok = 1; exit } next }
        found && /^ / { if (index($0, "    reason: " reason) == 1) { ok = 1; exit } next }
        { found = 0 }
        END { exit !ok }' "$base/runs/$1.stdout"
}

# recap NAME HOST: the host's line of the run's PLAY RECAP
recap() {
    sed -n '/^PLAY RECAP/,$p' "$base/runs/$1.stdout" | grep -E "^$2 +:" || true
}

# No line of the table (a row, or a reason or hint under it) is longer than 120 characters.
narrow() {  # NAME
    awk '/^kickstart.pwpolicy audit \(fail_on=/ {on = 1; next} on && /^kickstart.pwpolicy weakest links$/ {on = 0}
         on && length($0) > 120 {bad = 1} /^(PLAY|TASK) / {on = 0} END {exit bad}' "$base/runs/$1.stdout" \
        || fail "$1: a line of the table is longer than 120 characters"
}

verify() {  # NAME FAIL_ON HOST_PREFIX [files]
    "$python" "$here/verify.py" "$base/expected.json" "$base/runs/$1.json" "$base/runs/$1.xml" "$2" "$3" ${4:+"$4"} \
        || fail "$1: the reports do not match the expected verdicts"
}

audit rejected 2
verify rejected rejected ""
grep -q -F "4 of 63 secrets on 4 of 21 hosts fail (fail_on=rejected)" "$base/runs/rejected.stdout" \
    || fail "rejected: no summary line"
has_row rejected "srv03 +root +rejected" "shorter than 15 characters" \
    || fail "rejected: the table has no row for srv03's root password, with its reason under it"
narrow rejected

# Each failing host fails as itself, with what fails (never the host that ran the audit's one task): the recap
# counts it failed; a passing host runs no task of its own (the audit's one task ran on srv01, which passes).
# (-vvv prints each result over several lines, up to a closing brace at the start of a line)
sed -n '/FAILED! =>/,/^}/p' "$base/runs/rejected.stdout" >"$base/runs/rejected.failed"
for host in srv03 srv05 cld04 cld05; do
    recap rejected "$host" | grep -q -E " failed=1 " || fail "rejected: the recap does not count $host failed"
    grep -q -F "fatal: [$host]: FAILED!" "$base/runs/rejected.stdout" || fail "rejected: $host does not fail as itself"
done
recap rejected srv01 | grep -q -E " ok=[1-9][0-9]* .* failed=0 " || fail "rejected: the recap does not count srv01 ok"
for host in srv02 ws02 cld07; do
    recap rejected "$host" | grep -q -E "failed=[1-9]" && fail "rejected: the recap counts the passing $host failed"
done
[ "$(grep -c -F 'FAILED!' "$base/runs/rejected.stdout")" = 4 ] || fail "rejected: not exactly the 4 failing hosts fail"
grep -q -F '1 of 3 secrets fail (fail_on=rejected): root rejected; the reasons are in the audit' \
    "$base/runs/rejected.failed" || fail "rejected: srv03's failure does not name its root password"
grep -q -F "JSON report: $base/runs/rejected.json" "$base/runs/rejected.failed" \
    || fail "rejected: a host's failure does not point at the JSON report"
grep -q -F '"weakest"' "$base/runs/rejected.failed" && fail "rejected: a failure repeats the weakest-link list"

audit weak 2 -e kickstart_fail_on=weak
verify weak weak ""

audit never 0 -e kickstart_fail_on=never
verify never never ""
grep -q -F "failed=1" "$base/runs/never.stdout" && fail "never: a host fails although nothing trips fail_on"
grep -q -F "Fail each host whose secrets fail" "$base/runs/never.stdout" \
    && fail "never: the last play ran on a host although none fails"

# The name before 0.3.0 still works, with a deprecation warning (once).
# Deprecations are off for every other run; this one checks that the earlier name is said to be deprecated.
ANSIBLE_DEPRECATION_WARNINGS=1
audit oldname 2 -e kickstart_audit_fail_on=weak
ANSIBLE_DEPRECATION_WARNINGS=0
verify oldname weak ""
olds=$(cat "$base/runs/oldname.stdout" "$base/runs/oldname.stderr" | tr -s ' \n' ' ' \
    | grep -o "kickstart_audit_fail_on is deprecated: set kickstart_fail_on instead" | wc -l)
[ "$olds" = 1 ] || fail "oldname: the deprecation of kickstart_audit_fail_on shows $olds times, not once"

audit workstation 0 -e kickstart_audit_hosts=workstation
verify workstation rejected "ws"
has_row workstation "ws02 +root +accepted_weak" "libpwquality scores it" || fail "workstation: ws02 not in the table"

# Without any vault password every secret is an error finding, and still no traceback.
rc=0
ansible-playbook kickstart.pwpolicy.audit -i "$base/inventory/hosts.ini" -e kickstart_audit_hosts=cld01 \
    >"$base/runs/novault.stdout" 2>"$base/runs/novault.stderr" || rc=$?
[ "$rc" = 2 ] || fail "novault: exit status $rc, expected 2"
grep -q -F "3 of 3 secrets on 1 of 1 hosts fail" "$base/runs/novault.stdout" || fail "novault: no summary"
if grep -q -i "traceback" "$base/runs/"*.stdout "$base/runs/"*.stderr; then
    fail "a run printed a traceback"
fi

# The weakest link of each host: a row per host, failing only when
# kickstart_min_crack_seconds asks (srv03 and ws02 have short root passwords),
# and the warning about a plain-http kickstart URL.  Without zxcvbn, the
# estimates are skipped with the instruction to install it.
if "$python" -c "import zxcvbn" 2>/dev/null; then
    grep -q -E "^ws02 +root +offline_yescrypt +([0-9.]+ (second|minute|hour|day)s?|instantly) " \
        "$base/runs/never.stdout" \
        || fail "never: no weakest-link row for ws02's root password"
    grep -q -E "^srv01 +(root|user:alice|luks) +offline_[a-z0-9_]+ +[0-9.e+]+ years " "$base/runs/never.stdout" \
        || fail "never: no weakest-link row for srv01"
    audit floor 2 -e kickstart_fail_on=never -e kickstart_min_crack_seconds=31557600 \
        -e kickstart_base_url=http://boot.example.org/ks/
    cat "$base/runs/floor.stdout" "$base/runs/floor.stderr" >"$base/runs/floor.all"
    tr -s ' \n' ' ' <"$base/runs/floor.all" | grep -q -F "below kickstart_min_crack_seconds: srv03, ws02" \
        || fail "floor: srv03 and ws02 are not named below the floor"
    for host in srv03 ws02; do
        recap floor "$host" | grep -q -E " failed=1 " || fail "floor: the recap does not count $host failed"
    done
    grep -q -F "weakest link below kickstart_min_crack_seconds: root (offline_" "$base/runs/floor.stdout" \
        || fail "floor: a host's failure does not name its weakest link"
    # Each warning once for the run: the plain-http one names its hosts, the weakest links below
    # kickstart_warn_crack_seconds are counted (the table has them), not a warning per host.
    # (ansible-core 2.16 wraps warnings at 80 columns: the text is read with the line breaks made spaces)
    tr -s ' \n' ' ' <"$base/runs/floor.all" >"$base/runs/floor.flat"
    grep -q -E "srv01, [a-z0-9, ]+: kickstart_base_url is plain http://" "$base/runs/floor.flat" \
        || fail "floor: no plain-http warning naming its hosts"
    # (one line per distinct text: with and without a LUKS passphrase, not one per host of the twenty)
    [ "$(grep -o -F "kickstart_base_url is plain http://" "$base/runs/floor.flat" | wc -l)" -le 2 ] \
        || fail "floor: the plain-http warning is said for each host, not once for the hosts it concerns"
    grep -q -E "[0-9]+ of [0-9]+ hosts keep a secret below kickstart_warn_crack_seconds \([a-z0-9, ]*srv03" \
        "$base/runs/floor.flat" || fail "floor: the hosts below kickstart_warn_crack_seconds are not counted once"
    if grep -q -E "srv03: root: offline_" "$base/runs/floor.flat"; then
        fail "floor: a warning per host below kickstart_warn_crack_seconds"
    fi
    # The same audit written as a playbook of one's own: check_secrets on each
    # host, then audit_report over the registered results (result_var,
    # weakest_var). The same JSON report, the same weakest links, the same
    # hosts below the floor.
    rc=0
    ansible-playbook "$here/per_host.yml" -vvv -i "$base/inventory/hosts.ini" --vault-id "prod@$here/vault-prod" \
        -e kickstart_fail_on=never -e kickstart_min_crack_seconds=31557600 \
        -e kickstart_base_url=http://boot.example.org/ks/ -e "kickstart_audit_json=$base/runs/perhost.json" \
        >"$base/runs/perhost.stdout" 2>"$base/runs/perhost.stderr" || rc=$?
    [ "$rc" = 2 ] || fail "perhost: exit status $rc, expected 2"
    cmp -s "$base/runs/floor.json" "$base/runs/perhost.json" \
        || fail "perhost: its JSON report differs from the audit playbook's"
    weakest_rows() {  # the rows of the weakest-link table in a run's output
        awk '/^kickstart.pwpolicy weakest links$/ {on = 1; next}
             on && /^(srv|cld|ws)[0-9]+ / {print; next}
             on && !/^host / {on = 0}' "$1"
    }
    weakest_rows "$base/runs/floor.stdout" >"$base/runs/floor.weakest"
    weakest_rows "$base/runs/perhost.stdout" >"$base/runs/perhost.weakest"
    [ "$(wc -l <"$base/runs/floor.weakest")" = 21 ] || fail "floor: the weakest-link table has not 21 rows"
    cmp -s "$base/runs/floor.weakest" "$base/runs/perhost.weakest" \
        || fail "perhost: its weakest-link table differs from the audit playbook's"
    grep -q -F "below kickstart_min_crack_seconds: srv03, ws02" "$base/runs/perhost.stdout" \
        || fail "perhost: srv03 and ws02 are not named below the floor"
else
    cat "$base/runs/never.stdout" "$base/runs/never.stderr" | grep -q -F "pip install zxcvbn" \
        || fail "never: without zxcvbn, no instruction to install it"
fi

# By compliance profile, with a breach corpus: NIST SP 800-63B (which any target
# takes) makes Workstation's root policy strict with 15 characters, as the role
# makes it (the preset is the role's to tighten: no warning on every run), and
# the corpus holds srv02's root password.
audit profile 2 -e kickstart_profile=nist_800_63b -e "kickstart_blocklist=$base/inventory/blocklist.txt"
"$python" "$here/verify.py" "$base/inventory/expected-profile.json" "$base/runs/profile.json" \
    "$base/runs/profile.xml" rejected "" || fail "profile: the reports do not match the expected verdicts"
has_row profile "srv02 +root +rejected" "appears in a list of breached or common passwords" \
    || fail "profile: the table does not say that the corpus holds srv02's root password"
has_row profile "ws02 +root +rejected" "shorter than 15 characters" \
    || fail "profile: ws02's root password is not held to NIST's 15 characters"
# (ansible-core 2.16 wraps warnings: the words are looked for with the line breaks made spaces)
if cat "$base/runs/profile.stdout" "$base/runs/profile.stderr" | tr -s ' \n' ' ' \
    | grep -q -F "as given is looser than"; then
    fail "profile: the audit warns about the preset the profile tightens, which the role does not"
fi
# Bad input: an unknown profile, a profile without the host's target, a corpus that is not there.
audit badprofile 2 -e kickstart_profile=nist -e kickstart_audit_hosts=srv01
# (the reason wraps under its row: the words are looked for with the line breaks made spaces)
tr -s ' \n' ' ' <"$base/runs/badprofile.stdout" | grep -q -F "give one of stig, cis_server_l1, cis_server_l2" \
    || fail "badprofile: the error does not name the profiles to give"
audit notarget 2 -e kickstart_profile=stig -e kickstart_audit_hosts=cld01
grep -q -F "compliance profile 'stig' has no values for target" "$base/runs/notarget.stdout" \
    || fail "notarget: the error does not say that the profile has no values for the host's target"
audit nocorpus 2 -e "kickstart_blocklist=$base/no-such-corpus.txt" -e kickstart_audit_hosts=srv01
grep -q -F "blocklist $base/no-such-corpus.txt: no such file" "$base/runs/nocorpus.stdout" \
    || fail "nocorpus: the error does not name the corpus"

# Without zxcvbn (an import that fails, as where it is not installed), one
# warning for the whole run says how to install it, and the run goes on.
mkdir -p "$base/no-zxcvbn/zxcvbn"
echo 'raise ImportError("zxcvbn is not installed")' >"$base/no-zxcvbn/zxcvbn/__init__.py"
rc=0
PYTHONPATH="$base/no-zxcvbn${PYTHONPATH:+:$PYTHONPATH}" ansible-playbook kickstart.pwpolicy.audit \
    -i "$base/inventory/hosts.ini" --vault-id "prod@$here/vault-prod" -e kickstart_fail_on=never \
    >"$base/runs/nozxcvbn.stdout" 2>"$base/runs/nozxcvbn.stderr" || rc=$?
[ "$rc" = 0 ] || fail "nozxcvbn: exit status $rc, expected 0"
notices=$(cat "$base/runs/nozxcvbn.stdout" "$base/runs/nozxcvbn.stderr" | grep -c "weakest links not estimated on any host" || true)
[ "$notices" = 1 ] || fail "nozxcvbn: $notices warnings about zxcvbn, expected one for the run"

# Kickstarts and templates beside the inventory (kickstart_audit_paths, read
# from the directory the playbook runs in and reported as given): their
# secrets in the same table, JSON and JUnit, and in SARIF, per
# kickstart_fail_on; with no host to audit, the files alone.
repo="$base/repo"
"$python" "$here/files.py" "$repo" >"$base/expected-files.json"
files='{"kickstart_audit_paths": ["ks/*.ks", "templates/*.erb", "cobbler/*"], "kickstart_audit_templates": ["cobbler/*"]}'

# audit_files_only NAME EXPECTED_RC [ansible-playbook args...]: no inventory host, only files
audit_files_only() {
    local name="$1" expected="$2" rc=0
    shift 2
    ansible-playbook kickstart.pwpolicy.audit -vvv -i , -e kickstart_audit_budget=1 \
        -e "kickstart_audit_json=$base/runs/$name.json" -e "kickstart_audit_junit=$base/runs/$name.xml" \
        -e "kickstart_audit_sarif=$base/runs/$name.sarif" "$@" \
        >"$base/runs/$name.stdout" 2>"$base/runs/$name.stderr" || rc=$?
    [ "$rc" = "$expected" ] || fail "$name: exit status $rc, expected $expected"
    echo "ok: $name (exit $rc)"
}

verify_files() {  # NAME FAIL_ON PATH_PREFIX [FINGERPRINTS_OUT [EXPECTED_JSON]]
    local prints="${4:-$base/runs/$1.prints}" expected="${5:-$base/expected-files.json}"
    "$python" "$here/verify_files.py" "$expected" "$base/runs/$1.json" "$base/runs/$1.xml" \
        "$base/runs/$1.sarif" "$2" "$3" "$prints" || fail "$1: the files' reports do not match the expected findings"
}

pushd "$repo" >/dev/null
audit files 2 -e "$files" -e kickstart_audit_budget=1 -e "kickstart_audit_sarif=$base/runs/files.sarif"
verify files rejected "" files
verify_files files rejected ""
# The secrets are counted alone; a finding that is of no secret (a file or a line the audit cannot read) apart.
grep -q -F "7 of 71 secrets and 1 other finding on 4 of 21 hosts and in 4 of 6 files fail (fail_on=rejected)" \
    "$base/runs/files.stdout" \
    || fail "files: no summary line over hosts and files"
has_row files "ks/plain.ks:3 +rootpw +rejected" "the password is written in the clear" \
    || fail "files: the table has no row for the password in the clear"
has_row files "srv03 +root +rejected" "shorter than 15 characters" || fail "files: the table lost srv03's row"
narrow files
# The files are read on the controller: their failure is localhost's, and names them.
recap files localhost | grep -q -E " failed=1 " || fail "files: the recap does not count localhost failed for the files"
recap files srv01 | grep -q -E " failed=0 " || fail "files: srv01, which ran the audit's task, is counted failed"
grep -q -F "fatal: [localhost]: FAILED!" "$base/runs/files.stdout" || fail "files: the files do not fail on localhost"
grep -q -F "in 4 of 6 files fail (fail_on=rejected)" "$base/runs/files.stdout" \
    || fail "files: the files' failure does not count them"
# With --limit leaving localhost out, the files fail on the host the play has (the gate never passes them).
audit limited 2 -e "$files" -e kickstart_audit_budget=0 --limit srv01
recap limited srv01 | grep -q -E " failed=1 " || fail "limited: the files' failure is not srv01's"
recap limited localhost | grep -q . && fail "limited: localhost runs although --limit leaves it out"

audit_files_only filesonly 0 -e "$files" -e kickstart_fail_on=never
verify_files filesonly never "" "$base/runs/filesonly.prints"
grep -q -F "8 secrets in 6 files checked, none fails (fail_on=never)" "$base/runs/filesonly.stdout" \
    || fail "filesonly: no summary line over the files alone"
has_row filesonly "templates/site.erb:5 +rootpw +not_checked" \
    || fail "filesonly: the template's filled-in value is not a row, or is said to be checked"

# A hash below the default rounds is weak: it fails under weak, not under rejected.
audit_files_only lowrejected 0 -e kickstart_audit_paths=ks/low.ks
verify_files lowrejected rejected ks/low.ks
audit_files_only lowweak 2 -e kickstart_audit_paths=ks/low.ks -e kickstart_fail_on=weak
verify_files lowweak weak ks/low.ks
grep -q -F "1 of 1 secrets in 1 of 1 files fail (fail_on=weak)" "$base/runs/lowweak.stdout" \
    || fail "lowweak: no summary line"

# Lines added above the findings move them, and their fingerprints stay.
"$python" "$here/files.py" "$repo" --move 2 >"$base/expected-moved.json"
audit_files_only moved 0 -e "$files" -e kickstart_fail_on=never
verify_files moved never "" "$base/runs/moved.prints" "$base/expected-moved.json"
cmp -s "$base/runs/filesonly.prints" "$base/runs/moved.prints" \
    || fail "moved: the SARIF fingerprints changed when lines moved"

# Judged against the STIG as the installer will read them, with a baseline that waives the password in
# the clear of ks/plain.ks: the deviations (no boot-loader line, no encryption) fail the gate by rule id
# and line; the waived finding stays in every report, as waived; nothing is shown of the secret.
cat >"$base/baseline.yml" <<'BASELINE'
- rule: plaintext
  file: ks/plain.ks
  reason: the lab's throw-away password, retired with the lab
BASELINE
audit_files_only stig 2 -e kickstart_audit_paths=ks/plain.ks -e kickstart_audit_profile=stig \
    -e "kickstart_audit_baseline=$base/baseline.yml"
has_row stig "ks/plain.ks:[0-9]+ +rootpw +rejected [(]waived[)]" \
    || fail "stig: the waived password in the clear is not shown as waived"
has_row stig "ks/plain.ks +stig:RHEL-09-212010 +rejected" "no bootloader line" \
    || fail "stig: the missing boot-loader password is not a row naming its rule"
has_row stig "ks/plain.ks +stig:RHEL-09-231190 +rejected" "no storage command" \
    || fail "stig: the missing encryption is not a row naming its rule"
"$python" - "$base/runs/stig.json" "$base/runs/stig.sarif" "$base/runs/stig.xml" <<'CHECK' || fail "stig: the reports do not carry the waiver and the deviations"
import json, sys
findings = json.load(open(sys.argv[1]))
waived = [f for f in findings if f.get("waived")]
assert [(f["secret"], f["waiver"]) for f in waived] == [("rootpw", "the lab's throw-away password, retired with the lab")]
assert any(f["secret"] == "stig:RHEL-09-212010" and f["rules"] == ["RHEL-09-212010"] for f in findings)
results = json.load(open(sys.argv[2]))["runs"][0]["results"]
assert [r["ruleId"] for r in results if r.get("suppressions")] == ["plaintext"]
assert {"RHEL-09-212010", "RHEL-09-231190"} <= {rule for r in results if r["ruleId"] == "deviation"
                                                   for rule in r["properties"]["profileRules"]}
assert 'skipped message="waived: the lab' in open(sys.argv[3]).read()
CHECK

# A pattern that matches no file fails the gate (a moved directory cannot pass unnoticed); paths of the
# wrong shape are refused by name.
audit_files_only nomatch 2 -e 'kickstart_audit_paths=moved-away/*.ks'
grep -q -F "patterns that match no file: moved-away/*.ks" "$base/runs/nomatch.stdout" \
    || fail "nomatch: the pattern is not named"
audit_files_only badpaths 2 -e '{"kickstart_audit_paths": {"ks": "*.ks"}}'
grep -q -F "audit_report: paths must be a list of glob patterns" "$base/runs/badpaths.stdout" \
    || fail "badpaths: the error does not say what paths must be"
popd >/dev/null
if grep -q -i "traceback" "$base/runs/"*.stdout "$base/runs/"*.stderr; then
    fail "a run over files printed a traceback"
fi

# No secret, no part of one (every secret starts with LEAKMARK, most end with
# the same tail), no hash of a file's and no vault ciphertext in any output or report.
blocklisted="$(cat "$base/inventory/blocklisted.sha1")"
while read -r hash; do
    for pattern in "$hash" "${hash##*\$}"; do
        grep -q -F -r -- "$pattern" "$base/runs" && fail "the outputs hold a hash of a file (or its digest)"
    done
done <"$repo.hashes"
# shellcheck disable=SC2016  # the $ is part of the vault header looked for
for pattern in LEAKMARK 'Qz8%vT2!wX9p' '$ANSIBLE_VAULT' 'AES256' "$blocklisted" "${blocklisted:5}"; do
    if grep -q -i -F -r -- "$pattern" "$base/runs"; then
        fail "the outputs hold '$pattern' (a secret or its ciphertext)"
    fi
done

[ "$failures" = 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "audit: all runs as expected"
