"""The agent's raw `dotnet test`: the options appended so its run writes a TRX report and its
console folds the restore and build noise. Only appended (runners.dispatch keeps the command's
prefix); each only when the command does not already say it; nothing when the platform or its report
option cannot be told.

- VSTest (`project.mode` 'vstest'): `--logger trx` (one file per project and target framework, in that
  project's `TestResults` folder, named by user, machine and time, where the TRX logger numbers a name
  already taken, so no run overwrites another's; no `;LogFilePrefix=...`: a `;` in the appended words
  would split the command under one reading of the client's permission matching, and the one
  permission judgment then leaves the command alone), and `-v q`:
  MSBuild quiet (no restore and build progress; errors and warnings still print, in MSBuild's
  `File.cs(12,5): error CS0103: ...` form) and, since dotnet passes the verbosity on, VSTest's console
  logger quiet (one `Failed!  - Failed: 1, Passed: 2, ...` line per test project, no per-test blocks).
  `-v q` is left out when the command sets a verbosity or its own console logger.
- MTP, .NET 10 SDK mode ('direct'): the report option (`--report-trx`, or xUnit v3's
  `--report-xunit-trx`) on the command line. MTP through MSBuild ('msbuild', SDK 8/9): the same
  after `--`.

Left alone: not `dotnet test`; `--help`, `--list-tests`; a VSTest command with `--` (what follows is
RunSettings, ours would land there); an MTP project that `dotnet test` runs through the VSTest
bridge, or whose TRX option is not known to be there (an unknown option fails the whole run).
Standard library only and no `re`: this runs on the PreToolUse hot path.
"""

from __future__ import annotations

VSTEST_REPORT = "trx"
LEAVE_ALONE = frozenset({"-h", "--help", "-?", "/?", "-t", "--list-tests"})
LOGGER = ("--logger", "-l")
VERBOSITY = ("-v", "--verbosity")
MTP_REPORTS = ("--report-trx", "--report-xunit-trx")


def matches(words: list[str]) -> bool:
    """`dotnet test ...` (the program by any path)."""
    return (
        len(words) >= 2
        and words[0].rsplit("/", 1)[-1] in ("dotnet", "dotnet.exe")
        and words[1] == "test"
    )


def compact_words(words: list[str], project: str) -> list[str] | None:
    """`words` with the options appended, or None to leave the command alone."""
    if not matches(words) or any(word in LEAVE_ALONE for word in words):
        return None
    from sidekit_hooks.runners.dotnet import project as dotnet_project

    files = dotnet_project.read(project)
    mode = dotnet_project.mode(files)
    if mode == "vstest":
        added = vstest_options(words[2:])
    elif mode in ("direct", "msbuild"):
        added = mtp_options(words[2:], mode, dotnet_project.mtp_report_option(files))
    else:
        added = []
    return [*words, *added] if added else None


def vstest_options(args: list[str]) -> list[str]:
    if "--" in args:
        return []
    loggers = logger_values(args)
    added: list[str] = []
    if not any(value.lower().startswith("trx") for value in loggers):
        added += ["--logger", VSTEST_REPORT]
    quiet = not any(_is_option(arg, VERBOSITY) for arg in args)
    if quiet and not any(value.lower().startswith("console") for value in loggers):
        added += ["-v", "q"]
    return added


def mtp_options(args: list[str], mode: str, report: str) -> list[str]:
    if not report or any(_is_option(arg, MTP_REPORTS) for arg in args):
        return []
    if mode == "direct":
        return [] if "--" in args else [report]
    return [report] if "--" in args else ["--", report]  # SDK 8/9: MTP's own options follow `--`


def logger_values(args: list[str]) -> list[str]:
    """The values of every `--logger`/`-l` (`--logger trx`, `--logger:trx`,
    `-l=console;verbosity=...`)."""
    values: list[str] = []
    for index, arg in enumerate(args):
        if arg in LOGGER:
            values.append(args[index + 1] if index + 1 < len(args) else "")
        elif _is_option(arg, LOGGER):
            values.append(
                arg.split(":", 1)[1] if ":" in arg.split("=", 1)[0] else arg.split("=", 1)[-1]
            )
    return [value.strip("\"'") for value in values]


def _is_option(arg: str, names: tuple[str, ...]) -> bool:
    """`arg` is one of `names`, alone or with its value joined by `:` or `=`."""
    return any(arg == name or arg.startswith((name + ":", name + "=")) for name in names)
