"""What the tools sidecar's shell checks are run against: a small Python project whose names the AST
index knows (`catalog_project`), and the lines the checks find in a command there (`found_in`)."""

from __future__ import annotations

from pathlib import Path

APP_TEXT = """def slugify(value, strikethrough=False):
    return value


def make_slug(value):
    return slugify(value)


def parse_duration(text):
    return float(text)


class UserStore:
    pass
"""


def catalog_project(project: Path, index: bool = True) -> Path:
    """`app/text.py` defines slugify, make_slug, parse_duration and UserStore; with `index`, the AST
    index that `sidekit usages` answers from is built."""
    from sidekit_hooks.code.index import Index

    (project / "pyproject.toml").write_text("[project]\nname = 'app'\n")
    (project / "app").mkdir()
    (project / "app" / "text.py").write_text(APP_TEXT)
    if index:
        with Index.open(str(project)):
            pass
    return project


def found_in(command: str, project: Path, session: str = "s1") -> list[str]:
    """The nudge lines the shell checks find in `command`."""
    from sidekit_hooks.detectors import tools

    return [f.text() for f in tools.shell_findings(command, str(project), session)]
