#!/usr/bin/env bash
# The main job: generate a 16 MiB replay, replay it through the engine,
# print the final screen and the throughput.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --product termengine
mkdir -p Corpus/generated
python3 Corpus/generate.py --kind mixed --size $((16 << 20)) --seed 1 -o Corpus/generated/mixed-16MiB.bin
.build/release/termengine replay Corpus/generated/mixed-16MiB.bin --cols 80 --rows 24
