# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The secrets a kickstart or an unrendered kickstart template keeps at rest, and what is wrong with them.

:func:`read_secrets` reads every command line (outside the sections, as
``_ks_lines.section_roles`` tells them apart) that carries a password, a
passphrase, a hash or a credential:

* ``rootpw``, ``user --password``, ``sshpw``: a password in the clear, a
  crypt hash (``--iscrypted``) or a locked account (``--lock`` without one);
* ``bootloader --password`` (a GRUB 2 PBKDF2 hash with ``--iscrypted``) and
  ``--md5pass``;
* ``part``/``partition``/``logvol``/``raid``/``autopart --passphrase`` (and
  ``--hw-passphrase``): a LUKS passphrase, which kickstart only takes in the
  clear;
* credentials: ``rhsm --activation-key``, ``iscsi --password`` and
  ``--reverse-password``, ``vnc``/``rdp --password``, ``network --wpakey``,
  ``realm --one-time-password``, and credentials in a URL
  (``url``/``repo``/``liveimg``/``ostreesetup``/``ostreecontainer``/``rhsm``'s
  ``--url``, ``--baseurl``, ``--mirrorlist``, ``--metalink`` and ``--proxy``):
  ``user:password@``, or a token in the user part (``TOKEN@``, ``TOKEN:@``,
  ``TOKEN:x-oauth-basic@``).  The user part is the secret's account only
  when it reads as a plain account name (:func:`_names_an_account`); a
  token is never an account.

Options are resolved as the release's pykickstart resolves them
(``_ks_commands``: ``--iscr`` is ``--iscrypted``, and of ``--iscrypted`` and
``--plaintext`` the last one given wins) where pykickstart is installed and
its parser accepts the line, else by their full names, in their order.  A
``#`` starts a comment, as in pykickstart's ``shlex``.  In a template (``template=True``) a
value the template fills in (``<%= root_pass %>``, ``$default_password_crypted``,
``{{ pw }}``, ``${pw}``) is of form ``template``, and the template's own lines
are kept, never an error.

Each secret gets its findings: ``plaintext``, ``legacy_scheme``, ``low_cost``
(below the profile's minimum, or the scheme's default), ``known_weak`` (the
hash is of a password from the candidate list, ``_candidates``, checked by
``_known_weak``) and ``policy`` (a password in the clear that is a common
password, a tool's default or a word of the file, or is shorter than the
profile asks; a hash in a scheme the profile does not allow).  libpwquality's
own checks run on the controller only (the ``pwpolicy_check`` filter and the
``check_secrets`` action), not here.

Nothing returned or raised holds a secret, a hash or which candidate matched:
an entry's secret is kept in a private attribute, only for the checks.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _candidates, _known_weak, _libxcrypt
from ansible_collections.kickstart.pwpolicy.plugins.module_utils import _profiles
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._hash_schemes import SCHEMES, identify
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_commands import NoParser, handler_for, parser_of
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_commands import parse_known, resolve
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_script_secrets import script_secrets
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._ks_lines import (
    OUTSIDE,
    KickstartEditError,
    check_bounds,
    kickstart_release,
    section_roles,
    split_words,
    version_line,
)

FORMS = ("plaintext", "crypt", "grub_pbkdf2", "passphrase", "locked", "template")
FINDINGS = ("plaintext", "legacy_scheme", "low_cost", "known_weak", "policy")
# More secret-bearing lines than any kickstart or template has: refused (each hash costs a budget).
MAX_SECRET_LINES = 500

# What each option of a secret-bearing command means here; options not listed are read past.
_ACCOUNT_OPTIONS = {"rootpw": {"--iscrypted": "crypted", "--plaintext": "plaintext", "--lock": "lock"},
                    "user": {"--name": "account", "--password": "password", "--iscrypted": "crypted",
                             "--plaintext": "plaintext", "--lock": "lock"},
                    "sshpw": {"--username": "account", "--iscrypted": "crypted", "--plaintext": "plaintext",
                              "--lock": "lock", "--sshkey": "sshkey"}}
