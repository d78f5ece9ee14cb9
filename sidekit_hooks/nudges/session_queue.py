"""The queue of one session, whichever one holds it: what the runtime claims from and writes to.

Outside a Gas City it is the Gas Town file queue (`queue.py`: the session's folder, and the Gas Town
tmux session's too). Inside a city (a Gas City identity and its folder named by gc, `find_city`) the
city's `state.json` is the one queue for gc and for sidekit: sidekit's findings go there, and a
drain claims the city's items besides the file queue's, unless gc's own drain hook delivers them
(`city.gc_drains`). `for_session` makes the right one; the runtime never asks which it got. Standard
library only (hook hot path); failures are logged under `.sidekit/log/`, never raised.
"""

from __future__ import annotations

import time

from sidekit_hooks.core import hooklog, workspace
from sidekit_hooks.nudges import queue
from sidekit_hooks.nudges.city_env import find_city, identity

# seconds a claim or write waits for Gas City's lock (gc holds it for milliseconds)
CITY_CLAIM_WAIT = 0.25
# Seconds the hand-over before the print waits for the lock, the hook's alarm paused meanwhile (the
# hook's time is its deadline plus this, as when the ack came after the print and waited as long).
# Giving up costs the items their lease (two minutes in flight), never a double.
HAND_OVER_WAIT = 2.0


class SessionQueue:
    """The session's file queue (and the Gas Town tmux session's, drained with it).

    `deadline` (monotonic): when this call's queue work must be done; `hook` names the call in
    logs."""

    def __init__(self, project: str, session: str, event_name: str, deadline: float) -> None:
        self.project = project
        self.session = session
        self.event_name = event_name
        self.deadline = deadline
        self.root = workspace.queue_root(project)

    def claim(self, seen: list[str] | None = None) -> list[queue.Claim]:
        """Claim what is queued for this session, FIFO. `seen`: the session's folder as this call's
        own writes just listed it (not listed again)."""
        claims: list[queue.Claim] = []
        for session in sessions_to_drain(self.session):
            names = seen if seen and session == self.session else None
            try:
                claims += queue.claim(self.root, session, on_discard=self._log_discard, names=names)
            except (OSError, workspace.UnsafeSessionName) as exc:
                self._log_refusal("drain", exc)
        return claims

    def hand_over(
        self, delivered: list[queue.Claim], rest: list[queue.Claim], held: list[queue.Claim]
    ) -> list[queue.Claim]:
        """Before the print: put `rest` back, and return the claims of `delivered` whose commit after
        the print needs no lock (all of them here: a file claim's commit is one unlink). `held`: the
        call's claims not yet settled (see CityQueue)."""
        queue.release(rest)
        return delivered

    def enqueue(self, nudge: queue.Nudge, seen: list[str] | None = None) -> bool:
        """Queue one nudge; False when it was not queued (logged). `seen`: see `queue.enqueue`."""
        try:
            queue.enqueue(self.root, self.session, nudge, on_drop=self._log_drop, seen=seen)
        except (OSError, workspace.UnsafeSessionName) as exc:
            self._log_refusal("enqueue", exc)
            return False
        return True

    def _log_refusal(self, where: str, exc: Exception) -> None:
        if not isinstance(exc, OSError) or _first(exc):
            hooklog.error(self.project, self.event_name, where, exc)

    def _log_drop(self, name: str, nudge: queue.Nudge) -> None:
        hooklog.error(
            self.project,
            self.event_name,
            "queue-cap",
            f"dropped {name} from {nudge.sender}: queue over {queue.MAX_DEPTH}",
        )

    def _log_discard(self, name: str, why: str) -> None:
        if why != "expired":
            hooklog.error(self.project, self.event_name, "drain", f"discarded {name}: {why}")


