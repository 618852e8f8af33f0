#!/usr/bin/env bash
# The throughput and memory benchmark (docs/PERFORMANCE.md), from nothing:
# installs the reference engines (Debian packages), builds TermEngine,
# termbench and the reference harnesses, generates the corpus for each size
# (Corpus/generated/, not committed) and runs `termbench run`, which prints
# the table and writes Benchmarks/results/latest.json and latest.svg.
#
#   bash Benchmarks/run.sh                 full run (about 15 minutes on 2 cores)
#   bash Benchmarks/run.sh --quick         one run per measurement, one race run
#   bash Benchmarks/run.sh --only scrolling,unicode --no-race
#   BASE=origin/main bash Benchmarks/run.sh   also race TermEngine built at
#                                            origin/main (termbench --base)
#
# Any option is passed to `termbench run` (see `termbench help`). Environment:
#   SIZES             sizes to generate and run (default 80x24,200x50)
#   BASE              a git revision to build (Benchmarks/build/base-<commit>/)
#                     and measure as one more engine, termengine@<commit>,
#                     for the before/after ratio (default: none)
#   SCRATCH           Swift build directory (default .build)
#   CARGO_TARGET_DIR  Rust build directory (default Benchmarks/reference/rust/target)
#   CARGO_BUILD_JOBS  parallel Rust jobs (default 1: the machine is shared)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SIZES=${SIZES:-80x24,200x50}
SCRATCH=${SCRATCH:-$ROOT/.build}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/Benchmarks/reference/rust/target}
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1}
BIN=$ROOT/Benchmarks/build/bin
say() { echo "run.sh: $*" >&2; }

# 1. What the engines, harnesses and recordings need.
need=()
for pair in libvterm-dev:/usr/include/vterm.h \
            librust-alacritty-terminal-dev:/usr/share/cargo/registry/alacritty_terminal-0.17.0 \
            librust-vt100-dev:/usr/share/cargo/registry/vt100-0.15.1 \
            libutf8proc-dev:/usr/include/utf8proc.h; do
    [ -e "${pair#*:}" ] || need+=("${pair%%:*}")
done
for tool in git:git gcc:gcc vim:vim less:less make:make python3:python3; do
    command -v "${tool%%:*}" >/dev/null 2>&1 || need+=("${tool#*:}")
done
command -v cargo >/dev/null 2>&1 || need+=(cargo)
[ -x /usr/bin/time ] || need+=(time)  # GNU time: truthful peak RSS of each engine process
if [ ${#need[@]} -gt 0 ]; then
    say "installing ${need[*]}"
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# 2. TermEngine and termbench.
say "building termengine and termbench (release)"
swift build -c release --scratch-path "$SCRATCH" --product termengine >&2
swift build -c release --scratch-path "$SCRATCH" --product termbench >&2

# 3. Reference harnesses. A reference that fails to build is left out of
#    the run (termbench says so) rather than stopping it.
mkdir -p "$BIN"
say "building the libvterm harness"
make -s -C Benchmarks/reference/libvterm OUT="$BIN" || say "libvterm harness failed to build"
say "building the Rust harnesses (alacritty_terminal, vt100) from Debian's crate sources"
if (cd Benchmarks/reference/rust && cargo build --release --offline --quiet); then
    cp "$CARGO_TARGET_DIR/release/alacritty-harness" "$CARGO_TARGET_DIR/release/vt100-harness" "$BIN/"
else
    say "Rust harnesses failed to build"
fi

# 4. The corpus for each size: synthetic kinds, then recordings of real
#    programs. Both keep files that are already up to date.
for size in ${SIZES//,/ }; do
    cols=${size%x*}
    rows=${size#*x}
    say "corpus for $size"
    python3 Corpus/generate.py --suite "Corpus/generated/$size" --cols "$cols" --rows "$rows"
    python3 Corpus/record_streams.py --out-dir "Corpus/generated/$size" --cols "$cols" --rows "$rows"
done

# 5. The benchmark.
base=()
[ -n "${BASE:-}" ] && base=(--base "$BASE")
exec "$SCRATCH/release/termbench" run --sizes "$SIZES" --harness-dir "$BIN" "${base[@]}" "$@"