_STORAGE = ("part", "partition", "logvol", "raid", "autopart")
_URL_OPTIONS = {"--url": "url", "--baseurl": "url", "--mirrorlist": "url", "--metalink": "url", "--proxy": "url"}
OPTIONS = dict(_ACCOUNT_OPTIONS)
OPTIONS.update({
    "bootloader": {"--password": "password", "--iscrypted": "crypted", "--md5pass": "md5pass"},
    "iscsi": {"--user": "account", "--password": "password", "--reverse-user": "account2",
              "--reverse-password": "password2"},
    "vnc": {"--password": "password"},
    "rdp": {"--username": "account", "--password": "password"},
    "network": {"--wpakey": "password", "--wepkey": "password", "--hostname": "hostname"},
    "realm": {"--one-time-password": "password"},
    "rhsm": {"--activation-key": "password", "--proxy": "url"},
})
for _name in _STORAGE:
    OPTIONS[_name] = {"--passphrase": "passphrase", "--hw-passphrase": "passphrase"}
for _name in ("url", "repo", "liveimg", "ostreesetup", "ostreecontainer"):
    OPTIONS[_name] = dict(_URL_OPTIONS)
# The flags a command's parser is asked for (_Resolver.flags); "plaintext" is "crypted" set false.
_FLAG_MEANINGS = ("crypted", "lock", "sshkey")
# Flags that unset each other, the last one given winning (pykickstart stores both to isCrypted).
_OPPOSITE = {"crypted": ("plaintext",), "plaintext": ("crypted",)}
_VALUE_MEANINGS = frozenset(("account", "password", "md5pass", "passphrase", "url", "account2", "password2",
                             "hostname"))
# The profile policy whose minimum length a password in the clear is held to.
_POLICY_OF = {"rootpw": "root", "user": "user", "bootloader": "root"}
_LOCKED_VALUES = frozenset(("!", "!!", "*", "!*", "*LK*", "x", "locked", ""))

# Template spans masked before a line is split: ERB, Jinja, Terraform, and Cheetah calls ("$getVar('x', '')").
_TEMPLATE_PAIRS = (("<%", "%>"), ("{{", "}}"), ("{%", "%}"), ("${", "}"), ("%{", "}"))
_CHEETAH_CALL_RE = re.compile(r"\$[A-Za-z_][\w.]{0,63}\([^()\n]{0,256}\)")
# A value the template fills in: a masked span, a Cheetah placeholder, a harness placeholder (@NAME@).
_TEMPLATE_VALUE_RE = re.compile(r"\ue000|\$[A-Za-z_{]|@[A-Z][A-Z0-9_]*@")
MASK = "\ue000"
_URL_USER_RE = re.compile(r"://([^/?#@\s]*)@")
# A URL's user part is shown as the account only when it reads as a plain account name (_names_an_account):
# a real password is beside it (not empty, not one of _TOKEN_PASSWORDS); it is 1 to 20 letters, digits, ".",
# "_" and "-", starting with a letter; it has fewer than 4 digits, no digit with an upper-case letter, and no
# more than 2 upper-case letters among lower-case ones (base62 tokens mix them); it does not start with a
# known token prefix.  Anything else may be a token: "url credentials", no account.
_ACCOUNT_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9._-]{0,19}\Z")
# The passwords that go with a token in the user part (GitHub's "TOKEN:x-oauth-basic@"), and user names
# that go with one in the password part: either way, not a password.
_TOKEN_PASSWORDS = frozenset(("x-oauth-basic", "x-oauth-token", "x-access-token", "x-token-auth", "oauth2",
                              "token", "x"))
# The prefixes of the tokens of code and package hosts and clouds (GitHub, GitLab, npm, PyPI, Docker Hub,
# Hugging Face, Slack, AWS, OpenAI, Atlassian).
_TOKEN_PREFIXES = ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "gldt-", "glrt-", "glptt-",
                   "glcbt-", "gloas-", "glsoat-", "npm_", "pypi-", "dckr_pat_", "hf_", "xox", "akia", "sk-",
                   "atbb", "atatt")
# A template expression whose name says it renders a secret.
_SECRET_SPAN_RE = re.compile(r"(?i)pass|pw\b|secret|crypted")


# What only an unrendered template holds, for a file read as a rendered kickstart (template_look): ERB tags
# anywhere; Cheetah's calls anywhere and its directives at a line's start (a directive opening a block takes
# a $placeholder, so that a shell comment such as "#if you need it" is not one); Jinja only outside
# scripts, where a shell script could hold braces.  Each is a bounded scan of one line.
_ERB_RE = re.compile(r"<%")
_CHEETAH_RE = re.compile(r"\$(?:SNIPPET|getVar)\(|^[ \t]*#(?:if|elif|for|set|unless)[ \t]+[^\n]*\$[A-Za-z_]"
                         r"|^[ \t]*#(?:else|raw|end[ \t]+(?:if|for|raw|unless))[ \t\r]*$")
