# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check that an execution environment built from docs/execution-environment.yml
installs what the collection needs.

Usage: check-ee.py EE_FILE COLLECTIONS_DIR WORK_DIR

Runs with the Python of .venv-publish (ansible-builder and bindep).  Offline,
without a container engine:

1. ``ansible-builder create`` writes the build context for EE_FILE into
   WORK_DIR/context; its Containerfile must install the collections of the
   file's galaxy requirements (kickstart.pwpolicy among them) and then run
   ansible-builder's introspection over them.
2. That introspection script, taken from the context, runs over
   COLLECTIONS_DIR (the collection installed from the built tarball) as the
   builder stage runs it over the collections it installed.  It writes the
   pip requirements and the bindep file the image's assemble step installs.
3. The bindep file is evaluated the way bindep does inside the image (default
   profile plus the platform profiles) for each base image family below;
   bindep computes those platform profiles itself from a stand-in
   /etc/os-release answer.  Each must install what the collection needs, and
   none of the packages only the tests need.
"""

import os
import shutil
import subprocess
import sys
from unittest import mock

import yaml
from bindep import depends as bindep_depends
from packaging.requirements import Requirement

# What the collection needs in an execution environment (docs/docsite/rst/awx.rst).
PYTHON_NEEDS = {"pykickstart", "passlib", "zxcvbn"}
# Per base image family: (distro id, version, name) as /etc/os-release says,
# and the system packages: libpwquality (the library the ctypes fallback loads,
# or with its Python binding) and cracklib's dictionaries.
PLATFORMS = {
    "fedora-42": (("fedora", "42", "Fedora Linux"),
                  {"libpwquality", "python3-pwquality", "cracklib-dicts"}),
    "ubi-9": (("rhel", "9.6", "Red Hat Enterprise Linux"),
              {"libpwquality", "cracklib-dicts"}),
}
# bindep.txt's "test" profile: never in an execution environment.
TEST_ONLY = {"make", "git-core", "ShellCheck", "python3.12", "cpio"}


def fail(message):
    print("check-ee: " + message, file=sys.stderr)
    sys.exit(1)


def create_context(ee_file, work):
    context = os.path.join(work, "context")
    shutil.rmtree(context, ignore_errors=True)
    definition = os.path.join(work, "definition")
    shutil.rmtree(definition, ignore_errors=True)
    os.makedirs(definition)
    shutil.copy(ee_file, os.path.join(definition, "execution-environment.yml"))
    builder = os.path.join(os.path.dirname(sys.executable), "ansible-builder")
    subprocess.run([builder, "create", "-f", "execution-environment.yml", "-c", context,
                    "--output-filename", "Containerfile", "-v", "1"],
                   cwd=definition, check=True)
    return context


def check_context(context):
    with open(os.path.join(context, "Containerfile")) as handle:
        containerfile = handle.read()
    expected = ["ansible-galaxy collection install",
                "scripts/introspect.py introspect",
                "/output/scripts/assemble",
                "/output/scripts/install-from-bindep"]
    missing = [step for step in expected if step not in containerfile]
    if missing:
        fail("the Containerfile lacks the steps: " + ", ".join(missing))
    with open(os.path.join(context, "_build", "requirements.yml")) as handle:
        galaxy = yaml.safe_load(handle)
    names = [c.get("name") if isinstance(c, dict) else c for c in galaxy.get("collections", [])]
    if "kickstart.pwpolicy" not in names:
        fail("the context's galaxy requirements do not install kickstart.pwpolicy: %s" % names)
    print("context: %s (installs %s, then introspects)" % (context, ", ".join(names)))


def introspect(context, collections, work):
    script = os.path.join(context, "_build", "scripts", "introspect.py")
    pip_file = os.path.join(work, "requirements.txt")
    bindep_file = os.path.join(work, "bindep.txt")
    subprocess.run([sys.executable, script, "introspect", "--write-pip", pip_file,
                    "--write-bindep", bindep_file, collections], check=True)
    with open(pip_file) as handle:
        pip_names = {Requirement(line.split("#")[0].strip()).name.lower()
                     for line in handle if line.split("#")[0].strip()}
    with open(bindep_file) as handle:
        bindep_text = handle.read()
    return pip_names, bindep_text


def packages_for(bindep_text, os_release):
    distro_id, version, name = os_release
    deps = bindep_depends.Depends(bindep_text)
    with mock.patch.multiple(bindep_depends.distro, id=lambda: distro_id,
                             version=lambda *a, **k: version, codename=lambda: "",
                             name=lambda *a, **k: name):
        profiles = ["default"] + deps.platform_profiles()
    return {rule[0] for rule in deps.active_rules(profiles)}


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: check-ee.py EE_FILE COLLECTIONS_DIR WORK_DIR")
    ee_file, collections, work = (os.path.abspath(a) for a in sys.argv[1:])
    os.makedirs(work, exist_ok=True)
    context = create_context(ee_file, work)
    check_context(context)
    pip_names, bindep_text = introspect(context, collections, work)
    problems = []
    if not PYTHON_NEEDS <= pip_names:
        problems.append("pip lacks %s" % sorted(PYTHON_NEEDS - pip_names))
    print("pip: " + ", ".join(sorted(pip_names)))
    for label, (os_release, needs) in sorted(PLATFORMS.items()):
        packages = packages_for(bindep_text, os_release)
        print("%s: %s" % (label, ", ".join(sorted(packages))))
        if not needs <= packages:
            problems.append("%s lacks %s" % (label, sorted(needs - packages)))
        if packages & TEST_ONLY:
            problems.append("%s installs test-only %s" % (label, sorted(packages & TEST_ONLY)))
    if problems:
        fail("; ".join(problems))
    print("the execution environment installs everything the collection needs")


if __name__ == "__main__":
    main()
