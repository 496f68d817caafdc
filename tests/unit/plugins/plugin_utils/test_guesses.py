# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""zxcvbn's guess estimates: known passphrases, the words an attacker tries first, the cap, the missing package,
one call at a time, once per secret."""

import datetime
import hashlib
import hmac
import sys
import threading

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _exposure as model
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _guesses
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak

pytest.importorskip("zxcvbn")

# Known passwords -> the range their guesses_log10 falls in (zxcvbn 4.5; Dropbox's own examples among them).
KNOWN = [
    ("password", 0, 1),                      # top of the common-password list
    ("Summer2024", 5, 7),                    # a word and a year
    ("Tr0ub4dour&3", 6, 9),                  # the leetspeak word of the XKCD comic
    ("correcthorsebatterystaple", 13, 16),   # four common words
    ("Xk9#mQ2!zLp7qR5@wT", 17, 19),          # 18 random characters
]


@pytest.mark.parametrize("password, low, high", KNOWN)
def test_known_passwords_land_in_their_order_of_magnitude(password, low, high):
    assert low <= _guesses.guesses_log10(password) <= high


def test_the_account_host_and_product_words_count_as_known():
    alone = _guesses.guesses_log10("Bellatrix-Builder-77")
    inputs = _guesses.user_inputs("bellatrix", "builder.example.org", "server")
    assert "builder" in inputs and "server" in inputs and "kickstart" in inputs
    assert _guesses.guesses_log10("Bellatrix-Builder-77", inputs) < alone - 3


def test_empty_password_has_nothing_to_guess():
    assert _guesses.guesses_log10("") == 0.0


def test_long_passphrases_are_cut_to_the_first_100_characters(monkeypatch):
    seen = []

    def fake(password, user_inputs=None, max_length=72):
        seen.append((len(password), max_length))
        return {"guesses_log10": 30.0, "score": 4}

    monkeypatch.setattr(_guesses, "_zxcvbn", lambda: fake)
    assert _guesses.guesses_log10("q" * 500) == 30.0
    # The documented bound (docs/docsite/rst/weakest_link.rst), and zxcvbn is told the same.
    assert seen == [(100, 100)] and _guesses.ZXCVBN_MAX_LENGTH == 100
    # And the real zxcvbn takes a passphrase far longer than its own limit.
    monkeypatch.undo()
    assert _guesses.guesses_log10("unrelated words with spaces between them " * 5) > 20


def test_without_zxcvbn_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "zxcvbn", None)  # import zxcvbn now raises ImportError
    with pytest.raises(PwpolicyError, match="pip install zxcvbn"):
        _guesses.guesses_log10("anything at all")
    # Without an estimate asked for, nothing needs it.
    report = {"policy": {"name": "root"}, "ok": True}
    assert model.add_estimate(dict(report), "anything at all") == report


def test_only_the_number_leaves_zxcvbn(monkeypatch):
    secret = "Quartz-Melon-Drift-81"
    real = _guesses._zxcvbn()

    def spy(password, user_inputs=None, max_length=72):
        result = real(password, user_inputs=user_inputs, max_length=max_length)
        # zxcvbn's own result holds the password and its matched pieces: that is what must not leave.
        assert any(secret[:5] in str(item.get("token", "")) for item in result["sequence"])
        return result

    monkeypatch.setattr(_guesses, "_zxcvbn", lambda: spy)
    report = model.add_estimate({"policy": {"name": "luks"}}, secret, estimate={"hostname": "h1"})
    assert isinstance(report["guesses_log10"], float)
    assert set(report) == {"policy", "guesses_log10", "exposures", "weakest_seconds", "weakest_attack",
                           "weakest_seconds_with_plaintext"}
    assert_no_leak(secret, report, piece=4)


def test_only_strings_are_user_inputs():
    # The port makes None the word "none" and a number its digits: an attacker is given no such words.
    password = "none4you!1234"
    alone = _guesses.guesses_log10(password)
    assert _guesses.guesses_log10(password, [None, 1234, b"\xff", ""]) == alone
    assert _guesses.guesses_log10(password, [b"none"]) < alone  # bytes are text, decoded
    assert _guesses.text_inputs(["web01", None, 7, b"db", True]) == ["web01", "db"]


def direct(password, inputs, year=None):
    """What zxcvbn itself says, with the year set as the estimates set it (or to ``year``)."""
    from zxcvbn import scoring, zxcvbn

    scoring.REFERENCE_YEAR = year or datetime.date.today().year
    result = zxcvbn(password, user_inputs=inputs, max_length=100)
    return {"guesses_log10": round(float(result["guesses_log10"]), 2), "score": result["score"]}


def test_two_threads_never_see_each_others_inputs(monkeypatch):
    from zxcvbn import matching

    password = "Quillon-Brisket-4417"
    inputs = {"first": ["quillon"], "second": ["brisket"]}
    expected = dict((name, direct(password, words)["guesses_log10"]) for name, words in inputs.items())
    assert expected["first"] != expected["second"]
    real = matching.omnimatch
    results, other = {}, []

    def run(name):
        results[name] = _guesses.guesses_log10(password, inputs[name])

    def omnimatch(*args, **kwargs):
        # The first call has set its inputs: a second call from another thread starts now and may run to its end
        # (waited for up to a second; where it cannot get in, it runs after).
        if not other:
            other.append(threading.Thread(target=run, args=("second",)))
            other[0].start()
            other[0].join(timeout=1)
        return real(*args, **kwargs)

    monkeypatch.setattr(matching, "omnimatch", omnimatch)
    run("first")
    other[0].join(timeout=60)
    assert results == expected


def test_the_year_is_the_current_one_before_every_estimate(monkeypatch):
    from zxcvbn import scoring

    for year, password in ((2017, "Lighthouse1960"), (1990, "Harbour1955")):
        monkeypatch.setattr(scoring, "REFERENCE_YEAR", year)  # as the port has it, or another caller left it
        stale = direct(password, [], year)
        assert _guesses.guesses_log10(password) == direct(password, [])["guesses_log10"] != stale["guesses_log10"]
        assert scoring.REFERENCE_YEAR == datetime.date.today().year


def counting(monkeypatch):
    """The calls to zxcvbn from now on (a new estimator: nothing remembered before counts)."""
    real = _guesses._zxcvbn()
    calls = []

    def spy(password, user_inputs=None, max_length=72):
        calls.append(len(password))
        return real(password, user_inputs=user_inputs, max_length=max_length)

    monkeypatch.setattr(_guesses, "_zxcvbn", lambda: spy)
    return calls


def test_a_secret_shared_by_many_hosts_is_estimated_once(monkeypatch):
    calls = counting(monkeypatch)
    secret = "orbit lantern maple quartz drift"
    options = model.options_from({"product": "server"})
    found = [model.estimate_secret(secret, "luks", None, dict(options, hostname="web%03d.example.org" % index))
             for index in range(200)]
    assert len(calls) == 1
    assert all(item == found[0] for item in found)
    # A host whose name is in the secret is estimated for itself, and lower.
    own = model.estimate_secret(secret, "luks", None, dict(options, hostname="quartz.example.org"))
    assert len(calls) == 2 and own["guesses_log10"] < found[0]["guesses_log10"]


@pytest.mark.parametrize("password", [
    "builder2024!",         # the host's first label
    "B0ld-Bu1ld3r-2024",    # with l33t substitutions
    "redliub-99-maple",     # backwards
    "xX-BUILDER.EXAMPLE.ORG-Xx",
    "unrelated Horse 77",
    "Wëb-ñame-builder",     # beyond ASCII: every input counts
])
def test_what_is_remembered_is_what_zxcvbn_says_for_each_host(password):
    for hostname in ("builder.example.org", "web01.example.org", "builder.example.org", "db.example.org"):
        inputs = _guesses.user_inputs("root", hostname, "server")
        assert _guesses.estimate(password, inputs) == direct(password, inputs), hostname


def test_a_process_remembers_a_bounded_number_of_estimates(monkeypatch):
    calls = counting(monkeypatch)
    monkeypatch.setattr(_guesses, "ESTIMATES_KEPT", 3)
    for password in ("alpha-Kettle-1", "bravo-Kettle-2", "charlie-Kettle-3", "delta-Kettle-4"):
        _guesses.estimate(password)
    assert len(_guesses._ESTIMATES) == 3
    _guesses.estimate("delta-Kettle-4")  # the latest is still there
    assert len(calls) == 4
    _guesses.estimate("alpha-Kettle-1")  # the least recently used was forgotten
    assert len(calls) == 5


def test_the_estimates_are_remembered_by_a_keyed_hash_never_by_the_secret(monkeypatch):
    counting(monkeypatch)
    secret = "Remembered-Secret-93"
    _guesses.estimate(secret, ["web01"])
    assert_no_leak(secret, list(_guesses._ESTIMATES.items()), piece=5)
    assert all(isinstance(key, bytes) and len(key) == 32 for key in _guesses._ESTIMATES)
    # The key is this process's own: without it, the same secret gives another digest.
    assert _guesses.keyed_digest(secret) == _guesses.keyed_digest(secret) != _guesses.keyed_digest(secret + " ")
    assert _guesses.keyed_digest(secret) not in (hashlib.sha256(secret.encode()).digest(),
                                                 hmac.new(b"", secret.encode(), hashlib.sha256).digest())
    assert _guesses.keyed_digest("ab", "c") != _guesses.keyed_digest("a", "bc")