_JINJA_RE = re.compile(r"\{\{|\{%")


class SecretsError(PwpolicyError):
    """A file that cannot be read for its secrets; the message names the line and never holds a value."""


class Finding(object):
    def __init__(self, id_, reason, hint):
        self.id = id_
        self.reason = reason
        self.hint = hint

    def to_dict(self):
        return {"id": self.id, "reason": self.reason, "hint": self.hint}


class Secret(object):
    """One secret of one line.  The value itself stays in ``_value``, never in :meth:`to_dict`."""

    def __init__(self, line, command, account, form, value=None, policy=None):
        self.line = line
        self.command = command
        self.account = account
        self.form = form
        self.scheme = None
        self.cost = None
        self.findings = []
        self.tried = None
        self.policy = policy  # root, user or luks: the profile's minimum length applies
        self.in_url = False   # the credentials of a URL (user:password@ or token@)
        self._value = value
        self._hash = None     # (hash, "crypt" or "grub_pbkdf2") for the known-weak check

    def add(self, id_, reason, hint):
        self.findings.append(Finding(id_, reason, hint))

    def to_dict(self):
        return {"line": self.line, "command": self.command, "account": self.account, "form": self.form,
                "scheme": self.scheme, "cost": self.cost, "tried": self.tried,
                "findings": [finding.to_dict() for finding in self.findings]}


class SecretsReport(object):
    """``secrets`` (:class:`Secret`, in file order), ``warnings`` and the ``release`` name used, if any; ``read``:
    what :func:`read_lines` gave, for a reader that goes on with the same text (the posture's)."""

    def __init__(self, secrets, warnings, release, read=None):
        self.secrets = secrets
        self.warnings = warnings
        self.release = release
        self.read = read

    def to_list(self):
        return [secret.to_dict() for secret in self.secrets]


# ---------------------------------------------------------------------------
# Reading lines
# ---------------------------------------------------------------------------

def mask_templates(line, spans=None):
    """``line`` with every template span (``<% %>``, ``{{ }}``, ``{% %}``, ``${ }``, ``%{ }``, a Cheetah
    call) replaced by :data:`MASK`, in time linear in the line; the spans' own texts go to ``spans``."""
    if spans is None:
        spans = []
    if "$" in line:
        line = _CHEETAH_CALL_RE.sub(lambda match: spans.append(match.group()) or MASK, line)
    out, index, end = [], 0, len(line)
    nearest = {}  # opener -> its next position at or after index (-1: none left)
    while index < end:
        best = None
        for opener, closer in _TEMPLATE_PAIRS:
            at = nearest.get(opener)
            if at is None or 0 <= at < index:
                at = nearest[opener] = line.find(opener, index)
            if at >= 0 and (best is None or at < best[0]):
                best = (at, opener, closer)
        if best is None:
            break
        at, opener, closer = best
        close = line.find(closer, at + len(opener))
        if close < 0:
            nearest[opener] = -1  # no closer after this one: none after any later opener either
            continue
        out.append(line[index:at])
        out.append(MASK)
        spans.append(line[at:close + len(closer)])
        index = close + len(closer)
    out.append(line[index:])
    return "".join(out)


def _words(line, template, spans):
    text = mask_templates(line, spans) if template else line
    try:
        words = split_words(text)
    except ValueError:  # an unclosed quote (the installer refuses the line): the words before a comment
        words = text.split()
        comment = [index for index, word in enumerate(words) if word.startswith("#")][:1]
        words = words[:comment[0]] if comment else words
    if words and len(words[0].split()) > 1:  # a quoted command word with blanks
        words = words[0].split() + words[1:]
    return words


