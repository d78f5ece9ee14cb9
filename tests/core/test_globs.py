"""gitignore-style globs without `re`: one meaning for scope globs and rule-pack
`paths`/`exclude`."""

from __future__ import annotations

import pytest

from sidekit_hooks.core.globs import (
    could_contain,
    covering,
    covers,
    match_name,
    matches,
    matches_any,
    problem,
    selected_by,
)


@pytest.mark.parametrize(
    ("glob", "path", "expected"),
    [
        # no slash (other than a trailing one): a name at any depth
        ("*.py", "a/b/c.py", True),
        ("*.py", "c.py", True),
        ("*.py", "c.pyx", False),
        ("*.md", "docs/deep/readme.md", True),
        ("file?.md", "docs/file1.md", True),
        ("file?.md", "docs/file10.md", False),
        ("[!a]*.py", "b.py", True),
        ("[!a]*.py", "a.py", False),
        # a leading or inner slash anchors at the project root
        ("/README.md", "README.md", True),
        ("/README.md", "docs/README.md", False),
        ("/setup.py", "setup.py", True),
        ("/setup.py", "pkg/setup.py", False),
        ("api/**/*.py", "src/api/x.py", False),
        ("api/*.py", "api/users.py", True),
        ("api/*.py", "api/v1/users.py", False),  # `*` stays inside a segment
        ("a/*.py", "a/b/c.py", False),
        ("src/[ab]*.py", "src/alpha.py", True),
        ("src/[!ab]*.py", "src/alpha.py", False),
        ("src/[^ab]*.py", "src/gamma.py", True),
        ("src/v?.py", "src/v1.py", True),
        ("src/[a-c]x.py", "src/bx.py", True),
        ("src/[a-c]x.py", "src/dx.py", False),
        # `**` spans zero or more folders
        ("api/**/*.py", "api/x.py", True),
        ("api/**/*.py", "api/v1/x.py", True),
        ("api/**/test_*.py", "api/test_a.py", True),
        ("api/**/test_*.py", "api/x/y/test_a.py", True),
        ("**/x.py", "x.py", True),
        ("**", "anything/at/all", True),
        ("a**b.py", "axxb.py", True),  # `**` inside a segment is a plain `*`
        ("a**b.py", "a/b.py", False),
        # a glob that matches a folder matches everything inside it
        ("tests", "tests/unit/test_a.py", True),
        ("api/handlers", "api/handlers/user.py", True),
        ("api/handlers/", "api/handlers/user.py", True),
        ("build/", "build/x.o", True),
        ("build/", "a/build/x.o", True),
        ("build/", "build", False),  # a trailing slash matches folders only; `build` here is a file
        # dir/** is everything inside dir, not dir itself
        ("tests/**", "tests/a/b.py", True),
        ("tests/**", "tests", False),
        ("api/handlers/**", "api/handlers/user.py", True),
        ("api/handlers/**", "api/handlers/v2/deep/x.py", True),
        ("api/handlers/**", "api/handlerz/user.py", False),
        # `\` escapes; an unclosed class, `./` and `//` never match (problem() says why)
        (r"\*.md", "*.md", True),
        (r"\*.md", "a.md", False),
        (r"docs/\[draft\].md", "docs/[draft].md", True),
        ("src/[ab.py", "src/[ab.py", False),
        ("./api/*.py", "api/x.py", False),
        ("api//x.py", "api/x.py", False),
    ],
)
def test_matches_like_gitignore(glob: str, path: str, expected: bool) -> None:
    assert matches(glob, path) is expected


@pytest.mark.parametrize(
    ("glob", "directory", "expected"),
    [
        ("build/", "build", True),
        ("build/", "src/build", True),
        ("build", "build", True),
        ("tests/**", "tests", False),
        ("tests/**", "tests/unit", True),
        ("*.py", "pkg.py", True),  # a folder whose name matches is selected too, as in gitignore
    ],
)
def test_matches_a_folder(glob: str, directory: str, expected: bool) -> None:
    assert matches(glob, directory, is_dir=True) is expected


@pytest.mark.parametrize(
    ("glob", "directory", "expected"),
    [
        ("auth/**", "auth", True),
        ("auth/*", "auth", True),  # every name in auth, and so everything below it
        ("auth/**/*", "auth", True),
        ("auth/*/*", "auth", False),  # auth/x.py is not selected
        ("auth/*/**", "auth", False),
        ("auth/", "auth", True),
        ("auth", "auth/sub", True),
        ("*", "anything", True),
        ("auth/*/", "auth", False),  # folders inside auth, not the files directly in it
        ("auth/*.py", "auth", False),
        ("auth/**/*.py", "auth", False),
        ("**/.sidekit/**", ".sidekit", True),
        ("**/.sidekit/**", "pkg/.sidekit/log", True),
        ("api/**", "auth", False),
    ],
)
def test_covers_means_every_path_inside_is_selected(
    glob: str, directory: str, expected: bool
) -> None:
    assert covers(glob, directory) is expected


