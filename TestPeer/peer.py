#!/usr/bin/env python3
"""A test peer for TermAttach: a small web-terminal server that implements
../shared/design/PROTOCOL.md with stock parts (the `websockets` package for
HTTP and WebSocket on one port, a real PTY running a real shell).

It prints `PEER-PORT <n>` on standard output once it listens, and ends on
SIGTERM (killing its shells) or after --max-lifetime seconds.

Fault switches (command line, or armed at run time through /_peer/... GETs
that only tests use):
  --ring BYTES          scrollback ring size (a tiny ring cuts sequences)
  --prefill BYTES       every new session's ring starts with this many bytes
  --prefill-style S     text | escapes (escapes: SGR-dense, about 6x as JSON)
  --lone-surrogates     live and replayed output carries lone \\udXXX escapes
  --command CMD         the program to run (default /bin/sh); `/bin/true`
                        gives a child that exits at once
  --allow-origin O      allowed Origin (repeatable); default http(s)://127.0.0.1:PORT
                        and http(s)://localhost:PORT
  --tls-cert/--tls-key  serve https/wss
  /_peer/arm?fault=reset-replay     the next re-attach is reset mid-replay
  /_peer/close?id=&code=&reason=    close the session's sockets with a code
  /_peer/reset?id=                  abort the session's connections (TCP reset)
  /_peer/malformed?id=              send malformed frames, then `after-malformed`
  /_peer/status?id=&status=&pending=&gate=&detail=
  /_peer/telemetry?id=&at=&costUsd=&contextUsedPct=
  /_peer/event?id=&class=&label=&toolName=
"""

import argparse
import asyncio
import codecs
import fcntl
import http
import json
import os
import pty
import re
import signal
import ssl
import struct
import sys
import termios
import time
import uuid
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Response

SESSION_ID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", re.I)
LONE_SURROGATE_RE = re.compile("[\ud800-\udfff]")
PREVIEW_BYTES = 24 * 1024
STATUSES = {"working", "waiting", "idle", "unknown", "stuck"}
MODES = {"default", "acceptEdits", "plan", "auto"}


