"""`sidekit doctor`: is the wiring sound? For each problem, what is wrong and the command that mends
it.

Exit 1 when a problem was found. Text for a person by default; `--format json` for tools.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

from sidekit_hooks import __version__
from sidekit_hooks.cli.commands._shared import add_project, project_of
from sidekit_hooks.cli.wiring import files, settings_merge
from sidekit_hooks.core import agentpath, hooklog, workspace
from sidekit_hooks.pipeline.hook_events import EVENTS

MIN_PYTHON = (3, 11)
RECENT_FAILURES = 24 * 3600  # seconds: older hook failures are history, not a problem
PROBE_SESSION = "sidekit-doctor-probe"
PROBES: dict[str, dict[str, Any]] = {
    name: event.probe for name, event in EVENTS.items()
}  # no sidecar speaks


@dataclass(frozen=True)
class Check:
    name: str
    status: str  # ok | problem | skip | info
    detail: str
    fix: str = ""


@dataclass(frozen=True)
class Wired:
    """One marked handler found in one settings file."""

    source: str  # as shown: .claude/settings.json, ~/.claude/settings.json
    flags: str  # the install/uninstall flags that name this file
    event: str
    command: str
    timeout: float

    @property
    def slot(self) -> str:
        """Which of sidekit's handlers this is (the event, or `PreToolUse:jest` for an event's
        second)."""
        return settings_merge.key_of(self.event, self.command)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_project(parser)
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="text for people, json for tools"
    )


def run(args: argparse.Namespace) -> int:
    project = project_of(args)
    checks = diagnose(project)
    problems = sum(check.status == "problem" for check in checks)
    if args.format == "json":
        from sidekit_hooks.answers.render import emit

        emit(
            {
                "project": project,
                "problems": problems,
                "checks": [_as_dict(check) for check in checks],
            }
        )
    else:
        print(render(project, checks, problems))
    return 1 if problems else 0


def diagnose(project: str) -> list[Check]:
    install = f"sidekit install --project {shlex.quote(project)}"
    wired, plugin, checks = _read_wiring(project, install)
    root, how = plugin_root(project)
    if root:
        plugin.append(f"{root} ({how})")
    checks.extend(_wiring_checks(wired, plugin, install))
    checks.extend(_handler_checks(wired, project, install))
    if root:
        checks.append(_plugin_probe(root, project))
    if wired or root:
        checks.append(_agent_shell_check(wired, root, project, install))
    checks.append(_escapes_check(project))
    checks.append(_state_check(project))
    checks.append(_versions_check())
    checks.append(_rule_packs_check(project))
    checks.append(_grammars_check(project))
    checks.extend(_cache_checks(project))
    checks.extend(_recorder_checks(project))
    checks.append(_deadline_check(project))
    checks.append(_mcp_check(project, bool(plugin)))
    checks.append(_export_check(project))
    checks.append(_hook_log_check(project))
    warm = _warm_path_check(project)
    if warm:
        checks.append(warm)
    proposed = _scope_proposal_check(project)
    if proposed:
        checks.append(proposed)
    return checks


def _grammars_check(project: str) -> Check:
    """The code index reads TypeScript, JavaScript, Go, Rust and Java through tree-sitter grammar
    wheels: one that is missing (or does not load) leaves that language's files out of `symbol`,
    `usages` and `blast-radius` (their answers say `notIndexed`). A problem when the project has
    such files."""
    from sidekit_hooks.code.languages import GRAMMAR_MODULES, build

    missing = {lang: why for lang in GRAMMAR_MODULES if (why := build.available(lang))}
    if not missing:
        return Check("code languages", "ok", "grammars for " + ", ".join(GRAMMAR_MODULES) + " load")
    packages = ["tree-sitter>=0.23"] + sorted({build.spec_of(lang).package for lang in missing})
    fix = f"{shlex.quote(sys.executable)} -m pip install " + " ".join(
        shlex.quote(p) for p in packages
    )
    present = _languages_present(project)
    hit = sorted(lang for lang in missing if lang in present)
    first = missing[hit[0] if hit else sorted(missing)[0]]
    if hit:
        detail = f"not indexed: {', '.join(hit)} (this project has such files; {first})"
        return Check("code languages", "problem", detail, fix)
    return Check(
        "code languages", "info", f"no grammar for {', '.join(sorted(missing))} ({first})", fix
    )


def _languages_present(project: str) -> set[str]:
    """The languages the project's code index holds files of (from git's file list when there is no
    index)."""
    from sidekit_hooks.code import INDEX_FILE, files, languages

    path = os.path.join(workspace.state_dir(project), INDEX_FILE)
    if os.path.isfile(path):
        import sqlite3

        try:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.5)
            try:
                return {str(row[0]) for row in db.execute("SELECT DISTINCT lang FROM files")}
            finally:
                db.close()
        except sqlite3.Error:
            pass
    listing = files.git_listing(project, languages.INDEXED)
    return {languages.language_of(p) for p in (listing[0] if listing else [])}


def render(project: str, checks: list[Check], problems: int) -> str:
    lines = [f"sidekit doctor: {project}"]
    for check in checks:
        label = "PROBLEM" if check.status == "problem" else check.status
        lines.append(f"  {label:<8} {check.name}: {check.detail}")
        if check.fix:
            lines.append(f"  {'':<8} fix: {check.fix}")
    lines.append(
        f"{problems} problem{'s' if problems != 1 else ''} found"
        if problems
        else "no problems found"
    )
    return "\n".join(lines)


def _as_dict(check: Check) -> dict[str, str]:
    return {"check": check.name, "status": check.status, "detail": check.detail, "fix": check.fix}


def _sources(project: str) -> list[tuple[str, str, str]]:
    """(shown name, path, install flags) of every settings file that can wire hooks into
    `project`."""
    quoted = shlex.quote(project)
    return [
        (
            ".claude/settings.json",
            os.path.join(project, ".claude", "settings.json"),
            f"--project {quoted}",
        ),
        (
            ".claude/settings.local.json",
            os.path.join(project, ".claude", "settings.local.json"),
            f"--project {quoted} --local",
        ),
        (
            "~/.claude/settings.json",
            os.path.join(files.home(), ".claude", "settings.json"),
            "--user",
        ),
    ]


def _read_wiring(project: str, install: str) -> tuple[list[Wired], list[str], list[Check]]:
    wired: list[Wired] = []
    plugin: list[str] = []
    checks: list[Check] = []
    for shown, path, flags in _sources(project):
        try:
            data = files.read_settings(
                path, f"sidekit doctor --project {shlex.quote(project)}"
            ).data
        # SidekitError carries the fix; report it as a check
        except Exception as exc:  # noqa: BLE001
            message = getattr(exc, "message", str(exc))
            checks.append(
                Check("settings", "problem", f"{shown}: {message}", getattr(exc, "fix", ""))
            )
            continue
        if data.get("disableAllHooks") is True:
            checks.append(
                Check(
                    "settings",
                    "problem",
                    f'{shown} sets "disableAllHooks": true, so no hook runs',
                    f'delete the "disableAllHooks" line from {path}',
                )
            )
        enabled = data.get("enabledPlugins")
        if isinstance(enabled, dict):
            plugin.extend(
                f"{name} ({shown})"
                for name, on in enabled.items()
                if on is True and str(name).split("@")[0] == "sidekit-hooks"
            )
        for event, handler in settings_merge.marked_handlers(data):
            timeout = handler.get("timeout")
            wired.append(
                Wired(
                    shown,
                    flags,
                    event,
                    str(handler["command"]),
                    float(timeout) if isinstance(timeout, (int, float)) else settings_merge.TIMEOUT,
                )
            )
    return wired, plugin, checks


def _wiring_checks(wired: list[Wired], plugin: list[str], install: str) -> list[Check]:
    if not wired:
        if plugin:
            return [Check("settings", "ok", f"wired as a plugin: {', '.join(plugin)}")]
        return [
            Check(
                "settings",
                "problem",
                "no sidekit hook entries in .claude/settings.json, "
                ".claude/settings.local.json or ~/.claude/settings.json",
                install,
            )
        ]
    checks: list[Check] = []
    events = {item.slot for item in wired}
    missing = [event for event in settings_merge.EVENTS if event not in events]
    sources = sorted({item.source for item in wired}, key=[item.source for item in wired].index)
    if missing and not plugin:
        checks.append(
            Check(
                "settings",
                "problem",
                f"{', '.join(missing)} not wired (found in {', '.join(sources)})",
                install,
            )
        )
    elif not missing:
        checks.append(
            Check(
                "settings", "ok", f"{', '.join(sources)} wires {', '.join(settings_merge.EVENTS)}"
            )
        )
    for event in settings_merge.EVENTS:
        commands = {item.command for item in wired if item.slot == event}
        if len(commands) > 1 or (commands and plugin):
            where = ", ".join(item.source for item in wired if item.slot == event) + (
                " and the plugin" if plugin else ""
            )
            # Keep one: the plugin when there is one, else the first settings file's entry.
            extra = [item for item in wired if item.slot == event][0 if plugin else -1]
            checks.append(
                Check(
                    "settings",
                    "problem",
                    f"{event} is wired more than once ({where}): nudges would come twice",
                    f"sidekit uninstall {extra.flags}",
                )
            )
    return checks


def plugin_root(project: str = "") -> tuple[str, str]:
    """(the plugin folder, how it was recognised), or ("", "") when this project shows no plugin
    form.

    In the agent's shell of a plugin-form session the plugin's SessionStart hook exports it
    (core/agentpath.py). Outside a session (settings files do not show a `--plugin-dir` plugin at
    all): the plugin that set this project up (`.sidekit/plugin-setup.json`, core/pluginform.py)."""
    root = os.environ.get(agentpath.PLUGIN_VAR, "")
    if _is_plugin(root):
        return root, "this session's plugin"
    if project:
        from sidekit_hooks.core import fastjson, pluginform, safepath

        try:
            done = safepath.read_bytes(safepath.check(pluginform.done_path(project)), 1 << 20)
            data = fastjson.loads(done.decode("utf-8", "replace"))
        except (OSError, ValueError):
            data = None
        root = str(data.get("root", "")) if isinstance(data, dict) else ""
        if _is_plugin(root):
            return root, "the plugin that set this project up"
    return "", ""


def _is_plugin(root: str) -> bool:
    return bool(root) and os.path.isfile(os.path.join(root, "hooks", "hooks.json"))


def _plugin_probe(root: str, project: str) -> Check:
    """Run the plugin's launcher as its hooks.json does, on a PostToolUse probe."""
    command = f"{shlex.quote(os.path.join(root, 'hooks', 'run'))} post_tool_use"
    item = Wired("the plugin", "", "PostToolUse", command, settings_merge.TIMEOUT)
    check = _probe(
        item,
        project,
        f"ls {shlex.quote(os.path.join(root, 'hooks'))}",
        {"CLAUDE_PLUGIN_ROOT": root},
    )
    return Check(
        "plugin",
        check.status,
        check.detail.replace("(the plugin)", f"({root}/hooks/run)"),
        check.fix,
    )


