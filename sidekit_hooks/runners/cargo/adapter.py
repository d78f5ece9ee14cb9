"""cargo test: libtest's text output (`test x ... FAILED`, `---- x stdout ----`, `panicked at`,
`test result:`) and the compiler's errors into cache records.

Test ids are `<source>::<test path>`: `src/lib.rs::tests::adds`, `tests/api.rs::parses` (a workspace
member's sources under its folder), doc tests `src/lib.rs::doc add (line 2)`. A compile error is an
error of the crate, not "0 failed"; a test binary that dies without its summary line (abort,
segfault, stack overflow) is an error of that binary.

The raw-run compaction appends options only: cargo's runner (`target."cfg(all())".runner`) and its
rustdoc (`build.rustdoc`, a two-line wrapper the hook keeps in `.sidekit/cargo/rustdoc`) become
runners/cargo/cargo_tee.sh, a POSIX sh script, so every test binary and doc-test run goes through it
with no interpreter started per binary; `term.quiet` keeps cargo's own progress lines out (the
script prints them back when the run's output is printed as it was). The script holds each unit's
output until the one that speaks for the run (a doc-test run, or a red binary that cargo stops at)
prints it as it was (2 KB at most) or one compact answer for all of it (cargo_answer.awk);
cargo/run.py writes the cache once cargo has ended. Left alone: an existing `--`, `--no-run`,
`--help`, a runner configured by the project or the environment (ours would replace it), and `cargo
nextest` (its JUnit goes through `sidekit ingest`).
"""

from __future__ import annotations

import os
import re
import sys

from sidekit_hooks.core import safepath
from sidekit_hooks.runners import Result

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

NAME = "cargo"
FEED = "writer"  # one detached writer reads the run's output once cargo has ended (run.py)
PENDING = ("run-",)  # the run's output under .sidekit/cargo/ until its writer is done
COMMAND = ["cargo", "test", "--no-fail-fast"]
LEAVE_ALONE = frozenset(
    {"--", "--no-run", "--help", "-h", "--version", "-V", "--list", "--config", "--message-format"}
)
TEST_LINE = re.compile(r"^test (.+?) \.\.\. (ok|FAILED|ignored(?:, .*)?)$")
STDOUT_HEAD = re.compile(r"^---- (.+?) stdout ----$")
RUNNING = re.compile(r"^\s*Running (?:unittests )?(\S+) \((.+?)\)$")
DOC_TESTS = re.compile(r"^\s*Doc-tests (\S+)$")
RESULT_LINE = re.compile(r"^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed")
DIED = re.compile(r"process didn't exit successfully: .*\((signal: .*|exit status: \d+)\)")


def command(project: str, args: list[str] | None = None) -> list[str]:
    """What `sidekit test [ARGS]` runs: every test target, not stopping at the first red one."""
    return [*COMMAND, *(args or [])]


def detect(project: str) -> bool:
    return os.path.isfile(os.path.join(project, "Cargo.toml"))


def matches(words: list[str]) -> bool:
    return len(words) >= 2 and words[0].rsplit("/", 1)[-1] == "cargo" and words[1] == "test"


# Words after which cargo surely runs the doc tests after the binaries (when the package has a plain
# lib): then a doc-test run speaks last for the run. A test-name filter, a target selection or any
# option not listed here: each binary speaks for itself.
DOC_TESTS_FOLLOW = frozenset(
    {
        "--no-fail-fast", "--workspace", "--all", "--release", "-r", "--all-features", "--no-default-features",
        "--frozen", "--locked", "--offline", "-q", "--quiet", "--ignore-rust-version",
    }
)  # fmt: skip
WITH_VALUE = frozenset(
    {
        "-p",
        "--package",
        "--exclude",
        "--features",
        "-F",
        "--target-dir",
        "--manifest-path",
        "-j",
        "--jobs",
        "--profile",
    }
    | {"--color", "-Z"}
)  # not --target: cargo before 1.89 runs no doc tests for another target
VERBOSE = ("-v", "-vv", "--verbose")
UNQUOTABLE = "'\\$`\""  # characters a path may not carry into the TOML strings of our options


