"""Draw the plugin's listing icon, `.claude-plugin/icon.png`, from nothing but the standard library.

    python3 .claude-plugin/draw_icon.py          # writes icon.png beside this script
    python3 .claude-plugin/draw_icon.py OUT.png  # writes elsewhere (the test compares the bytes)

The plugin directory wants a square PNG of 512 to 2048 px under 2 MB; SVG is refused. So the picture
is a few shapes given as signed distance functions (negative inside), each pixel's coverage taken
from its distance to the edge (one pixel of anti-aliasing), written as an RGBA PNG by `zlib` and
`struct`. No randomness and no clock: the same script gives the same bytes, which
`tests/test_plugin_icon.py` holds the committed file to.

The picture: a dark tile holding a terminal window (the agent's session, a `>` prompt and a line of
output) with a small amber badge attached at its lower right: the sidecar that speaks up.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

SIZE = 512
Colour = tuple[int, int, int]
Distance = Callable[[float, float], float]  # (x, y) -> signed distance in pixels, negative inside
Box = tuple[float, float, float, float]  # left, top, right, bottom: the shape lies within
Shape = tuple[Distance, Box]

TILE_TOP: Colour = (16, 52, 66)
TILE_BOTTOM: Colour = (10, 34, 44)
WINDOW: Colour = (236, 242, 244)
WINDOW_BAR: Colour = (180, 198, 204)
INK: Colour = (16, 52, 66)
BADGE: Colour = (245, 166, 35)
BADGE_RING: Colour = (10, 34, 44)


def rounded_box(cx: float, cy: float, half_w: float, half_h: float, radius: float) -> Shape:
    def distance(x: float, y: float) -> float:
        qx = abs(x - cx) - half_w + radius
        qy = abs(y - cy) - half_h + radius
        outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
        return outside + min(max(qx, qy), 0.0) - radius

    return distance, (cx - half_w, cy - half_h, cx + half_w, cy + half_h)


def circle(cx: float, cy: float, radius: float) -> Shape:
    return (
        lambda x, y: math.hypot(x - cx, y - cy) - radius,
        (cx - radius, cy - radius, cx + radius, cy + radius),
    )


def stroke(ax: float, ay: float, bx: float, by: float, width: float) -> Shape:
    """A line from a to b with round ends."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy

    def distance(x: float, y: float) -> float:
        t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / length2))
        return math.hypot(x - ax - t * dx, y - ay - t * dy) - width / 2

    half = width / 2
    return distance, (
        min(ax, bx) - half,
        min(ay, by) - half,
        max(ax, bx) + half,
        max(ay, by) + half,
    )


def union(*shapes: Shape) -> Shape:
    boxes = [box for _, box in shapes]
    return (
        lambda x, y: min(distance(x, y) for distance, _ in shapes),
        (
            min(box[0] for box in boxes),
            min(box[1] for box in boxes),
            max(box[2] for box in boxes),
            max(box[3] for box in boxes),
        ),
    )


def reaches(box: Box, x: float, y: float) -> bool:
    """Whether a shape within `box` can cover any of the pixel sampled at (x, y): a pixel more than
    one pixel outside it is at least that far from the shape, so its coverage is 0 (the shape's
    distance is not worth computing there)."""
    left, top, right, bottom = box
    return left - 1 <= x <= right + 1 and top - 1 <= y <= bottom + 1


def coverage(distance: float) -> float:
    return max(0.0, min(1.0, 0.5 - distance))


def blend(under: Colour, over: Colour, alpha: float) -> Colour:
    r, g, b = (round(u + (o - u) * alpha) for u, o in zip(under, over, strict=True))
    return (r, g, b)


# Painted in order, each over what is below it.
TILE = rounded_box(256, 256, 256, 256, 96)
WINDOW_BODY = rounded_box(236, 236, 172, 136, 28)
TITLE_BAR = rounded_box(236, 122, 172, 22, 22)
TITLE_BAR_EDGE = rounded_box(236, 146, 172, 2, 0)
PROMPT = union(stroke(120, 200, 168, 240, 26), stroke(168, 240, 120, 280, 26))
OUTPUT_LINE = stroke(200, 280, 300, 280, 24)
BADGE_EDGE = circle(392, 376, 86)
BADGE_DISC = circle(392, 376, 70)
BADGE_MARK = union(stroke(392, 336, 392, 384, 24), circle(392, 420, 13))
LAYERS: tuple[tuple[Shape, Colour], ...] = (
    (WINDOW_BODY, WINDOW),
    (TITLE_BAR, WINDOW_BAR),
    (TITLE_BAR_EDGE, WINDOW_BAR),
    (PROMPT, INK),
    (OUTPUT_LINE, INK),
    (BADGE_EDGE, BADGE_RING),
    (BADGE_DISC, BADGE),
    (BADGE_MARK, BADGE_RING),
)


def pixel(x: float, y: float) -> tuple[int, int, int, int]:
    tile_alpha = coverage(TILE[0](x, y))
    if tile_alpha == 0.0:
        return (0, 0, 0, 0)
    colour = blend(TILE_TOP, TILE_BOTTOM, y / SIZE)
    for (distance, box), paint in LAYERS:
        if not reaches(box, x, y):
            continue
        alpha = coverage(distance(x, y))
        if alpha:
            colour = blend(colour, paint, alpha)
    return (*colour, round(255 * tile_alpha))


def rows() -> bytes:
    """The image data as PNG wants it: each row led by its filter byte (0: none)."""
    out = bytearray()
    for row in range(SIZE):
        out.append(0)
        for column in range(SIZE):
            out.extend(pixel(column + 0.5, row + 0.5))  # sample at the pixel's centre
    return bytes(out)


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png() -> bytes:
    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 6, 0, 0, 0)  # 8-bit RGBA, no interlace
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows(), 9))
        + chunk(b"IEND", b"")
    )


def main(argv: list[str]) -> int:
    target = Path(argv[1]) if len(argv) > 1 else Path(__file__).with_name("icon.png")
    target.write_bytes(png())
    print(f"wrote {target} ({SIZE}x{SIZE})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
