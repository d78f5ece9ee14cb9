"""The per-language held-out near-copy sets (nearcopy_heldout_<language>.py, #34) measured from
outside: through the real hook entry points, as a user's session meets each case. Nothing here reads
the matcher or calls into the package below its hooks, so it measures whatever the product does.

Per set: each of its projects (realprojects.sources(), laid out as a git repository) is cloned
afresh into a scratch folder; a SessionStart event warms what the product warms there, and the
background work it starts is waited for. Then per case, in a session of its own: the case's file
(nearcopy_languages.as_file) is written next to the project's sources and the PostToolUse event of
that Write is sent; once the background work it started (a check finished off the hot path) has
ended, a UserPromptSubmit event of the same session takes what was queued for the next boundary. The
file is removed before the next case.

A `[sidecar:tools]` line that names the case's helper is a true positive for a copy; any other tools
line on a copy (another helper) is a wrong nudge, and any tools line on a near miss is a false
positive (nearcopies.Score counts them as the Python sets are counted). The session's nudge budget
is off, as in the hook tests (tests/conftest.py): the budget is measured by the session corpus, not
here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import realprojects
from nearcopies import Case, Score
from nearcopy_languages import as_file, name_of

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))  # bench/ imports this module too
from testing.hooks import HOOK_SCRIPTS, context_of, payload, write  # noqa: E402

TOOLS = "[sidecar:tools] "
HOOK_TIMEOUT = 60.0  # seconds for one hook process (its own deadline is far shorter)
# seconds for the background work one event started (an index build, a finished check)
SETTLE_TIMEOUT = 180.0
# Environment a Claude Code session or Gas Town would set: none of it leaks in from the measuring
# shell.
FOREIGN = ("CLAUDE_", "GT_", "GC_", "SIDEKIT_", "TMUX_PANE", "PYTEST_")


def added_path(module: ModuleType, label: str) -> str:
    """Where the case's file goes, next to the project's sources: the kept folder (a Go package's
    own folder, the Java package's), a Rust crate's src/."""
    language, project = module.LANGUAGE, module.PROJECTS[label]
    folder = project.keep or ("src" if language == "rust" else "")
    name = "NearCopyAdded.java" if language == "java" else f"nearcopy{module.SUFFIX}"
    return f"{folder}/{name}" if folder else name


def package_clause(module: ModuleType, label: str) -> str:
    """The package a Go or Java case's file declares (the set's GO_PACKAGES / JAVA_PACKAGES)."""
    return str(getattr(module, f"{module.LANGUAGE.upper()}_PACKAGES", {}).get(label, ""))


def tools_lines(stdout: str) -> list[str]:
    """The tools sidecar's lines in what one hook printed."""
    return [line for line in context_of(stdout).splitlines() if line.startswith(TOOLS)]


def names(line: str, helper: str, added: str) -> bool:
    """Whether a tools line names `helper` (the added function's own name, said after "instead of",
    does not count, unless it is the helper's name too and said twice)."""
    said = len(re.findall(rf"(?<![\w$]){re.escape(helper)}(?![\w$])", line))
    return said >= (2 if helper == added else 1)


