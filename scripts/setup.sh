#!/usr/bin/env bash
# Installs what building and testing TermEngine need, when it is missing.
# Safe to run again: it only installs packages that are absent.
set -euo pipefail

need=()
[ -f /usr/include/utf8proc.h ] || need+=(libutf8proc-dev)
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
command -v tmux >/dev/null 2>&1 || need+=(tmux)
command -v python3 >/dev/null 2>&1 || need+=(python3)

if [ ${#need[@]} -gt 0 ]; then
    echo "setup: installing ${need[*]}" >&2
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

command -v swift >/dev/null 2>&1 || { echo "setup: swift is not on PATH (Swift 6 toolchain required)" >&2; exit 1; }
