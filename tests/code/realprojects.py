"""Real projects in every language the code index reads, fetched at test time from their registries
with each ecosystem's own client, cached in tests/code/.cache (ignored by git), laid out as git
repositories and indexed like any workspace. Used by tests/code/test_languages_real_projects.py,
tests/rules/test_conventions_real_projects.py (conventions learned on each) and
the bench row in bench/rows_code.py. The lists are recorded in docs/code-index.md.

TUNING: what the extractors were checked and corrected against. HELD_OUT: run once the extractors
were final, never used to change them.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache" / "languages"
GIT = [
    "git",
    "-c",
    "user.email=t@example.invalid",
    "-c",
    "user.name=t",
    "-c",
    "commit.gpgsign=false",
]
FETCH_TIMEOUT = 600  # seconds, one registry client


@dataclass(frozen=True)
class Project:
    language: str  # ts | js | go | rust | java
    registry: str  # npm | go | cargo | maven
    coordinate: str  # rxjs@7.8.1, github.com/spf13/cast@v1.7.0, semver@1.0.23, G:A:V
    keep: str  # the folder (inside the package) whose sources are laid out; "" for all
    suffixes: tuple[str, ...]

    @property
    def key(self) -> str:
        return f"{self.language}-" + "".join(
            c if c.isalnum() or c in ".-" else "_" for c in self.coordinate
        )


TUNING = [
    Project("ts", "npm", "rxjs@7.8.1", "src", (".ts",)),
    # Held out at first, measured once (usages recall 0.940), then looked into: tuning from then on.
    Project("ts", "npm", "@tanstack/query-core@5.59.0", "src", (".ts",)),
    Project("js", "npm", "axios@1.7.7", "lib", (".js",)),
    Project("go", "go", "github.com/spf13/cast@v1.7.0", "", (".go",)),
    Project("go", "go", "github.com/spf13/cobra@v1.8.1", "", (".go",)),
    Project("rust", "cargo", "semver@1.0.23", "", (".rs",)),
    Project("java", "maven", "com.google.code.gson:gson:2.11.0", "", (".java",)),
]
HELD_OUT = [
    Project("ts", "npm", "@trpc/server@10.45.2", "src", (".ts",)),
    Project("js", "npm", "express@4.21.1", "", (".js",)),
    Project("go", "go", "github.com/google/uuid@v1.6.0", "", (".go",)),
    Project("rust", "cargo", "anyhow@1.0.86", "", (".rs",)),
    Project("java", "maven", "org.apache.commons:commons-lang3:3.14.0", "", (".java",)),
]


def run(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        argv,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=FETCH_TIMEOUT,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(argv)} failed: {(done.stderr or done.stdout).strip()[-400:]}"
        )
    return done.stdout


def sources(project: Project) -> dict[str, bytes]:
    """Relative path -> bytes of the project's source files, from the registry (cached)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    fetch = {"npm": _npm, "go": _go, "cargo": _cargo, "maven": _maven}[project.registry]
    files = fetch(project)
    prefix = project.keep + "/" if project.keep else ""
    return {
        path: data
        for path, data in files.items()
        if path.startswith(prefix)
        and path.endswith(project.suffixes)
        and not path.endswith(".d.ts")
    }


def _npm(project: Project) -> dict[str, bytes]:
    folder = CACHE / "npm"
    folder.mkdir(exist_ok=True)
    name, _, version = project.coordinate.rpartition("@")
    tarball = folder / f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"
    if not tarball.exists():
        run(
            ["npm", "pack", project.coordinate, "--silent", "--pack-destination", str(folder)],
            folder,
        )
    found: dict[str, bytes] = {}
    with tarfile.open(tarball) as archive:
        for member in archive.getmembers():
            handle = archive.extractfile(member) if member.isfile() else None
            if handle is not None and member.name.startswith("package/"):
                found[member.name[len("package/") :]] = handle.read()
    return found


def _go(project: Project) -> dict[str, bytes]:
    modcache = CACHE / "gomod"
    import json

    out = run(
        ["go", "mod", "download", "-json", project.coordinate],
        CACHE,
        {"GOMODCACHE": str(modcache), "GOFLAGS": "-mod=mod", "GO111MODULE": "on"},
    )
    return _read_tree(Path(json.loads(out)["Dir"]))


def _cargo(project: Project) -> dict[str, bytes]:
    name, _, version = project.coordinate.partition("@")
    scratch = CACHE / "cargo" / f"scratch-{name}-{version}"
    vendor = CACHE / "cargo" / f"vendor-{name}-{version}"
    if not (vendor / name).is_dir():
        (scratch / "src").mkdir(parents=True, exist_ok=True)
        (scratch / "src" / "lib.rs").write_text("")
        (scratch / "Cargo.toml").write_text(
            f'[package]\nname = "scratch"\nversion = "0.0.0"\nedition = "2021"\n\n'
            f'[dependencies]\n{name} = "={version}"\n\n[workspace]\n'
        )
        run(["cargo", "vendor", "--quiet", "--versioned-dirs", str(vendor)], scratch)
        for versioned in vendor.iterdir():  # (--versioned-dirs: `semver-1.0.23`; one name here)
            if versioned.name == f"{name}-{version}":
                versioned.rename(vendor / name)
    return _read_tree(vendor / name)


def _maven(project: Project) -> dict[str, bytes]:
    folder = CACHE / "maven"
    folder.mkdir(exist_ok=True)
    group, artifact, version = project.coordinate.split(":")
    jar = folder / f"{artifact}-{version}-sources.jar"
    if not jar.exists():
        run(
            [
                "mvn",
                "-q",
                "-B",
                "dependency:copy",
                f"-Dartifact={project.coordinate}:jar:sources",
                f"-DoutputDirectory={folder}",
            ],
            folder,
        )
    with zipfile.ZipFile(jar) as archive:
        return {name: archive.read(name) for name in archive.namelist() if not name.endswith("/")}


def _read_tree(root: Path) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in names:
            path = Path(folder) / name
            found[path.relative_to(root).as_posix()] = path.read_bytes()
    return found


def laid_out(project: Project) -> Path:
    """The project as a git repository of its sources (made once, then reused with its index)."""
    root = CACHE / "projects" / project.key
    if (root / ".git").is_dir():
        return root
    if root.exists():
        shutil.rmtree(root, onerror=_writable)
    files = sources(project)
    for path, data in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    (root / ".gitignore").write_text(".sidekit/\n")
    run([*GIT, "init", "-q"], root)
    run([*GIT, "add", "-A"], root)
    run([*GIT, "commit", "-qm", project.coordinate], root)
    return root


def _writable(function: object, path: str, excinfo: object) -> None:
    os.chmod(path, stat.S_IWRITE | stat.S_IREAD | stat.S_IEXEC)
    os.unlink(path) if os.path.isfile(path) else shutil.rmtree(path)
