"""Real JavaScript projects for the vitest and jest adapters, built at test time.

The toolchains (vitest 4, jest 30, and semver, the library re-tested) come from the npm registry
through `npm install`, once per machine: they are kept under `$SIDEKIT_JS_CACHE` (default
/tmp/sidekit-js-cache) and each project links its node_modules there. A project copies semver's
own source into `lib/semver/` and tests it, so the library is project code whose frames count.
"""

from __future__ import annotations

import fcntl
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from testing import requires
from testing.agent_shell import Ran, bash_tool

REPO = Path(__file__).resolve().parents[2]
PACKAGES = {"vitest": ["vitest@4", "semver@7"], "jest": ["jest@30", "semver@7"]}
PLANTED = "lib/semver/functions/compare.js"
GOOD = "new SemVer(a, loose).compare(new SemVer(b, loose))"
# TypeError at compare.js:5 for every comparison
BAD = "new SemVer(a, loose).compareTo(new SemVer(b, loose))"


def cache_root() -> Path:
    return Path(os.environ.get("SIDEKIT_JS_CACHE", "/tmp/sidekit-js-cache"))


def toolchain(runner: str) -> Path:
    """node_modules with the runner and semver, installed once (under a lock: tests may run in
    parallel)."""
    if not shutil.which("node") or not shutil.which("npm"):
        requires.missing(
            "node and npm are needed for the JS runner tests", "install Node.js with npm"
        )
    folder = cache_root() / runner
    modules = folder / "node_modules"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (modules / ".bin" / runner).exists():
            (folder / "package.json").write_text('{"name":"sidekit-js-cache","private":true}\n')
            done = subprocess.run(
                [
                    "npm",
                    "install",
                    "--no-audit",
                    "--no-fund",
                    "--loglevel=error",
                    *PACKAGES[runner],
                ],
                cwd=folder,
                capture_output=True,
                text=True,
                timeout=600,
            )
            if done.returncode != 0:
                pytest.fail(f"npm install {PACKAGES[runner]} failed: {done.stderr[-600:]}")
    return modules


def base_project(root: Path, runner: str, script: str = "") -> Path:
    """An empty project using the cached toolchain (package.json, node_modules link)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "node_modules").symlink_to(toolchain(runner))
    scripts = f',"scripts":{{"test":"{script}"}}' if script else ""
    package = f'{{"name":"proj","private":true{scripts},"devDependencies":{{"{runner}":"*"}}}}\n'
    (root / "package.json").write_text(package)
    (root / ".git").mkdir()  # the workspace root for the shared cache
    return root


def semver_project(root: Path, runner: str, planted: bool) -> Path:
    """A project re-testing semver's own source: 30 ordering tests through lt/gt/compare, 20
    others."""
    base_project(root, runner, script="vitest run" if runner == "vitest" else "jest")
    source = toolchain(runner) / "semver"
    shutil.copytree(
        source, root / "lib" / "semver", ignore=shutil.ignore_patterns("node_modules", "bin")
    )
    compare = root / PLANTED
    text = compare.read_text()
    assert GOOD in text, "semver's compare.js changed shape"
    if planted:
        compare.write_text(text.replace(GOOD, BAD))
    header = (
        "import { describe, test, expect } from 'vitest'\nimport semver from "
        "'../lib/semver/index.js'\n"
        if runner == "vitest"
        else "const semver = require('../lib/semver')\n"
    )
    (root / "test").mkdir()
    (root / "test" / "order.test.js").write_text(
        header
        + """
const pairs = []
for (let i = 0; i < 10; i++) pairs.push([`1.${i}.0`, `1.${i}.1`])
describe('ordering', () => {
  test.each(pairs)('%s < %s', (a, b) => { expect(semver.lt(a, b)).toBe(true) })
  test.each(pairs)('%s > %s', (a, b) => { expect(semver.gt(b, a)).toBe(true) })
  test.each(pairs)('compare %s %s', (a, b) => { expect(semver.compare(a, b)).toBe(-1) })
})
"""
    )
    (root / "test" / "parse.test.js").write_text(
        header
        + """
for (let i = 0; i < 20; i++) {
  test(`valid 2.${i}.0`, () => { expect(semver.valid(`2.${i}.0`)).toBe(`2.${i}.0`) })
}
"""
    )
    return root


def run(
    command: list[str] | str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 180
) -> Ran:
    """Run a shell command as the Bash tool would (stdout and stderr together, no terminal)."""
    text = command if isinstance(command, str) else shlex.join(command)
    merged = dict(os.environ, **(env or {}))
    for name in ("CI", "SIDEKIT_RAW", "SIDEKIT_COMPACT_SHORT", "npm_lifecycle_event"):
        if env is None or name not in env:
            merged.pop(name, None)
    return bash_tool(text, cwd, merged, timeout)


def compact_command(runner: str, words: list[str], project: Path) -> str:
    """The rewritten command line, from the adapter itself (the hook quotes its words the same
    way)."""
    from sidekit_hooks import runners

    adapter = runners.load(runner)
    assert adapter is not None, runner
    rewritten = adapter.compact_words(words, str(project))
    assert rewritten is not None, f"{runner} left {words} alone"
    assert rewritten[: len(words)] == words, "only appended options"
    return shlex.join(rewritten)
