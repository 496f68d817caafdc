# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The checks the fuzz tests make on every input: a clean failure or a correct result."""

from hypothesis import currently_in_test_context, event

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import edit_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import KickstartEditError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_validate import parse_edited
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import NAMES, build_policies

from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz.strategies import MARKER


def check_message(exc, context):
    """A clean failure: non-empty one-piece message, no traceback, no secret."""
    message = str(exc)
    assert message.strip(), "%s: empty error message from %s" % (context, type(exc).__name__)
    assert "Traceback" not in message, "%s: traceback in the message: %s" % (context, message[:500])
    assert MARKER not in message, "%s: the secret marker is in the error: %s" % (context, message[:500])


def _kept(text, outside_only=False):
    """The lines an edit must keep, with their endings (the last one without).

    Comment lines inside a ``%anaconda`` section go with the section when it is
    removed, so they are left out; ``outside_only`` gives just the comments
    outside every section (which must all be kept).
    """
    kept = []
    inside = False
    for line in text.splitlines(True):
        word = line.strip()
        first = word.split()[0] if word else ""
        if first == "%anaconda":
            inside = True
        elif first == "%end" or (first.startswith("%") and first not in ("%include", "%ksappend")):
            inside = False
        if outside_only:
            if word.startswith("#") and not inside:
                kept.append(line.rstrip("\r\n"))
            continue
        if not word or word.startswith("pwpolicy") or first in ("%anaconda", "%end"):
            continue
        if word.startswith("#") and inside:
            continue
        kept.append(line)
    if kept:
        kept[-1] = kept[-1].rstrip("\r\n")
    return kept


def check_edit(text, result, kwargs, context="edit"):
    """A successful edit: the requested policies are in effect, nothing else changed."""
    assert MARKER not in "".join(result.warnings), "%s: secret in a warning" % context
    release = result.release
    after = parse_kickstart(result.text, release, validate=False)
    assert after.policies == result.policies, "%s: returned policies differ from a re-parse" % context
    policies, product, state = kwargs.get("policies"), kwargs.get("product"), kwargs["state"]
    if state == "present":
        desired = build_policies(policies, product=product, target=release.name)
        for name, policy in desired.items():
            assert after.policies.get(name) == policy, (
                "%s: %s is %r after the edit, wanted %r" % (context, name, after.policies.get(name), policy))
        if kwargs.get("exclusive"):
            assert set(after.policies) == set(desired), "%s: exclusive kept other names" % context
    else:
        if product is not None or policies is None:
            gone = NAMES
        else:
            gone = [p["name"] for p in policies] if isinstance(policies, list) else list(policies)
        for name in gone:
            assert name not in after.policies, "%s: %s still in effect after state=absent" % (context, name)
    assert _kept(result.text) == _kept(text), "%s: lines other than ours changed" % context
    assert _kept(result.text, True) == _kept(text, True), "%s: a comment line changed" % context
    if not result.changed:
        assert result.text == text, "%s: changed=False but the text differs" % context


def check_parsed(parsed):
    """Only root, user and luks are ever in effect, none on Fedora 35 (which ignored the section)."""
    assert set(parsed.policies) <= set(NAMES), "a name the installer ignores is in effect"
    if parsed.release.name == "F35":
        assert parsed.policies == {}, "Fedora 35 has policies in effect"
    assert MARKER not in "".join(parsed.warnings), "the secret marker is in a warning"


def check_parse_and_edit(text, kwargs):
    """``text`` through parse_kickstart and edit_kickstart(**kwargs), and the edit once more.

    Each call either fails with KickstartEditError (checked by check_message)
    or gives a correct result (check_edit); a second identical edit changes
    nothing.  Any other exception escapes and fails the test.
    """
    try:
        parsed = parse_kickstart(text, kwargs.get("target"), validate=kwargs.get("validate", True))
        event("parse: parsed")
        check_parsed(parsed)
    except KickstartEditError as exc:
        event("parse: KickstartEditError")
        check_message(exc, "parse_kickstart")
    try:
        result = edit_kickstart(text, **kwargs)
    except KickstartEditError as exc:
        event("edit: KickstartEditError")
        check_message(exc, "edit_kickstart")
        return None
    event("edit: changed" if result.changed else "edit: unchanged")
    check_edit(text, result, kwargs)
    again = edit_kickstart(result.text, **kwargs)
    assert not again.changed and again.text == result.text, "a second edit changed the text"
    return result


def _sections_shape(parsed):
    return [(info.header, info.end, [(e.lineno, e.name, e.policy) for e in info.entries], list(info.others))
            for info in parsed.sections]


def _event(name):
    if currently_in_test_context():  # the plain unit tests use the oracle too
        event(name)


def check_revalidation(parsed, splice):
    """The sections-only validation of an edit (``parse_edited``) against a full parse of the result.

    Whenever it gives a result, the full validating parse accepts the text too
    and finds the same sections, entries, policies and section warnings (the
    full parse also repeats pykickstart's warnings about the other lines).
    Returns ``"sections"`` or ``"full"`` (the caller must parse it all).
    """
    fast = parse_edited(parsed, splice)
    try:
        full = parse_kickstart(splice.text, parsed.release)
    except KickstartEditError as exc:
        _event("revalidate: the full parse rejects")
        assert fast is None, "the sections-only validation accepted what the full parse rejects: %s" % exc
        return "full"
    if fast is None:
        _event("revalidate: no proof, full parse")
        return "full"
    _event("revalidate: sections only")
    assert fast.text == splice.text and fast.lines == full.lines
    assert _sections_shape(fast) == _sections_shape(full), "the sections differ from a full parse"
    assert fast.policies == full.policies, "the policies differ from a full parse"
    prefix = "pykickstart (%s): " % parsed.release.name
    assert fast.warnings == [w for w in full.warnings if not w.startswith(prefix)], "the warnings differ"
    return "sections"