class _Resolver(object):
    """Option words to the option names of :data:`OPTIONS`, through pykickstart's parsers where installed."""

    def __init__(self, target):
        # The target's parsers first, then the newest releases' for a command the target does not know; each
        # handler is made when first needed (a handler costs tens of milliseconds, and most lines never need
        # more than the target's).
        self._names = [target, None, "RHEL10"]
        self._handlers = []
        self._parsers = {}

    def _handler(self, index):
        while len(self._handlers) <= index and len(self._handlers) < len(self._names):
            try:
                self._handlers.append(handler_for(self._names[len(self._handlers)]))
            except NoParser:
                self._names = self._names[:len(self._handlers)]
        return self._handlers[index] if index < len(self._handlers) else None

    def _parser(self, command):
        if command not in self._parsers:
            found = None
            for index in range(len(self._names)):
                handler = self._handler(index)
                found = parser_of(handler, command) if handler is not None else None
                if found is not None:
                    break
            self._parsers[command] = found
        return self._parsers[command]

    def flags(self, command, words):
        """The flags (meanings of :data:`OPTIONS`: ``crypted``, ``lock``, ``sshkey``) set on a command line, as the
        command's parser sets them (``--iscrypted --plaintext`` is not crypted: the last of the two wins); None
        where there is no parser or it refuses the words."""
        parser = self._parser(command)
        namespace = parse_known(parser, words[1:]) if parser is not None else None
        if namespace is None:
            return None
        found = set()
        for option, meaning in OPTIONS[command].items():
            if meaning in _FLAG_MEANINGS:
                actions = resolve(parser, option)
                if len(actions) == 1 and option in actions[0].option_strings \
                        and getattr(namespace, actions[0].dest, None) is True:
                    found.add(meaning)
        return found

    def option(self, command, word):
        """``(name, takes a value)`` of the option ``word`` (``--opt`` or ``--opt=value``) of ``command``."""
        known = OPTIONS[command]
        name = word.split("=", 1)[0]
        parser = self._parser(command)
        if parser is not None:
            actions = resolve(parser, word)
            if len(actions) == 1:
                strings = list(actions[0].option_strings)
                for string in strings:
                    if string in known:
                        return string, actions[0].nargs != 0
                return strings[0] if strings else name, actions[0].nargs != 0
        return name, known.get(name) in _VALUE_MEANINGS


def _parse(words, command, resolver):
    """``({meaning: [values]}, flags, positional)`` of a command's words.

    The flags are read word by word: of ``--iscrypted`` and ``--plaintext`` the last one given wins, as in
    pykickstart's parsers (:meth:`_Resolver.flags` asks them, where they are installed and accept the line).
    """
    known = OPTIONS[command]
    values, flags, positional = {}, set(), []
    index = 1
    while index < len(words):
        word = words[index]
        index += 1
        if word == "--":
            positional.extend(words[index:])
            break
        if not word.startswith("-") or word == "-":
            positional.append(word)
            continue
        name, takes_value = resolver.option(command, word)
        meaning = known.get(name)
        if takes_value:
            if "=" in word:
                value = word.split("=", 1)[1]
            elif index < len(words):
                value, index = words[index], index + 1
            else:
                value = None
            if meaning and value is not None:
                values.setdefault(meaning, []).append(value)
        elif meaning:
            flags.difference_update(_OPPOSITE.get(meaning, ()))
            flags.add(meaning)
    return values, flags, positional


def _is_template(value, template):
    return template and _TEMPLATE_VALUE_RE.search(value) is not None


def _password_secret(number, command, account, value, crypted, lock, template, policy):
    """A Secret for a password that is in the clear, a hash or locked."""
    if value is None:
        return Secret(number, command, account, "locked") if lock else None
    if identify(value) is None and _is_template(value, template):
        return Secret(number, command, account, "template")
    if not crypted:
        return Secret(number, command, account, "plaintext", value, policy)
    hashed = value[1:] if value[:1] in ("!", "*") and len(value) > 2 else value
    form = identify(hashed)
    if form is None and (value in _LOCKED_VALUES or lock):
        return Secret(number, command, account, "locked")
    secret = Secret(number, command, account, "grub_pbkdf2" if form is not None and form.is_grub else "crypt")
    if form is not None:
        secret.scheme, secret.cost = form.scheme, form.cost
        secret._hash = (hashed, secret.form)  # pylint: disable=protected-access
    return secret


