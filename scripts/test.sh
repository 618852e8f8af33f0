#!/usr/bin/env bash
# Every test: the Swift suites (unit, conformance harnesses, property and
# robustness tests), then the comparison of real program recordings with tmux.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build
swift test
python3 Corpus/tools/compare_tmux.py --engine .build/debug/termengine

# Fuzz smoke (issue #16; Tests/Fuzz/README.md): every libFuzzer target for 10 s
# from its committed seeds, with AddressSanitizer; a crash or a failed
# property fails the run, and the input's path is printed.
bash scripts/fuzz.sh all 10
