# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fuzz the kickstart parser and editor with malformed kickstarts.

Three sources of input (strategies in strategies.py):

* the mutators over the kickstart-tests corpus (``../shared/corpus/kickstart-tests``;
  skipped when it is absent): truncated sections, missing and stray ``%end``,
  binary bytes, huge lines, lone surrogates (what invalid UTF-8 becomes with
  ``surrogateescape``), NUL bytes, ``pwpolicy`` option soup, duplicate names,
  unterminated and nested quotes, CRLF/CR mixes, broken ``#version=`` lines and
  lines holding a secret;
* the same mutators over a few built-in kickstarts (always runs);
* kickstarts assembled from kickstart-like lines and arbitrary text.

The mutation tests run once per mutator (it is applied first, then up to three
drawn ones), which also spreads them over the pytest-xdist workers.

Every input goes through ``parse_kickstart`` and ``edit_kickstart`` (see
oracles.check_parse_and_edit): each must either fail with
``KickstartEditError`` carrying a message (without the secret marker) or
succeed with a correct result.  Budget: the fuzz profile; see docs/fuzzing.md.
"""

import pytest
from hypothesis import Phase, example, find, given
from hypothesis import strategies as st

from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz import strategies as fs
from ansible_collections.kickstart.pwpolicy.tests.unit.fuzz.oracles import check_parse_and_edit

BY_MUTATOR = pytest.mark.parametrize("first", fs.MUTATORS, ids=[m.__name__ for m in fs.MUTATORS])


@pytest.mark.skipif(not fs.CORPUS, reason="kickstart-tests corpus not found at %s" % fs.CORPUS_DIR)
@BY_MUTATOR
@given(data=st.data(), kwargs=fs.edit_args())
@fs.fuzz_settings(0.5)
def test_corpus_mutations(first, data, kwargs):
    check_parse_and_edit(data.draw(fs.mutated_kickstarts(fs.CORPUS, first), label="text"), kwargs)


@BY_MUTATOR
@given(data=st.data(), kwargs=fs.edit_args())
@fs.fuzz_settings(0.3)
def test_builtin_mutations(first, data, kwargs):
    check_parse_and_edit(data.draw(fs.mutated_kickstarts(fs.BUILTIN_KICKSTARTS, first), label="text"), kwargs)


@given(text=fs.kickstarts(), kwargs=fs.edit_args())
@example(  # 20,000 options on one line took 16 s (argparse is quadratic in them)
    text="%anaconda\npwpolicy root " + " ".join(["--strict"] * 20000) + "\n%end\n",
    kwargs=dict(target="F33", validate=True, state="present", exclusive=False, policies={"root": {"minlen": 9}}))
@example(  # state=absent removed the section with its %include when the last pwpolicy line went
    text="#version=F33\nlang en_US.UTF-8\n%anaconda\n%include /tmp/more-policies.ks\npwpolicy root --minlen=8\n%end\n",
    kwargs=dict(target=None, validate=False, state="absent", exclusive=False))
@example(
    text="#version=F33\n%anaconda\n%ksappend /tmp/more.ks\npwpolicy root --minlen=8\n%end\n",
    kwargs=dict(target=None, validate=False, state="absent", exclusive=False))
@example(  # a quoted command word with blanks: pykickstart quoted it, secret included, in its error
    text="'rootpw --plaintext %s '\n" % fs.MARKER,
    kwargs=dict(target="F33", validate=True, state="present", exclusive=False))
@fs.fuzz_settings(1.5)
def test_generated_kickstarts(text, kwargs):
    check_parse_and_edit(text, kwargs)


# find() stops at the first example that shows the damage; no shrinking needed.
FIND = fs.fuzz_settings(5, phases=[Phase.generate])
DAMAGE = {
    "nul": lambda text: "\x00" in text,
    "surrogate": lambda text: any("\udc80" <= c <= "\udcff" for c in text),
    "cr": lambda text: "\r" in text.replace("\r\n", ""),
    "crlf": lambda text: "\r\n" in text,
    "huge": lambda text: any(len(line) > 4000 for line in text.splitlines()),
    "no_end": lambda text: text.count("%anaconda") > text.count("%end"),
    "stray_end": lambda text: text.count("%end") > text.count("%anaconda") + text.count("%packages") + text.count("%post"),
    "quote": lambda text: text.count("'") % 2 == 1 or text.count('"') % 2 == 1,
}


@pytest.mark.filterwarnings("ignore:Generating overly large repr")  # a huge line is the point
@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_mutators_make_the_promised_damage(damage):
    """The mutators really produce the malformations they claim (else the runs above prove little)."""
    find(fs.mutated_kickstarts(fs.BUILTIN_KICKSTARTS), DAMAGE[damage], settings=FIND)


@BY_MUTATOR
def test_every_mutator_changes_its_input(first):
    find(st.tuples(st.sampled_from(fs.BUILTIN_KICKSTARTS[:4]), fs.rngs()),
         lambda case: first(case[0][1], case[1]) != case[0][1], settings=FIND)
