"""cargo's `target.<cfg>.runner`: one test binary's run, compacted (see runners/cargo.py).

cargo runs `cargoexec BINARY ARGS...` in the package's folder. The binary's output is kept under
`.sidekit/cargo/` and its tests go into the shared cache; short output (<= SHORT bytes) is printed
as it was, long output as two lines (what happened and where it is; the compact answer). The exit
status is the binary's own (a signal is re-raised). Not a test binary (`cargo run`, a benchmark
harness asked to list): run as it is.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from sidekit_hooks.runners import Result

SHORT = 2048  # bytes printed as they are (answer.SHORT, without importing it on the short path)
CARGO_LINES = 12  # bytes cargo prints after a failing binary's output, past its own `Running` line
PASS_THROUGH = ("--list", "--format", "--help", "-h", "--nocapture", "--show-output", "--bench")


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: cargoexec BINARY [ARGS...]", file=sys.stderr)
        return 2
    binary, args = argv[0], argv[1:]
    is_test = os.sep + "deps" + os.sep in binary
    if not is_test or os.environ.get("SIDEKIT_RAW", "") not in ("", "0") or any(a.startswith(PASS_THROUGH) for a in args):
        os.execv(binary, [binary, *args])
    from sidekit_hooks.runners.goexec import forward_signals

    started = time.time()
    process = subprocess.Popen([binary, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    previous = forward_signals(process)
    try:
        data = process.stdout.read() if process.stdout else b""
        code = process.wait()
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)  # type: ignore[arg-type]
    text = data.decode("utf-8", "surrogateescape")  # printed back byte for byte
    later = None
    try:
        out, later = render(binary, text, started, code)
    except Exception:  # noqa: BLE001 - never less than the run said
        out = text
    sys.stdout.buffer.write(out.encode("utf-8", "surrogateescape"))  # whatever the locale: no encoding error
    sys.stdout.flush()
    if later is not None:
        from sidekit_hooks.runners import ledger

        ledger.after_output(later)
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


def render(binary: str, text: str, started: float, code: int) -> tuple[str, Callable[[], None] | None]:
    """(what to print, the cache write left for after it, if any)."""
    from sidekit_hooks.runners import ledger
    from sidekit_hooks.status import cache

    here = os.getcwd()
    root = cache.workspace_root(here)
    source = _source(binary, here, root)
    size = len(text.encode("utf-8", "replace"))
    if size + ledger.printed_before(root, "cargo", size) <= SHORT:  # parsed after the output, by the child
        return text, lambda: _save(root, _parse(text, root, started, code, source))
    from sidekit_hooks.runners import answer, store
    from sidekit_hooks.runners.goexec import as_seen

    result = _parse(text, root, started, code, source)

    summary, table = store.save(root, result, compact=True)
    saved = as_seen(store.save_raw(root, "cargo", text, os.path.basename(binary).rsplit("-", 1)[0]))
    budget = answer.head_budget("cargo test", text, saved, code) - len(source) - CARGO_LINES
    found = answer.run_answer(dict(summary), dict(table), result, budget, {"binary": source})
    return answer.compacted("cargo test", text, saved, code, found), None


def _parse(text: str, root: str, started: float, code: int, source: str) -> Result:
    from sidekit_hooks.runners import cargo

    return cargo.parse(text, root, started, code, source)


def _save(root: str, result: Result) -> None:
    from sidekit_hooks.runners import store

    store.save(root, result)


def _source(binary: str, package: str, root: str) -> str:
    """The file a test binary was built from, as a workspace path: tests/<name>.rs, else src/lib.rs or main.rs."""
    stem = os.path.basename(binary).rsplit("-", 1)[0]
    prefix = os.path.relpath(package, root).replace(os.sep, "/")
    prefix = "" if prefix == "." else prefix + "/"
    for candidate in (f"tests/{stem}.rs", f"tests/{stem}/main.rs", "src/lib.rs", "src/main.rs"):
        if os.path.isfile(os.path.join(package, candidate)):
            return prefix + candidate
    return prefix + stem


if __name__ == "__main__":  # run as a file (`python -I -S .../runners/cargoexec.py`): find our package by path
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    sys.exit(main(sys.argv[1:]))
