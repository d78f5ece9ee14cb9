"""Exactly one handler acts on an event wired twice: the command hook and the warm server's `hook`
tool (docs/warm-path.md). Standard library only: the command hook calls this before the runtime.

Claude Code starts both handlers of an event at once and hands both outputs to the model, so the
two race for the event here, on disk, under the project's `.sidekit/claims/`:

- `claim`: `mkdir claims/<key>` (atomic; the event's key is the same for both handlers), then the
  winner writes `taken` inside (its owner and pid). The loser of a warm claim says nothing.
- The warm server, once its answer is ready, `commit`s: renames `taken` to `said`. Only then does
  it answer; a failed rename means the command hook took the event over, and the server says
  nothing (putting back what it claimed from the queue).
- The command hook that lost waits (`settle`) for `said`; when the owner's process is gone, or
  the wait runs out, it takes the event over by renaming `taken` to `stolen`, and answers itself.
  Exactly one of the two renames of `taken` succeeds. A warm server that fails gives the event
  back (`release`: `taken` -> `released`), and the command hook takes it at once.
"""

from __future__ import annotations

import hashlib
import os
import time

from sidekit_hooks.core import hook_table

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

CLAIMS = os.path.join(".sidekit", "claims")
TAKEN, SAID, STOLEN, RELEASED = "taken", "said", "stolen", "released"
COMMAND, WARM = "command", "warm"
KEYED = hook_table.WARM_KEYS  # the events the warm path may answer, and the field naming each one
SETTLE_SECONDS = 1.0  # how long a command hook that lost waits for the warm answer
POLL_SECONDS = 0.005
KEEP_SECONDS = 3600.0  # claims older than this are swept (`sweep`)


def event_key(event_name: str, payload: Mapping[str, object]) -> str:
    """The key both handlers compute for one event; '' when the event cannot be told apart from
    another of its kind (then the warm path leaves it to the command hook)."""
    field = KEYED.get(event_name)
    if field is None:
        return ""
    occurrence, session = payload.get(field), payload.get("session_id")
    if not (isinstance(occurrence, str) and occurrence and isinstance(session, str) and session):
        return ""
    agent = payload.get("agent_id")
    parts = (event_name, session, occurrence, agent if isinstance(agent, str) else "")
    return hashlib.sha256("\x00".join(parts).encode("utf-8", "replace")).hexdigest()[:32]


def folder(project: str, key: str) -> str:
    return os.path.join(project, CLAIMS, key)


def claim(project: str, key: str, owner: str) -> bool:
    """Whether `owner` won the event (it then holds `taken`)."""
    claims = os.path.join(project, CLAIMS)
    os.makedirs(claims, exist_ok=True)
    try:
        os.mkdir(os.path.join(claims, key))
    except FileExistsError:
        return False
    _write(os.path.join(claims, key, TAKEN), f"{owner} {os.getpid()}\n")
    return True


def commit(project: str, key: str) -> bool:
    """The warm server's answer may go out: `taken` -> `said`; False when it was taken over."""
    here = folder(project, key)
    try:
        os.rename(os.path.join(here, TAKEN), os.path.join(here, SAID))
    except FileNotFoundError:
        return False
    return True


def settle(project: str, key: str, seconds: float = SETTLE_SECONDS) -> bool:
    """For the command hook that lost the claim: True when it must answer itself (it took the
    event over from a warm owner that gave it up, died or did not answer in time), False when the
    event was said (or another command hook has it)."""
    here = folder(project, key)
    until = time.monotonic() + seconds
    while True:
        if os.path.exists(os.path.join(here, SAID)) or os.path.exists(os.path.join(here, STOLEN)):
            return False
        if _take(here, RELEASED):
            return True  # the warm server failed and gave the event back
        owner = _read(os.path.join(here, TAKEN))
        if owner.startswith(COMMAND + " "):
            return False  # another command hook of the same event (a retry) has it
        late = time.monotonic() >= until
        if (owner and not _alive(owner)) or late:
            if _take(here, TAKEN):
                return True
            if late and not os.path.exists(os.path.join(here, TAKEN)):
                return not os.path.exists(os.path.join(here, SAID))  # `taken` never written
        time.sleep(POLL_SECONDS)


def release(project: str, key: str) -> None:
    """The warm server could not answer: the event goes back to the command hook (`settle`)."""
    here = folder(project, key)
    try:
        os.rename(os.path.join(here, TAKEN), os.path.join(here, RELEASED))
    except FileNotFoundError:
        pass


def _take(here: str, state: str) -> bool:
    try:
        os.rename(os.path.join(here, state), os.path.join(here, STOLEN))
    except FileNotFoundError:
        return False
    return True


def sweep(project: str, keep: float = KEEP_SECONDS) -> int:
    """Remove the claims older than `keep` seconds (the warm server, at start); how many."""
    claims = os.path.join(project, CLAIMS)
    try:
        names = os.listdir(claims)
    except OSError:
        return 0
    old, removed = time.time() - keep, 0
    for name in names:
        here = os.path.join(claims, name)
        try:
            if os.lstat(here).st_mtime >= old or os.path.islink(here):
                continue
            for state in (TAKEN, SAID, STOLEN, RELEASED):
                if os.path.lexists(os.path.join(here, state)):
                    os.unlink(os.path.join(here, state))
            os.rmdir(here)
            removed += 1
        except OSError:
            continue
    return removed


# What each end state of a claim says about who answered (`tally`, `sidekit doctor`).
ANSWERED_BY = {
    SAID: "the warm server",
    TAKEN: "the command hook",
    STOLEN: "the command hook, taken over from the warm server",
    RELEASED: "nobody yet (given back by the warm server)",
}


def tally(project: str) -> tuple[dict[str, int], str]:
    """(how many of the kept claims each path answered, who answered the newest), from the claim
    folders (kept for an hour: `sweep`)."""
    counts = {who: 0 for who in ANSWERED_BY.values()}
    claims = os.path.join(project, CLAIMS)
    try:
        names = os.listdir(claims)
    except OSError:
        return counts, ""
    newest, last = -1.0, ""
    for name in names:
        for state, who in ANSWERED_BY.items():
            path = os.path.join(claims, name, state)
            try:
                when = os.lstat(path).st_mtime
            except OSError:
                continue
            if state == TAKEN and not _read(path).startswith(COMMAND + " "):
                who = "the warm server, still answering"
                counts.setdefault(who, 0)
            counts[who] += 1
            if when > newest:
                newest, last = when, who
            break
    return counts, last


def _alive(owner: str) -> bool:
    """Whether the process named in a `taken` file still runs (a pid that cannot be read: yes)."""
    try:
        pid = int(owner.split()[1])
    except (IndexError, ValueError):
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _read(path: str) -> str:
    """A claim file's few bytes; "" for none, or for a link, FIFO or device a repository planted."""
    from sidekit_hooks.core import safepath

    try:
        return safepath.read_bytes(path, 200).decode("utf-8", "replace")
    except OSError:
        return ""
