"""Never greener, Maven: a compile error, a crash (a test calls System.exit), a timeout (Surefire's
fork timeout), no tests, a filter that matches no tests (`-Dtest=Nope`, with and without
`-Dsurefire.failIfNoSpecifiedTests=false`) and a failing test in the second module of a two-module
build. Each case starts from a copy of one green build, with the reports of that green run still in
`target/surefire-reports`, touched to "a moment ago" as if the run had just ended: reports an
earlier run left must never make a red or broken run look green. For each case the raw `mvn -B test`
and `sidekit test` end with the same exit code, and `sidekit test`, `status`, `failures` and the
cache say exactly what the run did. Real Maven (its plugins cached in ~/.m2 between runs)."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from realproj import env_for, git_init, need, shell, sidekit

pytestmark = pytest.mark.slow

PLUGINS = (
    "<build><plugins>\n"
    "  <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId>"
    "<version>3.13.0</version></plugin>\n"
    "  <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId>"
    "<version>3.2.5</version></plugin>\n"
    "</plugins></build>"
)
PARENT = f"""<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>demo</groupId><artifactId>parent</artifactId><version>1.0</version><packaging>pom</packaging>
  <modules><module>a</module><module>b</module></modules>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.10.2</version>
      <scope>test</scope></dependency>
  </dependencies>
  {PLUGINS}
</project>
"""


def module_pom(name: str) -> str:
    return (
        '<project xmlns="http://maven.apache.org/POM/4.0.0">\n  '
        "<modelVersion>4.0.0</modelVersion>\n"
        "  <parent><groupId>demo</groupId><artifactId>parent</artifactId><version>1.0</version></parent>\n"
        f"  <artifactId>{name}</artifactId>\n</project>\n"
    )


def java_test(module: str, cls: str, body: str) -> tuple[str, str]:
    """(path, source) of a one-test JUnit 5 class in `module`."""
    source = (
        f"package demo;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\n"
        f"import org.junit.jupiter.api.Test;\n\nclass {cls} "
        f"{{\n    @Test\n    void check() throws Exception {{\n"
        f"        {body}\n    }}\n}}\n"
    )
    return f"{module}/src/test/java/demo/{cls}.java", source


CALC = (
    "package demo;\n\npublic final class Calc {\n    private Calc() {}\n\n    public static int "
    "add(int a, int b) {\n"
    "        return a + b;\n    }\n}\n"
)
GREEN: dict[str, str] = dict(
    [
        ("pom.xml", PARENT),
        ("a/pom.xml", module_pom("a")),
        ("b/pom.xml", module_pom("b")),
        ("a/src/main/java/demo/Calc.java", CALC),
        java_test("a", "CalcTest", "assertEquals(3, Calc.add(1, 2));"),
        java_test("b", "WordsTest", 'assertEquals("ab", "a" + "b");'),
    ]
)
A_TEST, B_TEST = "a/src/test/java/demo/CalcTest.java", "b/src/test/java/demo/WordsTest.java"
# case: (files changed (None: deleted), mvn arguments, exit code, what `sidekit test` answers
# (without generation and secs), the first cluster's type, message start and place (None: no
# cluster))
CASES: dict[
    str, tuple[dict[str, str | None], list[str], int, dict[str, Any], tuple[str, str, str] | None]
] = {
    "compile error": (
        {"a/src/main/java/demo/Calc.java": CALC.replace("a + b", "a + c")},
        [],
        1,
        {"runner": "junit", "exit": 1, "buildErrors": 1, "newFailures": 1},
        ("compile error", "cannot find symbol", "a/src/main/java/demo/Calc.java:7"),
    ),
    "crash": (
        dict([java_test("a", "ExitTest", "System.exit(3);")]),
        [],
        1,
        {"runner": "junit", "exit": 1, "passed": 1, "buildErrors": 1, "newFailures": 1},
        (
            "build failed",
            "The forked VM terminated without properly saying goodbye",
            "a/src/test/java/demo/ExitTest.java",
        ),
    ),
    "timeout": (
        dict([java_test("a", "SlowTest", "Thread.sleep(3000);")]),
        ["-Dsurefire.timeout=1"],
        1,
        {"runner": "junit", "exit": 1, "passed": 2, "buildErrors": 1, "newFailures": 1},
        ("build failed", "There was a timeout in the fork", "pom.xml"),
    ),
    "no tests": (
        {A_TEST: None, B_TEST: None},
        [],
        0,
        {"runner": "junit", "exit": 0, "state": "noTests"},
        None,
    ),
    "filter matches nothing": (
        {},
        ["-Dtest=Nope"],
        1,
        {"runner": "junit", "exit": 1, "buildErrors": 1, "newFailures": 1},
        ("build failed", 'No tests matching pattern "Nope" were executed!', "pom.xml"),
    ),
    "filter matches nothing, allowed": (
        {},
        ["-Dtest=Nope", "-Dsurefire.failIfNoSpecifiedTests=false"],
        0,
        {"runner": "junit", "exit": 0, "state": "noTests"},
        None,
    ),
    "second module fails": (
        dict([java_test("b", "WordsTest", 'assertEquals("ab", "b" + "a", "b is wrong");')]),
        [],
        1,
        {"runner": "junit", "exit": 1, "passed": 1, "failed": 1, "newFailures": 1},
        ("AssertionFailedError", "b is wrong", "b/src/test/java/demo/WordsTest.java:10"),
    ),
}


@pytest.fixture(scope="module")
def green_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The two-module project after one green `mvn -B test` (its reports say 2 tests passed)."""
    need("mvn")
    root = tmp_path_factory.mktemp("maven") / "green"
    write(root, GREEN)
    ran = shell(root, "mvn -B test", env_for(root), timeout=600)
    assert ran.exit == 0 and "Tests run: 1, Failures: 0" in ran.output, ran.output[-3000:]
    return root