def _agent_shell_check(wired: list[Wired], root: str, project: str, install: str) -> Check:
    """Do the commands the nudges and CLAUDE.md suggest (`sidekit status`, ...) run in the agent's
    shell, whose PATH does not have sidekit's venv? Checked the way Claude Code sets that shell
    up."""
    bare = "/usr/bin:/bin"
    if root:
        env = {"PATH": f"{bare}:{os.path.join(root, 'bin')}"}
        how = f"the plugin puts {root}/bin on its PATH"
        script = "sidekit --version"
    else:
        starts = [item for item in wired if item.event == "SessionStart"]
        if not starts:
            return Check(
                "agent shell",
                "problem",
                "`sidekit` is not on the agent's PATH: no SessionStart hook puts it there",
                install,
            )
        import tempfile

        # Claude Code's own env file lives outside the project too (~/.claude/session-env/...).
        env_file = os.path.join(
            tempfile.mkdtemp(prefix="sidekit-doctor-env-"), "sessionstart-hook-0.sh"
        )
        _probe(starts[0], project, install, {"CLAUDE_ENV_FILE": env_file})
        env = {"PATH": bare}
        how = f"SessionStart ({starts[0].source}) puts it on PATH"
        folder = shlex.quote(os.path.dirname(env_file))
        script = f". {shlex.quote(env_file)} 2>/dev/null; rm -rf {folder}; sidekit --version"
    env.update(HOME=files.home(), CLAUDE_PROJECT_DIR=project)
    try:
        done = subprocess.run(
            ["/bin/sh", "-c", script],
            capture_output=True,
            text=True,
            cwd=project,
            env=env,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return Check(
            "agent shell",
            "problem",
            f"`sidekit --version` did not run in the agent's shell: {exc}",
            install,
        )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1][:160]
        return Check(
            "agent shell",
            "problem",
            f"`sidekit` does not run in the agent's shell (exit {done.returncode}: {last})",
            install,
        )
    return Check(
        "agent shell", "ok", f"`sidekit` runs in the agent's shell ({how}): {done.stdout.strip()}"
    )


