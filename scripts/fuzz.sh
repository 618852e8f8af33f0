#!/usr/bin/env bash
# Builds the libFuzzer targets of Tests/Fuzz and runs one or all of them.
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS]      (default: all, 60 seconds each)
#
# Targets: terminal compaction wire websocket preview title (Tests/Fuzz/README.md).
# Each runs alone (one process: the machine's cores are shared) for SECONDS,
# starting from the committed seeds (Tests/Fuzz/corpus/<target>) and the
# working corpus of earlier runs (Tests/Fuzz/.work/<target>, not committed).
# Prints, per target, libFuzzer's final executions, coverage (cov, ft), exec/s
# and corpus size. Exits 1 when a target crashed or a property failed; the
# input is then in Tests/Fuzz/.work/crashes/, and its path is printed.
#
# Environment:
#   FUZZ_KEEP_GOING=1   run with -fork=1 -ignore_crashes=1: crashes are saved and
#                       fuzzing goes on (for long runs over known bugs)
#   FUZZ_STRICT=1       let the known, not yet fixed bugs through (see
#                       Tests/Fuzz/Sources/FuzzSupport/KnownBugs.swift): by
#                       default inputs that only reach them are skipped
#   FUZZ_ARGS="..."     more libFuzzer flags
set -euo pipefail
cd "$(dirname "$0")/.."

ALL_TARGETS=(terminal compaction wire websocket preview title)
target=${1:-all}
seconds=${2:-60}
if [ "$target" = all ]; then
    targets=("${ALL_TARGETS[@]}")
elif [[ " ${ALL_TARGETS[*]} " == *" $target "* ]]; then
    targets=("$target")
else
    echo "fuzz.sh: unknown target '$target' (one of: ${ALL_TARGETS[*]} all)" >&2
    exit 2
fi
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || {
    echo "fuzz.sh: SECONDS must be a whole number above 0, got '$seconds'" >&2
    exit 2
}

