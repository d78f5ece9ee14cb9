"""Which .NET test platform a project's files say, and which report option its `dotnet test` takes.

Read: the project folder's `global.json`, `Directory.Build.props`, `Directory.Packages.props`, and
the solution and project files (`*.sln`, `*.slnx`, `*.csproj`, `*.fsproj`, `*.vbproj`) in it and in
folders down to MAX_DEPTH (not `bin`, `obj`, hidden or `node_modules` folders; at most MAX_FOLDERS
listed), at most MAX_FILES of them and MAX_BYTES of each. A link is read only when it stays inside
the project (safepath.read_project_file); a FIFO or device is never opened for reading.

The platform (the seed's capability names):
- `mtp` when a file opts into Microsoft.Testing.Platform: `EnableMSTestRunner`, `EnableNUnitRunner`,
  `UseMicrosoftTestingPlatformRunner` or `TestingPlatformDotnetTestSupport` set to true, a reference
  to `xunit.v3` or `TUnit`, the `MSTest.Sdk` project SDK (without `UseVSTest`), or global.json's
  `"test": {"runner": "Microsoft.Testing.Platform"}`;
- `vstest` for any other .NET project.

How `dotnet test` drives it (`mode`), which decides the option the rewrite appends:
- `direct`: global.json names MTP (the .NET 10 SDK's MTP mode): MTP options go on the command line;
- `msbuild`: `TestingPlatformDotnetTestSupport` (SDK 8/9): MTP options go after `--`;
- `vstest`: VSTest: `--logger trx`;
- '' (an MTP project that `dotnet test` runs through the VSTest bridge or not at all): not told,
  left alone.
"""

from __future__ import annotations

import os

MAX_DEPTH = 3  # folders below the project: src/App.Tests/App.Tests.csproj is at depth 2
MAX_FILES = 200
# folders listed: the PreToolUse rewrite reads these files, so a huge tree stays cheap
MAX_FOLDERS = 2000
MAX_BYTES = 512 * 1024
ROOT_FILES = ("global.json", "Directory.Build.props", "Directory.Packages.props")
PROJECT_SUFFIXES = (".sln", ".slnx", ".csproj", ".fsproj", ".vbproj")
SKIP = frozenset({"bin", "obj", "node_modules", "TestResults", "packages", "artifacts"})
MTP_SWITCHES = (
    "EnableMSTestRunner",
    "EnableNUnitRunner",
    "UseMicrosoftTestingPlatformRunner",
    "TestingPlatformDotnetTestSupport",
)
XUNIT_V3 = ("xunit.v3", "xunit.v3.core", "xunit.v3.mtp-v1", "xunit.v3.mtp-v2")
MTP_PACKAGES = (*XUNIT_V3, "tunit", "tunit.engine")  # package names (lower case) that run on MTP
TRX_EXTENSION = "microsoft.testing.extensions.trxreport"
MSTEST_META = ("mstest", "mstest.sdk")  # the MSTest metapackage and SDK bring the TRX extension


