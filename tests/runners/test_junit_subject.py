"""A stackless JVM assertion failure is placed at the main method the failing tests exercise
(runners/junit/subject.py); a trace through main code stays at its innermost main frame.

The fixture (junit_cases/printer) is a small Maven layout whose Surefire report has one planted bug,
`Format.print` writing the delimiter before a record's first value: four tests reach it through
`Printer.printRecord`, `Printer.print`, `Format.format` and `Format.join` (the last through a test
helper), and each fails at its own assert line; two tests pass. `Format.validate` is nearer to
every failing test than `print`, but the passing tests reach it too: the verdicts rule it out.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from sidekit_hooks.runners import frames
from sidekit_hooks.runners.junit import adapter, subject
from sidekit_hooks.status import clusters

CASE = Path(__file__).parent / "junit_cases" / "printer"
REPORT = "target/surefire-reports/TEST-demo.PrinterTest.xml"
TEST = "src/test/java/demo/PrinterTest.java::"


def printer_clusters(root: Path) -> list[dict[str, Any]]:
    project = shutil.copytree(CASE, root / "printer")
    result = adapter.from_reports([str(project / REPORT)], str(project), 0.0, 1)
    return clusters.of_table(result.tests, result.errors)


def test_asserts_that_fail_from_one_broken_method_are_one_cluster_at_that_method(
    tmp_path: Path,
) -> None:
    found = [
        {k: c[k] for k in ("type", "at", "affected", "tests") if k in c}
        | {"checks": c.get("checks")}
        for c in printer_clusters(tmp_path)
    ]
    assert found == [
        {
            "type": "AssertionFailedError",
            "at": "src/main/java/demo/Format.java:30",
            "affected": 4,
            "tests": [
                TEST + "formats",
                TEST + "joins",
                TEST + "printsARecord",
                TEST + "printsValues",
            ],
            "checks": "Format.print, exercised by formats, asserted at PrinterTest.java:30",
        },
        {  # an exception thrown in main code: its own frame
            "type": "IllegalArgumentException",
            "at": "src/main/java/demo/Format.java:9",
            "affected": 1,
            "tests": [TEST + "refusesAnEmptyDelimiter"],
            "checks": None,
        },
        {  # the test's lambda failed inside Printer.each: the innermost main frame
            "type": "AssertionFailedError",
            "at": "src/main/java/demo/Printer.java:34",
            "affected": 1,
            "tests": [TEST + "visitsEach"],
            "checks": None,
        },
    ]


def test_a_trace_through_main_code_is_at_its_innermost_main_frame_not_the_tests_lambda(
    tmp_path: Path,
) -> None:
    project = shutil.copytree(CASE, tmp_path / "printer")
    trace = (
        "org.opentest4j.AssertionFailedError: expected: <b> but was: <a>\n"
        "\tat org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:182)\n"
        "\tat demo.PrinterTest.lambda$visitsEach$0(PrinterTest.java:53)\n"
        "\tat demo.Printer.each(Printer.java:34)\n"
        "\tat demo.PrinterTest.visitsEach(PrinterTest.java:52)\n"
    )
    failure = frames.jvm_failure(
        "org.opentest4j.AssertionFailedError",
        "expected: <b> but was: <a>",
        trace,
        frames.SourceIndex(str(project)),
    )
    assert failure["at"] == "src/main/java/demo/Printer.java:34"
    assert failure["frames"] == [
        "src/test/java/demo/PrinterTest.java:53 in lambda$visitsEach$0",
        "src/main/java/demo/Printer.java:34 in each",
        "src/test/java/demo/PrinterTest.java:52 in visitsEach",
    ]


def test_methods_and_their_calls_are_read_with_comments_and_literals_blanked() -> None:
    source = [
        "class Demo {",  # 1
        "    /* fake(1) { */",  # 2
        '    String text = """',  # 3
        "        not(a) { call",  # 4
        '        """;',  # 5
        "    @Override public <T> List<T> run(int a,",  # 6
        "            int b) throws X {",  # 7
        "        String s = \"quote(\" + helper('(');  // gone(1)",  # 8
        "        assertEquals(",  # 9
        "            expected,",  # 10
        "            Other.make(a));",  # 11
        "        new Thing(b).go();",  # 12
        "    }",  # 13
        "    abstract void none();",  # 14
        "}",  # 15
    ]
    [method] = subject.methods_of("Demo.java", source)
    assert (method.cls, method.name, method.line, method.end) == ("Demo", "run", 6, 13)
    assert method.calls == [
        (8, "", "helper"),
        (9, "", "assertEquals"),
        (9, "Other", "make"),  # the statement's first line: a frame names the call's line
        (12, "new", "Thing"),
        (12, "", "go"),
    ]


def test_a_call_on_a_type_the_project_does_not_define_is_a_librarys() -> None:
    graph = subject.Graph(
        subject.methods_of(
            "Format.java",
            ["class Format {", "  String format(Object v) {", "    return null;", "  }", "}"],
        )
    )
    assert graph.resolve("Other.java", "String", "format") == []
    assert graph.resolve("Other.java", "Format", "format") == [("Format.java", "format")]
    assert graph.resolve("Other.java", "fmt", "format") == [("Format.java", "format")]