def _handler_checks(wired: list[Wired], project: str, install: str) -> list[Check]:
    checks: list[Check] = []
    pythons: dict[str, Check] = {}
    for item in wired:
        words = _words(item.command)
        scripts = [
            word for word in words[1:] if word.endswith(".py")
        ]  # a handler's name may follow it
        python, script = (
            (words[0], scripts[-1] if scripts else words[-1]) if len(words) >= 2 else ("", "")
        )
        if python not in pythons:
            pythons[python] = _python_check(python, item, install)
            checks.append(pythons[python])
        if pythons[python].status == "problem":
            continue  # the probe could only fail the same way
        if not os.path.isfile(script):
            checks.append(
                Check(
                    "hook script",
                    "problem",
                    f"{item.slot} in {item.source} runs {script or repr(item.command)}, which "
                    "does not exist",
                    install,
                )
            )
            continue
        checks.append(_probe(item, project, install))
    return checks


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command, comments=True)
    except ValueError:
        return []


def _python_check(python: str, item: Wired, install: str) -> Check:
    import shutil

    found = python if os.path.isabs(python) else (shutil.which(python) or "") if python else ""
    if not (os.path.isfile(found) and os.access(found, os.X_OK)):
        return Check(
            "interpreter",
            "problem",
            f"{python or repr(item.command)} ({item.source}) does not exist",
            install,
        )
    try:
        done = subprocess.run(
            [found, "-S", "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
            capture_output=True,
            text=True,
            timeout=10,
        )
        version = tuple(int(part) for part in done.stdout.strip().split("."))
    except (OSError, subprocess.SubprocessError, ValueError):
        return Check("interpreter", "problem", f"{python} does not run", install)
    shown = ".".join(map(str, version))
    if version < MIN_PYTHON:
        venv = os.path.dirname(os.path.dirname(python))
        return Check(
            "interpreter",
            "problem",
            f"{python} is Python {shown}; sidekit needs >= 3.11",
            f"rm -rf {shlex.quote(venv)} && ./install.sh (in the sidekit-hooks checkout, with "
            "python3 >= 3.11)",
        )
    return Check("interpreter", "ok", f"{python} (Python {shown})")


def _probe(
    item: Wired, project: str, install: str, extra_env: dict[str, str] | None = None
) -> Check:
    """Run the handler exactly as Claude Code does (`sh -c`), on the smallest payload of its
    event."""
    payload = {
        "session_id": PROBE_SESSION,
        "cwd": project,
        "hook_event_name": item.event,
        **PROBES.get(item.event, {}),
    }
    env = dict(os.environ, CLAUDE_PROJECT_DIR=project, **(extra_env or {}))
    for name in ("CLAUDE_ENV_FILE", "CLAUDE_PLUGIN_ROOT"):  # only what this probe itself sets
        if name not in (extra_env or {}):
            env.pop(name, None)
    for name in (
        "TMUX_PANE",
        "GT_SESSION",
    ):  # inside Gas Town the hook would drain the agent's own queue
        env.pop(name, None)
    deadlines_before = _deadline_records(project)
    started = time.monotonic()
    try:
        done = subprocess.run(
            ["/bin/sh", "-c", item.command],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            cwd=project,
            env=env,
            timeout=min(item.timeout, 30),
        )
    except subprocess.TimeoutExpired:
        return Check(
            "hook runs",
            "problem",
            f"{item.slot} did not finish within its {item.timeout:g} s timeout",
            f"sidekit doctor --project {shlex.quote(project)} after: tail -n 20 "
            ".sidekit/log/hooks.jsonl",
        )
    finally:
        _forget_probe(project)
    elapsed = round((time.monotonic() - started) * 1000)
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["no message"])[-1][:200]
        return Check(
            "hook runs",
            "problem",
            f"{item.slot} ({item.source}) exited {done.returncode}: {first}",
            install,
        )
    if not _valid_output(done.stdout):
        return Check(
            "hook runs",
            "problem",
            f"{item.slot} printed something other than one JSON object: {done.stdout[:80]!r}",
            install,
        )
    if (
        _deadline_records(project) > deadlines_before
    ):  # it gave up: what it should have said was not said
        return Check(
            "hook runs",
            "problem",
            f"{item.slot} ({item.source}) ran into its deadline ({elapsed} ms)",
            "the 'hook deadline' line below names what was running",
        )
    return Check(
        "hook runs", "ok", f"{item.slot} ({item.source}): exit 0, valid output, {elapsed} ms"
    )


