#!/usr/bin/env python3
"""Runs esctest2, xterm's own escape-sequence test suite, with TermEngine as
the terminal, and compares every result with real xterm 379's.

esctest runs inside a terminal: it writes sequences to its tty and reads the
answers (CPR, DECRQSS, DECRQM, DECRQCRA checksums that read the screen a
cell at a time). This host puts esctest.py on a PTY at 80x25 and acts as the
terminal: every chunk esctest writes goes to `termengine respond` (one
Terminal for the whole run), and the replies go back into the PTY.

As ../shared/conformance/esctest2/README-termengine.md says: the suite is
copied to a temporary folder and its one upstream checksum bug is fixed in
the copy (escutil.py turns a DEC checksum into a character as 0x10000 - x
with no mod 2^16); the options are xterm's run's: --expected-terminal=xterm
--max-vt-level=4 --timeout=1, no --options.

Output: one line per test (`pass`, `FAIL`, `expected`, `skip`, with xterm's
result beside it), then `N passed, N failed` over the tests that are not
host-dependent. Exit status 1 when a test xterm passes fails here and is not
in the deviations file, or a listed deviation passes; 0 otherwise.

The suite is looked for in ../shared/conformance/esctest2 beside the project
root, or $TERMENGINE_SHARED_DIR/conformance/esctest2 when that is set (or
--suite). When it is absent the run is reported SKIPPED, never passed, with
exit status 0; under CI=true, where the material is always present, that is
a failure (exit status 1).

Usage:
    esctest_host.py --engine .build/debug/termengine [--include REGEX]
                    [--deviations FILE] [--suite DIR] [--keep-log FILE]
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ["TERMENGINE_SHARED_DIR"]) if os.environ.get("TERMENGINE_SHARED_DIR") else ROOT.parent / "shared"
SUITE = SHARED / "conformance" / "esctest2"
DEVIATIONS = ROOT / "Tests" / "TermCoreTests" / "Conformance" / "esctest-deviations.tsv"
COLS, ROWS = 80, 25

# Tests that measure the host, not the engine (README-termengine.md): they
# need a window system (move, resize, iconify, maximize, full screen; DECSLPP
# as a window resize), an X selection owner, or a black default foreground.
HOST_DEPENDENT = [
    r"XtermWinopsTests\.test_XtermWinops_IconifyDeiconfiy",
    r"XtermWinopsTests\.test_XtermWinops_MoveToXY",
    r"XtermWinopsTests\.test_XtermWinops_ResizePixels_",
    r"XtermWinopsTests\.test_XtermWinops_ResizeChars_",
    r"XtermWinopsTests\.test_XtermWinops_MaximizeWindow_",
    r"XtermWinopsTests\.test_XtermWinops_Fullscreen",
    r"DECSLPPTests\.",
    r"XtermWinopsTests\.test_XtermWinops_DECSLPP",
    r"DECRQSSTests\.test_DECRQSS_DECSLPP",
    r"ResetSpecialColorTests\.test_ResetSpecialColor_Dynamic",
    r"ManipulateSelectionDataTests\.test_ManipulateSelectionData_default",
]

# Lines esctest writes to its log (esctest.py RunTest).
RUN = re.compile(r"^Run test: (\S+)")
OUTCOMES = [
    (re.compile(r"^Passed\."), "pass"),
    (re.compile(r"^\*\*\* TEST \S+ FAILED"), "fail"),
    (re.compile(r"^Fails as expected"), "expected"),
    (re.compile(r"^Skipped because"), "skip"),
]


def prepare_suite(source: Path, into: Path) -> Path:
    """A copy of esctest with the checksum fix applied; returns esctest.py."""
    copy = into / "esctest"
    shutil.copytree(source / "esctest", copy)
    escutil = copy / "escutil.py"
    text = escutil.read_text()
    fixed = text.replace("actual_checksum = 0x10000 - actual_checksum",
                         "actual_checksum = (0x10000 - actual_checksum) & 0xFFFF")
    if fixed == text:
        raise SystemExit("esctest_host: the checksum line in escutil.py was not found; "
                         "the suite changed, update prepare_suite")
    escutil.write_text(fixed)
    return copy / "esctest.py"


def frame(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def read_exactly(stream, count: int) -> bytes:
    data = b""
    while len(data) < count:
        chunk = stream.read(count - len(data))
        if not chunk:
            raise SystemExit("esctest_host: termengine respond ended")
        data += chunk
    return data


def run_suite(engine: str, esctest: Path, include: str, log: Path, timeout: float) -> None:
    """esctest on a PTY, this engine answering, until esctest exits."""
    responder = subprocess.Popen([engine, "respond", "--cols", str(COLS), "--rows", str(ROWS)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    pid, master = pty.fork()
    if pid == 0:
        os.chdir(esctest.parent)
        os.execvp(sys.executable, [sys.executable, str(esctest), "--expected-terminal=xterm",
                                   "--max-vt-level=4", "--timeout=1", "--no-print-logs",
                                   f"--logfile={log}", f"--include={include}"])
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    deadline = time.monotonic() + timeout
    status = None
    try:
        while True:
            if time.monotonic() > deadline:
                raise SystemExit(f"esctest_host: the suite did not finish in {timeout:.0f} s")
            ready, _, _ = select.select([master], [], [], 1.0)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: the child closed its side
                    data = b""
                if not data:
                    break
                responder.stdin.write(frame(data))
                responder.stdin.flush()
                length = struct.unpack(">I", read_exactly(responder.stdout, 4))[0]
                reply = read_exactly(responder.stdout, length)
                if reply:
                    os.write(master, reply)
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                # Drain what is left, then stop.
                status = status
                if not select.select([master], [], [], 0.1)[0]:
                    break
    finally:
        if status is None:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(master)
        responder.stdin.close()
        responder.wait(timeout=10)


def parse_log(log: Path) -> dict[str, str]:
    results: dict[str, str] = {}
    current = None
    for line in log.read_text(errors="replace").splitlines():
        match = RUN.match(line)
        if match:
            current = match.group(1)
            continue
        if current is None:
            continue
        for pattern, outcome in OUTCOMES:
            if pattern.match(line):
                results[current] = outcome
                current = None
                break
    return results


def load_deviations(path: Path) -> dict[str, str]:
    deviations: dict[str, str] = {}
    if not path.exists():
        return deviations
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, _, reason = line.partition("\t")
        if not reason.strip():
            raise SystemExit(f"esctest_host: {path.name}: {name} has no reason")
        deviations[name.strip()] = reason.strip()
    return deviations


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="the termengine binary")
    parser.add_argument("--include", default=".*", help="regex of test names to run")
    parser.add_argument("--deviations", type=Path, default=DEVIATIONS)
    parser.add_argument("--suite", type=Path, default=SUITE)
    parser.add_argument("--keep-log", type=Path, help="copy esctest's log here")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds for the whole run")
    args = parser.parse_args()

    needed = [args.suite / "esctest" / "esctest.py", args.suite / "xterm-379-results.json"]
    missing = [str(path) for path in needed if not path.exists()]
    if missing:
        # Never counted as passed: under CI the conformance material must be there.
        if os.environ.get("CI") == "true":
            print(f"esctest_host: FAILED, the esctest2 material is missing (CI=true requires it): "
                  f"looked for {', '.join(missing)}")
            return 1
        print(f"esctest_host: SKIPPED, the esctest2 material is missing: looked for {', '.join(missing)}")
        return 0
    xterm = json.loads((args.suite / "xterm-379-results.json").read_text())
    deviations = load_deviations(args.deviations)
    host_dependent = re.compile("|".join(HOST_DEPENDENT))

    with tempfile.TemporaryDirectory(prefix="esctest-") as folder:
        esctest = prepare_suite(args.suite, Path(folder))
        log = Path(folder) / "esctest.log"
        run_suite(args.engine, esctest, args.include, log, args.timeout)
        if args.keep_log:
            shutil.copyfile(log, args.keep_log)
        results = parse_log(log)

    if not results:
        print("esctest_host: esctest reported no test (see --keep-log)")
        return 1
    passed = failed = 0
    problems = []
    for name in sorted(results):
        ours, theirs = results[name], xterm.get(name, "absent")
        label = {"pass": "pass", "fail": "FAIL", "expected": "expected", "skip": "skip"}[ours]
        if host_dependent.search(name):
            print(f"{label:8} {name} (host-dependent; xterm: {theirs})")
            continue
        if ours == "pass":
            passed += 1
        elif ours == "fail":
            failed += 1
        note = ""
        if name in deviations:
            note = f" [deviation: {deviations[name]}]"
            if ours == "pass":
                problems.append(f"{name} passes but is listed as a deviation: remove it from {args.deviations.name}")
        elif ours == "fail" and theirs == "pass":
            problems.append(f"{name} fails here and passes in xterm 379")
        print(f"{label:8} {name} (xterm: {theirs}){note}")
    for name in sorted(set(deviations) - set(results)):
        if re.search(args.include, name):
            problems.append(f"{name} is listed as a deviation but did not run")
    print(f"esctest2: {passed} passed, {failed} failed")
    for problem in problems:
        print(f"esctest_host: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
