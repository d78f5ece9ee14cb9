"""What the plugin directory and a marketplace read: the licence, the manifest's listing fields, the
icon the project draws itself (.claude-plugin/draw_icon.py) and .claude-plugin/marketplace.json.
(`claude plugin validate` itself runs in tests/e2e/test_marketplace.py.)"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import tomllib
import zlib
from pathlib import Path

from sidekit_hooks import __version__
from testing.hooks import REPO

PLUGIN = REPO / ".claude-plugin"


def manifest() -> dict[str, object]:
    data: dict[str, object] = json.loads((PLUGIN / "plugin.json").read_text())
    return data


def png_header(data: bytes) -> tuple[int, int, int, int]:
    """(width, height, bit depth, colour type) of a PNG's IHDR."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert (length, kind) == (13, b"IHDR")
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    return width, height, depth, colour


def test_redrawing_the_icon_gives_the_committed_bytes(tmp_path: Path) -> None:
    drawn = tmp_path / "icon.png"
    done = subprocess.run(
        [sys.executable, "-I", str(PLUGIN / "draw_icon.py"), str(drawn)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"wrote {drawn} (512x512)\n"
    assert drawn.read_bytes() == (PLUGIN / "icon.png").read_bytes()


def test_the_icon_is_what_the_plugin_directory_takes() -> None:
    """A square PNG of 512 to 2048 px under 2 MB, every chunk's CRC right, the tile's corners
    clear."""
    data = (PLUGIN / "icon.png").read_bytes()
    width, height, depth, colour = png_header(data)
    assert (width, height, depth, colour) == (512, 512, 8, 6)
    assert len(data) < 2 * 1024 * 1024
    at, idat = 8, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        body = data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        idat += body if kind == b"IDAT" else b""
        at += 12 + length
    pixels = zlib.decompress(idat)
    stride = 1 + 4 * width
    assert len(pixels) == stride * height
    assert (
        pixels[1:5] == b"\0\0\0\0"
    )  # the top-left corner is outside the rounded tile: transparent
    middle = stride * (height // 2) + 1 + 4 * 40
    assert pixels[middle + 3] == 255  # inside the tile: opaque


def test_the_licence_is_the_one_pyproject_names() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    licence = (REPO / "LICENSE").read_text()
    assert project["license"] == {"text": "MIT"}
    assert licence.startswith("MIT License\n\nCopyright (c) 2026 the sidekit-hooks authors\n")
    assert manifest()["license"] == "MIT"
    assert manifest()["author"] == {"name": "the sidekit-hooks authors"}


def test_the_manifest_declares_no_host_by_default() -> None:
    """Nothing is reached unless the user sets an OpenTelemetry endpoint (a host of their choosing
    that no manifest can name); `network.hosts` takes concrete hosts only, so the list is empty."""
    assert manifest()["network"] == {"hosts": []}
    assert "otel_endpoint" in manifest()["userConfig"]  # type: ignore[operator]


def test_the_marketplace_lists_this_folder_as_the_plugin() -> None:
    market = json.loads((PLUGIN / "marketplace.json").read_text())
    assert market["name"] == "sidekit"
    assert market["owner"] == {"name": "the sidekit-hooks authors"}
    [entry] = market["plugins"]
    assert entry["name"] == manifest()["name"] == "sidekit-hooks"
    assert entry["source"] == "./"
    assert entry["version"] == manifest()["version"] == __version__
    assert entry["description"] == manifest()["description"]
    assert entry["license"] == manifest()["license"]
