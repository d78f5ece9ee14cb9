"""Measure a repository's conventions with `ast` and turn the ones it keeps into a rule pack.

Each measure counts how many cases follow a convention (function names in snake_case, no bare
`except:`, absolute imports...). A convention followed in at least THRESHOLD of at least its minimum
number of cases becomes one rule for the conventions sidecar: regex conditions over the text a call
adds (`added`, `paths`, `exclude`), the figures in `[rules.metadata]`, and `[[rules.examples]]` so
`sidekit rules test` checks the rule. Not on the hook path: `sidekit conventions learn` runs it.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from typing import Any

from sidekit_hooks.code.function_index import python_files
from sidekit_hooks.code.functions import MAX_FILE_BYTES
from sidekit_hooks.code.testfiles import is_test_path
from sidekit_hooks.core import safepath

THRESHOLD = 0.9
MIN_CASES = 10  # code-level counts (functions, handlers, imports)
MIN_FILES = 5  # file-level counts (test files, library modules)
TOOLS = ["Edit", "Write"]
NOT_LIBRARY_DIRS = frozenset(
    {"tests", "test", "scripts", "examples", "example", "docs", "bench", "benchmarks", "tools"}
)
FRAMEWORK_CAMEL = (
    "setUp",
    "tearDown",
    "setUpClass",
    "tearDownClass",
    "asyncSetUp",
    "asyncTearDown",
    "setUpModule",
    "tearDownModule",
)
TEST_LAYOUTS = (
    "tests/**/test_*.py",
    "test/**/test_*.py",
    "**/tests/**/test_*.py",
    "**/test_*.py",
    "**/*_test.py",
)

DEF = r"^[ \t]*(?:async[ \t]+)?def[ \t]+"


@dataclass
class Module:
    path: str  # project-relative, "/"-separated
    tree: ast.Module
    is_test: bool
    is_library: bool


@dataclass
class Rule:
    """One learned convention, ready to be written as a `[[rules]]` entry."""

    id: str
    convention: str
    message: str
    followed: int
    total: int
    added: str
    paths: list[str]
    examples: list[dict[str, Any]]
    exclude: list[str] = field(default_factory=list)
    # "go", "ts": the language the rule is about (its paths select that language's files)
    language: str = ""

    @property
    def prevalence(self) -> float:
        return self.followed / self.total if self.total else 0.0

    def to_toml(self) -> dict[str, Any]:
        when: dict[str, Any] = {"tools": TOOLS, "paths": self.paths}
        if self.exclude:
            when["exclude"] = self.exclude
        when["added"] = self.added
        return {
            "id": self.id,
            "sidecar": "conventions",
            "message": self.message,
            "severity": "medium",  # the policy's default floor: a kept convention is worth saying
            "when": when,
            "metadata": {
                "convention": self.convention,
                "followed": self.followed,
                "total": self.total,
                "prevalence": round(self.prevalence, 3),
                "threshold": THRESHOLD,
                "learned_by": "sidekit conventions learn",
                **({"language": self.language} if self.language else {}),
            },
            "examples": self.examples,
        }


@dataclass
class Measure:
    """A convention's figures, kept or not (the command reports both)."""

    id: str
    convention: str
    followed: int
    total: int
    minimum: int

    @property
    def prevalence(self) -> float:
        return self.followed / self.total if self.total else 0.0

    @property
    def kept(self) -> bool:
        return self.total >= self.minimum and self.prevalence >= THRESHOLD


# ---------------------------------------------------------------------------------------------


def load_modules(project: str) -> list[Module]:
    modules: list[Module] = []
    for rel in python_files(project):
        source = safepath.read_project_file(
            project, rel, MAX_FILE_BYTES
        )  # no FIFO, no link out, bounded
        if source is None:
            continue
        try:
            tree = ast.parse(source.decode("utf-8", "replace"))
        except (SyntaxError, ValueError):
            continue
        test = is_test_path(rel)
        modules.append(Module(rel, tree, test, not test and is_library(rel, tree)))
    return modules


def is_library(rel: str, tree: ast.Module) -> bool:
    """Importable code: not a script, an example, a benchmark, a setup file or a `__main__`."""
    parts = rel.split("/")
    if parts[-1] in ("setup.py", "__main__.py", "conftest.py", "noxfile.py") or len(parts) == 1:
        return False
    if any(p in NOT_LIBRARY_DIRS for p in parts[:-1]):
        return False
    return not any(is_main_guard(node) for node in tree.body)


