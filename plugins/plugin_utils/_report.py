# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reports over the findings of many hosts and files: one table, JSON, JUnit XML and SARIF 2.1.0.

Findings are what plugin_utils/_preflight.py makes for a host's secret
(``host``, ``secret``, ``verdict``, ``ok``, ``score``, ``strength``,
``reasons``, ``hints``, ``policy``) and plugin_utils/_audit_files.py for a
file's (the same keys, ``host`` null, then ``file``, ``line`` and what the
file holds: :data:`FILE_KEYS`); they never hold a secret, and nothing here
adds one.  A host's finding may name a file on that host and a line
(:data:`OPTIONAL_HOST_KEYS`: what the verify playbook finds on an installed
host, plugin_utils/_verify.py).  SARIF holds the findings that have a place in
a file: every file's, and a host's that names a file on the host (its URI is
``file://HOST/path``); code scanning refuses a result without a place in a
file, and a host's secret has none.  The audit playbook's ``audit_report``
action and the verify playbook's ``verify_report`` are the callers.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import hashlib
import json
import os
import re
import textwrap
import xml.etree.ElementTree as ET

from urllib.parse import quote

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._files import replace_atomic
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._audit_files import (
    DEVIATION,
    NO_MATCH,
    RULES,
    UNREADABLE,
    rule_level,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preflight import (
    VERDICTS,
    check_fail_on,
    error_finding,
    is_secret,
    verdict_counts_text,
    trips,
)

# The keys of a finding, in the order reports show them; a file's secret has more.
KEYS = ("host", "secret", "verdict", "ok", "score", "strength", "reasons", "hints", "policy")
FILE_KEYS = KEYS + ("file", "line", "command", "account", "form", "scheme", "cost", "tried", "findings")
# A file's finding has these only where they apply: a deviation's rule ids, a baseline's waiver.
OPTIONAL_FILE_KEYS = ("rules", "waived", "waiver")
# A host's finding has these only where they apply: the file on the host and the line where it was found, the ids
# of the rules it is of (the first is its rule), and a waiver (kickstart_profile_exceptions).
OPTIONAL_HOST_KEYS = ("file", "line", "rules", "waived", "waiver")
COLUMNS = ("HOST", "SECRET", "VERDICT")
# A line of the audit's tables is at most this long (a CI log's or a terminal's width), and each column at most
# its cap (with the two spaces between columns, WIDTH in all); the reasons and hints go under the row, indented.
WIDTH = 120
COLUMN_CAPS = (60, 34, 22)
DETAIL_INDENT = "    "
DETAIL_LABEL = 8
# The first column's name when files are audited too (a file's row shows FILE:LINE there).
WHERE = "HOST OR FILE"
NOT_RUN = ("the check did not run for this host (it failed or was skipped before it)",
           "run the audit again with -v to see why the host's check stopped")


class ReportError(PwpolicyError):
    """Findings of a wrong shape, or a report that cannot be written."""


# What a line of the table (or an XML attribute) must not hold raw: control
# characters (C0, DEL, C1), line and paragraph separators, the bidirectional
# overrides and isolates (they reorder what a terminal shows), lone surrogates
# and the two non-characters XML forbids.
_UNSHOWN = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")
# What XML 1.0 (its Char production) forbids anywhere: C0 controls other than
# tab, line feed and carriage return, surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _escape(match):
    code = ord(match.group(0))
    return "\\x%02x" % code if code < 0x100 else "\\u%04x" % code


def visible(value):
    """``value`` as text for one line of a table or an attribute: what :data:`_UNSHOWN` matches becomes
    a visible escape (``\\x1b``, ``\\u2028``), so a host name cannot break a line, colour a terminal or
    make a report malformed."""
    return _UNSHOWN.sub(_escape, str(value))


def xml_text(value):
    """``value`` as XML 1.0 character data: line breaks and tabs kept, every character XML forbids escaped."""
    return _NOT_XML.sub(_escape, str(value))


def is_file(finding):
    """Whether ``finding`` is of a file's secret (it has a ``file`` and no ``host``) rather than a host's (which may
    name a file on the host)."""
    return finding.get("file") is not None and finding.get("host") is None


def where(finding):
    """Where a finding is: its host, or its file and line (``ks/server.ks:7``)."""
    if not is_file(finding):
        return finding["host"]
    return "%s:%d" % (finding["file"], finding["line"]) if finding.get("line") else finding["file"]


def clean(finding):
    """A finding with exactly the report keys (anything else a caller added is dropped)."""
    if not isinstance(finding, dict) or "secret" not in finding or ("host" not in finding and not is_file(finding)):
        raise ReportError("each finding must be a dict with at least host (or file), secret and verdict")
    if finding.get("verdict") not in VERDICTS:
        raise ReportError("finding %s/%s has verdict %r; valid verdicts are %s"
                          % (where(finding), finding["secret"], finding.get("verdict"), ", ".join(VERDICTS)))
    result = dict((key, finding.get(key)) for key in (FILE_KEYS if is_file(finding) else KEYS))
    result["reasons"] = [str(r) for r in finding.get("reasons") or []]
    result["hints"] = [str(h) for h in finding.get("hints") or []]
    if is_file(finding):
        result["findings"] = [str(f) for f in finding.get("findings") or []]
        result.update((key, finding[key]) for key in OPTIONAL_FILE_KEYS if key in finding)
    else:
        result.update((key, finding[key]) for key in OPTIONAL_HOST_KEYS if key in finding)
    return result  # without "stops": the audit renders nothing, so fail_on=never only reports


def gather(results, hosts):
    """All findings of ``hosts`` from ``results`` (host -> the check's result, or None), in host order.

    A host whose check did not run gets one ``error`` finding, so that it
    cannot pass unnoticed.
    """
    findings = []
    for host in hosts:
        result = results.get(host)
        if not isinstance(result, dict) or not isinstance(result.get("findings"), list):
            findings.append(error_finding(host, "check", None, NOT_RUN[0], NOT_RUN[1]))
            continue
        findings.extend(clean(f) for f in result["findings"])
    return findings


# ---------------------------------------------------------------------------
# Table
# ---------------------------------------------------------------------------
def shown_verdict(finding):
    """The verdict as the table shows it: ``(waived)`` after it when a baseline waives the finding."""
    return finding["verdict"] + (" (waived)" if finding.get("waived") else "")


def column_widths(rows, caps, gap=2):
    """Each column as wide as its widest cell of ``rows`` (tuples of text), but at most its cap in ``caps``; a cap
    of None (the last column's) is what the others leave of :data:`WIDTH`."""
    widths = [min(cap, max(len(row[index]) for row in rows)) for index, cap in enumerate(caps) if cap is not None]
    if len(widths) < len(caps):
        widths.append(WIDTH - sum(widths) - gap * len(widths))
    return widths


def row_lines(row, widths, gap=2):
    """The lines of one row in columns of ``widths``: a longer cell wraps within its column (at spaces, else
    anywhere: every character is kept), the row's other cells on its first line.  Columns whose widths sum (with
    the gaps) to at most :data:`WIDTH` make no longer line."""
    cells = [_wrapped(cell, width) for cell, width in zip(row, widths)]
    return [(" " * gap).join((parts[index] if index < len(parts) else "").ljust(width)
                             for parts, width in zip(cells, widths)).rstrip()
            for index in range(max(len(parts) for parts in cells))]


def fit_columns(rows, caps):
    """The lines of a table of ``rows`` (a header first), in columns of at most ``caps`` characters."""
    widths = column_widths(rows, caps)
    return [line for row in rows for line in row_lines(row, widths)]


def _wrapped(text, width):
    """``text`` as lines of at most ``width`` characters (itself when it fits), the lines after the first indented
    by two spaces (a wrapped host name does not read as the next row's)."""
    if len(text) <= width:
        return [text]
    return textwrap.wrap(text, width, subsequent_indent="  ", break_on_hyphens=False) or [""]


def under_row(label, text):
    """``text`` under a table's row: indented, after ``label``, wrapped at :data:`WIDTH` with a hanging indent."""
    first = DETAIL_INDENT + label.ljust(DETAIL_LABEL)
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=" " * len(first),
                         break_on_hyphens=False) or [first.rstrip()]


def rows(findings):
    """Each finding's cells (where, secret, verdict) and the lines under it (its reasons, then its hints)."""
    shown = []
    for found in findings:
        cells = tuple(visible(cell) for cell in (where(found), found["secret"], shown_verdict(found)))
        details = [line for reason in found["reasons"] for line in under_row("reason:", visible(reason))]
        details += [line for hint in found["hints"] for line in under_row("hint:", visible(hint))]
        shown.append((cells, details))
    return shown


def findings_table(findings):
    """One text table: a row per secret (host, or file and line; secret; verdict), its reasons and hints under it.

    No line is longer than :data:`WIDTH` characters: a host name, path or
    label longer than its column wraps within it, and each reason and hint
    wraps under the row with a hanging indent.  Nothing is cut: the JSON,
    JUnit and SARIF reports hold the same text unwrapped.
    """
    header = (WHERE,) + COLUMNS[1:] if any(is_file(f) for f in findings) else COLUMNS
    shown = rows(findings)
    widths = column_widths([header] + [cells for cells, dummy in shown], COLUMN_CAPS)
    text = row_lines(header, widths)
    for cells, details in shown:
        text.extend(row_lines(cells, widths))
        text.extend(details)
    return "\n".join(text)


def _names(names, most=20):
    """Up to ``most`` names, then how many more."""
    return ", ".join(visible(name) for name in names[:most]) + (
        " and %d more" % (len(names) - most) if len(names) > most else "")


def host_failures(findings, fail_on):
    """``{host: message}`` for each host with a finding that trips ``fail_on``: how many of its secrets fail and
    which, with their verdicts (``1 of 3 secrets fail (fail_on=rejected): root rejected``); the reasons are the
    table's and the reports'.  Files' findings are not a host's."""
    fail_on = check_fail_on(fail_on)
    mine, bad, installed = {}, {}, set()
    for finding in findings:
        if is_file(finding):
            continue
        mine[finding["host"]] = mine.get(finding["host"], 0) + 1
        if _of_installed_host(finding):
            installed.add(finding["host"])
        if trips(finding, fail_on):
            bad.setdefault(finding["host"], []).append("%s %s" % (finding["secret"], finding["verdict"]))
    # An installed host's findings (the verify playbook's) are findings, not secrets.
    return dict((host, "%d of %d %s fail (fail_on=%s): %s" % (
        len(names), mine[host], "findings" if host in installed else "secrets", fail_on, _names(names, 10)))
        for host, names in bad.items())


def files_failure(findings, fail_on, files):
    """The message of the files' findings that trip ``fail_on`` (``files``: the files audited), or None."""
    found = [finding for finding in findings if is_file(finding)]
    failing, message = outcome(found, fail_on, None, files or [])
    return message if failing else None


def _unmatched(finding):
    """Whether ``finding`` is of a pattern of the audit's paths that matches no file."""
    return NO_MATCH in (finding.get("findings") or ())


def counts_as_secret(finding):
    """Whether ``finding`` is of a secret (a host's, or a line of a file), not of a file that cannot be read, a
    pattern that matches no file, a deviation from a profile or a value no kickstart line can carry."""
    if is_file(finding):
        return finding.get("command") is not None
    return is_secret(finding) and not _of_installed_host(finding)


def _of_installed_host(finding):
    """Whether ``finding`` is what the verify playbook found on an installed host (it names its rules): a finding,
    not a secret."""
    return not is_file(finding) and "rules" in finding


def _subject(findings, failing=None):
    """``2 of 5 secrets and 1 other finding`` (``5 secrets`` without ``failing``): the secrets counted alone;
    ``2 of 9 findings`` (``9 findings``) when some findings and no secret are reported (an installed host's)."""
    secrets = [f for f in findings if counts_as_secret(f)]
    if findings and not secrets and any(_of_installed_host(f) for f in findings):
        return "%d findings" % len(findings) if failing is None else "%d of %d findings" % (len(failing), len(findings))
    if failing is None:
        return "%d secrets" % len(secrets)
    others = len([f for f in failing if not counts_as_secret(f)])
    text = "%d of %d secrets" % (len([f for f in failing if counts_as_secret(f)]), len(secrets))
    return text + (" and %d other finding%s" % (others, "" if others == 1 else "s") if others else "")


def outcome(findings, fail_on, hosts=None, files=None):
    """(failing findings, message) for the whole run.

    ``hosts``, the hosts audited, counts those without any secret too;
    without it, the hosts of ``findings`` are counted.  ``files``, the files
    audited (None: no file was asked for), does the same for files; the
    message names the hosts when hosts were audited or no file was, and the
    patterns that match no file.
    """
    fail_on = check_fail_on(fail_on)
    failing = [f for f in findings if trips(f, fail_on)]
    places = []  # (word, preposition, all, failing)
    hosts = sorted(set(f["host"] for f in findings if not is_file(f)) | set(hosts or ()))
    if files is None and any(is_file(f) for f in findings):
        files = []  # files' findings handed over as they are (the action's findings option)
    if files is not None:
        files = sorted(set(f["file"] for f in findings if is_file(f) and not _unmatched(f)) | set(files))
    if hosts or files is None:
        places.append(("hosts", "on", hosts, sorted(set(f["host"] for f in failing if not is_file(f)))))
    if files is not None:
        bad_files = set(f["file"] for f in failing if is_file(f) and not _unmatched(f))
        places.append(("files", "in", files, sorted(bad_files)))
    text = verdict_counts_text(findings)
    if failing:
        named = [(word, bad) for word, dummy, dummy, bad in places if bad]
        unmatched = [f["file"] for f in failing if _unmatched(f)]
        if unmatched:
            named.append(("patterns that match no file", unmatched))
        message = ("%s %s fail (fail_on=%s): %s; %s"
                   % (_subject(findings, failing),
                      " and ".join("%s %d of %d %s" % (prep, len(bad), len(every), word)
                                   for word, prep, every, bad in places),
                      fail_on, text, "; ".join("%s: %s" % (word, _names(bad)) for word, bad in named)))
    else:
        message = "%s %s checked, none fails (fail_on=%s)%s" % (
            _subject(findings), " and ".join("%s %d %s" % (prep, len(every), word) for word, prep, every, dummy in places),
            fail_on, ": " + text if text else "")
    return failing, message


# ---------------------------------------------------------------------------
# JSON and JUnit XML
# ---------------------------------------------------------------------------
def to_json(findings):
    """The findings as a JSON array, one object per secret (a file's with :data:`FILE_KEYS`)."""
    return json.dumps([_json_entry(f) for f in findings], indent=2, sort_keys=False) + "\n"


def _json_entry(finding):
    entry = dict((key, finding.get(key)) for key in (FILE_KEYS if is_file(finding) else KEYS))
    entry.update((key, finding[key]) for key in (OPTIONAL_FILE_KEYS if is_file(finding) else OPTIONAL_HOST_KEYS)
                 if key in finding)
    return entry


def _failure_text(finding):
    lines = ["verdict: %s" % shown_verdict(finding)]
    if finding.get("waived"):
        lines.append("waived: %s" % finding["waiver"])
    lines.extend("reason: %s" % r for r in finding["reasons"])
    lines.extend("hint: %s" % h for h in finding["hints"])
    return "\n".join(lines)


def _case(suite, name, finding):
    """The testcase of ``finding`` in ``suite`` (a file's secret is named with its line, and has file and line)."""
    if not is_file(finding):
        return ET.SubElement(suite, "testcase", classname=visible(name), name=visible(finding["secret"]), time="0")
    label = finding["secret"] + (" (line %d)" % finding["line"] if finding.get("line") else "")
    case = ET.SubElement(suite, "testcase", classname=visible(name), name=visible(label), time="0")
    if not _unmatched(finding):
        case.set("file", visible(finding["file"]))
    if finding.get("line"):
        case.set("line", str(finding["line"]))
    return case


def to_junit(findings, fail_on, name="kickstart.pwpolicy audit"):
    """JUnit XML: one testsuite per host or file, one testcase per secret.

    A finding that trips ``fail_on`` is a ``failure`` (a secret the policy
    rejects, or finds weak), or an ``error`` when the secret could not be
    checked at all (verdict ``error``); each is counted as such.  A value
    nothing could judge (``not_checked``) and a finding a baseline waives
    are ``skipped``, with the reason.
    """
    fail_on = check_fail_on(fail_on)
    by_place = {}
    for finding in findings:
        by_place.setdefault((is_file(finding), finding["file"] if is_file(finding) else finding["host"]),
                            []).append(finding)
    root = ET.Element("testsuites", name=name)
    totals = dict(tests=0, failures=0, errors=0, skipped=0)
    for (dummy, place), place_findings in by_place.items():
        suite = ET.SubElement(root, "testsuite", name=visible(place), time="0")
        counts = dict(tests=len(place_findings), failures=0, errors=0, skipped=0)
        for finding in place_findings:
            case = _case(suite, place, finding)
            if finding.get("waived") or finding["verdict"] == "not_checked":
                counts["skipped"] += 1
                element = ET.SubElement(case, "skipped", message=visible(
                    ("waived: %s" % finding["waiver"]) if finding.get("waived")
                    else "not checked: %s" % "; ".join(finding["reasons"])))
                element.text = xml_text(_failure_text(finding))
            elif trips(finding, fail_on):
                kind = "error" if finding["verdict"] == "error" else "failure"
                counts[kind + "s"] += 1
                element = ET.SubElement(case, kind, type=visible(finding["verdict"]),
                                        message=visible("%s: %s" % (finding["verdict"], "; ".join(finding["reasons"]))))
                element.text = xml_text(_failure_text(finding))
            elif finding["verdict"] != "accepted":
                out = ET.SubElement(case, "system-out")
                out.text = xml_text(_failure_text(finding))
        for key in ("tests", "failures", "errors", "skipped"):
            suite.set(key, str(counts[key]))
            totals[key] += counts[key]
    for key in ("tests", "failures", "errors", "skipped"):
        root.set(key, str(totals[key]))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# ---------------------------------------------------------------------------
# SARIF 2.1.0
# ---------------------------------------------------------------------------
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
TOOL = "kickstart.pwpolicy"
TOOL_URI = "https://github.com/kickstart-pwpolicy/kickstart.pwpolicy"
# The collection's version (galaxy.yml's; a unit test holds them equal).
TOOL_VERSION = "0.3.0"
# A verdict as a SARIF level.
SARIF_LEVELS = {"rejected": "error", "accepted_weak": "warning", "error": "error", "accepted": "none",
                "unparsed": "warning", "not_checked": "note"}
# The partial fingerprint's key (see :func:`fingerprint`).  GitHub's upload adds its own
# primaryLocationLineHash, from the text around the line; given one, it would warn in its log, with the hash
# of that text, for every result whose text gives another: it is left to the upload.
FINGERPRINT = "kickstartPwpolicy/v2"
_RULE_IDS = [rule[0] for rule in RULES]
# What RFC 3986 allows in a path segment besides the unreserved characters, less ":" (a first
# segment holding one would read as a scheme): the rest is percent-encoded.
_SAFE_IN_PATH = "/!$&'()*+,;=@"


def sarif_uri(path):
    """``(uri, uriBaseId)`` of ``path``: relative to the repository root (``%SRCROOT%``) as given, or ``file://``."""
    path = quote(path.replace(os.sep, "/"), safe=_SAFE_IN_PATH, errors="surrogateescape")  # undecodable bytes: %XX
    if path.startswith("/"):
        return "file://" + path, None
    return path, "%SRCROOT%"


def host_uri(host, path):
    """The URI of ``path`` on ``host``: ``file://HOST/path`` (RFC 8089's form that names the host), each part
    percent-encoded as :func:`sarif_uri` encodes a path."""
    path = path.replace(os.sep, "/")
    return "file://%s%s" % (quote(host, safe="!$&'()*+,;=", errors="surrogateescape"),
                            quote(path if path.startswith("/") else "/" + path, safe=_SAFE_IN_PATH,
                                  errors="surrogateescape"))


def fingerprint(uri, command, rule, occurrence):
    """The partial fingerprint of one result: SHA-256 of the file's URI, the command, the rule and which
    occurrence of that triple in the file (0, 1...) it is, in hex.

    The line number is not in it (a finding keeps its fingerprint when lines
    above it move), nor anything that came out of an option's value: not the
    secret or its hash, and not the account either (a URL's user part may be
    a token).  (``v1`` of :data:`FINGERPRINT` had the account in it.)
    """
    text = "\0".join((uri, command or "", rule, str(occurrence)))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _sarif_rules():
    return [{"id": rule, "name": name, "shortDescription": {"text": short}, "fullDescription": {"text": full},
             "help": {"text": helping}, "defaultConfiguration": {"level": SARIF_LEVELS[rule_level(rule)]},
             "properties": {"tags": ["security"]}}
            for rule, name, short, full, helping in RULES]


def _sarif_results(finding, seen):
    """The results of one file's finding: one per finding id (a secret can have several)."""
    uri, base = sarif_uri(finding["file"])
    artifact = {"uri": uri}
    if base:
        artifact["uriBaseId"] = base
    results = []
    for index, rule in enumerate(finding.get("findings") or []):
        if rule not in _RULE_IDS:
            continue
        # A deviation is told apart by its profile's rule (its label), a secret by its command: never by a value.
        what = finding["secret"] if rule == DEVIATION else finding.get("command")
        key = (uri, what, rule)
        seen[key] = occurrence = seen.get(key, -1) + 1
        reason = finding["reasons"][index] if index < len(finding["reasons"]) else rule
        hint = finding["hints"][index] if index < len(finding["hints"]) else None
        text = (reason if rule == UNREADABLE else "%s: %s" % (finding["secret"], reason)) + (
            ". What to do: %s" % hint if hint else "")
        value = fingerprint(uri, what, rule, occurrence)
        result = {
            "ruleId": rule, "ruleIndex": _RULE_IDS.index(rule), "level": SARIF_LEVELS[rule_level(rule)],
            "message": {"text": text},
            "locations": [{"physicalLocation": {"artifactLocation": artifact,
                                                "region": {"startLine": finding.get("line") or 1}}}],
            "partialFingerprints": {FINGERPRINT: value},
        }
        if finding.get("rules"):
            result["properties"] = {"profileRules": list(finding["rules"])}
        if finding.get("waived"):
            result["suppressions"] = [{"kind": "external", "status": "accepted", "justification": finding["waiver"]}]
        results.append(result)
    return results


def _host_sarif_result(finding, seen, host_rules):
    """The result of a host's finding that names a file on the host and a rule (None for an accepted one): its rule
    is the finding's first (``host_rules``, the ids of the hosts' rules so far, gets it), its place the file on the
    host (:func:`host_uri`) and the line."""
    rules = finding.get("rules") or []
    if not rules or finding["verdict"] == "accepted":
        return None
    rule = rules[0]
    if rule not in host_rules:
        host_rules.append(rule)
    uri = host_uri(finding["host"], finding["file"])
    key = (uri, finding["secret"], rule)
    seen[key] = occurrence = seen.get(key, -1) + 1
    text = "%s on %s: %s" % (finding["secret"], finding["host"], "; ".join(finding["reasons"]) or finding["verdict"])
    if finding["hints"]:
        text += ". What to do: %s" % "; ".join(finding["hints"])
    result = {
        "ruleId": rule, "ruleIndex": len(RULES) + host_rules.index(rule), "level": SARIF_LEVELS[finding["verdict"]],
        "message": {"text": text},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri},
                                            "region": {"startLine": finding.get("line") or 1}}}],
        "partialFingerprints": {FINGERPRINT: fingerprint(uri, finding["secret"], rule, occurrence)},
        "properties": {"host": finding["host"], "profileRules": list(rules)},
    }
    if finding.get("waived"):
        result["suppressions"] = [{"kind": "external", "status": "accepted", "justification": finding["waiver"]}]
    return result


