# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Shared pieces of the fuzz tests: budgets, seed kickstarts, mutators and oracles.

Everything here is deterministic: each input comes from ``random.Random`` seeded
with ``(SEED, test name, index)``, so a failure message names the index and the
input can be rebuilt with :func:`mutated_kickstart`.

Budget: ``KSPW_FUZZ_EXAMPLES`` (default 10000) is the total number of inputs of
a run; each fuzz test takes a fixed share of it (see :data:`SHARES`).
``KSPW_FUZZ_SEED`` changes the seed (default 20260101).
"""

import os
import random

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "kickstart-tests")

TOTAL = int(os.environ.get("KSPW_FUZZ_EXAMPLES", "10000"))
SEED = int(os.environ.get("KSPW_FUZZ_SEED", "20260101"))
# Share of TOTAL per fuzz test (they add up to 1).  Kickstart inputs are the
# slow ones (a pykickstart parse each, an edit and a re-parse when it works).
SHARES = {
    "corpus": 0.15,
    "synthetic": 0.10,
    "hyp_kickstart": 0.02,
    "policy": 0.33,
    "conf": 0.355,
    "hyp_policy": 0.03,
    "module": 0.015,
    "bounds": 0.0015,
}
# Shards per kickstart fuzz test, so pytest-xdist spreads them over the workers.
SHARDS = 6

# A value that must never appear in an error, warning or diff.
MARKER = "Fz9MarkerSecret"
SECRET_LINES = (
    "rootpw --plaintext %s\n" % MARKER,
    "user --name=alice --password=%s --plaintext\n" % MARKER,
    "bootloader --password=%s\n" % MARKER,
    "sshpw --username=root %s --plaintext\n" % MARKER,
)

TARGETS = (None, "F22", "F25", "F28", "F30", "F33", "F34", "F35", "F36", "F40",
           "RHEL7", "RHEL8", "RHEL9", "RHEL10", "DEVEL")
BAD_TARGETS = ("F2", "bogus", "", "  ", "F 30", "RHEL6", "f30\x00", "F" + "9" * 40)
NAMES = ("root", "user", "luks")


def budget(kind, minimum=1):
    return max(minimum, int(TOTAL * SHARES[kind]))


def shard_range(kind, shard):
    """The input indexes of one shard of ``kind``."""
    count = budget(kind, SHARDS)
    per = -(-count // SHARDS)
    return range(shard * per, min(count, (shard + 1) * per))


def rng_for(kind, index):
    return random.Random("%d/%s/%d" % (SEED, kind, index))


def corpus_texts():
    """The corpus kickstarts (decoded as the module decodes files), or []."""
    found = []
    if os.path.isdir(CORPUS):
        for directory, _dirs, names in os.walk(CORPUS):
            for name in sorted(names):
                if ".ks" in name:
                    with open(os.path.join(directory, name), "rb") as handle:
                        data = handle.read()
                    try:
                        found.append((name, data.decode("utf-8")))
                    except UnicodeDecodeError:
                        continue
    return sorted(found)


SYNTHETIC_SEEDS = (
    "#version=F33\nlang en_US.UTF-8\nrootpw --plaintext %s\n\n%%anaconda\n"
    "pwpolicy root --minlen=8 --minquality=50 --strict --nochanges --emptyok\n%%end\n" % MARKER,
    "#version=RHEL8\r\nlang en_US.UTF-8\r\n%include /tmp/part.ks\r\n%anaconda\r\n"
    "pwpolicy user --minlen 4  # keep\r\npwpolicy luks --notstrict\r\n%end",
    "#version=F30\nurl --url=http://example.com/os\n%packages\n@core\n%end\n\n"
    "%anaconda\n  pwpolicy luks --minlen=20 --strict\n\tpwpolicy root --minquality 1\n%end\n"
    "%post\necho done\n%end\n",
    "#version=RHEL9\nkeyboard us\n%anaconda\npwpolicy root --minlen=6\npwpolicy root --minlen=9\n%end\n"
    "%anaconda\npwpolicy user --emptyok\n%end\n",
    "#version=F25\n%ksappend /tmp/x.ks\ntext\n",
    "",
    "%anaconda\n%end\n",
)


# ---------------------------------------------------------------------------
# Mutators: each takes (text, rng) and returns new text.
# ---------------------------------------------------------------------------

JUNK_CHARS = ("\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\x1b", "\x1c", "\x1d", "\x1e",
              "\x7f", "\x85", "\xa0", "\xff", "\u2028", "\u2029", "\ufeff", "\ufffd",
              "\udc80", "\udcff", "\udc00", "\U0001f600", "\u0663", "\u00b2", "\t", "\r", "\"", "'",
              "\\", "#", "%", "=", "-", " ")

OPTION_WORDS = (
    "--minlen", "--minlen=", "--minlen=0", "--minlen=8", "--minlen=1024", "--minlen=1025",
    "--minlen=-1", "--minlen=abc", "--minlen=99999999999999999999999", "--minlen=0x10",
    "--minlen=\u0663", "--minlen=\u00b2", "--minlen= 3", "--minlen=3.5", "--minlen=+4",
    "--minquality", "--minquality=100", "--minquality=101", "--minquality=-0", "--minquality=50",
    "--strict", "--notstrict", "--changesok", "--nochanges", "--emptyok", "--notempty",
    "--strict=yes", "--emptyok=no", "--min", "--minl=3", "--minq=4", "--str", "--not",
    "--bogus", "-s", "-", "--", "---minlen=3", "--help", "-h", "--version",
    "root", "user", "luks", "ROOT", "Root", "admin", "''", '""', "'root'", '"user"',
    "'ro'ot", '"lu"ks', "'", '"', "'\"'", "\\", "root\\", "#", "# comment", "=", "7", "-5",
    "root=1", "--minlen='8'", '--minlen="8"', "--minlen=\"8", "\x00", "luks\x00", "\udcff",
)


def _lines(text):
    return text.splitlines(True)


def _insert_line(text, line, rng):
    lines = _lines(text)
    at = rng.randrange(len(lines) + 1)
    if at and lines and not lines[at - 1].endswith(("\n", "\r")):
        line = "\n" + line
    return "".join(lines[:at] + [line] + lines[at:])


def _anaconda_block(rng, body):
    end = rng.choice(("%end\n", "%end", "%end  \n", "%end # done\n", "%END\n", ""))
    header = rng.choice(("%anaconda\n", "%anaconda --foo\n", "  %anaconda\n", "%anaconda\t# x\n",
                         "%anaconda\r\n", "%ANACONDA\n"))
    return header + body + end


def m_truncate(text, rng):
    return text[:rng.randrange(len(text) + 1)]


def m_drop_end(text, rng):
    lines = _lines(text)
    ends = [i for i, line in enumerate(lines) if line.strip().startswith("%end")]
    if not ends:
        return m_truncate(text, rng)
    del lines[rng.choice(ends)]
    return "".join(lines)


def m_stray_end(text, rng):
    return _insert_line(text, rng.choice(("%end\n", "%end %end\n", " %end\n", "%end")), rng)


def m_junk_chars(text, rng):
    out = text
    for dummy in range(rng.randint(1, 6)):
        at = rng.randrange(len(out) + 1)
        junk = "".join(rng.choice(JUNK_CHARS) for dummy in range(rng.randint(1, 4)))
        out = out[:at] + junk + out[at:]
    return out


def m_binary(text, rng):
    """Random bytes, decoded the way a lenient reader would (latin-1 or surrogateescape)."""
    data = bytes(rng.randrange(256) for dummy in range(rng.randint(1, 64)))
    chunk = data.decode(rng.choice(("latin-1", "utf-8")), "surrogateescape" if rng.random() < 0.5 else "replace") \
        if rng.random() < 0.5 else data.decode("latin-1")
    at = rng.randrange(len(text) + 1)
    return text[:at] + chunk + text[at:]


def m_huge_line(text, rng):
    size = rng.choice((4096, 20000, 100000))
    kind = rng.randrange(5)
    if kind == 0:
        line = "pwpolicy root --minlen=" + "9" * size + "\n"
    elif kind == 1:
        line = "pwpolicy user " + " ".join(["--strict"] * (size // 9)) + "\n"
    elif kind == 2:
        line = "# " + "x" * size + "\n"
    elif kind == 3:
        line = "lang " + "a" * size + "\n"
    else:
        line = "pwpolicy luks --minlen=8 # " + "'" * size + "\n"
    if rng.random() < 0.5:
        return _insert_line(text, _anaconda_block(rng, line), rng)
    return _insert_line(text, line, rng)


def m_nul(text, rng):
    out = text
    for dummy in range(rng.randint(1, 3)):
        at = rng.randrange(len(out) + 1)
        out = out[:at] + "\x00" + out[at:]
    return out


def option_soup_line(rng):
    words = ["pwpolicy"] + [rng.choice(OPTION_WORDS) for dummy in range(rng.randint(0, 8))]
    if rng.random() < 0.6:
        words.insert(rng.randint(1, len(words)), rng.choice(NAMES))
    sep = rng.choice((" ", "  ", "\t", " \t "))
    return sep.join(words) + rng.choice(("\n", "\r\n", "\r", "  # trailing\n", "\\\n"))


def m_option_soup(text, rng):
    body = "".join(option_soup_line(rng) for dummy in range(rng.randint(1, 4)))
    if rng.random() < 0.3:
        return _insert_line(text, body, rng)
    return _insert_line(text, _anaconda_block(rng, body), rng)


def valid_line(rng, name=None):
    name = name or rng.choice(NAMES)
    words = ["pwpolicy", name]
    if rng.random() < 0.7:
        words.append("--minlen%s%d" % (rng.choice(("=", " ")), rng.randint(0, 1024)))
    if rng.random() < 0.7:
        words.append("--minquality%s%d" % (rng.choice(("=", " ")), rng.randint(0, 100)))
    for on, off in (("--strict", "--notstrict"), ("--changesok", "--nochanges"),
                    ("--emptyok", "--notempty")):
        if rng.random() < 0.5:
            words.append(rng.choice((on, off)))
    rng.shuffle(words[2:])
    return " ".join(words) + "\n"


def m_duplicates(text, rng):
    name = rng.choice(NAMES)
    body = "".join(valid_line(rng, name) for dummy in range(rng.randint(2, 4)))
    if rng.random() < 0.5:
        return _insert_line(text, _anaconda_block(rng, body), rng)
    return text + ("\n" if text and not text.endswith("\n") else "") + "%anaconda\n" + body + "%end\n"


def m_valid_section(text, rng):
    body = "".join(valid_line(rng) for dummy in range(rng.randint(0, 3)))
    if rng.random() < 0.3:
        body += rng.choice(("installclass --name=x\n", "# note\n", "\n", "  \n", "%include /x\n"))
    return _insert_line(text, "%anaconda\n" + body + "%end\n", rng)


def m_quotes(text, rng):
    lines = _lines(text)
    if not lines:
        return rng.choice(("'", '"', "pwpolicy 'root\n"))
    index = rng.randrange(len(lines))
    line = lines[index]
    at = rng.randrange(len(line) + 1)
    piece = rng.choice(("'", '"', "'\"'", "\"'\"", "'a\"b", "\"a'b", "\\", "\\'", "'\\", "\"\\\"",
                        "\"'nested \"quotes\"'", "'unterminated", "\"unterminated"))
    lines[index] = line[:at] + piece + line[at:]
    return "".join(lines)


def m_newlines(text, rng):
    lines = _lines(text)
    out = []
    for line in lines:
        body = line.rstrip("\r\n")
        if body != line and rng.random() < 0.4:
            line = body + rng.choice(("\n", "\r\n", "\r", "\n\r", "\r\r\n"))
        out.append(line)
    if out and rng.random() < 0.3:
        out[-1] = out[-1].rstrip("\r\n")
    return "".join(out)


def m_sections(text, rng):
    piece = rng.choice((
        "%anaconda\n%anaconda\npwpolicy root --minlen=3\n%end\n%end\n",
        "%anaconda\n%packages\n@core\n%end\n",
        "%packages\n%anaconda\npwpolicy root\n%end\n",
        "%anaconda\n%include /tmp/x\npwpolicy user\n%end\n",
        "%anaconda\n%ksappend /tmp/y\n%end\n",
        "%pre\n%anaconda\n%end\n",
        "%anaconda\n",
        "%anaconda --interpreter=/bin/sh\npwpolicy luks\n%end\n",
        "%addon com_redhat_kdump\n%end\n",
        "%bogus\nstuff\n%end\n",
        "%end\n%anaconda\n",
        "%include\n",
        "%ksappend\n",
        "%onerror\n%end\n",
        "%traceback\n%end\n",
    ))
    return _insert_line(text, piece, rng)


def m_lines(text, rng):
    lines = _lines(text)
    if len(lines) < 2:
        return text + text
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    choice = rng.randrange(3)
    if choice == 0:
        lines[i], lines[j] = lines[j], lines[i]
    elif choice == 1:
        lines.insert(j, lines[i])
    else:
        del lines[i]
    return "".join(lines)


def m_version(text, rng):
    line = rng.choice(("#version=F99999\n", "#version=\n", "#version=RHEL7.3\n", "#version=DEVEL\n",
                       "#version=F33\n", "#version=RHEL10\n", "#version=F21\n", "#version=\x00\n",
                       "#version=F34 extra\n", "#version=\udcff\n", "#version=F35\n", "#version=RHEL9\n"))
    if rng.random() < 0.5:
        return line + text
    return _insert_line(text, line, rng)


def m_secret(text, rng):
    line = rng.choice(SECRET_LINES)
    if rng.random() < 0.5:
        line = line.rstrip("\n") + rng.choice((" '", ' "', " --bogus", " \\", " \x00")) + "\n"
    return _insert_line(text, line, rng)


MUTATORS = (m_truncate, m_drop_end, m_stray_end, m_junk_chars, m_binary, m_huge_line, m_nul,
            m_option_soup, m_duplicates, m_valid_section, m_quotes, m_newlines, m_sections,
            m_lines, m_version, m_secret)


def mutate(text, rng, rounds=None):
    if rounds is None:
        rounds = rng.choice((1, 1, 2, 2, 3, 4))
    used = []
    for dummy in range(rounds):
        mutator = rng.choice(MUTATORS)
        used.append(mutator.__name__)
        text = mutator(text, rng)
    return text, used


def random_policies(rng, valid=True):
    """Policies for edit_kickstart: valid user input, or (valid=False) anything."""
    if not valid:
        return rng.choice((
            {"admin": {}}, {"root": {"minlen": -1}}, {"root": {"minlen": "x"}}, {"root": {"bogus": 1}},
            [{"minlen": 3}], [{"name": "root"}, {"name": "root"}], "root", 7, ["root"],
            {"root": {"strict": "maybe"}}, {"root": {"name": "user"}}, {"root": []},
            {"user": {"minquality": 101}}, {"luks": {"minlen": True}}, {"root": {"minlen": 1.5}},
            {"root": {"minlen": "\u0663"}}, {"root": {"strict": "\x00"}}, {None: {}},
            {("root",): {}}, [None], {}, [],
        ))
    chosen = rng.sample(NAMES, rng.randint(1, 3))
    result = {}
    for name in chosen:
        fields = {}
        if rng.random() < 0.6:
            fields["minlen"] = rng.choice((rng.randint(0, 1024), str(rng.randint(0, 64))))
        if rng.random() < 0.6:
            fields["minquality"] = rng.randint(0, 100)
        for flag in ("strict", "emptyok", "changesok"):
            if rng.random() < 0.4:
                fields[flag] = rng.choice((True, False, "yes", "no", "true", "off"))
        result[name] = fields
    if rng.random() < 0.3:
        return [dict(fields, name=name) for name, fields in result.items()]
    return result


# ---------------------------------------------------------------------------
# Oracles
# ---------------------------------------------------------------------------

def describe(kind, index, extra=""):
    return "%s input #%d (seed %d; rebuild with tests/unit/fuzz/_ksfuzz.py)%s" % (kind, index, SEED, extra)


def check_message(exc, context):
    """A clean failure: non-empty one-piece message, no traceback, no secret."""
    message = str(exc)
    assert message.strip(), "%s: empty error message from %s" % (context, type(exc).__name__)
    assert "Traceback" not in message, "%s: traceback in the message: %s" % (context, message[:500])
    assert MARKER not in message, "%s: the secret marker is in the error: %s" % (context, message[:500])


def _kept(text, outside_only=False):
    """The lines an edit must keep, with their endings (the last one without).

    Comment lines inside a ``%anaconda`` section go with the section when it is
    removed, so they are left out; ``outside_only`` gives just the comments
    outside every section (which must all be kept).
    """
    kept = []
    inside = False
    for line in text.splitlines(True):
        word = line.strip()
        first = word.split()[0] if word else ""
        if first == "%anaconda":
            inside = True
        elif first == "%end" or (first.startswith("%") and first not in ("%include", "%ksappend")):
            inside = False
        if outside_only:
            if word.startswith("#") and not inside:
                kept.append(line.rstrip("\r\n"))
            continue
        if not word or word.startswith("pwpolicy") or first in ("%anaconda", "%end"):
            continue
        if word.startswith("#") and inside:
            continue
        kept.append(line)
    if kept:
        kept[-1] = kept[-1].rstrip("\r\n")
    return kept


def check_edit(text, result, kwargs, parse_kickstart, build_policies, context):
    """A successful edit: the requested policies are in effect, nothing else changed."""
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import NAMES as ALL

    assert MARKER not in "".join(result.warnings), "%s: secret in a warning" % context
    release = result.release
    after = parse_kickstart(result.text, release, validate=False)
    assert after.policies == result.policies, "%s: returned policies differ from a re-parse" % context
    policies, product, state = kwargs.get("policies"), kwargs.get("product"), kwargs["state"]
    if state == "present":
        desired = build_policies(policies, product=product, target=release.name)
        for name, policy in desired.items():
            assert after.policies.get(name) == policy, (
                "%s: %s is %r after the edit, wanted %r" % (context, name, after.policies.get(name), policy))
        if kwargs.get("exclusive"):
            assert set(after.policies) == set(desired), "%s: exclusive kept other names" % context
    else:
        if product is not None:
            gone = ALL
        elif policies is None:
            gone = ALL
        else:
            gone = [p["name"] for p in policies] if isinstance(policies, list) else list(policies)
        for name in gone:
            assert name not in after.policies, "%s: %s still in effect after state=absent" % (context, name)
    assert _kept(result.text) == _kept(text), "%s: lines other than ours changed" % context
    assert _kept(result.text, True) == _kept(text, True), "%s: a comment line changed" % context
    if not result.changed:
        assert result.text == text, "%s: changed=False but the text differs" % context