def _names_an_account(user, password):
    """Whether the user part ``user`` of a URL's ``user:password@`` is a plain account name, shown as the
    account; else it is a credential itself (a token), never shown.  See :data:`_ACCOUNT_NAME_RE`."""
    if not password or password.lower() in _TOKEN_PASSWORDS or not _ACCOUNT_NAME_RE.match(user):
        return False
    digits = sum(char.isdigit() for char in user)
    upper = sum(char.isupper() for char in user)
    generated = digits >= 4 or (digits and upper) or (upper > 2 and upper < sum(char.isalpha() for char in user))
    return not generated and not user.lower().startswith(_TOKEN_PREFIXES)


def _url_secrets(number, command, urls, template):
    found = []
    for url in urls:
        match = _URL_USER_RE.search(url)
        if not match or not match.group(1):
            continue
        user, colon, password = match.group(1).partition(":")
        if _names_an_account(user, password):
            account, value = user, password
        else:  # the user part is (or may be) a token: the credential itself when no real password is beside it
            real = password and password.lower() not in _TOKEN_PASSWORDS
            account, value = None, password if real else user
        if not value:
            continue
        if _is_template(value, template):
            secret = Secret(number, command, account, "template")
        else:
            secret = Secret(number, command, account, "plaintext", value)
        secret.in_url = True
        found.append(secret)
    return found


def _line_secrets(number, words, resolver, template, hosts):
    command = words[0]
    values, flags, positional = _parse(words, command, resolver)
    parsed = resolver.flags(command, words)
    if parsed is not None:  # pykickstart's parser decides; the word-by-word reading where it cannot
        flags = parsed

    def first(meaning):
        return values.get(meaning, [None])[-1]  # the option's last value, as pykickstart keeps it
    hosts.extend(value for value in values.get("hostname", ()) if not _is_template(value, template))
    account = first("account")
    if account is not None and _is_template(account, template):
        account = None
    crypted, lock = "crypted" in flags, "lock" in flags
    if command == "rootpw":
        return [s for s in [_password_secret(number, command, "root", positional[-1] if positional else None,
                                             crypted, lock, template, "root")] if s]
    if command == "user":
        return [s for s in [_password_secret(number, command, account, first("password"), crypted, lock,
                                             template, "user")] if s]
    if command == "sshpw":
        if "sshkey" in flags:
            return []  # the value is a public key
        policy = "root" if account == "root" else "user"
        return [s for s in [_password_secret(number, command, account, positional[-1] if positional else None,
                                             crypted, lock, template, policy)] if s]
    found = []
    if command == "bootloader":
        if first("password") is not None:
            found.append(_password_secret(number, command, "root", first("password"), crypted, False, template,
                                          "root"))
        if first("md5pass") is not None:
            found.append(_password_secret(number, command, "root", first("md5pass"), True, False, template,
                                          "root"))
    elif command in _STORAGE:
        for value in values.get("passphrase", ())[-1:]:
            if _is_template(value, template):
                found.append(Secret(number, command, None, "template"))
            elif value:
                found.append(Secret(number, command, None, "passphrase", value, "luks"))
    elif command == "iscsi":
        for key, user in (("password", "account"), ("password2", "account2")):
            value = first(key)
            if value:
                name = first(user)
                name = None if name is not None and _is_template(name, template) else name
                found.append(Secret(number, command, name, "template" if _is_template(value, template)
                                    else "plaintext", value))
    elif first("password"):
        value = first("password")
        found.append(Secret(number, command, account if command == "rdp" else None,
                            "template" if _is_template(value, template) else "plaintext", value))
    found.extend(_url_secrets(number, command, values.get("url", ()), template))
    return [secret for secret in found if secret is not None]


def _read(text, template, target):
    """``(secrets, hosts, release)`` of ``text``."""
    return read_lines(text, template, target)[:3]


