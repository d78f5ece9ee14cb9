"""Held-out projects (docs/runners.md, *Projects tuned on, and held out*): chosen before issue #33's
changes and never used to tune a rule. Each gets one planted bug that fails at least 20 tests; what
reaches the model is at most 800 B (the runner's own lines, the count and the exit code included), with
at most 3 clusters, the top one at the planted file. Figures are printed (-s)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from realproj import CACHE, REPO, answer_line, env_for, plant, shell
from test_real_projects import copy_tree, fetch_crate, fetch_go_module

from testing import js
from testing.pretool import rewritten

pytestmark = pytest.mark.slow

MODEL_LIMIT = 800
MAX_CLUSTERS = 3
GO_MODULE = "github.com/shopspring/decimal@v1.4.0"
# NewFromString drops one digit of the fraction's exponent: "1.5" reads as 15 (every parsed decimal is off).
GO_PLANT = ("decimal.go", "expInt := -len(value[pIndex+1:])", "expInt := -len(value[pIndex+1:]) + 1")


@dataclass(frozen=True)
class HeldOut:
    """One red run of a held-out project: what reached the model and what sidekit made of it."""

    planted: str
    raw_exit: int
    exit: int
    model: int  # bytes: the output the client returns plus its `Exit code N` line
    answer: dict[str, Any]

    @property
    def clusters(self) -> int:
        return len(self.answer.get("clusters") or []) + int(self.answer.get("moreClusters", 0))

    @property
    def top(self) -> dict[str, Any]:
        return dict((self.answer.get("clusters") or [{}])[0])


def check_within_budget_at_the_planted_file(run: HeldOut) -> None:
    assert run.raw_exit == run.exit != 0  # the raw run's exit code (go, jest 1; cargo 101)
    assert run.answer["exit"] == run.exit and run.answer["failed"] >= 20
    assert run.model <= MODEL_LIMIT, run.answer
    assert str(run.top.get("at", "")).split(":")[0] == run.planted, run.answer
    assert int(run.top.get("affected", 1)) >= 0.8 * int(run.answer["failed"]), run.answer  # most, in one


@pytest.fixture(scope="module")
def go_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    project = copy_tree(fetch_go_module(GO_MODULE), tmp_path_factory.mktemp("go") / "decimal")
    planted, old, new = GO_PLANT
    plant(project / planted, old, new)
    env = env_for(project, GOFLAGS="-count=1")
    raw = shell(project, "go test ./...", env)
    command = rewritten(project, "go test ./...", env)
    assert command == f"go test ./... -exec '/bin/sh {REPO / 'sidekit_hooks/runners/go/goexec.sh'} {sys.executable}'"
    compact = shell(project, command, env)
    answer = answer_line(compact.output)
    run = HeldOut(planted, raw.exit, compact.exit, compact.size + len(f"Exit code {compact.exit}\n"), answer)
    print(f"\ngo {GO_MODULE}: raw {raw.size:,} B; model {run.model} B; {run.clusters} clusters; {answer}")
    return run


def test_go_held_out_planted_bug_reaches_the_model_within_800_bytes_at_the_planted_file(go_held_out: HeldOut) -> None:
    check_within_budget_at_the_planted_file(go_held_out)


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met yet: 6 clusters; 5 single failures reach NewFromString through methods "
    "(json.Unmarshal -> UnmarshalJSON) or through New, which no text scan follows",
)
def test_go_held_out_planted_bug_is_at_most_3_clusters(go_held_out: HeldOut) -> None:
    assert go_held_out.clusters <= MAX_CLUSTERS, go_held_out.answer


NPM_PACKAGE = "deep-diff@1.0.2"
NPM_TEST_DEPS = ["expect.js@0.3.1"]  # what its test/tests.js requires
# Every edit reads as a new property: kind 'E' becomes 'N' in the one constructor all diffs go through.
NPM_PLANT = ("index.js", "      value: kind,", "      value: kind === 'E' ? 'N' : kind,")


def fetch_npm_package(spec: str, test_deps: list[str]) -> tuple[Path, Path]:
    """The package's published files (`npm pack`, unpacked once) and node_modules with its test deps."""
    folder = CACHE / "npm" / spec.replace("/", "+")
    deps = CACHE / "npm" / f"{spec.replace('/', '+')}-deps"
    if not (folder / "package" / "package.json").exists():
        folder.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            ["npm", "pack", "--silent", spec], cwd=folder, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr
        with tarfile.open(folder / done.stdout.strip().splitlines()[-1]) as packed:
            packed.extractall(folder, filter="data")
    if not (deps / "node_modules").is_dir():
        deps.mkdir(parents=True, exist_ok=True)
        (deps / "package.json").write_text('{"name":"held-out-deps","private":true}\n')
        argv = ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", *test_deps]
        done = subprocess.run(argv, cwd=deps, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    return folder / "package", deps / "node_modules"


def jest_project(root: Path) -> Path:
    """deep-diff's own files and tests, run by jest (the cached toolchain), its test deps on jest's path."""
    source, deps = fetch_npm_package(NPM_PACKAGE, NPM_TEST_DEPS)
    shutil.copytree(source, root)
    (root / "node_modules").symlink_to(js.toolchain("jest"))
    manifest = json.loads((root / "package.json").read_text())
    manifest["scripts"] = {"test": "jest"}
    manifest["jest"] = {"testMatch": ["<rootDir>/test/tests.js"], "modulePaths": [str(deps)]}
    (root / "package.json").write_text(json.dumps(manifest))
    (root / ".git").mkdir()
    return root


@pytest.fixture(scope="module")
def jest_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    project = jest_project(tmp_path_factory.mktemp("jest") / "deep-diff")
    planted, old, new = NPM_PLANT
    plant(project / planted, old, new)
    raw = js.run(["npx", "jest"], project)
    compact = js.run(js.compact_command("jest", ["npx", "jest"], project), project)
    head, _, body = compact.output.partition("\n")
    assert head.startswith("sidekit: "), compact.output[:600]
    answer = json.loads(body)
    run = HeldOut(planted, raw.exit, compact.exit, compact.size + len(f"Exit code {compact.exit}\n"), answer)
    print(f"\njest {NPM_PACKAGE}: raw {raw.size:,} B; model {run.model} B; {run.clusters} clusters; {answer}")
    return run


def test_jest_held_out_planted_bug_reaches_the_model_within_800_bytes_at_the_planted_file(
    jest_held_out: HeldOut,
) -> None:
    check_within_budget_at_the_planted_file(jest_held_out)


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met yet: 4 clusters; 2 failures stay at expect.js: their tests call the module itself "
    "(deep(lhs, rhs, prefilter), bound by a UMD factory's parameter); jest's own 'Tests cannot be nested' is one more",
)
def test_jest_held_out_planted_bug_is_at_most_3_clusters(jest_held_out: HeldOut) -> None:
    assert jest_held_out.clusters <= MAX_CLUSTERS, jest_held_out.answer