def _valid_output(stdout: str) -> bool:
    if not stdout.strip():
        return True
    try:
        return isinstance(json.loads(stdout), dict)
    except ValueError:
        return False


def _forget_probe(project: str) -> None:
    """The probe's session queue, if a sidecar queued anything for it, goes with the probe."""
    import shutil

    try:
        shutil.rmtree(workspace.session_queue_dir(workspace.queue_root(project), PROBE_SESSION))
    except OSError:
        pass


def _escapes_check(project: str) -> Check:
    """Symlinks under .sidekit/ or .runtime/ that lead out of the project: the hooks refuse to use
    them."""
    from sidekit_hooks.core import safepath

    found = safepath.escapes(project)
    if not found:
        return Check("paths", "ok", ".sidekit/ and .runtime/ stay inside the project")
    first = found[0].split(" -> ")[0]
    more = f" (+{len(found) - 1} more)" if len(found) > 1 else ""
    fix = f"rm {shlex.quote(os.path.join(project, first))} (sidekit recreates what it needs inside the project)"
    if (
        first == safepath.OWN_LINKS[0]
    ):  # the recorder's link, to something that is not sidekit: point it back
        fix = f"sidekit install --project {shlex.quote(project)} --recorder-only (points it at this sidekit again)"
    return Check(
        "paths",
        "problem",
        f"{found[0]} leads outside the project; sidekit refuses to use it{more}",
        fix,
    )