class Session:
    """One project as a user has it: a fresh clone, a scratch cache, the hook entries run as Claude
    Code runs them (`python -S hooks/<event>.py`, the payload on stdin)."""

    def __init__(self, root: Path, scratch: Path) -> None:
        self.root, self.scratch = root, scratch
        env = {k: v for k, v in os.environ.items() if not k.startswith(FOREIGN)}
        self.env = dict(
            env,
            CLAUDE_PROJECT_DIR=str(root),
            SIDEKIT_CACHE_DIR=str(scratch / "cache"),
            SIDEKIT_NUDGE_BUDGET="off",
        )

    def hook(self, event: str, sent: dict[str, object]) -> str:
        done = subprocess.run(
            [sys.executable, "-S", str(HOOK_SCRIPTS[event])],
            input=json.dumps(sent).encode(),
            capture_output=True,
            env=self.env,
            cwd=str(self.root),
            timeout=HOOK_TIMEOUT,
        )
        assert done.returncode == 0, done.stderr.decode(errors="replace")
        stdout = done.stdout.decode()
        self.settle()
        return stdout

    def settle(self) -> None:
        """Wait until no sidekit process started for this project is left (its detached workers)."""
        deadline = time.monotonic() + SETTLE_TIMEOUT
        while workers(str(self.scratch)) and time.monotonic() < deadline:
            time.sleep(0.1)

    def start(self, session: str) -> None:
        self.hook(
            "SessionStart", payload("SessionStart", self.root, session_id=session, source="startup")
        )

    def said_on_write(self, rel: str, text: str, session: str) -> list[str]:
        """The tools lines a Write of `rel` holding `text` gets, at once or at the next boundary."""
        target = self.root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        try:
            lines = tools_lines(
                self.hook("PostToolUse", write(self.root, rel, text, None, session))
            )
            prompt = payload("UserPromptSubmit", self.root, session_id=session, prompt="go on")
            return lines + tools_lines(self.hook("UserPromptSubmit", prompt))
        finally:
            target.unlink()


def workers(base: str) -> list[int]:
    """Live sidekit processes whose working folder or environment lies under `base`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                if b"sidekit_hooks" not in handle.read():
                    continue
            with open(f"/proc/{pid}/stat") as handle:
                if handle.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue
            with open(f"/proc/{pid}/environ", "rb") as handle:
                environ = handle.read().decode(errors="replace")
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except (OSError, IndexError):
            continue
        if cwd.startswith(base) or base in environ:
            found.append(int(pid))
    return found


@contextmanager
def opened(root: Path, warm: bool = True) -> Iterator[Session]:
    """A session on a fresh clone of the git repository `root`, warmed by SessionStart (unless not
    `warm`: a session whose first events come before any index is built); removed after."""
    scratch = Path(tempfile.mkdtemp(prefix="sidekit-nearcopy-hooks-"))
    clone = scratch / "project"
    subprocess.run(
        ["git", "clone", "-q", "--local", str(root), str(clone)], capture_output=True, check=True
    )
    session = Session(clone, scratch)
    try:
        if warm:
            session.start("warm-up")
        yield session
    finally:
        session.settle()
        shutil.rmtree(scratch, ignore_errors=True)


def judge(score: Score, case: Case, added: str, said: list[str]) -> None:
    """Count one case's tools lines into `score` as nearcopies.score does."""
    assert score.wrong is not None and score.missed is not None
    if case.helper:
        score.positives += 1
        if any(names(line, case.helper, added) for line in said):
            score.true_positive += 1
            return
        score.missed.append(f"{case.package}.{case.helper} <- {added}")
        if said:
            score.false_positive += 1
            score.wrong.append(f"{added} -> another helper (copies {case.helper})")
    else:
        score.negatives += 1
        if said:
            score.false_positive += 1
            score.wrong.append(f"{added} -> a tools nudge (near miss)")


def measure(module: ModuleType) -> Score:
    """Precision and recall of the tools sidecar's reuse nudge on one per-language held-out set."""
    score = Score(wrong=[], missed=[])
    language = module.LANGUAGE
    cases: list[Case] = module.COPIES + module.NEAR_MISSES
    for label, project in module.PROJECTS.items():
        root = realprojects.laid_out(project)
        rel, clause = added_path(module, label), package_clause(module, label)
        with opened(root) as session:
            for number, case in enumerate(case for case in cases if case.package == label):
                said = session.said_on_write(
                    rel, as_file(case, language, clause), f"case-{label}-{number}"
                )
                judge(score, case, name_of(case, language), said)
    return score


def measure_files(
    root: Path, rel: str, cases: list[tuple[str, str, str]], warm: bool = True
) -> Score:
    """The same harness on any git repository: (added text, helper or "", added name) per case."""
    score = Score(wrong=[], missed=[])
    with opened(root, warm) as session:
        for number, (text, helper, added) in enumerate(cases):
            said = session.said_on_write(rel, text, f"case-{number}")
            judge(score, Case("control", helper, text, ""), added, said)
    return score