class Files:
    """The text of the .NET files of one project (lower-cased for the switch and package checks)."""

    def __init__(self, project: str) -> None:
        self.project = project
        self.names: list[str] = []  # project-relative paths of what was read
        self.texts: list[str] = []
        self.global_json = ""
        self._read()

    def _read(self) -> None:
        from sidekit_hooks.core import safepath

        for relative in [*ROOT_FILES, *self._project_files()]:
            try:
                data = safepath.read_inside(self.project, relative, MAX_BYTES, follow_inside=True)
            except (
                safepath.TooLarge
            ):  # its first MAX_BYTES only (never through a link): what decides is early
                data = _head(os.path.join(self.project, relative))
            except (OSError, ValueError):
                continue
            text = data.decode("utf-8", "replace")
            self.names.append(relative)
            self.texts.append(text.lower())
            if relative == "global.json":
                self.global_json = text

    def _project_files(self) -> list[str]:
        found: list[str] = []
        folders = [("", 0)]
        listed = 0
        while folders and len(found) < MAX_FILES and listed < MAX_FOLDERS:
            folder, depth = folders.pop(0)
            listed += 1
            try:
                entries = sorted(
                    os.scandir(os.path.join(self.project, folder)), key=lambda e: e.name
                )
            except OSError:
                continue
            for entry in entries:
                relative = f"{folder}/{entry.name}" if folder else entry.name
                if entry.is_dir(follow_symlinks=False):
                    if (
                        depth < MAX_DEPTH
                        and entry.name not in SKIP
                        and not entry.name.startswith(".")
                    ):
                        folders.append((relative, depth + 1))
                elif entry.name.endswith(PROJECT_SUFFIXES) and len(found) < MAX_FILES:
                    found.append(relative)
        return found

    @property
    def dotnet(self) -> bool:
        """Whether a solution or project file is there."""
        return any(name.endswith(PROJECT_SUFFIXES) for name in self.names)

    def switched_on(self, name: str) -> bool:
        """Whether an MSBuild property `<Name>true</Name>` is set in any file."""
        tag = f"<{name.lower()}>"
        for text in self.texts:
            start = text.find(tag)
            while start >= 0:
                if text[start + len(tag) :].lstrip().startswith("true"):
                    return True
                start = text.find(tag, start + 1)
        return False

    def references(self, *packages: str) -> bool:
        """Whether a PackageReference/PackageVersion (`Include`, `Update`) or the project's `Sdk`
        names one of `packages` (lower case; `Sdk="MSTest.Sdk/3.6.0"` names `mstest.sdk`)."""
        for text in self.texts:
            flat = text.replace("'", '"').replace(" =", "=").replace("= ", "=")
            for package in packages:
                for attribute in ("include=", "update=", "sdk="):
                    spot = f'{attribute}"{package}'
                    start = flat.find(spot)
                    while start >= 0:
                        if flat[start + len(spot) : start + len(spot) + 1] in ('"', "/"):
                            return True
                        start = flat.find(spot, start + 1)
        return False

    def global_runner(self) -> str:
        """global.json's `test.runner` ('' when unset or unreadable)."""
        if not self.global_json:
            return ""
        import json

        try:
            data = json.loads(self.global_json)
        except ValueError:
            return ""
        test = data.get("test") if isinstance(data, dict) else None
        runner = test.get("runner") if isinstance(test, dict) else None
        return runner if isinstance(runner, str) else ""


def _head(path: str) -> bytes:
    from sidekit_hooks.core import safepath

    try:
        return safepath.read_bytes(path, MAX_BYTES)
    except OSError:
        return b""


def read(project: str) -> Files:
    return Files(project)


def runner(root: str) -> str:
    """The registry's name for the runner of the project's TRX reports: its platform, VSTest when
    its files do not say (a TRX without a project beside it)."""
    return platform(read(root)) or "vstest"


def platform(files: Files) -> str:
    """'mtp', 'vstest', or '' (not a .NET project)."""
    if not files.dotnet and not files.global_runner():
        return ""
    if files.global_runner() == "Microsoft.Testing.Platform":
        return "mtp"
    if any(files.switched_on(name) for name in MTP_SWITCHES):
        return "mtp"
    if files.references(*MTP_PACKAGES):
        return "mtp"
    if files.references("mstest.sdk") and not files.switched_on("UseVSTest"):
        return "mtp"
    return "vstest"


def mode(files: Files) -> str:
    """How `dotnet test` runs this project's tests: 'direct', 'msbuild', 'vstest', or '' (not
    told)."""
    found = platform(files)
    if found == "vstest":
        return "vstest"
    if found != "mtp":
        return ""
    if files.global_runner() == "Microsoft.Testing.Platform":
        return "direct"
    if files.switched_on("TestingPlatformDotnetTestSupport"):
        return "msbuild"
    return ""


def mtp_report_option(files: Files) -> str:
    """The MTP option that writes TRX, when the project has what answers it: the TRX extension
    (`--report-trx`, also in the MSTest metapackage and SDK), else xUnit v3's own
    (`--report-xunit-trx`). '' when neither is known to be there (an unknown option would make MTP
    refuse the whole run)."""
    if files.references(TRX_EXTENSION, *MSTEST_META):
        return "--report-trx"
    if files.references(*XUNIT_V3):
        return "--report-xunit-trx"
    return ""
