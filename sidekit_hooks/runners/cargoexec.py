"""cargo's `target.<cfg>.runner`: one test binary's run, compacted (see runners/cargo.py).

cargo runs `cargoexec BINARY ARGS...` in the package's folder. The binary's output is kept under
`.sidekit/cargo/` and its tests go into the shared cache; short output (<= SHORT bytes) is printed
as it was, long output as two lines (what happened and where it is; the compact answer). The exit
status is the binary's own (a signal is re-raised). Not a test binary (`cargo run`, a benchmark
harness asked to list): run as it is.
"""

from __future__ import annotations

import os
import sys
import time

SHORT = 2048  # bytes printed as they are (answer.SHORT, without importing it on the short path)
CARGO_LINES = 12  # bytes cargo prints after a failing binary's output, past its own `Running` line
PASS_THROUGH = ("--list", "--format", "--help", "-h", "--nocapture", "--show-output", "--bench")


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: cargoexec BINARY [ARGS...]", file=sys.stderr)
        return 2
    binary, args = argv[0], argv[1:]
    is_test = os.sep + "deps" + os.sep in binary
    if (
        not is_test
        or os.environ.get("SIDEKIT_RAW", "") not in ("", "0")
        or any(a.startswith(PASS_THROUGH) for a in args)
    ):
        os.execv(binary, [binary, *args])
    from sidekit_hooks.runners import ledger

    started = time.time()
    data, code = ledger.run_binary([binary, *args])
    text = data.decode("utf-8", "surrogateescape")  # printed back byte for byte
    try:
        out = render(binary, text, started, code)
    except Exception:  # noqa: BLE001 - never less than the run said
        out = text
    return ledger.relay(out, code)


def render(binary: str, text: str, started: float, code: int) -> str:
    """What to print: the output as it was when the run's output stays short (the cache write left to
    the run's writer, see ledger.spool), else the compact answer."""
    from sidekit_hooks.runners import ledger
    from sidekit_hooks.status import cache

    here = os.getcwd()
    root = cache.workspace_root(here)
    source = _source(binary, here, root)
    size = len(text.encode("utf-8", "replace"))
    if size + ledger.printed_before(root, "cargo", size) <= SHORT:
        ledger.spool(root, "cargo", [root, source, repr(started), str(code)], text)
        return text
    from sidekit_hooks.runners import answer, cargo, store
    from sidekit_hooks.runners.goexec import as_seen

    result = cargo.parse(text, root, started, code, source)
    summary, table = store.save(root, result, compact=True)
    saved = as_seen(store.save_raw(root, "cargo", text, os.path.basename(binary).rsplit("-", 1)[0]))
    budget = answer.head_budget("cargo test", text, saved, code) - len(source) - CARGO_LINES
    found = answer.run_answer(dict(summary), dict(table), result, budget, {"binary": source})
    return answer.compacted("cargo test", text, saved, code, found)


def save_spooled(fields: list[str], text: str) -> None:
    """The run's writer (ledger.spool): one binary's output into the cache."""
    from sidekit_hooks.runners import cargo, store

    root, source, started, code = fields[0], fields[1], float(fields[2]), int(fields[3])
    store.save(root, cargo.parse(text, root, started, code, source))


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
