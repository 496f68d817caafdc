#!/usr/bin/env bash
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tools/test.sh [all | GROUP... | LAYER...]
#   GROUP: unit sanity integration molecule lint publish (each a few layers)
#   LAYER: one of the names in LAYERS below, e.g. integration-2.20
#
# Runs the test layers (after `make setup`), each to the end even when another
# failed, in two lanes side by side (one per core; KSPW_TEST_LANES=1 runs them
# one after the other).  Prints one line per layer as it ends, then a summary
# and "N passed, N failed".  Exits 1 when any layer failed.  The full output
# of a layer is in build/test-logs/<layer>.log.  docs/testing.md tells which
# layer runs where and how long each takes.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
VENV="$ROOT/.venv"           # ansible-core 2.21, Python 3.13, every tool
VENV_220="$ROOT/.venv-2.20"  # ansible-core 2.20, Python 3.12
VENV_216="$ROOT/.venv-2.16"  # ansible-core 2.16, the distribution's Python and its pwquality binding
VENV_PUB="$ROOT/.venv-publish"
LOGS="$ROOT/build/test-logs"
PYTHONS="$ROOT/build/pythons"
export ANSIBLE_COLLECTIONS_PATH="$ROOT/build/collections"
export ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 PY_COLORS=0 NO_COLOR=1
# ansible-core 2.21 opens a socket in TMPDIR, whose path is limited to 107 bytes.
export TMPDIR=/tmp

# Every layer: name, the group it belongs to, what it runs.
LAYERS=(
    "unit            unit         pytest tests/unit but modules and module_utils, ansible-core 2.21, Python 3.13"
    "unit-binding    unit         libpwquality binding and verdict tests, Python 3.11 binding required"
    "ansible-units   unit         ansible-test units: modules and module_utils apart, ansible-core 2.21"
    "sanity          sanity       ansible-test sanity (2.21) on every Python 3.9-3.14 found"
    "docs-lint       sanity       antsibull-docs lint-collection-docs"
    "changelog-lint  sanity       antsibull-changelog lint"
    "integration-2.21 integration ansible-test integration, ansible-core 2.21, Python 3.13"
    "integration-2.20 integration ansible-test integration, ansible-core 2.20, Python 3.12"
    "integration-2.16 integration ansible-test integration, ansible-core 2.16, Python 3.11"
    "molecule        molecule     molecule test, each scenario, ansible-core 2.21"
    "ansible-lint    lint         ansible-lint --profile production"
    "yamllint        lint         yamllint --strict"
    "release-dry-run publish      antsibull-changelog release on a copy, then the tarball"
    "galaxy-importer publish      galaxy-importer on the release tarball"
    "execution-env   publish      ansible-builder create + introspect: Fedora 42, UBI 9"
    "docsite         publish      antsibull-docs sphinx-init + sphinx-build -W"
)
# The two lanes (measured, docs/testing.md): about the same time each.
LANE_A=(integration-2.21 integration-2.16 unit-binding release-dry-run galaxy-importer)
LANE_B=(unit sanity docs-lint changelog-lint integration-2.20 ansible-units molecule ansible-lint yamllint execution-env docsite)

python_version() {  # VENV -> X.Y
    "$1/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])'
}

core_version() {  # VENV -> ansible-core's version
    "$1/bin/python" -c 'from ansible.release import __version__; print(__version__)'
}

with_venv() {  # VENV COMMAND... : run with VENV's bin (and build/pythons) first on PATH
    local venv=$1
    shift
    PATH="$venv/bin:$PYTHONS:$PATH" VIRTUAL_ENV="$venv" "$@"
}

tree_copy() {  # NAME -> a fresh copy of the collection under build/NAME; prints its root
    "$VENV/bin/python" "$ROOT/tools/tree-copy.py" "$ROOT/build/$1"
}

# The interpreters ansible-test may use, by absolute path (pyenv's shims exit
# 127 for a version the shell has not selected): build/pythons/python3.N.
link_pythons() {
    local minor py
    mkdir -p "$PYTHONS"
    for minor in 9 10 11 12 13 14; do
        if py=$("$ROOT/tools/find-python.sh" "$minor"); then
            ln -sfn "$py" "$PYTHONS/python3.$minor"
        else
            rm -f "$PYTHONS/python3.$minor"
        fi
    done
}

# --- the layers: each runs in its own directory, all output to its log -----

# Each unit test runs once: the module and module_utils tests in the layer
# ansible-units, every other one here.
do_unit() {
    with_venv "$VENV" python -m pytest -q -p no:cacheprovider -p no:xdist tests/unit \
        --ignore=tests/unit/plugins/modules --ignore=tests/unit/plugins/module_utils
}

do_unit-binding() {
    [ -x "$VENV_216/bin/python" ] || { echo "$VENV_216 is missing (run make setup)"; return 1; }
    "$VENV_216/bin/python" -c 'import pwquality' || { echo "no pwquality binding in $VENV_216"; return 1; }
    KSPW_REQUIRE_BINDING=1 with_venv "$VENV_216" python -m pytest -q -p no:cacheprovider \
        tests/unit/plugins/plugin_utils/test_pwquality.py tests/unit/plugins/plugin_utils/test_verdict.py \
        tests/unit/plugins/plugin_utils/test_verdict_rules.py tests/unit/plugins/plugin_utils/test_verdict_installer_grid.py
}

