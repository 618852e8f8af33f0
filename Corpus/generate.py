#!/usr/bin/env python3
"""Deterministic replay generator: seeded terminal output of a chosen kind.

The same --kind, --size and --seed always give the same bytes, so benchmark
runs and demos can regenerate their inputs instead of committing them.

Kinds (after alacritty's vtebench categories):
  scrolling     plain ASCII lines that scroll the screen
  dense_cells   full-screen redraws, every cell with its own colours
  cursor_motion characters placed at random positions
  unicode       CJK, accented (combining) Latin, emoji, box drawing
  mixed         a shell-like session: prompts, coloured listings, a TUI redraw
"""
import argparse
import random
import sys

ESC = "\x1b"
CSI = ESC + "["
WORDS = ("alpha beta gamma delta epsilon zeta theta lambda kernel socket "
         "buffer render parser cursor scroll region glyph palette vector").split()


def scrolling(rng, cols, rows):
    width = rng.randint(1, cols - 1)
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 ") for _ in range(width)) + "\r\n"


def dense_cells(rng, cols, rows):
    out = [CSI + "H"]
    for row in range(rows):
        out.append(CSI + f"{row + 1};1H")
        for _ in range(cols):
            out.append(CSI + f"38;5;{rng.randrange(256)};48;5;{rng.randrange(256)}m" + chr(rng.randrange(33, 127)))
    out.append(CSI + "0m")
    return "".join(out)


def cursor_motion(rng, cols, rows):
    return CSI + f"{rng.randint(1, rows)};{rng.randint(1, cols)}H" + chr(rng.randrange(33, 127))


UNICODE = ["漢", "字", "é", "e\u0301", "ñ", "😀", "👩\u200d👧", "─", "│", "┼", "α", "Ж", "한", "ü", "✓", "🇫🇷"]


def unicode(rng, cols, rows):
    return "".join(rng.choice(UNICODE) for _ in range(rng.randint(5, cols // 2))) + "\r\n"


def mixed(rng, cols, rows):
    choice = rng.random()
    if choice < 0.45:
        colour = rng.choice(["1;34", "32", "38;5;208", "38;2;120;200;80", "0"])
        name = "_".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
        return f"-rw-r--r-- 1 user user {rng.randint(0, 99999):6} Nov 30 {CSI}{colour}m{name}{CSI}0m\r\n"
    if choice < 0.6:
        return f"{CSI}1;32muser@host{CSI}0m:{CSI}1;34m~/src{CSI}0m$ {' '.join(rng.sample(WORDS, 3))}\r\n"
    if choice < 0.75:
        return unicode(rng, cols, rows)
    if choice < 0.97:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 14))) + "\r\n"
    # A small full-screen TUI redraw inside synchronized output.
    out = [CSI + "?2026h", CSI + "?1049h", CSI + "H"]
    for row in range(rows):
        out.append(CSI + f"{row + 1};1H" + CSI + f"48;2;{row * 9 % 256};40;60m" + " " * cols)
    out.append(CSI + "0m" + CSI + "?1049l" + CSI + "?2026l")
    return "".join(out)


KINDS = {"scrolling": scrolling, "dense_cells": dense_cells, "cursor_motion": cursor_motion,
         "unicode": unicode, "mixed": mixed}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kind", choices=sorted(KINDS), default="mixed")
    parser.add_argument("--size", type=int, default=16 << 20, help="bytes to write (default 16 MiB)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cols", type=int, default=80)
    parser.add_argument("--rows", type=int, default=24)
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    make = KINDS[args.kind]
    chunks, written = [], 0
    while written < args.size:
        piece = make(rng, args.cols, args.rows).encode("utf-8")
        chunks.append(piece)
        written += len(piece)
    data = b"".join(chunks)[: args.size]
    with open(args.output, "wb") as handle:
        handle.write(data)
    print(f"wrote {len(data)} bytes of {args.kind} (seed {args.seed}) to {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
