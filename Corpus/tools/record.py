#!/usr/bin/env python3
"""Record real terminal programs into byte streams for the TermEngine corpus.

Each recipe below starts a real program on a fresh 80x24 pseudo-terminal,
types scripted keystrokes at it (waiting for the output to settle after
each one, so the program redraws the way it would for a human typist) and
stores every byte the program wrote as Corpus/recordings/<name>.bin.
After recording, tmux_reference.py turns each .bin into <name>.tmux.json,
the screen/scrollback/cursor a reference terminal ends up with.

Some recipes also save "snapshots": the bytes captured up to a given
moment, e.g. vim_live is the vim session cut just before ":q!". Full-screen
programs leave the alternate screen when they quit, so without a snapshot
the reference would never show the program's own screen.

Usage:
    record.py                 record everything, then build tmux references
    record.py vim less        record only these recipes
    record.py --list          show recipes and the files they produce
    record.py --no-reference  skip the tmux step

How reproducible: ls_color, bash_session, vim, less, zsh and vttest come
out byte-identical on re-recording (on the same machine). fish varies in
the order of its asynchronous redraws (its final screen does not), and
htop/top show live system figures, PIDs and clock times.

Only the Python 3.11 standard library is used. Programs needed: bash, ls,
vim, less, htop, top, zsh, fish, vttest (apt-get install vim less htop
zsh fish vttest procps), plus tmux for the reference step.
"""

from __future__ import annotations

import argparse
import errno
import fcntl
import os
import pwd
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
RECORDINGS = TOOLS.parent / "recordings"

COLS, ROWS = 80, 24

# A fixed path rather than mkdtemp(): fish puts the cwd in the window title
# and several programs show file paths, so a random directory name would
# make every re-recording differ for no reason.
WORKDIR = Path("/tmp/termengine-corpus")
HOME = WORKDIR / "home"

# 2020-01-02 03:04:05 UTC. Old enough that `ls -l` prints the year instead of
# a clock time, so the listing does not depend on when it was recorded.
FIXED_MTIME = 1577934245

# Keep the corpus small enough to commit without thinking twice.
MAX_RECORDING_BYTES = 300 * 1024
MAX_TOTAL_BYTES = 2 * 1024 * 1024

# The engine that answers the programs' queries (DA, DSR/CPR, DECRQM, colour
# queries…) through `termengine respond`, so they talk to TermEngine as to a
# terminal. Set by main(); without it the fixed answers below are used.
ENGINE: Path | None = None


