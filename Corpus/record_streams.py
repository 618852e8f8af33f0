#!/usr/bin/env python3
"""Record realistic benchmark streams: real programs on a pseudo-terminal.

Each recipe runs a real program on a fresh pseudo-terminal of the requested
size (so it lays itself out for that size, as it would in a window of that
size), drives it with scripted keystrokes where it is interactive, and keeps
every byte it wrote: the raw recording, `<name>.raw`. For the benchmark the
recording is then repeated until it fills --size bytes (16 MiB by default)
and cut there: `<name>.bin`. A repeated interactive session is the same
program started again, since each session ends the way it began (an editor
or pager leaves the alternate screen when it quits).

Recipes:
  ls_lR         ls -lR --color=always /usr
  git_log       git log --graph --color=always --stat over a generated repository
  gcc_diag      gcc diagnostics (colours, carets, fix-it hints) for generated C code
  vim_scroll    vim with syntax colours in truecolor, paging, scrolling and searching
  less_paging   less -R paging and searching through coloured git log output
  agent_tui     a coding-agent style TUI: inline redraws of a live region with
                truecolor, box drawing and synchronized output (mode 2026)

The fixtures (source files, the repository) are generated from --seed, but
the recordings are not byte-for-byte reproducible across machines: ls lists
whatever /usr holds, and an editor may skip a redraw when a keystroke arrives
early. They measure realistic mixes of sequences, not fixed bytes; the
synthetic kinds in generate.py are the deterministic part of the corpus.

Usage:
  record_streams.py --out-dir DIR [--cols C --rows R] [--size BYTES] [--only a,b] [--force]
  record_streams.py --list

Files that exist with matching parameters (recorded in DIR/recordings.json)
are kept. Only the Python standard library is used; the programs needed are
ls, git, gcc, vim, less (apt-get install git gcc vim less).
"""

from __future__ import annotations

import argparse
import errno
import fcntl
import hashlib
import json
import os
import random
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

# Stop a recording once it has this much: a 16 MiB benchmark stream never
# needs more, and `ls -lR` of a big /usr would otherwise run on.
RECORDING_CAP = 16 << 20

# Queries some programs send at start-up; a terminal answers them, so the
# recorder does (vim asks for the cursor position and device attributes).
REPLIES = (
    (b"\x1b[c", b"\x1b[?62;22c"),
    (b"\x1b[0c", b"\x1b[?62;22c"),
    (b"\x1b[>c", b"\x1b[>0;10;0c"),
    (b"\x1b[5n", b"\x1b[0n"),
)


def program_env(home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """A small fixed environment, so nothing from the caller's shell (LS_COLORS,
    LESS, EDITOR, a vimrc) changes what the programs print."""
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TZ": "UTC",
        "LESSHISTFILE": "-",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_PAGER": "cat",
        "PAGER": "cat",
    }
    env.update(extra or {})
    return env


class Pty:
    """One program on a pseudo-terminal of a given size, and its output."""

    def __init__(self, argv: list[str], cols: int, rows: int, cwd: Path, env: dict[str, str]):
        self.output = bytearray()
        self.rows = rows
        self.eof = False
        master, slave = os.openpty()
        # The settings of an ordinary login terminal (onlcr turns the
        # program's LF into CR LF, as every recording from a real terminal has).
        subprocess.run(["stty", "sane", "iutf8"], stdin=slave, check=True)
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

        def take_terminal() -> None:
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env,
            start_new_session=True, preexec_fn=take_terminal)
        os.close(slave)  # only the child holds it, so its exit reads as EOF
        self.master = master

    def _read(self, timeout: float) -> bool:
        if self.eof:
            return False
        ready, _, _ = select.select([self.master], [], [], max(timeout, 0))
        if not ready:
            return False
        try:
            data = os.read(self.master, 1 << 16)
        except OSError as error:
            if error.errno != errno.EIO:  # EIO: the child closed the terminal
                raise
            data = b""
        if not data:
            self.eof = True
            return False
        tail = bytes(self.output[-8:])
        self.output += data
        window = tail + data
        for query, reply in REPLIES:
            for _ in range(window.count(query)):
                self.write(reply)
        if b"\x1b[6n" in window:
            self.write(b"\x1b[%d;1R" % self.rows)
        if len(self.output) >= RECORDING_CAP:
            self.eof = True
        return True

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.master, view):]

    def settle(self, quiet: float, limit: float) -> None:
        """Read until the program has been silent for `quiet` seconds."""
        deadline = time.monotonic() + limit
        while not self.eof and time.monotonic() < deadline:
            if not self._read(min(quiet, deadline - time.monotonic())):
                break

    def keys(self, keys: str | bytes, quiet: float = 0.03, limit: float = 3.0) -> None:
        """Type one keystroke (or a few) and wait for the redraw to finish."""
        self.write(keys.encode() if isinstance(keys, str) else keys)
        self.settle(quiet, limit)

    def finish(self, limit: float = 600.0) -> bytes:
        """Collect output until the program exits (or the cap is reached)."""
        deadline = time.monotonic() + limit
        while not self.eof and time.monotonic() < deadline:
            self._read(1.0)
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.wait()
        os.close(self.master)
        return bytes(self.output[:RECORDING_CAP])


