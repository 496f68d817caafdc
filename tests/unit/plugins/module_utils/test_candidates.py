# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""module_utils/_candidates.py: the known-weak candidates, most likely first, each once."""

import threading

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _candidates as cands
from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _common_passwords, _known_weak
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._hash_schemes import identify
from ansible_collections.kickstart.pwpolicy.tests.unit.hashes import needs_libxcrypt


def listed(file_words=(), wordlist=()):
    return list(cands.candidates(file_words, wordlist))


def test_each_list_keeps_its_order_and_equal_places_go_tools_and_file_then_wordlist_then_common():
    found = listed(["web01", "lab"], ["Corp-Secret-1", "Corp-Secret-2"])
    position = found.index
    # (A word in two lists, or that is a variation of another word too, comes at its likeliest place.)
    shared = set(cands.common_passwords())
    first = [word for word in list(_common_passwords.TOOL_DEFAULTS) + ["web01", "lab"] if word not in shared]
    assert [position(word) for word in first] == sorted(position(word) for word in first) and len(first) > 10
    common = [word for word in cands.common_passwords()[:2000] if word.isalpha() and word not in found[:40]]
    assert [position(word) for word in common] == sorted(position(word) for word in common) and len(common) > 1000
    assert found[:3] == ["vagrant", "Corp-Secret-1", "123456"]  # place 0 of each list
    assert position("cobbler") < position("Corp-Secret-2") < position("password") < position("packer") \
        < position("12345678")


def test_a_variation_comes_by_its_weight_times_its_words_likelihood():
    found = listed(["web01"])
    position = found.index
    # One word: the word, then its variations by weight.
    assert position("vagrant") < position("Vagrant") < position("vagrant1") < position("Vagrant1") \
        < position("vagrant!") < position("vagrant123") < position("v@gr@nt") < position("Vagrant1!") \
        < position("vagrant12") < position("VAGRANT") < position("vagrant0") < position("vagrant2019")
    # Across words: a likely variation of a likely word before a less likely word as it is.
    common = cands.common_passwords()
    assert position("Passw0rd") < position(common[100]) and position("Dragon1") < position(common[300])
    assert position(common[100]) < position("Vagrant2019") < position(common[1000])
    assert found[-1] == common[-1]  # the least likely word, as it is


def test_words_without_a_letter_are_not_varied():
    found = set(listed())
    assert "123456" in found and "123456!" not in found and "111111!" not in found
    assert "Password1" in found and "qwerty!" in found


def test_each_candidate_once_and_the_list_is_bounded():
    found = listed(["password", "root"], ["password", "vagrant"])
    assert len(found) == len(set(found))
    assert 30000 < len(found) < 60000
    most = listed(["w%dx" % index for index in range(cands.MAX_FILE_WORDS)])
    assert len(most) == len(set(most)) < 75000


def test_the_usual_variations():
    found = set(listed(["web01"]))
    for word in ("Vagrant", "vagrant1", "Vagrant123", "vagrant!", "V@gr@nt", "VAGRANT", "Web01!", "cobbler2020",
                 "Changeme1!", "redhat123", "R3dh@t", "c3nt05", "centos2015",
                 # one letter swapped, on the tools' words and on the 1,000 most common passwords
                 "passw0rd", "Passw0rd", "P@ssword", "Pa$$word", "Dr@gon", "Sh@dow1", "m0nkey", "Qw3rty!"):
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


# --- recall at the default budget ---------------------------------------------------------------------------

# A kickstart as published ones are: root and one account, a host name, a release, a mirror.
KICKSTART = ("#version=RHEL9\nrootpw --iscrypted HASH\nuser --name=admin --iscrypted --password=HASH\n"
             "network --hostname=web01.corp.example.com\nurl --url=http://mirror.example.com/centos/9/os\n")


def _usual(word):
    """The usual variations of a word: a capital, a trailing 1 or !, both, one letter swapped (with a capital)."""
    capital = word[:1].upper() + word[1:]
    swapped = [capital.replace(letter, digit) for letter, digit in (("o", "0"), ("a", "@"), ("e", "3"), ("i", "1"))
               if letter in capital[1:]]
    return [capital, word + "1", word + "!", capital + "1"] + swapped[:1]


def _lettered(words):
    return [word for word in words if any(char.isalpha() for char in word)]


def _file_words():
    return cands.file_words(KICKSTART, accounts=["root", "admin"], hosts=["web01.corp.example.com"],
                            release_name="RHEL9")


def _positions():
    return {word: place for place, word in enumerate(cands.candidates(_file_words()))}


@needs_libxcrypt
def test_known_weak_recall_at_the_default_budget():
    # What the default budget covers at SHA-512 crypt's default 5,000 rounds, by the check's own cost model.
    covered = int(_known_weak.DEFAULT_BUDGET / _known_weak.guess_seconds(identify("$6$saltsalt$" + "a" * 86)))
    assert covered > 100
    position = _positions()
    lettered = _lettered(cands.common_passwords())
    # Each of these is within what the budget covers: a capital and one swap on the second common password,
    # and a capital, a trailing 1 or both on each of the ten most common words.
    targets = ["Passw0rd", "P@ssw0rd"]
    targets += [made for word in lettered[:10] for made in (_usual(word)[0], word + "1", _usual(word)[3])]
    assert [target for target in targets if position.get(target, len(position)) >= covered] == []
    # Recall on the usual variations of the 100 most common words: at least a fifth within the budget.
    corpus = [made for word in lettered[:100] for made in _usual(word)]
    found = sum(1 for made in corpus if position.get(made, len(position)) < covered)
    assert found >= len(corpus) // 5, (found, len(corpus), covered)


def test_the_usual_variations_of_the_top_1000_come_before_the_tail_of_the_common_list():
    position = _positions()
    common = cands.common_passwords()
    head = _lettered(common[:1000])
    usual = set(made for word in head for made in _usual(word))
    # The tail: the last two thirds of the 30,000 as they are (leaving out a tail word that is also a variation of
    # a likelier word, and comes as that).
    first = list(cands.tool_defaults()) + _file_words()
    varied = set(made for dummy, kind in cands.TOP_VARIATIONS for word in head for made in kind(word))
    varied.update(made for dummy, kind in cands.TOP_VARIATIONS + cands.MORE_VARIATIONS for word in first
                  for made in kind(word))
    tail = [word for word in common[10000:] if word not in varied and word not in first]
    assert len(tail) > 19000
    assert max(position[made] for made in usual) < min(position[word] for word in tail)
