#!/usr/bin/env bash
# Builds render-bench as it was at git revision REV (default: main) beside
# this checkout, for `render-bench thumbnail --base PATH`, and prints PATH.
# The tree is exported with git archive into Benchmarks/build/base-<commit>/src
# (as termbench --base does), so neither this checkout nor its .build is touched.
#
#   swift build -c release --product render-bench
#   .build/release/render-bench thumbnail --base "$(bash Benchmarks/render-bench-base.sh main)" --rounds 5
set -euo pipefail
cd "$(dirname "$0")/.."
commit=$(git rev-parse --verify --quiet "${1:-main}^{commit}")
short=$(git rev-parse --short "$commit")
source=Benchmarks/build/base-$short/src
if [ "$(cat "$source/.termbench-base-commit" 2>/dev/null)" != "$commit" ]; then
    rm -rf "$source"
    mkdir -p "$source"
    git archive "$commit" | tar -x -C "$source"
    echo "$commit" >"$source/.termbench-base-commit"
fi
(cd "$source" && swift build -c release --product render-bench >&2)
echo "$PWD/$source/.build/release/render-bench"
