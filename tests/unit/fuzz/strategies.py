# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hypothesis strategies and settings profiles of the fuzz tests.

Everything that generates input for the fuzz tests is here: the seed
kickstarts (the kickstart-tests corpus and a few built-in ones), the mutators
``m_*`` (each takes a text and a ``random.Random`` and returns a new text; the
strategies feed them ``st.randoms(use_true_random=False)``, so hypothesis
records, replays and shrinks every choice they make), malformed user input for
the policy functions, mutated anaconda drop-ins, and valid ``Policy`` objects
(also used by the property tests in ``tests/unit/plugins``).

Profiles (see docs/fuzzing.md), chosen by ``KSPW_FUZZ_PROFILE``:

``default``
    ``make test``: derandomized, no example database, a budget that keeps
    ``tests/unit/fuzz`` at about half a minute on two cores.
``long``
    ``make fuzz``: 20 times the examples, a new random start every run, failing
    examples kept in ``build/hypothesis`` and replayed first by the next run.

Each fuzz test takes ``fuzz_settings(weight)``: the profile with
``max_examples`` = weight x the profile's examples (``KSPW_FUZZ_EXAMPLES``
overrides the profile's number).  The profiles are not loaded globally, so the
other hypothesis tests keep their own settings.
"""

import copy
import os

from hypothesis import HealthCheck, note, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import FIELDS, NAMES, PRODUCTS, Policy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))))
CORPUS_DIR = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "kickstart-tests")
DATABASE_DIR = os.path.join(ROOT, "build", "hypothesis")

# ---------------------------------------------------------------------------
# Profiles
# ---------------------------------------------------------------------------

# Inputs are large and the code under test is slow on purpose (pykickstart);
# a few mutators draw many choices from the random generator.
_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("kspw-fuzz", max_examples=100, derandomize=True, database=None, deadline=None,
                          print_blob=True, suppress_health_check=_HEALTH)
settings.register_profile("kspw-fuzz-long", max_examples=2000, derandomize=False,
                          database=DirectoryBasedExampleDatabase(DATABASE_DIR), deadline=None,
                          print_blob=True, suppress_health_check=_HEALTH)
PROFILES = {"default": "kspw-fuzz", "long": "kspw-fuzz-long"}
PROFILE_NAME = os.environ.get("KSPW_FUZZ_PROFILE", "default")
if PROFILE_NAME not in PROFILES:
    raise ValueError("KSPW_FUZZ_PROFILE=%r: use one of %s" % (PROFILE_NAME, ", ".join(sorted(PROFILES))))
PROFILE = settings.get_profile(PROFILES[PROFILE_NAME])
EXAMPLES = int(os.environ.get("KSPW_FUZZ_EXAMPLES", "") or PROFILE.max_examples)


def fuzz_settings(weight=1.0, **changes):
    """The chosen profile, with ``weight`` times its examples (at least one)."""
    return settings(PROFILE, max_examples=max(1, int(round(EXAMPLES * weight))), **changes)


def chance(percent):
    """True in about ``percent`` % of the draws; shrinks to False."""
    return st.integers(0, 99).map(lambda n: n >= 100 - percent)


def rngs():
    """A ``random.Random`` whose every call is a hypothesis choice (recorded, replayed, shrunk)."""
    return st.randoms(use_true_random=False)


# ---------------------------------------------------------------------------
# Secrets, targets, names
# ---------------------------------------------------------------------------

# A value that must never appear in an error, warning or diff.
MARKER = "Fz9MarkerSecret"
SECRET_LINES = (
    "rootpw --plaintext %s\n" % MARKER,
    "user --name=alice --password=%s --plaintext\n" % MARKER,
    "bootloader --password=%s\n" % MARKER,
    "sshpw --username=root %s --plaintext\n" % MARKER,
)

# F33 first: hypothesis draws the first element more often and shrinks towards it.
TARGETS = ("F33", "F22", "F25", "F28", "F30", "F34", "F35", "F36", "F40",
           "RHEL7", "RHEL8", "RHEL9", "RHEL10", "DEVEL", None)
BAD_TARGETS = ("F2", "bogus", "", "  ", "F 30", "RHEL6", "f30\x00", "F" + "9" * 40)


@st.composite
def targets(draw):
    """A target of the release matrix (or None), one time in twenty an invalid one."""
    if draw(chance(5)):
        return draw(st.sampled_from(BAD_TARGETS))
    return draw(st.sampled_from(TARGETS))


# ---------------------------------------------------------------------------
# Seed kickstarts
# ---------------------------------------------------------------------------

def corpus_texts():
    """The corpus kickstarts as (file name, text), decoded as the module decodes files, or []."""
    found = []
    if os.path.isdir(CORPUS_DIR):
        for directory, _dirs, names in os.walk(CORPUS_DIR):
            for name in sorted(names):
                if ".ks" in name:
                    with open(os.path.join(directory, name), "rb") as handle:
                        data = handle.read()
                    try:
                        found.append((name, data.decode("utf-8")))
                    except UnicodeDecodeError:
                        continue
    return sorted(found)


CORPUS = tuple(corpus_texts())

BUILTIN_KICKSTARTS = tuple(("builtin-%d" % index, text) for index, text in enumerate((
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
)))

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


@st.composite
def mutated_kickstarts(draw, seeds, first=None):
    """A seed kickstart of ``seeds`` ((name, text) pairs) after one to four mutators.

    ``first``, when given, is always applied first (then up to three drawn ones).
    The seed's name and the mutators are printed with a falsifying example.
    """
    name, text = draw(st.sampled_from(seeds))
    mutators = draw(st.lists(st.sampled_from(MUTATORS), min_size=0 if first else 1, max_size=3))
    if first is not None:
        mutators.insert(0, first)
    rng = draw(rngs())
    for mutator in mutators:
        text = mutator(text, rng)
    note("seed kickstart %s, mutators %s" % (name, "+".join(m.__name__ for m in mutators)))
    return text


# Lines a generated kickstart is assembled from (with arbitrary text between them).
LINE_PIECES = (
    "#version=F33", "#version=RHEL8", "#version=F36", "#version=F22", "#version=F35", "%anaconda", "%end", "%packages", "@core",
    "%post", "%include /tmp/x", "%ksappend /y", "lang en_US.UTF-8", "rootpw --plaintext " + MARKER,
    "user --name=bob --password=" + MARKER, "pwpolicy root --minlen=8", "pwpolicy user --emptyok",
    "pwpolicy luks --strict --minquality 60", "pwpolicy", "pwpolicy admin", "pwpolicy root user",
    "pwpolicy root --minlen", "pwpolicy root --bogus", "installclass --name=x", "", "# comment",
    "pwpolicy --minlen=010 -- root", "pwpolicy root --minlen=-1 --minquality=70000", "pwpolicy 'root user'",
)


@st.composite
def kickstarts(draw):
    """A kickstart assembled from kickstart-like lines and arbitrary text, with LF, CRLF or CR."""
    piece = st.sampled_from(LINE_PIECES)
    pieces = draw(st.lists(st.one_of(piece, piece, st.text(max_size=40)), max_size=25))
    newline = draw(st.sampled_from(("\n", "\r\n", "\r")))
    text = newline.join(pieces)
    if draw(st.booleans()):
        text += newline
    return text


# Lines a change of a parsed kickstart puts in (test_fuzz_revalidate): what the
# module writes, and what it never writes but a wrong proof would let through.
CHANGE_LINES = (
    "pwpolicy root --minlen=8 --minquality=1 --strict --nochanges --notempty\n",
    "pwpolicy user --minlen=6 --minquality=1 --notstrict --changesok --emptyok  # site\n",
    "  pwpolicy luks --minlen 12\r\n", "pwpolicy root --minlen=8", "pwpolicy root\r",
    "pwpolicy bogus\n", "pwpolicy root --minlen=x\n", "pwpolicy root user\n", "pwpolicy 'root\n",
    "%end\n", "  %end # x\n", "%end\u00a0x\n", "%END\n", "%anaconda\n", "%post\n", "%packages\n",
    "%include /tmp/x.ks\n", "%ksappend /tmp/y.ks\n", "%bogus\n", "reboot\n", "installclass --name=x\n",
    "rootpw --plaintext " + MARKER + "\n", "\n", "  \n", "# comment\n", "#platform=x86\n", "\r\n",
    "\n%anaconda\npwpolicy root --minlen=9\n%end\n", "%anaconda\n%end\n",
)


@st.composite
def line_changes(draw, parsed):
    """(replace, delete, insert) over ``parsed.lines`` as ``_ks_validate.Splice`` takes them.

    Most changes fall inside (or on the edges of) the ``%anaconda`` sections,
    some anywhere; sometimes a whole section goes, or text is appended.
    """
    count = len(parsed.lines)
    inside = [index for info in parsed.sections
              for index in range(info.header - 1, (info.end or count))]
    anywhere = st.integers(0, max(0, count - 1))
    where = st.sampled_from(inside) if inside and draw(chance(80)) else anywhere
    replace, delete, insert = {}, set(), {}
    for dummy in range(draw(st.integers(0, 4)) if count else 0):
        index, line = draw(where), draw(st.sampled_from(CHANGE_LINES))
        kind = draw(st.integers(0, 2))
        if kind == 0:
            replace[index] = line
        elif kind == 1:
            delete.add(index)
        else:
            insert.setdefault(index, []).append(line)
    if parsed.sections and draw(chance(20)):
        info = draw(st.sampled_from(parsed.sections))
        delete.update(range(info.header - 2 if info.header > 1 else 0, info.end or count))
    if draw(chance(30)):
        insert.setdefault(count, []).append(draw(st.sampled_from(CHANGE_LINES[-2:] + CHANGE_LINES[:3])))
    return replace, delete, insert


# ---------------------------------------------------------------------------
# User input for the policy functions and edit_kickstart
# ---------------------------------------------------------------------------

FLAG_VALUES = (True, False, "yes", "no", "true", "off")
BAD_POLICIES = (
    {"admin": {}}, {"root": {"minlen": -1}}, {"root": {"minlen": "x"}}, {"root": {"bogus": 1}},
    [{"minlen": 3}], [{"name": "root"}, {"name": "root"}], "root", 7, ["root"],
    {"root": {"strict": "maybe"}}, {"root": {"name": "user"}}, {"root": []},
    {"user": {"minquality": 101}}, {"luks": {"minlen": True}}, {"root": {"minlen": 1.5}},
    {"root": {"minlen": "\u0663"}}, {"root": {"strict": "\x00"}}, {None: {}},
    {("root",): {}}, [None], {}, [],
)
ODD_VALUES = (None, True, False, 0, 1, -1, 8, 1024, 1025, 100, 101, 2 ** 70, -2 ** 70, 1.5, float("nan"),
              float("inf"), "", " ", "8", " 8 ", "+8", "-8", "08", "0x10", "1e3", "\u0663", "\u00b2",
              "\uff18", "yes", "no", "true", "False", "on", "off", "maybe", "y", "1", "0", "\x00",
              "\udcff", "++3", "+\u00b9", [], {}, [8], {"a": 1}, b"8", object(), ("root",))
ODD_NAMES = ("root", "user", "luks", "ROOT", "admin", "", None, 1, ("root",), "root ", "\udcff")
ODD_KEYS = FIELDS + ("bogus", "", "MINLEN", None, 3, "min len")


def _fresh(values):
    """One of ``values``, copied (the code under test gets its own lists and dicts)."""
    return st.sampled_from(values).map(copy.deepcopy)


@st.composite
def user_policies(draw):
    """Valid ``policies`` as a user writes them: a dict by name, or a list of dicts with a name."""
    result = {}
    for name in draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=3, unique=True)):
        fields = {}
        if draw(chance(60)):
            fields["minlen"] = draw(st.one_of(st.integers(0, 1024), st.integers(0, 64).map(str)))
        if draw(chance(60)):
            fields["minquality"] = draw(st.integers(0, 100))
        for flag in ("strict", "emptyok", "changesok"):
            if draw(chance(40)):
                fields[flag] = draw(st.sampled_from(FLAG_VALUES))
        result[name] = fields
    if draw(chance(30)):
        return [dict(fields, name=name) for name, fields in result.items()]
    return result


def bad_policies():
    """``policies`` values the policy model must refuse (or, ``{}`` and ``[]``, treat as empty)."""
    return _fresh(BAD_POLICIES)


@st.composite
def edit_args(draw):
    """Keyword arguments of ``edit_kickstart``: mostly valid policies, sometimes bad ones or none."""
    kwargs = dict(target=draw(targets()), validate=draw(st.booleans()),
                  state="absent" if draw(chance(25)) else "present", exclusive=draw(chance(20)))
    roll = draw(st.integers(0, 99))
    if roll < 75:
        kwargs["policies"] = draw(user_policies())
    elif roll < 85:
        kwargs["policies"] = draw(bad_policies())
    if draw(chance(15)):
        kwargs["product"] = draw(st.sampled_from(PRODUCTS))
    return kwargs


@st.composite
def _odd_fields(draw):
    result = {}
    for dummy in range(draw(st.integers(0, 5))):
        key = draw(st.sampled_from(ODD_KEYS)) if draw(chance(20)) else draw(st.sampled_from(FIELDS[1:]))
        result[key] = draw(_fresh(ODD_VALUES))
    return result


@st.composite
def _odd_entry(draw, named):
    if draw(chance(10)):
        return draw(_fresh(ODD_VALUES))
    fields = draw(_odd_fields())
    if named and draw(chance(90)):
        fields["name"] = draw(st.sampled_from(ODD_NAMES))
    return fields


def policy_inputs():
    """Arbitrary, mostly malformed, input for normalize_policies, build_policies and policy_from."""
    return st.one_of(
        st.dictionaries(st.sampled_from(ODD_NAMES), _odd_entry(named=False), max_size=4),
        st.lists(_odd_entry(named=True), max_size=4),
        user_policies(),
        bad_policies(),
        _fresh(ODD_VALUES),
        st.sampled_from(ODD_NAMES),
    )


def nested_inputs():
    """Nested lists and dicts of scalars and policy words, up to 12 leaves."""
    return st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
        | st.sampled_from(("root", "user", "luks", "minlen", "minquality", "strict", "emptyok", "changesok", "name")),
        lambda children: st.lists(children, max_size=4) | st.dictionaries(
            st.sampled_from(FIELDS + ("root", "user", "luks", "bogus")), children, max_size=5),
        max_leaves=12)


# ---------------------------------------------------------------------------
# Valid policies (property tests of tests/unit/plugins)
# ---------------------------------------------------------------------------

@st.composite
def policies(draw, names=NAMES, luks_changesok=True):
    """A valid ``Policy`` named from ``names``; with ``luks_changesok=False`` a luks policy has changesok=False."""
    name = draw(st.sampled_from(names))
    changesok = draw(st.booleans()) if (name != "luks" or luks_changesok) else False
    return Policy(name=name, minlen=draw(st.integers(0, 1024)), minquality=draw(st.integers(0, 100)),
                  strict=draw(st.booleans()), emptyok=draw(st.booleans()), changesok=changesok)


def policy_lists():
    """One to three policies, each name once."""
    return st.lists(policies(), min_size=1, max_size=3, unique_by=lambda p: p.name)


def policy_maps(luks_changesok=False):
    """A non-empty dict name -> Policy (luks without changesok by default, as a drop-in holds it)."""
    return st.fixed_dictionaries(
        {}, optional=dict((n, policies(names=(n,), luks_changesok=luks_changesok)) for n in NAMES)).filter(bool)


# ---------------------------------------------------------------------------
# Anaconda configuration drop-ins
# ---------------------------------------------------------------------------

CONF_TARGETS = (None, "F34", "F36", "F40", "RHEL9", "RHEL10", "F30", "bogus")
CONF_SEEDS = (
    "[User Interface]\ncan_change_root = True\ncan_change_users = False\npassword_policies =\n"
    "    root (quality 1, length 6)\n    user (quality 1, length 6, empty)\n"
    "    luks (quality 1, length 6)\n",
    "[Anaconda]\nactivatable_modules = x\n[User Interface]\npassword_policies = root (quality 30, "
    "length 15, strict)\n",
    "# comment\n[User Interface]\n",
    "",
)
POLICY_LINE_WORDS = ("root", "user", "luks", "admin", "(", ")", "((", "quality", "quality 1", "quality x",
                     "length", "length 6", "length -1", "length 2000", "quality 101", "strict", "strict 1",
                     "empty", "empty yes", "bogus", ",", ",,", " ", "\t", "%(x)s", "%", "\x00", "\udcff",
                     "\u0663", "#", ";", "=", ":")
# Characters of password_policies lines: the words, digits, punctuation and a few odd ones.
POLICY_LINE_ALPHABET = tuple(sorted(set("rootuserlks qualitylengthstrictempty 0123456789(),\t-+_x\x00\u0663")))


def policy_line_texts(max_size=60):
    """Text made of the characters of a password_policies line."""
    return st.text(alphabet=st.sampled_from(POLICY_LINE_ALPHABET), max_size=max_size)


def mutate_conf(text, rng):
    lines = text.splitlines(True)
    for dummy in range(rng.randint(1, 4)):
        kind = rng.randrange(8)
        at = rng.randrange(len(lines) + 1)
        if kind == 0:
            soup = "".join(rng.choice(POLICY_LINE_WORDS) + rng.choice(("", " ", ", "))
                           for dummy in range(rng.randint(0, 8)))
            lines.insert(at, rng.choice(("    ", "", "\t")) + soup + "\n")
        elif kind == 1:
            lines.insert(at, rng.choice(("[User Interface]\n", "[User Interface\n", "[]\n", "password_policies =\n",
                                         "can_change_root = maybe\n", "can_change_users =\n",
                                         "password_policies = root (quality 1, length 6)\n",
                                         "    root (quality 2, length 7)\n", "key\n", "= value\n")))
        elif kind == 2 and lines:
            lines.insert(at, lines[rng.randrange(len(lines))])
        elif kind == 3 and lines:
            del lines[rng.randrange(len(lines))]
        elif kind == 4:
            joined = "".join(lines)
            lines = [joined[:rng.randrange(len(joined) + 1)]]
        elif kind == 5:
            lines = m_junk_chars("".join(lines), rng).splitlines(True)
        elif kind == 6:
            lines = m_newlines("".join(lines), rng).splitlines(True)
        else:
            lines = m_quotes("".join(lines), rng).splitlines(True)
    return "".join(lines)


@st.composite
def mutated_confs(draw):
    """A drop-in of CONF_SEEDS after one to four mutations (option soup, broken INI, junk, newlines, quotes)."""
    return mutate_conf(draw(st.sampled_from(CONF_SEEDS)), draw(rngs()))


# ---------------------------------------------------------------------------
# Hostile sizes
# ---------------------------------------------------------------------------

BOUND_MARKER = "Bx7Secret"
SHAPES = ("duplicate_users", "rootpw_lines", "pwpolicy_lines", "long_command", "sections", "anaconda_sections",
          "network_lines", "packages", "script", "comments")


def hostile_kickstart(kind, count):
    """A kickstart body of a shape that once took time growing with the square of ``count``."""
    if kind == "duplicate_users":
        return "".join("user --name=u%d --password=%s%d --plaintext\n" % (i % 7, BOUND_MARKER, i) for i in range(count))
    if kind == "rootpw_lines":
        return "".join("rootpw --plaintext %s%d\n" % (BOUND_MARKER, i) for i in range(count))
    if kind == "pwpolicy_lines":
        return "%anaconda\n" + "pwpolicy root --minlen=8\n" * count + "%end\n"
    if kind == "long_command":
        return "firewall --enabled " + " ".join("--port=%d:tcp" % i for i in range(count)) + "\n"
    if kind == "sections":
        return "%post\necho x\n%end\n" * (count // 10 + 1)
    if kind == "anaconda_sections":
        return "%anaconda\npwpolicy root --minlen=8\n%end\n" * (count // 10 + 1)
    if kind == "network_lines":
        return "".join("network --bootproto=dhcp --device=eth%d\n" % i for i in range(count))
    if kind == "packages":
        return "%packages\n" + "".join("package-%d\n" % i for i in range(count)) + "%end\n"
    if kind == "script":
        return "%post\n" + "echo step >> /root/log\n" * (count * 10) + "%end\n"
    return "# comment\n" * (count * 10)