def _host_sarif_rules(host_rules, findings):
    """The rules of the hosts' results, after :data:`RULES` (each described by plugin_utils/_verify.py)."""
    from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._verify import rule_description
    levels = {}
    for finding in findings:
        if not is_file(finding) and finding.get("file") and finding.get("rules") and finding["verdict"] != "accepted":
            levels.setdefault(finding["rules"][0], SARIF_LEVELS[finding["verdict"]])
    described = []
    for rule in host_rules:
        short, full = rule_description(rule)
        described.append({"id": rule, "shortDescription": {"text": short}, "fullDescription": {"text": full},
                          "defaultConfiguration": {"level": levels.get(rule, "error")},
                          "properties": {"tags": ["security"]}})
    return described


def to_sarif(findings):
    """A SARIF 2.1.0 log of the files' findings: one result per finding of a secret, one per unreadable file; and
    one per finding of a host that names a file on the host, located at ``file://HOST/path`` and its line.

    A pattern that matches no file has no place in a file: it is a tool
    notification (level ``error``) of the run's invocation.  A host's finding
    without a file on the host is not in it (the table, JSON and JUnit hold
    it), nor is an accepted one.
    """
    results, notes, seen, host_rules = [], [], {}, []
    for finding in findings:
        if not is_file(finding):
            found = _host_sarif_result(finding, seen, host_rules) if finding.get("file") else None
            if found is not None:
                results.append(found)
            continue
        if NO_MATCH in (finding.get("findings") or []):
            notes.append({"level": "error", "message": {"text": "kickstart_audit_paths pattern %s %s"
                                                        % (finding["file"], "; ".join(finding["reasons"]))}})
            continue
        results.extend(_sarif_results(finding, seen))
    invocation = {"executionSuccessful": True}
    if notes:
        invocation["toolExecutionNotifications"] = notes
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": TOOL, "version": TOOL_VERSION, "informationUri": TOOL_URI,
                                "rules": _sarif_rules() + _host_sarif_rules(host_rules, findings)}},
            "invocations": [invocation],
            "results": results,
        }],
    }
    return json.dumps(log, indent=2, sort_keys=False) + "\n"