def read_lines(text, template, target):
    """``(secrets, hosts, release, lines, roles)``: what :func:`_read` gives, and the text's lines and their roles
    in the sections (``_ks_lines.section_roles``), for a reader that goes on with the same text."""
    if not isinstance(text, str):
        raise SecretsError("the kickstart must be text, got %s" % type(text).__name__)
    nul = text.find("\0")
    if nul >= 0:
        number = text.count("\n", 0, nul) + 1
        raise SecretsError("line %d holds a NUL character: the file is not a kickstart or a template (a binary "
                           "file?); give the right file" % number, number)
    lines = text.splitlines(True)
    check_bounds(lines)
    release = None
    if target:
        release = kickstart_release(target).name
    elif version_line(text):
        release = version_line(text)
    resolver = _Resolver(release)
    roles = section_roles(lines, template=template)[0]
    secrets, hosts = [], []
    for number, (line, (role, dummy)) in enumerate(zip(lines, roles), 1):
        if role != OUTSIDE:
            continue
        stripped = line.lstrip()
        word = stripped.split(None, 1)[0].strip("'\"") if stripped and stripped[0] != "#" else ""
        if word not in OPTIONS:
            continue
        spans = []
        words = _words(line, template, spans)
        if not words or words[0] not in OPTIONS:
            continue
        found = _line_secrets(number, words, resolver, template, hosts)
        if not found and any(_SECRET_SPAN_RE.search(span) for span in spans):
            # A template expression that renders secret options (Foreman's <%= grub_pass %>).
            found = [Secret(number, words[0], None, "template")]
        secrets.extend(found)
        _check_count(secrets, number)
    for entry in script_secrets(lines, roles, template, _is_template, mask_templates):
        secrets.append(_script_secret(*entry))
        _check_count(secrets, entry[0])
    secrets.sort(key=lambda secret: secret.line)
    return secrets, hosts, release, lines, roles


def template_look(lines, roles):
    """``(line number, kind)`` of the first line of ``lines`` (with their ``roles``) that only an unrendered
    template holds (kind: ``ERB``, ``Cheetah`` or ``Jinja``), or None; for a text read as a rendered kickstart,
    whose placeholders would be read as values."""
    for number, (line, (role, dummy)) in enumerate(zip(lines, roles), 1):
        if "<" in line and _ERB_RE.search(line):
            return number, "ERB"
        if ("$" in line or "#" in line) and _CHEETAH_RE.search(line):
            return number, "Cheetah"
        if role == OUTSIDE and "{" in line and _JINJA_RE.search(line):
            return number, "Jinja"
    return None


_TEMPLATE_TOOLS = {"ERB": "an ERB (Foreman)", "Cheetah": "a Cheetah (Cobbler)", "Jinja": "a Jinja"}


def template_look_message(look, how):
    """The warning for :func:`template_look`'s ``look``, ending in ``how`` (what to set); names no value."""
    number, kind = look
    return ("line %d looks like %s template line, but the file is read as a rendered kickstart, so a value the "
            "template fills in would be judged as the value itself: %s" % (number, _TEMPLATE_TOOLS[kind], how))


def _check_count(secrets, number):
    if len(secrets) > MAX_SECRET_LINES:
        raise SecretsError("the file holds more than %d secrets (this is line %d); no kickstart or template "
                           "needs that many: give the right file or split it" % (MAX_SECRET_LINES, number), number)


def _script_secret(number, command, account, form, value, policy):
    """A Secret for what a %pre or %post script sets (module_utils/_ks_script_secrets.py)."""
    if form == "passphrase":
        return Secret(number, command, None, "passphrase", value, policy)
    if form == "template":
        return Secret(number, command, account, "template")
    return _password_secret(number, command, account, value, form == "crypt", False, False, policy)


# ---------------------------------------------------------------------------
# Findings
# ---------------------------------------------------------------------------

_PLAINTEXT_HINTS = {
    "rootpw": "write a crypt hash instead (--iscrypted, yescrypt or sha512crypt), made from a vaulted password; "
              "the kickstart role of this collection does that",
    "user": "write a crypt hash instead (--iscrypted --password=HASH, yescrypt or sha512crypt), made from a vaulted "
            "password; the kickstart role of this collection does that",
    "sshpw": "write a crypt hash instead (--iscrypted), or use --sshkey",
    "bootloader": "write a GRUB 2 hash instead (--iscrypted --password=grub.pbkdf2..., from grub2-mkpasswd-pbkdf2)",
    # Set by a %pre or %post script.
    "chpasswd": "set a crypt hash instead (chpasswd -e with yescrypt or sha512crypt hashes, or rootpw/user "
                "--iscrypted), made from a vaulted password",
    "passwd": "set a crypt hash instead (usermod -p HASH, or rootpw/user --iscrypted), made from a vaulted password",
    "grub2-setpassword": "write a GRUB 2 hash instead (bootloader --iscrypted --password=grub.pbkdf2..., from "
                         "grub2-mkpasswd-pbkdf2)",
}
_SCRIPT_PASSPHRASE_HINT = ("keep the passphrase out of the script: add the key after the installation, or fetch it "
                           "in %pre over an authenticated channel")