def _warm_path_check(project: str) -> Check | None:
    """Events wired to both the command hook and the warm server (docs/warm-path.md): which path
    answered them (the claims of the last hour); None where nothing is wired so."""
    from sidekit_hooks.pipeline import claim

    counts, last = claim.tally(project)
    if not last:
        return None
    said = ", ".join(f"{count} by {who}" for who, count in counts.items() if count)
    return Check("warm path", "info", f"events of the last hour: {said}; the newest by {last}")


def _deadline_records(project: str) -> int:
    return sum(
        r.get("where") == "deadline" or str(r.get("where", "")).startswith("timeout:")
        for r in hooklog.read(project, hooklog.ERRORS)
    )


def _deadline_check(project: str) -> Check:
    """A hook that ran into its deadline (or a part cut off for overrunning): name what was
    running."""
    cutoff = time.time() - RECENT_FAILURES
    hits = [
        r
        for r in hooklog.read(project, hooklog.ERRORS)
        if isinstance(r.get("ts"), (int, float))
        and r["ts"] >= cutoff
        and (r.get("where") == "deadline" or str(r.get("where", "")).startswith("timeout:"))
    ]
    if not hits:
        return Check("hook deadline", "ok", "no hook ran out of time in the last 24 h")
    culprit = str(hits[-1].get("culprit") or hits[-1].get("where") or "?")
    detail = f"{len(hits)} hook run{'s' if len(hits) != 1 else ''} ran out of time in the last 24 h; newest while running {culprit}"
    if "pack " in culprit or "detector specs" in culprit or "detector rules" in culprit:
        target = culprit.split("pack ", 1)[1].split(" rule ")[0] if "pack " in culprit else ""
        fix = (
            f"sidekit rules test {shlex.quote(target)}".rstrip() if target else "sidekit rules test"
        )
        return Check(
            "hook deadline",
            "problem",
            detail,
            f"{fix} (it measures compile and match time), then trim that pack",
        )
    if "scope" in culprit:
        return Check(
            "hook deadline",
            "problem",
            detail,
            "sidekit scope show; narrow it with sidekit scope set --allow 'dir/**'",
        )
    return Check(
        "hook deadline",
        "problem",
        detail,
        "read the causes: tail -n 20 "
        f"{shlex.quote(os.path.join(workspace.log_dir(project), hooklog.ERRORS))}",
    )


