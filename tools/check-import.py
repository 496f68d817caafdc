# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Import a collection tarball the way Galaxy does, and require a clean import.

Usage: check-import.py TARBALL WORK_DIR

Runs with the Python of .venv-publish (galaxy-importer; its bin directory
first on PATH, for ansible-doc and ansible-lint).  galaxy-importer runs
ansible-doc and ansible-lint over the unpacked tarball; ansible-test is off
(it needs a container).  Fails when the importer fails, logs any warning or
error, or lists content without documentation: every module, filter, test,
lookup, inventory, callback, connection and become plugin and every role
needs its docs (ansible-doc, or the role's argument specs), and an action
plugin needs a documented module of the same name.
"""

import json
import os
import subprocess
import sys

DOCUMENTED = {"module", "filter", "test", "lookup", "inventory", "callback",
              "connection", "become", "cache", "cliconf", "httpapi", "netconf",
              "shell", "strategy", "vars", "role"}


def run_importer(tarball, work):
    env = dict(os.environ, GALAXY_IMPORTER_RUN_ANSIBLE_TEST="false",
               GALAXY_IMPORTER_LOG_LEVEL_MAIN="INFO")
    proc = subprocess.run([sys.executable, "-m", "galaxy_importer.main", tarball],
                          cwd=work, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True, check=False)
    print(proc.stdout)
    return proc.returncode, proc.stdout


def undocumented(result):
    docs = {}
    for entry in result["docs_blob"]["contents"]:
        key = (entry["content_type"], entry["content_name"])
        docs[key] = docs.get(key) or bool(entry.get("doc_strings") or entry.get("readme_html"))
    problems = []
    for (kind, name), has_docs in sorted(docs.items()):
        if kind == "role":
            has_docs = bool(next(c for c in result["contents"]
                                 if c["content_type"] == "role" and c["name"] == name).get("description"))
        if kind in DOCUMENTED and not has_docs:
            problems.append("%s %s has no documentation" % (kind, name))
        if kind == "action" and not docs.get(("module", name)):
            problems.append("action %s has no documented module of its name" % name)
    return problems


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check-import.py TARBALL WORK_DIR")
    tarball, work = (os.path.abspath(a) for a in sys.argv[1:])
    os.makedirs(work, exist_ok=True)
    result_file = os.path.join(work, "importer_result.json")
    if os.path.exists(result_file):
        os.remove(result_file)
    status, output = run_importer(tarball, work)
    problems = []
    if status != 0 or "Importer processing completed successfully" not in output:
        problems.append("galaxy-importer failed (exit %d)" % status)
    problems += [line for line in output.splitlines() if line.startswith(("WARNING", "ERROR"))]
    if os.path.exists(result_file):
        with open(result_file) as handle:
            problems += undocumented(json.load(handle))
    elif not problems:
        problems.append("galaxy-importer wrote no importer_result.json")
    if problems:
        print("check-import: the import is not clean:", file=sys.stderr)
        for problem in problems:
            print("  " + problem, file=sys.stderr)
        sys.exit(1)
    print("check-import: clean import of %s" % os.path.basename(tarball))


if __name__ == "__main__":
    main()