_PASSPHRASE_HINT = ("kickstart takes a LUKS passphrase only in the clear: serve the file only to the machine it "
                    "installs and keep it out of repositories (render it from a vault at deploy time), or leave "
                    "--passphrase out and set the passphrase after the installation")
_CREDENTIAL_HINT = ("keep the credential out of the kickstart: render it from a vault at deploy time and serve the "
                    "file only to the machine it installs, or give it another way (a %pre script fetching it over "
                    "an authenticated channel)")


def _plaintext_finding(secret):
    if secret.form == "passphrase":
        secret.add("plaintext", "the LUKS passphrase is written in the clear%s: anyone who can read the file, or "
                   "fetch it from the server that installs from it, can open the disk"
                   % (" in a script" if secret.command == "cryptsetup" else ""),
                   _SCRIPT_PASSPHRASE_HINT if secret.command == "cryptsetup" else _PASSPHRASE_HINT)
    elif secret.command in _PLAINTEXT_HINTS:
        secret.add("plaintext", "the password is written in the clear: anyone who can read the file, or fetch it "
                   "from the server that installs from it, has it", _PLAINTEXT_HINTS[secret.command])
    elif secret.in_url:
        secret.add("plaintext", "url credentials are written in the clear%s: anyone who can read the file, or fetch "
                   "it from the server that installs from it, has them"
                   % ("" if secret.account else " (the user part may be a token, so no account is named)"),
                   _CREDENTIAL_HINT)
    else:
        secret.add("plaintext", "the credential is written in the clear: anyone who can read the file, or fetch "
                   "it from the server that installs from it, has it", _CREDENTIAL_HINT)


# The boot loader's legacy hash (--md5pass): GRUB 2's own tool makes the hash it takes.
_GRUB_HINT = ("choose a new boot-loader password and write its GRUB 2 hash (bootloader --iscrypted "
              "--password=grub.pbkdf2.sha512..., from grub2-mkpasswd-pbkdf2) instead of --md5pass")
_REHASH_HINT = ("choose a new password and hash it with yescrypt (what the installer writes from Fedora 35 and in "
                "RHEL 10) or sha512crypt, from a vaulted secret")


def _rule_ids(name, target, key):
    return ", ".join(_profiles.rule_list(name, target, key))


def _hash_findings(secret, profile):
    if secret.scheme is None:
        return
    legacy, cost_name, default, description = SCHEMES[secret.scheme]
    if legacy:
        secret.add("legacy_scheme", "%s is a legacy scheme: an attacker with the file tries passwords against it "
                   "far faster than against yescrypt or sha512crypt" % description,
                   _GRUB_HINT if secret.command == "bootloader" else _REHASH_HINT)
    threshold, source = default, "the scheme's default"
    if profile is not None:
        name, target = profile
        hashing = _profiles.hashing(name, target)
        allowed = _profiles.crypt_schemes(name, target)
        if allowed and secret.scheme not in allowed and not secret.form == "grub_pbkdf2":
            secret.add("policy", "%s (%s) stores passwords as %s (rule %s); this hash is %s"
                       % (name, target, " or ".join(allowed), _rule_ids(name, target, "schemes"), secret.scheme),
                       "hash the password again with %s" % " or ".join(allowed))
        elif hashing["min_rounds"] is not None and secret.scheme in allowed and default is not None \
                and hashing["min_rounds"] > default:
            threshold = hashing["min_rounds"]
            source = "what %s (%s) asks (rule %s)" % (name, target, _rule_ids(name, target, "min_rounds"))
    if threshold is not None and secret.cost is not None and secret.cost < threshold:
        secret.add("low_cost", "%s at %s %d, below %d, %s: each guess costs an attacker less"
                   % (secret.scheme, cost_name, secret.cost, threshold, source),
                   "hash the password again at %s %d or more" % (cost_name, threshold))


