# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fuzz the kickstart parser and editor with malformed kickstarts.

Three sources of input, all deterministic:

* a mutation fuzzer over the kickstart-tests corpus (``../shared/corpus/kickstart-tests``;
  skipped when it is absent): truncated sections, missing and stray ``%end``,
  binary bytes, huge lines, lone surrogates (what invalid UTF-8 becomes with
  ``surrogateescape``), NUL bytes, ``pwpolicy`` option soup, duplicate names,
  unterminated and nested quotes, CRLF/CR mixes, broken ``#version=`` lines and
  lines holding a secret;
* the same mutators over a few built-in kickstarts (always runs);
* hypothesis-generated kickstarts assembled from kickstart-like lines.

Every input goes through ``parse_kickstart`` and ``edit_kickstart``.  Each must
either fail with ``KickstartEditError`` carrying a message (without the secret
marker) or succeed with a correct result: the requested policies are in effect
when the text is parsed again, every line that is not ours is kept byte for
byte, and a second identical edit changes nothing.

Size: ``KSPW_FUZZ_EXAMPLES`` (default 10000) is the total input count of the
whole fuzz suite; this file takes 27 % of it (the kickstart inputs are the
slow ones: a pykickstart parse, an edit, a re-parse and a second edit each).  ``KSPW_FUZZ_SEED`` picks
another seed.  See docs/fuzzing.md.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_edit import edit_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import KickstartEditError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_parse import parse_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import build_policies

from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz import _ksfuzz as fz

CORPUS = fz.corpus_texts()
MAX_REPORTED = 5


def run_one(text, rng, context):
    """Parse and edit ``text`` with random arguments; return a failure description or None."""
    target = rng.choice(fz.TARGETS) if rng.random() < 0.95 else rng.choice(fz.BAD_TARGETS)
    validate = rng.random() < 0.5
    step = "parse"
    try:
        try:
            parse_kickstart(text, target, validate=validate)
        except KickstartEditError as exc:
            fz.check_message(exc, context)
        step = "edit"
        roll = rng.random()
        kwargs = dict(state="present" if rng.random() < 0.75 else "absent",
                      exclusive=rng.random() < 0.2, target=target, validate=validate)
        if roll < 0.75:
            kwargs["policies"] = fz.random_policies(rng)
        elif roll < 0.85:
            kwargs["policies"] = fz.random_policies(rng, valid=False)
        if rng.random() < 0.15:
            kwargs["product"] = rng.choice(("server", "cloud", "workstation"))
        try:
            result = edit_kickstart(text, **kwargs)
        except KickstartEditError as exc:
            fz.check_message(exc, context)
            return None
        step = "check"
        fz.check_edit(text, result, kwargs, parse_kickstart, build_policies, context)
        step = "second edit"
        again = edit_kickstart(result.text, **kwargs)
        assert not again.changed and again.text == result.text, "%s: a second edit changed the text" % context
    except AssertionError as exc:
        return str(exc)
    except Exception as exc:  # the point of the test: no other exception type may escape
        return "%s: %s raised %s: %s" % (context, step, type(exc).__name__, str(exc)[:300])
    return None


def report(failures, total):
    assert not failures, "%d of %d inputs failed; first ones:\n%s" % (
        len(failures), total, "\n".join(failures[:MAX_REPORTED]))


@pytest.mark.skipif(not CORPUS, reason="kickstart-tests corpus not found at %s" % fz.CORPUS)
@pytest.mark.parametrize("shard", range(fz.SHARDS))
def test_corpus_mutations(shard):
    failures = []
    indexes = fz.shard_range("corpus", shard)
    for index in indexes:
        rng = fz.rng_for("corpus", index)
        name, seed_text = rng.choice(CORPUS)
        text, used = fz.mutate(seed_text, rng)
        context = fz.describe("corpus", index, " (%s, %s)" % (name, "+".join(used)))
        failure = run_one(text, rng, context)
        if failure:
            failures.append(failure)
    report(failures, len(indexes))


@pytest.mark.parametrize("shard", range(fz.SHARDS))
def test_synthetic_mutations(shard):
    failures = []
    indexes = fz.shard_range("synthetic", shard)
    for index in indexes:
        rng = fz.rng_for("synthetic", index)
        text, used = fz.mutate(rng.choice(fz.SYNTHETIC_SEEDS), rng)
        context = fz.describe("synthetic", index, " (%s)" % "+".join(used))
        failure = run_one(text, rng, context)
        if failure:
            failures.append(failure)
    report(failures, len(indexes))


def test_mutators_make_the_promised_damage():
    """The fuzzer really produces the malformations it claims (else the runs above prove little)."""
    seen = dict((m.__name__, 0) for m in fz.MUTATORS)
    kinds = dict(nul=0, surrogate=0, cr=0, crlf=0, huge=0, no_end=0, stray_end=0, quote=0)
    for index in range(400):
        rng = fz.rng_for("selfcheck", index)
        text, used = fz.mutate(rng.choice(fz.SYNTHETIC_SEEDS), rng)
        for name in used:
            seen[name] += 1
        kinds["nul"] += "\x00" in text
        kinds["surrogate"] += any("\udc80" <= c <= "\udcff" for c in text)
        kinds["cr"] += "\r" in text.replace("\r\n", "")
        kinds["crlf"] += "\r\n" in text
        kinds["huge"] += any(len(line) > 4000 for line in text.splitlines())
        kinds["no_end"] += text.count("%anaconda") > text.count("%end")
        kinds["stray_end"] += text.count("%end") > text.count("%anaconda") + text.count("%packages") \
            + text.count("%post")
        kinds["quote"] += text.count("'") % 2 == 1 or text.count('"') % 2 == 1
    assert all(seen.values()), seen
    assert all(kinds.values()), kinds


LINE_PIECES = st.sampled_from((
    "#version=F33", "#version=RHEL8", "#version=F36", "%anaconda", "%end", "%packages", "@core",
    "%post", "%include /tmp/x", "%ksappend /y", "lang en_US.UTF-8", "rootpw --plaintext " + fz.MARKER,
    "user --name=bob --password=" + fz.MARKER, "pwpolicy root --minlen=8", "pwpolicy user --emptyok",
    "pwpolicy luks --strict --minquality 60", "pwpolicy", "pwpolicy admin", "pwpolicy root user",
    "pwpolicy root --minlen", "pwpolicy root --bogus", "installclass --name=x", "", "# comment",
))


@st.composite
def kickstarts(draw):
    pieces = draw(st.lists(st.one_of(LINE_PIECES, LINE_PIECES, st.text(max_size=40)), max_size=25))
    newline = draw(st.sampled_from(("\n", "\r\n", "\r")))
    text = newline.join(pieces)
    if draw(st.booleans()):
        text += newline
    return text


@settings(max_examples=fz.budget("hyp_kickstart"), deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(text=kickstarts(), seed=st.integers(0, 2 ** 32))
def test_generated_kickstarts(text, seed):
    import random
    failure = run_one(text, random.Random(seed), "hypothesis input %r (rng seed %d)" % (text[:300], seed))
    assert failure is None, failure
