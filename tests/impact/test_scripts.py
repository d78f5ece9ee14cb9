"""`sidekit tests-for` and `sidekit select` for TypeScript/JavaScript (vitest, jest) from the import
graph: relative imports, index files, `./x.js` naming `x.ts`, tsconfig `paths`, workspace packages
through their `exports`, `require()`; what the graph cannot see selects every test file. Within the
byte budgets."""

from __future__ import annotations

from pathlib import Path

import pytest

from testing.code import answer, answer_in_process, commit_all, write

MONOREPO = {
    "package.json": '{"name":"root","private":true,"workspaces":["packages/*"],"devDependencies":{"vitest":"*"}}\n',
    "tsconfig.json": """
        {
          // comments and trailing commas, as tsc allows
          "compilerOptions": {
            "baseUrl": ".",
            "paths": { "@app/*": ["app/src/*"], },
          },
        }
        """,
    "packages/util/package.json": """
        {"name": "@acme/util", "exports": {".": {"types": "./dist/index.d.ts", "import": "./dist/index.js"},
         "./strings": "./dist/strings.js"}}
        """,
    "packages/util/src/index.ts": "export { slug } from './strings.js';\nexport * from "
    "'./numbers';\n",
    "packages/util/src/strings.ts": "export function slug(s: string): string { return "
    "s.toLowerCase(); }\n",
    "packages/util/src/numbers.ts": "export const double = (n: number): number => n * 2;\n",
    "packages/util/test/numbers.test.ts": "import { double } from '../src/numbers';\ntest('d', () "
    "=> double(1));\n",
    "app/src/model/index.ts": "import { slug } from '@acme/util/strings';\nexport const key = (s: "
    "string) => slug(s);\n",
    "app/src/view.ts": "import { key } from '@app/model';\nexport const render = (s: string) => "
    "key(s);\n",
    "app/src/clock.js": "module.exports = { now: () => 0 };\n",
    "app/test/view.spec.ts": "import { render } from '../src/view';\ntest('r', () => "
    "render('A'));\n",
    "app/test/util.test.ts": "import { double } from '@acme/util';\ntest('u', () => double(2));\n",
    "app/__tests__/clock.js": "const { now } = require('../src/clock');\ntest('c', () => now());\n",
    "README.md": "# monorepo\n",
}


@pytest.fixture
def monorepo(project: Path) -> Path:
    write(project, MONOREPO)
    commit_all(project)
    return project


@pytest.mark.parametrize(
    ("changed", "files"),
    [
        # packages/util/src/strings.ts <- index.ts (`./strings.js`) <- `@acme/util`; <-
        # `@acme/util/strings` (exports to dist/, built from src/) <- app/src/model/index.ts <-
        # `@app/model` (tsconfig paths)
        ("packages/util/src/strings.ts", ["app/test/util.test.ts", "app/test/view.spec.ts"]),
        # two files over the 100-byte budget: the second is counted, not dropped
        ("packages/util/src/numbers.ts", ["app/test/util.test.ts"]),
        ("app/src/view.ts", ["app/test/view.spec.ts"]),
        ("app/src/clock.js", ["app/__tests__/clock.js"]),  # require(), a __tests__ folder
        ("app/test/view.spec.ts", ["app/test/view.spec.ts"]),
    ],
)
def test_tests_for_follows_every_kind_of_import(
    monorepo: Path,
    changed: str,
    files: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    found, size = answer_in_process(monkeypatch, capsys, monorepo, "tests-for", changed)
    more = {"more": 1} if changed.endswith("numbers.ts") else {}
    assert found == {"runner": "vitest", "files": files, **more, "basis": "imports"}
    assert size <= 100


def test_tests_for_a_file_no_test_reaches_says_zero(monorepo: Path) -> None:
    write(monorepo, {"app/src/lonely.ts": "export const lonely = 1;\n"})
    assert answer(monorepo, "tests-for", "app/src/lonely.ts")[0] == {
        "runner": "vitest",
        "basis": "imports",
        "files": 0,
    }


def test_select_runs_the_test_files_the_change_reaches(monorepo: Path) -> None:
    (monorepo / "app/src/view.ts").write_text(
        "import { key } from '@app/model';\nexport const render = key;\n"
    )
    (monorepo / "README.md").write_text("# changed docs select nothing\n")
    found, size = answer(monorepo, "select")
    assert found == {
        "runner": "vitest",
        "changed": 2,
        "files": ["app/test/view.spec.ts"],
        "ofFiles": 4,
        "basis": "imports",
    }
    assert size <= 150


@pytest.mark.parametrize("config", ["vitest.config.ts", "test/setup.ts", "app/jest.config.js"])
def test_select_a_changed_runner_config_or_setup_file_runs_every_test_file(
    monorepo: Path, config: str
) -> None:
    write(monorepo, {config: "export default {}\n"})
    found = answer(monorepo, "select")[0]
    assert (found["basis"], found["why"], len(found["files"]) + found["moreFiles"]) == (
        "all",
        f"{config} changed",
        4,
    )


def test_select_a_changed_manifest_runs_every_test_file(monorepo: Path) -> None:
    (monorepo / "packages/util/package.json").write_text(
        '{"name": "@acme/util", "main": "src/index.ts"}\n'
    )
    found, size = answer(monorepo, "select")
    assert found == {
        "runner": "vitest",
        "changed": 1,
        "files": ["app/__tests__/clock.js"],
        "moreFiles": 3,
        "basis": "all",
        "why": "packages/util/package.json changed",
    }
    assert size <= 150


def test_select_with_an_unknown_base_says_how_to_find_one(monorepo: Path) -> None:
    from testing.code import sidekit

    done = sidekit(monorepo, "select", "--base", "nope", check=False)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "--base nope is not a commit" in done.stderr and "git log --oneline -5" in done.stderr
