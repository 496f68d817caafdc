# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fuzz the policy model and the anaconda configuration parser/renderer.

* ``normalize_policies`` / ``build_policies`` / ``policy_from`` get arbitrary
  user input (wrong types, unknown names and keys, out-of-range and
  odd-looking numbers, duplicate names): each call raises ``PolicyError`` (or
  ``ReleaseError`` for a bad target) with a message or returns validated
  policies that round-trip through ``Policy.render`` and the kickstart parser.
* ``parse_conf`` gets mutated drop-ins (option soup in ``password_policies``
  lines, duplicate names and options, broken INI, junk characters, CR/CRLF
  mixes): ``ConfError`` with a message, or policies that ``render_conf``
  writes and ``parse_conf`` reads back unchanged.

Strategies in strategies.py; budget: the fuzz profile (docs/fuzzing.md).
"""

import pytest
from hypothesis import Phase, event, example, find, given
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf import ConfError, conf_policies
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf_parse import parse_conf
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf_render import render_conf
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import render_section
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import (
    Policy,
    PolicyError,
    build_policies,
    normalize_policies,
    policy_from,
)
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import ReleaseError

from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz import strategies as fs
from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz.oracles import check_message

POLICY_TARGETS = ("F25", "F30", "F33", "RHEL8", "RHEL9", None, "bogus")
# Targets whose kickstart takes the pwpolicy section (the rendered policies are parsed back).
SECTION_TARGETS = ("F25", "F30", "F33", "RHEL8")
ODD_PRODUCTS = (None, None, "server", "cloud", "workstation", "laptop", 3)


def check_policies(built, context):
    assert isinstance(built, dict), context
    for name, policy in built.items():
        assert isinstance(policy, Policy) and policy.name == name, context
        assert 0 <= policy.minlen <= 1024 and 0 <= policy.minquality <= 100, context
        for flag in ("strict", "emptyok", "changesok"):
            assert isinstance(getattr(policy, flag), bool), context


def roundtrip_kickstart(built, target, context):
    """Rendered policies parse back to themselves."""
    if not built:
        return
    text = render_section(built)
    parsed = parse_kickstart(text, target, validate=True)
    assert parsed.policies == built, "%s: %r parsed back as %r" % (context, built, parsed.policies)


def call_normalize(value, product, target, name):  # pylint: disable=unused-argument
    normalized = normalize_policies(value)
    assert isinstance(normalized, dict)
    # Normalizing its own output changes nothing.
    assert normalize_policies(normalized) == normalized


def call_build(value, product, target, name):  # pylint: disable=unused-argument
    built = build_policies(value, product=product, target=target)
    check_policies(built, "build_policies")
    if target in SECTION_TARGETS:
        roundtrip_kickstart(built, target, "build_policies")


def call_policy_from(value, product, target, name):
    policy = policy_from(value, name=name, product=product, target=target)
    check_policies({policy.name: policy}, "policy_from")


@pytest.mark.parametrize("function", [call_normalize, call_build, call_policy_from],
                         ids=["normalize_policies", "build_policies", "policy_from"])
@given(value=fs.policy_inputs(), product=st.sampled_from(ODD_PRODUCTS), target=st.sampled_from(POLICY_TARGETS),
       name=st.sampled_from((None, None, "root", "user", "admin")))
# Found by the fuzzers: a name that is a list or a dict raised TypeError,
# digit-like strings that int() cannot read raised ValueError.
@example(value={"name": [], "minlen": 8}, product=None, target=None, name=None)
@example(value={"name": {}, "minlen": 8}, product=None, target=None, name=None)
@example(value={"name": "root", "minlen": "\u00b2"}, product=None, target="F33", name=None)
@example(value={"name": "root", "minlen": "++3"}, product=None, target="F33", name=None)
@example(value=[{"name": "root", "minlen": "+\u00b9"}], product=None, target="F33", name=None)
@fs.fuzz_settings(2)
def test_policy_inputs(function, value, product, target, name):
    try:
        function(value, product, target, name)
        event("accepted")
    except (PolicyError, ReleaseError) as exc:
        event(type(exc).__name__)
        check_message(exc, function.__name__)


@given(text=fs.mutated_confs(), target=st.sampled_from(fs.CONF_TARGETS))
@fs.fuzz_settings(10)
def test_conf_inputs(text, target):
    try:
        parsed = parse_conf(text, target)
    except (ConfError, PolicyError) as exc:
        event(type(exc).__name__)
        check_message(exc, "parse_conf")
        return
    event("parsed, %s policies" % ("with" if parsed.policies else "no"))
    if parsed.policies:
        complete = conf_policies(dict((n, p.to_dict()) for n, p in parsed.policies.items()), target=target)
        rendered, _warnings = render_conf(complete)
        again = parse_conf(rendered, target)
        for name, policy in parsed.policies.items():
            want = policy if name != "luks" else policy.replace(changesok=again.policies[name].changesok)
            assert again.policies[name] == want, "%s did not round-trip" % name


@given(value=fs.nested_inputs(), product=st.sampled_from((None, "server", "cloud", "workstation", "bogus")))
@fs.fuzz_settings(3)
def test_generated_policy_input(value, product):
    for function in (normalize_policies, lambda v: build_policies(v, product=product, target="F33"),
                     lambda v: policy_from(v, product=product, target="RHEL8")):
        try:
            result = function(value)
        except PolicyError as exc:
            check_message(exc, repr(value))
            continue
        if isinstance(result, Policy):
            result = {result.name: result}
        if result and all(isinstance(p, Policy) for p in result.values()):
            check_policies(result, repr(value))
            roundtrip_kickstart(result, "F33", repr(value))


@given(line=fs.policy_line_texts())
@fs.fuzz_settings(3)
def test_generated_policy_lines(line):
    text = "[User Interface]\npassword_policies =\n    %s\n" % line
    try:
        parse_conf(text, "F36")
    except ConfError as exc:
        check_message(exc, repr(line))


def accepted(value):
    try:
        build_policies(value, target="F33")
    except PolicyError:
        return False
    return True


@pytest.mark.parametrize("outcome", [True, False], ids=["accepted", "refused"])
def test_policy_inputs_reach_both_outcomes(outcome):
    """The generated input is sometimes accepted, sometimes refused (else the runs above prove little)."""
    find(fs.policy_inputs(), lambda value: accepted(value) == outcome, settings=fs.fuzz_settings(1, phases=[Phase.generate]))
