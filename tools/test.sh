#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tools/test.sh all | unit | sanity | integration | molecule | lint | publish ...
#
# Runs the test layers (after `make setup`), each to the end even when an
# earlier one failed, then prints a summary: every layer passed, failed, or
# had nothing to test yet, and a last line "N passed, N failed".  Exits 1
# when any layer failed.  Logs: build/test-logs/<layer>.log.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
VENV="$ROOT/.venv"
VENV_216="$ROOT/.venv-2.16"
VENV_PUB="$ROOT/.venv-publish"
LOGS="$ROOT/build/test-logs"
export ANSIBLE_COLLECTIONS_PATH="$ROOT/build/collections"
export ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 PY_COLORS=0 NO_COLOR=1
mkdir -p "$LOGS"

names=() results=() notes=()
LAST_NAME='' LAST_STATUS=0 LAST_TIME=0
start_all=$SECONDS

record() {  # NAME RESULT NOTE  (the time of the last run is added)
    local note=$3
    [ -n "${LAST_NAME:-}" ] && [ "$LAST_NAME" = "$1" ] && note="${note:+$note, }${LAST_TIME}s"
    names+=("$1") results+=("$2") notes+=("$note")
    set -- "$1" "$2" "$note"
    printf '\n=== %s: %s%s\n' "$1" "$2" "${3:+ ($3)}"
}

# run NAME DIR COMMAND... : run a command of a layer in DIR, output to screen and log.
run() {
    local name=$1 dir=$2 log="$LOGS/$1.log" started=$SECONDS status
    shift 2
    printf '\n=== %s: %s\n' "$name" "$*"
    (cd "$dir" && "$@") 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    LAST_NAME=$name
    LAST_STATUS=$status
    LAST_TIME=$((SECONDS - started))
    return "$status"
}

python_version() {  # VENV -> X.Y
    "$1/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])'
}

with_venv() {  # VENV COMMAND... : run with VENV's bin first on PATH
    local venv=$1
    shift
    PATH="$venv/bin:$PATH" VIRTUAL_ENV="$venv" "$@"
}

layer_unit() {
    if [ -z "$(find tests/unit -name 'test_*.py' 2>/dev/null)" ]; then
        record unit "nothing to test yet" "no tests/unit/**/test_*.py"
        return
    fi
    run unit . with_venv "$VENV" pytest -q -n auto -p no:cacheprovider tests/unit
    case $LAST_STATUS in
        0) record unit passed "pytest -n auto" ;;
        5) record unit "nothing to test yet" "pytest collected no tests" ;;
        *) record unit FAILED "pytest exit $LAST_STATUS; log: build/test-logs/unit.log" ;;
    esac
}

# A fresh copy of the collection as ansible_collections/kickstart/pwpolicy.
tree_copy() {  # DIR -> prints the collection root inside it
    "$VENV/bin/python" "$ROOT/tools/tree-copy.py" "$ROOT/build/$1"
}

layer_sanity() {
    local tree pyver
    "$ROOT/tools/seed-get-pip.sh" "$VENV"
    tree=$(tree_copy sanity) || { record sanity FAILED "could not copy the tree"; return; }
    pyver=$(python_version "$VENV")
    if run sanity "$tree" with_venv "$VENV" ansible-test sanity --local --python "$pyver" --color no; then
        record sanity passed "ansible-test sanity, Python $pyver"
    else
        record sanity FAILED "ansible-test sanity exit $LAST_STATUS; log: build/test-logs/sanity.log"
    fi
    if run docs-lint "$tree" with_venv "$VENV" antsibull-docs lint-collection-docs --plugin-docs --check-extra-docs-refs .; then
        record docs-lint passed "antsibull-docs lint-collection-docs --plugin-docs --check-extra-docs-refs"
    else
        record docs-lint FAILED "log: build/test-logs/docs-lint.log"
    fi
    if run changelog-lint . with_venv "$VENV" antsibull-changelog lint; then
        record changelog-lint passed "antsibull-changelog lint"
    else
        record changelog-lint FAILED "log: build/test-logs/changelog-lint.log"
    fi
}

integration_with() {  # LABEL VENV
    local venv=$2 tree pyver name="integration-$1"
    if [ ! -x "$venv/bin/ansible-test" ]; then
        record "$name" FAILED "$venv has no ansible-test (run make setup)"
        return
    fi
    tree=$(tree_copy "$name") || { record "$name" FAILED "could not copy the tree"; return; }
    pyver=$(python_version "$venv")
    # ansible-test points ANSIBLE_COLLECTIONS_PATH at the copy it runs in.
    if run "$name" "$tree" with_venv "$venv" ansible-test integration --local --python "$pyver" --color no; then
        record "$name" passed "ansible-core $("$venv/bin/python" -c 'from ansible.release import __version__; print(__version__)')"
    else
        record "$name" FAILED "ansible-test integration exit $LAST_STATUS; log: build/test-logs/$name.log"
    fi
}

layer_integration() {
    if [ -z "$(find tests/integration/targets -mindepth 2 -maxdepth 2 -name aliases 2>/dev/null)" ]; then
        record integration "nothing to test yet" "no tests/integration/targets/*/aliases"
        return
    fi
    integration_with 2.19 "$VENV"
    integration_with 2.16 "$VENV_216"
}

