# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""zxcvbn's guess estimates: known passphrases, the words an attacker tries first, the cap, the missing package,
one call at a time."""

import datetime
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