def node_json(value):
    """JSON as Node's JSON.stringify writes it: UTF-8 kept, lone surrogates escaped."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return LONE_SURROGATE_RE.sub(lambda m: "\\u%04x" % ord(m.group(0)), text)


class Session:
    def __init__(self, peer, cwd):
        self.peer = peer
        self.id = str(uuid.uuid4())
        self.cols, self.rows = 80, 24
        self.ring = []  # text chunks
        self.ring_chars = 0
        self.clients = set()
        self.exited = False
        self.exit_code = None
        self.status = {"status": "idle", "pending": False}
        self.telemetry = None
        self.events = []
        self.pid = None
        self.fd = None
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.cwd = cwd
        if peer.args.prefill:
            self.append(prefill_text(peer.args.prefill, peer.args.prefill_style))

    def spawn(self):
        pid, fd = pty.fork()
        if pid == 0:
            try:
                os.chdir(self.cwd)
                env = dict(os.environ, TERM="xterm-256color", PS1="$ ", ENV="")
                argv = self.peer.args.command.split()
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.set_size(80, 24)
        asyncio.get_running_loop().add_reader(fd, self.on_readable)

    def set_size(self, cols, rows):
        self.cols, self.rows = cols, rows
        if self.fd is not None and not self.exited:
            fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def append(self, text):
        self.ring.append(text)
        self.ring_chars += len(text)
        limit = self.peer.args.ring
        while self.ring_chars > limit and self.ring:
            excess = self.ring_chars - limit
            first = self.ring[0]
            if len(first) <= excess:
                self.ring.pop(0)
                self.ring_chars -= len(first)
            else:
                # Cut inside a chunk, possibly inside an escape sequence.
                self.ring[0] = first[excess:]
                self.ring_chars -= excess

    def ring_text(self):
        return "".join(self.ring)

    def on_readable(self):
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            data = b""
        if not data:
            self.on_exit()
            return
        text = self.decoder.decode(data)
        if self.peer.args.lone_surrogates:
            text += "\ud83d"  # half of an emoji, as Node cuts strings
        self.append(text)
        self.broadcast({"type": "output", "data": text})

    def on_exit(self):
        loop = asyncio.get_running_loop()
        loop.remove_reader(self.fd)
        try:
            _, status = os.waitpid(self.pid, 0)
            code = os.waitstatus_to_exitcode(status)
        except ChildProcessError:
            code = 0
        os.close(self.fd)
        self.exited, self.exit_code = True, code
        self.broadcast({"type": "exit", "code": code})

    def kill(self):
        if self.pid and not self.exited:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def broadcast(self, frame):
        text = node_json(frame)
        for ws in list(self.clients):
            asyncio.ensure_future(safe_send(ws, text))

    def summary(self):
        return {
            "id": self.id,
            "status": self.status.get("status", "unknown"),
            "pending": self.status.get("pending", False),
            "gate": self.status.get("gate"),
            "telemetry": self.telemetry,
            "cols": self.cols,
            "rows": self.rows,
            "exited": self.exited,
            "cwd": self.cwd,
        }


async def safe_send(ws, text):
    try:
        await ws.send(text)
    except ConnectionClosed:
        pass


def prefill_text(size, style):
    lines = []
    total = 0
    n = 0
    while total < size:
        if style == "escapes":
            line = "".join("\x1b[%dm%c\x1b[0m" % (31 + (i % 7), 97 + (i % 26)) for i in range(20)) + " %d\r\n" % n
        else:
            line = "prefill line %08d the quick brown fox jumps over the lazy dog\r\n" % n
        lines.append(line)
        total += len(line)
        n += 1
    return "".join(lines)[:size]


class Peer:
    def __init__(self, args):
        self.args = args
        self.sessions = {}
        self.allowed = set(args.allow_origin or [])
        self.armed = set()
        self.port = None

    # HTTP -----------------------------------------------------------------

    def json_response(self, status, value):
        body = node_json(value).encode("utf-8")
        headers = Headers([("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                           ("Connection", "close")])
        return Response(status, http.HTTPStatus(status).phrase, headers, body)

    def origin_ok(self, request):
        return request.headers.get("Origin") in self.allowed

    async def process_request(self, connection, request):
        method = getattr(request, "method", "GET")
        parts = urlsplit(request.path)
        path, query = parts.path, {k: v[-1] for k, v in parse_qs(parts.query).items()}
        if path == "/term":
            if method != "GET":
                return self.json_response(405, {"error": "method not allowed"})
            if not self.origin_ok(request):
                return self.json_response(401, {"error": "origin not allowed"})
            return None  # upgrade
        if path == "/live-sessions" and method == "GET":
            return self.json_response(200, [s.summary() for s in self.sessions.values()])
        match = re.fullmatch(r"/live-sessions/([^/]+)(/preview|/events)?", path)
        if match:
            session = self.sessions.get(match.group(1))
            if method == "DELETE" and match.group(2) is None:
                if not self.origin_ok(request):
                    return self.json_response(403, {"error": "origin not allowed"})
                if session is None:
                    return self.json_response(404, {"error": "no such session"})
                await self.kill(session)
                return self.json_response(200, {"ok": True})
            if method != "GET":
                return self.json_response(405, {"error": "method not allowed"})
            if session is None:
                return self.json_response(404, {"error": "no such session"})
            if match.group(2) == "/preview":
                data = session.ring_text()
                encoded = data.encode("utf-8", "surrogatepass")
                tail = encoded[-PREVIEW_BYTES:].decode("utf-8", "replace")
                return self.json_response(200, {"id": session.id, "cols": session.cols, "rows": session.rows,
                                                 "data": tail})
            if match.group(2) == "/events":
                return self.json_response(200, session.events)
            return self.json_response(200, session.summary())
        if path.startswith("/_peer/"):
            return await self.admin(path[len("/_peer/"):], query)
        return self.json_response(404, {"error": "not found"})

    async def admin(self, command, query):
        session = self.sessions.get(query.get("id", ""))
        if command == "arm":
            self.armed.add(query["fault"])
            return self.json_response(200, {"armed": sorted(self.armed)})
        if session is None:
            return self.json_response(404, {"error": "no such session"})
        if command == "close":
            code = int(query.get("code", "1000"))
            for ws in list(session.clients):
                await ws.close(code, query.get("reason", ""))
        elif command == "reset":
            for ws in list(session.clients):
                ws.transport.abort()
        elif command == "malformed":
            bad = ["not json", "{\"type\":\"attached\",\"sessionId\":\"nope\"}", "{\"type\":\"bogus\"}",
                   "{\"type\":\"status\",\"status\":\"sleeping\"}", "{\"type\":\"output\",\"data\":5}",
                   "{\"type\":\"output\",\"data\":\"\\x\"}", "[1,2,3]", "{\"type\":\"resize\",\"cols\":0}"]
            for ws in list(session.clients):
                for text in bad:
                    await safe_send(ws, text)
                try:
                    await ws.send(b"\x00binary")
                except ConnectionClosed:
                    pass
                await safe_send(ws, node_json({"type": "output", "data": "after-malformed\r\n"}))
        elif command == "status":
            status = {"status": query.get("status", "working"), "pending": query.get("pending") == "1"}
            if query.get("gate"):
                status["gate"] = query["gate"]
            if query.get("detail"):
                status["detail"] = query["detail"]
            session.status = status
            session.broadcast(dict(status, type="status"))
        elif command == "telemetry":
            telemetry = {"at": int(query.get("at", int(time.time() * 1000)))}
            for key in ("costUsd", "contextUsedPct"):
                if key in query:
                    telemetry[key] = float(query[key])
            session.telemetry = telemetry
            session.broadcast(dict(telemetry, type="telemetry"))
        elif command == "event":
            event = {"at": int(time.time() * 1000), "class": query.get("class", "tool"),
                     "label": query.get("label", "")}
            if query.get("toolName"):
                event["toolName"] = query["toolName"]
            session.events.append(event)
        else:
            return self.json_response(404, {"error": "unknown peer command"})
        return self.json_response(200, {"ok": True})

    async def kill(self, session):
        # As the real server: close every client's socket first, then kill.
        for ws in list(session.clients):
            await ws.close(1000, "session killed")
        session.kill()
        self.sessions.pop(session.id, None)

    # WebSocket ------------------------------------------------------------

    async def handler(self, ws):
        session = None
        try:
            async for message in ws:
                if isinstance(message, bytes):
                    continue
                frame = parse_client_frame(message)
                if frame is None:
                    continue  # dropped, as the real server does
                kind = frame["type"]
                if session is None:
                    if kind != "attach":
                        continue
                    session = await self.attach(ws, frame)
                    continue
                if kind == "input":
                    if not session.exited:
                        os.write(session.fd, frame["data"].encode("utf-8", "replace"))
                elif kind == "resize":
                    session.set_size(frame["cols"], frame["rows"])
                elif kind in ("approve", "reject"):
                    session.events.append({"at": int(time.time() * 1000), "class": kind,
                                           "label": frame.get("mode") or kind})
        except ConnectionClosed:
            pass
        finally:
            if session is not None:
                session.clients.discard(ws)

    async def attach(self, ws, frame):
        sid = frame.get("sessionId")
        session = self.sessions.get(sid) if sid else None
        rejoin = session is not None
        if session is None:
            cwd = frame.get("cwd") or os.getcwd()
            session = Session(self, cwd)
            self.sessions[session.id] = session
            if not os.path.isdir(cwd):
                await ws.send(node_json({"type": "attached", "sessionId": session.id}))
                await ws.send(node_json({"type": "exit", "code": -1,
                                         "reason": "spawn failed: no such directory %s" % cwd}))
                session.exited, session.exit_code = True, -1
                return session
            session.spawn()
        await ws.send(node_json({"type": "attached", "sessionId": session.id}))
        replay = node_json({"type": "output", "data": "\x1b[0m" + session.ring_text()})
        if rejoin and "reset-replay" in self.armed:
            self.armed.discard("reset-replay")
            payload = replay.encode("utf-8")
            ws.transport.write(frame_header(len(payload)) + payload[: len(payload) // 2])
            ws.transport.abort()
            return session
        session.clients.add(ws)
        await ws.send(replay)
        await ws.send(node_json(dict(session.status, type="status")))
        if session.telemetry:
            await ws.send(node_json(dict(session.telemetry, type="telemetry")))
        if session.exited:
            await ws.send(node_json({"type": "exit", "code": session.exit_code}))
        return session


def frame_header(length):
    """An unmasked, final text frame header for `length` payload bytes (RFC 6455 §5.2)."""
    if length < 126:
        return bytes([0x81, length])
    if length < 65536:
        return bytes([0x81, 126]) + struct.pack("!H", length)
    return bytes([0x81, 127]) + struct.pack("!Q", length)


def parse_client_frame(text):
    try:
        frame = json.loads(text)
    except ValueError:
        return None
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        return None
    kind = frame["type"]
    if kind == "attach":
        if "sessionId" not in frame:
            return None
        sid = frame["sessionId"]
        if sid is not None and not (isinstance(sid, str) and SESSION_ID_RE.match(sid)):
            return None
        cwd = frame.get("cwd")
        if cwd is not None and not (isinstance(cwd, str) and cwd.startswith("/")):
            return None
        return frame
    if kind == "input":
        return frame if isinstance(frame.get("data"), str) else None
    if kind == "resize":
        ok = all(isinstance(frame.get(k), int) and not isinstance(frame.get(k), bool) and 1 <= frame[k] <= 1000
                 for k in ("cols", "rows"))
        return frame if ok else None
    if kind == "approve":
        mode = frame.get("mode")
        return frame if mode is None or mode in MODES else None
    if kind == "reject":
        return frame
    return None


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--ring", type=int, default=2 * 1024 * 1024)
    parser.add_argument("--prefill", type=int, default=0)
    parser.add_argument("--prefill-style", choices=["text", "escapes"], default="text")
    parser.add_argument("--lone-surrogates", action="store_true")
    parser.add_argument("--command", default="/bin/sh")
    parser.add_argument("--allow-origin", action="append")
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--max-lifetime", type=float, default=600)
    args = parser.parse_args()

    peer = Peer(args)
    context = None
    if args.tls_cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert, args.tls_key)

    # A parent may start us with signals blocked (Foundation's Process does):
    # unblock them so that SIGTERM ends the peer and its shells.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    stop = asyncio.get_running_loop().create_future()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, lambda: stop.done() or stop.set_result(None))
    asyncio.get_running_loop().call_later(args.max_lifetime, lambda: stop.done() or stop.set_result(None))

    async with serve(peer.handler, args.host, args.port, process_request=peer.process_request, ssl=context,
                     compression=None, max_size=1 << 20, ping_interval=None) as server:
        port = server.sockets[0].getsockname()[1]
        scheme = "https" if context else "http"
        if not peer.allowed:
            peer.allowed = {"%s://127.0.0.1:%d" % (scheme, port), "%s://localhost:%d" % (scheme, port)}
        print("PEER-PORT %d" % port, flush=True)
        await stop
        # Kill the shells and leave at once, without a graceful close that
        # could wait on clients.
        for session in list(peer.sessions.values()):
            session.kill()
        sys.stdout.flush()
        os._exit(0)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