# The directory "shared" that holds the real-world kickstart corpus, where
# tests/unit/checkout.py finds it (beside the checkout, or beside the main
# checkout of a worktree); fails when there is none.
corpus_shared() {
    "$VENV/bin/python" -c 'import os, sys
sys.path.insert(0, sys.argv[1])
import checkout
corpus = checkout.corpus_dir()
if corpus is None:
    sys.exit(1)
print(os.path.dirname(corpus))' "$ROOT/tests/unit"
}

# The module and module_utils tests, under ansible-test alone: each test in a
# fork, with nothing of ansible-core but its module_utils importable, in a
# virtualenv of tests/unit/requirements.txt.  The controller tests run in the
# layer unit, on the same ansible-core and Python (docs/testing.md).  The copy
# gets the corpus beside it, as the checkout has it.  One worker: the other
# lane has the other core.  The tools the host posture's tests run (cryptsetup,
# grub-mkpasswd-pbkdf2) are required here: KSPW_REQUIRE_TOOLS=1, which reaches
# the tests as tests/unit/require-tools in the copy (ansible-test passes only
# its own variables to pytest).
do_ansible-units() {
    local tree shared
    export KSPW_REQUIRE_TOOLS=1
    tree=$(tree_copy ansible-units) || return 1
    : >"$tree/tests/unit/require-tools"
    if shared=$(corpus_shared); then
        ln -sfn "$shared" "$tree/../shared"
    fi
    cd "$tree" && with_venv "$VENV" ansible-test units --venv --python "$(python_version "$VENV")" --color no \
        --num-workers 1 tests/unit/plugins/modules/ tests/unit/plugins/module_utils/
}

do_sanity() {
    local tree
    "$ROOT/tools/seed-get-pip.sh" "$VENV" || return 1
    link_pythons
    echo "Pythons for ansible-test: $(cd "$PYTHONS" && echo *)"
    tree=$(tree_copy sanity) || return 1
    # No --python: every Python ansible-test supports and finds on PATH.
    cd "$tree" && with_venv "$VENV" ansible-test sanity --local --color no
}

do_docs-lint() {
    local tree
    tree=$(tree_copy docs-lint) || return 1
    cd "$tree" && with_venv "$VENV" antsibull-docs lint-collection-docs --plugin-docs --check-extra-docs-refs .
}

do_changelog-lint() {
    with_venv "$VENV" antsibull-changelog lint
}

# The targets that only manage files with the collection's modules run on the
# newest and the oldest core, not on 2.20 in between: what they exercise of
# ansible-core is the module side (AnsibleModule), which 2.16 and 2.21 span.
# 2.20 runs every target with controller code, and the modules through them
# (docs/testing.md, "What each core runs").
MODULE_ONLY_TARGETS=(anaconda_conf anaconda_conf_info ks_pwpolicy ks_pwpolicy_info)

