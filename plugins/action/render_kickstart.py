# -*- coding: utf-8 -*-
# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``render_kickstart`` action: the kickstart role's one task per host.

Documentation: plugins/modules/render_kickstart.py.  In order, each step only
when the one before passed, so that a failure leaves the files as they were:

1. the pre-flight: the hashing scheme and its cost for the target (narrowed
   by the compliance profile, plugin_utils/_profile_check.py), the boot
   loader's PBKDF2 iterations, then exactly as ``check_secrets`` with the
   role's check by profile (both run plugin_utils/_secrets_check.py);
2. the template, rendered on the controller with the effective policies, the
   ``%anaconda`` section the pre-flight chose, the libpwquality settings and
   ``/etc/login.defs`` lines of the ``%post`` drop-in, and the accounts' crypt
   hashes and the boot loader's GRUB 2 hash, made here through
   ``plugin_utils/_crypt.py`` (the same bytes on every ansible-core: the
   role's templates never call ``password_hash``);
3. the directories, looked for or created (``ansible.builtin.stat`` /
   ``ansible.builtin.file``), only when there are two files or the role
   creates them;
4. with an updates image: the kickstart's write checked first
   (``ks_pwpolicy`` in check mode with the same path and arguments, nothing
   written), then the image (``anaconda_conf``);
5. the kickstart, written by ``ks_pwpolicy`` (section, validation, mode,
   atomic replacement, only when it differs).

The result's ``boot_args`` is the installer's boot line for the files
(``inst.ks=``, ``inst.updates=``, and ``inst.nosave=input_ks,output_ks`` where
the kickstart holds a secret and the release takes it: see ``boot_args`` in
module_utils/_release.py), at ``base_url`` or, without one, at the paths as
written; the template gets it as ``kickstart_boot_args`` for its header.  Its
``kickstart_result`` is the role's fact of that name, whole: the role copies it.

The warnings that are the same for every host of a run (:data:`NOTICES`) are
not the task's: they go to ``kickstart_result.notices`` (id, text, whether
``acknowledge`` lists the id), and the role prints each once for all its
hosts, with their number, at its end (tasks/render.yml).

One resolution of the policies serves every step: the pre-flight's effective
policies (all three names, every field) go to the template, the section and
the modules, which are given no product to resolve them again.

A failed step is named by what failed, never by the words of a message: the
module's ``lineno`` key (validation), the exception ansible-core raised when
it imported passlib, and the code a templating error came from (the
``password_hash`` filter).