def compact_words(words: list[str], project: str) -> list[str] | None:
    if any(w in LEAVE_ALONE or w.startswith("--config=") for w in words[2:]):
        return None
    if any(name.startswith("CARGO_TARGET_") and name.endswith("_RUNNER") for name in os.environ):
        return None
    configured = _configured(project)
    if "runner" in configured:
        return None
    rustdoc = (
        "" if "rustdoc" in configured or os.environ.get("RUSTDOC") else _rustdoc_wrapper(project)
    )
    doc_last = bool(rustdoc) and doc_tests_follow(words[2:])
    mode = ("" if "--no-fail-fast" in words else "f") + ("d" if doc_last else "") or "-"
    runner = ["/bin/sh", tee_script(), "bin", sys.executable, mode]
    if any(c in part for part in [*runner, rustdoc] for c in UNQUOTABLE):
        return None
    program = ",".join(f'"{part}"' for part in runner)
    appended = ["--config", f'target."cfg(all())".runner=[{program}]']
    if rustdoc:
        appended += ["--config", f'build.rustdoc="{rustdoc}"']
    if (
        not any(w in VERBOSE for w in words[2:])
        and "verbose" not in configured
        and not os.environ.get("CARGO_TERM_VERBOSE")
    ):
        appended += ["--config", "term.quiet=true"]
    return [*words, *appended]


def doc_tests_follow(args: list[str]) -> bool:
    """Whether cargo runs the doc tests after the binaries for these `cargo test` arguments."""
    value_next = False
    for arg in args:
        if value_next:
            value_next = False
        elif arg in WITH_VALUE:
            value_next = True
        elif (
            arg.split("=", 1)[0] not in WITH_VALUE
            and arg not in DOC_TESTS_FOLLOW
            and arg not in VERBOSE
        ):
            return False
    return True


# What a `cargo test` may carry and still run every test of the crate or workspace (with its value
# for the second set): any other word (a test-name filter, `--lib`, `--test X`, `-p X`, `--doc`,
# `--exact`, ...) narrows the run, which then must not clear the errors of tests it did not run
# (status.record).
FULL_RUN = (
    DOC_TESTS_FOLLOW
    | frozenset(VERBOSE)
    | {"--no-default-features", "--keep-going", "--future-incompat-report"}
)
FULL_RUN_WITH_VALUE = frozenset(
    {
        "--features",
        "-F",
        "--target-dir",
        "--manifest-path",
        "-j",
        "--jobs",
        "--profile",
        "--color",
        "-Z",
        "--config",
    }
)
FULL_RUN_AFTER_DASHES = frozenset(
    {"--nocapture", "--show-output", "-q", "--quiet", "--test-threads", "--color"}
)


def filter_words(args: list[str]) -> list[str]:
    """The words of `cargo test ARGS` that narrow the run (the run's `args` in the cache): [] for a
    run of everything. After `--` (libtest's own options) all but a few that select nothing
    count."""
    words: list[str] = []
    libtest: list[str] = []
    value_next = after_dashes = False
    for arg in args:
        if value_next:
            value_next = False
        elif after_dashes:
            name = arg.split("=", 1)[0]
            if name not in FULL_RUN_AFTER_DASHES:
                libtest.append(arg)
            elif name == arg and arg in ("--test-threads", "--color"):
                value_next = True
        elif arg == "--":
            after_dashes = True
        elif arg in FULL_RUN_WITH_VALUE:
            value_next = True
        elif arg not in FULL_RUN and arg.split("=", 1)[0] not in FULL_RUN_WITH_VALUE:
            words.append(arg)
    return [*words, "--", *libtest] if libtest else words


def cargo_test_args(argv: list[str]) -> list[str] | None:
    """The words after `test` of a cargo process's command line (`/proc/PID/cmdline`), None when it
    is not `cargo ... test ...`."""
    if not argv or not os.path.basename(argv[0]).startswith("cargo") or "test" not in argv[1:]:
        return None
    return argv[argv.index("test", 1) + 1 :]


def tee_script() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "cargo_tee.sh")


def _rustdoc_wrapper(project: str) -> str:
    """`.sidekit/cargo/rustdoc` in the project: cargo's rustdoc for a compacted run ('' when it
    cannot be written). It runs the doc tests through cargo_tee.sh; rustdoc itself is found on
    PATH."""
    import shlex
    import shutil

    if not shutil.which("rustdoc"):
        return ""
    from sidekit_hooks.core import safepath, workspace

    path = os.path.join(workspace.state_dir(project), "cargo", "rustdoc")
    body = f'#!/bin/sh\nexec /bin/sh {shlex.quote(tee_script())} doc {shlex.quote(sys.executable)} - "$@"\n'
    try:
        if safepath.read_bytes(path, 4096) == body.encode() and os.access(path, os.X_OK):
            return path
    except OSError:
        pass
    try:
        workspace.atomic_write(path, body)
        os.chmod(path, 0o755)
    except OSError:
        return ""
    return path


