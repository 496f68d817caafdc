# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""module_utils/_candidates.py: the known-weak candidates, most likely first, each once."""

import threading

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _candidates as cands
from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _common_passwords


def listed(file_words=(), wordlist=()):
    return list(cands.candidates(file_words, wordlist))


def test_tool_defaults_come_first_then_the_words_of_the_file():
    found = listed(["web01", "lab"])
    defaults = list(_common_passwords.TOOL_DEFAULTS)
    assert found[:len(defaults)] == defaults
    assert found[len(defaults):len(defaults) + 2] == ["web01", "lab"]
    assert found[0] == "vagrant" and "s0m3password" in defaults and "cobbler" in defaults


def test_the_order_of_the_tiers():
    found = listed(["web01"], ["Corp-Secret-1"])
    position = found.index
    assert position("web01") < position("Vagrant1") < position("P@ssw0rd") < position("Corp-Secret-1")
    assert position("Corp-Secret-1") < position("123456") < position("Vagrant2019") < position("Dragon1")
    assert position("Dragon1") < position(cands.common_passwords()[-1])


def test_each_candidate_once_and_the_list_is_bounded():
    found = listed(["password", "root"], ["password", "vagrant"])
    assert len(found) == len(set(found))
    assert 30000 < len(found) < 60000


def test_the_usual_variations():
    found = set(listed(["web01"]))
    for word in ("Vagrant", "vagrant1", "Vagrant123", "vagrant!", "V@gr@nt", "VAGRANT", "Web01!", "cobbler2020",
                 "Changeme1!", "redhat123", "R3dh@t", "c3nt05", "centos2015"):
        assert word in found, word


def test_what_no_crypt_input_can_be_is_left_out():
    found = listed([], ["", "a\0b", "x" * 257, "ok"])
    assert "ok" in found and "a\0b" not in found and "x" * 257 not in found and "" not in found


def test_file_words():
    text = "#version=RHEL9\nurl --url=http://mirror/centos/7/os\n# CentOS7 build for Rocky migration\n"
    words = cands.file_words(text, accounts=["root", "Admin"], hosts=["web01.corp.example.com"],
                             release_name="RHEL9")
    assert words[:6] == ["root", "admin", "web01.corp.example.com", "web01", "corp", "example"]
    assert {"rhel", "rhel9", "redhat", "centos", "centos7", "rocky"} <= set(words)
    assert len(cands.file_words("fedora " * 100000)) <= cands.MAX_FILE_WORDS


def test_the_shared_list_gives_every_thread_the_same_candidates():
    shared = cands.CandidateList(["web01"])
    seen = [[] for dummy in range(4)]

    def read(into):
        for index in range(3000):
            into.append(shared.get(index))
    threads = [threading.Thread(target=read, args=(into,)) for into in seen]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    expected = [word.encode() for word in listed(["web01"])[:3000]]
    assert all(into == expected for into in seen)
    assert shared.get(10 ** 6) is None


def test_is_candidate_agrees_with_the_list():
    words, wordlist = ["web01", "corp"], ["Site-Pw-1"]
    found = listed(words, wordlist)
    for value in found[::97] + ["Web01!", "C0rp", "corp2017", "Site-Pw-1", "PASSWORD", "DrAgOn"]:
        assert cands.is_candidate(value, words, set(wordlist)), value
    for value in ("Xq7#pLm2-unlisted", "web01web01web01", "Site-Pw-2", "a\0b"):
        assert not cands.is_candidate(value, words, set(wordlist)), value
