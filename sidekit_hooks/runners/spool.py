"""What the test binaries of one raw run printed, and work a wrapper leaves for after its output.

Standard library only and light: each test binary of a `go test` / `cargo test` runs through a
wrapper, whose start-up is paid once per binary (no `subprocess`, `json` or `re` here).

A binary whose output is printed as it was leaves its output in a spool file; the first such binary
of a run starts one detached writer, which waits for go or cargo (our parent) to end and then puts
every spooled binary of the run into the cache: one writer per run, off the run's critical path.
"""

from __future__ import annotations

import os
import sys
import time

from sidekit_hooks.core import safepath

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


# seconds the run's writer waits for go or cargo to end before writing what it has
SPOOL_WAIT = 3600.0
SWEEP_EVERY = 3600.0  # seconds between two sweeps of a runner's folder for old runs' files
SWEPT = "swept"  # the sweep's stamp file in that folder
# bytes of each number in a run's ledger file (bytes printed, then compact answers printed)
WIDTH = 20


def run_binary(argv: list[str]) -> tuple[bytes, int]:
    """(stdout and stderr in one stream, exit status: negative for a signal) of `argv`; SIGINT and
    SIGTERM to this wrapper reach it too (go kills its child on timeout or ^C)."""
    import signal

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the binary, its output into the pipe
        try:
            os.close(read)
            os.dup2(write, 1)
            os.dup2(write, 2)
            os.execv(argv[0], argv)
        except OSError as exc:
            os.write(2, f"{argv[0]}: {exc}\n".encode("utf-8", "replace"))
        os._exit(127)
    os.close(write)

    def forward(number: int, frame: object) -> None:
        try:
            os.kill(pid, number)
        except OSError:
            pass

    previous = {
        number: signal.signal(number, forward) for number in (signal.SIGINT, signal.SIGTERM)
    }
    try:
        chunks = []
        while True:
            chunk = os.read(read, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
        status = os.waitpid(pid, 0)[1]
    finally:
        os.close(read)
        for number, handler in previous.items():
            signal.signal(number, handler)
    return b"".join(chunks), os.waitstatus_to_exitcode(status)


def relay(out: str, code: int, then: Callable[[], None] | None = None) -> int:
    """Print what the wrapper answers for a binary, run `then` (it detaches what is left to do), and
    end as the binary ended: its exit status, or (killed by a signal) die the same way, so go or
    cargo reports it as it would."""
    sys.stdout.buffer.write(
        out.encode("utf-8", "surrogateescape")
    )  # whatever the locale: no encoding error
    sys.stdout.flush()
    if then is not None:
        then()
    if code < 0:
        import signal

        if -code != signal.SIGKILL:  # SIGKILL has no handler to reset (and needs none)
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


def run_key() -> str:
    """This raw run: go's or cargo's (our parent's) pid and start time (pids are reused)."""
    parent = os.getppid()
    try:
        with open(f"/proc/{parent}/stat", "rb") as handle:  # bytes: no codec to import
            born = handle.read().rpartition(b")")[2].split()[19].decode()
    except (OSError, IndexError, ValueError):
        born = "0"
    return f"{parent}-{born}"


def printed_before(root: str, runner: str, size: int) -> int:
    """Bytes the other test binaries of the same `go test` / `cargo test` (our parent process)
    printed raw before this one, and count `size` more: one raw run's short output stays short in
    all."""
    before = _count(root, runner, 0, size)
    _forget_old_ledgers(os.path.join(root, ".sidekit", runner))
    return before


def answers_before(root: str, runner: str) -> int:
    """Compact answers the other test binaries of the same run printed before this one's, and count
    this one."""
    return _count(root, runner, 1, 1)


def _count(root: str, runner: str, field: int, add: int) -> int:
    """One of the run's ledger numbers (0: bytes printed, 1: compact answers) before adding `add` to
    it, under the file's lock. Both are written back at one width each, so neither moves the
    other."""
    import fcntl
    import stat

    folder = safepath.makedirs(
        os.path.join(root, ".sidekit", runner)
    )  # never through a link out of the project
    # the file itself: O_NOFOLLOW refuses a link planted at its name
    fd = os.open(
        os.path.join(folder, f"printed-{run_key()}"),
        os.O_RDWR | os.O_CREAT | safepath.NOFOLLOW | safepath.NONBLOCK,
        0o644,
    )
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO planted at its name: no count to keep
            raise safepath.refused(
                folder, safepath.NOT_REGULAR, "holds a ledger that is not a regular file"
            )
        fcntl.flock(fd, fcntl.LOCK_EX)
        data = os.pread(fd, 2 * WIDTH, 0)
        numbers = [int(data[n * WIDTH : (n + 1) * WIDTH].strip(b" \x00") or 0) for n in (0, 1)]
        before = numbers[field]
        numbers[field] += add
        os.pwrite(
            fd, b"%20d%20d" % (numbers[0], numbers[1]), 0
        )  # one width: a shorter number leaves no digits
    finally:
        os.close(fd)
    return before


def _forget_old_ledgers(folder: str, age: float = 86_400.0) -> None:
    """Remove the files of runs older than `age` (each run leaves its printed-* file), at most once
    per SWEEP_EVERY: one stat of the stamp file, not one per file of the day's runs, for each
    binary."""
    now = time.time()
    stamp = os.path.join(folder, SWEPT)
    try:
        if now - os.stat(stamp, follow_symlinks=False).st_mtime < SWEEP_EVERY:
            return
    except OSError:
        pass
    try:  # never through a link planted there
        fd = os.open(stamp, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            os.utime(fd)
        finally:
            os.close(fd)
    except OSError:
        pass
    cutoff = now - age
    for entry in os.scandir(folder):
        if entry.name.startswith(
            ("printed-", "spool-", "writer-", ".out-")
        ):  # .out-: earlier versions' goexec.sh
            try:
                if entry.stat().st_mtime < cutoff:
                    os.unlink(entry.path)
            except OSError:
                pass


def after_output(work: Callable[[], None]) -> None:
    """Run `work` once this process has said everything: in a detached child whose stdout and stderr
    are closed, so go or cargo see the binary's output end and go on while the cache is written."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        pid = os.fork()
    except OSError:
        work()
        return
    if pid:
        return
    try:
        os.setsid()
        quiet = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(quiet, fd)
        work()
    # a detached child has no one to tell; the next run rewrites the cache
    except BaseException:  # noqa: BLE001
        pass
    finally:
        os._exit(0)


def detach(root: str, runner: str, work: Callable[[], None]) -> None:
    """`work` (writing the cache) in a detached child once this binary's answer is out, so go or
    cargo go on at once. Until it is done a `writer-<run>-<pid>` file says so: the answers that read
    the cache wait for it once the run has ended (runners/pending), never reading the run before."""
    from sidekit_hooks.core import safepath

    claim = os.path.join(root, ".sidekit", runner, f"writer-{run_key()}-{os.getpid()}")
    try:
        os.close(
            os.open(
                safepath.check(claim),
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
            )
        )
    except OSError:
        claim = ""

    def written() -> None:
        try:
            work()
        finally:
            if claim:
                os.unlink(claim)
            report_cpu(runner)

    sys.stdout.flush()
    sys.stderr.flush()
    quiet = os.open(
        os.devnull, os.O_RDWR
    )  # all is said: go's pipe ends here, not when the child gets to run
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    os.close(quiet)
    after_output(written)


def spool(root: str, runner: str, fields: list[str], text: str) -> None:
    """Leave one binary's output for the run's writer (started here by the run's first binary)."""
    from sidekit_hooks.core import safepath

    folder = safepath.makedirs(os.path.join(root, ".sidekit", runner))
    run = run_key()
    body = "\t".join(f.replace("\t", " ").replace("\n", " ") for f in fields) + "\n" + text
    temp = os.path.join(folder, f".spool-{run}-{os.getpid()}.tmp")
    fd = os.open(
        safepath.check(temp),
        os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0),
        0o644,
    )
    with open(fd, "wb") as handle:
        handle.write(body.encode("utf-8", "surrogateescape"))
    os.rename(temp, os.path.join(folder, f"spool-{run}-{os.getpid()}"))
    try:  # the run's one writer: whoever creates its claim file first
        os.close(
            os.open(
                safepath.check(os.path.join(folder, f"writer-{run}")),
                os.O_WRONLY | os.O_CREAT | os.O_EXCL,
            )
        )
    except FileExistsError:
        return
    after_output(lambda: write_run(folder, run, runner))


def write_run(folder: str, run: str, runner: str) -> None:
    """The run's writer: once go or cargo has ended, every spooled binary of the run into the
    cache."""
    import importlib

    deadline = time.time() + SPOOL_WAIT
    while time.time() < deadline and run_alive(run):
        time.sleep(0.1)
    from sidekit_hooks import runners

    # the module whose save_spooled caches a spool: the runner's adapter names it (SPOOL_SAVER)
    save = importlib.import_module(runners.load(runner).SPOOL_SAVER).save_spooled  # type: ignore[union-attr]
    prefix = f"spool-{run}-"
    for name in sorted(n for n in os.listdir(folder) if n.startswith(prefix)):
        path = os.path.join(folder, name)
        try:
            # a spool without its end line goes once the run has ended, never when that is a guess
            fields, text = read_spool(path, ended=not run.endswith("-0") and not run_alive(run))
            if fields:
                save(fields, text)
        except Exception:  # noqa: BLE001 - one bad spool must not lose the others
            continue
    try:
        os.unlink(os.path.join(folder, f"writer-{run}"))
    except OSError:
        pass
    report_cpu(runner)


def read_spool(path: str, ended: bool) -> tuple[list[str], str]:
    """(header fields, output) of one spooled binary, taken away; ([], "") for one not to cache.

    spool() writes whole files (a temporary file, renamed). goexec.sh writes its spool in place: the
    header (its time `-`: the file's own is taken), the output as the binary wrote it, then SPOOLED
    once the output is printed. One without SPOOLED was not printed as it was: left alone while its
    run goes on (its binary may still be running), removed once the run has ended (a killed
    wrapper).
    """
    changed = os.lstat(path).st_mtime
    data = safepath.read_bytes(path, 1 << 30).decode(
        "utf-8", "surrogateescape"
    )  # its header comes first
    head, _, text = data.partition("\n")
    fields = head.split("\t")
    if fields[2:3] == ["-"]:
        if not text.endswith(SPOOLED):
            if ended:
                os.unlink(path)
            return [], ""
        fields[2], text = repr(changed), text[: -len(SPOOLED)]
    os.unlink(path)
    return fields, text


SPOOLED = "\n\x16sidekit spooled\n"  # goexec.sh's last line in a spool it printed as it was


# bench/: where a detached writer adds the CPU seconds it used
WRITER_CPU_LOG = "SIDEKIT_WRITER_CPU_LOG"


def report_cpu(runner: str) -> None:
    """For the bench (only when WRITER_CPU_LOG names a file): this writer's CPU seconds, one line,
    so that a compacted run's cost includes the work it left to a detached process."""
    path = os.environ.get(WRITER_CPU_LOG)
    if not path:
        return
    import resource

    used = resource.getrusage(resource.RUSAGE_SELF)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, f"{runner}\t{used.ru_utime + used.ru_stime:.6f}\n".encode())
    finally:
        os.close(fd)


def run_alive(run: str) -> bool:
    """Whether the go or cargo process of `run` (`<pid>-<start>`, as run_key gives it) is still
    running."""
    pid, _, start = run.partition("-")
    if not pid.isdigit():
        return False
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            fields = handle.read().rpartition(")")[2].split()
    except OSError:
        return start == "0" and _pid_exists(
            int(pid)
        )  # no /proc (macOS): run_key had no start time either
    return f"{pid}-{fields[19]}" == run and fields[0] != "Z"


def _pid_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's: it exists
        return True
    return True
