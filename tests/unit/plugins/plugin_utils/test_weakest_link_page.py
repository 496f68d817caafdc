# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The page "The weakest link" shows the numbers the code uses: constants, rates and the preset table."""

import math
import os

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _exposure as model
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _guesses
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import NAMES, PRESETS, PRODUCTS
from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import ROOT

PAGE = os.path.join(ROOT, "docs", "docsite", "rst", "weakest_link.rst")
PRINTABLE_ASCII = 95


def page_text():
    with open(PAGE, encoding="utf-8") as handle:
        return handle.read()


def table_rows():
    """Every row of every list-table, as a list of cell texts (continuation lines joined)."""
    rows = []
    for line in page_text().splitlines():
        stripped = line.strip()
        if stripped.startswith("* - "):
            rows.append([stripped[4:]])
        elif stripped.startswith("- ") and rows and line.startswith("     - "):
            rows[-1].append(stripped[2:])
        elif stripped and rows and line.startswith("       ") and not stripped.startswith(".."):
            rows[-1][-1] += " " + stripped
    return rows


def constant_rows():
    return [row for row in table_rows() if row[0].startswith("``") and row[0].strip("`").isupper()]


def test_the_page_is_listed_in_the_user_docs():
    with open(os.path.join(ROOT, "docs", "docsite", "extra-docs.yml"), encoding="utf-8") as handle:
        assert "- weakest_link\n" in handle.read()


def test_every_constant_on_the_page_matches_the_code():
    rows = constant_rows()
    assert len(rows) >= 15
    for row in rows:
        name = row[0].strip("`")
        value = getattr(model, name, None)
        if value is None:
            value = getattr(_guesses, name)
        assert float(row[1]) == pytest.approx(value), name
        assert "http" in row[2] or "same" in row[2] or "assumption" in row[2] or "rounds" in row[2] \
            or "iterations" in row[2] or "kickstart_password_hash_rounds" in row[2] \
            or "cost" in row[2], name


def test_every_rate_constant_of_the_code_is_on_the_page():
    shown = set(row[0].strip("`") for row in constant_rows())
    names = [name for name in dir(model) if name.isupper() and isinstance(getattr(model, name), (int, float))
             and not name.startswith(("ONLINE_", "MIN_", "MAX_"))]
    assert sorted(set(names) - shown) == []


def test_the_rates_in_words_match_the_code():
    text = " ".join(page_text().split())
    options = model.options_from(True)
    for rate in (model.sha512crypt_per_second(options["rounds"], options["devices"]),
                 model.luks_per_second(False, options["devices"]),
                 model.luks_per_second(True, options["devices"]),
                 model.yescrypt_per_second(model.DEFAULT_YESCRYPT_COST, options["devices"])):
        assert "{:,}/s".format(int(float("%.4g" % rate))) in text
    assert "%g guesses/s" % model.ONLINE_SSHD_PER_SECOND in text
    assert "(%g/s)" % model.ONLINE_FAILLOCK_PER_SECOND in text


def expected_preset_rows():
    options = model.options_from(True)
    for product in PRODUCTS:
        for name in NAMES:
            minlen = PRESETS[product][name]["minlen"]
            log10 = round(minlen * math.log10(PRINTABLE_ASCII) - math.log10(2), 2)
            found = model.estimate_summary(name, log10, options)
            yield [product, name, str(minlen), "%.2f" % log10, found["weakest_attack"],
                   model.duration(found["weakest_seconds"])]


def test_the_preset_table_is_what_the_model_computes():
    shown = [row for row in table_rows() if row[0] in PRODUCTS]
    assert shown == list(expected_preset_rows())


def test_every_attack_of_the_model_is_on_the_page_with_what_it_requires():
    found = {}
    for scheme in ("sha512crypt", "yescrypt"):
        options = model.options_from({"input_ks_copy": True, "hash": scheme})
        for name, fips in (("root", False), ("user", False), ("luks", False), ("luks", True)):
            for item in model.exposures(name, 10.0, dict(options, fips=fips)):
                found[item["attack"]] = item["requires"]
    assert {"offline_yescrypt", "root_copy_yescrypt", "root_copy_sha512crypt"} <= set(found)
    attacks = dict((row[1].strip("`"), row[3]) for row in table_rows() if len(row) == 4 and row[1].startswith("``"))
    for attack, requires in found.items():
        assert attack in attacks, attack
        # the page's words begin like the model's (an image "or an image of it" may be worded with a comma)
        assert attacks[attack].replace(",", "").startswith(requires.replace(",", "")), attack
