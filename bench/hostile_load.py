"""Fuzzed hook payloads and a queue stress run, counted (#15). Used by tests/hostile at CI scale and
by bench/rows_hostile.py at full scale; every count it returns must be 0 except
`runs`/`sent`/`delivered`.

    fuzz(2_000, workdir)                  # in-process through hook.main, plus a few real subprocesses
    stress(8, 4, 2_000, workdir)          # writers (half of them gt-style, in place) and drainers
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EVENTS = ("PostToolUse", "PostToolUseFailure", "UserPromptSubmit")
SCRIPTS = {
    "PostToolUse": "post_tool_use.py",
    "PostToolUseFailure": "post_tool_use_failure.py",
    "UserPromptSubmit": "user_prompt_submit.py",
}
TOOLS = (
    "Bash",
    "Edit",
    "Write",
    "Read",
    "Glob",
    "Grep",
    "NotebookEdit",
    "MultiEdit",
    "Agent",
    "Task",
    "TaskCreate",
    "TodoWrite",
    "WebFetch",
    "WebSearch",
    "mcp__srv__tool",
    "FutureTool",
    "",
    "Bash\x00",
    "\udc80",
)
SESSIONS = (
    "fuzz-1",
    "fuzz-2",
    "../escape",
    "a/b",
    "",
    ".",
    "..",
    "x" * 300,
    "nul\x00name",
    "\udc80",
    7,
    None,
)
# seconds past the hard deadline still counted as on time (process scheduling on a busy box)
SLACK = 0.25


def hostile_strings(project: str, outside: str) -> list[str]:
    return [
        "",
        "a.py",
        "api/x.py",
        "../../etc/passwd",
        "/etc/passwd",
        os.path.join(outside, "victim.txt"),
        os.path.join(project, "pipe.py"),
        os.path.join(project, "link.py"),
        os.path.join(project, "api", "deep", "x.py"),
        "x\x00y.py",
        "\udc80.py",
        "$(touch${IFS}pwned)",
        "`touch pwned`",
        "a" * 5000,
        "**/**/**",
        "\u2028\u2029",
        "\x1b[31mred",
        "AKIAIOSFODNN7EXAMPLE",
        "ghp_" + "a" * 36,
        "C:\\win\\path.py",
        "~/x.py",
        ".sidekit/scope.toml",
        ".runtime/nudge_queue/fuzz-1/1-deadbeef.json",
        "pytest -x",
        "grep -rn parse_event .",
        "rm -rf /",
    ]


def junk(rng: random.Random, strings: list[str], depth: int = 0) -> Any:
    roll = rng.random()
    if roll < 0.45 or depth > 3:
        return rng.choice(strings)
    if roll < 0.55:
        return rng.choice([0, -1, 2**70, 1.5, float("1e308"), True, False, None])
    if roll < 0.75:
        return [junk(rng, strings, depth + 1) for _ in range(rng.randint(0, 4))]
    if roll < 0.97:
        keys = [
            "stdout",
            "stderr",
            "content",
            "filePath",
            "originalFile",
            "structuredPatch",
            "lines",
            "text",
            "x",
        ]
        return {rng.choice(keys): junk(rng, strings, depth + 1) for _ in range(rng.randint(0, 4))}
    nest = rng.choice([200, 1000, 5000])
    return (
        json.loads("[" * min(nest, 900) + "]" * min(nest, 900)) if nest < 1000 else {"deep": "DEEP"}
    )


def payload_bytes(rng: random.Random, project: str, outside: str) -> tuple[str, bytes]:
    """One fuzzed stdin for one event: mostly well-formed JSON of odd shapes, some plain garbage."""
    event = rng.choice(EVENTS)
    roll = rng.random()
    if roll < 0.05:
        return event, bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))
    if roll < 0.08:
        return event, rng.choice([b"[]", b"null", b"42", b'"x"', b"{", b"{}" * 3, b"\xff\xfe{}"])
    strings = hostile_strings(project, outside)
    if roll < 0.4:  # a well-formed call with one hostile value in it: the detectors do real work
        return event, json.dumps(realistic(rng, event, project, strings)).encode(
            "utf-8", "surrogatepass"
        )
    data: dict[str, Any] = {
        "session_id": rng.choice(SESSIONS),
        "cwd": rng.choice([project, project, outside, "", 5]),
        "hook_event_name": rng.choice([event, event, "Nope", None]),
    }
    if event != "UserPromptSubmit":
        data["tool_name"] = rng.choice(TOOLS)
        data["tool_use_id"] = f"toolu_{rng.randrange(10**6)}"
        fields = (
            "file_path",
            "command",
            "content",
            "old_string",
            "new_string",
            "pattern",
            "path",
            "edits",
            "glob",
            "notebook_path",
            "new_source",
            "url",
            "prompt",
        )
        data["tool_input"] = {
            rng.choice(fields): junk(rng, strings) for _ in range(rng.randint(0, 6))
        }
        data["tool_response"] = junk(rng, strings)
        if event == "PostToolUseFailure":
            data["error"] = junk(rng, strings)
    else:
        data["prompt"] = junk(rng, strings)
    if rng.random() < 0.1:
        data["agent_id"] = rng.choice(["agent-1", "", 3])
    text = json.dumps(data, ensure_ascii=rng.random() < 0.5)
    if rng.random() < 0.03:  # deeper than any parser should walk
        text = text[:-1] + ', "tool_response_deep": ' + "[" * 1000 + "]" * 1000 + "}"
    return event, text.encode("utf-8", "surrogatepass")


def realistic(rng: random.Random, event: str, project: str, strings: list[str]) -> dict[str, Any]:
    base: dict[str, Any] = {
        "session_id": rng.choice(["fuzz-1", "fuzz-2"]),
        "cwd": project,
        "hook_event_name": event,
    }
    if event == "UserPromptSubmit":
        return {**base, "prompt": rng.choice(strings)}
    target = os.path.join(
        project, rng.choice(["api/x.py", "web/y.py", "api/deep/z.py", "pipe.py", "link.py"])
    )
    hostile = rng.choice(strings)
    calls = [
        (
            "Write",
            {
                "file_path": rng.choice([target, hostile]),
                "content": rng.choice(["print(1)\n", hostile]),
            },
            {},
        ),
        (
            "Edit",
            {
                "file_path": rng.choice([target, hostile]),
                "old_string": "return 1",
                "new_string": "print(2)",
            },
            {
                "originalFile": "def parse_event():\n    return 1\n",
                "structuredPatch": [{"lines": ["+print(2)", hostile]}],
            },
        ),
        (
            "Bash",
            {
                "command": rng.choice(
                    ["grep -rn parse_event .", "pytest -q", "cat api/x.py", hostile]
                )
            },
            {
                "stdout": rng.choice(
                    ["ok", hostile, "Traceback (most recent call last):\n  File x"]
                ),
                "stderr": "",
            },
        ),
        (
            "Grep",
            {"pattern": "parse_event", "path": rng.choice(["web", hostile])},
            {"filenames": [hostile]},
        ),
        ("Read", {"file_path": rng.choice([target, hostile])}, {"file": {"content": hostile}}),
    ]
    tool, tool_input, response = rng.choice(calls)
    out = {
        **base,
        "tool_name": tool,
        "tool_use_id": f"toolu_{rng.randrange(10**6)}",
        "tool_input": tool_input,
        "tool_response": response,
    }
    if event == "PostToolUseFailure":
        out["error"] = hostile
    return out


def make_project(workdir: str) -> tuple[str, str]:
    """A project with hostile furniture (a FIFO, a link out, rule packs, queued junk) and an outside
    folder."""
    project = os.path.join(workdir, "proj")
    outside = os.path.join(workdir, "outside")
    os.makedirs(os.path.join(project, "api", "deep"), exist_ok=True)
    os.makedirs(os.path.join(project, "sidecar_rules"), exist_ok=True)
    os.makedirs(outside, exist_ok=True)
    with open(os.path.join(outside, "victim.txt"), "w") as handle:
        handle.write("outside the project\n")
    with open(os.path.join(project, "api", "x.py"), "w") as handle:
        handle.write("def parse_event():\n    return 1\n")
    if not os.path.exists(os.path.join(project, "pipe.py")):
        os.mkfifo(os.path.join(project, "pipe.py"))
        os.symlink(os.path.join(outside, "victim.txt"), os.path.join(project, "link.py"))
    with open(os.path.join(project, "sidecar_rules", "fuzz.toml"), "w") as handle:
        handle.write(
            '[pack]\nname = "fuzz"\n[[rules]]\nid = "fuzz.print"\nmessage = "no print"\n'
            "[rules.when]\npaths = [\"**/*.py\"]\nadded = 'print\\('\n"
        )
    os.makedirs(os.path.join(project, ".sidekit"), exist_ok=True)
    with open(
        os.path.join(project, ".sidekit", "scope.toml"), "w"
    ) as handle:  # a task scope: api/ only
        handle.write('issue = "fuzz"\nallow = ["api/**"]\ndeny = []\n')
    queue = os.path.join(project, ".runtime", "nudge_queue", "fuzz-1")
    os.makedirs(queue, exist_ok=True)
    with open(os.path.join(queue, f"{time.time_ns() - 10**10}-0badf11e.json"), "w") as handle:
        handle.write('{"message": "half')
    return project, outside


def snapshot_outside(workdir: str, project: str) -> dict[str, Any]:
    """Every path under `workdir` but the project (and sidekit's cache), with its size and mtime."""
    out: dict[str, Any] = {}
    for base, dirs, files in os.walk(workdir):
        if base.startswith(project) or os.sep + "cache" in base[len(workdir) :]:
            dirs[:] = []
            continue
        for name in files + dirs:
            path = os.path.join(base, name)
            if path == project or path == os.path.join(workdir, "cache"):
                continue
            info = os.lstat(path)
            out[path] = (info.st_size, info.st_mtime_ns)
    return out


def fuzz(count: int, workdir: str, seed: int = 1, subprocess_samples: int = 10) -> dict[str, int]:
    """Run `count` fuzzed payloads through hook.main in this process, and a few through the real
    script."""
    from sidekit_hooks.core import hook_table
    from sidekit_hooks.pipeline import hook

    project, outside = make_project(workdir)
    env = {
        "CLAUDE_PROJECT_DIR": project,
        "SIDEKIT_CACHE_DIR": os.path.join(workdir, "cache"),
        "XDG_CONFIG_HOME": os.path.join(workdir, "xdg"),
    }
    saved = {
        name: os.environ.get(name)
        for name in (*env, "GT_TOWN_ROOT", "GT_ROOT", "TMUX_PANE", "SIDEKIT_JUDGE")
    }
    for name in ("GT_TOWN_ROOT", "GT_ROOT", "TMUX_PANE", "SIDEKIT_JUDGE"):
        os.environ.pop(name, None)
    os.environ.update(env)
    before = snapshot_outside(workdir, project)
    counts = Counter(runs=0, crashes=0, nonJson=0, overDeadline=0, outsideTouched=0)
    rng = random.Random(seed)
    stdin, stdout = sys.stdin, sys.stdout
    try:
        for _ in range(count):
            event, data = payload_bytes(rng, project, outside)
            sys.stdin = io.TextIOWrapper(io.BytesIO(data))
            sink = io.BytesIO()
            sys.stdout = io.TextIOWrapper(sink, encoding="utf-8")
            started = time.monotonic()
            try:
                code = hook.main(event, [])
            except BaseException:  # noqa: BLE001 - counted: a hook must never raise
                code = -1
            elapsed = time.monotonic() - started
            sys.stdout.flush()
            counts["runs"] += 1
            counts["crashes"] += code != 0
            counts["nonJson"] += not _one_object_or_nothing(sink.getvalue())
            counts["overDeadline"] += elapsed > hook_table.deadline_of(event) + SLACK
    finally:
        sys.stdin, sys.stdout = stdin, stdout
    for _ in range(subprocess_samples):
        event, data = payload_bytes(rng, project, outside)
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-S", os.path.join(REPO, "hooks", SCRIPTS[event])],
            input=data,
            capture_output=True,
            env=dict(os.environ),
            cwd=project,
            timeout=30,
        )
        counts["runs"] += 1
        counts["crashes"] += done.returncode != 0 or bool(done.stderr.strip())
        counts["nonJson"] += not _one_object_or_nothing(done.stdout)
        counts["overDeadline"] += (
            time.monotonic() - started > hook_table.deadline_of(event) + 1.0
        )  # + interpreter start
    after = snapshot_outside(workdir, project)
    counts["outsideTouched"] = len(
        {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    )
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    return dict(counts)


def _one_object_or_nothing(raw: bytes) -> bool:
    if not raw.strip():
        return True
    try:
        return isinstance(json.loads(raw.decode("utf-8")), dict)
    except ValueError:
        return False


GT_WRITER = """
import json, os, sys, time
folder, tag, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(folder, exist_ok=True)
for i in range(count):
    body = json.dumps({"sender": "gastown/crew/max", "message": f"{tag}-{i}", "priority": "normal",
                       "timestamp": "2026-04-30T09:02:38.123456789-04:00", "expires_at": "2999-04-30T09:32:38-04:00",
                       "deliver_after": "0001-01-01T00:00:00Z"}, indent=2)
    with open(os.path.join(folder, f"{time.time_ns()}-{os.urandom(4).hex()}.json"), "w") as f:
        f.write(body[: len(body) // 2])  # in place, in two writes: a drainer may see half a file
        f.flush()
        f.write(body[len(body) // 2 :])
"""

OUR_WRITER = """
import sys
sys.path.insert(0, sys.argv[1])
from sidekit_hooks.nudges import queue
root, tag, count = sys.argv[2], sys.argv[3], int(sys.argv[4])
for i in range(count):
    queue.enqueue(root, "stress", queue.Nudge(f"[sidecar:scope] {tag}-{i}"), max_depth=10**9)
"""

DRAINER = """
import os, sys, time
sys.path.insert(0, sys.argv[1])
from sidekit_hooks.nudges import delivery, queue
root, stop = sys.argv[2], sys.argv[3]
while True:
    finished = os.path.exists(stop)
    claims = queue.claim(root, "stress")
    text, delivered, left = delivery.plan(claims)
    queue.release(left)
    for held in delivered:
        print(held.nudge.message, flush=True)
    queue.commit(delivered)
    if finished and not claims:
        folder = os.path.join(root, "stress")
        if not any(n.endswith(".json") or ".claimed" in n for n in os.listdir(folder)):
            break
    if not claims:
        time.sleep(0.005)
"""


def stress(writers: int, drainers: int, messages: int, workdir: str) -> dict[str, int]:
    """`writers` processes (every other one gt-style, in place) send `messages` in all; `drainers`
    deliver."""
    root = os.path.join(workdir, "proj", ".runtime", "nudge_queue")
    folder = os.path.join(root, "stress")
    os.makedirs(folder, exist_ok=True)
    stop = os.path.join(workdir, "stop")
    per = messages // writers
    env = dict(os.environ)
    writing = []
    for index in range(writers):
        tag = f"{'gt' if index % 2 else 'sk'}{index}"
        argv = (
            [sys.executable, "-c", GT_WRITER, folder, tag, str(per)]
            if index % 2
            else [sys.executable, "-c", OUR_WRITER, REPO, root, tag, str(per)]
        )
        writing.append(subprocess.Popen(argv, env=env))
    draining = [
        subprocess.Popen(
            [sys.executable, "-c", DRAINER, REPO, root, stop],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(drainers)
    ]
    failed_writers = sum(proc.wait(timeout=600) != 0 for proc in writing)
    with open(stop, "w"):
        pass
    outputs = [proc.communicate(timeout=600)[0] for proc in draining]
    got = Counter(line for text in outputs for line in text.splitlines())
    sent = {f"{'gt' if w % 2 else 'sk'}{w}-{i}" for w in range(writers) for i in range(per)}
    plain = Counter(line.removeprefix("[sidecar:scope] ") for line in got.elements())
    quarantined = (
        os.listdir(os.path.join(folder, ".quarantine"))
        if os.path.isdir(os.path.join(folder, ".quarantine"))
        else []
    )
    return {
        "sent": len(sent),
        "delivered": sum(plain.values()),
        "lost": len(sent - set(plain)),
        "duplicated": sum(n - 1 for n in plain.values() if n > 1),
        "malformedDelivered": len(set(plain) - sent),
        "quarantined": len(quarantined),
        "writerFailures": failed_writers,
    }
