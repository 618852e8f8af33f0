#!/usr/bin/env python3
"""Writes the committed seed corpora, Tests/Fuzz/corpus/<target>/.

Run from anywhere: python3 Tests/Fuzz/make_seeds.py. The output is
deterministic, so running it again changes nothing unless this file or the
project's own inputs changed.

Sources: the project's recordings (Corpus/recordings, cut to a few KiB),
Corpus/generate.py's seeded replays, and sequences written here for what
the fuzzers should reach early (the saved cursor, DECCOLM, hyperlinks,
titles...). ../shared/conformance is not copied into the repository (its
README asks not to): scripts/fuzz.sh adds its inputs to the working corpus at
run time instead.

Every seed carries its target's header (Tests/Fuzz/README.md), so that it is
read as intended.
"""

import json
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RECORDINGS = os.path.join(ROOT, "Corpus", "recordings")
# Seeds stay small: libFuzzer's default -max_len is the largest seed, and
# short inputs run fast.
MAX_STREAM = 3000

ESC = b"\x1b"
CSI = b"\x1b["
OSC = b"\x1b]"
ST = b"\x1b\\"


def recording(name, start=0, length=MAX_STREAM):
    with open(os.path.join(RECORDINGS, name), "rb") as f:
        return f.read()[start:start + length]


def generated(kind, seed, cols, rows, size=2048):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "out.bin")
        subprocess.run(
            [sys.executable, os.path.join(ROOT, "Corpus", "generate.py"), "--kind", kind, "--size", str(size),
             "--seed", str(seed), "--cols", str(cols), "--rows", str(rows), "-o", path],
            check=True, capture_output=True)
        with open(path, "rb") as f:
            return f.read()[:size]


# Streams written for the engine's harder corners: each is a few sequences
# a fuzzer would take long to assemble by mutation alone.
HANDWRITTEN = {
    "saved_cursor_alt": CSI + b"20;70H" + ESC + b"7" + CSI + b"?1049h" + b"alt" + CSI + b"?1049l" + ESC + b"8x",
    "deccolm": CSI + b"?40h" + CSI + b"?3h" + b"wide mode" + CSI + b"?3l" + b"narrow",
    "hyperlinks": OSC + b"8;id=a;https://example.com/\x07link" + OSC + b"8;;\x07 plain "
    + OSC + b"8;id=b;file:///tmp\x1b\\other" + OSC + b"8;;" + ST,
    "titles": OSC + b"0;title \xe2\x80\xae reversed\x07" + OSC + b"2;" + b"x" * 300 + b"\x07"
    + CSI + b"22;0t" + OSC + b"1;icon\x07" + CSI + b"23;0t",
    "sgr": CSI + b"1;3;4:3;58:2::255:0:0;38;5;196;48;2;1;2;3mstyled" + CSI + b"0m" + CSI + b"7;9;53mx" + CSI + b"m",
    "wide_and_clusters": "一二三 e\u0301 \U0001F468\u200D\U0001F469 \U0001F1EB\U0001F1F7 ｱ".encode() + CSI + b"?2027h"
    + "\U0001F44D\U0001F3FD".encode(),
    "margins": CSI + b"?69h" + CSI + b"3;10s" + CSI + b"2;5r" + b"abcdefghijkl\n\n\n\n" + CSI + b"2L" + CSI + b"3@"
    + CSI + b"2P" + CSI + b"S" + CSI + b"T",
    "edits": b"line one\r\nline two\r\n" + CSI + b"2;3H" + CSI + b"K" + CSI + b"1J" + CSI + b"5X" + CSI + b"3b"
    + CSI + b"?5W" + ESC + b"#8" + ESC + b"#3" + ESC + b"#6",
    "charsets": ESC + b"(0lqqk\r\nx  x\r\nmqqj" + ESC + b"(B" + ESC + b")0\x0eabc\x0f" + ESC + b"N" + b"a",
    "marks": OSC + b"133;A\x07$ " + OSC + b"133;B\x07ls" + OSC + b"133;C\x07\r\nout\r\n" + OSC + b"133;D;0\x07"
    + OSC + b"7;file:///home/user\x07",
    "modes_kitty": CSI + b"?1000h" + CSI + b"?1006h" + CSI + b"?2004h" + CSI + b">1u" + CSI + b">3u" + CSI + b"<u"
    + CSI + b"?1u" + CSI + b"2 q" + CSI + b"?25l" + CSI + b"?5h",
    "queries": CSI + b"c" + CSI + b">c" + CSI + b"6n" + CSI + b"?6n" + CSI + b"?2004$p" + OSC + b"11;?\x07"
    + OSC + b"4;1;?\x07" + b"\x1bP$qm\x1b\\" + CSI + b"18t",
    "palette": OSC + b"4;1;rgb:ff/00/00\x07" + OSC + b"10;#123456\x07" + OSC + b"104;1\x07" + OSC + b"110\x07"
    + CSI + b"31mred",
    "tabs_wrap": b"a\tb\tc" + ESC + b"H" + CSI + b"3g" + CSI + b"?7l" + b"x" * 100 + CSI + b"?7h" + b"y" * 100,
    "rep_ris": b"ab" + CSI + b"5b" + ESC + b"c" + b"after reset" + CSI + b"!p" + b"soft",
    "scroll_region_lines": CSI + b"3;6r" + b"".join(b"line %d\r\n" % i for i in range(30)) + CSI + b"r",
    "dcs_sixel_like": b"\x1bPq#0;2;0;0;0~~@@\x1b\\" + b"\x1bP+q544e\x1b\\" + b"after",
    "osc52": OSC + b"52;c;aGVsbG8=\x07" + OSC + b"52;c;?\x07",
    "utf8_errors": b"\xc3\x28 \xe2\x82 \xf0\x9f\x98 \xed\xa0\x80 \xff\xfe \xc2\x9b1m \xc2\x9d0;t\xc2\x9c",
}


