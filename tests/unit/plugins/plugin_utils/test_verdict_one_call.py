# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""One libpwquality call per password gives the same report as checking twice.

The oracle is the straightforward way: check at the policy's minlen, and when
libpwquality stops at its own length rule on a password that is too short in
characters, check again at libpwquality's lowest minimum length.  It lives
only here.  The passwords are the benchmark's seeded set (tests/unit/samples.py)
and the unit tables of test_verdict.
"""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _pwquality
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _verdict as verdict
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import build_policies
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._pwq_settings import (
    ERR_MIN_LENGTH,
    LIBPWQUALITY_MIN_LENGTH,
    has_positive_credit,
    normalize_settings,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.plugin_utils.pwq_helpers import STRONG, policy
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.plugin_utils.test_verdict import CODE_CASES
from ansible_collections.kickstart.pwpolicy.tests.unit.samples import passwords


BENCHMARK_SET = passwords()
TABLE_SET = [case[0] for case in CODE_CASES] + [
    STRONG, "Xk9#mQ2", "sunshine99", "äöüßéèàçñø", "äöüXXXXkq", "Xk9#m", "password", "Summer2024",
    "Überweisung-überall-Kx9", "密码密码密码密码Xk9#", "Xk9#mQ2!\tzLp7qR5@wT", "äöüß", "überweisungsüberall",
    "a1a1a1a1a1", "Xk9acmeQ2!z", "ab", "1234567", "Kx9#Kx9#Kx9#", "zyxwvuts", "ÄÖÜäöü12",
]


def two_calls(password, pol, user, items, backend):
    """The oracle: libpwquality at the policy's minlen, and again at its lowest when stopped by length."""
    account = verdict.account_for(pol.name, user)
    rc, aux = _pwquality.check(backend, items, pol.minlen, password, account)
    if not (len(password) < pol.minlen and rc == ERR_MIN_LENGTH):
        return rc, aux, False
    rc, aux = _pwquality.check(backend, items, LIBPWQUALITY_MIN_LENGTH, password, account)
    return rc, aux, True


def compare(monkeypatch, backend, candidates, pol, settings=None, user="alice", rules="collection", fips=False):
    """Assert each new report equals the oracle's; return how many libpwquality calls the new way made."""
    calls = []
    counted = _pwquality.check

    def counting(*args):
        calls.append(1)
        return counted(*args)

    kwargs = dict(user=user, settings=settings, backend=backend, rules=rules, fips=fips)
    for password in candidates:
        with monkeypatch.context() as patch:
            patch.setattr(verdict, "_libpwquality", two_calls)
            expected = verdict.check_password(password, pol, **kwargs)
        with monkeypatch.context() as patch:
            patch.setattr(verdict, "libpwquality_check", counting)
            before = len(calls)
            got = verdict.check_password(password, pol, **kwargs)
        assert got == expected, "report differs for benchmark/table password #%d" % candidates.index(password)
        if password and not has_positive_credit(normalize_settings(settings)):
            assert len(calls) - before == 1, "more than one libpwquality call for password #%d" \
                % candidates.index(password)
    return len(calls)


SERVER = build_policies(product="server")


@pytest.mark.parametrize("name", ["root", "luks"])
def test_benchmark_set_same_report_in_one_call(monkeypatch, backend, name):
    pol = SERVER[name]  # what the benchmark uses (root: minlen 15), and luks (minlen 20)
    calls = compare(monkeypatch, backend, BENCHMARK_SET, pol)
    assert calls == len(BENCHMARK_SET)


@pytest.mark.parametrize("rules", ["collection", "installer"])
@pytest.mark.parametrize("pol,settings", [
    (policy("user", minlen=10, minquality=30, strict=False), None),
    (policy("user", minlen=12, minquality=0), {"maxrepeat": 2, "dcredit": -1}),
    (policy("luks", minlen=9, minquality=50, strict=False), {"minclass": 3}),
    (policy("root", minlen=4, minquality=1), None),  # below libpwquality's own minimum
    (policy("root", minlen=6, minquality=1), {"maxsequence": 3}),
    (policy("luks", minlen=14, minquality=1), {"dcredit": 2, "ocredit": 1}),  # positive credits: two calls allowed
])
def test_tables_and_part_of_the_set_same_report(monkeypatch, backend, pol, settings, rules):
    compare(monkeypatch, backend, TABLE_SET + BENCHMARK_SET[:300], pol, settings=settings, rules=rules,
            fips=pol.name == "luks")


def test_a_too_short_password_is_checked_once_at_libpwquality_minimum(monkeypatch, backend):
    seen = []
    monkeypatch.setattr(verdict, "libpwquality_check",
                        lambda b, items, minlen, pw, account: seen.append(minlen) or _pwquality.check(
                            b, items, minlen, pw, account))
    report = verdict.check_password("sunshine99", policy(minlen=15, minquality=0), backend=backend)
    assert seen == [LIBPWQUALITY_MIN_LENGTH]
    assert report["reasons"] == ["shorter than 15 characters (has 10)", "is based on a dictionary word"]
    del seen[:]
    report = verdict.check_password(STRONG, policy(minlen=15, minquality=0), backend=backend)
    assert seen == [15] and report["score"] > 0  # long enough: the score is libpwquality's at minlen
