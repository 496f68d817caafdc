# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""module_utils/_libxcrypt.py: the one ctypes binding, shared by the controller's hashing and the node's checks."""

import sys
import threading

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _crypt
from ansible_collections.kickstart.pwpolicy.tests.unit.hashes import LIB, needs_libxcrypt

pytestmark = needs_libxcrypt


def test_the_controller_hashes_through_the_node_binding():
    assert _crypt.backend() is LIB


@pytest.mark.parametrize("setting", [b"ab", b"$1$abcdefgh", b"$5$rounds=1000$abc", b"$6$rounds=1000$abc",
                                     b"$2b$04$abcdefghijklmnopqrstuu"])
def test_a_hash_verifies_against_itself(setting):
    made = LIB.crypt(b"hunter2", setting)
    assert made and made.startswith(setting[:3])
    assert LIB.crypt(b"hunter2", made) == made
    assert LIB.crypt(b"hunter3", made) != made


def test_what_libxcrypt_refuses_is_none():
    assert LIB.crypt(b"x", b"$9$nonsense") is None
    assert LIB.gensalt(b"$y$", 99, None) is None


def test_each_thread_has_its_own_work_area():
    areas = []

    def work():
        LIB.crypt(b"x", b"ab")
        areas.append(LIB._area())  # pylint: disable=protected-access
    threads = [threading.Thread(target=work) for dummy in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert areas[0] is not areas[1]


def test_a_call_releases_the_gil_so_threads_hash_in_parallel():
    """While one thread is inside crypt_rn, another runs Python code.

    With a switch interval of 100 s the interpreter never takes the GIL from a
    thread running Python code: the main thread gets it back only when the
    hashing thread gives it up, which a ctypes call into a CDLL does for the
    whole call.  Had it kept the GIL, the main thread would run only after the
    hash is done and see ``inside`` false.
    """
    setting = LIB.gensalt(b"$2b$", 12, b"0123456789abcdef")  # bcrypt cost 12: a call of a fraction of a second
    state = {"inside": False, "seen": None}
    started = threading.Event()

    def hashing():
        state["inside"] = True
        started.set()
        LIB.crypt(b"x", setting)
        state["inside"] = False

    previous = sys.getswitchinterval()
    sys.setswitchinterval(100)
    try:
        thread = threading.Thread(target=hashing)
        thread.start()
        started.wait()
        state["seen"] = state["inside"]
        thread.join()
    finally:
        sys.setswitchinterval(previous)
    assert state["seen"] is True