def _configured(project: str) -> set[str]:
    """Which of runner, rustdoc, verbose a cargo config file from the project up to the home folder
    sets (all three when one cannot be read plainly: do not guess)."""
    folders, folder = [], os.path.abspath(project)
    while True:
        folders.append(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    home = os.environ.get("CARGO_HOME") or os.path.join(os.path.expanduser("~"), ".cargo")
    paths = [os.path.join(f, ".cargo", n) for f in folders for n in ("config.toml", "config")]
    paths += [os.path.join(home, "config.toml"), os.path.join(home, "config")]
    from sidekit_hooks.core import safepath

    found: set[str] = set()
    for path in paths:
        try:  # regular files only, never blocking on a FIFO a repository planted there
            text = safepath.read_bytes(path)
        except OSError:
            if os.path.lexists(
                path
            ):  # there but not readable so (a link, a FIFO): do not guess, leave it alone
                return {"runner", "rustdoc", "verbose"}
            continue
        found.update(word for word in ("runner", "rustdoc", "verbose") if word.encode() in text)
    return found


def collect(project: str, started: float, exit_code: int, raw_output_path: str) -> Result:
    text = safepath.read_tail(raw_output_path, safepath.MAX_OUTPUT).decode("utf-8", "replace")
    return parse(text, project, started, exit_code, "")


def parse(text: str, root: str, started: float, exit_code: int, source: str) -> Result:
    """Records from cargo's (or one test binary's) output. `source`: the file id of a lone
    binary."""
    from sidekit_hooks.runners import frames

    result = Result(NAME, started, exit_code)
    lines = text.splitlines()
    members = _Members(root)
    current = source or "."
    blocks: dict[str, list[str]] = {}
    block: list[str] | None = None
    saw_result = True
    unit = 0  # where the current unit's lines start: a crash is told from its own lines only
    for index, line in enumerate(lines):
        running = RUNNING.match(line)
        doc = DOC_TESTS.match(line)
        if running or doc:
            if not saw_result and block is None:
                _died(result, current, lines[unit:index])
            unit = index
            if running:
                current = members.source(running.group(1), running.group(2))
            elif doc:
                current = members.doc(doc.group(1))
            saw_result, block = False, None
            continue
        head = STDOUT_HEAD.match(line)
        if head:
            block = blocks.setdefault(_test_id(current, head.group(1)), [])
            continue
        if line in ("failures:", "successes:") or line.startswith("test result:"):
            block = None
            saw_result = saw_result or line.startswith("test result:")
            if line.startswith("test result:"):
                result.last_words = line
            continue
        found = TEST_LINE.match(line)
        if found and block is None:
            outcome = {"ok": "passed", "FAILED": "failed"}.get(found.group(2), "skipped")
            entry: dict[str, Any] = {"o": outcome, "d": 0.0}
            if outcome == "failed":
                entry["p"] = "call"
            result.tests[_test_id(current, found.group(1).removesuffix(" - should panic"))] = entry
            continue
        if block is not None:
            block.append(line)
    for test, entry in result.tests.items():
        if entry["o"] == "failed":
            entry["f"] = frames.rust_failure(blocks.get(test, []), root)
    from sidekit_hooks.runners.cargo import exercised

    try:  # panics in test code: at the crate function they share
        exercised.place(result.tests, root)
    except Exception as exc:  # noqa: BLE001 - a scan's bug leaves the failures where they panicked
        from sidekit_hooks.core import hooklog

        hooklog.error(root, "cargo", "runners/cargo/exercised.place", exc)
    errors = frames.rust_compile_errors(lines, root)
    if errors:
        result.errors[current if current != "." else "Cargo.toml"] = errors[0]
        result.last_words = next(
            (ln for ln in lines if ln.startswith("error: could not compile")), errors[0]["message"]
        )
    elif not saw_result and exit_code:
        _died(result, current, lines[unit:])
    if exit_code and not result.last_words:
        result.last_words = next((ln.strip() for ln in reversed(lines) if ln.strip()), "")
    return result


COMPILE_FAILED = "error: could not compile `"  # cargo's verdict on a crate rustc refused


def needs_feed(cwd: str, output: str, code: int, since_ns: int) -> bool:
    """Whether a compacted run needs the feed after it (runners/junit/feed.py): a crate failed to
    compile, so no test binary ran, no unit of the run spoke, and no writer fed the cache (issue
    #33: status kept the last run's failures, `stale`, and never named the compile error)."""
    return code != 0 and COMPILE_FAILED in output and "\ntest result: " not in "\n" + output


def feed_after(job: dict[str, Any]) -> Result | None:
    """The compile errors cargo printed (the output the model read), as errors of the run; None when
    it printed none (a unit ran and its writer feeds the cache)."""
    output = str(job.get("output", ""))
    if not needs_feed("", output, int(job["exit"]), 0):
        return None
    result = parse(output, str(job["root"]), float(job["started"]), int(job["exit"]), "")
    if not result.errors:
        return None
    args = job.get("args") or []
    result.args = filter_words(cargo_test_args(["cargo", *[str(word) for word in args]]) or [])
    return result


def _died(result: Result, where: str, lines: list[str]) -> None:
    """A binary that ended without its `test result:` line: crashed (abort, segfault, overflow).
    `lines`: that binary's own, from its `Running` line (cargo's `Caused by` after it names the
    signal)."""
    from sidekit_hooks.runners import frames

    why = next((m.group(1) for ln in lines if (m := DIED.search(ln))), "")
    said = next(
        (
            ln.strip()
            for ln in reversed(lines[1:])
            if ln.strip()
            and not ln.startswith("error")
            and ln != "Caused by:"
            and not DIED.search(ln)
        ),
        "",
    )
    result.errors[where] = frames.with_shape(
        {"type": "crash", "message": why or said or "test binary ended early"}
    )


def _test_id(source: str, name: str) -> str:
    if " - " in name and name.split(" - ", 1)[0].endswith(
        ".rs"
    ):  # a doc test: `src/lib.rs - add (line 2)`
        path, _, what = name.partition(" - ")
        base = source.rsplit("::", 1)[0] if source.endswith("::doc") else ""
        parts = base.split("/") if base and base != "." else []
        for start in range(
            len(parts)
        ):  # rustdoc run from the workspace's root names the member already
            if path.startswith("/".join(parts[start:]) + "/"):
                parts = parts[:start]
                break
        return f"{'/'.join([*parts, path])}::doc {what}"
    return f"{source}::{name}"


class _Members:
    """Workspace members by crate name, to place a test binary's sources under its member folder."""

    def __init__(self, root: str) -> None:
        self.root = root
        self._by_name: dict[str, str] | None = None

    def _names(self) -> dict[str, str]:
        if self._by_name is None:
            import tomllib

            self._by_name = {}
            for folder, dirs, files in os.walk(self.root):
                depth = os.path.relpath(folder, self.root).count(os.sep)
                dirs[:] = [
                    d for d in dirs if d not in ("target", "node_modules", ".git") and depth < 3
                ]
                if "Cargo.toml" in files:
                    manifest = safepath.read_project_file(
                        self.root, os.path.join(folder, "Cargo.toml"), 1 << 20
                    )
                    try:
                        name = (
                            tomllib.loads((manifest or b"").decode())
                            .get("package", {})
                            .get("name", "")
                        )
                    except ValueError:
                        continue
                    if name:
                        self._by_name[name.replace("-", "_")] = os.path.relpath(
                            folder, self.root
                        ).replace(os.sep, "/")
        return self._by_name

    def _member_of(self, binary: str, source: str) -> str:
        stem = os.path.basename(binary).rsplit("-", 1)[0]
        names = self._names()
        if stem in names:
            return names[stem]
        for folder in names.values():  # an integration test binary is named after its file
            if os.path.isfile(os.path.join(self.root, folder, source)):
                return folder
        return "."

    def source(self, source: str, binary: str) -> str:
        folder = self._member_of(binary, source)
        return source if folder == "." else f"{folder}/{source}"

    def doc(self, crate: str) -> str:
        return f"{self._names().get(crate.replace('-', '_'), '.')}::doc"


GRAPH_SUFFIXES = (".rs",)  # the source files its graph answers for


def tests_for(project: str, path: str) -> dict[str, Any]:
    """The test files a change to `path` can affect: the crate's module tree and its integration
    tests (impact/rust.py)."""
    from sidekit_hooks.impact import by_graph, rust

    return by_graph.tests_for(project, path, rust, GRAPH_SUFFIXES, NAME)


def graph_selection(project: str, base: str | None) -> dict[str, Any]:
    """`sidekit select`'s answer head from the same graph (`sidekit test --select` still runs every
    test)."""
    from sidekit_hooks.impact import by_graph, rust

    return by_graph.selection(project, base, rust, NAME)
