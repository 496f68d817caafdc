# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the libpwquality and verdict tests share: backends, policies, the leak check."""

import os

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _pwquality
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import Policy
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verdict import check_password
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak as shared_assert_no_leak


def available(name):
    try:
        _pwquality.load_backend(name)
        return True
    except _pwquality.BackendUnavailable:
        return False


HAVE_BINDING = available("binding")
HAVE_CTYPES = available("ctypes")
# KSPW_REQUIRE_BINDING=1 (the test layer that runs where the distribution's
# binding is linked): the binding's tests run, and fail, instead of skipping.
REQUIRE_BINDING = os.environ.get("KSPW_REQUIRE_BINDING") == "1"
BACKENDS = [
    pytest.param("binding", marks=pytest.mark.skipif(
        not (HAVE_BINDING or REQUIRE_BINDING), reason="the pwquality Python binding is not importable here "
        "(install python3-pwquality and link it into the virtual environment)")),
    pytest.param("ctypes", marks=pytest.mark.skipif(
        not HAVE_CTYPES, reason="libpwquality.so.1 is not installed")),
]
NEEDS_BINDING = pytest.mark.skipif(
    not (HAVE_BINDING or REQUIRE_BINDING), reason="the pwquality Python binding is not importable here")
BOTH = pytest.mark.skipif(not ((HAVE_BINDING or REQUIRE_BINDING) and HAVE_CTYPES),
                          reason="parity needs both the pwquality Python binding and libpwquality.so.1")
STRONG = "Xk9#mQ2!zLp7qR5@wT"  # 18 characters, libpwquality scores it 43 at minlen 18, 100 at 12


def policy(name="root", minlen=8, minquality=1, strict=True, emptyok=False, changesok=False):
    return Policy(name=name, minlen=minlen, minquality=minquality, strict=strict,
                  emptyok=emptyok, changesok=changesok)


def assert_no_leak(password, *texts):
    """No form of the password, nor any 5-character piece of it, in texts."""
    shared_assert_no_leak(password, *texts, piece=5)


def check(backend, password, pol=None, **kwargs):
    """check_password, with the report checked for leaks (non-ASCII kept as it is)."""
    report = check_password(password, pol or policy(), backend=backend, **kwargs)
    assert_no_leak(password, report)
    assert len(report["reasons"]) <= len(report["hints"])
    return report