def terminal_header(cols, rows, scrollback, actions):
    """Tests/Fuzz/README.md: columns, rows, scrollback, action count, then
    5 bytes per action: offset (16-bit), kind, two parameters."""
    head = bytes([cols - 1, rows - 1, scrollback, len(actions)])
    for offset, kind, first, second in actions:
        head += struct.pack(">HBBB", offset, kind, first, second)
    return head


def compaction_header(cols, rows, scrollback, resize=None):
    """columns, rows, scrollback, resize flag, new columns, new rows, offset."""
    if resize is None:
        return bytes([cols - 1, rows - 1, scrollback, 0, 0, 0, 0, 0])
    new_cols, new_rows, offset = resize
    return bytes([cols - 1, rows - 1, scrollback, 0x80, new_cols - 1, new_rows - 1]) + struct.pack(">H", offset)


def streams():
    """(name, bytes, columns, rows) of every terminal stream seed."""
    out = [(name, data, 40, 12) for name, data in HANDWRITTEN.items()]
    for name, start in [("bash_session.bin", 0), ("ls_color.bin", 0), ("htop.bin", 0), ("vim.bin", 0),
                        ("vim.bin", 6000), ("less.bin", 0), ("top.bin", 0), ("zsh.bin", 0), ("fish.bin", 0),
                        ("vttest_1.bin", 0), ("vttest_1_s3.bin", 3000), ("vttest_2_s1.bin", 0),
                        ("vttest_2_s3.bin", 0)]:
        out.append(("rec_%s_%d" % (name[:-4], start), recording(name, start), 80, 24))
    for kind, cols, rows in [("unicode", 40, 10), ("mixed", 80, 24), ("medium_cells", 60, 20),
                             ("cursor_motion", 30, 10), ("dense_cells", 20, 6), ("scrolling_top_region", 40, 8),
                             ("sync_medium_cells", 50, 12)]:
        out.append(("gen_%s" % kind, generated(kind, 1, cols, rows), cols, rows))
    return out


def json_string(data):
    """data (bytes) as a JSON string the way a Node server writes it."""
    return json.dumps(data.decode("utf-8", "replace"), ensure_ascii=False)