class Context:
    def __init__(self, cols: int, rows: int, seed: int, workdir: Path):
        self.cols, self.rows, self.seed = cols, rows, seed
        self.workdir = workdir
        self.home = workdir / "home"
        self.home.mkdir(parents=True, exist_ok=True)

    def run(self, argv: list[str], cwd: Path | None = None, extra_env: dict[str, str] | None = None) -> Pty:
        return Pty(argv, self.cols, self.rows, cwd or self.workdir, program_env(self.home, extra_env))


# --- Fixtures -----------------------------------------------------------------

WORDS = ("alpha beta gamma delta epsilon zeta theta lambda kernel socket buffer render parser "
         "cursor scroll region glyph palette vector screen signal thread queue stream").split()


def c_source(rng: random.Random, functions: int) -> str:
    """Plausible C with the habits that draw warnings: unused variables,
    signed/unsigned comparisons, narrowing, shadowing, printf mismatches."""
    out = ["#include <stdio.h>", "#include <string.h>", "#include <stdlib.h>", ""]
    for index in range(functions):
        name = f"{rng.choice(WORDS)}_{rng.choice(WORDS)}_{index}"
        out.append(f"/* {' '.join(rng.choice(WORDS) for _ in range(rng.randint(3, 9)))} */")
        out.append(f"static int {name}(int count, const char *label, unsigned limit)")
        out.append("{")
        body = rng.sample(range(8), rng.randint(2, 5))
        for kind in body:
            word = rng.choice(WORDS)
            if kind == 0:
                out.append(f"    int unused_{word} = {rng.randint(0, 999)};")
            elif kind == 1:
                out.append(f"    for (int i = 0; i < limit; i++) {{ if (label[i] == '{rng.choice('abcxyz')}') return i; }}")
            elif kind == 2:
                out.append(f"    short narrow_{word} = count * {rng.randint(1000, 99999)}L;")
                out.append(f"    (void)narrow_{word};")
            elif kind == 3:
                out.append(f"    {{ int count = {rng.randint(1, 9)}; printf(\"%s\\n\", count); }}")
            elif kind == 4:
                out.append(f"    printf(\"{word}: %d %s\\n\", (long)count, label);")
            elif kind == 5:
                out.append(f"    char buffer_{word}[{rng.randint(4, 16)}];")
                out.append(f"    strcpy(buffer_{word}, label);")
            elif kind == 6:
                out.append(f"    switch (count) {{ case 1: count++; case 2: count--; break; default: break; }}")
            else:
                out.append(f"    if (count = {rng.randint(1, 5)}) {{ limit = {rng.randint(1, 9)}.5; }}")
        out.append("    return count;")
        out.append("}")
        out.append("")
    return "\n".join(out) + "\n"


