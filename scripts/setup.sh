#!/usr/bin/env bash
# Installs what building and testing TermEngine need, when it is missing.
# Safe to run again: it only installs packages that are absent.
set -euo pipefail

need=()
[ -f /usr/include/utf8proc.h ] || need+=(libutf8proc-dev)
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
command -v tmux >/dev/null 2>&1 || need+=(tmux)
# Corpus/tools/run_tmux.py compares `termengine run` of less, vim and bash with tmux...
command -v less >/dev/null 2>&1 || need+=(less)
command -v vim >/dev/null 2>&1 || need+=(vim)
# ...and draws htop through it, then resizes it.
command -v htop >/dev/null 2>&1 || need+=(htop)
command -v python3 >/dev/null 2>&1 || need+=(python3)
# TermAttach: OpenSSL for wss:// (libssl-dev), the openssl command for the
# TLS tests' throw-away CA, pip for the test peer's `websockets`.
[ -f /usr/include/openssl/ssl.h ] || need+=(libssl-dev)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip)
# The thumbnail tests check glyphs against GNU Unifont itself: its .hex files
# (unifont) and, for the planes above the BMP, its OpenType font drawn by
# FreeType through Pillow (fonts-unifont). scripts/make_unifont.py reads
# the same files to generate the committed font data.
[ -f /usr/share/unifont/unifont.hex ] || need+=(unifont)
[ -f /usr/share/fonts/opentype/unifont/unifont_upper.otf ] || need+=(fonts-unifont)

if [ ${#need[@]} -gt 0 ]; then
    echo "setup: installing ${need[*]}" >&2
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# The attach test peer (TestPeer/peer.py) needs websockets >= 17: its asyncio
# server hands requests with other methods than GET (DELETE) to process_request.
if ! python3 -c "import sys, websockets.asyncio.server as s, websockets; sys.exit(int(websockets.__version__.split('.')[0]) < 17)" >/dev/null 2>&1; then
    echo "setup: installing the Python package websockets" >&2
    python3 -m pip install --quiet "websockets>=17" 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages "websockets>=17"
fi

# Pillow draws unifont_upper.otf for the thumbnail tests (see above).
if ! python3 -c "import PIL" >/dev/null 2>&1; then
    echo "setup: installing the Python package pillow" >&2
    python3 -m pip install --quiet pillow 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages pillow
fi

command -v swift >/dev/null 2>&1 || { echo "setup: swift is not on PATH (Swift 6 toolchain required)" >&2; exit 1; }
