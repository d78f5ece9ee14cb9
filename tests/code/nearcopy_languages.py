"""Format of the per-language held-out near-copy sets (#34, #35): nearcopy_heldout_ts.py, _js.py,
_go.py, _rust.py and _java.py. Written by a helper who never read the matcher, its rewrites or its
vetoes, and committed before any rule change: measure them, never tune on them.

The format extends the Python sets' (nearcopies.Case) as follows. Each set module defines:

- `LANGUAGE`: the code index's language key (ts | js | go | rust | java) and `SUFFIX`, the extension of the
  file the added function is written to (".ts", ".js", ".go", ".rs", ".java").
- `PROJECTS`: label -> realprojects.Project (registry, pinned coordinate, the folder kept,
  suffixes), fetched with realprojects.sources() like the code index's real projects; `Case.package`
  is such a label. None of them is in realprojects.TUNING or HELD_OUT, in the runners' tests or in
  the session corpus.
- `COPIES` and `NEAR_MISSES`, lists of nearcopies.Case: `helper` is the name of the project function
  the added one copies (a rewrite: same behaviour), "" for a near miss (looks alike, behaves
  otherwise). `why` says "<path in the project>: <how it was rewritten>" for a copy, "like <helper>
  (<path>): <how it differs>" for a near miss.
- `HELDOUT_<LANG>` = COPIES + NEAR_MISSES.

`Case.name` parses Python only: use `name_of(case, language)` here. `Case.source` is one function
declaration in the language (TS/JS `function`, Go `func` with or without a receiver, Rust `fn`, Java
one method with its modifiers); `as_file(case, language, package)` is the text of a whole file
holding it (a Go package clause, a Java class around the method), ready to write next to the
project's sources as the added file, e.g. `added/nearcopy<SUFFIX>` (Go: in the project's package
folder; Java: any folder).
"""

from __future__ import annotations

import re
import textwrap

from nearcopies import Case

NAME = {
    "ts": re.compile(r"\bfunction\s+([A-Za-z_$][\w$]*)"),
    "js": re.compile(r"\bfunction\s+([A-Za-z_$][\w$]*)"),
    "go": re.compile(r"^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)", re.M),
    "rust": re.compile(r"\bfn\s+([A-Za-z_]\w*)"),
    "java": re.compile(
        r"([A-Za-z_]\w*)\s*\("
    ),  # the first name before "(": the method's (no annotations)
}


def name_of(case: Case, language: str) -> str:
    """The name of the function the case adds."""
    found = NAME[language].search(case.source)
    assert found is not None, case.source
    return found.group(1)


def as_file(case: Case, language: str, package: str = "") -> str:
    """The added function as a whole source file of the language."""
    body = textwrap.dedent(case.source).strip() + "\n"
    if language == "go":
        return f"package {package}\n\n{body}"
    if language == "java":
        head = f"package {package};\n\n" if package else ""
        return head + "class NearCopyAdded {\n" + textwrap.indent(body, "    ") + "}\n"
    return body
