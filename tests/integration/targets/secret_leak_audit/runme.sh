#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Secret-leak audit: every module, action, filter, test, role path and the audit
# playbook (over hosts and files, with its reports) that handles a
# secret runs at -vvv (with --diff and --check where they apply, failures
# included) on marker secrets.  After each run scan.py looks for any trace of
# a marker in stdout, stderr, the Ansible log, the registered results, the
# temporary directories and every file in the working directory except the
# kickstarts themselves, which must be mode 0600 (and, from the role, hold
# hashes of the marker passwords, not the passwords).  A canary run that
# leaks on purpose proves the scan finds leaks.
set -eu
umask 077

here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
base="${OUTPUT_DIR:-$(mktemp -d)}/secret_leak_audit"
rm -rf "$base"
runs="$base/runs" results="$base/results" work="$base/work"
# The temporary directories Ansible and Python get (TMPDIR among them) lie
# under the short system one, not under $base: ansible-core 2.21 starts its
# local worker on a socket in TMPDIR, and a socket path has at most 107
# bytes, which ansible-test's output directory alone comes close to.
tmp="$(mktemp -d "${TMPDIR:-/tmp}/kspw-leak.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$runs" "$results" "$work/ks" "$work/conf" "$work/role/out" "$work/role/host_vars" \
    "$tmp/local" "$tmp/remote" "$tmp/py"

# The markers.  They exist only in this script's memory, in the kickstarts
# written below (where secrets belong) and vault-encrypted in $work.
m_root_strong='LEAKMARK-r00t-Qz8%vT2!wX9p'
m_root_weak='LEAKMARK-w3ak'
# The root password of a --check --diff run that changes it.
m_root_changed='LEAKMARK-r00t2-Hy6%pU3!kZ8m'
# shellcheck disable=SC2016  # the $ signs are part of the markers
m_user_strong='LEAKMARK-us3r-Hk4$mB7&nC1q'
# shellcheck disable=SC2016
m_luks_strong='LEAKMARK l4ks "Jd6 #Pw3 $y8 '\''Tq'
m_luks_newline=$'LEAKMARK-luks-Nl7#\nZq9x-2nd-Wv4$'
m_inline_strong='LEAKMARK-inl1ne-Vp5%tR8*zM2'
m_inline_weak='LEAKMARKin'
# Backslash and both quotes: pykickstart shows such a value in Python's escaped form.
m_escaped='LEAKMARK-esc\ape"dq'\''sq-Wz4'
# The secrets of a STIG host (the STIG allows no more than 4 characters of one
# class in a row, hence the mixed case), and its boot-loader passwords.
m_stig_root='LeakMark-r00t-Gq7%wZ4!vX8n'
# shellcheck disable=SC2016
m_stig_user='LeakMark-st1gUsr-Hk4$mB7&nC1q'
m_stig_luks='LeakMark-l4ks-Jd6#Pw3*Tq8@'
m_boot_strong='LeakMark-b00t-Rb2#kT5^yN9d'
m_boot_weak='LeakMark-qzgrub'
m_boot_other='LeakMark-b00t-0ther-Vz3!qP7'
# Tokens in the user part of a URL (GitHub's TOKEN:x-oauth-basic@, a package host's TOKEN:@), and the
# secret of a kickstart given as content with a NUL in it.
m_url_token='LEAKMARK-urlT0ken-Fm3xZq7Rb1Wy'
m_url_empty='LEAKMARK-pkgKey-Jw5rN8sD2vL6'
m_content_nul='LEAKMARK-nulC0ntent-Gd6yPs9Kc4Tj'
markers=("$m_root_strong" "$m_root_weak" "$m_user_strong" "$m_luks_strong" "$m_luks_newline"
         "$m_inline_strong" "$m_inline_weak" "$m_escaped" "$m_stig_root" "$m_stig_user" "$m_stig_luks"
         "$m_boot_strong" "$m_boot_weak" "$m_boot_other" "$m_url_token" "$m_url_empty" "$m_content_nul"
         "$m_root_changed")

# The Python that runs Ansible (it has pykickstart and libpwquality's binding).
python="$(ansible-playbook --version | sed -n 's/^  python version = .*(\(.*\))$/\1/p')"
[ -x "$python" ] || python="$(command -v python3 || command -v python)"
vault=(--vault-password-file "$here/vault-password")
# Guess estimates run where zxcvbn is installed (the filter's estimate paths).
zxcvbn=false
"$python" -c "import zxcvbn" 2>/dev/null && zxcvbn=true

export ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0
export ANSIBLE_DEPRECATION_WARNINGS=0 ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0
export ANSIBLE_LOCAL_TEMP="$tmp/local" ANSIBLE_REMOTE_TEMP="$tmp/remote" TMPDIR="$tmp/py"
export ANSIBLE_PYTHON_INTERPRETER="$python"

failures=0 count=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# scan ARGS... : scan.py with the markers on stdin; prints its findings.
scan() {
    printf '%s\0' "${markers[@]}" | "$python" "$here/scan.py" "$@"
}

# Everything a run may leave: its outputs, the results, the temporary
# directories and the working directory (kickstarts excepted).
scan_all() {
    local stray ks hashes=()
    # The modules' temporary files are hidden files beside their target.
    stray="$(find "$work" -type f \( -name '.*' -o -name '*.tmp*' \) | head -n 3)"
    [ -z "$stray" ] || echo "LEAK: temporary files left behind: $stray"
    # The role's password hashes may be in its kickstarts only.
    for ks in "$work"/role/out/*.ks "$work/ks/at_rest_hashed.ks"; do
        [ -f "$ks" ] && hashes+=(--hashes-of "$ks")
    done
    scan --allow "$work/ks/*" --allow "$work/role/out/*.ks" "${hashes[@]}" \
        --no-temp "$tmp/remote" --no-temp "$tmp/py" --no-temp "$tmp/local" \
        "$runs" "$results" "$tmp" "$work" || true
}

# run NAME EXPECTED_RC PLAYBOOK [ansible-playbook args...]
run() {
    local name="$1" expected="$2" playbook="$3" rc=0 found
    shift 3
    count=$((count + 1))
    ANSIBLE_LOG_PATH="$runs/$name.log" ansible-playbook -vvv "$playbook" \
        -e "work=$work" -e "results=$results" -e "run_name=$name" "$@" \
        >"$runs/$name.stdout" 2>"$runs/$name.stderr" || rc=$?
    if [ "$rc" != "$expected" ]; then
        fail "$name: exit code $rc, expected $expected"
        # The tail may only be shown when it holds no marker.
        if [ -z "$(scan "$runs/$name.stdout" "$runs/$name.stderr")" ]; then
            tail -n 40 "$runs/$name.stdout" "$runs/$name.stderr" >&2
        fi
    fi
    found="$(scan_all)"
    if [ -n "$found" ]; then
        fail "$name: leak(s):"
        echo "$found" >&2
    fi
    echo "ok: $name (exit $rc)"
}

# expect NAME TEXT: the run's output holds TEXT
expect() {
    grep -q -F -- "$2" "$runs/$1.stdout" "$runs/$1.stderr" || fail "$1: output lacks: $2"
}

# ---------------------------------------------------------------- set-up
# Vaulted variables (a whole vaulted file) and inline !vault values, written
# by vault.py in one process (below, with the role's): the steps of its input.
# vault_file OUT NAME VALUE...: OUT vault-encrypted, holding the NAME: VALUE pairs
# vault_inline OUT INDENT NAME VALUE [PASSWORD_FILE]: an inline !vault entry appended to OUT
# vault_text OUT TEXT: TEXT appended to OUT
vault_steps=()
vault_file() {
    local out="$1"
    shift
    vault_steps+=(file "$here/vault-password" "$out" "$(($# / 2))" "$@")
}
vault_inline() {
    vault_steps+=(inline "${5:-$here/vault-password}" "$1" "$2" "$3" "$4")
}
vault_text() {
    vault_steps+=(text "$1" "$2")
}
vault_file "$work/vaulted.yml" audit_root_strong "$m_root_strong" audit_root_weak "$m_root_weak" \
    audit_user_strong "$m_user_strong" audit_luks_strong "$m_luks_strong" \
    audit_luks_newline "$m_luks_newline"
vault_text "$work/inline.yml" $'---\n'
vault_inline "$work/inline.yml" "" audit_inline_strong "$m_inline_strong"
vault_inline "$work/inline.yml" "" audit_inline_weak "$m_inline_weak"

# Breach corpora for the blocklist paths: a sorted SHA1:COUNT file that holds
# the weak root marker's SHA-1 and a range directory that holds the strong
# inline one's.  No output may hold either hash (looked for after the runs).
sha1_of() {
    printf '%s' "$1" | "$python" -c 'import hashlib, sys; print(hashlib.sha1(sys.stdin.buffer.read()).hexdigest().upper())'
}
h_root_weak="$(sha1_of "$m_root_weak")"
h_inline_strong="$(sha1_of "$m_inline_strong")"
mkdir -p "$work/corpus/ranges"
printf '%s:3\n' "$h_root_weak" "$(printf '%040d' 0)" "$(printf '%040d' 0 | tr 0 F)" | LC_ALL=C sort >"$work/corpus/pwned.txt"
printf '%s:5\r\n' "${h_inline_strong:5}" >"$work/corpus/ranges/${h_inline_strong:0:5}.txt"

# Kickstarts holding the markers (the kickstart is where secrets belong).
ks="$work/ks"
head_ks() {
    printf '#version=F30\nlang en_US.UTF-8\nkeyboard us\ntimezone Etc/UTC\n'
}
{
    head_ks
    printf 'rootpw --plaintext %s\n' "$m_root_strong"
    printf 'user --name=audit --password=%s --plaintext\n' "$m_user_strong"
    printf 'autopart --type=lvm --encrypted --passphrase=%q\n' "$m_luks_strong"
    printf '\n%%anaconda\npwpolicy root --minlen=8\n%%end\n'
} >"$ks/edit.ks"
cp "$ks/edit.ks" "$ks/content.ks"
cp "$ks/edit.ks" "$ks/template.ks"
{
    head_ks
    printf 'rootpw --plaintext %s\n%%anaconda\npwpolicy root --minlen=8\n%%end\n' "$m_root_strong"
} >"$ks/absent.ks"
{ head_ks; printf 'rootpw --plaintext %s --bogus\n' "$m_root_strong"; } >"$ks/bad_rootpw.ks"
{ head_ks; printf 'rootpw --plaintext %s %s\n' "$m_root_strong" "$m_inline_strong"; } >"$ks/extra_rootpw.ks"
{ head_ks; printf 'user --name=audit --password="%s --plaintext\n' "$m_user_strong"; } >"$ks/bad_user_quote.ks"
{ head_ks; printf 'rootpw --plaintext %s %q\n' "$m_root_strong" "$m_escaped"; } >"$ks/escaped_rootpw.ks"
{ head_ks; printf 'autopart --encrypted --passphrase=%s --bogus\n' "$m_inline_strong"; } >"$ks/bad_autopart.ks"
{ head_ks; printf 'bootloader --password=%s --iscrypted --bogus\n' "$m_inline_strong"; } >"$ks/bad_bootloader.ks"
{ head_ks; printf '%%anaconda\npwpolicy root --minlen=8\nrootpw --plaintext %s\n%%end\n' "$m_root_strong"; } \
    >"$ks/misplaced.ks"
{ head_ks; printf '%%anaconda\npwpolicy root --minlen=8\n%%end\n%%end\nrootpw --plaintext %s\n' "$m_root_strong"; } \
    >"$ks/stray_end.ks"
{ head_ks; printf '%%anaconda\npwpolicy root --minlen=8\nrootpw --plaintext %s\n' "$m_root_strong"; } \
    >"$ks/unterminated.ks"
cp "$ks/edit.ks" "$ks/refused.ks"
cp "$ks/edit.ks" "$ks/bad_policy.ks"
# ks_secrets_info: hashes of markers (a wordlist holds one of them), a template, a file with a NUL.
# shellcheck disable=SC2016  # a Python program, not shell: nothing to expand
printf '%s\0' "$m_root_weak" "$m_user_strong" | "$python" -c 'import ctypes, sys
lib = ctypes.CDLL("libcrypt.so.1")
lib.crypt.restype = ctypes.c_char_p
lib.crypt.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
root, user = sys.stdin.buffer.read().split(b"\0")[:2]
print("#version=RHEL9")
print("rootpw --iscrypted %s" % lib.crypt(root, b"$6$rounds=1000$atrestsalt").decode())
print("user --name=audit --iscrypted --password=%s" % lib.crypt(user, b"$6$atrestsalt2").decode())' \
    >"$ks/at_rest_hashed.ks"
printf '%s\nsomething-else\n' "$m_root_weak" >"$ks/at_rest_words.txt"
{
    printf '<%%# kind: provision %%>\n<%% if @host.params["lab"] -%%>\n'
    printf 'rootpw --plaintext %s\n<%% else -%%>\nrootpw --iscrypted <%%= root_pass %%>\n<%% end -%%>\n' \
        "$m_root_strong"
    printf 'part / --encrypted --passphrase=%q\n%%packages\n@core\n<%%= section_end -%%>\n' "$m_inline_strong"
} >"$ks/at_rest_template.erb"
{ printf 'rootpw --plaintext %s\n' "$m_root_strong"; printf '\0\1binary\n'; } >"$ks/at_rest_nul.ks"
{
    printf '#version=RHEL9\nurl --url=https://%s:x-oauth-basic@github.com/org/os/\n' "$m_url_token"
    printf 'repo --name=site --baseurl=https://%s:@yum.example.com/el9/\n' "$m_url_empty"
} >"$ks/at_rest_url.ks"
# The content of a ks_secrets_info task, which adds a NUL to it.
printf '#version=RHEL9\nrootpw --plaintext %s\n' "$m_content_nul" >"$ks/content_nul.ks"
chmod 0600 "$ks"/*.ks "$ks"/at_rest_*

# The failing ks_pwpolicy cases (file, and what makes it fail).
cat >"$work/failing.yml" <<'YAML'
---
failing:
  - {file: bad_rootpw.ks}
  - {file: extra_rootpw.ks}
  - {file: escaped_rootpw.ks}
  - {file: bad_user_quote.ks}
  - {file: bad_autopart.ks}
  - {file: bad_bootloader.ks}
  - {file: misplaced.ks, validate: false, policies: {root: {minlen: 10, minquality: "many"}}}
  - {file: stray_end.ks}
  - {file: unterminated.ks}
  - {file: refused.ks, target: F42}
  - {file: bad_policy.ks, policies: {root: {minlen: 2000}}}
  - {file: bad_policy.ks, policies: {rooot: {minlen: 9}}}
  - {file: bad_policy.ks, policies: "not a policy"}
YAML

# An examples-like inventory for the role: one host per delivery, secrets as
# inline !vault values in group_vars; the failure runs override one secret
# with a vaulted extra-vars file.
role="$work/role"
mkdir -p "$role/group_vars"
cat >"$role/inventory.yml" <<YAML
---
all:
  vars:
    ansible_connection: local
    ansible_python_interpreter: "$python"
  hosts:
    server1.example.com:
      kickstart_product: server
      kickstart_target: RHEL9
    workstation1.example.com:
      kickstart_product: workstation
      kickstart_target: F42
    stig1.example.com:
      kickstart_product: server
      kickstart_target: RHEL9
      kickstart_profile: stig
YAML
vault_text "$role/group_vars/all.yml" '---
kickstart_dest: "{{ work }}/role/out/{{ inventory_hostname }}.ks"
kickstart_password_hash_rounds: 5000
kickstart_salt_seed: audit-salt-seed
'
vault_inline "$role/group_vars/all.yml" "" kickstart_root_password "$m_root_strong"
vault_inline "$role/group_vars/all.yml" "" kickstart_luks_passphrase "$m_luks_strong"
vault_text "$role/group_vars/all.yml" $'kickstart_users:\n  - name: audit\n'
vault_inline "$role/group_vars/all.yml" "    " password "$m_user_strong"
vault_text "$role/group_vars/all.yml" $'kickstart_pwpolicies: {root: {minlen: 20}}\n'
# The STIG host: its own secrets (the group's fail the STIG), the boot-loader
# password the STIG requires, and the rounds it asks for.
vault_text "$role/host_vars/stig1.example.com.yml" $'---\nkickstart_password_hash_rounds: 100000\n'
vault_inline "$role/host_vars/stig1.example.com.yml" "" kickstart_root_password "$m_stig_root"
vault_inline "$role/host_vars/stig1.example.com.yml" "" kickstart_luks_passphrase "$m_stig_luks"
vault_inline "$role/host_vars/stig1.example.com.yml" "" kickstart_bootloader_password "$m_boot_strong"
vault_text "$role/host_vars/stig1.example.com.yml" $'kickstart_users:\n  - name: audit\n'
vault_inline "$role/host_vars/stig1.example.com.yml" "    " password "$m_stig_user"
vault_file "$role/weak.yml" kickstart_root_password "$m_root_weak"
vault_file "$role/changed.yml" kickstart_root_password "$m_root_changed"
vault_file "$role/weak_boot.yml" kickstart_bootloader_password "$m_boot_weak"
# A boot-loader password vaulted with a password this run does not have.
printf 'another-vault-password\n' >"$work/other-vault-password"
vault_text "$role/other_vault_boot.yml" $'---\n'
vault_inline "$role/other_vault_boot.yml" "" kickstart_bootloader_password "$m_boot_other" "$work/other-vault-password"
vault_file "$role/newline.yml" kickstart_luks_passphrase "$m_luks_newline"
# verify_secrets: the role's variables of an installed host, vaulted.
vault_file "$work/verify_vars.yml" kickstart_root_password "$m_root_strong" \
    kickstart_bootloader_password "$m_boot_strong"
vault_text "$work/verify_users.yml" $'---\nkickstart_users:\n  - name: audit\n'
vault_inline "$work/verify_users.yml" "    " password "$m_user_strong"
printf '%s\0' "${vault_steps[@]}" | "$python" "$here/vault.py"
unset vault_steps
printf '{"kickstart_content": {"luks_options": "--bogus-option"}}\n' >"$role/invalid.yml"
# Values that would add kickstart lines (an injected rootpw, a %end in a script).
printf '%s\n' '{"kickstart_content": {"finish": "reboot\nrootpw --plaintext injected-by-finish",' \
    '"post_scripts": ["echo ok\n%end\nrootpw --plaintext injected-by-script"],' \
    '"luks_options": "--passphrase=injected-second-passphrase"}}' >"$role/injection.yml"

# ---------------------------------------------------------------- canaries
# 1. A playbook that prints a marker and writes one to a stray file.
ANSIBLE_LOG_PATH="$runs/canary.log" ansible-playbook -vvv -i localhost, -c local canary.yml \
    -e "work=$work" "${vault[@]}" >"$runs/canary.stdout" 2>"$runs/canary.stderr" \
    || fail "canary: did not run"
found="$(scan_all)"
grep -q -F "$runs/canary.stdout: trace of marker(s) #1" <<<"$found" \
    || fail "canary: the scan missed a marker printed to stdout"
grep -q -F "$work/stray.txt: trace of marker(s) #3" <<<"$found" \
    || fail "canary: the scan missed a marker in a stray file"
# 2. A kickstart with plaintext passwords is not a hashed one.
scan --hashed "$ks/edit.ks" >"$base/canary-hashed.txt" \
    && fail "canary: the hash check accepted plaintext passwords"
grep -q 'outside the autopart line' "$base/canary-hashed.txt" \
    || fail "canary: the hash check did not name the plaintext password"
# 3. A kickstart that is not mode 0600 is reported.
chmod 0644 "$ks/content.ks"
scan --allow "$ks/*" "$ks" | grep -q 'mode 0644, not 0600' \
    || fail "canary: the scan missed a kickstart readable by others"
chmod 0600 "$ks/content.ks"
# 4. A password hash of a kickstart anywhere else is reported (the role's
# hashes may be in its kickstarts only).
digest="$(printf '%086d' 0 | tr 0 c)"
printf "rootpw --iscrypted '\$6\$canarysalt\$%s'\n" "$digest" >"$base/canary-hash.ks"
printf 'a log line: %s\n' "$digest" >"$work/stray-hash.txt"
scan --hashes-of "$base/canary-hash.ks" "$work" | grep -q -F "$work/stray-hash.txt: holds a password hash" \
    || fail "canary: the scan missed a password hash in a stray file"
# 5. A boot-loader line with a password in the clear, or with a GRUB 2 hash of
# no marker, is reported (the role's hold a hash of the marker).
printf 'bootloader --password=not-a-hash\n' >"$base/canary-grub-plain.ks"
scan --hashed "$base/canary-grub-plain.ks" | grep -q 'bootloader password is not one --iscrypted GRUB 2 PBKDF2 hash' \
    || fail "canary: the scan missed a boot-loader password in the clear"
"$python" -c 'import hashlib
salt = bytes(range(64))
print("bootloader --iscrypted --password=grub.pbkdf2.sha512.1000.%s.%s" % (
    salt.hex().upper(), hashlib.pbkdf2_hmac("sha512", b"not a marker", salt, 1000).hex().upper()))' \
    >"$base/canary-grub-other.ks"
scan --hashed "$base/canary-grub-other.ks" --grub "$base/canary-grub-other.ks" \
    | grep -q 'bootloader hash is not the hash of any marker' \
    || fail "canary: the scan took a GRUB 2 hash of no marker for one"
rm -f "$work/stray.txt" "$work/stray-hash.txt" "$runs"/canary.* "$base/canary-hashed.txt" "$base/canary-hash.ks" \
    "$base"/canary-grub-*.ks
[ -z "$(scan_all)" ] || fail "canary: leaks remain after its clean-up"
echo "ok: canaries (the scan finds printed, stray and plaintext secrets, stray hashes, loose modes and GRUB 2 lines)"

# ---------------------------------------------------------------- modules
# shellcheck disable=SC2054  # "localhost," is an inline inventory
inv=(-i localhost, -c local)
run ks_module 0 ks_module.yml "${inv[@]}" -e "@$work/failing.yml"
expect ks_module "kickstart line 5"
expect ks_module "<hidden>"
run secrets_info 0 secrets_info.yml "${inv[@]}"
expect secrets_info "line 2 holds a NUL character"
expect secrets_info "line 3 holds a NUL character"

# verify_secrets on an installed tree (outside the scanned directories) whose shadow and user.cfg hold hashes of
# markers: root's and the boot loader's those of the vaulted values, audit's another; at -vvv without no_log, no
# output or file may hold a marker or one of those hashes.
installed="$base/installed"
mkdir -p "$installed/etc" "$installed/boot/grub2"
# shellcheck disable=SC2016  # a Python program, not shell: nothing to expand
printf '%s\0' "$m_root_strong" "$m_root_changed" "$m_boot_strong" | "$python" -c 'import ctypes, hashlib, os, sys
lib = ctypes.CDLL("libcrypt.so.1")
lib.crypt.restype = ctypes.c_char_p
lib.crypt.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
root, other, boot = sys.stdin.buffer.read().split(b"\0")[:3]
out = sys.argv[1]
hashes = [lib.crypt(root, b"$6$rounds=1000$installedsalt").decode(), lib.crypt(other, b"$6$installedsalt2").decode()]
salt = os.urandom(64)
grub = "grub.pbkdf2.sha512.1000.%s.%s" % (salt.hex().upper(), hashlib.pbkdf2_hmac("sha512", boot, salt, 1000).hex().upper())
with open(out + "/etc/shadow", "w") as handle:
    handle.write("root:%s:19700:0:99999:7:::\naudit:%s:19700:0:99999:7:::\n" % tuple(hashes))
with open(out + "/boot/grub2/user.cfg", "w") as handle:
    handle.write("GRUB2_PASSWORD=%s\n" % grub)
with open(out + ".ks", "w") as handle:
    handle.write("rootpw --iscrypted %s\nuser --name=audit --iscrypted --password=%s\n" % tuple(hashes))
    handle.write("bootloader --iscrypted --password=%s\n" % grub)' "$installed"
run verify_secrets 0 verify_secrets.yml "${inv[@]}" "${vault[@]}" -e "@$work/verify_vars.yml" \
    -e "@$work/verify_users.yml" -e "installed=$installed"
found="$(scan --allow "$work/ks/*" --allow "$work/role/out/*.ks" --hashes-of "$installed.ks" \
    "$runs" "$results" "$tmp" "$work" || true)"
[ -z "$found" ] || fail "verify_secrets: installed hashes in the output: $found"

# ---------------------------------------------------------------- audit playbook over hosts and files
# The role's inventory (vaulted markers) and the marker kickstarts and template at rest, in one run: the
# table at -vvv, the JSON, JUnit and SARIF reports.
at_rest=(-e "{\"kickstart_audit_paths\": [\"$work/ks/at_rest_*\", \"$work/ks/edit.ks\"], \"kickstart_audit_budget\": 1}")
run audit_files 2 kickstart.pwpolicy.audit -i "$work/role/inventory.yml" "${vault[@]}" "${at_rest[@]}" \
    -e "kickstart_audit_json=$results/audit.json" -e "kickstart_audit_junit=$results/audit.xml" \
    -e "kickstart_audit_sarif=$results/audit.sarif"
# (the table wraps a long path within its column: the JSON report holds it whole)
grep -q -F "\"file\": \"$work/ks/at_rest_template.erb\"" "$results/audit.json" \
    || fail "audit_files: the JSON report lacks $work/ks/at_rest_template.erb"
expect audit_files "at_rest_template"
expect audit_files "line 2 holds a NUL character"
expect audit_files "SARIF report: $results/audit.sarif"
# The files alone (no inventory host), every finding passing.
run audit_files_only 0 kickstart.pwpolicy.audit -i , "${at_rest[@]}" -e kickstart_fail_on=never \
    -e "kickstart_audit_json=$results/audit_only.json" -e "kickstart_audit_junit=$results/audit_only.xml" \
    -e "kickstart_audit_sarif=$results/audit_only.sarif"
expect audit_files_only "in 6 files checked, none fails (fail_on=never)"

# ---------------------------------------------------------------- filter and test
run filter 0 filter.yml "${inv[@]}" "${vault[@]}" -e "with_zxcvbn=$zxcvbn"
expect filter "shorter than 20 characters"
# The ctypes backend too, where the filter run used libpwquality's Python
# binding (without the binding, that run used ctypes already).
if "$python" -c "import pwquality" 2>/dev/null; then
    KICKSTART_PWPOLICY_PWQUALITY_BACKEND=ctypes run filter_ctypes 0 filter.yml "${inv[@]}" "${vault[@]}" \
        -e results_suffix=_ctypes -e "with_zxcvbn=$zxcvbn"
fi
run filter_assert 2 filter_stop.yml "${inv[@]}" "${vault[@]}" -e stop_on_weak=true
expect filter_assert "Assertion failed"
run filter_error 2 filter_stop.yml "${inv[@]}" "${vault[@]}" -e stop_on_error=true
expect filter_error "pwpolicy_check"
expect filter "appears in a list of breached or common passwords"
expect filter "(stig: maxclassrepeat 4)"
expect filter "blocklist $work/corpus/none.txt: no such file"
expect filter "nist_800_63b forbids composition rules"
# No trace of a corpus hash of a marker (the whole SHA-1, or the part a range file holds).
for digest in "$h_root_weak" "$h_inline_strong"; do
    if grep -q -i -r -F -e "$digest" -e "${digest:5}" "$runs" "$results"; then
        fail "filter: an output holds the SHA-1 of a marker"
    fi
done

# An unknown compliance profile among several that is a marker: '<hidden>', as one given alone.
run profile_element 0 profile_element.yml "${inv[@]}" "${vault[@]}"
expect profile_element "unknown compliance profile '<hidden>' (name 2 of the 2 given)"

# ---------------------------------------------------------------- role
rinv=(-i "$role/inventory.yml")
run role_check 0 role.yml "${rinv[@]}" "${vault[@]}" --check --diff
[ -z "$(ls -A "$role/out")" ] || fail "role_check: --check wrote files"
# A second process polls the kickstarts' modes while the role writes them.
"$python" "$here/watch_mode.py" "$base/watch.stop" "$base/watch.json" \
    "$role/out/server1.example.com.ks" "$role/out/workstation1.example.com.ks" &
watcher=$!
run role_ok 0 role.yml "${rinv[@]}" "${vault[@]}" --diff
touch "$base/watch.stop"
wait "$watcher" || fail "role_ok: the mode watcher failed"
"$python" -c 'import json, sys
report = json.load(open(sys.argv[1]))
sys.exit(0 if report["seen"] > 0 and not report["wider"] else 1)' "$base/watch.json" \
    || fail "role_ok: a kickstart was readable by others while the role wrote it: $(cat "$base/watch.json")"
for host in server1.example.com workstation1.example.com stig1.example.com; do
    [ -f "$role/out/$host.ks" ] || fail "role_ok: no kickstart for $host"
done
found="$(scan --hashed "$role/out/server1.example.com.ks" --hashed "$role/out/workstation1.example.com.ks" \
    --hashed "$role/out/stig1.example.com.ks" --grub "$role/out/stig1.example.com.ks" || true)"
[ -z "$found" ] || { fail "role_ok: kickstart passwords:"; echo "$found" >&2; }
sums="$(cd "$role/out" && sha256sum -- *)"
run role_again 0 role.yml "${rinv[@]}" "${vault[@]}" --diff -e expect_unchanged=true
# --check --diff with another time zone and root password: the diff, both sides
# masked, shows the timezone line and that the password changed, and no hash.
run role_change_diff 0 role.yml "${rinv[@]}" --limit server1.example.com "${vault[@]}" --check --diff \
    -e "@$role/changed.yml" -e '{"kickstart_content": {"timezone": "Europe/Berlin"}}'
expect role_change_diff "+timezone Europe/Berlin"
expect role_change_diff "+rootpw --iscrypted <hidden: changed>"
grep -q -E '[$](1|2[abxy]?|5|6|7|y|gy)[$]|grub[.]pbkdf2' "$runs/role_change_diff.stdout" "$runs/role_change_diff.stderr" \
    && fail "role_change_diff: a hash is in the output"
# Failures on the Server host only (Workstation's root policy is not strict:
# there a weak root password is accepted with a warning and written).
run role_weak 2 role.yml "${rinv[@]}" --limit server1.example.com "${vault[@]}" --diff -e "@$role/weak.yml"
expect role_weak "(fail_on=rejected):"
expect role_weak "kickstart_root_password: root (policy root): rejected: "
# The weakest link below kickstart_min_crack_seconds stops the role on the
# Workstation host (whose policy lets the weak root password pass), with the
# plain-http warning; without zxcvbn, the floor fails with how to install it.
run role_floor 2 role.yml "${rinv[@]}" --limit workstation1.example.com "${vault[@]}" --diff -e "@$role/weak.yml" \
    -e kickstart_min_crack_seconds=31557600 -e kickstart_base_url=http://boot.example.org/ks/
if [ "$zxcvbn" = true ]; then
    # Fedora 42's installer writes yescrypt: so does the role (kickstart_password_hash: auto).
    expect role_floor "below kickstart_min_crack_seconds: root: offline_yescrypt"
    expect role_floor "kickstart_base_url is plain http://"
else
    expect role_floor "pip install zxcvbn"
fi
run role_newline 2 role.yml "${rinv[@]}" --limit server1.example.com "${vault[@]}" --diff -e "@$role/newline.yml"
expect role_newline "line break"
run role_invalid 2 role.yml "${rinv[@]}" --limit server1.example.com "${vault[@]}" --diff -e "@$role/invalid.yml"
expect role_invalid "the rendered kickstart does not validate for "
run role_injection 2 role.yml "${rinv[@]}" --limit server1.example.com "${vault[@]}" --diff -e "@$role/injection.yml"
expect role_injection "kickstart_content.finish: contains a line break"
expect role_injection "kickstart_content.post_scripts[0]: line 2 starts with a section keyword"
expect role_injection "kickstart_content.luks_options: sets --passphrase"
grep -q -F "injected-" "$runs/role_injection.stdout" "$runs/role_injection.stderr" \
    && fail "role_injection: the output repeats an injected value"
# The STIG host: a weak boot-loader password, one this run cannot decrypt, a
# value looser than the profile, and the boot-loader password missing.
run role_boot_weak 2 role.yml "${rinv[@]}" --limit stig1.example.com "${vault[@]}" --diff -e "@$role/weak_boot.yml"
expect role_boot_weak "bootloader (policy root): rejected: "
expect role_boot_weak "(stig: dcredit -1)"
run role_boot_vault 2 role.yml "${rinv[@]}" --limit stig1.example.com "${vault[@]}" --diff \
    -e "@$role/other_vault_boot.yml"
expect role_boot_vault "bootloader (policy root): error: cannot be decrypted with the vault secrets of this run"
expect role_boot_vault "kickstart_bootloader_password"
run role_stig_loose 2 role.yml "${rinv[@]}" --limit stig1.example.com "${vault[@]}" --diff \
    -e '{"kickstart_pwpolicies": {"user": {"minlen": 8}}}'
expect role_stig_loose "kickstart_pwpolicies.user.minlen: 8 is looser than the 15 stig (RHEL9) asks (rule RHEL-09-611090)"
run role_stig_noboot 2 role.yml "${rinv[@]}" --limit stig1.example.com "${vault[@]}" --diff \
    -e '{"kickstart_bootloader_password": null}'
expect role_stig_noboot "kickstart_bootloader_password: is not set, but stig (RHEL9) requires a boot-loader password"
[ "$sums" = "$(cd "$role/out" && sha256sum -- *)" ] || fail "role: a later run changed the kickstarts"

echo "$count runs, $failures failures; outputs in $base"
[ "$failures" = 0 ]
