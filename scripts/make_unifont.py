#!/usr/bin/env python3
"""Generates Sources/TermRender/Unifont+Data.swift, the thumbnails' fallback
font, from GNU Unifont's .hex files (Debian package `unifont`).

Licence: Debian's /usr/share/doc/unifont/copyright gives GPL-2+ for the
glyphs; the README Debian ships with xfonts-unifont adds the GNU font
embedding exception for the compiled fonts; upstream (unifoundry.com) also
offers Unifont 13 and later under the SIL Open Font License 1.1, which
Debian's files do not mention (docs/ARCHITECTURE.md, "Thumbnail fonts").

Unifont draws every assigned code point of the Basic Multilingual Plane in 8x16 (narrow) or
16x16 (wide) pixels. Debian's `unifont` package ships the BMP only
(/usr/share/unifont/unifont.hex); the upper planes (emoji, symbols,
historic scripts...) are in `unifont_upper.hex` upstream, which Debian
ships only as an OpenType font (fonts-unifont: unifont_upper.otf). With
`--otf FILE` the glyphs of planes 1-3 are read from that font through
fontTools (PyPI) and turned back into pixels: Unifont's outlines are its
pixels as squares of 4 font units (64 units an em, 16 pixels), so sampling
each pixel's centre with the even-odd rule gives the bitmap exactly. Glyphs
of zero advance (the upper planes' combining marks) are left out: nothing
in the .otf says where over the base they go. Plane 14 (tags, variation
selectors) is left out too: those draw nothing in a terminal.

Why a zlib stream in a base64 string literal: a Swift array literal of a
million bytes takes minutes to type-check, a string literal of the same
data compiles in about a second, and zlib (which TermRender links for PNG
already) shrinks the glyphs about 3x. The library inflates it once, on the
first glyph looked up (Unifont.swift).

The inflated data, all integers little-endian:
    u32 run count R
    R runs of (u24 first code point, u8 flags, u16 length): consecutive code
        points with a glyph and the same flags (1 = wide, 2 = combining)
    the glyphs in code point order: 16 rows, one byte a row (narrow) or two
        (wide, left byte first), bit 7 the leftmost pixel

"Combining" is Unifont's own list (plane00-combining.txt: the glyphs drawn
to the left of their origin, over the previous character), so the renderer
overlays exactly the glyphs the font draws that way.

    apt-get install unifont
    apt-get install unifont fonts-unifont && pip install fonttools
    python3 scripts/make_unifont.py [unifont.hex ...] \
        [--otf /usr/share/fonts/opentype/unifont/unifont_upper.otf]
"""
import base64
import os
import sys
import zlib

DIRECTORY = "/usr/share/unifont"
ARGUMENTS = sys.argv[1:]
OTF = None
if "--otf" in ARGUMENTS:
    at = ARGUMENTS.index("--otf")
    OTF = ARGUMENTS[at + 1]
    del ARGUMENTS[at:at + 2]
SOURCES = ARGUMENTS or [os.path.join(DIRECTORY, "unifont.hex")]
COMBINING = os.path.join(DIRECTORY, "plane00-combining.txt")
OUTPUT = os.path.join(os.path.dirname(__file__), "..", "Sources", "TermRender", "Unifont+Data.swift")
# The first glyph of a font that is not a Unifont .hex fails here, not in Swift.
ROWS = 16


def read_hex(path):
    glyphs = {}
    with open(path) as source:
        for line in source:
            line = line.strip()
            if not line:
                continue
            point, bits = line.split(":")
            if len(bits) not in (32, 64):
                raise SystemExit(f"{path}: U+{point} is {len(bits) // 4} pixels wide, not 8 or 16")
            glyphs[int(point, 16)] = bytes.fromhex(bits)
    return glyphs


