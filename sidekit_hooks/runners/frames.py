"""Failures in the cache's words from each language's own text: Go, Rust and JVM frames.

A failure is {"type", "message", "at", "frame", "frames", "shape"} (status.vocabulary.Failure).
`at` is where it broke ("path:line", workspace-relative); `frame` the innermost frame in the
project when `at` lies outside it; `shape` the message with values taken out, so that failures from
one cause (one frame, one message shape) cluster together in status.clusters.
"""

from __future__ import annotations

import os

from sidekit_hooks.core import textscan
from sidekit_hooks.status.clusters import in_test_code, normalize

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

MESSAGE_CHARS = 300
MAX_FRAMES = 6

# Compiled when first used (`pattern`): a red go binary's failures are read without `re`
# (go_log_line, go_test_name); panics, build failures, Rust and JVM output use these.
GO_FRAME = r"^\t(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$"  # goroutine dumps: `\t/abs/calc.go:9 +0x1d`
GO_BUILD = r"^(?:\.\/)?([\w.\-/]+\.go):(\d+)(?::\d+)?: (.*)$"  # `p/p.go:3:22: undefined: x`
GO_RECOVERED = r"\s*\[recovered[^\]]*\]$"  # `panic: x [recovered]`: the panic's own words only
RUST_PANIC = r"^thread '([^']*)'(?: \(\d+\))? panicked at ([^\s']+?):(\d+):(\d+):?\s*(.*)$"
RUST_PANIC_OLD = r"^thread '([^']*)' panicked at '(.*)', ([^\n]+?):(\d+):(\d+)$"  # Rust < 1.73
CARGO_VERDICT = r"error: (test failed|doctest failed|could not compile|aborting|process didn't exit|\d+ targets? failed)"
RUST_ERROR = r"^\s*--> ([^\n:]+):(\d+):(\d+)$"
JVM_FRAME = r"^\s*at (?:[\w.$/@]+/)?([\w.$<>]+)\.([\w$<>\-]+)\(([^():]+?)(?::(\d+))?\)"
GO_TESTS = ("func Test", "func Example", "func Fuzz")


def pattern(source: str) -> re.Pattern[str]:
    """`source` compiled (re's own cache keeps it), importing `re` only when a pattern is needed."""
    import re

    return re.compile(source)


def with_shape(failure: dict[str, Any]) -> dict[str, Any]:
    """`failure` with its message's shape: where the failure has a line, the normalized message's
    first word (one line fails one way: `Expected: ...` with a hundred values is one cause); without
    a line, the whole normalized message."""
    failure["message"] = str(failure.get("message", ""))[:MESSAGE_CHARS]
    shape = normalize(failure["message"]).strip()
    failure["shape"] = (shape.split(None, 1)[0] if failure.get("at") and shape else shape)[
        :120
    ] or "-"
    return {k: v for k, v in failure.items() if v not in ("", None, [])}


def relative(path: str, root: str) -> str:
    """`path` relative to the workspace when it lies inside it, else ''."""
    if not os.path.isabs(path):
        return path.replace(os.sep, "/")
    root = root.rstrip(os.sep) + os.sep
    return path[len(root) :].replace(os.sep, "/") if path.startswith(root) else ""


# --- Go ---------------------------------------------------------------------------------------


def go_failure(
    lines: list[str], pkgdir: str, root: str, default: str = "test failed", test: str = ""
) -> dict[str, Any]:
    """A Go test's failure from its output: a panic (innermost project frame of the dump), a
    timeout, the first `file_test.go:NN: message` line (with its continuation lines), or for a bare
    `t.Fail()` the test function's own line and what the test printed."""
    prefix = "" if pkgdir in ("", ".") else pkgdir.rstrip("/") + "/"
    for index, line in enumerate(lines):
        if line.startswith("panic: "):
            message = pattern(GO_RECOVERED).sub("", line[len("panic: ") :].strip())
            kind = "timeout" if message.startswith("test timed out") else "panic"
            frames = _go_frames(lines[index + 1 :], root)
            at = frames[0].partition(" ")[0] if frames else ""
            if kind == "panic" and message.startswith("runtime error:"):
                kind, message = "runtime error", message[len("runtime error:") :].strip()
            return with_shape(
                {"type": kind, "message": message, "at": at, "frames": frames[:MAX_FRAMES]}
            )
    for index, line in enumerate(lines):
        found = go_log_line(line.rstrip("\n")) if ".go:" in line else None
        if found:
            path = found[0] if "/" in found[0] else prefix + found[0]
            message = " ".join([found[2].strip(), *_go_continued(lines[index + 1 :], line)]).strip()
            failure = {
                "type": "t.Error",
                "message": message or "(empty message)",
                "at": f"{path}:{found[1]}",
            }
            return with_shape(_checked(failure, pkgdir, root, prefix))
    printed = [
        ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith(("---", "==="))
    ]
    at = go_test_line(_folder(pkgdir, root), test)
    if not at:  # a package's own failure (TestMain, os.Exit): its first words
        return with_shape({"type": "fail", "message": printed[0] if printed else default})
    said = "failed without a message (t.Fail)" + (
        "; printed: " + " ".join(printed) if printed else ""
    )
    return with_shape(
        _checked({"type": "fail", "message": said, "at": prefix + at}, pkgdir, root, prefix)
    )