def _state_check(project: str) -> Check:
    from sidekit_hooks.core import safepath

    folders = [workspace.state_dir(project), workspace.queue_root(project)]
    for folder in folders:
        try:
            safepath.makedirs(folder, project if folder.startswith(project) else "")
            probe = os.path.join(folder, f".doctor-{os.getpid()}")
            with open(probe, "w", encoding="utf-8") as handle:
                handle.write("ok")
            os.unlink(probe)
        except OSError as exc:
            return Check(
                "state",
                "problem",
                f"{folder} is not writable ({exc.strerror})",
                f"chmod -R u+w {shlex.quote(folder)}",
            )
    shown = [
        os.path.relpath(folder, project) if folder.startswith(project + os.sep) else folder
        for folder in folders
    ]
    return Check("state", "ok", f"{shown[0]}/ and {shown[1]}/ writable")


def _versions_check() -> Check:
    from importlib import metadata

    found = [f"sidekit {__version__}", f"Python {'.'.join(map(str, sys.version_info[:3]))}"]
    missing = []
    for dist in ("pydantic", "rapidfuzz", "tomli-w"):
        try:
            found.append(f"{dist} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            missing.append(dist)
    if missing:
        return Check(
            "versions",
            "problem",
            f"{', '.join(missing)} not installed ({', '.join(found)})",
            f"{shlex.quote(sys.executable)} -m pip install {' '.join(missing)}",
        )
    return Check("versions", "info", ", ".join(found))


def _cache_checks(project: str) -> list[Check]:
    """The shared caches the sidecars read: a corrupt one is never fatal, but the sidecar knows
    less."""
    from sidekit_hooks.impact import covers
    from sidekit_hooks.status import cache

    root = cache.workspace_root(project)
    checks = []
    loaded = cache.read(cache.summary_path(root))
    if loaded.note:
        checks.append(
            Check(
                "test cache", "problem", loaded.note, f"sidekit test --project {shlex.quote(root)}"
            )
        )
    else:
        checks.append(
            Check(
                "test cache",
                "ok" if loaded.data else "info",
                "readable" if loaded.data else "no pytest run recorded yet",
            )
        )
    if os.path.exists(covers.covers_path(root)) and not covers.read(root):
        checks.append(
            Check(
                "test map",
                "problem",
                f"{os.path.relpath(covers.covers_path(root), project)} cannot be used",
                f"cd {shlex.quote(root)} && sidekit map",
            )
        )
    return checks


RECORDER_STATES = {  # probe answer -> (status, what a plain pytest there does)
    "records": ("ok", "a plain pytest there records"),
    "no-plugin": ("problem", "a plain pytest there does not record"),
    "empty-shim": (
        "problem",
        "a plain pytest there does not record (the recorder's link to sidekit is broken)",
    ),
    "no-pytest": ("info", "pytest is not installed there"),
    "broken": ("problem", "its interpreter does not run"),
}


def _recorder_checks(project: str) -> list[Check]:
    """Which interpreter runs the tests, and per project environment whether a plain pytest records
    (#10)."""
    from sidekit_hooks.runners.pytest import environments, interpreter

    chosen = interpreter.find(project)
    source = (
        "sidekit's own: no project environment found"
        if chosen.source == "sidekit"
        else chosen.source
    )
    checks = [
        Check(
            "test interpreter", "info", f"{chosen.label(project)} ({source}); override: --python PY"
        )
    ]
    named, inside = interpreter.project_python(project)
    if named and not inside and not os.environ.get(interpreter.SETTING_ENV):
        checks.append(
            Check(
                "test interpreter",
                "info",
                f"pyproject.toml's [tool.sidekit] python ({named}) lies outside the project: not "
                "used",
                f"if it is yours: export {interpreter.SETTING_ENV}={shlex.quote(named)} (or pass "
                "--python)",
            )
        )
    fix = f"sidekit install --project {shlex.quote(project)} --recorder-only"
    for candidate in environments.targets(project):
        status, says = RECORDER_STATES.get(
            environments.probe(candidate.path, project), RECORDER_STATES["broken"]
        )
        shown = interpreter.display(candidate.env, project)
        checks.append(
            Check(
                "pytest recorder",
                status,
                f"{shown}: {says}",
                (f"{candidate.path} -m pip install pytest" if status == "info" else fix)
                if status != "ok"
                else "",
            )
        )
    return checks


def _rule_packs_check(project: str) -> Check:
    """Lint every pack layer, as `sidekit rules lint` does; name a project pack that is not read."""
    from sidekit_hooks.rules import snapshot

    refused = snapshot.refused_packs(project)
    if refused:
        first, real = refused[0], os.path.realpath(refused[0])
        more = f" (+{len(refused) - 1} more)" if len(refused) > 1 else ""
        copy = (
            f"rm {shlex.quote(first)} && cp -r {shlex.quote(real)} {shlex.quote(first)}"
            if os.path.isdir(first)
            else f"cp --remove-destination {shlex.quote(real)} {shlex.quote(first)}"
        )
        return Check(
            "rule packs",
            "problem",
            f"{os.path.relpath(first, project)} is not read: it leads outside the project or is "
            "not a regular "
            f"file{more}",
            f"copy the pack in ({copy}), or put it in {snapshot.user_dir()}/ for every project",
        )
    try:
        errors = _lint_errors(project)
    except Exception as exc:  # noqa: BLE001 - a crashing linter is a finding, not a crashed doctor
        return Check(
            "rule packs",
            "problem",
            f"the rules linter failed: {type(exc).__name__}: {exc}"[:200],
            "sidekit rules lint",
        )
    if errors:
        more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
        return Check(
            "rule packs", "problem", f"{errors[0].splitlines()[0]}{more}", "sidekit rules lint"
        )
    return Check("rule packs", "ok", "every pack passes lint")


def _lint_errors(project: str) -> list[str]:
    """One line per lint error of the project's packs, every layer."""
    from sidekit_hooks.rules.authoring import lint

    errors: list[str] = []
    for layer, path in lint.targets([], project):
        checked = lint.check_file(path, project, layer)
        if checked.errors:
            errors.extend(line for line in checked.rendered() if line)
    return errors


def _mcp_check(project: str, plugin: bool = False) -> Check:
    """Start the MCP server (the project's .mcp.json entry, else this sidekit's), list its tools,
    time it.

    `plugin`: the sidekit plugin is enabled, and it ships the server too.
    """
    from sidekit_hooks.cli.mcpserver import config, tools
    from sidekit_hooks.cli.mcpserver import probe as mcp_probe

    entry = config.wired(project)
    install = f"sidekit install --project {shlex.quote(project)} --mcp"
    if entry is None:
        argv, env, source = [sys.executable, *config.SERVER_ARGS], None, "`sidekit mcp`"
    else:
        unsafe = config.unsafe_entry(entry, project)
        if (
            unsafe
        ):  # a committed .mcp.json is the repository's: doctor never runs what it did not write
            return Check(
                "mcp", "problem", f".mcp.json server 'sidekit' was not started: {unsafe}", install
            )
        args, extra = entry.get("args"), entry.get("env")
        args = args if isinstance(args, list) else []
        extra = extra if isinstance(extra, dict) else {}
        argv = [str(entry.get("command", "")), *map(str, args)]
        env = dict(os.environ, **{str(k): str(v) for k, v in extra.items()}) if extra else None
        source = ".mcp.json server 'sidekit'"
    found = mcp_probe.probe(argv, project, env)
    if found.error:
        fix = install if entry is not None else f"{shlex.quote(sys.executable)} -m pip install mcp"
        return Check("mcp", "problem", f"{source} did not list its tools: {found.error}"[:300], fix)
    missing = [name for name in tools.TOOLS if name not in found.tools]
    if missing:
        return Check(
            "mcp",
            "problem",
            f"{source} lacks the tools {', '.join(missing)} (an older sidekit?)",
            install,
        )
    detail = f"{source} lists {len(found.tools)} tools, first answer in {found.tools_ms:.0f} ms"
    if entry is not None and plugin:
        return Check(
            "mcp",
            "problem",
            f"{detail}, and the plugin serves them too: the agent sees every tool twice",
            f'delete the "sidekit" entry from {os.path.join(project, ".mcp.json")}',
        )
    if (
        entry is None and plugin
    ):  # the plugin ships .mcp.json: adding it here would serve every tool twice
        return Check("mcp", "ok", f"{detail}; the plugin serves them (its .mcp.json)")
    if entry is None:
        return Check("mcp", "info", f"{detail}; not in .mcp.json (add it: {install})")
    return Check("mcp", "ok", detail)


def _export_check(project: str) -> Check:
    """The OpenTelemetry export in force and where it came from; a project endpoint the user has not
    accepted is named with the command that accepts it (it is ignored until then:
    docs/settings.md)."""
    from sidekit_hooks.cli.commands import otel
    from sidekit_hooks.core import exportconfig

    found = exportconfig.explain(project)
    if found.endpoint:
        detail = f"on: to {found.endpoint}, from {exportconfig.SOURCES[found.source]}"
        if found.headers:
            detail += f" (headers: {', '.join(sorted(found.headers))})"
        if found.ignored and found.source != "project":
            detail += f"; pyproject.toml's {found.ignored} is not used (yours wins)"
        return Check("otel export", "info", detail)
    if found.ignored:
        return Check(
            "otel export",
            "info",
            f"off: pyproject.toml names {found.ignored}, ignored until you trust it for this "
            "project",
            otel.trust_command(project, found.ignored),
        )
    return Check(
        "otel export",
        "info",
        "off: no endpoint set (SIDEKIT_OTEL_ENDPOINT or the plugin's otel_endpoint)",
    )


def _scope_proposal_check(project: str) -> Check | None:
    """A wider scope the agent asked for over MCP waits for the user (scope_set never widens by
    itself)."""
    from sidekit_hooks.cli.commands import scope

    waiting = scope.proposal(project)
    if waiting is None:
        return None
    globs = waiting.get("allow")
    allow = [str(glob) for glob in globs] if isinstance(globs, list) else []
    shown = ", ".join(allow)[:120]
    return Check(
        "scope",
        "info",
        f"the agent proposed a wider scope ({shown}): {waiting.get('why', '')}",
        f"accept: sidekit scope set --allow {' '.join(map(shlex.quote, allow))}; or ignore it",
    )


def _hook_log_check(project: str) -> Check:
    records = hooklog.read(project, hooklog.ERRORS)
    cutoff = time.time() - RECENT_FAILURES
    recent = [
        record
        for record in records
        if isinstance(record.get("ts"), (int, float)) and record["ts"] >= cutoff
    ]
    log = os.path.join(workspace.log_dir(project), hooklog.ERRORS)
    if not recent:
        older = f" ({len(records)} older)" if records else ""
        return Check("hook log", "ok", f"no hook failures in the last 24 h{older}")
    newest = recent[-1]
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(newest["ts"])))
    detail = (
        f"{len(recent)} hook failure{'s' if len(recent) != 1 else ''} in the last 24 h; newest "
        f"{when} "
        f"{newest.get('hook', '?')} {newest.get('where', '?')}: "
        f"{str(newest.get('error', ''))[:160]}"
    )
    return Check(
        "hook log", "problem", detail, _log_fix(str(newest.get("where", "")), project, log)
    )


def _log_fix(where: str, project: str, log: str) -> str:
    clear = f"then clear the log: rm {shlex.quote(log)}*"
    if where.startswith(("detector:specs", "detector:rules")):
        return f"sidekit rules lint; {clear}"
    if where in ("enqueue", "drain"):
        return f"chmod -R u+w {shlex.quote(workspace.queue_root(project))}; {clear}"
    return f"read the causes: tail -n 20 {shlex.quote(log)}; {clear}"