def ws_frame(opcode, payload, final=True):
    head = bytes([(0x80 if final else 0) | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([n])
    elif n <= 0xFFFF:
        head += bytes([126]) + struct.pack(">H", n)
    else:
        head += bytes([127]) + struct.pack(">Q", n)
    return head + payload


def write(target, name, data, written):
    folder = os.path.join(HERE, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    with open(path, "wb") as f:
        f.write(data)
    written.setdefault(target, []).append(name)


def main():
    written = {}
    all_streams = streams()
    for index, (name, data, cols, rows) in enumerate(all_streams):
        n = len(data)
        # Actions spread over the stream: a snapshot, a renderer, a resize
        # to another size and back, the terminal's accessors.
        actions = [(n // 5, 1, 0, 4), (n // 3, 2 + index % 3, index, index), (n // 2, 0, cols + 7, rows // 2),
                   (2 * n // 3, 6, 0, 0), (3 * n // 4, 0, cols - 1, rows - 1)]
        write("terminal", name, terminal_header(cols, rows, 20, actions[: 1 + index % 5]) + data, written)
    for index, (name, data, cols, rows) in enumerate(all_streams):
        if index % 2:
            continue
        resize = (max(1, cols // 2), max(1, rows // 2), len(data) // 2) if index % 4 == 0 else None
        write("compaction", name, compaction_header(min(cols, 80), min(rows, 30), 10, resize) + data, written)

    server = [
        {"type": "attached", "sessionId": "1b4e28ba-2fa1-4d3b-9a5c-0e1a2b3c4d5e"},
        {"type": "output", "data": "\x1b[0mone\r\ntwo \u00e9\u20ac"},
        {"type": "exit", "code": -1, "reason": "spawn failed"},
        {"type": "exit", "code": 0},
        {"type": "status", "status": "waiting", "detail": "Bash", "pending": True, "gate": "plan"},
        {"type": "status", "status": "idle", "pending": False},
        {"type": "telemetry", "at": 1700000000000, "costUsd": 1.25, "contextUsedPct": 40, "linesAdded": 3,
         "linesRemoved": 1, "model": "m", "effort": "high", "pr": {"n": 1, "list": [1, 2, None]}},
        {"type": "whatever"},
    ]
    client = [
        {"type": "attach", "sessionId": None},
        {"type": "attach", "sessionId": "1b4e28ba-2fa1-4d3b-9a5c-0e1a2b3c4d5e", "cwd": "/tmp/a b"},
        {"type": "input", "data": "a\"\\\r\u001b\u00e9"},
        {"type": "resize", "cols": 120, "rows": 40},
        {"type": "approve", "mode": "acceptEdits"},
        {"type": "approve"},
        {"type": "reject"},
    ]
    for index, frame in enumerate(server + client):
        write("wire", "frame_%02d.json" % index, json.dumps(frame, separators=(",", ":")).encode(), written)
    raw = [
        rb'{"type":"output","data":"\u00e9\u20ac\ud83d\ude00 \ud800 lone \udc00 \ud83d\u0041"}',
        rb'{"type":"output","data":"\u007f\u0080\u00FF\u001B\/\b\f\t"}',
        rb' { "type" : "output" , "data" : "spaced" } ',
        rb'{"type":"output","data":"' + recording("ls_color.bin", 0, 600).replace(b"\\", b"\\\\")
        .replace(b'"', b'\\"').replace(b"\x1b", b"\\u001b").replace(b"\r", b"\\r").replace(b"\n", b"\\n") + b'"}',
        rb'[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]',
        rb'{"a":1e308,"b":-0.0,"c":123456789012345678901234567890,"d":[true,false,null]}',
    ]
    for index, data in enumerate(raw):
        write("wire", "raw_%02d.json" % index, data, written)

    # WebSocket: mode byte 0 (frames) then limit, cut count, cuts, frames;
    # mode byte 1 (handshake) then the response.
    def frames_seed(limit, cuts, data):
        return bytes([0, limit, len(cuts)]) + b"".join(struct.pack(">H", c) for c in cuts) + data

    text = json.dumps(server[1]).encode()
    seeds = {
        "text": frames_seed(1, [3], ws_frame(1, text)),
        "binary_ping_pong": frames_seed(1, [1, 5], ws_frame(2, b"\x00\x01\x02") + ws_frame(9, b"hi") + ws_frame(10, b"")),
        "fragmented": frames_seed(2, [2, 9, 20], ws_frame(1, b"frag", final=False) + ws_frame(9, b"p")
                                  + ws_frame(0, b"ment", final=False) + ws_frame(0, " é".encode())),
        "close": frames_seed(1, [], ws_frame(8, struct.pack(">H", 1000) + b"bye")),
        "close_empty": frames_seed(0, [], ws_frame(1, b"x") + ws_frame(8, b"")),
        "len16": frames_seed(2, [1, 2, 3], ws_frame(1, b"a" * 300)),
        "len64": frames_seed(3, [4], ws_frame(2, b"b" * 70000)[:12] + b"b" * 200),
        "bad_utf8": frames_seed(1, [], ws_frame(1, b"\xc3\x28")),
        "masked": frames_seed(1, [], bytes([0x81, 0x84, 1, 2, 3, 4]) + b"abcd"),
    }
    accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
    handshakes = {
        "hs_101": "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Accept: %s\r\n\r\n" % accept,
        "hs_101_frames": "HTTP/1.1 101 Switching Protocols\r\nupgrade: WebSocket\r\nconnection: keep-alive, upgrade\r\n"
        "sec-websocket-accept:  %s \r\n\r\n\x81\x02hi" % accept,
        "hs_401": "HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n",
        "hs_404_body": "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n\r\nno such path",
        "hs_extension": "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Accept: %s\r\nSec-WebSocket-Extensions: permessage-deflate\r\n"
        "Sec-WebSocket-Protocol: chat\r\n\r\n" % accept,
        "hs_garbage": "SSH-2.0-OpenSSH\r\n\r\n",
    }
    for name, data in seeds.items():
        write("websocket", name, data, written)
    for name, data in handshakes.items():
        write("websocket", name, b"\x01" + data.encode("latin-1"), written)

    # Previews: the data is the end of a session's output, cut anywhere.
    for index, (name, start, cols, rows) in enumerate([("vim.bin", 4000, 80, 24), ("htop.bin", 500, 80, 24),
                                                       ("ls_color.bin", 7, 100, 30), ("bash_session.bin", 3, 40, 10),
                                                       ("zsh.bin", 0, 1000, 1)]):
        data = recording(name, start, 1500)
        preview = '{"id":"%s","cols":%d,"rows":%d,"data":%s}' % (
            "1b4e28ba-2fa1-4d3b-9a5c-0e1a2b3c4d5e", cols, rows, json_string(data))
        write("preview", "preview_%d_%s.json" % (index, name[:-4]), preview.encode(), written)
    for index, data in enumerate([
        rb'{"id":"x","cols":80,"rows":24,"data":"\ud83d\ude00 \ud800\u001b[1;31mred\u001b[0m"}',
        rb'{"data":"5;1Hjunk\r\nclean line","rows":2,"cols":10,"extra":{"a":[1,{"b":"}"}]},"t":true}',
        rb'{"id":null,"cols":80.0,"rows":2.4e1,"data":"\ufffd\ufffdabc\u0007after bell"}',
        rb'{"cols":1,"rows":1,"data":""}',
        rb'{"cols":0,"rows":-3,"data":"refused"}',
    ]):
        write("preview", "raw_%d.json" % index, data, written)

    # Titles: byte 0 even = the default 256-scalar cap, odd = 1 + byte/2.
    titles = [
        (0, "plain title"), (0, "  padded\t\n "), (0, "\u202eevil\u202c \u2066iso\u2069"),
        (0, "zero\u200bwidth\ufeff\u2060"), (0, "e\u0301\u0302 a\u0308"), (0, "\U0001F468\u200D\U0001F469\u200D\U0001F467"),
        (0, "\U0001F1EB\U0001F1F7\U0001F1E9"), (0, "x" * 300), (0, "é" * 255 + " tail"),
        (0, "a" * 250 + "e" + "\u0301" * 40), (9, "cut here please"), (5, "ab  cd"), (3, "\U0001F44D\U0001F3FD!"),
        (0, "日本語のタイトル"), (0, "tab\tin\x7fside\x1b[31m"),
    ]
    for index, (selector, title) in enumerate(titles):
        write("title", "title_%02d" % index, bytes([selector]) + title.encode(), written)
    write("title", "title_invalid_utf8", b"\x00" + b"\xc3\x28 \xe2\x82 \xf0\x9f\x98 \xed\xa0\x80 \xc2\x9b \xc2\x85", written)

    for target, names in sorted(written.items()):
        print("%-10s %3d seeds" % (target, len(names)))


if __name__ == "__main__":
    main()