class Responder:
    """`termengine respond`: fed each chunk of output, returns the replies."""

    def __init__(self, engine: Path):
        self.proc = subprocess.Popen([str(engine), "respond", "--cols", str(COLS), "--rows", str(ROWS)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def feed(self, data: bytes) -> bytes:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(struct.pack(">I", len(data)) + data)
        self.proc.stdin.flush()
        (length,) = struct.unpack(">I", self.proc.stdout.read(4))
        return self.proc.stdout.read(length)

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)


# Without an engine: queries we must answer or some programs stall waiting for the terminal.
# The cursor position reply is deliberately fixed (bottom-left) instead of
# tracked: only vim asks here, for its ambiguous-width and xterm-compat
# probes, and it acts only on replies for the rows it probed (2 and 3), so
# row 24 is ignored and the redraws do not depend on our answer.
# Entries without a reply are only counted, so the log can mention them.
QUERIES = (
    (re.compile(rb"\x1b\[0?c"), b"\x1b[?62;22c", "DA1"),
    (re.compile(rb"\x1b\[6n"), b"\x1b[%d;1R" % ROWS, "DSR 6 (cursor position)"),
    (re.compile(rb"\x1b\[5n"), b"\x1b[0n", "DSR 5 (status)"),
    (re.compile(rb"\x1b\[>0?c"), None, "DA2"),
    (re.compile(rb"\x1b\]1[01];\?"), None, "OSC 10/11 colour query"),
    (re.compile(rb"\x1b\[>0?q"), None, "XTVERSION"),
)
# Longest query prefix that could be split across two reads.
QUERY_TAIL = 8


class Session:
    """One program on a pseudo-terminal, with everything it printed."""

    # Sessions not yet closed, so a recipe that fails half-way does not
    # leave its program running.
    live: set[Session] = set()

    def __init__(self, argv: list[str], extra_env: dict[str, str] | None = None):
        self.output = bytearray()
        self.snapshots: dict[str, bytes] = {}
        self.answered: dict[str, int] = {}
        self.ignored: dict[str, int] = {}
        self._scan_pos = 0
        self.eof = False
        # How long the program must stay silent after each typed character.
        self.typing_quiet = 0.05

        master, slave = os.openpty()
        # Give the pty the settings a login terminal would have, so the
        # recorded CR/LF handling and echo match an ordinary terminal.
        subprocess.run(["stty", "sane", "iutf8"], stdin=slave, check=True)
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))

        def become_terminal_owner() -> None:
            # start_new_session has already made us a session leader; the
            # pty must also be our controlling terminal for job control,
            # /dev/tty (vttest opens it) and SIGWINCH to work.
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.proc = subprocess.Popen(
            argv,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=WORKDIR,
            env=program_env(extra_env),
            start_new_session=True,
            preexec_fn=become_terminal_owner,
        )
        # Only the child may hold the slave open, otherwise we would never
        # see EOF (EIO) when the program exits.
        os.close(slave)
        self.master = master
        self.responder = Responder(ENGINE) if ENGINE else None
        Session.live.add(self)

    # -- reading ---------------------------------------------------------

    def _read_once(self, timeout: float) -> bool:
        """Read whatever arrives within timeout; False if nothing did."""
        if self.eof:
            return False
        ready, _, _ = select.select([self.master], [], [], max(timeout, 0))
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError as exc:
            if exc.errno != errno.EIO:  # EIO is how Linux reports slave hangup
                raise
            data = b""
        if not data:
            self.eof = True
            return False
        self.output += data
        if self.responder:
            replies = self.responder.feed(data)
            if replies:
                self._write(replies)
                self.answered["engine replies"] = self.answered.get("engine replies", 0) + 1
        else:
            self._answer_queries()
        return True

    def _answer_queries(self) -> None:
        window = bytes(self.output[self._scan_pos:])
        hits = []
        for pattern, reply, label in QUERIES:
            hits += [(m.start(), m.end(), reply, label) for m in pattern.finditer(window)]
        # Everything but a short tail is done with; the tail is scanned
        # again next time in case a query was cut in half by the read.
        consumed = len(window) - QUERY_TAIL
        for _, end, reply, label in sorted(hits):  # reply in the order asked
            if reply is None:
                self.ignored[label] = self.ignored.get(label, 0) + 1
            else:
                self._write(reply)
                self.answered[label] = self.answered.get(label, 0) + 1
            consumed = max(consumed, end)
        self._scan_pos += max(consumed, 0)

    def settle(self, quiet: float = 0.3, limit: float = 10.0) -> None:
        """Read until the program has been silent for `quiet` seconds."""
        deadline = time.monotonic() + limit
        while not self.eof:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            if not self._read_once(min(quiet, remaining)):
                break

    def pause(self, seconds: float) -> None:
        """Keep collecting output for a fixed time (for animated programs)."""
        deadline = time.monotonic() + seconds
        while not self.eof and (remaining := deadline - time.monotonic()) > 0:
            self._read_once(remaining)

    # -- writing ---------------------------------------------------------

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = os.write(self.master, view)
            view = view[written:]

    def send(self, keys: str | bytes, quiet: float = 0.3, limit: float = 10.0) -> None:
        """Send one keystroke (or escape sequence) and wait for the redraw."""
        self._write(keys.encode() if isinstance(keys, str) else keys)
        self.settle(quiet, limit)

    def type(self, text: str) -> None:
        """Type character by character. Line editors (readline, zle, fish)
        skip redraws when typeahead is pending, so feeding a whole line at
        once would produce timing-dependent output."""
        for char in text:
            self.send(char, quiet=self.typing_quiet, limit=2.0)

    def line(self, text: str, quiet: float = 0.4, limit: float = 15.0) -> None:
        """Type a command line and press Return."""
        self.type(text)
        self.send("\r", quiet=quiet, limit=limit)

    # -- finishing -------------------------------------------------------

    def snapshot(self, name: str) -> None:
        self.settle()
        self.snapshots[name] = bytes(self.output)

    def finish(self, wait: float = 10.0) -> bytes:
        """Wait for the program to exit on its own, collecting the rest."""
        deadline = time.monotonic() + wait
        while not self.eof and time.monotonic() < deadline:
            self._read_once(deadline - time.monotonic())
        if not self.eof:
            raise RuntimeError(f"program did not exit within {wait}s")
        self._close()
        return bytes(self.output)

    def abandon(self) -> bytes:
        """Stop recording now and kill the program, keeping its screen as is.
        SIGKILL, because a polite signal would let it reset the terminal and
        that cleanup is exactly what we do not want in the recording."""
        self.settle()
        data = bytes(self.output)
        self._close()
        return data

    def _close(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait()
        os.close(self.master)
        if self.responder:
            self.responder.close()
        Session.live.discard(self)


def program_env(extra: dict[str, str] | None) -> dict[str, str]:
    """A small, fixed environment: nothing from the caller's shell (TMUX,
    LS_COLORS, LESS, user prompts...) may leak into the recordings."""
    env = {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": str(HOME),
        "USER": pwd.getpwuid(os.getuid()).pw_name,
        "LOGNAME": pwd.getpwuid(os.getuid()).pw_name,
        "SHELL": "/bin/bash",
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TZ": "UTC",
        "XDG_CONFIG_HOME": str(HOME / ".config"),
        "XDG_DATA_HOME": str(HOME / ".local/share"),
        "XDG_CACHE_HOME": str(HOME / ".cache"),
        # Otherwise fish falls back to a runtime dir in /tmp that outlives us.
        "XDG_RUNTIME_DIR": str(HOME / ".run"),
        "LESSHISTFILE": "-",
    }
    env.update(extra or {})
    return env


# ---------------------------------------------------------------------------
# Fixture files. Generated rather than taken from the system so that the
# content (and therefore the recording) is the same on every machine.

WORDS = (
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo "
    "lima mike november oscar papa quebec romeo sierra tango uniform victor "
    "whiskey xray yankee zulu"
).split()


def prose(seed: int, count: int) -> str:
    return " ".join(WORDS[(seed * 7 + k * 3) % len(WORDS)] for k in range(count))


def notes_lines() -> list[str]:
    """100 lines for vim: mostly short, with the awkward cases sprinkled in
    (tabs, lines longer than the screen, wide and combining characters)."""
    lines = []
    for n in range(1, 101):
        if n % 25 == 0:
            text = f"Line {n:03d} is long: " + prose(n, 30)
        elif n % 10 == 7:
            text = f"Line {n:03d}\twith\ttabs\tbetween\twords"
        elif n == 42:
            text = "Line 042: Unicode café naïve 日本語テキスト e\u0301 ½ → ✓"
        elif n % 13 == 0:
            text = ""
        else:
            text = f"Line {n:03d}: " + prose(n, 3 + n % 6)
        lines.append(text)
    return lines


def pager_lines() -> list[str]:
    """300 lines for less, including man-page style overstrike (which less
    turns into bold/underline escape sequences) and wrapped long lines."""
    lines = []
    for n in range(1, 301):
        if n % 50 == 0:
            lines.append(f"{n:03d} " + "=" * 30 + f" section {n // 50} " + "=" * 30)
        elif n % 37 == 0:
            lines.append(f"{n:03d} long: " + prose(n, 40))
        elif n % 23 == 0:
            word = "overstrike"
            bold = "".join(f"{c}\b{c}" for c in word)
            under = "".join(f"_\b{c}" for c in "underlined")
            lines.append(f"{n:03d} {bold} and {under} text")
        elif n % 31 == 0:
            lines.append(f"{n:03d} wide: 漢字かなカナ and accents: déjà vu")
        else:
            lines.append(f"{n:03d} " + prose(n, 2 + n % 9))
    return lines


def make_fixtures() -> None:
    if WORKDIR.exists():
        shutil.rmtree(WORKDIR)
    for sub in (HOME, HOME / ".config", HOME / ".local/share", HOME / ".cache"):
        sub.mkdir(parents=True)
    (HOME / ".run").mkdir(mode=0o700)

    (WORKDIR / "notes.txt").write_text("\n".join(notes_lines()) + "\n")
    (WORKDIR / "long.txt").write_text("\n".join(pager_lines()) + "\n")
    make_ls_demo(WORKDIR / "lsdemo")

    for path in (HOME / ".config", HOME / ".local/share", HOME / ".local",
                 HOME / ".cache", HOME, WORKDIR):
        os.utime(path, (FIXED_MTIME, FIXED_MTIME))


def make_ls_demo(root: Path) -> None:
    """A directory with one of each thing GNU ls colours differently, plus
    names that stress the terminal (wide, combining, too long for a line).
    More than 24 entries so the listing scrolls."""
    root.mkdir()
    files = {
        "README.md": "# demo\n",
        "Makefile": "all:\n\ttrue\n",
        "main.c": "int main(void) { return 0; }\n",
        "data.csv": "a,b\n1,2\n",
        ".hidden": "secret\n",
        "backup.tar.gz": "not really gzip\n",
        "archive.zip": "not really zip\n",
        "photo.png": "not really png\n",
        "picture.jpg": "not really jpeg\n",
        "song.mp3": "not really mp3\n",
        "café.txt": "precomposed e-acute\n",
        "cafe\u0301-combining.txt": "e plus combining acute\n",
        "日本語のファイル.txt": "wide characters\n",
        "emoji-🎉.txt": "emoji\n",
        "a-file-name-that-is-long-enough-to-make-the-ls-line-wrap-past-80-columns.txt": "long\n",
        "notes-01.txt": "one\n",
        "notes-02.txt": "two\n",
        "notes-03.txt": "three\n",
    }
    for name, text in files.items():
        (root / name).write_text(text)

    executables = {"run.sh": 0o755, "setuid-tool": 0o4755, "setgid-tool": 0o2755}
    for name, mode in executables.items():
        path = root / name
        path.write_text("#!/bin/sh\necho hi\n")
        os.chmod(path, mode)

    dirs = {"bin": 0o755, "docs": 0o755, ".config": 0o755,
            "sticky-shared": 0o1777, "world-writable": 0o777}
    for name, mode in dirs.items():
        path = root / name
        path.mkdir()
        os.chmod(path, mode)  # mkdir's mode is filtered by the umask

    os.symlink("README.md", root / "link-to-readme")
    os.symlink("docs", root / "link-to-docs")
    os.symlink("does-not-exist", root / "broken-link")
    os.mkfifo(root / "pipe")

    for entry in root.iterdir():
        os.utime(entry, (FIXED_MTIME, FIXED_MTIME), follow_symlinks=False)
    os.utime(root, (FIXED_MTIME, FIXED_MTIME))


# ---------------------------------------------------------------------------
# Recipes. Each returns (session, bytes of the main recording); snapshots
# are collected on the session. The @recipe arguments name the snapshots,
# only so that --list can show them.

RECIPES: dict[str, tuple[object, list[str]]] = {}


def recipe(*snapshots: str):
    def register(func):
        RECIPES[func.__name__.removeprefix("rec_")] = (func, list(snapshots))
        return func
    return register


def bash() -> Session:
    """An interactive bash with a fixed prompt. Full-screen programs are
    started from it, so that their recordings also show the alternate
    screen being left and the prompt underneath coming back."""
    s = Session(["bash", "--norc", "--noprofile", "-i"], {"PS1": "$ "})
    s.settle(quiet=0.5)
    return s


@recipe()
def rec_ls_color() -> tuple[Session, bytes]:
    s = Session(["ls", "-la", "--color=always", "lsdemo"])
    return s, s.finish()


@recipe()
def rec_bash_session() -> tuple[Session, bytes]:
    s = bash()
    s.line("echo 'Hello from the TermEngine corpus'")
    s.line(r"printf '\e[1;31mbold red\e[0m \e[32mgreen\e[0m \e[4munderline\e[24m "
           r"\e[7mreverse\e[27m \e[38;5;208mcolour 208\e[0m "
           r"\e[48;2;20;60;200mtruecolor bg\e[0m\n'")
    # A typo fixed with backspace: readline erases with BS + EL.
    s.type("ech0")
    s.send(b"\x7f", quiet=0.1)
    s.line("o typo fixed")
    s.line("seq 1 60")
    # A command line longer than the screen is wide exercises the wrap
    # handling of the line editor.
    s.line("echo " + "-".join(f"{n:02d}" for n in range(1, 31)))
    # ncurses' clear also sends CSI 3 J, which erases the scrollback.
    s.line("clear")
    s.line("echo after clear")
    s.line("seq 101 130")
    s.send(b"\x1b[A", quiet=0.2)  # recall "seq 101 130" from history
    for _ in range(2):
        s.send(b"\x7f", quiet=0.1)
    s.line("05")                  # ... edited into "seq 101 105"
    s.line("exit")
    return s, s.finish()


@recipe("vim_live")
def rec_vim() -> tuple[Session, bytes]:
    s = bash()
    # -i NONE -n: no viminfo and no swap file, so no state carries over
    # from one recording run to the next.
    s.line("vim -u NONE -N -i NONE -n notes.txt", quiet=1.0)
    for key in "jjjjj":
        s.send(key, quiet=0.15)
    s.send("G", quiet=0.3)          # jump to the end: full redraw / scroll
    s.send("gg", quiet=0.3)
    s.send("40G", quiet=0.3)
    s.send("/Unicode\r", quiet=0.3)
    s.send("o", quiet=0.3)          # open a line below: insert mode
    s.type("Inserted by the corpus recorder: ünïcödé 漢字 done")
    # With -u NONE 'ttimeout' is off, so vim needs 'timeoutlen' (1s) to
    # decide a lone ESC is not the start of a key code.
    s.send(b"\x1b", quiet=1.5)
    s.send(":set number\r", quiet=0.3)
    s.send("10j", quiet=0.3)
    s.send("dd", quiet=0.3)
    s.send(b"\x04", quiet=0.3)      # CTRL-D: scroll half a page
    s.send("G", quiet=0.3)
    s.send("zz", quiet=0.3)         # last line mid-screen: '~' rows below it
    s.snapshot("vim_live")
    s.send(":q!\r", quiet=0.5)
    s.line("exit")
    return s, s.finish()


@recipe("less_live")
def rec_less() -> tuple[Session, bytes]:
    s = bash()
    s.line("less long.txt", quiet=0.5)
    for _ in range(3):
        s.send(" ", quiet=0.3)      # page down
    s.send("j", quiet=0.3)
    s.send("/section\r", quiet=0.5)  # search: highlights matches
    s.send("b", quiet=0.3)          # page back
    s.snapshot("less_live")
    s.send("q", quiet=0.5)
    s.line("exit")
    return s, s.finish()


def start_sleepers(s: Session) -> None:
    """Process viewers show other people's command lines, which have no
    place in a committed corpus. Give them a few processes of our own and
    list only those (-p)."""
    s.line("sleep 1001 & sleep 1002 & sleep 1003 &")


def stop_sleepers(s: Session) -> None:
    # Background jobs have their own process groups, so killing the shell's
    # group at the end would not reach them.
    s.line("kill %1 %2 %3; wait")


@recipe("htop_live")
def rec_htop() -> tuple[Session, bytes]:
    s = bash()
    start_sleepers(s)
    s.line("htop -p $$,$(pgrep -d, -P $$ sleep)", quiet=0.5)
    s.pause(2.0)
    s.send(b"\x1b[B", quiet=0.3)    # move the selection bar
    s.send(b"\x1b[B", quiet=0.3)
    s.snapshot("htop_live")
    s.send("q", quiet=0.5)
    stop_sleepers(s)
    s.line("exit")
    return s, s.finish()


@recipe("top_live")
def rec_top() -> tuple[Session, bytes]:
    s = bash()
    start_sleepers(s)
    s.line("top -d 1 -p $$,$(pgrep -d, -P $$ sleep)", quiet=0.5)
    s.pause(2.5)
    s.snapshot("top_live")
    s.send("q", quiet=0.5)
    stop_sleepers(s)
    s.line("exit")
    return s, s.finish()


@recipe()
def rec_zsh() -> tuple[Session, bytes]:
    # zsh -f reads no startup files; the prompts come from the environment.
    s = Session(["zsh", "-f"], {"PS1": "zsh%# ", "RPS1": "[%?]"})
    s.settle(quiet=0.5)
    s.line("echo 'Hello from zsh'")
    s.line("print -P '%F{red}red%f %B%F{blue}bold blue%f%b %U%F{green}underlined green%f%u'")
    # Output without a final newline: zsh marks it with a reverse-video
    # '%' and pads the line so the next prompt starts on a fresh row.
    s.line("printf 'no newline here'")
    s.line("for i in 1 2 3; do echo \"iteration $i\"; done")
    s.type("ls lsd")
    s.send("\t", quiet=0.3)          # filename completion
    s.send("\r", quiet=0.4)
    s.line("false")                  # RPS1 shows the exit status
    s.line("exit")
    return s, s.finish()


@recipe()
def rec_fish() -> tuple[Session, bytes]:
    # --no-config skips config files; the prompt is defined on the command
    # line because the default one shows the host name.
    s = Session([
        "fish", "--no-config", "--private",
        "-C", "function fish_prompt; printf 'fish> '; end",
    ])
    # fish computes highlighting and autosuggestions on background threads
    # and redraws whenever each finishes, so the order of those redraws
    # varies between runs (the final screen does not). Typing slowly at
    # least keeps one keystroke's redraws from mixing with the next one's.
    s.typing_quiet = 0.2
    s.settle(quiet=0.8)
    s.line("echo 'Hello from fish'")
    s.line("set_color red; echo red; set_color -o blue; echo bold blue; set_color normal")
    s.line("for i in 1 2 3; echo \"iteration $i\"; end")
    s.line("seq 1 30")
    # fish suggests the rest of a previous command in grey as you type.
    s.type("echo 'Hel")
    s.send(b"\x1b[C", quiet=0.3)     # right arrow accepts the suggestion
    s.send("\r", quiet=0.4)
    s.line("exit")
    return s, s.finish()


def vttest_menu(menu: str, screens: int, snapshots: tuple[int, ...],
                name: str) -> tuple[Session, bytes]:
    """Open a vttest menu and step through its first `screens` screens,
    saving the listed screens as snapshots <name>_s<n>. The recording
    stops on the last screen (vttest is killed, not quit), so the reference
    shows that test screen rather than the menu.

    vttest is told the terminal cannot do 132 columns (neither tmux nor a
    fixed-size dump can); it then runs each 80/132 pair of tests twice at
    80 columns, so the duplicates are not snapshotted."""
    s = Session(["vttest", "24x80.80"])
    s.settle(quiet=0.5)
    s.send(menu + "\r", quiet=0.5)
    for n in range(1, screens):
        if n in snapshots:
            s.snapshot(f"{name}_s{n}")
        s.send("\r", quiet=0.5)
    return s, s.abandon()


# Menu 1, cursor movements: 1-2 border of *'s and +'s, 3-4 autowrap,
# 5 control characters inside escape sequences, 6 leading zeros.
@recipe("vttest_1_s1", "vttest_1_s3", "vttest_1_s5")
def rec_vttest_1() -> tuple[Session, bytes]:
    return vttest_menu("1", 6, (1, 3, 5), "vttest_1")


# Menu 2, screen features: 1 wrap-around mode, 2 tab stops, 3-4 column
# mode on a light background (DECSCNM), 5 the same on a dark background.
@recipe("vttest_2_s1", "vttest_2_s2", "vttest_2_s3")
def rec_vttest_2() -> tuple[Session, bytes]:
    return vttest_menu("2", 5, (1, 2, 3), "vttest_2")


# ---------------------------------------------------------------------------


def save(name: str, data: bytes) -> Path:
    if len(data) > MAX_RECORDING_BYTES:
        raise RuntimeError(f"{name}: {len(data)} bytes exceeds the size limit")
    path = RECORDINGS / f"{name}.bin"
    path.write_bytes(data)
    return path


def record(name: str) -> list[Path]:
    func, _ = RECIPES[name]
    make_fixtures()
    started = time.monotonic()
    try:
        session, data = func()
    finally:
        for leftover in list(Session.live):
            leftover._close()
    paths = [save(snap, snap_data) for snap, snap_data in session.snapshots.items()]
    paths.append(save(name, data))
    notes = []
    if session.answered:
        notes.append("answered " + ", ".join(f"{k} x{v}" for k, v in session.answered.items()))
    if session.ignored:
        notes.append("ignored " + ", ".join(f"{k} x{v}" for k, v in session.ignored.items()))
    for path in paths:
        print(f"recorded {path.name}: {path.stat().st_size} bytes")
    summary = f"  {name}: {time.monotonic() - started:.1f}s"
    print("; ".join([summary, *notes]))
    return paths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="recipes to record (default: all)")
    parser.add_argument("--list", action="store_true", help="list recipes and exit")
    parser.add_argument("--no-reference", action="store_true",
                        help="do not run tmux_reference.py on the new recordings")
    parser.add_argument("--engine", type=Path,
                        help="termengine binary that answers the programs' queries "
                             "(default: .build/release/termengine, then .build/debug)")
    args = parser.parse_args()

    global ENGINE
    candidates = [args.engine] if args.engine else [TOOLS.parent.parent / ".build/release/termengine",
                                                   TOOLS.parent.parent / ".build/debug/termengine"]
    ENGINE = next((path for path in candidates if path and path.is_file()), None)
    print(f"queries answered by {ENGINE or 'fixed replies (no engine found)'}")

    if args.list:
        for name, (_, snaps) in RECIPES.items():
            print(name + (f"  (+ {', '.join(snaps)})" if snaps else ""))
        return 0

    unknown = [n for n in args.names if n not in RECIPES]
    if unknown:
        parser.error(f"unknown recipe(s): {', '.join(unknown)}; see --list")

    RECORDINGS.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    try:
        for name in args.names or list(RECIPES):
            written += record(name)
    finally:
        shutil.rmtree(WORKDIR, ignore_errors=True)

    total = sum(p.stat().st_size for p in RECORDINGS.glob("*.bin"))
    print(f"all recordings: {total} bytes")
    if total > MAX_TOTAL_BYTES:
        print(f"warning: recordings exceed {MAX_TOTAL_BYTES} bytes in total", file=sys.stderr)

    if not args.no_reference:
        sys.path.insert(0, str(TOOLS))
        import tmux_reference
        for path in written:
            out = tmux_reference.write_reference(path, COLS, ROWS)
            print(f"reference {out.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
