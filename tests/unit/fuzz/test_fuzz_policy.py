# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fuzz the policy model and the anaconda configuration parser/renderer.

* ``normalize_policies`` / ``build_policies`` / ``policy_from`` get random
  user input (wrong types, unknown names and keys, out-of-range and
  odd-looking numbers, duplicate names): each call raises ``PolicyError`` with
  a message or returns validated policies that round-trip through
  ``Policy.render`` and the kickstart parser.
* ``parse_conf`` gets mutated drop-ins (option soup in ``password_policies``
  lines, duplicate names and options, broken INI, junk characters, CR/CRLF
  mixes): ``ConfError`` with a message, or policies that ``render_conf``
  writes and ``parse_conf`` reads back unchanged.

Size: a share of ``KSPW_FUZZ_EXAMPLES`` (default 10000); see docs/fuzzing.md.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf import ConfError, conf_policies
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf_parse import parse_conf
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._anaconda_conf_render import render_conf
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import render_section
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import (
    FIELDS,
    Policy,
    PolicyError,
    build_policies,
    normalize_policies,
    policy_from,
)

from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz import _ksfuzz as fz

ODD_VALUES = (None, True, False, 0, 1, -1, 8, 1024, 1025, 100, 101, 2 ** 70, -2 ** 70, 1.5, float("nan"),
              float("inf"), "", " ", "8", " 8 ", "+8", "-8", "08", "0x10", "1e3", "\u0663", "\u00b2",
              "\uff18", "yes", "no", "true", "False", "on", "off", "maybe", "y", "1", "0", "\x00",
              "\udcff", [], {}, [8], {"a": 1}, b"8", object(), ("root",))
ODD_NAMES = ("root", "user", "luks", "ROOT", "admin", "", None, 1, ("root",), "root ", "\udcff")
ODD_KEYS = FIELDS + ("bogus", "", "MINLEN", None, 3, "min len")
ERRORS = (PolicyError, ConfError)


def random_input(rng):
    """Arbitrary (mostly malformed) user input for the policy functions."""
    def fields():
        result = {}
        for dummy in range(rng.randint(0, 5)):
            key = rng.choice(ODD_KEYS) if rng.random() < 0.2 else rng.choice(FIELDS[1:])
            result[key] = rng.choice(ODD_VALUES)
        return result

    shape = rng.randrange(6)
    if shape == 0:
        return dict((rng.choice(ODD_NAMES), fields() if rng.random() < 0.9 else rng.choice(ODD_VALUES))
                    for dummy in range(rng.randint(0, 4)))
    if shape == 1:
        items = []
        for dummy in range(rng.randint(0, 4)):
            item = fields()
            if rng.random() < 0.9:
                item["name"] = rng.choice(ODD_NAMES)
            items.append(item if rng.random() < 0.9 else rng.choice(ODD_VALUES))
        return items
    if shape == 2:
        return fz.random_policies(rng)
    if shape == 3:
        return fz.random_policies(rng, valid=False)
    if shape == 4:
        return rng.choice(ODD_VALUES)
    return rng.choice(ODD_NAMES)


def check_policies(built, context):
    assert isinstance(built, dict), context
    for name, policy in built.items():
        assert isinstance(policy, Policy) and policy.name == name, context
        assert 0 <= policy.minlen <= 1024 and 0 <= policy.minquality <= 100, context
        for flag in ("strict", "emptyok", "changesok"):
            assert isinstance(getattr(policy, flag), bool), context


def roundtrip_kickstart(built, target, context):
    """Rendered policies parse back to themselves (targets that take the section)."""
    if not built:
        return
    text = render_section(built)
    parsed = parse_kickstart(text, target, validate=True)
    assert parsed.policies == built, "%s: %r parsed back as %r" % (context, built, parsed.policies)


def one_policy_input(rng, context):
    value = random_input(rng)
    target = rng.choice(("F25", "F30", "F33", "RHEL8", "RHEL9", None, "bogus"))
    product = rng.choice((None, None, "server", "cloud", "workstation", "laptop", 3))
    function = rng.randrange(3)
    try:
        if function == 0:
            normalized = normalize_policies(value)
            assert isinstance(normalized, dict), context
            # Normalizing its own output changes nothing.
            assert normalize_policies(normalized) == normalized, context
        elif function == 1:
            built = build_policies(value, product=product, target=target)
            check_policies(built, context)
            if target in ("F25", "F30", "F33", "RHEL8"):
                roundtrip_kickstart(built, target, context)
        else:
            name = rng.choice((None, None, "root", "user", "admin"))
            policy = policy_from(value, name=name, product=product, target=target)
            check_policies({policy.name: policy}, context)
    except ERRORS as exc:
        fz.check_message(exc, context)
    except Exception as exc:  # pylint: disable=broad-except
        from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import ReleaseError
        if isinstance(exc, ReleaseError):
            fz.check_message(exc, context)
            return None
        return "%s: %s(%r) raised %s: %s" % (
            context, ("normalize_policies", "build_policies", "policy_from")[function], value,
            type(exc).__name__, str(exc)[:200])
    return None


def test_policy_inputs():
    failures = []
    count = fz.budget("policy")
    for index in range(count):
        rng = fz.rng_for("policy", index)
        failure = one_policy_input(rng, fz.describe("policy", index))
        if failure:
            failures.append(failure)
    assert not failures, "%d of %d inputs failed:\n%s" % (len(failures), count, "\n".join(failures[:5]))


