#!/usr/bin/env bash
# The throughput and memory benchmark (docs/PERFORMANCE.md), from nothing:
# installs the reference engines (Debian packages; Ghostty's libghostty-vt
# from the PyPI wheel pyghostty, with pip; SwiftTerm from the copy in
# ../shared/anchors/SwiftTerm), builds TermEngine,
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
#   PYGHOSTTY_VERSION the pyghostty wheel to install (default 0.1.3)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SIZES=${SIZES:-80x24,200x50}
SCRATCH=${SCRATCH:-$ROOT/.build}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/Benchmarks/reference/rust/target}
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1}
BIN=$ROOT/Benchmarks/build/bin
PYGHOSTTY_VERSION=${PYGHOSTTY_VERSION:-0.1.3}
# The harness package names this path (relative to itself) as its dependency.
SWIFTTERM_DIR=$ROOT/../shared/anchors/SwiftTerm
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
# The whole-process race runs termengine as README's release build makes it,
# one static executable (start-up 1.5 ms instead of 5: PERFORMANCE.md,
# "Start-up and footprint"), built apart so that the dynamic build stays as
# it is; where it does not link, the dynamic one races, and the run says so.
subject=()
say "building termengine as a static executable (release) for the whole-process race"
if swift build -c release --scratch-path "$SCRATCH/static" --product termengine -Xswiftc -static-executable >&2; then
    subject=(--termengine "$SCRATCH/static/release/termengine")
else
    say "the static termengine failed to build: the race runs the dynamic one"
fi

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

# Ghostty: libghostty-vt from the pyghostty wheel, installed with pip into
# Benchmarks/build/ghostty/site (not committed; no Python binding is used,
# only the library and the C declarations the wheel carries). An old harness
# is removed first, so that a failed install or build leaves Ghostty out of
# the run instead of measuring a stale binary.
GHOSTTY_SITE=$ROOT/Benchmarks/build/ghostty/site
rm -f "$BIN/ghostty-harness" "$BIN/ghostty-harness.version"
installed=$(sed -n 's/^Version: //p' "$GHOSTTY_SITE"/pyghostty-*.dist-info/METADATA 2>/dev/null || true)
if [ "$installed" != "$PYGHOSTTY_VERSION" ]; then
    say "installing libghostty-vt: pip install pyghostty==$PYGHOSTTY_VERSION into $GHOSTTY_SITE"
    rm -rf "$GHOSTTY_SITE"
    python3 -m pip install --quiet --no-deps --target "$GHOSTTY_SITE" "pyghostty==$PYGHOSTTY_VERSION" >&2 ||
        say "pip could not install pyghostty: Ghostty is left out of this run"
fi
if [ -f "$GHOSTTY_SITE/pyghostty/_lib/libghostty-vt.so" ]; then
    say "building the Ghostty harness"
    if make -s -C Benchmarks/reference/ghostty SITE="$GHOSTTY_SITE" OUT="$BIN"; then
        rev=$(sed -n '1s/.*from ghostty \([0-9a-f]*\).*/\1/p' "$GHOSTTY_SITE/pyghostty/_cdef.py")
        echo "libghostty-vt (ghostty ${rev:-?}, ReleaseFast) from PyPI pyghostty $PYGHOSTTY_VERSION" >"$BIN/ghostty-harness.version"
    else
        say "Ghostty harness failed to build: Ghostty is left out of this run"
    fi
fi

# SwiftTerm: a release build of its own package (never a dependency of the
# root Package.swift), against the read-only copy beside this checkout.
rm -f "$BIN/swiftterm-harness" "$BIN/swiftterm-harness.version"
if [ -f "$SWIFTTERM_DIR/Package.swift" ]; then
    say "building the SwiftTerm harness (release) against $SWIFTTERM_DIR"
    if swift build -c release --package-path Benchmarks/reference/swiftterm/harness \
        --scratch-path "$ROOT/Benchmarks/build/swiftterm" --product swiftterm-harness >&2; then
        cp "$ROOT/Benchmarks/build/swiftterm/release/swiftterm-harness" "$BIN/"
        commit=$(grep -o 'SwiftTerm at [0-9a-f]*' "$SWIFTTERM_DIR/Package.swift" | head -1 | cut -d' ' -f3)
        echo "SwiftTerm ${commit:-?} (../shared/anchors/SwiftTerm), swift build -c release" >"$BIN/swiftterm-harness.version"
    else
        say "SwiftTerm harness failed to build: SwiftTerm is left out of this run"
    fi
else
    say "no SwiftTerm sources at $SWIFTTERM_DIR: SwiftTerm is left out of this run"
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
exec "$SCRATCH/release/termbench" run --sizes "$SIZES" --harness-dir "$BIN" "${subject[@]}" "${base[@]}" "$@"
