#!/usr/bin/env python3
"""A hostile web-terminal server for TermAttach's hardening tests.

peer.py is a well-behaved server built from stock parts; this one speaks
HTTP/1.1 and RFC 6455 by hand over asyncio streams, so that it can break
them on purpose: bytes on the wire are exactly what a test asks for.

It prints `PEER-PORT <n>` once it listens and ends on SIGTERM or after
--max-lifetime seconds. Every loop is bounded in bytes or time.

Faults (--fault NAME; one per server):
  endless-body        every HTTP GET answers 200 with a body that never ends
                      (until --body-limit bytes or the client goes)
  chunked             GET /live-sessions answers a valid listing in 7-byte
                      chunks with chunk extensions and a trailer
  endless-chunked     the same, chunked without end (until --body-limit)
  huge-length         every GET declares Content-Length: 1 TiB, sends 1 byte
  trickle-body        every GET sends a byte each 0.1 s (for --hold seconds)
  negative-chunk      every GET answers chunked with the size line `-1` and an
                      empty chunk, again and again, unpaced (until
                      --body-limit bytes or the client goes)
  ext-padding         every GET answers chunked: chunks of 1 byte, each size
                      line padded with a 1000-byte extension, unpaced (until
                      --body-limit bytes or the client goes)
  many-ids            /live-sessions lists --ids sessions: --ids-distinct
                      distinct UUIDs, repeated in turn; every preview answers
  ping-flood-before   on `attach`, floods --pings pings and never answers
  ping-flood-after    answers `attached` and a small replay, then floods;
                      with --report FILE it then reads what the client sent
                      and writes {"pongs": n, "last": hex payload} of
                      the pongs received to FILE every 50 ms and at the end
  fragmented-replay   answers `attached`, then a replay message of about
                      --replay-bytes bytes sent in --fragment-bytes fragments
  bad-number          --number TEXT (e.g. 1e400, 9223372036854775808) is put
                      where --number-in says: preview (cols), listing (cols),
                      frames (exit code, telemetry at); the rest stays valid
  crafted-ids         /live-sessions lists ids "../../x", one with ESC and
                      BEL, and one valid UUID v4; every preview answers
  output-flood        after the replay, live output in 1 MiB messages as fast
                      as the client reads (up to --body-limit bytes); what the
                      client sends is never read
  close-code-0        after the replay, a close frame with code 0
  hostile-text        server strings carry escapes and bidi overrides: the
                      HTTP error body of /live-sessions; on attach a status
                      detail, then a close (code 4000) with such a reason,
                      before any replay
By default (no fault) it answers the listing, previews and attaches plainly;
--preview-size COLSxROWS and --preview-bytes N shape every preview.
"""

import argparse
import asyncio
import base64
import hashlib
import json
import os
import signal
import struct
import sys
import uuid

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
VALID_ID = "9e331828-e58c-4113-b88d-a5a945c27493"
EVIL = "\x1b]0;owned\x07\x1b[2J\x1b[31mred\u202eevil\u2066\x9b31m\x7f\u061cmark\u2028line\u00adsoft"


def text_frame(payload, fin=True, opcode=0x1):
    """An unmasked server frame (RFC 6455 §5.2)."""
    first = (0x80 if fin else 0) | opcode
    n = len(payload)
    if n < 126:
        return bytes([first, n]) + payload
    if n < 65536:
        return bytes([first, 126]) + struct.pack("!H", n) + payload
    return bytes([first, 127]) + struct.pack("!Q", n) + payload


def close_frame(code, reason=b""):
    return text_frame(struct.pack("!H", code) + reason, opcode=0x8)


def replay_message(size):
    """An `output` frame whose JSON text is `size` bytes (ASCII), lines of text."""
    head = b'{"type":"output","data":"\\u001b[0m'
    tail = b'"}'
    body = bytearray()
    n = 0
    room = size - len(head) - len(tail)
    while len(body) < room:
        body += b"replay line %08d the quick brown fox jumps over the lazy dog\\r\\n" % n
        n += 1
    del body[room:]
    # Every backslash in the body starts an escape (\r or \n): a cut right
    # after one would leave a bad escape, so that byte becomes text.
    if body.endswith(b"\\"):
        body[-1:] = b"."
    return head + bytes(body) + tail


