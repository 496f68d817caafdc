# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The fixture ``opened``: the paths ``os.open`` is called with while a test runs (import it into a test module).

The readers open every path through module_utils/_files.py, which calls ``os.open``: a path refused before it
is opened never appears here.
"""

import os

import pytest


@pytest.fixture
def opened(monkeypatch):
    """The paths os.open is called with."""
    calls = []
    real = os.open

    def recording(path, *args, **kwargs):
        calls.append(os.fspath(path))
        return real(path, *args, **kwargs)
    monkeypatch.setattr(os, "open", recording)
    return calls
