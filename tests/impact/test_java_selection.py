"""`sidekit tests-for` and `sidekit select` for Java (runner `junit`, Maven layout) from packages
and imports: explicit, static, nested and wildcard imports, and a package's own classes; a build
file change selects every test file. Within the byte budgets."""

from __future__ import annotations

from pathlib import Path

import pytest

from testing.code import answer, answer_in_process, commit_all, write

MAIN = "src/main/java/org/acme"
TEST = "src/test/java/org/acme"
MAVEN = {
    "pom.xml": "<project><modelVersion>4.0.0</modelVersion></project>\n",
    f"{MAIN}/text/Slugs.java": "package org.acme.text;\npublic class Slugs { public static String "
    "slug(String s) { return s; } }\n",
    f"{MAIN}/text/Words.java": "package org.acme.text;\npublic class Words { public static int "
    "count(String s) { return 1; } }\n",
    f"{MAIN}/model/Item.java": (
        "package org.acme.model;\nimport static org.acme.text.Slugs.slug;\n"
        "public class Item { public static class Key {} String key(String s) { return slug(s); } "
        "}\n"
    ),
    f"{MAIN}/shop/Cart.java": "package org.acme.shop;\nimport org.acme.model.Item.Key;\npublic "
    "class Cart { Key k; }\n",
    f"{MAIN}/shop/Price.java": "package org.acme.shop;\npublic class Price { int cents; }\n",
    f"{TEST}/shop/CartTest.java": "package org.acme.shop;\nclass CartTest { Cart c; }\n",
    f"{TEST}/text/WordsTest.java": "package org.acme.text;\nimport org.acme.text.*;\nclass "
    'WordsTest { int n = Words.count("a"); }\n',
    f"{TEST}/ItemIT.java": "package org.acme;\nimport org.acme.model.Item;\nclass ItemIT { Item "
    "i; }\n",
}


@pytest.fixture
def maven(project: Path) -> Path:
    write(project, MAVEN)
    commit_all(project)
    return project


@pytest.mark.parametrize(
    ("changed", "files", "more"),
    [
        # Slugs <- Item (static import) <- Cart (nested class) <- CartTest (same package); <-
        # ItemIT; WordsTest imports org.acme.text.* and shares the package (three test files:
        # ItemIT, CartTest, WordsTest; the budget keeps one and counts two)
        (f"{MAIN}/text/Slugs.java", ["src/…/java/org/acme/ItemIT.java"], 2),
        (
            f"{MAIN}/shop/Price.java",
            ["src/…/acme/shop/CartTest.java"],
            0,
        ),  # the package's own classes
        (f"{MAIN}/model/Item.java", ["src/…/java/org/acme/ItemIT.java"], 1),  # and CartTest
    ],
)
def test_tests_for_follows_imports_and_packages(
    maven: Path,
    changed: str,
    files: list[str],
    more: int,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    found, size = answer_in_process(monkeypatch, capsys, maven, "tests-for", changed)
    assert found == {
        "runner": "junit",
        "files": files,
        **({"more": more} if more else {}),
        "basis": "imports",
    }
    assert size <= 100


def test_select_runs_the_test_files_the_change_reaches(maven: Path) -> None:
    (maven / f"{MAIN}/shop/Price.java").write_text(
        "package org.acme.shop;\npublic class Price { long cents; }\n"
    )
    found, size = answer(maven, "select")
    assert found == {
        "runner": "junit",
        "changed": 1,
        "files": ["src/…/java/org/acme/shop/CartTest.java"],
        "ofFiles": 3,
        "basis": "imports",
    }
    assert size <= 150


def test_select_a_changed_pom_runs_every_test_file(maven: Path) -> None:
    (maven / "pom.xml").write_text(
        "<project><modelVersion>4.0.0</modelVersion><!-- x --></project>\n"
    )
    found = answer(maven, "select")[0]
    assert (found["basis"], found["why"], found["changed"]) == ("all", "pom.xml changed", 1)