class CityQueue(SessionQueue):
    """Inside a Gas City: findings go to the city's state file; a drain claims the file queue and
    the city's items for this session. A city whose lock or file failed once in this call is not
    waited for again: its items wait for the next call, and a finding not written is said again
    later by the policy."""

    def __init__(
        self,
        project: str,
        session: str,
        event_name: str,
        deadline: float,
        city_root: str,
        *,
        main: bool,
    ) -> None:
        super().__init__(project, session, event_name, deadline)
        self.city_root = city_root
        self.main = main  # the main agent's call (a subagent's starts no hand-off worker)
        self.busy = False
        self._gc_drains: bool | None = None
        self._staged_settled = False  # a killed hand-over's staged files: settled by one claim

    def claim(self, seen: list[str] | None = None) -> list[queue.Claim]:
        claims = super().claim(seen)
        if self.busy or not self.session or self.gc_drains():
            return claims  # without a session id there is no file queue to hand items over to
        from sidekit_hooks.nudges import city

        try:
            # A claim waits for the lock a short while only: detectors and delivery come after it.
            return claims + list(
                city.claim(
                    self.city_root,
                    self._wait(),
                    max_bytes=city.HOOK_STATE,
                    staged_in=self._staged_in(),
                )
            )
        except (
            city.StateTooLarge
        ) as exc:  # over what a hook reads in time: a worker drains it for next turn
            self.busy = True
            self._hand_off(exc)
        except (OSError, workspace.UnsafeSessionName) as exc:  # locked past the deadline, corrupt
            self.busy = True  # and does not wait for it a second time
            hooklog.error(self.project, self.event_name, "city-drain", exc)
        return claims

    def hand_over(
        self, delivered: list[queue.Claim], rest: list[queue.Claim], held: list[queue.Claim]
    ) -> list[queue.Claim]:
        """The city's claims among `delivered` leave the city for this session's file queue, and
        those among `rest` go back to pending, under one hold of the lock (`city.hand_over`), before
        anything is printed: what is printed is already acked, and its commit is a file's unlink.
        When the lock cannot be had they are not printed this turn (logged): they stay in flight
        until their lease ends and come back then, never said twice."""
        from sidekit_hooks.nudges import city

        own = [held_ for held_ in delivered if not isinstance(held_, city.CityClaim)]
        theirs = [held_ for held_ in delivered if isinstance(held_, city.CityClaim)]
        queue.release([held_ for held_ in rest if not isinstance(held_, city.CityClaim)])
        back = [held_ for held_ in rest if isinstance(held_, city.CityClaim)]
        if not (theirs or back):
            return own
        left = _pause_alarm()  # a deadline inside the locked step would only cost a turn
        try:
            handed = city.hand_over(
                theirs,
                self.root,
                self.session,
                time.monotonic() + HAND_OVER_WAIT,
                put_back=back,
                held=held,
            )
        except (OSError, workspace.UnsafeSessionName) as exc:
            self.busy = True
            hooklog.error(self.project, self.event_name, "city-hand-over", exc)
            return own
        finally:
            _resume_alarm(left)
        return own + handed

    def enqueue(self, nudge: queue.Nudge, seen: list[str] | None = None) -> bool:
        if self.busy:
            return False  # not said: the policy says it again at a later call
        from datetime import timedelta

        from sidekit_hooks.nudges import city

        session, keys = identity()
        ttl = (
            queue.URGENT_TTL if nudge.urgent else queue.NORMAL_TTL
        )  # a finding goes stale as a Gas Town nudge does
        item = city.new_item(
            nudge.message,
            keys[0],
            session,
            finding=str(nudge.extra.get("finding") or ""),
            sidecar=str(nudge.extra.get("sidecar") or ""),
            rule=str(nudge.extra.get("rule") or ""),
            expires_at=nudge.timestamp + timedelta(seconds=ttl),
            recheck=str(nudge.extra.get("recheck") or ""),
        )
        try:
            dropped = city.enqueue(self.city_root, [item], self._wait())
        except OSError as exc:
            self.busy = True
            self._log_refusal("enqueue", exc)
            return False
        for gone in dropped:
            hooklog.error(
                self.project,
                self.event_name,
                "queue-cap",
                f"dropped {gone.get('id')} from sidekit: over {city.MAX_OWN_PENDING} pending in "
                "the city queue",
            )
        return True

    def _staged_in(self) -> str:
        """The session's folder for the first claim of this call (see `city.claim`), else ''."""
        if self._staged_settled:
            return ""
        self._staged_settled = True
        return queue.session_folder(self.root, self.session)

    def gc_drains(self) -> bool:
        """Whether gc's own drain hook delivers the city's queue here (read once per call)."""
        if self._gc_drains is None:
            from sidekit_hooks.nudges import city

            self._gc_drains = city.gc_drains(self.project, self.city_root)
        return self._gc_drains

    def _wait(self) -> float:
        return min(self.deadline, time.monotonic() + CITY_CLAIM_WAIT)

    def _hand_off(self, why: OSError) -> None:
        """Start the worker that moves this session's city items to its file queue
        (nudges/city_handoff.py)."""
        hooklog.error(self.project, self.event_name, "city-drain", why)
        if not self.session or not self.main:
            return
        from sidekit_hooks.nudges import city_handoff

        try:
            city_handoff.start(self.city_root, self.root, self.session, self.project)
        except OSError as exc:
            hooklog.error(self.project, self.event_name, "city-handoff", exc)


def for_session(
    project: str, session: str, event_name: str, deadline: float, *, main: bool = True
) -> SessionQueue:
    """The queue this session's nudges go through: the city's when this session has a Gas City
    identity and gc named its city, else the file queue (and the city's module is never
    imported)."""
    city_root = find_city(project) if identity()[1] else ""
    if city_root:
        return CityQueue(project, session, event_name, deadline, city_root, main=main)
    return SessionQueue(project, session, event_name, deadline)


def _pause_alarm() -> float:
    """Stop the hook's deadline alarm (pipeline/hook.py); the seconds it had left (0.0: none, or
    not the main thread, whose alarm is not this call's: the warm server's, as core/budget.py)."""
    import _signal

    try:
        _signal.signal(_signal.SIGALRM, _signal.getsignal(_signal.SIGALRM))
    except (ValueError, TypeError):  # not the main thread (or a handler set outside Python)
        return 0.0
    return float(_signal.setitimer(_signal.ITIMER_REAL, 0)[0])


def _resume_alarm(left: float) -> None:
    """Arm the alarm again with what it had left (a worker, which has none, stays without)."""
    if left > 0:
        import _signal

        _signal.setitimer(_signal.ITIMER_REAL, left)


def sessions_to_drain(session_id: str) -> list[str]:
    """This session, and inside Gas Town its tmux session (whose queue gt drains too)."""
    sessions = [session_id] if session_id else []
    tmux_session = workspace.gastown_session()
    if tmux_session and tmux_session not in sessions:
        sessions.append(tmux_session)
    return sessions


def _first(exc: OSError) -> bool:
    """A refused path is logged once per process (doctor reports it for good)."""
    from sidekit_hooks.core import safepath

    return not isinstance(exc, safepath.UnsafePath) or safepath.first_report(str(exc))
