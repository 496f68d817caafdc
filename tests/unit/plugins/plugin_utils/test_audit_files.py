# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""plugin_utils/_audit_files.py: the audit's files, found by glob, read as ks_secrets_info reads them."""

import json
import os
import time

import pytest

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _files, _ks_secrets, _libxcrypt
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_secrets import FINDINGS
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _audit_files
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._audit_files import (
    DEVIATION,
    LEVELS,
    NO_MATCH,
    NOT_CHECKED,
    RULES,
    UNPARSED,
    UNREADABLE,
    AuditFilesError,
    audit_files,
    collect,
    file_findings,
    is_template,
    patterns_of,
    verdict_of,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import trips
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._report import (
    FILE_KEYS,
    FINGERPRINT,
    findings_table,
    outcome,
    to_json,
    to_junit,
    to_sarif,
)
from ansible_collections.kickstart.pwpolicy.tests.unit.leaks import assert_no_leak
from ansible_collections.kickstart.pwpolicy.tests.unit.opened import opened  # pylint: disable=unused-import

LIB = _libxcrypt.load()
needs_libxcrypt = pytest.mark.skipif(LIB is None, reason="libxcrypt is not installed here")
PLAIN = "Plain-Marker-7Hq2x"


def write(root, name, text):
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A repository of kickstarts and templates; the current directory is its root."""
    write(tmp_path, "ks/server.ks", "#version=RHEL9\nlang en_US.UTF-8\nrootpw --plaintext %s\n" % PLAIN)
    write(tmp_path, "ks/locked.ks", "#version=RHEL9\nrootpw --lock\n")
    write(tmp_path, "ks/nested/deep.ks", "#version=RHEL9\nuser --name=ops --password=%s --plaintext\n" % PLAIN)
    write(tmp_path, "foreman/site.erb", "<% if true -%>\nrootpw --iscrypted <%= root_pass %>\n<% end -%>\n")
    write(tmp_path, "cobbler/sample.ks",
          "#if $getVar('x', '')\nrootpw --iscrypted $default_password_crypted\n#end if\n")
    write(tmp_path, "README.md", "not a kickstart\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ---------------------------------------------------------------------------
# Patterns and collection
# ---------------------------------------------------------------------------
def test_patterns_are_a_list_or_one_comma_separated_string():
    assert patterns_of(["ks/*.ks", " a.ks ", ""], "paths") == ["ks/*.ks", "a.ks"]
    assert patterns_of("ks/*.ks,templates/*.erb", "paths") == ["ks/*.ks", "templates/*.erb"]
    assert patterns_of(None, "paths") == []


@pytest.mark.parametrize("value, words", [
    ({"ks": "*.ks"}, "paths must be a list of glob patterns (or one string of comma-separated ones), got a mapping"),
    (["ok.ks", 5], "paths[1] must be a glob pattern (a string), got a number"),
    (["a\0b"], "paths[0] holds a NUL character"),
])
def test_patterns_of_the_wrong_shape_are_refused_by_name(value, words):
    with pytest.raises(AuditFilesError) as caught:
        patterns_of(value, "paths")
    assert words in str(caught.value)


def test_collect_expands_globs_recursively_once_each_in_pattern_order(repo):
    files, unmatched = collect(["ks/**/*.ks", "ks/server.ks", "*.erb", "foreman/*"])
    assert [path for path, dummy in files] == ["ks/locked.ks", "ks/nested/deep.ks", "ks/server.ks",
                                               "foreman/site.erb"]
    assert unmatched == ["*.erb"]


def test_collect_keeps_paths_as_given_and_leaves_directories_out(repo):
    files, unmatched = collect(["./ks/*", str(repo / "foreman" / "site.erb"), "ks"])
    assert [path for path, dummy in files] == ["ks/locked.ks", "ks/server.ks", str(repo / "foreman" / "site.erb")]
    assert unmatched == ["ks"]  # a directory is no file to read


def test_templates_by_name_ending_or_by_pattern(repo):
    assert is_template("foreman/site.erb") and is_template("x/ks.cfg.J2") and is_template("a.tftpl")
    assert not is_template("cobbler/sample.ks")
    assert is_template("cobbler/sample.ks", ["cobbler/*"]) and is_template("cobbler/sample.ks", ["sample.ks"])
    files, dummy = collect(["cobbler/*.ks", "foreman/*", "ks/server.ks"], templates=["cobbler/*"])
    assert files == [("cobbler/sample.ks", True), ("foreman/site.erb", True), ("ks/server.ks", False)]


@pytest.fixture
def scandirs(monkeypatch):
    """Counts the directories listed (os.scandir, as glob lists them too); over 5,000 is a walk without end."""
    calls = []
    real = os.scandir

    def counting(path=os.curdir):
        calls.append(os.fspath(path))
        if len(calls) > 5000:
            raise RuntimeError("more than 5,000 directories listed: the walk does not end")
        return real(path)
    monkeypatch.setattr(os, "scandir", counting)
    return calls


def test_links_to_directories_make_no_cycle_under_double_star(repo, scandirs):
    os.symlink(".", str(repo / "ks" / "a"))
    os.symlink(".", str(repo / "ks" / "b"))
    os.symlink("..", str(repo / "ks" / "nested" / "up"))
    files, unmatched = collect(["ks/**/*.ks"])
    assert [path for path, dummy in files] == ["ks/locked.ks", "ks/nested/deep.ks", "ks/server.ks"]
    assert len(scandirs) == 2  # ks and ks/nested, each once: no link is walked
    findings, files, warnings = audit_files(["ks/**"], budget=0)
    assert files == ["ks/locked.ks", "ks/nested/deep.ks", "ks/server.ks"] and warnings == []


def test_a_single_wildcard_follows_a_link_inside_the_tree_a_bounded_number_of_times(repo, scandirs):
    os.symlink(".", str(repo / "ks" / "a"))
    files, unmatched = collect(["ks/*/*.ks", "ks/*/*/*.ks"])
    assert [path for path, dummy in files] == ["ks/a/locked.ks", "ks/a/server.ks", "ks/nested/deep.ks",
                                               "ks/a/a/locked.ks", "ks/a/a/server.ks", "ks/a/nested/deep.ks"]


def test_no_link_leads_out_of_the_tree_a_pattern_names(repo, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside")
    write(outside, "secret.ks", "rootpw --plaintext %s\n" % PLAIN)
    write(outside, "dir/other.ks", "rootpw --plaintext %s\n" % PLAIN)
    os.symlink(str(outside / "secret.ks"), str(repo / "ks" / "leak.ks"))
    os.symlink(str(outside / "dir"), str(repo / "ks" / "elsewhere"))
    os.symlink("../server.ks", str(repo / "ks" / "nested" / "same.ks"))  # inside the tree: read
    findings, files, warnings = audit_files(["ks/**/*.ks", "ks/*/*.ks"], budget=0)
    assert files == ["ks/locked.ks", "ks/nested/deep.ks", "ks/nested/same.ks", "ks/server.ks"]
    errors = [f for f in findings if f["verdict"] == "error"]
    assert [(f["file"], f["findings"]) for f in errors] == [("ks/leak.ks", [UNREADABLE])]
    assert "ks/leak.ks is a symbolic link that leads outside ks, where the pattern ks/**/*.ks starts; not read" \
        in errors[0]["reasons"][0]
    assert "name the file itself" in errors[0]["hints"][0]
    assert not any(str(outside) in (f["file"] or "") or "elsewhere" in (f["file"] or "") for f in findings)
    assert warnings == ["kickstart_audit_paths: 1 symbolic link to a directory outside the directory its pattern "
                        "starts in not followed (ks/elsewhere); name a linked directory before the first wildcard "
                        "of a pattern to read it"]
    assert_no_leak(PLAIN, errors, warnings)
    # Named before the first wildcard, a link is followed: the user asked for it.
    findings, files, warnings = audit_files(["ks/leak.ks", "ks/elsewhere/*.ks"], budget=0)
    assert [(f["file"], f["findings"]) for f in findings] == [("ks/leak.ks", ["plaintext"]),
                                                              ("ks/elsewhere/other.ks", ["plaintext"])]


def test_the_directories_walked_are_bounded(repo, monkeypatch, scandirs):
    monkeypatch.setattr(_audit_files, "MAX_DIRECTORIES", 5)  # ., ks, ks/nested, foreman, cobbler
    assert [path for path, dummy in collect(["**/*.ks"])[0]] == ["cobbler/sample.ks", "ks/locked.ks",
                                                                 "ks/nested/deep.ks", "ks/server.ks"]
    write(repo, "ks/more/x.ks", "rootpw --lock\n")
    with pytest.raises(AuditFilesError) as caught:
        collect(["**/*.ks"])
    assert "walk more than 5 directories (pattern '**/*.ks')" in str(caught.value)
    assert "narrow the patterns" in str(caught.value)
    assert len(scandirs) == 5 + 5  # the first walk, and the second up to the limit: the sixth is not listed


def test_a_tree_1100_directories_deep_is_walked_and_read(repo, scandirs):
    """No recursion: the file at the bottom is a finding like any other, and so are the others."""
    deep = "deep"
    os.mkdir(deep)
    for dummy in range(1100):  # one by one: os.makedirs recurses too
        deep = os.path.join(deep, "d")
        os.mkdir(deep)
    write(repo, os.path.join(deep, "bottom.ks"), "rootpw --plaintext %s\n" % PLAIN)
    try:
        findings, files, dummy = audit_files(["deep/**/*.ks", "ks/*.ks"], budget=0)
        assert files == [os.path.join(deep, "bottom.ks"), "ks/locked.ks", "ks/server.ks"]
        assert [(f["line"], f["findings"]) for f in findings] == [(1, ["plaintext"]), (2, []), (3, ["plaintext"])]
        assert len(scandirs) == 1101 + 1
    finally:
        # Removed here, bottom up: the shutil.rmtree of Python 3.11 (pytest's clean-up of old temporary
        # directories, in a later run) recurses once per level and stops at this depth.
        os.remove(os.path.join(deep, "bottom.ks"))
        while deep:
            os.rmdir(deep)
            deep = os.path.dirname(deep)


def test_a_directory_that_cannot_be_listed_is_an_error_finding_and_the_rest_is_read(repo):
    """A path longer than the system takes (PATH_MAX): made through directory descriptors."""
    fd = os.open("ks", os.O_RDONLY)
    try:
        for dummy in range(20):  # 20 names of 250 characters: more than PATH_MAX (4,096)
            os.mkdir("d" * 250, dir_fd=fd)
            inner = os.open("d" * 250, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        os.close(os.open("lost.ks", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd))
    finally:
        os.close(fd)
    findings, files, dummy = audit_files(["ks/**/*.ks"], budget=0)
    assert files == ["ks/locked.ks", "ks/nested/deep.ks", "ks/server.ks"]
    errors = [f for f in findings if f["verdict"] == "error"]
    assert len(errors) == 1 and errors[0]["findings"] == [UNREADABLE]
    assert errors[0]["file"].startswith("ks/" + "d" * 250) and len(errors[0]["file"]) > 4096
    assert "cannot be read: File name too long; the files below it were not checked" in errors[0]["reasons"][0]
    assert [f["file"] for f in findings if f["verdict"] != "error"] == ["ks/locked.ks", "ks/nested/deep.ks",
                                                                        "ks/server.ks"]


def test_too_many_files_are_refused_with_what_to_do(repo, monkeypatch):
    monkeypatch.setattr(_audit_files, "MAX_FILES", 3)
    with pytest.raises(AuditFilesError) as caught:
        collect(["ks/**/*.ks", "foreman/*", "cobbler/*"])
    assert "match more than 3 files" in str(caught.value) and "narrow the patterns" in str(caught.value)


# ---------------------------------------------------------------------------
# Levels
# ---------------------------------------------------------------------------
def test_every_finding_of_ks_secrets_info_has_a_level_and_a_sarif_rule():
    assert set(LEVELS) == set(FINDINGS)
    assert set(LEVELS.values()) == {"rejected", "accepted_weak"}
    assert [rule[0] for rule in RULES] == list(FINDINGS) + [UNPARSED, NOT_CHECKED, DEVIATION, UNREADABLE]


@pytest.mark.parametrize("ids, verdict", [
    ([], "accepted"),
    (["low_cost"], "accepted_weak"),
    (["legacy_scheme", "low_cost"], "accepted_weak"),
    (["legacy_scheme", "known_weak"], "rejected"),
    (["plaintext", "policy"], "rejected"),
])
def test_a_secret_gets_its_worst_finding_s_level(ids, verdict):
    assert verdict_of(ids) == verdict


def test_fail_on_judges_a_file_s_secret_as_a_host_s():
    weak = {"verdict": verdict_of(["low_cost"])}
    rejected = {"verdict": verdict_of(["plaintext"])}
    assert not trips(weak, "rejected") and trips(weak, "weak") and not trips(weak, "never")
    assert trips(rejected, "rejected") and trips(rejected, "weak") and not trips(rejected, "never")


@pytest.mark.parametrize("budget", [-1, 3601, "many", True, [2]])
def test_a_budget_out_of_range_is_refused(budget):
    with pytest.raises(AuditFilesError) as caught:
        audit_files(["*.ks"], budget=budget)
    assert "budget must be a number of seconds from 0 to 3600" in str(caught.value)


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------
def test_each_secret_is_a_finding_with_its_file_and_line(repo):
    findings, files, warnings = audit_files(["ks/**/*.ks", "foreman/*", "cobbler/*"], templates=["cobbler/*"],
                                            budget=0)
    assert files == ["ks/locked.ks", "ks/nested/deep.ks", "ks/server.ks", "foreman/site.erb", "cobbler/sample.ks"]
    assert warnings == []
    rows = [(f["file"], f["line"], f["secret"], f["form"], f["verdict"], f["findings"]) for f in findings]
    assert rows == [
        ("ks/locked.ks", 2, "rootpw", "locked", "accepted", []),
        ("ks/nested/deep.ks", 2, "user:ops", "plaintext", "rejected", ["plaintext"]),
        ("ks/server.ks", 3, "rootpw", "plaintext", "rejected", ["plaintext"]),
        # A value the template fills in is never accepted: nothing judged it.
        ("foreman/site.erb", 2, "rootpw", "template", "not_checked", ["not_checked"]),
        ("cobbler/sample.ks", 2, "rootpw", "template", "not_checked", ["not_checked"]),
    ]
    assert all(list(f) == list(FILE_KEYS) and f["host"] is None for f in findings)
    plain = findings[2]
    assert plain["reasons"][0].startswith("the password is written in the clear")
    assert len(plain["reasons"]) == len(plain["hints"]) == len(plain["findings"])
    assert not plain["ok"] and findings[0]["ok"]
    assert_no_leak(PLAIN, findings)


def test_a_cobbler_template_not_named_as_one_is_read_as_a_kickstart(repo):
    looks = []
    findings = file_findings("cobbler/sample.ks", template=False, budget=0, looks=looks)
    # $default... read as a value: a hash no scheme reads, never accepted.
    assert [(f["form"], f["verdict"], f["findings"]) for f in findings] == [("crypt", "unparsed", ["unparsed"])]
    assert looks == [("cobbler/sample.ks", (1, "Cheetah"))]


def test_files_that_look_like_templates_get_one_warning_naming_them(repo):
    write(repo, "cobbler/other.ks", "lang en_US.UTF-8\n<% if @host.pxe_build? %>\nrootpw --lock\n<% end %>\n")
    dummy, files, warnings = audit_files(["cobbler/*.ks", "foreman/*", "ks/*.ks"], budget=0)
    assert "foreman/site.erb" in files  # read as a template by its name: no warning
    looked = [warning for warning in warnings if "look like unrendered templates" in warning]
    assert looked == ["2 files read as rendered kickstarts look like unrendered templates (cobbler/other.ks (line 2, "
                      "ERB), cobbler/sample.ks (line 1, Cheetah)), so a value a template fills in would be judged "
                      "as the value itself: name them in kickstart_audit_templates, or give them a template's name "
                      "ending (.erb, .j2, .jinja, .jinja2, .tmpl, .tpl, .tftpl)"]
    dummy, dummy, warnings = audit_files(["cobbler/*.ks"], templates=["cobbler/*"], budget=0)
    assert not [warning for warning in warnings if "template" in warning]


@needs_libxcrypt
def test_a_weak_hash_is_rejected_a_legacy_one_weak(repo):
    weak = LIB.crypt(b"password", LIB.gensalt(b"$6$", 0, None)).decode()
    legacy = LIB.crypt(b"Zq8-not-a-listed-Pw-x7", LIB.gensalt(b"$1$", 0, None)).decode()
    write(repo, "ks/hashed.ks", "#version=RHEL9\nrootpw --iscrypted %s\nuser --name=ops --iscrypted --password=%s\n"
          % (weak, legacy))
    findings = file_findings("ks/hashed.ks", budget=1)
    assert [(f["line"], f["findings"], f["verdict"]) for f in findings] == [
        (2, ["known_weak"], "rejected"), (3, ["legacy_scheme"], "accepted_weak")]
    assert findings[0]["tried"] is None and findings[1]["tried"] > 0
    assert_no_leak(weak, findings)
    assert_no_leak(legacy, findings)


@pytest.mark.parametrize("name, data, words", [
    ("binary.ks", b"\x7fELF\x02\x01\x01\x00\xff\xfe", "is not UTF-8 text (byte 8)"),
    ("nul.ks", ("rootpw --plaintext %s\n\0\1\n" % PLAIN).encode(), "line 2 holds a NUL character"),
    ("long.ks", ("rootpw --plaintext %s %s\n" % (PLAIN, "x" * 20000)).encode(), "kickstart line 1: "),
])
def test_a_file_that_cannot_be_read_is_one_error_finding(repo, name, data, words):
    write(repo, "bad/" + name, data)
    findings, files, dummy = audit_files(["bad/*"], budget=0)
    assert files == ["bad/" + name] and len(findings) == 1
    found = findings[0]
    assert (found["secret"], found["verdict"], found["findings"], found["file"]) == (
        "file", "error", [UNREADABLE], "bad/" + name)
    assert words in found["reasons"][0] and found["hints"]
    assert trips(found, "rejected") and trips(found, "weak") and not trips(found, "never")
    assert_no_leak(PLAIN, findings)


def test_an_oversized_file_is_an_error_finding_and_is_not_read(repo):
    path = repo / "bad" / "huge.ks"
    path.parent.mkdir()
    with open(path, "wb") as handle:
        handle.truncate(_files.MAX_FILE_SIZE + 1)  # sparse: nothing to read, and nothing is
    found = file_findings("bad/huge.ks")
    assert [(f["verdict"], f["findings"]) for f in found] == [("error", [UNREADABLE])]
    assert "has %d bytes, more than the %d" % (_files.MAX_FILE_SIZE + 1, _files.MAX_FILE_SIZE) in found[0]["reasons"][0]


def test_a_device_is_an_error_finding_and_is_never_opened(repo, opened):
    os.symlink(os.devnull, str(repo / "ks" / "null.ks"))
    findings, files, dummy = audit_files([os.devnull, "ks/null.ks"], budget=0)
    assert files == [os.devnull, "ks/null.ks"]
    assert ["is a character device, not a regular file" in f["reasons"][0] and f["verdict"] == "error"
            for f in findings] == [True, True]
    assert opened == []


def test_a_fifo_is_an_error_finding_not_a_hang(repo):
    os.mkfifo(str(repo / "ks" / "pipe.ks"))
    start = time.monotonic()
    findings, files, dummy = audit_files(["ks/pipe.ks"], budget=0)
    assert time.monotonic() - start < 5
    assert "is a FIFO (named pipe), not a regular file" in findings[0]["reasons"][0]


def test_a_ten_megabyte_kickstart_is_read_in_bounded_time(repo):
    body = "echo %s\n" % ("y" * 70)
    write(repo, "ks/big.ks", "#version=RHEL9\nrootpw --plaintext %s\n%%post\n%s%%end\n"
          % (PLAIN, body * (10 * 1024 * 1024 // len(body))))
    start = time.monotonic()
    findings = file_findings("ks/big.ks", budget=0)
    assert time.monotonic() - start < 30
    assert [(f["line"], f["findings"]) for f in findings] == [(2, ["plaintext"])]


def test_a_broken_link_is_an_error_finding(repo):
    os.symlink("nowhere.ks", str(repo / "ks" / "gone.ks"))
    found = file_findings("ks/gone.ks")
    assert found[0]["verdict"] == "error" and "does not exist" in found[0]["reasons"][0]


def test_a_pattern_that_matches_no_file_is_an_error_finding(repo):
    findings, files, dummy = audit_files(["ks/*.ks", "moved/*.ks"], budget=0)
    assert files == ["ks/locked.ks", "ks/server.ks"]
    missing = findings[0]
    assert (missing["file"], missing["line"], missing["secret"], missing["verdict"], missing["findings"]) == (
        "moved/*.ks", None, "pattern", "error", [NO_MATCH])
    assert "matches no file" in missing["reasons"][0] and str(repo) in missing["reasons"][0]


def test_an_error_of_the_reader_itself_tells_its_kind_never_its_message(repo, monkeypatch):
    def broken(text, **kwargs):
        raise RuntimeError("line holds %s" % PLAIN)
    monkeypatch.setattr(_audit_files, "read_secrets", broken)
    found = file_findings("ks/server.ks")
    assert found[0]["reasons"] == ["could not be read (RuntimeError)"]
    assert_no_leak(PLAIN, found)


def test_the_reader_is_ks_secrets_info_s_own(repo, monkeypatch):
    calls = []

    def reader(text, **kwargs):
        calls.append(kwargs)
        return _ks_secrets.read_secrets(text, **kwargs)
    monkeypatch.setattr(_audit_files, "read_secrets", reader)
    audit_files(["foreman/site.erb", "ks/server.ks"], budget=0.5)
    assert [(call["template"], call["budget"]) for call in calls] == [(True, 0.5), (False, 0.5)]


def test_findings_are_json_and_hold_no_secret(repo):
    findings, dummy, dummy = audit_files(["ks/**/*.ks"], budget=0)
    assert_no_leak(PLAIN, json.loads(json.dumps(findings)))


def test_a_finding_keeps_its_sarif_fingerprint_when_lines_are_added_above_it(repo):
    def results():
        findings, dummy, dummy = audit_files(["ks/server.ks", "ks/nested/deep.ks"], budget=0)
        return [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"],
                 r["partialFingerprints"][FINGERPRINT])
                for r in json.loads(to_sarif(findings))["runs"][0]["results"]]
    before = results()
    text = (repo / "ks" / "server.ks").read_text()
    write(repo, "ks/server.ks", "# a comment\n# and another\n" + text)
    after = results()
    assert [(rule, line + 2) for rule, line, dummy in before[:1]] == [(rule, line) for rule, line, dummy in after[:1]]
    assert [value for dummy, dummy, value in before] == [value for dummy, dummy, value in after]
    assert_no_leak(PLAIN, before, after)


def test_a_hostile_template_gets_a_bounded_run_and_a_clear_row(repo):
    # Template openers without closers all along every line, and more secret lines than a file may hold.
    line = "rootpw --plaintext x%s\n" % ("<%{{${{%%{$a(" * 80)
    write(repo, "templates/hostile.erb", line * 1900)
    start = time.monotonic()
    findings = file_findings("templates/hostile.erb", template=True, budget=0)
    assert time.monotonic() - start < 30
    assert [(f["verdict"], f["line"]) for f in findings] == [("error", 501)]
    assert "more than 500 secrets" in findings[0]["reasons"][0]


STIG_FORGOT = ("#version=RHEL9\nrootpw --lock\nbootloader --timeout=3\nautopart --type=lvm  # --encrypted\n"
               "%post\necho 'minlen = 15' > /etc/security/pwquality.conf.d/50-site.conf\n%end\n")


def test_a_placeholder_and_an_unparsed_hash_are_never_accepted(repo):
    write(repo, "ks/placeholders.ks", "#version=RHEL9\nrootpw --iscrypted notahash\n")
    write(repo, "ks/site.erb", "rootpw --iscrypted <%= root_pass %>\n")
    findings, dummy, dummy = audit_files(["ks/placeholders.ks", "ks/site.erb"], budget=0)
    assert [(f["file"], f["verdict"], f["findings"]) for f in findings] == [
        ("ks/placeholders.ks", "unparsed", [UNPARSED]), ("ks/site.erb", "not_checked", [NOT_CHECKED])]
    assert not trips(findings[0], "rejected") and trips(findings[0], "weak")
    assert not any(trips(findings[1], fail_on) for fail_on in ("rejected", "weak"))
    assert "1 not_checked, 1 unparsed" in outcome(findings, "rejected", files=["a", "b"])[1]


def test_a_profile_judges_each_file_by_rule_and_line(repo):
    write(repo, "ks/web01.ks", STIG_FORGOT)
    findings, dummy, dummy = audit_files(["ks/*.ks"], budget=0, profile="stig")
    judged = [(f["secret"], f["line"], f["verdict"]) for f in findings if DEVIATION in f["findings"]]
    assert ("stig:RHEL-09-212010", 3, "rejected") in judged  # a bootloader line without a password
    assert ("stig:RHEL-09-231190", 4, "rejected") in judged  # the comment encrypts nothing
    assert ("stig:RHEL-09-611130", None, "rejected") in judged  # minclass not set: libpwquality's default
    assert all(f["rules"] for f in findings if DEVIATION in f["findings"])
    sarif = json.loads(to_sarif(findings))
    results = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == DEVIATION]
    assert len(results) == len(judged) and len(set(r["partialFingerprints"][FINGERPRINT] for r in results)) == len(
        results)
    assert results[0]["properties"]["profileRules"]


def test_a_profile_per_pattern_and_a_file_without_a_release(repo):
    write(repo, "ks/web01.ks", STIG_FORGOT)
    write(repo, "other/plain.ks", "rootpw --lock\nautopart\n")
    findings, dummy, dummy = audit_files(["ks/*.ks", "other/*.ks"], budget=0,
                                         profile={"ks/*": "stig", "*.ks": ["cis_server_l1"]})
    files = dict((f["file"], f) for f in findings if f["secret"] == "profile")
    assert files["other/plain.ks"]["verdict"] == "error"
    assert "cannot be judged against cis_server_l1: it names no release" in files["other/plain.ks"]["reasons"][0]
    assert any(f["secret"].startswith("stig:") for f in findings if f["file"] == "ks/web01.ks")
    # With a target, the file without a #version= line is judged for it.
    findings, dummy, dummy = audit_files(["other/*.ks"], budget=0, profile="cis_server_l1", target="RHEL9")
    secrets = [f["secret"] for f in findings]
    assert "profile" not in secrets and secrets[0] == "rootpw"
    assert all(secret.startswith("cis_server_l1:") for secret in secrets[1:]) and len(secrets) > 1
    with pytest.raises(AuditFilesError) as caught:
        audit_files(["other/*.ks"], profile=["stig", "Secret-Value-9"])
    assert "kickstart_audit_profile[1] is no compliance profile" in str(caught.value)
    assert "Secret-Value-9" not in str(caught.value)
    # Profile names in any case; a typo of one is shown with the name it is close to.
    assert audit_files(["other/*.ks"], budget=0, profile="CIS_Server_L1", target="RHEL9")[0] == findings
    with pytest.raises(AuditFilesError) as caught:
        audit_files(["other/*.ks"], profile=["stig", "cis_sever_l1"])
    assert "kickstart_audit_profile[1] ('cis_sever_l1', did you mean 'cis_server_l1'?) is no compliance profile" \
        in str(caught.value)


def test_a_baseline_waives_by_rule_and_file_and_says_so_everywhere(repo):
    write(repo, "ks/web01.ks", STIG_FORGOT)
    write(repo, "ks/legacy.ks", "#version=RHEL9\nrootpw --plaintext Summer-Legacy-2019\n")
    write(repo, "baseline.yml", "- rule: RHEL-09-231190\n  file: ks/web01.ks\n  reason: encrypted by the SAN\n"
                                "- rule: plaintext\n  file: ks/legacy*\n  reason: retired in March\n"
                                "- rule: known_weak\n  file: ks/gone.ks\n")
    findings, dummy, warnings = audit_files(["ks/*.ks"], budget=0, profile="stig", baseline="baseline.yml")
    waived = [(f["file"], f["secret"], f["waiver"]) for f in findings if f.get("waived")]
    assert ("ks/web01.ks", "stig:RHEL-09-231190", "encrypted by the SAN") in waived
    assert ("ks/legacy.ks", "rootpw", "retired in March") in waived
    assert warnings == ["kickstart_audit_baseline: the waiver of known_weak for ks/gone.ks matched no finding; "
                        "remove it if the finding is fixed"]
    legacy = [f for f in findings if f["file"] == "ks/legacy.ks"][0]
    assert legacy["verdict"] == "rejected" and not trips(legacy, "rejected")
    assert "rejected (waived)" in findings_table(findings)
    assert json.loads(to_json(findings))[[f["file"] for f in findings].index("ks/legacy.ks")]["waived"] is True
    assert 'skipped message="waived: retired in March"' in to_junit(findings, "rejected")
    results = json.loads(to_sarif(findings))["runs"][0]["results"]
    suppressed = [r for r in results if r.get("suppressions")]
    assert {r["suppressions"][0]["justification"] for r in suppressed} == {"encrypted by the SAN", "retired in March"}
    assert_no_leak("Summer-Legacy-2019", findings)


@pytest.mark.parametrize("text, says", [
    ("- rule: plaintext\n", "entry 1 needs file (text)"),
    ("- {rule: plaintext, file: x, owner: me}\n", "entry 1 has unknown keys owner; its keys are rule, file, reason"),
    ("rule: plaintext\n", "must be a list of {rule, file, reason}, got a mapping"),
    ("- [unclosed\n", "is no YAML or JSON list (line 2)"),
])
def test_a_bad_baseline_is_an_error_naming_the_entry(repo, text, says):
    write(repo, "baseline.yml", text)
    write(repo, "ks/a.ks", "rootpw --lock\n")
    with pytest.raises(AuditFilesError) as caught:
        audit_files(["ks/a.ks"], budget=0, baseline="baseline.yml")
    assert says in str(caught.value)


def test_a_file_judged_by_profile_is_read_once(repo, monkeypatch):
    from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _ks_secrets
    calls = []
    real = _ks_secrets.read_lines

    def counting(*args):
        calls.append(args[2])
        return real(*args)
    monkeypatch.setattr(_ks_secrets, "read_lines", counting)
    write(repo, "ks/web01.ks", STIG_FORGOT)
    findings, dummy, dummy = audit_files(["ks/web01.ks"], budget=0, profile="stig", target="RHEL9")
    assert calls == ["RHEL9"] and any(DEVIATION in f["findings"] for f in findings)