integration_with() {  # NAME VENV [TARGET TO LEAVE OUT...]
    local name=$1 venv=$2 tree exclude=() target
    shift 2
    for target in "$@"; do exclude+=(--exclude "$target"); done
    [ -x "$venv/bin/ansible-test" ] || { echo "$venv has no ansible-test (run make setup)"; return 1; }
    echo "ansible-core $(core_version "$venv"), Python $(python_version "$venv")"
    [ $# -eq 0 ] || echo "left out on this core: $*"
    tree=$(tree_copy "$name") || return 1
    # ansible-test points ANSIBLE_COLLECTIONS_PATH at the copy it runs in.
    cd "$tree" && with_venv "$venv" ansible-test integration --local --python "$(python_version "$venv")" --color no \
        --continue-on-error "${exclude[@]}"
}
do_integration-2.21() { integration_with integration-2.21 "$VENV"; }
do_integration-2.20() { integration_with integration-2.20 "$VENV_220" "${MODULE_ONLY_TARGETS[@]}"; }
do_integration-2.16() { integration_with integration-2.16 "$VENV_216"; }

do_molecule() {
    # From the collection root (galaxy.yml here): molecule uses extensions/molecule/
    # and its shared config.yml; the role comes from the installed collection.
    # One scenario at a time, so that a failed one does not stop the others.
    local scenario status=0 broken=()
    for scenario in extensions/molecule/*/molecule.yml; do
        scenario=$(basename "$(dirname "$scenario")")
        with_venv "$VENV" molecule test -s "$scenario" || { status=1; broken+=("$scenario"); }
    done
    [ "$status" -eq 0 ] || echo "molecule: failed scenarios: ${broken[*]}"
    return "$status"
}

do_ansible-lint() {
    local paths=() p
    # One argument per role: given "roles" itself, ansible-lint resolves a
    # role's task includes against the wrong directory.
    for p in roles/*/ extensions playbooks examples benchmarks/role; do
        [ -d "$p" ] && paths+=("${p%/}")
    done
    with_venv "$VENV" ansible-lint --offline --profile production "${paths[@]}"
}

do_yamllint() {
    with_venv "$VENV" yamllint --strict .
}

# The release, one command away: `antsibull-changelog release` on a copy of
# the tree (docs/releasing.md), then the tarball built from that copy, as
# Galaxy will receive it, in build/release-dist/.
do_release-dry-run() {
    local tree dist="$ROOT/build/release-dist" tarball
    tree=$(tree_copy release) || return 1
    (cd "$tree" && with_venv "$VENV" antsibull-changelog release) || return 1
    [ -f "$tree/CHANGELOG.rst" ] || { echo "no CHANGELOG.rst after the release"; return 1; }
    if ls "$tree"/changelogs/fragments/*.y*ml >/dev/null 2>&1; then
        echo "fragments left after the release"
        return 1
    fi
    rm -rf "$dist"
    (cd "$tree" && with_venv "$VENV" ansible-galaxy collection build --output-path "$dist" .) || return 1
    tarball=$(ls "$dist"/kickstart-pwpolicy-*.tar.gz) || return 1
    tar -tzf "$tarball" | grep -x CHANGELOG.rst >/dev/null || { echo "CHANGELOG.rst not in $tarball"; return 1; }
    echo "release tarball: $tarball"
}

do_galaxy-importer() {
    local tarball
    [ -x "$VENV_PUB/bin/python" ] || { echo "$VENV_PUB is missing (run make setup)"; return 1; }
    # The release tarball of release-dry-run (same lane, run before this one).
    tarball=$(ls "$ROOT"/build/release-dist/kickstart-pwpolicy-*.tar.gz 2>/dev/null) ||
        { echo "no release tarball: release-dry-run failed or did not run"; return 1; }
    with_venv "$VENV_PUB" python tools/check-import.py "$tarball" "$ROOT/build/import"
}

do_execution-env() {
    [ -x "$VENV_PUB/bin/python" ] || { echo "$VENV_PUB is missing (run make setup)"; return 1; }
    with_venv "$VENV_PUB" python tools/check-ee.py docs/execution-environment.yml "$ROOT/build/collections" "$ROOT/build/ee"
}

do_docsite() {
    with_venv "$VENV" tools/build-docsite.sh "$ROOT/build/docsite"
}

# --- running them ------------------------------------------------------------

run_layer() {  # NAME : run it, log to build/test-logs/NAME.log, print one line
    local name=$1 started=$SECONDS status result
    ( "do_$name" ) >"$LOGS/$name.log" 2>&1 </dev/null
    status=$?
    result=passed
    [ "$status" -eq 0 ] || result=FAILED
    printf '%s %s %s\n' "$result" "$((SECONDS - started))" "$status" >"$LOGS/$name.result"
    printf '%-17s %-7s %5ss   %s\n' "$name" "$result" "$((SECONDS - started))" \
        "$([ "$result" = passed ] || echo "exit $status: build/test-logs/$name.log")"
}

run_lane() {  # NAME... : run the chosen ones among NAME..., in order
    local name
    for name in "$@"; do
        [ -n "${chosen[$name]:-}" ] && run_layer "$name"
    done
    return 0
}

declare -A chosen=() group_of=() what_of=()
for entry in "${LAYERS[@]}"; do
    read -r name group what <<<"$entry"
    group_of[$name]=$group what_of[$name]=$what
done
[ $# -gt 0 ] || set -- all
for arg in "$@"; do
    found=
    for name in "${!group_of[@]}"; do
        if [ "$arg" = all ] || [ "$arg" = "$name" ] || [ "$arg" = "${group_of[$name]}" ]; then
            chosen[$name]=1 found=1
        fi
    done
    if [ -z "$found" ]; then
        echo "unknown layer: $arg (all, unit, sanity, integration, molecule, lint, publish, or a layer of tools/test.sh)" >&2
        exit 2
    fi
done

mkdir -p "$LOGS"
for name in "${!chosen[@]}"; do rm -f "$LOGS/$name.result"; done
start_all=$SECONDS
echo "layer             result   time   (full output: build/test-logs/<layer>.log)"
if [ "${KSPW_TEST_LANES:-2}" = 1 ]; then
    run_lane "${LANE_A[@]}" "${LANE_B[@]}"
else
    run_lane "${LANE_A[@]}" &
    lane_a=$!
    run_lane "${LANE_B[@]}"
    wait "$lane_a"
fi

passed=0 failed=0
echo
echo "================ summary ================"
for entry in "${LAYERS[@]}"; do
    read -r name _ <<<"$entry"
    [ -n "${chosen[$name]:-}" ] || continue
    if read -r result seconds status <"$LOGS/$name.result" 2>/dev/null; then :; else result=FAILED seconds=0; fi
    printf '%-17s %-7s %5ss   %s\n' "$name" "$result" "$seconds" "${what_of[$name]}"
    if [ "$result" = passed ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "total time: $((SECONDS - start_all))s (two lanes side by side)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
