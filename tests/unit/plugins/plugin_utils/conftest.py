# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fixtures of the module_utils tests."""

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _pwquality
from ansible_collections.kickstart.pwpolicy.tests.unit.plugins.plugin_utils.pwq_helpers import BACKENDS


@pytest.fixture(params=BACKENDS)
def backend(request):
    """Each libpwquality backend this machine has (the binding, the shared library)."""
    return _pwquality.load_backend(request.param)