def is_main_guard(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
    )


def functions_of(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def is_snake(name: str) -> bool:
    core = name.lstrip("_")
    return bool(core) and core[0].isalpha() and core == core.lower()


def is_capwords(name: str) -> bool:
    core = name.lstrip("_")
    return bool(core) and core[0].isupper() and "_" not in core


def project_packages(project: str) -> list[str]:
    """Top-level import packages of the project: `pkg/__init__.py` or `src/pkg/__init__.py`."""
    found: list[str] = []
    for base in (project, os.path.join(project, "src")):
        try:
            names = sorted(os.listdir(base))
        except OSError:
            continue
        for name in names:
            if (
                name.isidentifier()
                and os.path.isfile(os.path.join(base, name, "__init__.py"))
                and name not in ("tests", "test")
            ):
                found.append(name)
    return found


def package_dir(project: str, package: str) -> str:
    return package if os.path.isdir(os.path.join(project, package)) else f"src/{package}"


# ---------------------------------------------------------------------------------------------


def learn(project: str) -> tuple[list[Rule], list[Measure]]:
    """Every measure, and the rules for the conventions the repo keeps."""
    modules = load_modules(project)
    packages = project_packages(project)
    lib_example = (
        f"{package_dir(project, packages[0])}/new_module.py" if packages else "pkg/new_module.py"
    )
    rules: list[Rule] = []
    measures: list[Measure] = []
    for learner in (
        function_names,
        class_names,
        test_names,
        test_layout,
        test_style,
        print_in_library,
        bare_except,
        import_style,
        type_hints,
    ):
        for measure, rule in learner(modules, packages, lib_example, project):
            measures.append(measure)
            if measure.kept and rule is not None:
                rules.append(rule)
    return rules, measures


Learned = list[tuple[Measure, Rule | None]]


TESTCASE_EXAMPLE = "import unittest\n\nclass LoginTest(unittest.TestCase):\n    def test_ok(self):\n        self.assertTrue(True)\n"


def write_example(fires: bool, path: str, content: str) -> dict[str, Any]:
    """One of a rule's examples: whether it fires on a Write of `content` to `path`."""
    return {"fires": fires, "tool": "Write", "path": path, "content": content}


def rule_of(measure: Measure, message: str, **fields: Any) -> Rule:
    """The rule a measure learned: its id, convention and figures, with the message and what it
    matches."""
    return Rule(measure.id, measure.convention, message, measure.followed, measure.total, **fields)


def fires_then_not(path: str, fires: str, quiet: str) -> list[dict[str, Any]]:
    """A rule's usual two examples: a Write it fires on, then one it lets pass."""
    return [write_example(True, path, fires), write_example(False, path, quiet)]


def figures(followed: int, total: int) -> str:
    return f"{followed} of {total}, {100 * followed // total}%" if total else "none"


def function_names(
    modules: list[Module], packages: list[str], lib_example: str, project: str
) -> Learned:
    names = [
        f.name
        for m in modules
        for f in functions_of(m.tree)
        if not (f.name.startswith("__") and f.name.endswith("__"))
        and f.name not in FRAMEWORK_CAMEL
        and not f.name.startswith(("visit_", "depart_"))
    ]
    followed = sum(1 for n in names if is_snake(n))
    measure = Measure(
        "conventions.function-names", "snake_case function names", followed, len(names), MIN_CASES
    )
    skip = "|".join(FRAMEWORK_CAMEL)
    rule = rule_of(
        measure,
        f"Functions here are snake_case ({figures(followed, len(names))}); name the new def in "
        "snake_case.",
        # tests: test-names
        added=rf"(?m){DEF}(?!(?:{skip})\b|test)_*[a-z][a-z0-9]*[A-Z]\w*[ \t]*\(",
        paths=["**/*.py"],
        examples=fires_then_not(
            lib_example,
            "def fetchUser(user_id):\n    return None\n",
            "def fetch_user(user_id):\n    return None\n",
        ),
    )
    return [(measure, rule)]


def class_names(
    modules: list[Module], packages: list[str], lib_example: str, project: str
) -> Learned:
    names = [n.name for m in modules for n in ast.walk(m.tree) if isinstance(n, ast.ClassDef)]
    followed = sum(1 for n in names if is_capwords(n))
    measure = Measure(
        "conventions.class-names", "CapWords class names", followed, len(names), MIN_CASES
    )
    rule = rule_of(
        measure,
        f"Classes here are CapWords ({figures(followed, len(names))}); name the new class in "
        "CapWords.",
        added=r"(?m)^[ \t]*class[ \t]+(?!_*[A-Z][A-Za-z0-9]*[ \t]*[(:])\w+[ \t]*[(:]",
        paths=["**/*.py"],
        examples=fires_then_not(
            lib_example, "class user_store:\n    pass\n", "class UserStore:\n    pass\n"
        ),
    )
    return [(measure, rule)]


def test_files(modules: list[Module]) -> list[Module]:
    return [
        m
        for m in modules
        if m.is_test
        and (m.path.rsplit("/", 1)[-1].startswith("test_") or m.path.endswith("_test.py"))
    ]


def test_globs(layout: str | None) -> list[str]:
    return [layout] if layout else ["**/test_*.py", "**/*_test.py"]


def dominant_layout(files: list[Module]) -> tuple[str | None, int]:
    from sidekit_hooks.core.globs import matches

    best: tuple[str | None, int] = (None, 0)
    for layout in TEST_LAYOUTS:  # most specific first: the first one the repo keeps wins
        count = sum(1 for m in files if matches(layout, m.path))
        if files and count / len(files) >= THRESHOLD:
            return layout, count
        if count > best[1]:
            best = (layout, count)
    return best


def test_names(
    modules: list[Module], packages: list[str], lib_example: str, project: str
) -> Learned:
    files = test_files(modules)
    names = [f.name for m in files for f in functions_of(m.tree) if f.name.startswith("test")]
    followed = sum(1 for n in names if n.startswith("test_") and n == n.lower())
    measure = Measure(
        "conventions.test-names", "test_snake_case test names", followed, len(names), MIN_CASES
    )
    layout, _ = dominant_layout(files)
    example = test_example_path(layout)
    rule = rule_of(
        measure,
        f"Tests here are named test_snake_case ({figures(followed, len(names))}); rename the new "
        "test.",
        added=rf"(?m){DEF}test(?!_[a-z0-9_]*[ \t]*\()\w*[ \t]*\(",
        paths=test_globs(layout),
        examples=fires_then_not(
            example,
            "def testLoginWorks():\n    assert True\n",
            "def test_login_works():\n    assert True\n",
        ),
    )
    return [(measure, rule)]


def test_example_path(layout: str | None) -> str:
    if layout == "**/*_test.py":
        return "login_example_test.py"
    if layout is None or layout.startswith("**/"):
        return "pkg/tests/test_example.py" if layout and "tests/" in layout else "test_example.py"
    return layout.split("/", 1)[0] + "/test_example.py"


def test_layout(
    modules: list[Module], packages: list[str], lib_example: str, project: str
) -> Learned:
    files = test_files(modules)
    layout, followed = dominant_layout(files)
    where = {
        "tests/**/test_*.py": "in tests/ as test_*.py",
        "test/**/test_*.py": "in test/ as test_*.py",
        "**/tests/**/test_*.py": "in tests/ folders as test_*.py",
        "**/test_*.py": "in test_*.py files",
        "**/*_test.py": "in *_test.py files",
    }.get(layout or "", "")
    measure = Measure(
        "conventions.test-layout", f"test files {where}".strip(), followed, len(files), MIN_FILES
    )
    if layout is None:
        return [(measure, None)]
    stray = "app/login_test.py" if layout != "**/*_test.py" else "tests/test_login.py"
    rule = rule_of(
        measure,
        f"Test files here live {where} ({figures(followed, len(files))}); put the new tests there.",
        added=rf"(?m){DEF}test",
        paths=["**/test_*.py", "**/*_test.py"],
        exclude=[layout],
        examples=[
            write_example(True, stray, "def test_login():\n    assert True\n"),
            write_example(False, test_example_path(layout), "def test_login():\n    assert True\n"),
        ],
    )
    return [(measure, rule)]


def uses_testcase(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                name = (
                    base.attr
                    if isinstance(base, ast.Attribute)
                    else base.id
                    if isinstance(base, ast.Name)
                    else ""
                )
                if name.endswith("TestCase"):
                    return True
    return False


def test_style(
    modules: list[Module], packages: list[str], lib_example: str, project: str
) -> Learned:
    files = test_files(modules)
    unittest_files = sum(1 for m in files if uses_testcase(m.tree))
    layout, _ = dominant_layout(files)
    example = test_example_path(layout)
    pytest_style = Measure(
        "conventions.pytest-style",
        "plain pytest test functions, no unittest.TestCase",
        len(files) - unittest_files,
        len(files),
        MIN_FILES,
    )
    unittest_style = Measure(
        "conventions.unittest-style",
        "unittest.TestCase classes",
        unittest_files,
        len(files),
        MIN_FILES,
    )
    pytest_rule = rule_of(
        pytest_style,
        f"Tests here are plain pytest functions ({figures(pytest_style.followed, len(files))} "
        "files); "
        "write test_ functions with assert, not a unittest.TestCase.",
        added=r"(?m)^[ \t]*class[ \t]+\w+[ \t]*\([^)]*TestCase\b",
        paths=test_globs(layout),
        examples=fires_then_not(example, TESTCASE_EXAMPLE, "def test_ok():\n    assert True\n"),
    )
    unittest_rule = rule_of(
        unittest_style,
        f"Tests here are unittest.TestCase classes ({figures(unittest_files, len(files))} files); "
        "put the new test in a TestCase method.",
        added=r"(?m)^(?:async[ \t]+)?def[ \t]+test",
        paths=test_globs(layout),
        examples=fires_then_not(example, "def test_ok():\n    assert True\n", TESTCASE_EXAMPLE),
    )
    return [(pytest_style, pytest_rule), (unittest_style, unittest_rule)]


def calls_print(tree: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print"
        for n in ast.walk(tree)
    )


def uses_logging(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name == "logging" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.module == "logging":
            return True
    return False


def library_paths(packages: list[str], project: str) -> list[str]:
    return [f"{package_dir(project, p)}/**/*.py" for p in packages] or ["**/*.py"]


NOT_LIBRARY_GLOBS = [
    "**/tests/**",
    "**/test/**",
    "**/test_*.py",
    "**/*_test.py",
    "**/__main__.py",
    "**/conftest.py",
    "scripts/**",
    "examples/**",
    "docs/**",
    "bench/**",
    "benchmarks/**",
    "setup.py",
]


def print_in_library(
    modules: list[Module], packages: list[str], lib_example: str, project: str
) -> Learned:
    library = [m for m in modules if m.is_library]
    printing = sorted(m.path for m in library if calls_print(m.tree))
    followed = len(library) - len(printing)
    logs = any(uses_logging(m.tree) for m in library)
    measure = Measure(
        "conventions.no-print-in-library",
        "library code logs, no print()" if logs else "library code does not print",
        followed,
        len(library),
        MIN_FILES,
    )
    advice = (
        "use the module's logger (logging.getLogger(__name__))"
        if logs
        else "return the value or raise instead"
    )
    rule = rule_of(
        measure,
        f"Library modules here do not print ({figures(followed, len(library))}); {advice}.",
        added=r"(?m)^[ \t]*print[ \t]*\(",
        paths=library_paths(packages, project),
        exclude=NOT_LIBRARY_GLOBS + printing,
        examples=fires_then_not(
            lib_example,
            "def load(path):\n    print('loading', path)\n",
            "def load(path):\n    return open(path).read()\n",
        ),
    )
    return [(measure, rule)]


def bare_except(
    modules: list[Module], packages: list[str], lib_example: str, project: str
) -> Learned:
    handlers = [n for m in modules for n in ast.walk(m.tree) if isinstance(n, ast.ExceptHandler)]
    followed = sum(1 for h in handlers if h.type is not None)
    measure = Measure(
        "conventions.no-bare-except", "no bare except:", followed, len(handlers), MIN_CASES
    )
    bare = len(handlers) - followed
    rule = rule_of(
        measure,
        f"No bare `except:` here ({bare} of {len(handlers)} handlers are bare); catch the "
        "specific exception.",
        added=r"(?m)^[ \t]*except[ \t]*:",
        paths=["**/*.py"],
        examples=fires_then_not(
            lib_example,
            "try:\n    go()\nexcept:\n    pass\n",
            "try:\n    go()\nexcept OSError:\n    pass\n",
        ),
    )
    return [(measure, rule)]


def import_style(
    modules: list[Module], packages: list[str], lib_example: str, project: str
) -> Learned:
    """Inside the project's packages: `from .x import y` (relative) vs `from pkg.x import y`
    (absolute)."""
    if not packages:
        return []
    inside = [
        m
        for m in modules
        if any(m.path.startswith(package_dir(project, p) + "/") for p in packages)
    ]
    relative = absolute = 0
    for module in inside:
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    relative += 1
                elif node.module and node.module.split(".")[0] in packages:
                    absolute += 1
            elif isinstance(node, ast.Import):
                absolute += sum(1 for a in node.names if a.name.split(".")[0] in packages)
    total = relative + absolute
    paths = [f"{package_dir(project, p)}/**/*.py" for p in packages]
    own = "|".join(packages)
    first = packages[0]
    abs_measure = Measure(
        "conventions.absolute-imports",
        "absolute imports inside the package",
        absolute,
        total,
        MIN_CASES,
    )
    rel_measure = Measure(
        "conventions.relative-imports",
        "relative imports inside the package",
        relative,
        total,
        MIN_CASES,
    )
    abs_rule = rule_of(
        abs_measure,
        f"Imports inside {first} are absolute ({figures(absolute, total)}); write `from "
        f"{first}.module import name`.",
        added=r"(?m)^[ \t]*from[ \t]+\.",
        paths=paths,
        examples=fires_then_not(
            lib_example, "from .models import User\n", f"from {first}.models import User\n"
        ),
    )
    rel_rule = rule_of(
        rel_measure,
        f"Imports inside {first} are relative ({figures(relative, total)}); write `from .module "
        "import name`.",
        added=rf"(?m)^[ \t]*(?:from|import)[ \t]+(?:{own})\b",
        paths=paths,
        examples=fires_then_not(
            lib_example, f"from {first}.models import User\n", "from .models import User\n"
        ),
    )
    return [(abs_measure, abs_rule), (rel_measure, rel_rule)]


def fully_annotated(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    params = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    named = [a for a in params if a.arg not in ("self", "cls")]
    return node.returns is not None and all(a.annotation is not None for a in named)


def public_functions(tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Module-level functions and methods of module-level classes whose names do not start with
    `_`."""
    found: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append(node)
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            found += [
                n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            ]
    return [f for f in found if not f.name.startswith("_")]


# A public def (single-line signature) with an unannotated parameter or no return annotation.
UNANNOTATED = (
    rf"(?m){DEF}[A-Za-z]\w*[ \t]*\((?:(?:self|cls)[ \t]*,?[ \t]*)?(?:[^)\n]*,[ \t]*)?"
    r"(?:(?!self\b|cls\b)[A-Za-z_]\w*[ \t]*(?:=[^,)\n]*)?[,)]|[^)\n]*\)[ \t]*:)"
)


def type_hints(
    modules: list[Module], packages: list[str], lib_example: str, project: str
) -> Learned:
    functions = [f for m in modules if m.is_library for f in public_functions(m.tree)]
    followed = sum(1 for f in functions if fully_annotated(f))
    measure = Measure(
        "conventions.type-hints",
        "type hints on public functions",
        followed,
        len(functions),
        MIN_CASES,
    )
    rule = rule_of(
        measure,
        f"Public functions here are fully type-hinted ({figures(followed, len(functions))}); "
        "annotate the new def's parameters and return type.",
        added=UNANNOTATED,
        paths=library_paths(packages, project),
        exclude=NOT_LIBRARY_GLOBS,
        examples=[
            write_example(True, lib_example, "def load(path):\n    return path\n"),
            write_example(True, lib_example, "def load(path: str):\n    return path\n"),
            write_example(
                False,
                lib_example,
                "def load(path: str, *, strict: bool = False) -> str:\n    return path\n",
            ),
            write_example(False, lib_example, "def _private(path):\n    return path\n"),
        ],
    )
    return [(measure, rule)]


def pack(rules: list[Rule]) -> dict[str, Any]:
    """The rule pack document (the shape docs/rule-packs.md gives) for
    `sidecar_rules/conventions.toml`."""
    return {
        "pack": {
            "name": "conventions",
            "version": "1",
            "description": (
                f"Conventions this repository follows in >= {int(THRESHOLD * 100)}% of cases, "
                "measured by `sidekit conventions learn`; re-run it to update."
            ),
        },
        "rules": [rule.to_toml() for rule in rules],
    }
