"""`sidekit conventions learn`: fixture repos with known conventions -> exact rules and figures."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from sidekit_hooks.rules.authoring import learn
from testing.rules import example_mismatches, fires

CONTRACT_RULE_KEYS = {
    "id",
    "sidecar",
    "message",
    "see",
    "severity",
    "enabled",
    "when",
    "metadata",
    "examples",
}
CONTRACT_WHEN_KEYS = {"tools", "paths", "exclude", "added", "absent", "command", "output"}


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def typed_repo(root: Path) -> Path:
    """pytest in tests/, snake_case, absolute imports, type hints, logging, no bare except."""
    write(root, "pyproject.toml", "[project]\nname = 'shop'\n")
    write(root, "shop/__init__.py", "")
    for i in range(12):
        write(
            root,
            f"shop/mod{i}.py",
            f"""import logging

from shop.mod0 import helper_0
from shop import mod1

log = logging.getLogger(__name__)


class Store{i}:
    def get_item(self, key: str) -> int:
        try:
            return int(key)
        except ValueError:
            log.warning("bad key %s", key)
            return 0


def helper_{i}(value: int, *, scale: float = 1.0) -> float:
    return value * scale


def _private_{i}(x):
    return x
""",
        )
    for i in range(6):
        write(
            root,
            f"tests/test_mod{i}.py",
            f"from shop.mod{i} import helper_{i}\n\n\ndef test_helper_{i}():\n"
            f"    assert helper_{i}(2) == 2\n\n\ndef test_scale_{i}():\n"
            f"    assert helper_{i}(2, scale=2) == 4\n",
        )
    write(root, "scripts/release.py", "print('release')\n")  # scripts may print
    return root


def unittest_repo(root: Path) -> Path:
    """unittest classes colocated as *_test.py, relative imports, prints, no hints."""
    write(root, "app/__init__.py", "")
    for i in range(8):
        write(
            root,
            f"app/part{i}.py",
            f"""from .part0 import run_0
from . import part1


def run_{i}(x):
    print("running", x)
    return x


class Part{i}:
    def go(self, y):
        return y
""",
        )
        write(
            root,
            f"app/part{i}_test.py",
            f"""import unittest

from .part{i} import run_{i}


class Part{i}Test(unittest.TestCase):
    def test_run(self):
        self.assertEqual(run_{i}(1), 1)

    def test_other(self):
        self.assertTrue(True)