@pytest.mark.parametrize(
    ("glob", "directory", "expected"),
    [
        ("api/handlers/**", "api", True),
        ("api/handlers/**", "api/handlers/v2", True),
        ("api/handlers/**", "auth", False),
        ("api/handlers/*.py", "api/handlers/v2", False),
        ("api/handlers", "api/handlers/v2", True),
        ("*.py", "anywhere", True),
        ("/api/x.py", "src", False),
    ],
)
def test_could_contain(glob: str, directory: str, expected: bool) -> None:
    assert could_contain(glob, directory) is expected


def test_last_matching_glob_decides_and_bang_reincludes() -> None:
    globs = ["**/*.py", "!tests/**", "tests/conftest.py"]
    assert [
        matches_any(globs, p)
        for p in ("src/a.py", "tests/test_a.py", "tests/conftest.py", "README.md")
    ] == [
        True,
        False,
        True,
        False,
    ]
    assert [
        selected_by(globs, p) for p in ("src/a.py", "tests/test_a.py", "tests/conftest.py")
    ] == [
        "**/*.py",
        "",
        "tests/conftest.py",
    ]


def test_a_folder_is_covered_unless_a_later_bang_may_reinclude_something_in_it() -> None:
    assert covering(["auth/**"], "auth") == "auth/**"
    assert covering(["auth/**", "!auth/public/**"], "auth") == ""
    assert covering(["auth/**", "!auth/public/**"], "auth/private") == "auth/**"
    assert covering(["auth/*.py"], "auth") == ""


@pytest.mark.parametrize(
    ("glob", "why"),
    [
        ("", "an empty glob matches nothing"),
        ("!", "an empty glob matches nothing"),
        ("../shared/*.py", "project-relative paths hold no . or .. segments"),
        ("./api/*.py", "project-relative paths hold no . or .. segments"),
        ("api\\v1\\*.py", "paths are /-separated; a backslash here never matches"),
        ("api//x.py", "an empty segment (//) never matches"),
        ("src/[ab.py", "the character class in '[ab.py' is not closed with ]"),
        ("[x", "the character class in '[x' is not closed with ]"),
        ("api/**/*.py", ""),
        ("!tests/**", ""),
        (r"docs/\[draft\].md", ""),
    ],
)
def test_problem_says_why_a_glob_cannot_match(glob: str, why: str) -> None:
    assert problem(glob) == why


@pytest.mark.parametrize(
    ("pattern", "name", "expected"),
    [
        ("a*b*c", "axxbyyc", True),
        ("a*b*c", "axxbyy", False),
        ("[a-c]x", "bx", True),
        ("[a-c]x", "dx", False),
        ("[]]x", "]x", True),
        ("[!]]x", "ax", True),
        (r"[\]]x", "]x", True),
        ("[x", "[x", False),
        ("*", "", True),
        ("\\*", "*", True),
        ("\\*", "a", False),
        ("mcp__github__*", "mcp__github__create_issue", True),
        ("mcp__github__*", "mcp__gitlab__x", False),
        ("Edit", "Edit", True),
        ("Edit", "Editor", False),
    ],
)
def test_match_name(pattern: str, name: str, expected: bool) -> None:
    assert match_name(pattern, name) is expected


GRID_GLOBS = [
    "a",
    "a/",
    "/a",
    "*",
    "*/",
    "a/*",
    "a/*/*",
    "a/**",
    "a/**/*",
    "a/**/b",
    "**/b",
    "b/",
    "*.py",
    "a/*.py",
    "/*/*/**",
    "[ab]/**",
    "**",
    "a/?",
    "**/*/",
    "*/**",
]
GRID_PATHS = ["a", "b", "a/b", "a/x.py", "b/a", "a/b/c", "c/b/x.py", "a/a/a/b"]
CHILDREN = ["q", "x.py", "b", "q/r", "b/c"]


@pytest.mark.parametrize("glob", GRID_GLOBS)
def test_folder_answers_agree_with_the_paths_inside(glob: str) -> None:
    for directory in GRID_PATHS:
        inside = [matches(glob, f"{directory}/{child}") for child in CHILDREN]
        if covers(glob, directory):
            assert all(inside), (glob, directory)
        if any(inside):
            assert could_contain(glob, directory), (glob, directory)
        if glob.endswith(
            "/"
        ):  # a folders-only glob selects a folder exactly when it selects what is inside
            assert matches(glob, directory, is_dir=True) is matches(glob, f"{directory}/q"), (
                glob,
                directory,
            )