# The reports an action writes, by argument, in the order its message names them.
REPORTS = (("json", "JSON"), ("junit", "JUnit"), ("sarif", "SARIF"))
SHOWS = ("all", "problems", "none")


def check_show(show, caller):
    """``show`` (which findings the table shows), or a ReportError naming ``caller``."""
    if show not in SHOWS:
        raise ReportError("%s: show must be all, problems or none, got %r" % (caller, show))
    return show


def shown_table(findings, show):
    """The table of the findings ``show`` asks for: all, those that are not accepted, or none (empty text)."""
    shown = findings if show == "all" else [f for f in findings if f["verdict"] != "accepted"]
    return findings_table(shown) if shown and show != "none" else ""


def write_reports(args, findings, fail_on, name=None):
    """``{json|junit|sarif: path}``: each report ``args`` names, written (in check mode too: the reports are the
    point of a run); ``name`` is the JUnit report's."""
    renders = {"json": lambda: to_json(findings),
               "junit": lambda: to_junit(findings, fail_on, **({"name": name} if name else {})),
               "sarif": lambda: to_sarif(findings)}
    return dict((key, write_report(to_text(args[key]), renders[key]())) for key, dummy in REPORTS if args.get(key))


def reports_text(written):
    """``; JSON report: PATH; SARIF report: PATH`` of the reports written."""
    return "".join("; %s report: %s" % (label, written[key]) for key, label in REPORTS if key in written)


def write_report(path, text):
    """Write ``text`` to ``path`` atomically (a temporary file beside it, renamed), mode 0644.

    Reports hold no secret; they are readable by the CI system that collects
    them.  Text that UTF-8 cannot encode (a lone surrogate) is refused before
    any file is created.
    """
    path = os.path.abspath(os.path.expanduser(path))
    directory = os.path.dirname(path)
    if not os.path.isdir(directory):
        raise ReportError("cannot write the report %s: directory %s does not exist (create it first)"
                          % (path, directory))
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ReportError("cannot write the report %s: character %d (U+%04X) cannot be encoded as UTF-8 (a lone "
                          "surrogate); the findings given to the report hold text that is not valid Unicode, "
                          "nothing was written" % (path, exc.start, ord(text[exc.start])))
    try:
        replace_atomic(path, data, lambda tmp: os.chmod(tmp, 0o644))
    except OSError as exc:
        raise ReportError("cannot write the report %s: %s" % (path, exc.strerror or exc))
    return path
