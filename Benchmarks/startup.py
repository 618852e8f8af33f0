#!/usr/bin/env python3
"""Start-up and footprint of a termengine binary (docs/PERFORMANCE.md,
"Start-up and footprint"): `replay --quiet` of an empty file, run N times.

    python3 Benchmarks/startup.py .build/release/termengine
    python3 Benchmarks/startup.py --runs 50 BINARY [ARGS...]

Prints the median, mean and fastest wall time of the runs (from the spawn to
the reaped exit, measured here with a monotonic clock), the median CPU time
(user + system, from the child's rusage), the largest peak resident size of
five more runs under GNU time (its "Maximum resident set size": the rusage of
a child spawned from here would count this Python process's own size, which
the kernel carries across the exec), and the shared libraries the binary
loads (the lines of `ldd` that name a file, the dynamic loader included; 0
for a static executable). Without ARGS, the command is
`replay --quiet --cols 80 --rows 24 --scrollback 10000 EMPTY`.
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time


def run_once(argv):
    """Wall seconds and CPU seconds of one run."""
    with open(os.devnull, "wb") as null:
        start = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[
            (os.POSIX_SPAWN_DUP2, null.fileno(), 1)])
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"startup.py: {argv} exited with {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime


def peak_resident_kib(argv):
    """The largest "Maximum resident set size" of five runs under GNU time."""
    if not os.path.exists("/usr/bin/time"):
        return None  # Debian: apt-get install time
    peaks = []
    for _ in range(5):
        result = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, check=True)
        peaks.append(int(result.stderr.strip().splitlines()[-1]))
    return max(peaks)


def shared_libraries(binary):
    result = subprocess.run(["ldd", binary], capture_output=True, text=True)
    if result.returncode != 0:
        return 0  # "not a dynamic executable"
    return sum(1 for line in result.stdout.splitlines() if "/" in line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("binary")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    with tempfile.NamedTemporaryFile(prefix="startup-empty-") as empty:
        args = options.args or ["replay", "--quiet", "--cols", "80", "--rows", "24",
                                "--scrollback", "10000", empty.name]
        argv = [binary] + args
        run_once(argv)  # warm the page cache
        runs = [run_once(argv) for _ in range(options.runs)]
        peak = peak_resident_kib(argv)
    walls = [wall * 1000 for wall, _ in runs]
    cpus = [cpu * 1000 for _, cpu in runs]
    print(f"{options.runs} runs of {' '.join([options.binary] + args)}")
    print(f"wall ms: median {statistics.median(walls):.2f}, mean {statistics.mean(walls):.2f}, "
          f"fastest {min(walls):.2f}")
    print(f"cpu ms (user + system): median {statistics.median(cpus):.2f}")
    print("peak resident: " + (f"{peak / 1024:.1f} MiB" if peak else "not measured (no /usr/bin/time)"))
    print(f"shared libraries: {shared_libraries(binary)}")


if __name__ == "__main__":
    main()