layer_molecule() {
    local scenarios
    scenarios=$(find extensions/molecule -mindepth 2 -maxdepth 2 -name molecule.yml 2>/dev/null | sort)
    if [ -z "$scenarios" ]; then
        record molecule "nothing to test yet" "no extensions/molecule/*/molecule.yml"
        return
    fi
    # From the collection root (galaxy.yml here): molecule uses extensions/molecule/
    # and its shared config.yml; the role comes from the installed collection.
    if run molecule . with_venv "$VENV" molecule test --all; then
        record molecule passed "$(echo "$scenarios" | wc -l) scenario(s)"
    else
        record molecule FAILED "log: build/test-logs/molecule.log"
    fi
}

layer_lint() {
    local paths=() p
    # One argument per role: given "roles" itself, ansible-lint resolves a
    # role's task includes against the wrong directory.
    for p in roles/*/ extensions playbooks examples benchmarks/role; do
        if [ -d "$p" ] && [ -n "$(find "$p" \( -name '*.yml' -o -name '*.yaml' \) -print -quit)" ]; then
            paths+=("${p%/}")
        fi
    done
    # .ansible-lint excludes this one for Galaxy's importer (see there); named
    # here, ansible-lint still lints it.
    p=extensions/molecule/audit/converge.yml
    [ -f "$p" ] && paths+=("$p")
    if [ ${#paths[@]} -eq 0 ]; then
        record ansible-lint "nothing to test yet" "no roles, molecule scenarios or playbooks"
    elif run ansible-lint . with_venv "$VENV" ansible-lint --offline --profile production "${paths[@]}"; then
        record ansible-lint passed "production profile: ${paths[*]}"
    else
        record ansible-lint FAILED "log: build/test-logs/ansible-lint.log"
    fi
    if run yamllint . with_venv "$VENV" yamllint --strict .; then
        record yamllint passed "yamllint --strict ."
    else
        record yamllint FAILED "log: build/test-logs/yamllint.log"
    fi
}

# The release, one command away: `antsibull-changelog release` on a copy of
# the tree (docs/releasing.md), then the tarball built from that copy, as
# Galaxy will receive it.  Prints the tarball's path.
release_dry_run() {
    local tree dist="$ROOT/build/release-dist" tarball
    tree=$(tree_copy release) || return 1
    (cd "$tree" && with_venv "$VENV" antsibull-changelog release) || return 1
    [ -f "$tree/CHANGELOG.rst" ] || { echo "no CHANGELOG.rst after the release" >&2; return 1; }
    if ls "$tree"/changelogs/fragments/*.y*ml >/dev/null 2>&1; then
        echo "fragments left after the release" >&2
        return 1
    fi
    rm -rf "$dist"
    (cd "$tree" && with_venv "$VENV" ansible-galaxy collection build --output-path "$dist" .) >&2 || return 1
    tarball=$(ls "$dist"/kickstart-pwpolicy-*.tar.gz) || return 1
    case $'\n'"$(tar -tzf "$tarball")"$'\n' in
        *$'\n'CHANGELOG.rst$'\n'*) ;;
        *) echo "CHANGELOG.rst not in $tarball" >&2; return 1 ;;
    esac
    echo "$tarball"
}

layer_publish() {
    local tarball
    if run release-dry-run . release_dry_run; then
        tarball=$(tail -n 1 "$LOGS/release-dry-run.log")
        record release-dry-run passed "antsibull-changelog release on a copy: $(basename "$tarball")"
    else
        record release-dry-run FAILED "log: build/test-logs/release-dry-run.log"
        tarball=
    fi
    if [ ! -x "$VENV_PUB/bin/python" ]; then
        record galaxy-importer FAILED "$VENV_PUB is missing (run make setup)"
    elif [ -z "$tarball" ]; then
        record galaxy-importer FAILED "no release tarball to import"
    elif run galaxy-importer . with_venv "$VENV_PUB" python tools/check-import.py "$tarball" "$ROOT/build/import"; then
        record galaxy-importer passed "galaxy-importer: no warning, every plugin documented"
    else
        record galaxy-importer FAILED "log: build/test-logs/galaxy-importer.log"
    fi
    if [ ! -x "$VENV_PUB/bin/python" ]; then
        record execution-env FAILED "$VENV_PUB is missing (run make setup)"
    elif run execution-env . with_venv "$VENV_PUB" python tools/check-ee.py \
            docs/execution-environment.yml "$ROOT/build/collections" "$ROOT/build/ee"; then
        record execution-env passed "ansible-builder create + introspect: Fedora 42, UBI 9"
    else
        record execution-env FAILED "log: build/test-logs/execution-env.log"
    fi
    if run docsite . with_venv "$VENV" tools/build-docsite.sh "$ROOT/build/docsite"; then
        record docsite passed "antsibull-docs sphinx-init + sphinx-build -W: build/docsite/build/html"
    else
        record docsite FAILED "log: build/test-logs/docsite.log"
    fi
}

layers=("$@")
if [ ${#layers[@]} -eq 0 ] || [ "${layers[0]}" = all ]; then
    layers=(unit sanity integration molecule lint publish)
fi
for layer in "${layers[@]}"; do
    case $layer in
        unit|sanity|integration|molecule|lint|publish) "layer_$layer" ;;
        *) echo "unknown layer: $layer (unit, sanity, integration, molecule, lint, publish, all)" >&2; exit 2 ;;
    esac
done

passed=0 failed=0
echo
echo "================ summary ================"
for i in "${!names[@]}"; do
    printf '%-18s %-20s %s\n' "${names[$i]}" "${results[$i]}" "${notes[$i]}"
    case ${results[$i]} in
        passed) passed=$((passed + 1)) ;;
        FAILED) failed=$((failed + 1)) ;;
    esac
done
echo "total time: $((SECONDS - start_all))s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