def _known_weak_findings(secrets, cands, budget, threads, warnings):
    hashed = [secret for secret in secrets if secret._hash is not None]  # pylint: disable=protected-access
    if not hashed:
        return
    if _libxcrypt.load() is None and any(s.form == "crypt" for s in hashed):
        warnings.append("libxcrypt (libcrypt.so.1) cannot be loaded on this node (install %s): crypt hashes were "
                        "not tried against known-weak passwords" % _libxcrypt.PACKAGES)
    outcomes = _known_weak.check_hashes([s._hash for s in hashed], cands, budget, threads)  # noqa pylint: disable=protected-access
    unsupported = set()
    for secret in hashed:
        outcome = outcomes[secret._hash[0]]  # pylint: disable=protected-access
        if not outcome.supported:
            secret.tried = 0
            if _libxcrypt.load() is not None:
                unsupported.add(secret.scheme)
            continue
        if outcome.skipped:
            secret.tried = 0
            warnings.append("line %d: this %s hash was not tried against known-weak passwords: %s"
                            % (secret.line, secret.scheme, outcome.skipped))
            continue
        if outcome.found:
            secret.add("known_weak", "the hash is of a password from the list of likely ones (tool defaults, words "
                       "of this file, common passwords and their usual variations)",
                       "choose a new, random password (the pwpolicy_password lookup makes one), keep it in a vault "
                       "and hash it again")
        else:
            secret.tried = outcome.tried
    for scheme in sorted(unsupported):
        warnings.append("this node's libxcrypt cannot compute %s hashes: they were not tried against known-weak "
                        "passwords" % scheme)


_WEAK_PLAIN_HINT = ("choose a random password (the pwpolicy_password lookup makes one) and keep it in a vault, "
                    "not in the file")


def _policy_findings(secrets, file_words, wordlist, profile):
    plain = [s for s in secrets if s.form in ("plaintext", "passphrase")]
    if not plain:
        return
    listed = set(wordlist)
    weak = set(value for value in set(s._value for s in plain)  # pylint: disable=protected-access
               if _candidates.is_candidate(value, file_words, listed))
    minima = _profiles.policies(*profile) if profile is not None else {}
    for secret in plain:
        value = secret._value  # pylint: disable=protected-access
        if value in weak:
            secret.add("policy", "the %s is a common password, a tool's default or a word of this file (or a usual "
                       "variation of one): it is among the first an attacker tries"
                       % ("passphrase" if secret.form == "passphrase" else "password"), _WEAK_PLAIN_HINT)
        minimum = minima.get(secret.policy, {}).get("minlen") if secret.policy else None
        if minimum and len(value) < minimum:
            name, target = profile
            secret.add("policy", "shorter than the %d characters %s (%s) asks (rule %s)"
                       % (minimum, name, target, _rule_ids(name, target, "minlen")),
                       "choose a password of %d characters or more" % minimum)


def read_secrets(text, template=False, target=None, profile=None, wordlist=(), budget=_known_weak.DEFAULT_BUDGET,
                 threads=None):
    """The secrets of the kickstart (or, with ``template``, the unrendered template) ``text``: a SecretsReport.

    ``target`` is the installer release (else the ``#version=`` line);
    ``profile`` a compliance profile name, read for ``target`` (which must
    then be RHEL8, RHEL9 or RHEL10); ``wordlist`` the user's own candidate
    passwords; ``budget`` the seconds of hashing each distinct hash gets,
    counted on each core (0: no known-weak check).  Raises SecretsError,
    KickstartEditError or ProfileError, none holding a value of the file.
    """
    read = read_lines(text, template, target)
    secrets, hosts, release = read[:3]
    checked_profile = None
    if profile:
        if not release:
            raise SecretsError("profile %s needs a target release: set target (RHEL8, RHEL9 or RHEL10) or give "
                               "the kickstart a #version= line" % profile)
        checked_profile = _profiles.check_profile(profile, release)
    warnings = []
    accounts = [s.account for s in secrets if s.account]
    words = _candidates.file_words(text, accounts=accounts, hosts=hosts, release_name=release)
    wordlist = list(wordlist or ())
    for secret in secrets:
        if secret.form in ("plaintext", "passphrase"):
            _plaintext_finding(secret)
        _hash_findings(secret, checked_profile)
    _known_weak_findings(secrets, _candidates.CandidateList(words, wordlist), budget, threads, warnings)
    _policy_findings(secrets, words, wordlist, checked_profile)
    for secret in secrets:
        secret.findings.sort(key=lambda finding: FINDINGS.index(finding.id))
    return SecretsReport(secrets, warnings, release, read)


__all__ = ["read_secrets", "SecretsError", "KickstartEditError", "FORMS", "FINDINGS"]