""",
        )
    return root


def kept(project: Path) -> dict[str, tuple[int, int]]:
    rules, _ = learn.learn(str(project))
    return {rule.id: (rule.followed, rule.total) for rule in rules}


def test_typed_pytest_repo(tmp_path: Path) -> None:
    assert kept(typed_repo(tmp_path)) == {
        "conventions.function-names": (48, 48),
        "conventions.class-names": (12, 12),
        "conventions.test-names": (12, 12),
        "conventions.test-layout": (6, 6),
        "conventions.pytest-style": (6, 6),
        "conventions.no-print-in-library": (13, 13),
        "conventions.no-bare-except": (12, 12),
        "conventions.absolute-imports": (24, 24),
        "conventions.type-hints": (24, 24),
    }


def test_unittest_repo(tmp_path: Path) -> None:
    assert kept(unittest_repo(tmp_path)) == {
        "conventions.function-names": (32, 32),
        "conventions.class-names": (16, 16),
        "conventions.test-names": (16, 16),
        "conventions.test-layout": (8, 8),
        "conventions.unittest-style": (8, 8),
        "conventions.relative-imports": (24, 24),
    }


def test_mixed_and_small_repos_learn_nothing_they_do_not_keep(tmp_path: Path) -> None:
    for i in range(10):
        name = f"fetchItem{i}" if i % 3 == 0 else f"fetch_item_{i}"  # 70% snake_case
        shout = "    print(x)\n" if i % 2 else ""  # half the modules print
        write(
            tmp_path,
            f"lib/m{i}.py",
            f"def {name}(x):\n{shout}    try:\n        return x\n    except:\n        return "
            "None\n",
        )
    rules, measures = learn.learn(str(tmp_path))
    assert rules == []
    figures = {m.id: (m.followed, m.total, m.kept) for m in measures}
    assert figures["conventions.function-names"] == (6, 10, False)
    assert figures["conventions.no-bare-except"] == (0, 10, False)
    assert figures["conventions.test-layout"] == (0, 0, False)
    assert figures["conventions.no-print-in-library"] == (5, 10, False)


@pytest.mark.parametrize("make", [typed_repo, unittest_repo])
def test_learned_examples_hold(tmp_path: Path, make: object) -> None:
    make(tmp_path)  # type: ignore[operator]
    rules, _ = learn.learn(str(tmp_path))
    pack = learn.pack(rules)
    assert example_mismatches(pack) == []
    for rule in pack["rules"]:
        assert set(rule) <= CONTRACT_RULE_KEYS and set(rule["when"]) <= CONTRACT_WHEN_KEYS
        assert (
            rule["sidecar"] == "conventions"
            and len("[sidecar:conventions] " + rule["message"]) < 300
        )
        assert any(e["fires"] for e in rule["examples"]) and any(
            not e["fires"] for e in rule["examples"]
        )


def rule_of(project: Path, rule_id: str) -> dict[str, object]:
    rules, _ = learn.learn(str(project))
    return next(r.to_toml() for r in rules if r.id == rule_id)


@pytest.mark.parametrize(
    ("path", "added", "expected"),
    [
        ("shop/new.py", "def load(path):\n    return path\n", True),
        ("shop/new.py", "    def load(self, path) -> str:\n", True),
        ("shop/new.py", "def load(path: str, strict=False) -> str:\n", True),
        ("shop/new.py", "def load(path: str):\n", True),
        ("shop/new.py", "def load(path: str, *, strict: bool = False) -> str:\n", False),
        ("shop/new.py", "    def load(self) -> None:\n", False),
        ("shop/new.py", "def load(items: dict[str, int], key: tuple[int, str]) -> int:\n", False),
        (
            "shop/new.py",
            "def load(\n    path,\n):\n",
            False,
        ),  # multi-line signatures are left alone (no guessing)
        ("shop/new.py", "def _load(path):\n", False),
        ("tests/test_new.py", "def test_load():\n", False),
        ("scripts/tool.py", "def main(argv):\n", False),
    ],
)
def test_type_hint_rule_on_added_code(
    tmp_path: Path, path: str, added: str, expected: bool
) -> None:
    rule = rule_of(typed_repo(tmp_path), "conventions.type-hints")
    assert fires(rule, "Edit", path, added) is expected


@pytest.mark.parametrize(
    ("rule_id", "path", "added", "expected"),
    [
        ("conventions.function-names", "shop/a.py", "def loadUser(x):\n", True),
        ("conventions.function-names", "shop/a.py", "    def setUp(self):\n", False),
        ("conventions.function-names", "shop/a.py", "def load_user(x):\n", False),
        (
            "conventions.function-names",
            "tests/test_a.py",
            "def testLoadUser():\n",
            False,
        ),  # test-names says it
        ("conventions.class-names", "shop/a.py", "class user_store(Base):\n", True),
        ("conventions.class-names", "shop/a.py", "class HTTP_Error(Exception):\n", True),
        ("conventions.class-names", "shop/a.py", "class _Private:\n", False),
        ("conventions.test-names", "tests/test_a.py", "def testLoad():\n", True),
        ("conventions.test-names", "tests/test_a.py", "def test_load_user():\n", False),
        ("conventions.test-layout", "shop/test_inline.py", "def test_load():\n", True),
        ("conventions.test-layout", "tests/unit/test_load.py", "def test_load():\n", False),
        (
            "conventions.pytest-style",
            "tests/test_a.py",
            "class LoadTest(unittest.TestCase):\n",
            True,
        ),
        (
            "conventions.pytest-style",
            "tests/test_a.py",
            "class TestLoad:\n    def test_a(self):\n",
            False,
        ),
        ("conventions.no-print-in-library", "shop/a.py", "    print(value)\n", True),
        ("conventions.no-print-in-library", "shop/a.py", "    log.info('x %s', value)\n", False),
        ("conventions.no-print-in-library", "scripts/release.py", "print('done')\n", False),
        ("conventions.no-print-in-library", "tests/test_a.py", "    print(x)\n", False),
        ("conventions.no-bare-except", "shop/a.py", "    except:\n        pass\n", True),
        ("conventions.no-bare-except", "shop/a.py", "    except Exception:\n", False),
        ("conventions.absolute-imports", "shop/a.py", "from .mod1 import helper_1\n", True),
        ("conventions.absolute-imports", "shop/a.py", "from shop.mod1 import helper_1\n", False),
        ("conventions.absolute-imports", "tests/test_a.py", "from .conftest import x\n", False),
    ],
)
def test_learned_rules_on_added_code(
    tmp_path: Path, rule_id: str, path: str, added: str, expected: bool
) -> None:
    assert fires(rule_of(typed_repo(tmp_path), rule_id), "Edit", path, added) is expected


def sidekit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sidekit_hooks.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_writes_a_valid_rule_pack_and_keeps_disabled_rules(tmp_path: Path) -> None:
    typed_repo(tmp_path)
    done = sidekit("conventions", "learn", "--project", str(tmp_path))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["wrote"] == "sidecar_rules/conventions.toml" and answer["rules"] == 9
    assert {
        "id": "conventions.relative-imports",
        "prevalence": 0.0,
        "of": 24,
        "why": "belowThreshold",
    } in answer["skipped"]
    path = tmp_path / "sidecar_rules" / "conventions.toml"
    text = path.read_text()
    assert text.startswith("# Learned by `sidekit conventions learn`")
    pack = tomllib.loads(text)
    assert pack["pack"]["name"] == "conventions"
    assert [r["id"] for r in pack["rules"]][:2] == [
        "conventions.function-names",
        "conventions.class-names",
    ]
    assert pack["rules"][0]["metadata"] == {
        "convention": "snake_case function names",
        "followed": 48,
        "total": 48,
        "prevalence": 1.0,
        "threshold": 0.9,
        "learned_by": "sidekit conventions learn",
    }
    assert example_mismatches(pack) == []
    path.write_text(
        text.replace(
            'id = "conventions.no-bare-except"\n',
            'id = "conventions.no-bare-except"\nenabled = false\n',
        )
    )
    assert sidekit("conventions", "learn", "--project", str(tmp_path)).returncode == 0
    relearned = tomllib.loads(path.read_text())
    assert [r["id"] for r in relearned["rules"] if r.get("enabled") is False] == [
        "conventions.no-bare-except"
    ]


def test_cli_dry_run_writes_nothing_and_bad_project_says_the_fix(tmp_path: Path) -> None:
    typed_repo(tmp_path)
    done = sidekit("conventions", "learn", "--dry-run", "--project", str(tmp_path))
    assert done.returncode == 0 and "wrote" not in json.loads(done.stdout)
    assert not (tmp_path / "sidecar_rules").exists()
    missing = sidekit("conventions", "learn", "--project", str(tmp_path / "nope"))
    assert missing.returncode == 1
    assert missing.stderr == (
        f"sidekit: the project folder {tmp_path / 'nope'} does not exist (from --project); "
        "nothing was done\n"
        "  fix: pass --project DIR with the project's folder (mkdir -p DIR first for a new one)\n"
    )
