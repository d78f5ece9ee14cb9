"""A jest or vitest failure that stops in the test file is placed at the project function its test
exercised (runners/js/subject.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sidekit_hooks.runners.js import subject as js_subject

LIBRARY = """(function (root, factory) {
  module.exports = factory();
}(this, function () {
  var identities = [
    function (x) { return x },
  ];
  function Diff(kind, path) {
    this.kind = kind;
  }
  function accumulateDiff(lhs, rhs) {
    return [new Diff('E')];
  }
  Object.defineProperties(accumulateDiff, {
    diff: { value: accumulateDiff },
  });
  return accumulateDiff;
}));
"""

TESTS = """const deep = require('../')
const { format } = require('../lib/format')

describe('diff', () => {
  const changes = deep.diff({a: 1}, {a: 2})
  it('reads as an edit', () => {
    expect(changes[0].kind).toBe('E')
  })
  it('formats', () => {
    const text = format(1)
    expect(text).toBe('1')
  })
  it('has no call of ours', () => {
    const check = function (n) { return n }
    expect(Math.max(1, 2)).toBe(2)
  })
})
"""

FORMAT = """export function format(n) {
  return String(n)
}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "package.json").write_text('{"name":"d","main":"index.js"}')
    (tmp_path / "index.js").write_text(LIBRARY)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "format.js").write_text(FORMAT)
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "diff.test.js").write_text(TESTS)
    js_subject.forget()
    return tmp_path


def failure(at: str, frame: str) -> dict[str, str]:
    return {"type": "Error", "message": "expected 'N' to be 'E'", "at": at, "frame": frame}


def test_an_expect_diff_is_placed_at_the_function_its_test_exercised(project: Path) -> None:
    placed = js_subject.resolve(failure("test/diff.test.js:7", "test/diff.test.js:7"), str(project))
    assert placed == {
        "type": "Error",
        "message": "expected 'N' to be 'E'",
        "at": "index.js:14",
        "frame": "index.js:14",
        "checks": "diff, asserted at test/diff.test.js:7",
    }
    from_library = failure("node_modules/expect.js/index.js:96", "test/diff.test.js:11")
    assert js_subject.resolve(from_library, str(project))["at"] == "lib/format.js:1"


def test_a_failure_that_broke_in_code_under_test_stays_and_other_tests_calls_and_keywords_are_not_its(
    project: Path,
) -> None:
    thrown = failure("lib/format.js:2", "test/diff.test.js:11")
    assert js_subject.resolve(thrown, str(project)) == thrown
    nested = failure(
        "node_modules/jest-circus/build/jestAdapterInit.js:146", "test/diff.test.js:10"
    )
    assert (
        js_subject.resolve(nested, str(project)) == nested
    )  # jest's own error ("Tests cannot be nested")
    # a call in another test's body (format, line 10) is not this test's
    alone = failure("test/diff.test.js:15", "test/diff.test.js:15")
    assert js_subject.resolve(alone, str(project)) == {
        **alone,
        "at": "index.js:14",
        "frame": "index.js:14",
        "checks": "diff, asserted at test/diff.test.js:15",
    }


def test_a_module_called_itself_is_placed_at_the_function_its_default_export_names(
    tmp_path: Path,
) -> None:
    (tmp_path / "index.js").write_text(
        "'use strict'\nmodule.exports = bytes\n\nfunction bytes(value) {\n  return 1\n}\n"
    )
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "parse.mjs").write_text("export default (text) => 1\n")
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "bytes.test.js").write_text(
        "const bytes = require('..')\n"
        "import parse from '../lib/parse.mjs'\n"
        "test('formats', () => {\n"
        "  expect(bytes(1024)).toBe('1KB')\n"
        "})\n"
        "test('parses', () => {\n"
        "  expect(parse('1KB')).toBe(1024)\n"
        "})\n"
    )
    js_subject.forget()
    formats = js_subject.resolve(
        failure("test/bytes.test.js:4", "test/bytes.test.js:4"), str(tmp_path)
    )
    assert (formats["at"], formats["checks"]) == (
        "index.js:4",
        "bytes, asserted at test/bytes.test.js:4",
    )
    parses = js_subject.resolve(
        failure("test/bytes.test.js:7", "test/bytes.test.js:7"), str(tmp_path)
    )
    assert (parses["at"], parses["checks"]) == (
        "lib/parse.mjs:1",
        "parse, asserted at test/bytes.test.js:7",
    )