def read_otf(path):
    """Planes 1-3 of an OpenType Unifont as .hex-style bytes."""
    from fontTools.ttLib import TTFont
    from fontTools.pens.recordingPen import RecordingPen
    font = TTFont(path)
    assert font["head"].unitsPerEm == 64, "not Unifont's 64-unit em"
    top = font["hhea"].ascent  # 56: the top of pixel row 0
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for point, name in font.getBestCmap().items():
        if not 0x10000 <= point < 0x40000:
            continue
        glyph = glyph_set[name]
        if glyph.width not in (32, 64):
            continue
        pen = RecordingPen()
        glyph.draw(pen)
        # The vertical edges of every contour: (x, y low, y high).
        edges, start, last = [], None, None
        for operator, points in pen.value:
            if operator == "moveTo":
                start = last = points[0]
            elif operator == "lineTo":
                edges.append((last, points[0]))
                last = points[0]
            elif operator in ("closePath", "endPath"):
                if start and last != start:
                    edges.append((last, start))
                start = last = None
            else:
                raise SystemExit(f"U+{point:04X}: {operator} in a pixel font")
        vertical = [(a[0], min(a[1], b[1]), max(a[1], b[1])) for a, b in edges if a[0] == b[0]]
        columns = glyph.width // 4
        rows = bytearray()
        for row in range(16):
            y = top - 4 * row - 2
            crossings = sorted(x for x, low, high in vertical if low < y < high)
            bits = 0
            for column in range(columns):
                x = 4 * column + 2
                if sum(1 for c in crossings if c < x) % 2:
                    bits |= 1 << (columns - 1 - column)
            rows += bits.to_bytes(columns // 8, "big")
        glyphs[point] = bytes(rows)
    return glyphs


def read_combining(path):
    points = set()
    if os.path.exists(path):
        with open(path) as source:
            for line in source:
                if ":" in line:
                    points.add(int(line.split(":")[0], 16))
    return points


def main():
    glyphs = {}
    for path in SOURCES:
        for point, bits in read_hex(path).items():
            glyphs.setdefault(point, bits)
    if OTF:
        for point, bits in read_otf(OTF).items():
            glyphs.setdefault(point, bits)
    combining = read_combining(COMBINING)
    runs = []
    data = bytearray()
    for point in sorted(glyphs):
        bits = glyphs[point]
        flags = (1 if len(bits) == 32 else 0) | (2 if point in combining else 0)
        last = runs[-1] if runs else None
        if last and last[0] + last[2] == point and last[1] == flags and last[2] < 0xFFFF:
            last[2] += 1
        else:
            runs.append([point, flags, 1])
        data += bits
    blob = bytearray(len(runs).to_bytes(4, "little"))
    for first, flags, length in runs:
        blob += first.to_bytes(3, "little") + bytes([flags]) + length.to_bytes(2, "little")
    blob += data
    packed = zlib.compress(bytes(blob), 9)
    text = base64.b64encode(packed).decode()
    chunk = 2048
    pieces = ["    " + text[i:i + chunk] for i in range(0, len(text), chunk)]
    names = ", ".join(os.path.basename(p) for p in SOURCES + ([OTF] if OTF else []))
    wide = sum(1 for b in glyphs.values() if len(b) == 32)
    lines = [
        f"// Generated by scripts/make_unifont.py from GNU Unifont ({names}). GPL-2+ with the",
        "// GNU font embedding exception (Debian), SIL OFL 1.1 upstream. Do not edit.",
        "",
        "extension Unifont {",
        f"    /// {len(glyphs)} glyphs ({wide} wide, {len(glyphs) - wide} narrow) in {len(runs)} runs:",
        f"    /// {len(blob)} bytes inflated, {len(packed)} as zlib, base64 below.",
        f"    static let inflatedSize = {len(blob)}",
        "    static let packed: StaticString = \"\"\"",
    ]
    lines += [piece + "\\" for piece in pieces[:-1]] + pieces[-1:]
    lines += ['    """', "}"]
    with open(OUTPUT, "w") as out:
        out.write("\n".join(lines) + "\n")
    print(
        f"{len(glyphs)} glyphs ({wide} wide), {len(runs)} runs, {len(blob)} bytes, "
        f"{len(packed)} deflated, {len(text)} base64", file=sys.stderr)


if __name__ == "__main__":
    main()
