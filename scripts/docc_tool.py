#!/usr/bin/env python3
"""Helpers for scripts/docs.sh, over a module's symbol graph (JSON).

  docc_tool.py article SOURCE.md GRAPH_DIR OUT.md
      Writes SOURCE.md (a markdown file of docs/) as a DocC article: every
      inline code span outside fenced code that names exactly one public
      symbol of the module (`Terminal`, `Terminal.generation`,
      `changes(since:)`, `Terminal(columns:rows:)`) becomes a symbol link
      (``Terminal/generation``); everything else is copied as it is. docs/ is
      the only source: the article is written at build time, never committed.

  docc_tool.py coverage GRAPH_DIR MODULE
      Lists the module's public declarations that have no doc comment and
      exits 1 if there is any. Declarations without a source location are
      the compiler's (an enum's `init(rawValue:)`), which no comment can
      reach, and are not counted.
"""
import glob
import json
import os
import re
import sys


def load_symbols(graph_dir):
    """Every public symbol of the graphs in graph_dir, as (path, symbol)."""
    out = []
    for path in sorted(glob.glob(os.path.join(graph_dir, "*.symbols.json"))):
        with open(path, encoding="utf-8") as f:
            graph = json.load(f)
        for symbol in graph["symbols"]:
            if symbol["accessLevel"] not in ("public", "open"):
                continue
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            out.append(("/".join(symbol["pathComponents"]), symbol))
    return out


# An identifier, optionally followed by `.member` parts; the last part may
# carry argument labels, `name(label:_:)`.
SPAN = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*(\((\w*:)*\))?$")
CODE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")


def article(source, graph_dir, out):
    symbols = load_symbols(graph_dir)
    by_path = {}
    by_name = {}
    by_base = {}
    for path, _ in symbols:
        by_path[path] = by_path.get(path, 0) + 1
        last = path.rsplit("/", 1)[-1]
        by_name.setdefault(last, set()).add(path)
        by_base.setdefault(last.split("(", 1)[0], set()).add(path)

    def resolve(text):
        if not SPAN.match(text):
            return None
        # `Terminal(columns:rows:)`: the initializer.
        m = re.match(r"^([A-Z]\w*)\(((\w*:)+)\)$", text)
        if m:
            path = m.group(1) + "/init(" + m.group(2) + ")"
            return path if by_path.get(path) == 1 else None
        path = text.replace(".", "/")
        if by_path.get(path) == 1:
            return path
        # A member named alone (`changes(since:)`, `queuesReplies`): linked
        # when exactly one public declaration has that name, so that a name
        # several types share (`feed(_:)`, `isWrapped` of a snapshot line and
        # `isWrapped(row:)` of a terminal) stays code. A property's name must
        # be camel case: a plain word (`sessions`, `default`) is as likely a
        # command or a value as the property.
        if "/" not in path and path[:1].islower():
            owners = by_name.get(path, set())
            if "(" not in path:
                if path.islower() or len(by_base.get(path, set())) != 1:
                    owners = set()
            if len(owners) == 1:
                owner = next(iter(owners))
                if by_path.get(owner) == 1:
                    return owner
        return None

    linked = []

    def link(match):
        path = resolve(match.group(1))
        if path is None:
            return match.group(0)
        linked.append(path)
        return "``" + path + "``"

    lines = []
    fenced = False
    with open(source, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("```"):
                fenced = not fenced
                lines.append(line)
                continue
            lines.append(line if fenced else CODE.sub(link, line))
    with open(out, "w", encoding="utf-8") as f:
        f.writelines(lines)
    print(
        f"docs: {os.path.basename(out)} from {source}: {len(linked)} symbol links "
        f"({len(set(linked))} symbols)",
        file=sys.stderr,
    )


def coverage(graph_dir, module):
    missing = []
    total = 0
    for _, symbol in load_symbols(graph_dir):
        location = symbol.get("location")
        if location is None:
            continue
        total += 1
        comment = symbol.get("docComment")
        text = "".join(line["text"] for line in comment["lines"]) if comment else ""
        if not text.strip():
            file = location["uri"].split("/Sources/", 1)[-1]
            line = location["position"]["line"] + 1
            name = ".".join(symbol["pathComponents"])
            missing.append(f"Sources/{file}:{line}: {name} ({symbol['kind']['displayName']})")
    for entry in sorted(missing):
        print(f"  undocumented: {entry}")
    print(f"{module}: {total} public declarations, {len(missing)} undocumented")
    return 1 if missing else 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "article":
        article(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 4 and sys.argv[1] == "coverage":
        sys.exit(coverage(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
