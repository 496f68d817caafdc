# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The page "Compliance profiles" shows the values the filter returns, each with its rule ids and version."""

import importlib.util
import os

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _profiles as model
from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import ROOT

PAGE = os.path.join(ROOT, "docs", "docsite", "rst", "compliance_profiles.rst")
# The tables in page order, and one profile each stands for.
TABLES = ("stig", "cis_server_l1", "ospp", "pci_dss", "anssi", "nist_800_63b")


def page_text():
    with open(PAGE, encoding="utf-8") as handle:
        return handle.read()


def tables():
    """Every list-table of the page: a list of rows, each a list of cell texts."""
    found = []
    for line in page_text().splitlines():
        stripped = line.strip()
        if stripped == ".. list-table::":
            found.append([])
        elif stripped.startswith("* - ") and found:
            found[-1].append([stripped[4:]])
        elif line.startswith("     - ") and found and found[-1]:
            found[-1][-1].append(stripped[2:])
    return [dict((row[0], row[1:]) for row in table) for table in found]


def test_the_page_is_listed_in_the_user_docs():
    with open(os.path.join(ROOT, "docs", "docsite", "extra-docs.yml"), encoding="utf-8") as handle:
        assert "- compliance_profiles\n" in handle.read()


def test_the_generated_tables_are_what_the_tool_writes_from_the_data():
    spec = importlib.util.spec_from_file_location("gen_compliance_page",
                                                  os.path.join(ROOT, "tools", "gen-compliance-page.py"))
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.page_with_tables(page_text()) == page_text(), "run tools/gen-compliance-page.py"


def test_there_is_one_table_per_group_of_profiles():
    assert len(tables()) == len(TABLES)


@pytest.mark.parametrize("index, name", list(enumerate(TABLES)))
def test_every_value_is_on_the_page_with_its_rule_ids_and_version(index, name):
    table = tables()[index]
    for column, target in enumerate(model.TARGETS):
        data = model.entry(name, target)
        assert table["benchmark"][column] == "%s, version %s" % (data["benchmark"], data["version"])
        found = model.profile(name, target)
        values = dict(found["pwquality"])
        values.update((key, value) for key, value in found["hashing"].items() if value)
        for key in ("bootloader_password", "encryption"):
            if found[key]:
                values[key] = found[key]
        for key, value in values.items():
            cell = table["``%s``" % key][column]
            shown = " or ".join(value) if isinstance(value, list) else ("yes" if value is True else str(value))
            assert cell.startswith(shown + " ("), (name, target, key)
            for rule in data["rules"]:
                if key in rule["values"]:
                    assert rule["id"] in cell, (name, target, key)
        for key in model.PWQUALITY:
            if key not in values and "``%s``" % key in table:
                assert table["``%s``" % key][column] == "not set"
        assert table["policies root, user, luks"][column].startswith("minlen %d," % values["minlen"])


def test_the_sources_are_named():
    text = " ".join(page_text().split())
    assert model.CAC_COMMIT in text
    assert "NIST SP 800-63B-4 (August 2025), section 3.1.1.2" in text
    assert "MIT licence" in text