CRATE = ("humantime", "2.1.0")
# two_digits reads its second digit against '1': a zero there underflows (a panic), any other digit is off by one.
CRATE_PLANT = ("src/date.rs", "(b2 - b'0')) as u64)", "(b2 - b'1')) as u64)")


@pytest.fixture(scope="module")
def cargo_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    project = copy_tree(fetch_crate(*CRATE), tmp_path_factory.mktemp("cargo") / "humantime")
    planted, old, new = CRATE_PLANT
    plant(project / planted, old, new)
    env = env_for(project)
    assert shell(project, "cargo test --no-run", env).exit == 0  # compile once: the runs below test, not build
    written = "cargo test --no-fail-fast"  # the doc tests too: one of them parses a timestamp
    raw = shell(project, written, env)
    command = rewritten(project, written, env)
    assert command.startswith(written + " --config "), command
    compact = shell(project, command, env)
    answer = answer_line(compact.output)
    run = HeldOut(planted, raw.exit, compact.exit, compact.size + len(f"Exit code {compact.exit}\n"), answer)
    print(f"\ncargo {CRATE}: raw {raw.size:,} B; model {run.model} B; {run.clusters} clusters; {answer}")
    print(compact.output)
    return run


def test_cargo_held_out_planted_bug_reaches_the_model_within_800_bytes_at_the_planted_file(
    cargo_held_out: HeldOut,
) -> None:
    check_within_budget_at_the_planted_file(cargo_held_out)


def test_cargo_held_out_planted_bug_is_at_most_3_clusters(cargo_held_out: HeldOut) -> None:
    assert cargo_held_out.clusters <= MAX_CLUSTERS, cargo_held_out.answer
