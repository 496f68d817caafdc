#!/usr/bin/env python
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Write the tables of docs/docsite/rst/compliance_profiles.rst from the profile model.

    .venv/bin/python tools/gen-compliance-page.py [--check]

Only the part between the ``.. BEGIN GENERATED TABLES`` and ``.. END
GENERATED TABLES`` comments is written; the unit test
tests/unit/plugins/plugin_utils/test_compliance_profiles_page.py keeps it
equal to the data.
"""

import argparse
import importlib
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if "ansible_collections.kickstart.pwpolicy" not in sys.modules:
    sys.path.insert(0, os.path.join(ROOT, "tests", "unit"))
    importlib.import_module("conftest")  # makes the checkout importable as the collection

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _profiles  # noqa: E402

PAGE = os.path.join(ROOT, "docs", "docsite", "rst", "compliance_profiles.rst")
BEGIN = ".. BEGIN GENERATED TABLES\n"
END = ".. END GENERATED TABLES\n"
# One table per group of profiles that hold the same values.
GROUPS = (
    (("stig",), "DISA STIG"),
    (("cis_server_l1", "cis_server_l2", "cis_workstation_l1", "cis_workstation_l2"), "CIS"),
    (("ospp",), "OSPP"),
    (("pci_dss",), "PCI-DSS"),
    (("anssi",), "ANSSI BP-028"),
    (("nist_800_63b",), "NIST SP 800-63B"),
)
KEYS = _profiles.PWQUALITY + _profiles.OTHER


def _shown(value):
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return " or ".join(value)
    return str(value)


def cell(data, key):
    """``value (rule ids)`` of one key in one profile entry, or ``not set``."""
    ids, value = [], None
    for rule in data["rules"]:
        if key in rule["values"]:
            value = rule["values"][key]
            if rule["id"] not in ids:
                ids.append(rule["id"])
    return "not set" if not ids else "%s (%s)" % (_shown(value), ", ".join(ids))


def rows(name):
    """The table of one profile: a list of rows, each a list of cells (setting, RHEL8, RHEL9, RHEL10)."""
    entries = [_profiles.entry(name, target) for target in _profiles.TARGETS]
    table = [["benchmark"] + ["%s, version %s" % (data["benchmark"], data["version"]) for data in entries]]
    for key in KEYS:
        cells = [cell(data, key) for data in entries]
        if any(text != "not set" for text in cells):
            table.append(["``%s``" % key] + cells)
    table.append(["policies root, user, luks"] + [
        "minlen %d, minquality 1, strict, not empty, no changes" % _profiles.pwquality(name, target)["minlen"]
        for target in _profiles.TARGETS])
    other = [", ".join("%s (%s)" % (rule["id"], rule["text"].rstrip(".")) for rule in data["rules"]
                       if not rule["values"]) or "none" for data in entries]
    if any(text != "none" for text in other):
        table.append(["rules without a value"] + other)
    return table


def render():
    out = []
    for names, title in GROUPS:
        out += [title, "~" * len(title), ""]
        out.append("Profile%s %s." % ("s" if len(names) > 1 else "", ", ".join("``%s``" % n for n in names)))
        out += ["", ".. list-table::", "   :header-rows: 1", "   :widths: 16 28 28 28", "",
                "   * - value", "     - RHEL 8", "     - RHEL 9", "     - RHEL 10"]
        for row in rows(names[0]):
            out.append("   * - %s" % row[0])
            out += ["     - %s" % text for text in row[1:]]
        out.append("")
    return "\n".join(out) + "\n"


def page_with_tables(text):
    if BEGIN not in text or END not in text:
        raise SystemExit("%s has no %s ... %s block" % (PAGE, BEGIN.strip(), END.strip()))
    head, rest = text.split(BEGIN, 1)
    dummy, tail = rest.split(END, 1)
    return head + BEGIN + "\n" + render() + "\n" + END + tail


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="fail when the page's tables differ from the data")
    args = parser.parse_args()
    with open(PAGE, encoding="utf-8") as handle:
        text = handle.read()
    wanted = page_with_tables(text)
    if args.check:
        if wanted != text:
            raise SystemExit("%s: the tables differ from the data; run tools/gen-compliance-page.py" % PAGE)
        return
    with open(PAGE, "w", encoding="utf-8") as handle:
        handle.write(wanted)
    print("wrote the tables of %s" % os.path.relpath(PAGE, ROOT))


if __name__ == "__main__":
    sys.exit(main())