def write(root: Path, files: Mapping[str, str | None]) -> None:
    for rel, text in files.items():
        if text is None:
            (root / rel).unlink()
        else:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)


def reports(root: Path) -> list[Path]:
    return sorted(root.glob("*/target/surefire-reports/*.xml"))


def just_written(root: Path) -> None:
    """Every report as if the run that wrote it had ended a moment ago."""
    now = time.time()
    for path in reports(root):
        os.utime(path, (now, now))


@pytest.mark.parametrize("case", list(CASES))
def test_maven_is_never_greener(green_build: Path, tmp_path: Path, case: str) -> None:
    files, args, expected, answer, cluster = CASES[case]
    project = tmp_path / "m"
    shutil.copytree(green_build, project, symlinks=True)
    write(project, files)
    git_init(project)
    env = env_for(project)
    raw = shell(project, " ".join(["mvn", "-B", "test", *args]), env, timeout=300)
    assert raw.exit == expected, raw.output[-3000:]
    assert len(reports(project)) >= 2  # the earlier runs' reports are still there
    just_written(project)
    found, code = sidekit(project, env, "test", *(["--", *args] if args else []), timeout=300)
    assert code == found["exit"] == expected
    assert {k: v for k, v in found.items() if k not in ("generation", "secs", "clusters")} == answer
    if cluster is None:
        assert "clusters" not in found
    else:
        top = found["clusters"][0]
        assert (
            top["type"],
            top["message"].startswith(cluster[1]),
            top.get("at", top.get("first")),
        ) == (
            cluster[0],
            True,
            cluster[2],
        ), top
    status, _ = sidekit(project, env, "status")
    failures, _ = sidekit(project, env, "failures")
    summary = json.loads((project / ".sidekit" / "status.json").read_text())
    assert summary["run"]["exit"] == expected and summary["runner"] == "junit"
    if expected:
        assert status["state"] in ("failed", "error") and status.get("passed", 0) == answer.get(
            "passed", 0
        )
        assert failures["failing"] == answer.get("failed", 0) + answer.get("buildErrors", 0)
        assert summary["run"]["state"] != "passed" and summary["failing"] >= 1
    else:
        assert (
            status.get("failed", 0),
            status.get("collectErrors", 0),
            failures.get("failing", 0),
        ) == (0, 0, 0)
        assert summary["run"]["counts"] == {}  # no report of this run: nothing ran, nothing passed