class Hostile:
    def __init__(self, args):
        self.args = args

    # HTTP -------------------------------------------------------------------

    async def handle(self, reader, writer):
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.TimeoutError, ConnectionError):
            writer.close()
            return
        lines = head.decode("latin-1").split("\r\n")
        method, path = lines[0].split(" ")[:2]
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        try:
            if path == "/term" and headers.get("upgrade", "").lower() == "websocket":
                await self.websocket(reader, writer, headers)
            else:
                await self.http(writer, method, path)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    async def respond(self, writer, status, value, reason="OK"):
        body = value if isinstance(value, bytes) else json.dumps(value, ensure_ascii=False).encode("utf-8")
        writer.write(b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                     b"Connection: close\r\n\r\n" % (status, reason.encode(), len(body)) + body)
        await writer.drain()

    def session(self, sid, cols=80):
        return {"id": sid, "status": "idle", "pending": False, "cols": cols, "rows": 24, "exited": False,
                "cwd": "/tmp"}

    async def http(self, writer, method, path):
        fault = self.args.fault
        if fault == "endless-body":
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[")
            chunk = (json.dumps(self.session(VALID_ID)) + ",").encode() * 512
            sent = 0
            while sent < self.args.body_limit:
                writer.write(chunk)
                sent += len(chunk)
                await writer.drain()
            return
        if fault in ("chunked", "endless-chunked"):
            # RFC 9112 §7.1: small chunks, with an extension on each size line.
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                         b"Connection: close\r\n\r\n")
            body = json.dumps([self.session(VALID_ID)]).encode()
            if fault == "endless-chunked":
                piece = (json.dumps(self.session(VALID_ID)) + ",").encode() * 64
                writer.write(b"%x\r\n[\r\n" % 1)
                sent = 0
                while sent < self.args.body_limit:
                    writer.write(b"%x;x=y\r\n%s\r\n" % (len(piece), piece))
                    sent += len(piece)
                    await writer.drain()
                return
            for i in range(0, len(body), 7):
                part = body[i:i + 7]
                writer.write(b"%x;ext=1\r\n%s\r\n" % (len(part), part))
            writer.write(b"0\r\nX-Trailer: yes\r\n\r\n")
            await writer.drain()
            return
        if fault in ("negative-chunk", "ext-padding"):
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                         b"Connection: close\r\n\r\n")
            if fault == "negative-chunk":
                unit = b"-1\r\n\r\n"
            else:
                unit = b"1;" + b"p" * 1000 + b"\r\n \r\n"
            batch = unit * max(1, (64 << 10) // len(unit))
            sent = 0
            while sent < self.args.body_limit:
                writer.write(batch)
                sent += len(batch)
                await writer.drain()
            return
        if fault == "huge-length":
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1099511627776\r\n\r\n[")
            await writer.drain()
            await asyncio.sleep(self.args.hold)
            return
        if fault == "trickle-body":
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[")
            for _ in range(int(self.args.hold * 10)):
                writer.write(b" ")
                await writer.drain()
                await asyncio.sleep(0.1)
            return
        number = self.args.number
        if path == "/live-sessions":
            if fault == "hostile-text":
                await self.respond(writer, 500, ("internal error " + EVIL).encode("utf-8"), "Internal Server Error")
                return
            if fault == "many-ids":
                distinct = [str(uuid.UUID(int=(0x9e331828e58c4113b88da5a945c20000 + i))) for i in range(self.args.ids_distinct)]
                ids = [distinct[i % len(distinct)] for i in range(self.args.ids)]
                await self.respond(writer, 200, [self.session(sid) for sid in ids])
                return
            if fault == "crafted-ids":
                ids = ["../../x", "\x1b]0;owned\x07\x1b[2J", "ab/../../y", VALID_ID]
                await self.respond(writer, 200, [self.session(sid) for sid in ids])
                return
            if fault == "bad-number" and self.args.number_in == "listing":
                body = json.dumps([self.session(VALID_ID)]).replace('"cols": 80', '"cols": ' + number)
                await self.respond(writer, 200, body.encode())
                return
            await self.respond(writer, 200, [self.session(VALID_ID)])
            return
        if path.startswith("/live-sessions/") and path.endswith("/preview"):
            cols, rows = (int(n) for n in self.args.preview_size.split("x"))
            data = "\x1b[0mpreview text\r\n"
            if self.args.preview_bytes:
                data = ("x" * 78 + "\r\n") * (self.args.preview_bytes // 80)
            if self.args.preview_delay:
                await asyncio.sleep(self.args.preview_delay)
            preview = {"id": VALID_ID, "cols": cols, "rows": rows, "data": data}
            body = json.dumps(preview)
            if fault == "bad-number" and self.args.number_in == "preview":
                body = body.replace('"cols": %d' % cols, '"cols": ' + number)
            await self.respond(writer, 200, body.encode())
            return
        await self.respond(writer, 404, {"error": "not found"}, "Not Found")

    # WebSocket --------------------------------------------------------------

    async def read_frame(self, reader):
        """One client frame: (opcode, payload), unmasked."""
        first, second = await reader.readexactly(2)
        n = second & 0x7F
        if n == 126:
            n = struct.unpack("!H", await reader.readexactly(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", await reader.readexactly(8))[0]
        mask = await reader.readexactly(4) if second & 0x80 else b"\0\0\0\0"
        data = await reader.readexactly(n)
        return first & 0x0F, bytes(b ^ mask[i & 3] for i, b in enumerate(data))

    async def websocket(self, reader, writer, headers):
        accept = base64.b64encode(hashlib.sha1((headers["sec-websocket-key"] + GUID).encode()).digest()).decode()
        writer.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      "Sec-WebSocket-Accept: %s\r\n\r\n" % accept).encode())
        await writer.drain()
        # The first text frame is the client's attach.
        while True:
            opcode, payload = await self.read_frame(reader)
            if opcode == 0x8:
                return
            if opcode == 0x1 and json.loads(payload).get("type") == "attach":
                break
        fault = self.args.fault
        attached = text_frame(json.dumps({"type": "attached", "sessionId": VALID_ID}).encode())
        small_replay = text_frame(b'{"type":"output","data":"\\u001b[0mhostile replay\\r\\n"}')
        if fault == "ping-flood-before":
            await self.flood(writer)
        elif fault == "ping-flood-after":
            writer.write(attached + small_replay)
            await self.flood(writer, reader if self.args.report else None)
        elif fault == "fragmented-replay":
            writer.write(attached)
            message = replay_message(self.args.replay_bytes)
            size = self.args.fragment_bytes
            pieces = [message[i:i + size] for i in range(0, len(message), size)]
            batch = []
            for index, piece in enumerate(pieces):
                batch.append(text_frame(piece, fin=index == len(pieces) - 1, opcode=0x1 if index == 0 else 0x0))
                if len(batch) == 256:
                    writer.write(b"".join(batch))
                    batch = []
                    await writer.drain()
            writer.write(b"".join(batch))
            await writer.drain()
            await self.hold(reader)
        elif fault == "bad-number" and self.args.number_in == "frames":
            number = self.args.number.encode()
            writer.write(attached + small_replay)
            writer.write(text_frame(b'{"type":"exit","code":' + number + b'}'))
            writer.write(text_frame(b'{"type":"telemetry","at":' + number + b'}'))
            writer.write(text_frame(b'{"type":"output","data":"after-bad-numbers\\r\\n"}'))
            await writer.drain()
            await self.hold(reader)
        elif fault == "output-flood":
            # Live output as fast as the client takes it, 1 MiB messages,
            # until --body-limit bytes; what the client sends is never read.
            writer.write(attached + small_replay)
            message = text_frame(replay_message(1 << 20))
            sent = 0
            while sent < self.args.body_limit:
                writer.write(message)
                sent += len(message)
                await writer.drain()
            await asyncio.sleep(self.args.hold)
        elif fault == "close-code-0":
            # Right after the replay, in the same write (so often in the
            # same TCP segment, and the same read of the client).
            writer.write(attached + small_replay + close_frame(0))
            await writer.drain()
            await self.hold(reader)
        elif fault == "hostile-text":
            # Closed before the replay: a script's first connection fails, so
            # the reason is printed.
            status = {"type": "status", "status": "working", "detail": EVIL}
            writer.write(attached + text_frame(json.dumps(status).encode()))
            writer.write(close_frame(4000, ("bye " + EVIL).encode("utf-8")[:120]))
            await writer.drain()
            await self.hold(reader)
        else:
            writer.write(attached + small_replay)
            await writer.drain()
            await self.hold(reader)

    async def flood(self, writer, reader=None):
        """--pings pings as fast as the client takes them; what the client
        sends is not read meanwhile. Then the connection is held open,
        silent; with a reader (--report), what the client sent is read then
        and the pongs counted into the report file."""
        batch = b"".join(text_frame(struct.pack("!I", i), opcode=0x9) for i in range(4096))
        sent = 0
        while sent < self.args.pings:
            writer.write(batch)
            sent += 4096
            await writer.drain()
        if reader is None:
            await asyncio.sleep(self.args.hold)
            return

        state = {"pongs": 0, "last": ""}

        def write_report():
            with open(self.args.report + ".tmp", "w") as f:
                json.dump(state, f)
            os.replace(self.args.report + ".tmp", self.args.report)

        async def count():
            while True:
                opcode, payload = await self.read_frame(reader)
                if opcode == 0x8:
                    return
                if opcode == 0xA:
                    state["pongs"] += 1
                    state["last"] = payload.hex()

        async def report_often():
            # Every 50 ms, not every pong: a file per pong would slow the reading.
            while True:
                write_report()
                await asyncio.sleep(0.05)

        reporter = asyncio.ensure_future(report_often())
        try:
            await asyncio.wait_for(count(), self.args.hold)
        except (asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            reporter.cancel()
            write_report()

    async def hold(self, reader):
        """Reads (and answers close) until the client goes, at most --hold seconds."""
        async def loop():
            while True:
                opcode, _ = await self.read_frame(reader)
                if opcode == 0x8:
                    return
        try:
            await asyncio.wait_for(loop(), self.args.hold)
        except asyncio.TimeoutError:
            pass


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--fault", default="none")
    parser.add_argument("--body-limit", type=int, default=1 << 30)
    parser.add_argument("--pings", type=int, default=2_000_000)
    parser.add_argument("--replay-bytes", type=int, default=15 << 20)
    parser.add_argument("--fragment-bytes", type=int, default=1024)
    parser.add_argument("--number", default="1e400")
    parser.add_argument("--number-in", choices=["preview", "listing", "frames"], default="preview")
    parser.add_argument("--preview-size", default="20x4", help="COLSxROWS of every preview")
    parser.add_argument("--preview-bytes", type=int, default=0, help="a preview's data of about this size")
    parser.add_argument("--hold", type=float, default=60)
    parser.add_argument("--ids", type=int, default=1000, help="sessions listed by many-ids")
    parser.add_argument("--ids-distinct", type=int, default=100, help="distinct ids among them")
    parser.add_argument("--preview-delay", type=float, default=0, help="seconds before each preview answers")
    parser.add_argument("--report", default="", help="ping-flood-after: where to write the pongs received")
    parser.add_argument("--max-lifetime", type=float, default=300)
    args = parser.parse_args()

    hostile = Hostile(args)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    loop = asyncio.get_running_loop()
    stop = loop.create_future()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: stop.done() or stop.set_result(None))
    loop.call_later(args.max_lifetime, lambda: stop.done() or stop.set_result(None))
    server = await asyncio.start_server(hostile.handle, args.host, args.port, limit=1 << 16)
    print("PEER-PORT %d" % server.sockets[0].getsockname()[1], flush=True)
    await stop
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    asyncio.run(main())
