"""JS/TS stack frames: parsing V8's forms, which frames are the project's, and the failure a stack
becomes."""

from __future__ import annotations

import json
from pathlib import Path

from sidekit_hooks.runners.js import frames as js_frames
from sidekit_hooks.runners.js.frames import Frame

ROOT = "/w/proj"
# A real vitest failure (vitest 4.1.12, semver's compare.js with a planted TypeError), trimmed.
VITEST_STACK = (
    "TypeError: (intermediate value).compareTo is not a function\n"
    "    at compare (/w/proj/lib/semver/functions/compare.js:5:24)\n"
    "    at lt (/w/proj/lib/semver/functions/lt.js:4:29)\n"
    "    at /w/proj/test/order.test.js:6:67\n"
    "    at file:///w/node_modules/@vitest/runner/dist/chunk-artifact.js:2025:60\n"
    "    at new Promise (<anonymous>)\n"
    "    at runWithTimeout (file:///w/node_modules/@vitest/runner/dist/chunk-artifact.js:2272:10)"
)


def test_the_forms_v8_prints() -> None:
    assert js_frames.parse_frame("    at compare (/w/proj/lib/a.js:5:24)", ROOT) == Frame(
        "lib/a.js", 5, "compare", True
    )
    assert js_frames.parse_frame("    at /w/proj/test/a.test.ts:6:67", ROOT) == Frame(
        "test/a.test.ts", 6, "", True
    )
    assert js_frames.parse_frame("at async run (file:///w/proj/src/x%20y.mjs:3:1)", ROOT) == Frame(
        "src/x y.mjs", 3, "run", True
    )
    assert js_frames.parse_frame("    at Object.compare [as lt] (lib/lt.js:4:29)", ROOT) == Frame(
        "lib/lt.js", 4, "compare", True
    )  # jest's rendered text: relative to the root
    assert js_frames.parse_frame("    at new Promise (<anonymous>)", ROOT) is None
    internal = "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)"
    assert js_frames.parse_frame(internal, ROOT) == Frame(
        "node:internal/process/task_queues", 95, "process.processTicksAndRejections", False
    )
    assert js_frames.parse_frame("expected 1 to be 2", ROOT) is None


def test_dependencies_are_named_from_their_package_wherever_installed() -> None:
    assert js_frames.where("/w/proj/node_modules/vite/dist/a.js", ROOT) == (
        "node_modules/vite/dist/a.js",
        False,
    )
    assert js_frames.where("file:///elsewhere/node_modules/jest-circus/build/x.js", ROOT) == (
        "node_modules/jest-circus/build/x.js",
        False,
    )
    assert js_frames.where("/elsewhere/tool.js", ROOT) == ("/elsewhere/tool.js", False)
    assert js_frames.where("/w/proj/packages/b/src/x.ts", ROOT) == ("packages/b/src/x.ts", True)


def test_a_stack_becomes_a_failure_keyed_by_its_innermost_project_frame() -> None:
    assert js_frames.describe(VITEST_STACK, ROOT) == {
        "type": "TypeError",
        "message": "(intermediate value).compareTo is not a function",
        "at": "lib/semver/functions/compare.js:5",
        "frame": "lib/semver/functions/compare.js:5",
        "frames": [
            "test/order.test.js:6",
            "lib/semver/functions/lt.js:4 in lt",
            "lib/semver/functions/compare.js:5 in compare",
        ],
    }


def test_a_crash_inside_a_dependency_keeps_the_project_frame_that_called_it() -> None:
    stack = (
        "Error: STACK_TRACE_ERROR\n    at task "
        "(file:///w/node_modules/@vitest/runner/dist/c.js:1784:27)\n"
        "    at /w/proj/test/a.test.js:1:77"
    )
    failure = js_frames.describe(stack, ROOT)
    assert (failure["at"], failure["frame"]) == (
        "node_modules/@vitest/runner/dist/c.js:1784",
        "test/a.test.js:1",
    )


def test_a_parse_error_is_placed_in_the_file_it_names_not_in_the_parser() -> None:
    """jest 30 on a test file that does not parse: babel's error names the file, line and column."""
    stack = (
        "SyntaxError: /w/proj/test/b.test.js: Unexpected token (1:23)\n\n> 1 | test('b', () => { "
        "if ( })\n"
        "    at constructor (/w/node_modules/@babel/parser/src/parse-error.ts:96:45)\n"
        "    at Parser.toParseError (/w/node_modules/@babel/parser/src/tokenizer/index.ts:1504:19)"
    )
    assert js_frames.describe(stack, ROOT, maps=False) == {
        "type": "SyntaxError",
        "message": "Unexpected token (1:23)",
        "at": "test/b.test.js:1",
        "frame": "test/b.test.js:1",
        "frames": ["test/b.test.js:1"],
    }
    outside = stack.replace("/w/proj/test/b.test.js", "/elsewhere/b.test.js")
    assert (
        js_frames.describe(outside, ROOT, maps=False)["at"]
        == "node_modules/@babel/parser/src/parse-error.ts:96"
    )


def test_messages_without_a_type_and_ansi_colours() -> None:
    assert js_frames.head_of("\x1b[31mexpect(received).toBe(expected)\x1b[39m\n\nExpected: 2") == (
        "Error",
        "expect(received).toBe(expected)",
    )
    assert js_frames.head_of("AssertionError: expected 1 to be 2 // Object.is equality") == (
        "AssertionError",
        "expected 1 to be 2 // Object.is equality",
    )
    assert js_frames.head_of("Error [ERR_MODULE_NOT_FOUND]: Cannot find module 'x'") == (
        "Error",
        "Cannot find module 'x'",
    )
    assert js_frames.describe(
        "TypeError: a\n    at f (/w/proj/a.js:1:1)\n  [cause]: RangeError: b", ROOT
    )["cause"] == ("RangeError: b")


def _vlq(value: int) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    number = (-value << 1) | 1 if value < 0 else value << 1
    out = ""
    while True:
        digit = number & 31
        number >>= 5
        out += alphabet[digit | (32 if number else 0)]
        if not number:
            return out


def test_a_compiled_project_file_with_a_source_map_is_mapped_back(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "index.js").write_text("a\nb\nc\n//# sourceMappingURL=index.js.map\n")
    # generated line 3 (0-based 2) -> source 0, original line 41 (0-based 40)
    segments = ["A" + "A" + "A" + "A", "A" + "A" + _vlq(20) + "A", "A" + "A" + _vlq(20) + "A"]
    (dist / "index.js.map").write_text(
        json.dumps({"version": 3, "sources": ["../src/index.ts"], "mappings": ";".join(segments)})
    )
    stack = f"Error: x\n    at f ({tmp_path}/dist/index.js:3:5)"
    assert js_frames.describe(stack, str(tmp_path))["at"] == "src/index.ts:41"
    assert js_frames.describe(stack, str(tmp_path), maps=False)["at"] == "dist/index.js:3"
    (dist / "index.js.map").write_text("{not json")
    assert js_frames.describe(stack, str(tmp_path))["at"] == "dist/index.js:3"
