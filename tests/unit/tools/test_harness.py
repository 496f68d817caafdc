# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tests of the test set-up itself: the tree copy ansible-test runs in and the pip bootstrap stand-in."""

import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TOOLS = os.path.join(ROOT, "tools")

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(cwd, *args):
    subprocess.run(["git"] + list(args), cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                   env=dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
                            GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com"))


def _write(path, text="x\n"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(text)


def test_tree_copy_holds_the_source_files_only(tmp_path):
    repo = tmp_path / "repo"
    (repo / "tools").mkdir(parents=True)
    shutil.copy(os.path.join(TOOLS, "tree-copy.py"), str(repo / "tools" / "tree-copy.py"))
    _write(str(repo / ".gitignore"), "/build/\n/.venv/\n*.pyc\n")
    _write(str(repo / "galaxy.yml"))
    _write(str(repo / "plugins" / "modules" / "gone.py"))
    _write(str(repo / "plugins" / "modules" / "kept.py"), "kept\n")
    _git(str(repo), "init", "-q")
    _git(str(repo), "add", ".")
    _git(str(repo), "commit", "-qm", "init")
    os.remove(str(repo / "plugins" / "modules" / "gone.py"))          # deleted, not yet committed
    _write(str(repo / "plugins" / "filter" / "new.py"))                # new, not ignored
    _write(str(repo / ".venv" / "bin" / "python"))                     # ignored
    _write(str(repo / "plugins" / "filter" / "new.pyc"))               # ignored
    os.symlink("kept.py", str(repo / "plugins" / "modules" / "link.py"))

    dest = tmp_path / "out"
    stale = dest / "ansible_collections" / "kickstart" / "pwpolicy" / "stale.txt"
    _write(str(stale))
    out = subprocess.run([sys.executable, str(repo / "tools" / "tree-copy.py"), str(dest)],
                         check=True, stdout=subprocess.PIPE, universal_newlines=True).stdout
    copy = dest / "ansible_collections" / "kickstart" / "pwpolicy"
    assert out.strip() == str(copy)

    files = set()
    for dirpath, dirnames, filenames in os.walk(str(copy)):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        files.update(os.path.relpath(os.path.join(dirpath, f), str(copy)) for f in filenames)
    assert files == {".gitignore", "galaxy.yml", "tools/tree-copy.py", "plugins/modules/kept.py",
                     "plugins/modules/link.py", "plugins/filter/new.py"}
    assert os.readlink(str(copy / "plugins" / "modules" / "link.py")) == "kept.py"
    assert (copy / "plugins" / "modules" / "kept.py").read_text() == "kept\n"
    # A repository of its own, so ansible-test lists the copy's files, not the parent's.
    assert (copy / ".git").is_dir()


def test_tree_copy_refuses_to_replace_its_own_source(tmp_path):
    # A checkout laid out as X/ansible_collections/kickstart/pwpolicy copied to X
    # would have its source removed; the copy refuses instead.
    source = tmp_path / "ansible_collections" / "kickstart" / "pwpolicy"
    (source / "tools").mkdir(parents=True)
    shutil.copy(os.path.join(TOOLS, "tree-copy.py"), str(source / "tools" / "tree-copy.py"))
    _write(str(source / "galaxy.yml"))
    result = subprocess.run([sys.executable, str(source / "tools" / "tree-copy.py"), str(tmp_path)], check=False,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert result.returncode != 0
    assert "must not contain the source tree" in result.stderr
    assert (source / "galaxy.yml").is_file()


def _load_shim():
    spec = importlib.util.spec_from_file_location("get_pip_shim", os.path.join(TOOLS, "get_pip_shim.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_get_pip_shim_bootstraps_then_installs_what_was_asked(monkeypatch):
    shim = _load_shim()
    calls = []
    monkeypatch.setattr(shim.subprocess, "check_call", lambda cmd, **kwargs: calls.append(cmd))
    shim.main(["--disable-pip-version-check", "pip==24.2", "--no-setuptools", "--no-wheel"])
    assert calls == [
        [sys.executable, "-m", "ensurepip", "--upgrade", "--default-pip"],
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "pip==24.2"],
    ]


def test_get_pip_shim_without_packages_only_bootstraps(monkeypatch):
    shim = _load_shim()
    calls = []
    monkeypatch.setattr(shim.subprocess, "check_call", lambda cmd, **kwargs: calls.append(cmd))
    shim.main(["--no-setuptools"])
    assert [cmd[2] for cmd in calls] == ["ensurepip"]


def _pins(path):
    pins = {}
    with open(path) as handle:
        for line in handle:
            line = line.split("#", 1)[0].strip()
            if "==" in line:
                name, version = line.split("==", 1)
                pins[name.strip().lower().replace("_", "-")] = version.strip()
    return pins


def test_demo_pins_are_the_development_pins():
    runtime = _pins(os.path.join(TOOLS, "requirements-core-2.21.txt"))
    development = _pins(os.path.join(ROOT, "requirements-dev.txt"))
    assert {"ansible-core", "pykickstart", "zxcvbn"} <= set(runtime)
    assert {name: version for name, version in runtime.items() if development.get(name) != version} == {}


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_demo_installs_the_runtime_only(tmp_path):
    # `make -n` prints the recipes it would run without running them, in a
    # copy holding no virtualenv, so every set-up step shows.
    for name in ("Makefile", "requirements.txt", "requirements-dev.txt", "bindep.txt"):
        shutil.copy(os.path.join(ROOT, name), str(tmp_path / name))
    shutil.copytree(TOOLS, str(tmp_path / "tools"))

    def planned(goal):
        return subprocess.run(["make", "-n", goal], cwd=str(tmp_path), check=True, universal_newlines=True,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    demo = planned("demo")
    assert "-r tools/requirements-core-2.21.txt" in demo
    assert "requirements-dev.txt" not in demo
    assert "-r requirements-dev.txt" in planned("setup")