def go_log_line(line: str) -> tuple[str, str, str] | None:
    r"""(file, line, message) of a t.Error line (`    calc_test.go:12: got 4, want 3`): the groups of
    `^\s+([\w.\-/]+\.go):(\d+): ?(.*)$`."""
    start = len(line) - len(line.lstrip())
    end = start
    while end < len(line) and (line[end].isalnum() or line[end] in "_.-/"):
        end += 1
    path = line[start:end]
    if not start or len(path) < 4 or not path.endswith(".go") or line[end : end + 1] != ":":
        return None
    digits = textscan.decimal_end(line, end + 1)
    if digits == end + 1 or line[digits : digits + 1] != ":":
        return None
    rest = line[digits + 1 :]
    message = textscan.line_rest(rest[1:] if rest.startswith(" ") else rest)
    return None if message is None else (path, line[end + 1 : digits], message)


def go_test_name(line: str) -> str:
    r"""`TestX` of `func TestX(`, else '': the group of `^func ((?:Test|Example|Fuzz)\w*)\(`."""
    if not line.startswith(GO_TESTS):
        return ""
    end = textscan.word_end(line, len("func "))
    return line[len("func ") : end] if line[end : end + 1] == "(" else ""


def _folder(pkgdir: str, root: str) -> str:
    return os.path.join(root, pkgdir) if not os.path.isabs(pkgdir) else pkgdir


def _checked(failure: dict[str, Any], pkgdir: str, root: str, prefix: str) -> dict[str, Any]:
    """A failure in a test file, placed at the project function its assertion checks
    (go_subject)."""
    from sidekit_hooks.runners.go import subject as go_subject

    return go_subject.resolve(failure, _folder(pkgdir, root), prefix)


def _go_continued(lines: list[str], first: str) -> list[str]:
    """A multi-line t.Error message's further lines: indented deeper than its `file.go:NN:` line."""
    depth = len(first) - len(first.lstrip())
    more: list[str] = []
    for line in lines:
        if not line.strip() or len(line) - len(line.lstrip()) <= depth:
            break
        more.append(line.strip())
    return more


_TEST_LINES: dict[str, dict[str, str]] = {}


def forget_go_sources() -> None:
    """A new run: the test files may have changed since the last one this process read."""
    from sidekit_hooks.runners.go import subject as go_subject

    _TEST_LINES.clear()
    go_subject.forget()


def go_test_line(folder: str, test: str) -> str:
    """`file_test.go:NN` of `func TestX(` for test `TestX/sub` in the package's folder, else ''."""
    name = test.split("/", 1)[0]
    if not name:
        return ""
    if folder not in _TEST_LINES:
        _TEST_LINES[folder] = _go_test_functions(folder)
    return _TEST_LINES[folder].get(name, "")


def _go_test_functions(folder: str) -> dict[str, str]:
    from sidekit_hooks.runners.go import (
        subject as go_subject,
    )  # reads the package's files once for both

    found: dict[str, str] = {}
    for name, lines in go_subject.test_files(folder).items():
        for number, line in enumerate(lines, 1):
            func = go_test_name(line) if line.startswith("func ") else ""
            if func:
                found.setdefault(func, f"{name}:{number}")
    return found


def _go_frames(lines: list[str], root: str) -> list[str]:
    """Project frames of the first goroutine in a dump, innermost first."""
    found: list[str] = []
    for line in lines:
        if not line.strip() and found:
            break  # the next goroutine
        frame = pattern(GO_FRAME).match(line.rstrip("\n"))
        if frame:
            path = relative(frame.group(1), root)
            if path and not path.endswith(
                "_testmain.go"
            ):  # go's generated main: in the build's folder
                found.append(f"{path}:{frame.group(2)}")
    return found


