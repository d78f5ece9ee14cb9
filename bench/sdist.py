"""Source distributions the bench sections measure on: `pip download` of an sdist, then its archive
unpacked.

One helper for the sections that fetch real projects (code, hookscale, indexscale, rawpytest).
"""

from __future__ import annotations

import glob
import os
import re
import subprocess
import tarfile


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def download(python: str, spec: str, folder: str, timeout: float = 600) -> list[str]:
    """`pip download` the sdist of `spec` (`name==version` or `name`) into `folder`; returns its
    archives there (a folder may hold other projects' archives too)."""
    argv = [python, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:"]
    done = subprocess.run(
        [*argv, "--disable-pip-version-check", spec, "-d", folder],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    prefix = _normal(spec.split("==")[0]) + "_"
    archives = sorted(
        a
        for a in glob.glob(os.path.join(folder, "*.tar.gz"))
        if _normal(os.path.basename(a)).startswith(prefix)
    )
    if done.returncode or not archives:
        raise RuntimeError((done.stderr.strip().splitlines() or ["pip download failed"])[-1][:120])
    return archives


def unpack(archive: str, into: str) -> str:
    """The archive extracted (data filter: no links out, no devices) under `into`; returns the
    project folder."""
    with tarfile.open(archive) as handle:
        handle.extractall(into, filter="data")
    return os.path.join(into, os.path.basename(archive)[: -len(".tar.gz")])


def fetch(python: str, spec: str, work: str, timeout: float = 600) -> str:
    """The sdist downloaded under `work/sdists/<name>` and unpacked in `work`; returns the project
    folder."""
    folder = os.path.join(work, "sdists", spec.split("==")[0])
    return unpack(download(python, spec, folder, timeout)[0], work)