The result holds no secret: the rendered text goes to the modules only, every
message is the plugin's own, and a cause quoted from Ansible or a module has
every secret the pre-flight read replaced by ``<hidden>``.  In diff mode (the
task's ``diff``, as Ansible sets it) its ``diff`` is ``ks_pwpolicy``'s of the
whole file, both sides masked (``_redact.masked_diff``).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import re

from ansible.module_utils.common.text.converters import to_text
from ansible.module_utils.parsing.convert_bool import boolean
from ansible.plugins.loader import lookup_loader

from ansible_collections.kickstart.pwpolicy.plugins.module_utils._errors import PwpolicyError
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._files import mode_error
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._policy import render_section
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.judge import judge, sentence
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._posture.kickstart import read_kickstart
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._redact import hide, holds_secret, masked_diff
from ansible_collections.kickstart.pwpolicy.plugins.module_utils._release import (
    ReleaseError,
    boot_args,
    deprecation_message,
    hash_scheme,
    parse_release,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils import _crypt
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._action import ActionModuleBase
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._preload import preload
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_check import (
    CHECK_ARGUMENT_SPEC,
    PROFILE_ARGUMENT_SPEC,
    SecretsCheck,
)
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._secrets_reader import BOOTLOADER, SecretReader
from ansible_collections.kickstart.pwpolicy.plugins.plugin_utils._weakest import HTTP_WARNING_START, http_warning

# Imported once by Ansible's main process, before any host's worker: what each worker would import again.
preload()

try:  # ansible-core 2.19+ records the task's warnings; 2.21 records a module's there and leaves them out of its result
    from ansible._internal._display_utils import DeferredWarningContext
except ImportError:  # up to 2.18: a module's warnings are in its result only
    DeferredWarningContext = None

# What the file modules are given as they are (None: left out).
FILE_ARGS = ("mode", "owner", "group", "setype")
# The arguments of this action only (after check_secrets' own, in the messages); all templated here (raw).
OWN_ARGUMENT_SPEC = dict((name, dict(type="raw")) for name in (
    "template", "template_label", "hash", "hash_rounds", "hash_cost", "salt_seed", "host_id", "create_dirs",
    "dir_mode", "base_url", "bootloader_iterations", "acknowledge") + FILE_ARGS)
OWN_ARGS = tuple(OWN_ARGUMENT_SPEC)
OWN_TEMPLATE = "kickstart.ks.j2"
# The template variable that holds the accounts' crypt hashes, keyed by the account's label (root, user:NAME).
HASHES_VAR = "__kickstart_hashes"
# ... and their scheme (sha512crypt, yescrypt), for the role's comment above them.
SCHEME_VAR = "__kickstart_password_hash"
# Without hash_rounds (outside the role): the role's default.
DEFAULT_HASH_ROUNDS = 656000
# The argument -> the role variable, for messages.
HASH_VARS = {"hash": "kickstart_password_hash", "hash_rounds": "kickstart_password_hash_rounds",
             "hash_cost": "kickstart_password_hash_cost", "bootloader_iterations": "kickstart_bootloader_password_iterations"}
# The template variables of the %post drop-in: every libpwquality setting, and the /etc/login.defs lines.
PWQUALITY_VAR = "kickstart_pwquality"
LOGIN_DEFS_VAR = "kickstart_login_defs"

# The template variable that holds the boot line (for the kickstart's header).
BOOT_ARGS_VAR = "kickstart_boot_args"
# The warnings that are the same for every host of a run, by id (the role's kickstart_acknowledge lists ids): the
# action returns them in kickstart_result.notices instead of warning, and the role prints each once.
NOTICES = ("anaconda_deprecated", "http_base_url")

# Where ansible.builtin.password_hash runs (a template of the user's own may call it; the role's do not): the
# filter's function, and the module that hashes for it.
HASH_FILTER = "get_encrypted_password"
HASH_MODULE = "ansible.utils.encrypt"
# How far a chain of causes is followed.
MAX_CAUSES = 20
# What a template of the user's own lacks when the read-back judge finds a value missing: the variable that writes it.
TEMPLATE_VARS = {"encryption": "{{ kickstart_luks_options }} on an autopart, part, raid or logvol line",
                 "bootloader_password": "{{ kickstart_bootloader_command }}"}


def template_lacks(deviation):
    """What a template of the user's own lacks for a read-back ``deviation`` (the variable that writes it)."""
    what = deviation["what"]
    if what in TEMPLATE_VARS:
        return "lacks " + TEMPLATE_VARS[what]
    if what in ("schemes", "min_rounds") and "file" not in (deviation.get("where") or {}):
        return "writes accounts of its own: use {{ kickstart_account_commands }}"
    return "lacks {{ kickstart_pwquality_post }}"


class RenderError(PwpolicyError):
    """A step failed: the message names it; ``cause`` is the quoted reason (secrets not yet hidden), or None."""

    def __init__(self, what, cause=None):
        super(RenderError, self).__init__(what)
        self.cause = cause


# A module that printed no result (an interpreter that is not Python, a crash
# before the module started): the last lines of what it printed say why.
OUTPUT_LINES = 6
OUTPUT_CHARS = 600


def module_failure(done):
    """A failed module result's message, with the end of its output when it returned no result (not JSON)."""
    message = to_text(done.get("msg") or "no message")
    lines = []
    for key in ("module_stderr", "module_stdout"):
        lines.extend(line.strip() for line in to_text(done.get(key) or "").splitlines() if line.strip())
    if not lines:
        return message
    tail = " | ".join(lines[-OUTPUT_LINES:])
    if len(tail) > OUTPUT_CHARS:
        tail = "..." + tail[-OUTPUT_CHARS:]
    return "%s; the module printed: %s (check ansible_python_interpreter: the modules need pykickstart on the " \
           "host that writes the kickstart)" % (message, tail)


def causes(exc):
    """``exc`` and what caused it, outermost first: ``__cause__``, and ``orig_exc`` (how ansible-core 2.16 chains)."""
    chain = []
    while exc is not None and len(chain) < MAX_CAUSES and not any(exc is seen for seen in chain):
        chain.append(exc)
        exc = getattr(exc, "orig_exc", None) or exc.__cause__
    return chain


def innermost_cause(exc):
    """The innermost cause's own message (each outer one repeats it with Ansible's words around it)."""
    for cause in reversed(causes(exc)):
        text = to_text(cause).strip()
        if text:
            return (text.splitlines() or [""])[0]
    return ""


def passlib_missing(exc):
    """True when ``exc`` was caused by passlib (or ansible-core 2.21's crypt backend) failing to import."""
    try:
        from ansible.utils import encrypt
    except ImportError:
        return False
    if getattr(encrypt, "PASSLIB_AVAILABLE", True):
        return False
    unavailable = [error for error in (getattr(encrypt, "PASSLIB_E", None), getattr(encrypt, "CRYPT_E", None))
                   if error is not None]
    return any(cause is error for cause in causes(exc) for error in unavailable)


def raised_in_hashing(exc):
    """True when ``exc`` (or a cause) was raised by the password_hash filter or the code that hashes for it."""
    for cause in causes(exc):
        trace = cause.__traceback__
        while trace is not None:
            frame = trace.tb_frame
            if frame.f_code.co_name == HASH_FILTER or frame.f_globals.get("__name__") == HASH_MODULE:
                return True
            trace = trace.tb_next
    return False


def warning_text(warning):
    """A warning's text: a string (ansible-core up to 2.18), or the message of a 2.19+ WarningSummary."""
    event = getattr(warning, "event", None)
    return to_text(warning if event is None else event.msg)


def task_warnings():
    """The warnings ansible-core 2.19+ has recorded for the running task so far (none before 2.19)."""
    context = DeferredWarningContext.current(optional=True) if DeferredWarningContext is not None else None
    return list(context.get_warnings()) if context is not None else []


def once(texts):
    """``texts`` without repeats, in order."""
    return sorted(set(texts), key=texts.index)


def acknowledged(value):
    """The notice ids of ``acknowledge`` (None or empty: none), or a PwpolicyError naming the valid ones."""
    if value in (None, ""):
        return []
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise PwpolicyError("render_kickstart: acknowledge (the role's kickstart_acknowledge) must be a list of notice "
                            "ids, some of %s" % ", ".join(NOTICES))
    unknown = [to_text(item) for item in value if item not in NOTICES]
    if unknown:
        raise PwpolicyError("render_kickstart: acknowledge (the role's kickstart_acknowledge) names no notice as %s; "
                            "the valid ids are %s" % (", ".join(unknown), ", ".join(NOTICES)))
    return [item for item in NOTICES if item in value]


# A URL's user part (user:password@, TOKEN@) before its host.
_URL_CREDENTIALS_RE = re.compile(r"\A[^:/?#]*://[^/?#]*@")


def checked_base_url(value):
    """``base_url``, or a PwpolicyError (never quoting it) when it holds credentials: the boot line it makes is
    typed at the installer, shown on its console, returned and printed by the role, and written in the kickstart's
    header."""
    if isinstance(value, str) and _URL_CREDENTIALS_RE.match(value):
        raise PwpolicyError("kickstart_base_url holds credentials (a user part before '@'): the boot line made from it "
                            "is printed by the role, written in the kickstart's header and shown on the installer's "
                            "console; give the server's URL without them, and protect the kickstarts another way "
                            "(HTTPS served only to the machines being installed)")
    return value


def notice_of(text, host, notices):
    """The id of the notice whose warning ``text`` is (the text itself, or the host's name before it), or None."""
    for notice in notices:
        if text in (notice["text"], "%s: %s" % (host, notice["text"])):
            return notice["id"]
    if notices and text.startswith("%s: %s" % (host, HTTP_WARNING_START)):
        return "http_base_url"  # the pre-flight's weakest link says it too, in its own words
    return None


def forget_recorded(texts):
    """Take the warnings whose text is one of ``texts`` out of those ansible-core 2.19+ recorded for the task."""
    context = DeferredWarningContext.current(optional=True) if DeferredWarningContext is not None else None
    if context is None:
        return
    recorded = context.get_warnings()  # the context's own list: what the task shows
    recorded[:] = [warning for warning in recorded if warning_text(warning) not in texts]


class ActionModule(ActionModuleBase):
    """Check, render and write one host's kickstart (and its updates image)."""

    NAME = "render_kickstart"
    ARGUMENT_SPEC = dict(CHECK_ARGUMENT_SPEC, **dict(PROFILE_ARGUMENT_SPEC, **OWN_ARGUMENT_SPEC))
    _requires_connection = True
    # (scheme, cost) of the kickstart's password hashes, for the pre-flight's weakest link.
    _hash_estimate = None
    # The boot loader's PBKDF2 iterations, checked before anything is read.
    _grub_iterations = None
    # The pre-flight (made once: the hashing step asks it for the role's check by profile first).
    _secrets_check = None
    # The warnings ansible-core 2.21 recorded for the task while a module ran (its result holds none).
    _recorded = ()

    def _preflight(self):
        if self._secrets_check is None:
            self._secrets_check = SecretsCheck(SecretReader(self._template, self._templar), dict(self._task.args))
        return self._secrets_check

    def _check(self, result, task_vars):
        """``(result, plain, items)`` of the pre-flight, as check_secrets runs it."""
        check = self._preflight()
        check.hash_estimate = self._hash_estimate
        return check.run(result, task_vars)

    def _view(self, task_vars):
        """The role's check by profile (:class:`._profile_check.RoleProfile`), or None: without one, or when it
        cannot be made (the pre-flight says why)."""
        try:
            return self._preflight().prepare(task_vars)[0]
        except PwpolicyError:  # fail_on and the like: the pre-flight says it
            return None

    def _own(self):
        args = self._task.args
        own = dict((name, self._template(args.get(name))) for name in OWN_ARGS)
        own["create_dirs"] = boolean(own["create_dirs"] or False, strict=False)
        own["acknowledge"] = acknowledged(own["acknowledge"])
        own["base_url"] = checked_base_url(own["base_url"])
        for name in ("mode", "dir_mode"):
            if mode_error(own[name]):
                raise PwpolicyError(mode_error(own[name], "kickstart_%s" % name))  # the role's variable
        return own

    def _hashing(self, own, host, view=None):
        """``(scheme, cost)`` of the password hashes for the target, or a PwpolicyError before anything is read.

        ``view``: the role's check by profile (None: none), whose schemes
        narrow ``auto`` and refuse the others (see ``_release.hash_scheme``),
        and to which a cost below a profile's minimum is a deviation (the
        pre-flight reports it).  An unknown target is left to the pre-flight,
        which names it (None).  The boot loader's iterations are checked too.
        """
        args = self._task.args
        target = self._template(args.get("target"))
        dest = self._template(args.get("dest"))
        try:
            try:
                self._grub_iterations = _crypt.check_iterations(own["bootloader_iterations"])
            except _crypt.CryptError as exc:
                raise PwpolicyError("bootloader_iterations (the role's %s) is %s, but %s"
                                    % (HASH_VARS["bootloader_iterations"], own["bootloader_iterations"], exc))
        except PwpolicyError as exc:
            raise PwpolicyError("%s: the boot-loader password hash cannot be made, so nothing was written (the "
                                "kickstart %s was not changed): %s" % (host, dest, exc))
        try:
            parse_release(target)
        except ReleaseError:
            return None
        try:
            allowed = view.allowed_schemes() if view is not None else None
            try:
                scheme = hash_scheme(target, own["hash"] or "auto", allowed)
            except ReleaseError as exc:
                if allowed is None:
                    raise
                raise PwpolicyError("%s (%s; %s waives them)" % (exc, view.scheme_rules(), view.exceptions_var))
            name = "hash_rounds" if scheme == "sha512crypt" else "hash_cost"
            given = own[name]
            if given in (None, "") and name == "hash_rounds":
                given = DEFAULT_HASH_ROUNDS
            try:
                cost = _crypt.check_cost(scheme, given)
            except _crypt.CryptError as exc:
                raise PwpolicyError("%s (the role's %s) is %s, but %s" % (name, HASH_VARS[name], given, exc))
            if view is not None:
                view.hash_cost(scheme, cost, HASH_VARS[name])
            # The backend that will hash (libxcrypt, else passlib), and that it can make this scheme's setting.
            _crypt.backend()
            _crypt.setting(scheme, "0" * 16, cost)
        except PwpolicyError as exc:
            raise PwpolicyError("%s: the password hashes cannot be made, so nothing was written (the kickstart %s was "
                                "not changed): %s" % (host, dest, exc))
        return scheme, cost

    def _hashes(self, own, hashing, items, task_vars):
        """``{label: crypt hash}`` of every account password the pre-flight read (root, user:NAME)."""
        if hashing is None:
            return {}
        scheme, cost = hashing
        seed = own["salt_seed"]
        seed = "kickstart.pwpolicy" if seed is None else to_text(seed)
        host_id = own["host_id"]
        host_id = to_text(task_vars.get("inventory_hostname", "localhost") if host_id in (None, "") else host_id)
        hashes = {}
        for item in items:
            if item["policy"] == "luks":
                continue
            if item["error"]:
                raise RenderError("hashing the passwords failed: %s %s" % (item["secret"], item["error"]))
            value = item["value"]
            if value is None or value is False or value == "":
                continue
            text = value if isinstance(value, str) else to_text(value)
            try:
                if item["secret"] == BOOTLOADER:
                    hashes[BOOTLOADER] = _crypt.grub_hash(text, _crypt.bootloader_salt(seed, host_id),
                                                          self._grub_iterations)
                else:
                    hashes[item["secret"]] = _crypt.hash_secret(
                        text, scheme, _crypt.account_salt(seed, host_id, item["secret"]), cost)
            except _crypt.CryptError as exc:
                raise RenderError("hashing the passwords (%s) failed" % (
                    "GRUB 2 PBKDF2" if item["secret"] == BOOTLOADER else scheme), str(exc))
        return hashes

    # -- steps -----------------------------------------------------------
    def _module(self, name, module_args, task_vars, secret=False):
        """A module's result; its arguments without the unset ones.

        ``secret``: the arguments hold the kickstart text, so the module is run
        as for a ``no_log`` task, which keeps them out of the host's journal
        (AnsibleModule logs its arguments there otherwise).
        """
        module_args = dict((key, value) for key, value in module_args.items() if value not in (None, ""))
        no_log = self._task.no_log
        before = len(task_warnings())
        try:
            self._task.no_log = no_log or secret
            return self._execute_module(module_name=name, module_args=module_args, task_vars=task_vars)
        finally:
            self._task.no_log = no_log
            self._recorded = tuple(self._recorded) + tuple(task_warnings()[before:])

    def _render(self, own, plain, check, task_vars, hashes, scheme=None, boot_line=None):
        """The template's text, with the effective policies, the section, the drop-in's settings and login.defs
        lines, the accounts' hashes and the boot line given to it."""
        template = own["template"] or OWN_TEMPLATE
        variables = dict(task_vars)
        variables[BOOT_ARGS_VAR] = boot_line or ""
        variables["kickstart_policies"] = check["policies"]
        variables[HASHES_VAR] = hashes
        variables[SCHEME_VAR] = scheme
        view = self._preflight().profile_view if self._secrets_check is not None else None
        variables[PWQUALITY_VAR] = view.pwquality()[0] if view is not None else {}
        variables[LOGIN_DEFS_VAR] = [list(line) for line in view.login_defs(scheme)] if view is not None else []
        try:
            variables["kickstart_anaconda_section"] = (
                render_section(check["policies"], target=plain["target"]) if check["delivery"]["section"] else "")
        except PwpolicyError as exc:  # the pre-flight resolved the same policies: not expected
            raise RenderError("rendering the pwpolicy section failed", to_text(exc))
        # The templar gets the same variables: a lookup nested in a variable (kickstart_account_commands)
        # runs with it on ansible-core 2.16, not with the variables given to the outer lookup.
        saved = self._templar.available_variables
        try:
            self._templar.available_variables = variables
            lookup = lookup_loader.get("ansible.builtin.template", loader=self._loader, templar=self._templar)
            return to_text(lookup.run([template], variables)[0])
        # Whatever templating raised (an undefined variable, a filter, the hashing) is reported by its step.
        except Exception as exc:  # pylint: disable=broad-except
            label = own["template_label"] or template
            if passlib_missing(exc):
                raise RenderError(
                    "the template %(label)s calls ansible.builtin.password_hash, which needs passlib on ansible-core "
                    "2.17 to 2.20, and passlib is not installed for the Python that runs Ansible on the controller "
                    "(%(py)s). Use the hashed lines of kickstart_account_commands instead, or install passlib there "
                    "(\"%(py)s -m pip install passlib\", or the distribution's python3-passlib package)"
                    % {"label": label, "py": task_vars.get("ansible_playbook_python", "python3")})
            if raised_in_hashing(exc):
                what = "hashing in the template %s (ansible.builtin.password_hash) failed" % label
            else:
                what = "rendering the template %s failed" % label
            raise RenderError(what, innermost_cause(exc))
        finally:
            self._templar.available_variables = saved

    @staticmethod
    def _read_back(own, plain, content, view):
        """The rendered text read back as the installer will read it and judged against the compliance profiles:
        ``(posture, judged)``, judged None without a profile.  A deviation the pre-flight already reported from
        the values given (the same rules) is not reported again.  A RenderError names each deviation that no
        exception waives: its line, its rules and, for a template of the user's own, the variable it lacks."""
        try:
            posture = read_kickstart(content, plain["target"])
        except PwpolicyError as exc:
            raise RenderError("the rendered kickstart cannot be read back", to_text(exc))
        if view is None or view.selection is None:
            return posture, None
        known = set(rule for deviation in view.deviations for rule in deviation.rules)
        # The %anaconda section is written by ks_pwpolicy from the policies the pre-flight judged.
        judged = judge(posture, view.selection.names, view.selection.target, view.exceptions, skip=("policies",))
        for key in ("deviations", "waived"):
            judged[key] = [d for d in judged[key] if not set(d["rules"]) & known]
        if judged["deviations"]:
            own_template = bool(own["template"])
            lines = []
            for deviation in judged["deviations"]:
                text = sentence(deviation)
                if own_template:
                    text += " (the template %s %s)" % (own["template_label"] or own["template"],
                                                       template_lacks(deviation))
                lines.append(text)
            raise RenderError("the rendered kickstart does not meet the compliance profile, read back as the "
                              "installer will read it: %s; fix the template or list the rules in %s"
                              % (" | ".join(lines), view.exceptions_var))
        return posture, judged

    @staticmethod
    def _dirs(own, dest, image):
        """The directories to look for or create: none with the kickstart alone (ks_pwpolicy stops on a missing
        one before writing anything), else those of both files."""
        if not (own["create_dirs"] or image):
            return []
        dirs = []
        for path in (dest, image):
            parent = os.path.dirname(path) if path else None
            if parent and parent not in dirs:
                dirs.append(parent)
        return dirs

    def _directories(self, own, dirs, task_vars, host):
        """Look for (or create) the directories; ``True`` when one was (or, in check mode, would be) created.

        Only a missing directory is created (``ansible.builtin.file`` creates the missing components of its path
        with ``dir_mode``, owner and group, and leaves the existing ones alone); an existing one is never given
        them, which ``ansible.builtin.file`` would do (``/root`` would become 0755).
        """
        created = False
        for path in dirs:
            found = self._module("ansible.builtin.stat", dict(path=path, follow=True, get_checksum=False), task_vars)
            if found.get("stat", {}).get("isdir"):
                continue
            if found.get("stat", {}).get("exists"):
                raise RenderError("%s on %s is not a directory; give a path in a directory" % (path, host))
            if found.get("failed") or not own["create_dirs"]:
                raise RenderError("directory %s does not exist on %s; create it first, or set "
                                  "kickstart_create_dirs: true for the role to create it" % (path, host))
            done = self._module("ansible.builtin.file", dict(
                path=path, state="directory", mode=own["dir_mode"], owner=own["owner"], group=own["group"]),
                task_vars)
            if done.get("failed"):
                raise RenderError("the directory %s could not be created on %s" % (path, host),
                                  module_failure(done))
            created = created or bool(done.get("changed"))
        return created

    def _kickstart(self, own, plain, policies, content, state, task_vars, host, check=False):
        """Write the kickstart, or (``check``) run the same write in check mode, which writes nothing but looks at
        everything the write needs (the directory, what is at the path, pykickstart); the module's result.

        ``policies``: the pre-flight's (all three names, every field), so that the module resolves nothing.
        """
        saved = self._task.check_mode
        try:
            self._task.check_mode = saved or check
            done = self._module("kickstart.pwpolicy.ks_pwpolicy", dict(
                path=plain["dest"], content=content, policies=policies, target=plain["target"], state=state,
                validate=True,
                **dict((name, own[name]) for name in FILE_ARGS)), task_vars, secret=True)
        finally:
            self._task.check_mode = saved
        if done.get("failed"):
            message = module_failure(done)
            if "lineno" in done:
                raise RenderError("the rendered kickstart does not validate for %s (pykickstart)" % plain["target"],
                                  message)
            raise RenderError("the kickstart could not be written on %s" % host, message)
        return done

    def _image(self, own, plain, policies, task_vars):
        done = self._module("kickstart.pwpolicy.anaconda_conf", dict(
            policies=policies, target=plain["target"],
            updates_image=plain["updates_image"], **dict((name, own[name]) for name in FILE_ARGS)), task_vars)
        if done.get("failed"):
            raise RenderError("the updates image %s could not be built" % plain["updates_image"],
                              module_failure(done))
        return done

    @staticmethod
    def _base_url(own):
        """``base_url`` ending in ``/``, or empty."""
        base = own["base_url"] or ""
        return base + "/" if base and not base.endswith("/") else base

    @classmethod
    def _where(cls, own, path):
        """Where the installer fetches the file at ``path``: its name at ``base_url``, else the path as written."""
        base = cls._base_url(own)
        return base + os.path.basename(path) if base else path

    @classmethod
    def _boot_args(cls, own, plain, image, content, secrets):
        """``(line, warning)``: the boot line for the files, at ``base_url`` when given, else at their paths.
        ``secrets``: whether the text keeps a secret at rest (every secret ks_secrets_info reports counts)."""
        try:
            return boot_args(plain["target"], cls._where(own, plain["dest"]),
                             cls._where(own, image) if image else None, secrets or holds_secret(content))
        except PwpolicyError as exc:  # the pre-flight read the same target: not expected
            raise RenderError("building the boot line failed", to_text(exc))

    @staticmethod
    def _notices(own, plain, flags, items, hashes, secrets):
        """The notices of this host (:data:`NOTICES`): ``[{id, text, acknowledged}]``.

        ``anaconda_deprecated``: the kickstart keeps the ``%anaconda`` section for a release that deprecated it (the
        words of the module's warning); ``http_base_url``: ``base_url`` is plain ``http://`` and the kickstart holds
        a secret (``secrets``), in the words of the weakest link's warning.
        """
        found = []
        text = deprecation_message(parse_release(plain["target"])) if flags["section"] else None
        if text:
            found.append(("anaconda_deprecated", text))
        if secrets:
            luks = any(item["policy"] == "luks" and item["value"] for item in items)
            text = http_warning(own["base_url"], luks, bool(hashes) or not luks)
            if text:
                found.append(("http_base_url", text))
        return [{"id": name, "text": text, "acknowledged": name in (own["acknowledge"] or ())} for name, text in found]

    def _warn(self, result, warnings, notices, host):
        """The task's warnings into ``result``: ``warnings`` after the pre-flight's, each once, but the notices'."""
        texts = [warning_text(warning) for warning in list(result.get("warnings", [])) + list(warnings)]
        kept = once([text for text in texts if notice_of(text, host, notices) is None])
        forget_recorded(set(notice["text"] for notice in notices))
        self._recorded = [warning for warning in self._recorded
                          if notice_of(warning_text(warning), host, notices) is None]
        if kept:
            result["warnings"] = kept
        else:
            result.pop("warnings", None)

    def _role_result(self, own, plain, result, image, notices):
        """The role's ``kickstart_result``: what was written, for which product and target, the effective policies,
        the delivery, every warning of the task as text (and the notices not acknowledged), the notices, and the
        boot arguments (``inst_ks`` and ``inst_updates`` as in ``boot_args``, ``base_url`` null without one)."""
        flags = result["delivery"]
        texts = [warning_text(warning) for warning in list(result.get("warnings", [])) + list(self._recorded)]
        texts.extend(notice["text"] for notice in notices if not notice["acknowledged"])
        return {
            "path": plain["dest"],
            "product": plain["product"],
            "target": plain["target"],
            "changed": bool(result.get("changed")),
            "policies": result["policies"],
            "delivery": [name for name in ("section", "updates_image") if flags[name]],
            "warnings": once(texts),
            "notices": notices,
            "base_url": self._base_url(own) or None,
            "inst_ks": "inst.ks=%s" % self._where(own, plain["dest"]),
            "updates_image": image,
            "inst_updates": "inst.updates=%s" % self._where(own, image) if image else None,
            "boot_args": result["boot_args"],
            "profile": result.get("profile"),
        }

    # -- run -------------------------------------------------------------
    def _run(self, result, args, task_vars):
        host = to_text(task_vars.get("inventory_hostname", "localhost"))
        try:
            own = self._own()
            hashing = self._hashing(own, host, self._view(task_vars))
        except PwpolicyError as exc:
            result.update(failed=True, msg=str(exc))
            return result
        self._hash_estimate = hashing
        result, plain, items = self._check(result, task_vars)
        if result.get("failed"):
            return result
        if "delivery" not in result or not plain["dest"]:
            result.update(failed=True, msg="render_kickstart: give dest, and delivery (auto, section, updates_image or "
                                           "both)")
            return result
        if result["delivery"]["updates_image"] and not plain["updates_image"]:
            result.update(failed=True, msg="render_kickstart: %s takes the policies from an updates image: give "
                                           "updates_image, its path" % plain["target"])
            return result
        secrets = [item["value"] for item in items if item["value"]]
        flags = result["delivery"]
        policies = result["policies"]
        image = plain["updates_image"] if flags["updates_image"] else None
        state = "present" if flags["section"] else "absent"
        created = False
        warnings = []
        try:
            hashes = self._hashes(own, hashing, items, task_vars)
            secrets.extend(hashes.values())  # a quoted cause never shows a hash either
            scheme = hashing[0] if hashing else None
            # The template's header names the boot line: the one for the secrets read, made again (and the text
            # rendered again) should the text hold one more (a template of the user's own).
            line = self._boot_args(own, plain, image, "", bool(secrets))[0]
            content = self._render(own, plain, result, task_vars, hashes, scheme, boot_line=line)
            view = self._preflight().profile_view
            posture, judged = self._read_back(own, plain, content, view)
            if judged is not None and result.get("profile") is not None:
                result["profile"]["read_back"] = judged
                if judged["waived"]:
                    warnings.extend("%s: %s waives %s" % (host, view.exceptions_var, sentence(d))
                                    for d in judged["waived"])
            kept = bool(secrets) or bool(posture["at_rest"]) or holds_secret(content)
            result["boot_args"], boot_warning = self._boot_args(own, plain, image, content, kept)
            if result["boot_args"] != line:
                content = self._render(own, plain, result, task_vars, hashes, scheme, boot_line=result["boot_args"])
            if boot_warning:
                warnings.append(boot_warning)
            notices = self._notices(own, plain, flags, items, hashes, kept)
            created = self._directories(own, self._dirs(own, plain["dest"], image), task_vars, host)
            if created and self._task.check_mode:
                # Check mode: a directory is missing, so nothing can be validated or written in it; all would be.
                result.update(changed=True, kickstart={"changed": True, "path": plain["dest"]})
                if image:
                    result["updates_image"] = {"changed": True, "path": image}
                self._warn(result, warnings, notices, host)
                if self._task.diff:  # the file is new: all of it, masked
                    result["diff"] = dict(zip(("before", "after"), masked_diff("", content)),
                                          before_header=plain["dest"], after_header=plain["dest"])
                result["kickstart_result"] = self._role_result(own, plain, result, image, notices)
                return result
            if image:
                # The kickstart's write checked before the image is built: a kickstart that does not validate, or
                # that cannot be written where it goes, leaves both files as they were.
                warnings.extend(self._kickstart(own, plain, policies, content, state, task_vars, host, check=True)
                                .get("warnings", []))
                conf = self._image(own, plain, policies, task_vars)
                warnings.extend(conf.get("warnings", []))
                result["updates_image"] = {"changed": bool(conf.get("changed")), "path": image}
            written = self._kickstart(own, plain, policies, content, state, task_vars, host)
        except RenderError as exc:
            # The pre-flight passed: its findings are not what the user needs to read here.  The image is built only
            # after the kickstart's write was checked; should the write still fail (a full disk), the result says so.
            built = (result.get("updates_image") or {}).get("changed")
            return {"failed": True, "changed": bool(created or built), "delivery": flags,
                    "msg": "kickstart (%s, %s): %s; the kickstart (%s) was not changed%s%s"
                           % (plain["product"], plain["target"], exc, plain["dest"],
                              " but the updates image (%s) was" % image if built else "",
                              (": " + hide(exc.cause, secrets)) if exc.cause else "")}
        warnings.extend(written.get("warnings", []))
        if self._task.diff and written.get("diff"):  # the whole file, both sides masked (ks_pwpolicy's)
            result["diff"] = written["diff"]
        # Each once (the validation pass and the write warn about the same text), the notices left to the role.
        self._warn(result, warnings, notices, host)
        result["kickstart"] = {"changed": bool(written.get("changed")), "path": plain["dest"]}
        result["changed"] = bool(created or written.get("changed")
                                 or (result.get("updates_image") or {}).get("changed"))
        result["kickstart_result"] = self._role_result(own, plain, result, image, notices)
        return result