def make_repository(ctx: Context, path: Path, commits: int) -> None:
    """A repository with a branchy history, made with git fast-import so that
    thousands of commits take a second. Dates and names are fixed."""
    if (path / ".git").exists():
        shutil.rmtree(path)
    path.mkdir(parents=True, exist_ok=True)
    env = program_env(ctx.home)
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True, env=env)
    rng = random.Random(ctx.seed)
    files = {f"src/{w}.c": [f"// {w} {i}" for i in range(20)] for w in WORDS[:12]}
    stream: list[bytes] = []
    mark = 0
    when = 1577934245
    authors = ["Ada Lovelace <ada@example.org>", "Alan Turing <alan@example.org>",
               "Grace Hopper <grace@example.org>", "Edsger Dijkstra <edsger@example.org>"]

    def commit(branch: str, parents: list[int], message: str) -> int:
        nonlocal mark, when
        mark += 1
        when += rng.randint(60, 7200)
        changed = rng.sample(sorted(files), rng.randint(1, 3))
        stream.append(f"commit refs/heads/{branch}\nmark :{mark}\n".encode())
        author = rng.choice(authors)
        stream.append(f"author {author} {when} +0000\ncommitter {author} {when} +0000\n".encode())
        data = message.encode()
        stream.append(b"data %d\n%s\n" % (len(data), data))
        if parents:
            stream.append(f"from :{parents[0]}\n".encode())
            for other in parents[1:]:
                stream.append(f"merge :{other}\n".encode())
        for name in changed:
            lines = files[name]
            for _ in range(rng.randint(1, 6)):
                at = rng.randrange(len(lines) + 1)
                if rng.random() < 0.35 and lines:
                    del lines[min(at, len(lines) - 1)]
                else:
                    lines.insert(at, " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 8))))
            content = ("\n".join(lines) + "\n").encode()
            stream.append(f"M 100644 inline {name}\n".encode() + b"data %d\n%s\n" % (len(content), content))
        return mark

    head = commit("main", [], "Initial import")
    made = 1
    while made < commits:
        if rng.random() < 0.25:
            topic = f"topic/{rng.choice(WORDS)}-{made}"
            tip = head
            for _ in range(rng.randint(1, 5)):
                tip = commit(topic, [tip], f"{rng.choice(WORDS).title()}: {' '.join(rng.choice(WORDS) for _ in range(5))}")
                made += 1
            head = commit("main", [head], f"Fix {rng.choice(WORDS)} before merging {topic}")
            head = commit("main", [head, tip], f"Merge branch '{topic}'")
            made += 2
        else:
            head = commit("main", [head], f"{rng.choice(WORDS).title()}: {' '.join(rng.choice(WORDS) for _ in range(6))}")
            made += 1
    subprocess.run(["git", "-C", str(path), "fast-import", "--quiet"], input=b"".join(stream), check=True, env=env)
    subprocess.run(["git", "-C", str(path), "checkout", "-q", "main"], check=True, env=env)
    # Tags along the first-parent line, for --decorate to show.
    for release, back in enumerate(range(0, commits // 2, 97)):
        subprocess.run(["git", "-C", str(path), "tag", f"v1.{release}", f"main~{back}"],
                       check=False, env=env, capture_output=True)


# --- Recipes --------------------------------------------------------------------

RECIPES = {}


def recipe(function):
    RECIPES[function.__name__.removeprefix("record_")] = function
    return function


@recipe
def record_ls_lR(ctx: Context) -> bytes:
    return ctx.run(["ls", "-lR", "--color=always", "/usr"]).finish()


@recipe
def record_git_log(ctx: Context) -> bytes:
    repo = ctx.workdir / "repo"
    make_repository(ctx, repo, commits=3000)
    argv = ["git", "--no-pager", "log", "--graph", "--color=always", "--decorate", "--stat", "--date=iso"]
    return ctx.run(argv, cwd=repo).finish()


@recipe
def record_gcc_diag(ctx: Context) -> bytes:
    rng = random.Random(ctx.seed)
    sources = []
    for index in range(8):
        path = ctx.workdir / f"module_{index}.c"
        path.write_text(c_source(rng, 400))
        sources.append(path.name)
    # One gcc per file, as make would run them, in one shell on the terminal.
    script = " ; ".join(
        f"gcc -fsyntax-only -Wall -Wextra -Wconversion -Wshadow -fdiagnostics-color=always {name}"
        for name in sources)
    return ctx.run(["sh", "-c", script]).finish()


@recipe
def record_vim_scroll(ctx: Context) -> bytes:
    rng = random.Random(ctx.seed + 1)
    source = ctx.workdir / "editor.c"
    source.write_text(c_source(rng, 1500))
    argv = ["vim", "-N", "-u", "NONE", "-i", "NONE", "-n",
            "-c", "syntax on", "-c", "set termguicolors", "-c", "colorscheme desert",
            "-c", "set number relativenumber cursorline laststatus=2 ruler hlsearch",
            str(source)]
    pty = ctx.run(argv)
    pty.settle(quiet=0.5, limit=10.0)
    keys = rng_keys(rng, [("\x06", 150), ("\x02", 40), ("\x04", 150), ("j", 250), ("k", 80),
                          ("\x05", 60), ("\x19", 60), ("n", 60), ("G", 3), ("gg", 3), ("zz", 20)])
    pty.keys("/count\r")
    for key in keys:
        pty.keys(key)
    pty.keys(":q!\r", quiet=0.3)
    return pty.finish(limit=10.0)


@recipe
def record_less_paging(ctx: Context) -> bytes:
    repo = ctx.workdir / "repo"
    if not (repo / ".git").exists():
        make_repository(ctx, repo, commits=3000)
    log = ctx.workdir / "git-log.txt"
    with open(log, "wb") as handle:
        subprocess.run(["git", "--no-pager", "log", "--graph", "--color=always", "--decorate", "--stat", "-p"],
                       cwd=repo, stdout=handle, check=True, env=program_env(ctx.home))
    rng = random.Random(ctx.seed + 2)
    pty = ctx.run(["less", "-R", str(log)])
    pty.settle(quiet=0.5, limit=10.0)
    keys = rng_keys(rng, [(" ", 400), ("b", 60), ("j", 150), ("k", 60), ("d", 60), ("u", 30), ("n", 60)])
    pty.keys("/Merge\r")
    for key in keys:
        pty.keys(key)
    pty.keys("q", quiet=0.3)
    return pty.finish(limit=10.0)


@recipe
def record_agent_tui(ctx: Context) -> bytes:
    argv = [sys.executable, str(Path(__file__).resolve()), "--agent-tui", "--seed", str(ctx.seed)]
    return ctx.run(argv).finish()


def rng_keys(rng: random.Random, weights: list[tuple[str, int]]) -> list[str]:
    """The keystrokes in `weights` (key, count), shuffled by the seed."""
    keys = [key for key, count in weights for _ in range(count)]
    rng.shuffle(keys)
    return keys


# --- The agent TUI (runs inside the pty) -------------------------------------------

def agent_tui(seed: int, turns: int) -> None:
    """A stand-in for a coding agent's terminal UI, the way such tools draw:
    output stays inline (no alternate screen); finished blocks are printed
    once and scroll into the history; a live region at the bottom (the
    streaming paragraph, a spinner and status line, a boxed input prompt) is
    redrawn many times a second by moving the cursor up over it, erasing and
    drawing it again, each redraw inside synchronized output (DEC mode 2026)
    so the terminal shows whole frames. Colours are truecolor."""
    rng = random.Random(seed)
    cols, _ = shutil.get_terminal_size((80, 24))
    out = sys.stdout
    esc = "\x1b["
    spinner = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
    accent = "38;2;215;119;87"
    dim = "38;2;136;136;136"
    live_height = 0

    def rgb(r, g, b, background=False):
        return f"{esc}{48 if background else 38};2;{r};{g};{b}m"

    def wrap(text: str, width: int) -> list[str]:
        lines, line = [], ""
        for word in text.split(" "):
            if len(line) + len(word) + 1 > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        return lines + [line]

    def input_box() -> list[str]:
        inner = cols - 2
        return [f"{rgb(90, 90, 110)}╭{'─' * inner}╮{esc}0m",
                f"{rgb(90, 90, 110)}│{esc}0m {esc}1m>{esc}0m {' ' * (inner - 3)}{rgb(90, 90, 110)}│{esc}0m",
                f"{rgb(90, 90, 110)}╰{'─' * inner}╯{esc}0m",
                f"{esc}{dim}m  ? for shortcuts{esc}0m"]

    def draw_live(lines: list[str]) -> None:
        nonlocal live_height
        frame = [f"{esc}?2026h"]
        if live_height:
            frame.append(f"\r{esc}{live_height - 1}A" if live_height > 1 else "\r")
        frame.append(f"{esc}J")
        frame.append("\n".join(lines))
        frame.append(f"{esc}?2026l")
        out.write("".join(frame))
        out.flush()
        live_height = len(lines)

    def commit(lines: list[str]) -> None:
        """Print finished lines above the live region (erase it first)."""
        nonlocal live_height
        frame = [f"{esc}?2026h"]
        if live_height:
            frame.append(f"\r{esc}{live_height - 1}A" if live_height > 1 else "\r")
        frame.append(f"{esc}J")
        frame.append("\n".join(lines) + "\n")
        frame.append(f"{esc}?2026l")
        out.write("".join(frame))
        live_height = 0

    def status(tick: int, tokens: int) -> str:
        verb = ["Thinking", "Reading", "Editing", "Running tests", "Searching"][tick // 40 % 5]
        return (f"{rgb(215, 119, 87)}{spinner[tick % len(spinner)]} {verb}…{esc}0m "
                f"{esc}{dim}m({tick // 10}s · ↓ {tokens} tokens · esc to interrupt){esc}0m")

    def highlighted(code: str) -> str:
        keywords = {"func", "let", "var", "if", "return", "for", "in", "struct", "import", "guard"}
        parts = []
        for word in code.split(" "):
            if word in keywords:
                parts.append(rgb(198, 120, 221) + word)
            elif word[:1].isdigit():
                parts.append(rgb(209, 154, 102) + word)
            elif word.startswith('"'):
                parts.append(rgb(152, 195, 121) + word)
            else:
                parts.append(rgb(171, 178, 191) + word)
        return " ".join(parts) + f"{esc}0m"

    print(f"{esc}{accent}m╭{'─' * (cols - 2)}╮{esc}0m")
    print(f"{esc}{accent}m│{esc}0m {esc}1m✻ Welcome to the agent{esc}0m{' ' * max(0, cols - 26)}{esc}{accent}m│{esc}0m")
    print(f"{esc}{accent}m╰{'─' * (cols - 2)}╯{esc}0m")
    tick = 0
    tokens = 0
    for turn in range(turns):
        request = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 14)))
        commit([f"{esc}{dim}m>{esc}0m {request}", ""])
        for _ in range(rng.randint(5, 30)):  # thinking
            tick += 1
            draw_live([status(tick, tokens), ""] + input_box())
        for block in range(rng.randint(2, 6)):
            kind = rng.random()
            if kind < 0.5:  # a paragraph streamed word by word
                words = [rng.choice(WORDS) for _ in range(rng.randint(20, 90))]
                if rng.random() < 0.3:
                    words.insert(rng.randrange(len(words)), "`Terminal.feed()`")
                streamed = []
                for word in words:
                    streamed.append(word)
                    tick += 1
                    tokens += rng.randint(1, 3)
                    text = "● " + " ".join(streamed)
                    draw_live(wrap(text, cols - 2) + ["", status(tick, tokens), ""] + input_box())
                commit(wrap("● " + " ".join(words), cols - 2) + [""])
            elif kind < 0.75:  # a diff of an edit, shown once finished
                name = f"Sources/{rng.choice(WORDS).title()}/{rng.choice(WORDS).title()}.swift"
                lines = [f"{esc}1m● Update({name}){esc}0m",
                         f"  ⎿  {esc}{dim}mUpdated {name} with {rng.randint(1, 9)} additions{esc}0m"]
                for number in range(rng.randint(4, 16)):
                    code = f"let {rng.choice(WORDS)} = {rng.choice(WORDS)}({rng.randint(0, 99)})"
                    mark = rng.random()
                    line = f"{rng.randint(10, 999):>5} "
                    if mark < 0.3:
                        text = (line + "- " + code)[: cols - 4].ljust(cols - 4)
                        lines.append(f"    {rgb(92, 30, 30, True)}{rgb(255, 170, 170)}{text}{esc}0m")
                    elif mark < 0.6:
                        text = (line + "+ " + code)[: cols - 4].ljust(cols - 4)
                        lines.append(f"    {rgb(28, 68, 36, True)}{rgb(170, 255, 180)}{text}{esc}0m")
                    else:
                        lines.append(f"    {esc}{dim}m{line}{esc}0m  {highlighted(code)}")
                commit(lines + [""])
            else:  # a tool call with streamed output lines
                command = rng.choice(["swift build", "swift test", "git status", "rg feed", "ls Sources"])
                shown = [f"{esc}1m● Bash({command}){esc}0m"]
                for line_number in range(rng.randint(3, 20)):
                    tick += 1
                    shown.append(f"  ⎿  {esc}{dim}m{' '.join(rng.choice(WORDS) for _ in range(rng.randint(2, 10)))}{esc}0m"
                                 if line_number == 0 else
                                 f"     {esc}{dim}m{' '.join(rng.choice(WORDS) for _ in range(rng.randint(2, 10)))}{esc}0m")
                    draw_live(shown[-8:] + ["", status(tick, tokens), ""] + input_box())
                commit(shown + [""])
        todo = [f"{esc}1m● Update Todos{esc}0m"]
        for item in range(rng.randint(2, 5)):
            done = rng.random() < 0.5
            box = f"{rgb(120, 200, 120)}☒{esc}0m" if done else "☐"
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 7)))
            todo.append(f"  ⎿  {box} {esc}9m{text}{esc}0m" if done else f"  ⎿  {box} {text}")
        commit(todo + [""])
    draw_live(input_box())
    out.write("\n")
    out.flush()


