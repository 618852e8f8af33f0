#!/usr/bin/env python3
"""Build the tmux reference state for a recorded byte stream.

    tmux_reference.py FILE.bin [FILE.bin ...] [--cols 80 --rows 24]
    tmux_reference.py --all

For each FILE.bin this starts a private, detached tmux server whose only
pane runs this script in --feed mode. The feeder puts the pane's tty in raw
mode (no echo, no output post-processing, so the bytes reach tmux exactly
as recorded) and writes the file to it. It then sets the pane title to a
random token with OSC 2: tmux parses the pane's output strictly in order,
so once the title reads back as the token every recorded byte has been
processed. Nothing else about the state changes, so we then read the
screen, the history and the cursor and write FILE.tmux.json:

    {"columns": 80, "lines": 24,
     "screen": [24 right-trimmed strings],
     "scrollback": [right-trimmed strings, oldest first],
     "cursor": {"row": r, "col": c, "visible": bool},
     "pending_wrap": bool, "alt_screen": bool}

`visible` and `pending_wrap` go beyond the minimal format: tmux knows them
and they are part of the vtdump/1 contract, so they are cheap to check.
tmux reports a cursor that sits in the wrap-pending state as column
`cols`; that is stored as col = cols - 1 with pending_wrap = true.

The tmux options that differ from xterm behaviour and can be switched off
are switched off (see SERVER_OPTIONS); see recordings/DEVIATIONS.md for the
remaining differences.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import time
import tty
from pathlib import Path

RECORDINGS = Path(__file__).resolve().parent.parent / "recordings"
HISTORY_LIMIT = 10000

SERVER_OPTIONS = [
    # Must be in place before the window exists: a pane's history limit is
    # fixed when the pane is created.
    ["set-option", "-g", "history-limit", str(HISTORY_LIMIT)],
    # tmux normally copies the screen into history on ED 2 (erase display);
    # xterm does not, so neither should the reference.
    ["set-option", "-gw", "scroll-on-clear", "off"],
    # Keep the status line from ever taking a row from the pane.
    ["set-option", "-g", "status", "off"],
]


def tmux(socket: str, *args: str) -> str:
    result = subprocess.run(
        ["tmux", "-L", socket, "-f", "/dev/null", *args],
        capture_output=True, text=True, encoding="utf-8", errors="replace",
        env=tmux_env(),
    )
    if result.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout


def tmux_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("TMUX", None)  # we may be running inside someone's tmux
    env.setdefault("TERM", "xterm-256color")
    env["LANG"] = env["LC_ALL"] = "C.UTF-8"  # capture-pane output is UTF-8
    return env


def capture_lines(socket: str, target: str, start: int, end: int) -> list[str]:
    text = tmux(socket, "capture-pane", "-p", "-t", target, "-S", str(start), "-E", str(end))
    # Not splitlines(): that would also split on U+2028, FS, GS, etc.
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip(" ") for line in lines]


def reference(path: Path, cols: int = 80, rows: int = 24) -> dict:
    socket = f"termengine-ref-{os.getpid()}-{secrets.token_hex(4)}"
    token = f"termengine-done-{secrets.token_hex(8)}"
    target = "ref:0.0"
    size = path.stat().st_size
    command = [sys.executable, str(Path(__file__).resolve()), "--feed", str(path.resolve()), token]

    args = ["start-server"]
    for option in SERVER_OPTIONS:
        args += [";", *option]
    args += [";", "new-session", "-d", "-s", "ref", "-x", str(cols), "-y", str(rows),
             "--", *command]
    tmux(socket, *args)
    try:
        deadline = time.monotonic() + 30 + size / 50_000
        while tmux(socket, "display-message", "-p", "-t", target, "#{pane_title}").strip() != token:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{path.name}: tmux did not finish parsing "
                                   "(stream left inside an unterminated string?)")
            time.sleep(0.05)

        fields = tmux(socket, "display-message", "-p", "-t", target,
                      "#{pane_width} #{pane_height} #{history_size} #{cursor_x} "
                      "#{cursor_y} #{cursor_flag} #{alternate_on}").split()
        width, height, history, cx, cy, visible, alt = map(int, fields)
        if (width, height) != (cols, rows):
            raise RuntimeError(f"pane is {width}x{height}, wanted {cols}x{rows}")

        screen = capture_lines(socket, target, 0, rows - 1)
        # -S -N counts back into the history; -E -1 is its newest line.
        scrollback = capture_lines(socket, target, -history, -1) if history else []
        if len(screen) != rows or len(scrollback) != history:
            raise RuntimeError(f"capture returned {len(screen)} screen / {len(scrollback)} "
                               f"history lines, expected {rows} / {history}")
    finally:
        try:
            tmux(socket, "kill-server")
        except RuntimeError:
            pass

    return {
        "columns": cols,
        "lines": rows,
        "screen": screen,
        "scrollback": scrollback,
        "cursor": {"row": cy, "col": min(cx, cols - 1), "visible": bool(visible)},
        "pending_wrap": cx >= cols,
        "alt_screen": bool(alt),
    }


def reference_path(path: Path) -> Path:
    return path.with_name(path.name.removesuffix(".bin") + ".tmux.json")


def write_reference(path: Path, cols: int = 80, rows: int = 24) -> Path:
    state = reference(Path(path), cols, rows)
    out = reference_path(Path(path))
    out.write_text(json.dumps(state, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return out


def feed(path: str, token: str) -> None:
    """Runs inside the tmux pane."""
    data = Path(path).read_bytes()
    # Raw on the pane's tty: no ONLCR (the recording already has the CR LF
    # the program's own pty produced) and no echo (tmux's answers to any
    # queries in the recording arrive as input and must not be echoed).
    tty.setraw(0)
    for chunk_start in range(0, len(data), 4096):
        chunk = memoryview(data)[chunk_start:chunk_start + 4096]
        while chunk:
            chunk = chunk[os.write(1, chunk):]
    os.write(1, f"\x1b]2;{token}\x1b\\".encode())
    while True:  # stay alive: the pane (and its contents) die with us
        time.sleep(3600)


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--feed":
        feed(sys.argv[2], sys.argv[3])
        return 0

    parser = argparse.ArgumentParser(description="Build tmux reference screens for recordings.")
    parser.add_argument("files", nargs="*", type=Path, help="recordings (.bin)")
    parser.add_argument("--all", action="store_true", help=f"every .bin in {RECORDINGS}")
    parser.add_argument("--cols", type=int, default=80)
    parser.add_argument("--rows", type=int, default=24)
    args = parser.parse_args()

    files = list(args.files)
    if args.all:
        files += sorted(RECORDINGS.glob("*.bin"))
    if not files:
        parser.error("give recordings or --all")

    for path in files:
        out = write_reference(path, args.cols, args.rows)
        print(f"{path.name} -> {out.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