def go_build_failure(lines: list[str], root: str) -> dict[str, Any]:
    """A package that did not build (or vet): the first compiler line that names a file."""
    for line in lines:
        found = pattern(GO_BUILD).match(line.strip())
        if found:
            path = relative(found.group(1), root) or found.group(1)
            return with_shape(
                {
                    "type": "build failed",
                    "message": found.group(3),
                    "at": f"{path}:{found.group(2)}",
                }
            )
    text = next(
        (ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")), "build failed"
    )
    return with_shape({"type": "build failed", "message": text})


# --- Rust -------------------------------------------------------------------------------------


def rust_failure(lines: list[str], root: str) -> dict[str, Any]:
    """A libtest failure from its captured output: `thread 'x' panicked at src/lib.rs:L:C:` +
    message."""
    for index, line in enumerate(lines):
        found = pattern(RUST_PANIC).match(line.rstrip("\n"))
        if found:
            path = relative(found.group(2), root)
            message = found.group(5) or next(
                (ln.strip() for ln in lines[index + 1 :] if ln.strip()), ""
            )
            failure: dict[str, Any] = {"type": "panic", "message": message}
            where = f"{path or found.group(2)}:{found.group(3)}"
            failure["at"] = where
            return with_shape(failure)
        old = pattern(RUST_PANIC_OLD).match(line.rstrip("\n"))
        if old:
            at = f"{relative(old.group(3), root) or old.group(3)}:{old.group(4)}"
            return with_shape({"type": "panic", "message": old.group(2), "at": at})
    text = next(
        (ln.strip() for ln in lines if ln.strip() and not ln.startswith("----")), "test failed"
    )
    return with_shape({"type": "fail", "message": text})


def rust_compile_errors(lines: list[str], root: str) -> list[dict[str, Any]]:
    """`error[E0308]: ...` followed by `--> src/lib.rs:3:5`, each as a failure."""
    errors: list[dict[str, Any]] = []
    for index, line in enumerate(lines):
        if not line.startswith("error") or pattern(CARGO_VERDICT).match(line):
            continue
        kind, _, message = line.partition(": ")
        at = ""
        for follow in lines[index + 1 : index + 4]:
            where = pattern(RUST_ERROR).match(follow.rstrip("\n"))
            if where:
                at = f"{relative(where.group(1), root) or where.group(1)}:{where.group(2)}"
                break
        errors.append(with_shape({"type": "compile " + kind, "message": message.strip(), "at": at}))
    return errors


# --- JVM --------------------------------------------------------------------------------------


class SourceIndex:
    """Project source files by `package/path/File.ext`, to turn JVM frames into paths."""

    SUFFIXES = (".java", ".kt", ".scala", ".groovy")
    SKIP = frozenset(
        {"target", "build", "node_modules", ".git", ".gradle", ".idea", ".sidekit", "out"}
    )
    LIMIT = 20_000

    def __init__(self, root: str) -> None:
        self.root = root
        self.by_tail: dict[str, str] = {}
        self._walk()

    def _walk(self) -> None:
        from sidekit_hooks.core import workspace

        for seen, entry in enumerate(workspace.walk(self.root, self._descend)):
            if seen >= self.LIMIT:
                break
            if entry.name.endswith(self.SUFFIXES) and not entry.is_dir(follow_symlinks=False):
                rel = os.path.relpath(entry.path, self.root).replace(os.sep, "/")
                parts = rel.split("/")
                for start in range(len(parts)):
                    self.by_tail.setdefault("/".join(parts[start:]), rel)

    def _descend(self, name: str) -> bool:
        return name not in self.SKIP and not name.startswith(".")

    def file_of(self, class_name: str, file_name: str = "") -> str:
        """The project file of a class (`pkg.Outer$Inner` in `Outer.java`), or ''."""
        package, _, simple = class_name.rpartition(".")
        if not file_name:
            base = simple.split("$", 1)[0]
            return next(
                (
                    self.by_tail[f"{package.replace('.', '/')}/{base}{s}".lstrip("/")]
                    for s in self.SUFFIXES
                    if f"{package.replace('.', '/')}/{base}{s}".lstrip("/") in self.by_tail
                ),
                "",
            )
        return self.by_tail.get(f"{package.replace('.', '/')}/{file_name}".lstrip("/"), "")


def jvm_failure(kind: str, message: str, trace: str, index: SourceIndex) -> dict[str, Any]:
    """A JUnit failure: the exception's class and first message line; `at` the innermost project
    frame in code under test (an exception thrown there), else the innermost project frame (an
    assertion in the test or a test helper: runners/junit/subject.py places it)."""
    frames: list[str] = []
    for line in trace.splitlines():
        found = pattern(JVM_FRAME).match(line)
        if found:
            path = index.file_of(found.group(1), found.group(3))
            if path and found.group(4):
                frames.append(f"{path}:{found.group(4)} in {found.group(2)}")
        elif frames and line.startswith("Caused by:"):
            break
    if not message:
        first = trace.strip().splitlines()[0] if trace.strip() else ""
        message = first.partition(": ")[2] if ": " in first else ""
    module, _, simple = (kind or "Error").rpartition(".")
    failure: dict[str, Any] = {
        "type": simple,
        "module": module,
        "message": message.strip().split("\n", 1)[0],
    }
    if frames:
        under_test = next((f for f in frames if not in_test_code(f.partition(" in ")[0])), "")
        failure["at"] = (under_test or frames[0]).partition(" in ")[0]
        failure["frames"] = frames[:MAX_FRAMES]
    return with_shape(failure)