CONF_SEEDS = (
    "[User Interface]\ncan_change_root = True\ncan_change_users = False\npassword_policies =\n"
    "    root (quality 1, length 6)\n    user (quality 1, length 6, empty)\n"
    "    luks (quality 1, length 6)\n",
    "[Anaconda]\nactivatable_modules = x\n[User Interface]\npassword_policies = root (quality 30, "
    "length 15, strict)\n",
    "# comment\n[User Interface]\n",
    "",
)
POLICY_LINE_WORDS = ("root", "user", "luks", "admin", "(", ")", "((", "quality", "quality 1", "quality x",
                     "length", "length 6", "length -1", "length 2000", "quality 101", "strict", "strict 1",
                     "empty", "empty yes", "bogus", ",", ",,", " ", "\t", "%(x)s", "%", "\x00", "\udcff",
                     "\u0663", "#", ";", "=", ":")


def mutate_conf(text, rng):
    lines = text.splitlines(True)
    for dummy in range(rng.randint(1, 4)):
        kind = rng.randrange(8)
        at = rng.randrange(len(lines) + 1)
        if kind == 0:
            soup = "".join(rng.choice(POLICY_LINE_WORDS) + rng.choice(("", " ", ", "))
                           for dummy in range(rng.randint(0, 8)))
            lines.insert(at, rng.choice(("    ", "", "\t")) + soup + "\n")
        elif kind == 1:
            lines.insert(at, rng.choice(("[User Interface]\n", "[User Interface\n", "[]\n", "password_policies =\n",
                                         "can_change_root = maybe\n", "can_change_users =\n",
                                         "password_policies = root (quality 1, length 6)\n",
                                         "    root (quality 2, length 7)\n", "key\n", "= value\n")))
        elif kind == 2 and lines:
            lines.insert(at, lines[rng.randrange(len(lines))])
        elif kind == 3 and lines:
            del lines[rng.randrange(len(lines))]
        elif kind == 4:
            joined = "".join(lines)
            lines = [joined[:rng.randrange(len(joined) + 1)]]
        elif kind == 5:
            joined = fz.m_junk_chars("".join(lines), rng)
            lines = joined.splitlines(True)
        elif kind == 6:
            joined = fz.m_newlines("".join(lines), rng)
            lines = joined.splitlines(True)
        else:
            joined = fz.m_quotes("".join(lines), rng)
            lines = joined.splitlines(True)
    return "".join(lines)


def test_conf_inputs():
    failures = []
    count = fz.budget("conf")
    for index in range(count):
        rng = fz.rng_for("conf", index)
        text = mutate_conf(rng.choice(CONF_SEEDS), rng)
        target = rng.choice((None, "F34", "F36", "F40", "RHEL9", "RHEL10", "F30", "bogus"))
        context = fz.describe("conf", index, " %r" % text[:200])
        try:
            parsed = parse_conf(text, target)
            if parsed.policies:
                complete = conf_policies(dict((n, p.to_dict()) for n, p in parsed.policies.items()),
                                         target=target)
                rendered, _warnings = render_conf(complete)
                again = parse_conf(rendered, target)
                for name, policy in parsed.policies.items():
                    want = policy if name != "luks" else policy.replace(changesok=again.policies[name].changesok)
                    assert again.policies[name] == want, "%s: %s did not round-trip" % (context, name)
        except ERRORS as exc:
            fz.check_message(exc, context)
        except AssertionError as exc:
            failures.append(str(exc))
        except Exception as exc:  # pylint: disable=broad-except
            failures.append("%s: raised %s: %s" % (context, type(exc).__name__, str(exc)[:200]))
    assert not failures, "%d of %d inputs failed:\n%s" % (len(failures), count, "\n".join(failures[:5]))


@settings(max_examples=fz.budget("hyp_policy"), deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(value=st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
    | st.sampled_from(("root", "user", "luks", "minlen", "minquality", "strict", "emptyok", "changesok", "name")),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(FIELDS + ("root", "user", "luks", "bogus")), children, max_size=5),
    max_leaves=12), product=st.sampled_from((None, "server", "cloud", "workstation", "bogus")))
def test_generated_policy_input(value, product):
    for function in (normalize_policies, lambda v: build_policies(v, product=product, target="F33"),
                     lambda v: policy_from(v, product=product, target="RHEL8")):
        try:
            result = function(value)
        except PolicyError as exc:
            fz.check_message(exc, repr(value))
            continue
        if isinstance(result, Policy):
            result = {result.name: result}
        if result and all(isinstance(p, Policy) for p in result.values()):
            check_policies(result, repr(value))
            roundtrip_kickstart(result, "F33", repr(value))


@settings(max_examples=fz.budget("hyp_policy"), deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(line=st.text(alphabet=st.sampled_from(tuple("rotusekl(), 0123456789qaitynmp\t\x00\u0663-x")), max_size=60))
def test_generated_policy_lines(line):
    text = "[User Interface]\npassword_policies =\n    %s\n" % line
    try:
        parse_conf(text, "F36")
    except ConfError as exc:
        fz.check_message(exc, repr(line))


def test_random_input_reaches_both_outcomes():
    """The generators give both accepted and rejected input (else the runs above prove little)."""
    outcomes = set()
    for index in range(300):
        rng = random.Random(index)
        try:
            build_policies(random_input(rng), target="F33")
            outcomes.add("ok")
        except PolicyError:
            outcomes.add("error")
        except Exception:  # pylint: disable=broad-except
            outcomes.add("other")
    assert outcomes >= {"ok", "error"}, outcomes
