# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""No secret of the kickstart role goes through a conversion whose warning or error shows the value.

Ansible's own messages are not ours to redact: ``"x" | bool`` warns with the
value on ansible-core 2.19 (``The `bool` filter coerced invalid value 'x'``),
parsers (``from_json``, ``from_yaml``, ``to_datetime``) quote what they could
not read, and a conditional that is a secret itself (``when:
kickstart_luks_passphrase``) is refused or warned about with where the value
came from.  This test reads every template and YAML file of the role
(``roles/kickstart/**``) with Jinja's parser, follows each secret through the
variables set from it (``{% set %}``, loops over ``kickstart_users``, macro
arguments, task ``vars:``), and fails on any such use.
"""

import os
import warnings

import jinja2
import pytest
import yaml
from jinja2 import nodes

from ansible_collections.kickstart.pwpolicy.plugins.action.render_kickstart import HASHES_VAR
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import ROLE_VARS, SECRET_ARGS
from ansible_collections.kickstart.pwpolicy.tests.unit.checkout import ROOT

ROLE = os.path.join(ROOT, "roles", "kickstart")
# The role's secrets, as the pre-flight reads them.
SECRETS = frozenset(var for arg, var in ROLE_VARS if arg in SECRET_ARGS)
# What the render action derives from them for the templates: the accounts' crypt hashes.
DERIVED = frozenset((HASHES_VAR,))
# Lists of mappings whose ``password`` is a secret.
ACCOUNT_LISTS = frozenset(("kickstart_users",))
# Filters whose warning or error can show the value they were given.
RISKY_FILTERS = frozenset(("bool", "from_json", "from_yaml", "from_yaml_all", "to_datetime", "strftime"))
# Task keywords that are conditionals (Ansible checks their result's type).
CONDITIONALS = ("when", "that", "failed_when", "changed_when", "until")


def _filter_name(node):
    return node.name.rsplit(".", 1)[-1]


class Scan(object):
    """Secrets and the names set from them, over every source of the role; then what converts them."""

    def __init__(self, sources):
        self.env = jinja2.Environment(extensions=["jinja2.ext.do", "jinja2.ext.loopcontrols"])
        self.sources = [(name, self.parse(text)) for name, text in sources]
        self.secret = set(SECRETS | DERIVED)  # names whose value is (or holds) a secret
        self.accounts = set(ACCOUNT_LISTS)  # names of lists of accounts, and of their loop variables
        self.rendering = set()  # base names of the role's templates whose output holds a secret

    def parse(self, text):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # Jinja on a regex's "\\." in a string literal
            return self.env.parse(text)

    # -- taint -------------------------------------------------------------
    def holds_secret(self, node):
        """Whether the expression ``node`` yields a secret or something made from one."""
        if isinstance(node, nodes.Name):
            return node.name in self.secret
        if isinstance(node, nodes.Getattr) and isinstance(node.node, nodes.Name) and node.node.name in self.accounts:
            return node.attr == "password"
        if isinstance(node, nodes.Getitem) and isinstance(node.node, nodes.Name) and node.node.name in self.accounts:
            return isinstance(node.arg, nodes.Const) and node.arg.value == "password"
        if isinstance(node, nodes.Filter) and _filter_name(node) in ("length", "count", "type_debug"):
            return False  # a length is no secret
        if isinstance(node, (nodes.Test, nodes.Compare)):
            return False  # true or false, never the value
        if isinstance(node, nodes.Call) and getattr(node.node, "name", None) in ("lookup", "query") \
                and len(node.args) > 1 and isinstance(node.args[1], nodes.Const) \
                and os.path.basename(str(node.args[1].value)) in self.rendering:
            return True  # the text of one of the role's templates that writes a secret
        return any(self.holds_secret(child) for child in node.iter_child_nodes())

    def _spread(self, name, tree):
        changed = False
        if name.endswith(".j2") and os.path.basename(name) not in self.rendering and any(
                self.holds_secret(child) for output in tree.find_all(nodes.Output) for child in output.nodes):
            self.rendering.add(os.path.basename(name))
            changed = True
        for assign in tree.find_all(nodes.Assign):
            if isinstance(assign.target, nodes.Name) and assign.target.name not in self.secret \
                    and self.holds_secret(assign.node):
                self.secret.add(assign.target.name)
                changed = True
        for loop in tree.find_all(nodes.For):
            if isinstance(loop.target, nodes.Name) and isinstance(loop.iter, nodes.Name):
                if loop.iter.name in self.accounts and loop.target.name not in self.accounts:
                    self.accounts.add(loop.target.name)
                    changed = True
                elif loop.iter.name in self.secret and loop.target.name not in self.secret:
                    self.secret.add(loop.target.name)
                    changed = True
        macros = dict((macro.name, macro) for macro in tree.find_all(nodes.Macro))
        for call in tree.find_all(nodes.Call):
            macro = macros.get(getattr(call.node, "name", None))
            if macro is None:
                continue
            for param, arg in zip(macro.args, call.args):
                if param.name not in self.secret and self.holds_secret(arg):
                    self.secret.add(param.name)
                    changed = True
        return changed

    def spread(self, assignments):
        """Follow the secrets to a fixpoint; ``assignments`` are ``(name, tree)`` of task variables."""
        changed = True
        while changed:
            changed = False
            for _source, tree in self.sources:
                changed = self._spread(_source, tree) or changed
            for var, tree in assignments:
                if var not in self.secret and any(self.holds_secret(child) for output in tree.find_all(nodes.Output)
                                                  for child in output.nodes):
                    self.secret.add(var)
                    changed = True

    # -- findings ----------------------------------------------------------
    def conversions(self):
        """``(source, filter, expression)`` of every risky filter applied to a secret."""
        found = []
        for source, tree in self.sources:
            for node in tree.find_all(nodes.Filter):
                if _filter_name(node) in RISKY_FILTERS and node.node is not None and self.holds_secret(node.node):
                    found.append((source, _filter_name(node)))
        return found

    def bare_conditionals(self, conditionals):
        """``(source, text)`` of conditionals whose result is a secret itself (its truthiness)."""
        found = []
        for source, text in conditionals:
            expression = self.parse("{{ %s }}" % text)
            (output,) = expression.body
            (value,) = output.nodes
            while isinstance(value, nodes.Not) or isinstance(value, (nodes.And, nodes.Or)):
                value = value.node if isinstance(value, nodes.Not) else value.left
            if not isinstance(value, (nodes.Test, nodes.Compare)) and self.holds_secret(value):
                found.append((source, text))
        return found


def _yaml_strings(value, where, out, conditionals, assignments):
    """Collect the Jinja strings of a YAML document: ``out`` (templates), conditionals, task variables."""
    if isinstance(value, dict):
        for key, item in value.items():
            here = "%s.%s" % (where, key)
            if key in CONDITIONALS:
                for text in (item if isinstance(item, list) else [item]):
                    if isinstance(text, str):
                        conditionals.append((here, text))
            elif key == "vars" and isinstance(item, dict):
                for var, text in item.items():
                    if isinstance(text, str):
                        assignments.append((var, text))
            _yaml_strings(item, here, out, conditionals, assignments)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _yaml_strings(item, "%s[%d]" % (where, index), out, conditionals, assignments)
    elif isinstance(value, str) and ("{{" in value or "{%" in value):
        out.append((where, value))


def scan_sources(files):
    """``(scan, conditionals)`` for ``files``: ``(relative path, text)`` of templates and YAML files."""
    templates, conditionals, assignments = [], [], []
    for name, text in files:
        if name.endswith((".yml", ".yaml")):
            for document in yaml.safe_load_all(text):
                # Defaults and vars files set variables at the top level.
                if isinstance(document, dict) and not name.startswith(("tasks", "handlers", "meta")):
                    assignments.extend((var, item) for var, item in document.items() if isinstance(item, str))
                _yaml_strings(document, name, templates, conditionals, assignments)
        else:
            templates.append((name, text))
    scan = Scan(templates)
    scan.spread([(var, scan.parse(text)) for var, text in assignments])
    return scan, conditionals


def role_files():
    files = []
    for directory, _dirs, names in os.walk(ROLE):
        for name in sorted(names):
            if name.endswith((".j2", ".yml", ".yaml")):
                path = os.path.join(directory, name)
                with open(path) as handle:
                    files.append((os.path.relpath(path, ROLE), handle.read()))
    return files


def test_the_role_never_converts_a_secret_where_ansible_would_show_it():
    scan, conditionals = scan_sources(role_files())
    # The scan follows the secrets into what the role derives from them.
    assert SECRETS == {"kickstart_root_password", "kickstart_users", "kickstart_luks_passphrase",
                       "kickstart_bootloader_password"}
    assert {"hashes", "root_pw", "password", "luks", "kickstart_luks_options",
            "kickstart_account_commands"} <= scan.secret, scan.secret
    assert scan.rendering == {"accounts.j2", "bootloader.j2", "kickstart.ks.j2"}
    assert scan.conversions() == []
    assert scan.bare_conditionals(conditionals) == []


@pytest.mark.parametrize("name, text, expected", [
    ("templates/a.j2", "{{ 'x' if kickstart_luks_passphrase | bool else '' }}", "bool"),
    ("templates/b.j2", "{% set pw = kickstart_root_password | default('') %}{{ pw | ansible.builtin.bool }}", "bool"),
    ("templates/c.j2", "{% for u in kickstart_users %}{{ u.password | from_json }}{% endfor %}", "from_json"),
    ("templates/d.j2", "{% macro m(s) %}{{ s | bool }}{% endmacro %}{{ m(kickstart_root_password) }}", "bool"),
    ("tasks/e.yml", "- name: x\n  ansible.builtin.debug:\n    msg: \"{{ luks_on | bool }}\"\n  vars:\n"
                    "    luks_on: \"{{ kickstart_luks_passphrase | default('') }}\"\n", "bool"),
])
def test_the_scan_finds_a_secret_through_bool(name, text, expected):
    scan, _conditionals = scan_sources([(name, text)])
    assert [found[1] for found in scan.conversions()] == [expected]


@pytest.mark.parametrize("name, text, bare", [
    ("tasks/f.yml", "- ansible.builtin.debug: {msg: x}\n  when: kickstart_luks_passphrase\n", True),
    ("tasks/g.yml", "- ansible.builtin.debug: {msg: x}\n  when: not kickstart_root_password\n", True),
    ("tasks/h.yml", "- ansible.builtin.debug: {msg: x}\n  when: kickstart_luks_passphrase | length > 0\n", False),
    ("tasks/i.yml", "- ansible.builtin.debug: {msg: x}\n  when: kickstart_luks_passphrase is truthy\n", False),
    ("tasks/j.yml", "- ansible.builtin.debug: {msg: x}\n  when: kickstart_pwquality_dropin | bool\n", False),
])
def test_the_scan_finds_a_conditional_that_is_a_secret_itself(name, text, bare):
    scan, conditionals = scan_sources([(name, text)])
    assert bool(scan.bare_conditionals(conditionals)) is bare
    assert scan.conversions() == []