# What the package links against (as scripts/setup.sh installs them), without
# setup.sh's test-only tools.
need=()
[ -f /usr/include/utf8proc.h ] || need+=(libutf8proc-dev)
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
[ -f /usr/include/openssl/ssl.h ] || need+=(libssl-dev)
if [ ${#need[@]} -gt 0 ]; then
    echo "fuzz.sh: installing ${need[*]}" >&2
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
command -v swift >/dev/null 2>&1 || { echo "fuzz.sh: swift is not on PATH (Swift 6 toolchain required)" >&2; exit 1; }
# libFuzzer comes with the toolchain's clang runtime, not from apt.
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")
if ! ls "$toolchain"/lib/swift/clang/lib/*/libclang_rt.fuzzer*.a >/dev/null 2>&1 \
    && ! ls "$toolchain"/lib/clang/*/lib/*/libclang_rt.fuzzer*.a >/dev/null 2>&1; then
    echo "fuzz.sh: this toolchain ($toolchain) has no libFuzzer runtime (libclang_rt.fuzzer)" >&2
    exit 1
fi

# One build of every fuzzer: the whole package graph instrumented for
# coverage and AddressSanitizer; -enable-testing so that the targets can
# @testable import the internal frame parser, handshake and JSON reader.
#
# Not `--sanitize=fuzzer --sanitize=address`: SwiftPM hands those to swiftc as
# two options, in no fixed order, and swiftc keeps only the last -sanitize=,
# so a build came out either without coverage or without ASan. --sanitize=fuzzer
# stays, because it is what makes SwiftPM build the executables as libraries
# (`main` then comes from libFuzzer); the combined -sanitize=fuzzer,address
# comes after it and wins, for compiling and for linking.
build=(swift build --package-path Tests/Fuzz -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
    -Xcc -fsanitize=address -Xswiftc -enable-testing)
echo "== building the fuzzers (${build[*]})"
build_start=$(date +%s)
mkdir -p Tests/Fuzz/.work
if ! "${build[@]}" >Tests/Fuzz/.work/build.log 2>&1; then
    grep -v "__asan_extra_spill_area" Tests/Fuzz/.work/build.log >&2
    echo "fuzz.sh: the build failed" >&2
    exit 1
fi
bin=$("${build[@]}" --show-bin-path)
for name in "${targets[@]}"; do
    [ -x "$bin/fuzz-$name" ] || { echo "fuzz.sh: the build did not produce $bin/fuzz-$name" >&2; exit 1; }
done
echo "   built in $(($(date +%s) - build_start)) s"

work=Tests/Fuzz/.work
mkdir -p "$work/crashes"

dictionary() {
    case "$1" in
        terminal | compaction) echo Tests/Fuzz/dict/terminal.dict ;;
        wire | preview) echo Tests/Fuzz/dict/json.dict ;;
        websocket) echo Tests/Fuzz/dict/websocket.dict ;;
        title) echo Tests/Fuzz/dict/title.dict ;;
    esac
}

# The conformance inputs (../shared/conformance, present on developer
# machines and in CI) join the working corpus of the stream targets. They are
# not committed: that folder's README asks that they stay out of the
# repository. Each gets the target's header: 80x25, 20 lines of scrollback.
add_conformance() {
    local name=$1 corpus=$2 file header
    case "$name" in
        terminal) header='\x4f\x18\x14\x00' ;;
        compaction) header='\x4f\x18\x14\x00\x00\x00\x00\x00' ;;
        *) return 0 ;;
    esac
    for file in ../shared/conformance/xtermjs/*.in; do
        [ -f "$file" ] || return 0
        [ -f "$corpus/xtermjs-$(basename "$file")" ] && continue
        { printf "$header"; head -c 4000 "$file"; } >"$corpus/xtermjs-$(basename "$file")"
    done
}

# SWIFT_BACKTRACE=enable=no: Swift's own crash handler would otherwise run
# first on a trap and read memory that AddressSanitizer reports as a second,
# bogus error; libFuzzer's handler prints the stack instead.
export SWIFT_BACKTRACE=enable=no
# Four frames of allocation stack per heap block instead of 30: allocation
# bookkeeping is the largest cost in these targets (a third of the time in
# the terminal target), and four frames still name the allocating function.
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=4}
status=0
summary=()
for name in "${targets[@]}"; do
    corpus=$work/$name
    mkdir -p "$corpus"
    add_conformance "$name" "$corpus"
    log=$work/$name.log
    flags=(-max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=3072
        -dict="$(dictionary "$name")" -artifact_prefix="$work/crashes/$name-")
    if [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then flags+=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1); fi
    # shellcheck disable=SC2206
    [ -n "${FUZZ_ARGS:-}" ] && flags+=($FUZZ_ARGS)
    echo "== fuzz-$name for $seconds s"
    marker=$work/.started-$name
    touch "$marker"
    set +e
    "$bin/fuzz-$name" "${flags[@]}" "$corpus" "Tests/Fuzz/corpus/$name" >"$log" 2>&1
    code=$?
    set -e
    # The last status line ("#123 DONE cov: 10 ft: 20 corp: 30/4Kb ..."),
    # the final stats, and the crash file if there is one.
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1 || true)
    [ -n "$runs" ] || runs=$(echo "$last" | grep -oE '^#[0-9]+' | tr -d '#')
    speed=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1 || true)
    [ -n "$speed" ] || speed=$(echo "$last" | grep -oE 'exec/s: [0-9]+' | grep -oE '[0-9]+' || true)
    cov=$(echo "$last" | grep -oE 'cov: [0-9]+' | grep -oE '[0-9]+' || true)
    ft=$(echo "$last" | grep -oE 'ft: [0-9]+' | grep -oE '[0-9]+' || true)
    # "corp: 30/4Kb" normally, "corp: 30" (inputs only) in fork mode.
    corp=$(echo "$last" | grep -oE 'corp: [0-9]+(/[0-9]+[a-zA-Z]*)?' | cut -d' ' -f2 || true)
    # Whatever libFuzzer wrote to the crash folder during this run (crash-,
    # leak-, timeout-, oom- files; several with FUZZ_KEEP_GOING).
    crashes=$(find "$work/crashes" -type f -newer "$marker" -name "$name-*" | sort)
    line="$name: runs=${runs:-?} exec/s=${speed:-?} cov=${cov:-?} ft=${ft:-?} corpus=${corp:-?}"
    if [ "$code" -ne 0 ] || [ -n "$crashes" ]; then
        status=1
        grep -E "FUZZ PROPERTY FAILED|ERROR: (libFuzzer|AddressSanitizer)|SUMMARY:" "$log" | head -5 | sed 's/^/   /' || true
        grep -E '^ *#[0-9]+ 0x' "$log" | grep -vE 'libFuzzer|compiler-rt|libc\.so|fuzzCheck|sanitizer' | head -4 | sed 's/^/   /' || true
        count=$(echo "$crashes" | grep -c . || true)
        for file in $(echo "$crashes" | head -5); do line="$line CRASH: $file"; done
        [ "$count" -gt 5 ] && line="$line (and $((count - 5)) more crash files in $work/crashes)"
        line="$line (exit $code, log $log)"
    fi
    echo "   $line"
    summary+=("$line")
done
echo "== summary"
printf '   %s\n' "${summary[@]}"
exit $status