# --- Main ---------------------------------------------------------------------------

def recorder_version() -> str:
    with open(__file__, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()[:16]


def fill(raw: bytes, size: int) -> bytes:
    """The recording repeated until `size` bytes, cut there."""
    if not raw:
        raise RuntimeError("empty recording")
    repeats = -(-size // len(raw))
    return (raw * repeats)[:size]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out-dir", type=Path)
    parser.add_argument("--cols", type=int, default=80)
    parser.add_argument("--rows", type=int, default=24)
    parser.add_argument("--size", type=int, default=16 << 20, help="bytes of each .bin (default 16 MiB)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", help="comma-separated recipes")
    parser.add_argument("--force", action="store_true", help="record again even if up to date")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--agent-tui", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--turns", type=int, default=60, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.agent_tui:
        agent_tui(args.seed, args.turns)
        return
    if args.list:
        for name in RECIPES:
            print(name)
        return
    if not args.out_dir:
        parser.error("--out-dir is required")
    names = args.only.split(",") if args.only else list(RECIPES)
    unknown = [name for name in names if name not in RECIPES]
    if unknown:
        parser.error(f"unknown recipes: {', '.join(unknown)}")

    args.out_dir.mkdir(parents=True, exist_ok=True)
    manifest_path = args.out_dir / "recordings.json"
    try:
        entries = json.loads(manifest_path.read_text()).get("files", {})
    except (OSError, ValueError):
        entries = {}
    # A fixed path: some programs print it, and the same path makes
    # recordings comparable from run to run.
    workdir = Path(f"/tmp/termengine-streams-{args.cols}x{args.rows}")
    version = recorder_version()
    for name in names:
        params = {"recipe": name, "cols": args.cols, "rows": args.rows, "seed": args.seed,
                  "size": args.size, "recorder": version}
        raw_path, bin_path = args.out_dir / f"{name}.raw", args.out_dir / f"{name}.bin"
        if not args.force and entries.get(name, {}).get("params") == params and raw_path.exists() and bin_path.exists():
            continue
        if workdir.exists():
            shutil.rmtree(workdir)
        workdir.mkdir(parents=True)
        started = time.monotonic()
        raw = RECIPES[name](Context(args.cols, args.rows, args.seed, workdir))
        raw_path.write_bytes(raw)
        bin_path.write_bytes(fill(raw, args.size))
        entries[name] = {"params": params, "raw_bytes": len(raw), "repeats": round(args.size / len(raw), 2),
                         "sha256_raw": hashlib.sha256(raw).hexdigest()}
        print(f"recorded {name} ({args.cols}x{args.rows}): {len(raw)} bytes in {time.monotonic() - started:.1f}s, "
              f"filled to {args.size} in {bin_path}", file=sys.stderr)
        manifest_path.write_text(json.dumps({"schema": "termengine-recordings/1", "order": list(RECIPES),
                                             "files": entries}, indent=1, sort_keys=True))
    if workdir.exists():
        shutil.rmtree(workdir)
    manifest_path.write_text(json.dumps({"schema": "termengine-recordings/1", "order": list(RECIPES),
                                         "files": entries}, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
