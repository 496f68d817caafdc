# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   make demo   render the product presets (set-up included)
#   make test   every test layer, with a summary (set-up included)
#   make fuzz   the long fuzz run (docs/fuzzing.md)
#
# Set-up steps are stamped (files inside the virtualenvs and build/), so a
# second run installs nothing.  `make clean` removes build/; `make distclean`
# also removes the virtualenvs.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

VENV        := .venv
VENV_220    := .venv-2.20
VENV_216    := .venv-2.16
VENV_BINDEP := .venv-bindep
VENV_PUB    := .venv-publish
BUILD       := build
COLL_PATH   := $(CURDIR)/$(BUILD)/collections
INSTALLED   := $(COLL_PATH)/ansible_collections/kickstart/pwpolicy/MANIFEST.json

# Everything the built collection is made of (re-install when one changes).
COLLECTION_FILES := $(shell git ls-files -co --exclude-standard 2>/dev/null | grep -vE '^(tools/|\.ci/|Makefile$$|tests/output/)' | while read -r f; do [ -f "$$f" ] && echo "$$f"; done)

export ANSIBLE_COLLECTIONS_PATH := $(COLL_PATH)
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: help setup system system-runtime venv collection demo test unit sanity integration molecule lint publish fuzz bench clean distclean

help:
	@echo "make demo       render the three product presets as %anaconda sections"
	@echo "make test       run every test layer (unit, sanity, integration, molecule, lint, publish)"
	@echo "make unit | sanity | integration | molecule | lint | publish   one layer"
	@echo "make fuzz       the long fuzz run: tests/unit/fuzz with the long hypothesis profile (KSPW_FUZZ_EXAMPLES=N)"
	@echo "make system     only install the missing system packages (bindep.txt)"
	@echo "make setup      only install system packages, create the virtualenvs and install the collection"
	@echo "make bench      benchmarks/bench.py (BENCH_ARGS='--runs 5 --only edit'): table and plot in build/bench/"
	@echo "make clean | distclean"

setup: system venv collection

# The system packages bindep.txt lists, checked by bindep from $(VENV_BINDEP).
# Cheap to re-check every time; installs only what is missing.  `system` is
# what the tests need too (bindep's "test" profile), `system-runtime` only
# what the collection and the demo need.
system:
	@tools/system-deps.sh test

system-runtime:
	@tools/system-deps.sh

venv: $(VENV)/.stamp-dev $(VENV_220)/.stamp-core $(VENV_216)/.stamp-core $(VENV_PUB)/.stamp-publish

# The test matrix (docs/testing.md): $(VENV) = ansible-core 2.21 on Python
# 3.13 with every development tool, $(VENV_220) = ansible-core 2.20 on Python
# 3.12, $(VENV_216) = ansible-core 2.16 on the distribution's Python 3.11 (or
# 3.12), which is also where the libpwquality Python binding is tested.
# tools/make-venv.sh makes each one (again, when its Python is not in range).
# $(VENV) is made in two steps: .stamp-runtime is what running the collection
# needs (ansible-core and requirements.txt, pinned in
# tools/requirements-core-2.21.txt), all `make demo` installs; .stamp-dev adds
# requirements-dev.txt's test tools for `make setup` and `make test`.
$(VENV)/.stamp-runtime: tools/requirements-core-2.21.txt requirements.txt | system-runtime
	@tools/make-venv.sh $(VENV) 13-14 12-12
	$(VENV)/bin/python -m pip install --quiet -r tools/requirements-core-2.21.txt
	@tools/link-pwquality.sh $(VENV)
	@touch $@

$(VENV)/.stamp-dev: requirements-dev.txt $(VENV)/.stamp-runtime
	$(VENV)/bin/python -m pip install --quiet -r requirements-dev.txt
	@touch $@

$(VENV_220)/.stamp-core: tools/requirements-core-2.20.txt | system
	@tools/make-venv.sh $(VENV_220) 12-12 13-14
	$(VENV_220)/bin/python -m pip install --quiet -r tools/requirements-core-2.20.txt
	@tools/link-pwquality.sh $(VENV_220)
	@touch $@

$(VENV_216)/.stamp-core: tools/requirements-core-2.16.txt | system
	@tools/make-venv.sh $(VENV_216) 11-12
	$(VENV_216)/bin/python -m pip install --quiet -r tools/requirements-core-2.16.txt
	@tools/link-pwquality.sh $(VENV_216)
	@touch $@

# The publishing checks (tools/test.sh publish): galaxy-importer and
# ansible-builder in a virtualenv of their own, as galaxy-importer's pins
# clash with requirements-dev.txt's.
$(VENV_PUB)/.stamp-publish: tools/requirements-publish.txt | system
	@tools/make-venv.sh $(VENV_PUB) 13-13 12-12
	$(VENV_PUB)/bin/python -m pip install --quiet -r tools/requirements-publish.txt
	@touch $@

# Build the collection tarball and install it; integration, molecule and the
# demo use this installed copy (ANSIBLE_COLLECTIONS_PATH).
collection: $(INSTALLED)

$(INSTALLED): $(VENV)/.stamp-runtime $(COLLECTION_FILES)
	@mkdir -p $(BUILD)
	@rm -f $(BUILD)/kickstart-pwpolicy-*.tar.gz
	$(VENV)/bin/ansible-galaxy collection build --force --output-path $(BUILD) .
	$(VENV)/bin/ansible-galaxy collection install --force -p $(COLL_PATH) $(BUILD)/kickstart-pwpolicy-*.tar.gz
	@touch $@

# Only what the demo needs: the runtime system packages, $(VENV) and the
# installed collection (no test tools, no other virtualenv).
demo: system-runtime collection
	@tools/demo.sh

test: setup
	@tools/test.sh all

unit sanity integration molecule lint publish: setup
	@tools/test.sh $@

# The fuzz tests with the long hypothesis profile: many more examples, a new
# random start each run, failing examples kept in $(BUILD)/hypothesis and
# replayed first by the next run.  `make test` runs them with the default
# (short, derandomized) profile.  KSPW_FUZZ_EXAMPLES=N changes the budget.
fuzz: setup
	@mkdir -p $(BUILD)
	KSPW_FUZZ_PROFILE=long PATH="$(CURDIR)/$(VENV)/bin:$$PATH" \
	    $(VENV)/bin/python -m pytest -n auto -p no:cacheprovider --hypothesis-show-statistics tests/unit/fuzz

bench: setup
	@if [ -f benchmarks/bench.py ]; then \
	    PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/python benchmarks/bench.py $(BENCH_ARGS); \
	else \
	    echo "no benchmarks yet (benchmarks/bench.py)"; \
	fi

clean:
	rm -rf $(BUILD) tests/output

distclean: clean
	rm -rf $(VENV) $(VENV_220) $(VENV_216) $(VENV_BINDEP) $(VENV_PUB)
