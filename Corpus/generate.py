#!/usr/bin/env python3
"""Deterministic replay generator: seeded terminal output of a chosen kind.

The same --kind, --size and --seed always give the same bytes, so benchmark
runs and demos can regenerate their inputs instead of committing them.

Kinds (after alacritty's vtebench categories):
  scrolling                      plain ASCII lines of random width that scroll the screen
  scrolling_fullscreen           every line exactly fills the width, then scrolls
  scrolling_top_region           lines scrolling in a region that spares the top row
  scrolling_bottom_region        lines scrolling in a region that spares the bottom row
  scrolling_top_small_region     lines scrolling in the bottom half (top half fixed)
  scrolling_bottom_small_region  lines scrolling in the top half (bottom half fixed)
  light_cells                    full-screen redraws of plain characters, no scrolling
  medium_cells                   editor-like redraws: line numbers, syntax colours, status line
  sync_medium_cells              the same frames, each inside synchronized output (mode 2026)
  dense_cells                    full-screen redraws, every cell with its own colours
  cursor_motion                  characters placed at random positions
  unicode                        CJK, accented (combining) Latin, emoji, box drawing
  mixed                          a shell-like session: prompts, coloured listings, a TUI redraw
  style_churn                    a scrolling log where nearly every word has a new truecolour style
  link_churn                     scrolling listings and diagnostics full of new OSC 8 hyperlinks
  truecolor_dense                half-block previews, every cell its own random 24-bit fg and bg
  unicode_combining              decomposed Latin: a combining mark on every letter
  unicode_cjk                    CJK ideographs with some kana, Hangul and punctuation
  unicode_zwj                    emoji ZWJ sequences (professions, families, couples), skin tones
  unicode_letters                Latin with precomposed accents, Greek and Cyrillic words
  unicode_flags                  regional-indicator flags
  unicode_emoji                  single emoji, about one in ten a text symbol with VS16
  unicode_mixed                  a multilingual chat log: all of the above, ASCII words, SGR

The kinds that existed first (scrolling, dense_cells, cursor_motion, unicode,
mixed) keep their exact bytes; later kinds were added beside them. The last
three (issue #17) fill the side tables: at 16 MiB and 80x24, style_churn
emits 284,606 distinct styles, link_churn 277,294 distinct links, and
truecolor_dense 459,577 cells with no two SGRs alike (--count prints these
figures for any kind and size; the table above StyleChurn has 200x50 too).

--suite DIR writes one 16 MiB file per kind in SUITE_KINDS into DIR (for the
given --cols/--rows), plus manifest.json; files whose recorded parameters
and generator version match are kept, so a benchmark run regenerates only
what changed. The region kinds start with their setup (alternate screen and
DECSTBM), as vtebench's setup scripts do.
"""
import argparse
import hashlib
import json
import os
import random
import re
import sys

ESC = "\x1b"
CSI = ESC + "["
WORDS = ("alpha beta gamma delta epsilon zeta theta lambda kernel socket "
         "buffer render parser cursor scroll region glyph palette vector").split()


def scrolling(rng, cols, rows):
    width = rng.randint(1, cols - 1)
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 ") for _ in range(width)) + "\r\n"


def dense_cells(rng, cols, rows):
    out = [CSI + "H"]
    for row in range(rows):
        out.append(CSI + f"{row + 1};1H")
        for _ in range(cols):
            out.append(CSI + f"38;5;{rng.randrange(256)};48;5;{rng.randrange(256)}m" + chr(rng.randrange(33, 127)))
    out.append(CSI + "0m")
    return "".join(out)


def cursor_motion(rng, cols, rows):
    return CSI + f"{rng.randint(1, rows)};{rng.randint(1, cols)}H" + chr(rng.randrange(33, 127))


UNICODE = ["漢", "字", "é", "e\u0301", "ñ", "😀", "👩\u200d👧", "─", "│", "┼", "α", "Ж", "한", "ü", "✓", "🇫🇷"]


def unicode(rng, cols, rows):
    return "".join(rng.choice(UNICODE) for _ in range(rng.randint(5, cols // 2))) + "\r\n"


def mixed(rng, cols, rows):
    choice = rng.random()
    if choice < 0.45:
        colour = rng.choice(["1;34", "32", "38;5;208", "38;2;120;200;80", "0"])
        name = "_".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
        return f"-rw-r--r-- 1 user user {rng.randint(0, 99999):6} Nov 30 {CSI}{colour}m{name}{CSI}0m\r\n"
    if choice < 0.6:
        return f"{CSI}1;32muser@host{CSI}0m:{CSI}1;34m~/src{CSI}0m$ {' '.join(rng.sample(WORDS, 3))}\r\n"
    if choice < 0.75:
        return unicode(rng, cols, rows)
    if choice < 0.97:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 14))) + "\r\n"
    # A small full-screen TUI redraw inside synchronized output.
    out = [CSI + "?2026h", CSI + "?1049h", CSI + "H"]
    for row in range(rows):
        out.append(CSI + f"{row + 1};1H" + CSI + f"48;2;{row * 9 % 256};40;60m" + " " * cols)
    out.append(CSI + "0m" + CSI + "?1049l" + CSI + "?2026l")
    return "".join(out)


# --- Kinds added for the benchmark suite (Benchmarks/TermBench) -------------

def scrolling_fullscreen(rng, cols, rows):
    # A line that fills every column: the cursor ends in pending-wrap state
    # and the CR LF that follows scrolls.
    return rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") * cols + "\r\n"


def light_cells(rng, cols, rows):
    # The whole screen rewritten with one plain character, from the home
    # position, so nothing scrolls (the last cell leaves a pending wrap).
    return CSI + "H" + rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") * (cols * rows)


def region_prologue(top, bottom):
    """The alternate screen with a DECSTBM scroll region (1-based rows)."""
    return CSI + "?1049h" + CSI + f"{top};{bottom}r" + CSI + f"{top};1H"


class Stream:
    """A kind whose stream has state: a setup written once at the start,
    then pieces from `piece`. Instances are made per generated stream."""

    def __init__(self, rng, cols, rows):
        self.started = False

    def setup(self, rng, cols, rows):
        return ""

    def piece(self, rng, cols, rows):
        raise NotImplementedError

    def __call__(self, rng, cols, rows):
        if self.started:
            return self.piece(rng, cols, rows)
        self.started = True
        return self.setup(rng, cols, rows) + self.piece(rng, cols, rows)


def region_kind(region):
    """Random-width lines scrolling inside a DECSTBM region on the alternate
    screen; `region(rows)` gives the 1-based (top, bottom) rows."""
    class RegionScroll(Stream):
        def setup(self, rng, cols, rows):
            top, bottom = region(rows)
            return CSI + "?1049h" + CSI + f"{top};{bottom}r" + CSI + f"{top};1H"

        def piece(self, rng, cols, rows):
            return scrolling(rng, cols, rows)
    return RegionScroll


scrolling_top_region = region_kind(lambda rows: (2, rows))
scrolling_bottom_region = region_kind(lambda rows: (1, rows - 1))
scrolling_top_small_region = region_kind(lambda rows: (rows // 2, rows))
scrolling_bottom_small_region = region_kind(lambda rows: (1, rows // 2))


KEYWORDS = "func let var if else for while return struct class import guard switch case".split()
TYPES = "Int String Bool Cell Grid Terminal Parser Style UInt8 UInt32 Array".split()
# (SGR for the token, how to draw it): a 256-colour and truecolour palette
# like an editor colour scheme's.
SYNTAX = {
    "keyword": "1;38;5;176",
    "type": "38;2;102;217;239",
    "string": "38;2;230;219;116",
    "number": "38;5;141",
    "comment": "3;38;5;244",
    "ident": "38;5;252",
    "punct": "38;5;203",
}


def source_line(rng):
    """A line of pseudo-source code as (class, text) tokens."""
    indent = " " * (4 * rng.randint(0, 3))
    tokens = [("ident", indent)] if indent else []
    if rng.random() < 0.12:
        return tokens + [("comment", "// " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 8))))]
    for _ in range(rng.randint(2, 9)):
        roll = rng.random()
        if roll < 0.2:
            tokens.append(("keyword", rng.choice(KEYWORDS)))
        elif roll < 0.35:
            tokens.append(("type", rng.choice(TYPES)))
        elif roll < 0.45:
            tokens.append(("string", '"' + rng.choice(WORDS) + '"'))
        elif roll < 0.55:
            tokens.append(("number", str(rng.randint(0, 4096))))
        elif roll < 0.7:
            tokens.append(("punct", rng.choice(["(", ")", "{", "}", "=", "->", ".", ",", ":"])))
        else:
            tokens.append(("ident", rng.choice(WORDS)))
        tokens.append(("ident", " "))
    return tokens


class Editor(Stream):
    """medium_cells: an editor's window over a buffer of source lines. Each
    piece scrolls the view and redraws it: line numbers, a colour per
    token, erase to end of line, an inverse status line, the cursor."""

    synchronized = False

    def __init__(self, rng, cols, rows):
        super().__init__(rng, cols, rows)
        self.lines = [source_line(rng) for _ in range(4096)]
        self.top = 0

    def setup(self, rng, cols, rows):
        return CSI + "?1049h"

    def piece(self, rng, cols, rows):
        self.top = (self.top + rng.randint(1, max(1, rows // 2))) % len(self.lines)
        out = [CSI + "?2026h"] if self.synchronized else []
        out.append(CSI + "?25l")
        text_rows = rows - 2
        for row in range(text_rows):
            number = self.top + row
            out.append(CSI + f"{row + 1};1H" + CSI + "38;5;130m" + f"{number % 10000:>4} " + CSI + "0m")
            width = 5
            for cls, text in self.lines[number % len(self.lines)]:
                if width + len(text) > cols:
                    text = text[: cols - width]
                if not text:
                    break
                out.append(CSI + SYNTAX[cls] + "m" + text)
                width += len(text)
            out.append(CSI + "0m" + CSI + "K")
        status = f" NORMAL  main.swift  [+]  {self.top + 1},1  {100 * self.top // len(self.lines)}%"
        out.append(CSI + f"{rows - 1};1H" + CSI + "1;7m" + status[:cols].ljust(cols) + CSI + "0m")
        out.append(CSI + f"{rows};1H" + CSI + "K" + f'"main.swift" {len(self.lines)}L'[:cols])
        out.append(CSI + f"{rng.randint(1, text_rows)};{rng.randint(6, cols)}H" + CSI + "?25h")
        if self.synchronized:
            out.append(CSI + "?2026l")
        return "".join(out)


class SyncEditor(Editor):
    """sync_medium_cells: the same frames inside synchronized output."""
    synchronized = True


medium_cells = Editor
sync_medium_cells = SyncEditor


# --- Kinds added for the storage work (issue #17) ---------------------------
# Distinct styles and links that keep arriving, so that side tables fill,
# compact or split, and a screen where no two cells share a style. What
# `--count` finds in each at --size 16777216 (16 MiB), seed 1 (SGRs other
# than a plain reset; links counted by their (params, URI) pair):
#
#   kind             80x24                                  200x50
#   style_churn      284,606 distinct SGRs of 425,041       291,557 of 416,558
#   link_churn       277,294 distinct links of 323,236      289,841 of 342,382
#   truecolor_dense  459,577 cells, 459,577 distinct SGRs   460,198, 460,198
#
# (truecolor_dense: one SGR per cell, no two alike; the last piece is cut
# off at 16 MiB, as in every kind.)

def truecolor(rng):
    """A random 24-bit colour as 'r;g;b'."""
    value = rng.getrandbits(24)
    return f"{value >> 16};{(value >> 8) & 255};{value & 255}"


LEVELS = [("INFO ", "32"), ("DEBUG", "2;37"), ("WARN ", "1;33"), ("ERROR", "1;31"), ("TRACE", "2;36")]


class StyleChurn(Stream):
    """style_churn: a coloured log that scrolls, where nearly every word has
    a style never seen before (random truecolour foreground, often a
    truecolour background, underline styles and colours, attributes), so
    the distinct styles grow all through the file and spread over the
    screen and the scrollback. Each styled word's SGR starts with 0, so its
    parameter string alone is its style; about one word in ten reuses one
    of the last 64 styles, as real output repeats itself."""

    def __init__(self, rng, cols, rows):
        super().__init__(rng, cols, rows)
        self.recent = []
        self.clock = 0

    def style(self, rng):
        if self.recent and rng.random() < 0.1:
            return rng.choice(self.recent)
        params = ["0"]
        for code, chance in (("1", 0.2), ("2", 0.08), ("3", 0.2), ("7", 0.04), ("9", 0.05)):
            if rng.random() < chance:
                params.append(code)
        underline = rng.random() < 0.35
        if underline:
            params.append(rng.choice(["4", "4:2", "4:3", "4:4", "4:5"]))
        if rng.random() < 0.05:
            params.append("53")
        if rng.random() < 0.125:
            # The ITU T.416 colon form, as kitty and WezTerm document it.
            params.append("38:2::" + truecolor(rng).replace(";", ":"))
        else:
            params.append("38;2;" + truecolor(rng))
        if rng.random() < 0.5:
            params.append("48;2;" + truecolor(rng))
        if underline and rng.random() < 0.7:
            params.append("58;2;" + truecolor(rng) if rng.random() < 0.8 else f"58;5;{rng.randrange(256)}")
        sgr = ";".join(params)
        self.recent.append(sgr)
        if len(self.recent) > 64:
            del self.recent[0]
        return sgr

    def piece(self, rng, cols, rows):
        self.clock += rng.randint(1, 900)
        seconds, millis = divmod(self.clock, 1000)
        level, colour = rng.choice(LEVELS)
        stamp = f"{seconds // 3600 % 24:02}:{seconds // 60 % 60:02}:{seconds % 60:02}.{millis:03}"
        out = [CSI + "2m" + stamp + CSI + "0m " + CSI + colour + "m" + level + CSI + "0m "]
        width = len(stamp) + len(level) + 2
        for _ in range(rng.randint(2, 12)):
            word = rng.choice(WORDS)
            if rng.random() < 0.3:
                word += str(rng.randrange(10000))
            if width + len(word) + 1 > cols:
                break
            out.append(CSI + self.style(rng) + "m" + word + CSI + "0m ")
            width += len(word) + 1
        out.append(CSI + "0m\r\n")
        return "".join(out)


class LinkChurn(Stream):
    """link_churn: OSC 8 hyperlinks that keep changing, on lines that
    scroll: `ls --hyperlink` style listings (a column of names, each linked
    to its own file://), compiler diagnostics whose location links to the
    file and line, and issue and documentation URLs in prose. Linked runs
    are a few cells long. About 60% of the links carry an `id=`; a link is
    sometimes reused (a diagnostic's location printed again, an id tying
    two runs of one link). Both string terminators occur (ST and BEL)."""

    def __init__(self, rng, cols, rows):
        super().__init__(rng, cols, rows)
        self.serial = 0
        self.recent = []

    def link(self, rng, uri):
        if self.recent and rng.random() < 0.08:
            params, uri = rng.choice(self.recent)
        else:
            self.serial += 1
            params = f"id={self.serial:x}" if rng.random() < 0.6 else ""
            self.recent.append((params, uri))
            if len(self.recent) > 32:
                del self.recent[0]
        end = "\x07" if rng.random() < 0.2 else ESC + "\\"
        return ESC + "]8;" + params + ";" + uri + end

    def run(self, rng, uri, text):
        return self.link(rng, uri) + text + ESC + "]8;;" + ESC + "\\"

    def piece(self, rng, cols, rows):
        roll = rng.random()
        n = self.serial + 1
        if roll < 0.55:
            # A listing: names in columns, each its own file.
            out, width = [], 0
            while True:
                name = rng.choice(WORDS)[: rng.randint(3, 6)] + f"{n % 1000}" + rng.choice([".c", ".h", ".o", ""])
                if width + len(name) + 2 > cols:
                    break
                out.append(self.run(rng, f"file://h/{name}", name) + "  ")
                width += len(name) + 2
                n += 1
            return "".join(out) + "\r\n"
        if roll < 0.85:
            name = rng.choice(WORDS) + f"{n % 100}.c"
            line = rng.randint(1, 999)
            text = f"{name}:{line}"
            message = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
            return (CSI + "1m" + self.run(rng, f"file://h/{name}#{line}", text) + CSI + "0m: "
                    + CSI + "31merror:" + CSI + "0m " + message[: max(0, cols - len(text) - 9)] + "\r\n")
        words = [rng.choice(WORDS) for _ in range(rng.randint(1, 4))]
        tag = f"#{n}"
        return (" ".join(words) + " " + CSI + "4;34m" + self.run(rng, f"https://x.io/i/{n}", tag)
                + CSI + "0m " + rng.choice(WORDS) + "\r\n")


class TruecolorDense(Stream):
    """truecolor_dense: half-block image previews, every cell its own
    random 24-bit foreground and background (`38;2;r;g;b;48;2;r;g;b` and
    U+2580). Frames alternate at random between a redraw from the home
    position (CUP on every row, nothing scrolls) and a preview printed
    inline, row by row with CR LF, which scrolls it into the scrollback."""

    def __init__(self, rng, cols, rows):
        super().__init__(rng, cols, rows)
        self.after_home = False

    def cells(self, rng, cols):
        bits = rng.getrandbits
        out = []
        for _ in range(cols):
            fg, bg = bits(24), bits(24)
            out.append(f"{CSI}38;2;{fg >> 16};{(fg >> 8) & 255};{fg & 255};"
                       f"48;2;{bg >> 16};{(bg >> 8) & 255};{bg & 255}m\u2580")
        return "".join(out)

    def piece(self, rng, cols, rows):
        if rng.random() < 0.5:
            out = [CSI + "H"]
            for row in range(rows):
                out.append(CSI + f"{row + 1};1H" + self.cells(rng, cols))
            out.append(CSI + "0m")
            self.after_home = True
            return "".join(out)
        out = ["\r\n"] if self.after_home else []
        for _ in range(rows):
            out.append(self.cells(rng, cols) + CSI + "0m\r\n")
        self.after_home = False
        return "".join(out)


# --- Unicode by category (issue #21) -----------------------------------------
#
# One kind per kind of text beyond ASCII, each a log of lines that scroll, and
# a realistic mix of them all. A line is built up to a random budget of cells
# below the width (a character's cells as a modern terminal counts them: 2 for
# CJK, emoji, flags and VS16 sequences), so that no line wraps because of the
# engine's width table alone; unicode_mixed lets its paragraphs wrap, as chat
# and log output does.

COMBINING_MARKS = [0x0300, 0x0301, 0x0302, 0x0303, 0x0304, 0x0306, 0x0307, 0x0308, 0x030A, 0x030B,
                   0x030C, 0x0323, 0x0327, 0x0328, 0x0331]


def decomposed_word(rng, length):
    """Latin letters, each followed by one combining mark (NFD text)."""
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
                   + chr(rng.choice(COMBINING_MARKS)) for _ in range(length))


def unicode_combining(rng, cols, rows):
    """Decomposed Latin: a combining mark on every letter, words and spaces."""
    budget, cells, words = rng.randint(cols // 3, cols - 1), 0, []
    while True:
        length = rng.randint(2, 9)
        if cells + length + 1 > budget:
            break
        words.append(decomposed_word(rng, length))
        cells += length + 1
    return " ".join(words) + "\r\n"


# Han ideographs, kana, Hangul syllables and CJK punctuation: all two cells.
CJK_RANGES = [(0x4E00, 0x9FFF, 70), (0x3041, 0x3096, 12), (0x30A1, 0x30FA, 8), (0xAC00, 0xD7A3, 8)]
CJK_PUNCTUATION = "、。「」（）：！？・"


def cjk_character(rng):
    roll = rng.randrange(100)
    for low, high, weight in CJK_RANGES:
        if roll < weight:
            return chr(rng.randint(low, high))
        roll -= weight
    return rng.choice(CJK_PUNCTUATION)


def unicode_cjk(rng, cols, rows):
    """CJK text: ideographs with some kana, Hangul and punctuation."""
    count = rng.randint(cols // 6, (cols - 1) // 2)
    return "".join(cjk_character(rng) for _ in range(count)) + "\r\n"


ZWJ = "\u200d"
SKIN_TONES = [chr(code) for code in range(0x1F3FB, 0x1F400)]
PEOPLE = ["\U0001F468", "\U0001F469", "\U0001F9D1"]  # man, woman, person
ROLES = ["\U0001F4BB", "\U0001F680", "\U0001F52C", "\U0001F3A8", "\U0001F373", "\U0001F33E", "\U0001F3EB",
         "\U0001F527", "\U0001F692", "\u2695\ufe0f", "\u2696\ufe0f", "\u2708\ufe0f"]
OTHER_ZWJ = ["\U0001F3F3\ufe0f\u200d\U0001F308", "\u2764\ufe0f\u200d\U0001F525", "\U0001F43B\u200d\u2744\ufe0f",
             "\U0001F408\u200d\u2B1B", "\U0001F3F4\u200d\u2620\ufe0f", "\U0001F62E\u200d\U0001F4A8"]


def zwj_sequence(rng):
    """One emoji ZWJ sequence, two cells: a person with a role, a family,
    a couple, or another sequence; people often with a skin tone."""
    def person(tone_chance=0.5):
        return rng.choice(PEOPLE) + (rng.choice(SKIN_TONES) if rng.random() < tone_chance else "")
    roll = rng.random()
    if roll < 0.45:
        return person() + ZWJ + rng.choice(ROLES)
    if roll < 0.7:
        members = [rng.choice(PEOPLE[:2]) for _ in range(2)] + [rng.choice(["\U0001F467", "\U0001F466"])
                                                             for _ in range(rng.randint(1, 2))]
        return ZWJ.join(members)
    if roll < 0.85:
        return person(0.7) + ZWJ + "\U0001F91D" + ZWJ + person(0.7)  # people holding hands
    return rng.choice(OTHER_ZWJ)


def unicode_zwj(rng, cols, rows):
    """Emoji ZWJ sequences (with skin tones), some runs separated by spaces."""
    budget, cells, out = rng.randint(cols // 3, cols - 1), 0, []
    while cells + 3 <= budget:
        out.append(zwj_sequence(rng))
        cells += 2
        if rng.random() < 0.3:
            out.append(" ")
            cells += 1
    return "".join(out) + "\r\n"


LATIN_LETTERS = "abcdefghijklmnopqrstuvwxyzàáâäãåæçèéêëìíîïñòóôöõøùúûüýÿßœłšžčřğış"
GREEK_LETTERS = "αβγδεζηθικλμνξοπρστυφχψωάέήίόύώΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ"
CYRILLIC_LETTERS = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЭЮЯїієґ"


def unicode_letters(rng, cols, rows):
    """Latin (precomposed accents), Greek and Cyrillic words: one cell each."""
    budget, cells, words = rng.randint(cols // 3, cols - 1), 0, []
    while True:
        length = rng.randint(2, 11)
        if cells + length + 1 > budget:
            break
        alphabet = rng.choice([LATIN_LETTERS, GREEK_LETTERS, CYRILLIC_LETTERS])
        words.append("".join(rng.choice(alphabet) for _ in range(length)))
        cells += length + 1
    return " ".join(words) + "\r\n"


FLAG_CODES = ("US GB FR DE IT ES PT NL BE CH AT SE NO DK FI IE PL CZ UA GR TR JP CN KR IN BR AR MX CA AU NZ ZA "
              "NG EG KE IL SA AE SG TH VN ID PH CL CO PE IS").split()


def flag(code):
    return "".join(chr(0x1F1E6 + ord(letter) - ord("A")) for letter in code)


def unicode_flags(rng, cols, rows):
    """Regional-indicator flags (pairs, two cells each), some spaced."""
    budget, cells, out = rng.randint(cols // 3, cols - 1), 0, []
    while cells + 3 <= budget:
        out.append(flag(rng.choice(FLAG_CODES)))
        cells += 2
        if rng.random() < 0.25:
            out.append(" ")
            cells += 1
    return "".join(out) + "\r\n"


# Emoji whose default presentation is emoji (two cells everywhere), from
# Unicode 6.0's blocks, and text-default symbols that VS16 makes emoji.
EMOJI_RANGES = [(0x1F600, 0x1F64F), (0x1F680, 0x1F6C5), (0x1F300, 0x1F320), (0x1F337, 0x1F37C),
                (0x1F380, 0x1F393), (0x1F3A0, 0x1F3C4), (0x1F3E0, 0x1F3F0), (0x1F400, 0x1F43E),
                (0x1F442, 0x1F4F7), (0x1F4F9, 0x1F4FC), (0x1F500, 0x1F53D)]
VS16_BASES = [0x2764, 0x2600, 0x2601, 0x2708, 0x260E, 0x270F, 0x267B, 0x26A0, 0x2714, 0x263A, 0x2744, 0x2733]


def single_emoji(rng, vs16_chance=0.1):
    if rng.random() < vs16_chance:
        return chr(rng.choice(VS16_BASES)) + "\ufe0f"
    low, high = rng.choice(EMOJI_RANGES)
    return chr(rng.randint(low, high))


def unicode_emoji(rng, cols, rows):
    """Single emoji (about one in ten a text symbol with VS16), some spaced."""
    budget, cells, out = rng.randint(cols // 3, cols - 1), 0, []
    while cells + 3 <= budget:
        out.append(single_emoji(rng))
        cells += 2
        if rng.random() < 0.2:
            out.append(" ")
            cells += 1
    return "".join(out) + "\r\n"


MIXED_NAMES = ["alice", "bob", "Дмитрий", "Zoë", "山田", "민준", "François", "Ólafur"]


def mixed_token(rng):
    """One word of a multilingual chat or log line."""
    roll = rng.random()
    if roll < 0.40:
        return rng.choice(WORDS)
    if roll < 0.52:
        return "".join(cjk_character(rng) for _ in range(rng.randint(2, 8)))
    if roll < 0.62:
        return "".join(rng.choice(CYRILLIC_LETTERS[:33]) for _ in range(rng.randint(3, 9)))
    if roll < 0.70:
        return "".join(rng.choice(LATIN_LETTERS) for _ in range(rng.randint(3, 9)))
    if roll < 0.74:
        return decomposed_word(rng, rng.randint(2, 6))
    if roll < 0.84:
        return single_emoji(rng, vs16_chance=0.25) + (rng.choice(SKIN_TONES) if rng.random() < 0.1 else "")
    if roll < 0.91:
        return zwj_sequence(rng)
    if roll < 0.95:
        return flag(rng.choice(FLAG_CODES))
    return str(rng.randint(0, 99999))


def unicode_mixed(rng, cols, rows):
    """A multilingual chat log: a coloured, bold name, then a message mixing
    ASCII words, CJK, Cyrillic and Latin, combining marks, emoji (single,
    with VS16 and skin tones, ZWJ sequences) and flags; some messages long
    enough to wrap, some blank lines, some words coloured."""
    roll = rng.random()
    if roll < 0.05:
        return "\r\n"
    name = rng.choice(MIXED_NAMES)
    colour = rng.choice(["31", "32", "33", "34", "35", "36", "38;5;208", "38;2;120;200;80"])
    words = []
    for _ in range(rng.randint(2, 9) if roll < 0.85 else rng.randint(10, 30)):
        word = mixed_token(rng)
        if rng.random() < 0.06:
            word = CSI + rng.choice(["1", "3", "4", "33", "1;36"]) + "m" + word + CSI + "0m"
        words.append(word)
    return f"{CSI}2m{rng.randint(0, 23):02}:{rng.randint(0, 59):02}{CSI}0m {CSI}1;{colour}m{name}{CSI}0m: " \
        + " ".join(words) + "\r\n"


style_churn = StyleChurn
link_churn = LinkChurn
truecolor_dense = TruecolorDense


KINDS = {"scrolling": scrolling, "dense_cells": dense_cells, "cursor_motion": cursor_motion,
         "unicode": unicode, "mixed": mixed,
         "scrolling_fullscreen": scrolling_fullscreen, "light_cells": light_cells,
         "scrolling_top_region": scrolling_top_region, "scrolling_bottom_region": scrolling_bottom_region,
         "scrolling_top_small_region": scrolling_top_small_region,
         "scrolling_bottom_small_region": scrolling_bottom_small_region,
         "medium_cells": medium_cells, "sync_medium_cells": sync_medium_cells,
         "style_churn": style_churn, "link_churn": link_churn, "truecolor_dense": truecolor_dense,
         "unicode_combining": unicode_combining, "unicode_cjk": unicode_cjk, "unicode_zwj": unicode_zwj,
         "unicode_letters": unicode_letters, "unicode_flags": unicode_flags, "unicode_emoji": unicode_emoji,
         "unicode_mixed": unicode_mixed}

# The benchmark suite, in vtebench's order of categories.
SUITE_KINDS = ["dense_cells", "light_cells", "medium_cells", "cursor_motion", "scrolling",
               "scrolling_fullscreen", "scrolling_top_region", "scrolling_bottom_region",
               "scrolling_top_small_region", "scrolling_bottom_small_region", "unicode",
               "sync_medium_cells", "truecolor_dense", "style_churn", "link_churn",
               "unicode_combining", "unicode_cjk", "unicode_zwj", "unicode_letters", "unicode_flags",
               "unicode_emoji", "unicode_mixed"]


def generate(kind, size, seed, cols, rows):
    """The bytes of one replay: pieces from the kind until `size` bytes."""
    rng = random.Random(seed)
    make = KINDS[kind]
    if isinstance(make, type) and issubclass(make, Stream):
        make = make(rng, cols, rows)
    chunks, written = [], 0
    while written < size:
        piece = make(rng, cols, rows).encode("utf-8")
        chunks.append(piece)
        written += len(piece)
    return b"".join(chunks)[:size]


def distinct_counts(data):
    """What a replay holds for the side tables, counted from its bytes: SGR
    sequences other than a plain reset (`0m`, `m`) and their distinct
    parameter strings, cells printed (code
    points that are not controls), and OSC 8 links opened and their
    distinct (params, URI) pairs. style_churn's SGRs each start with 0, so
    a distinct parameter string is a distinct style."""
    sgrs = [sgr for sgr in re.findall(rb"\x1b\[([0-9;:]*)m", data) if sgr not in (b"", b"0")]
    opened = [match for match in re.findall(rb"\x1b\]8;([^;\x07\x1b]*);([^\x07\x1b]*)(?:\x07|\x1b\\)", data)
              if match[1]]
    plain = re.sub(rb"\x1b\[[0-9;:?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|[\x00-\x1f]", b"", data)
    return {"bytes": len(data), "sgr": len(sgrs), "distinct_sgr": len(set(sgrs)),
            "cells": len(plain.decode("utf-8", "replace")),
            "links_opened": len(opened), "distinct_links": len(set(opened))}


def generator_version():
    """A digest of this file: a manifest made by another version is stale."""
    with open(__file__, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()[:16]


def write_suite(directory, size, seed, cols, rows, kinds):
    os.makedirs(directory, exist_ok=True)
    manifest_path = os.path.join(directory, "manifest.json")
    try:
        with open(manifest_path) as handle:
            manifest = json.load(handle)
    except (OSError, ValueError):
        manifest = {}
    version = generator_version()
    entries = manifest.get("files", {})
    for kind in kinds:
        params = {"kind": kind, "size": size, "seed": seed, "cols": cols, "rows": rows, "generator": version}
        path = os.path.join(directory, kind + ".bin")
        if entries.get(kind) == params and os.path.exists(path) and os.path.getsize(path) == size:
            continue
        data = generate(kind, size, seed, cols, rows)
        with open(path, "wb") as handle:
            handle.write(data)
        entries[kind] = params
        print(f"wrote {len(data)} bytes of {kind} ({cols}x{rows}, seed {seed}) to {path}", file=sys.stderr)
    manifest = {"schema": "termengine-corpus/1", "files": entries}
    with open(manifest_path, "w") as handle:
        json.dump(manifest, handle, indent=1, sort_keys=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kind", choices=sorted(KINDS), default="mixed")
    parser.add_argument("--size", type=int, default=16 << 20, help="bytes to write (default 16 MiB)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cols", type=int, default=80)
    parser.add_argument("--rows", type=int, default=24)
    parser.add_argument("-o", "--output", help="the file to write (one --kind)")
    parser.add_argument("--suite", metavar="DIR", help="write every suite kind into DIR instead")
    parser.add_argument("--kinds", help="with --suite: comma-separated subset of the suite kinds")
    parser.add_argument("--count", action="store_true",
                        help="print what --kind holds for the side tables (distinct SGRs, links, cells); no file")
    args = parser.parse_args()

    if args.count:
        counts = distinct_counts(generate(args.kind, args.size, args.seed, args.cols, args.rows))
        print(f"{args.kind} {args.cols}x{args.rows} seed {args.seed}: "
              + " ".join(f"{key}={value}" for key, value in counts.items()))
        return

    if args.suite:
        kinds = args.kinds.split(",") if args.kinds else SUITE_KINDS
        unknown = [kind for kind in kinds if kind not in KINDS]
        if unknown:
            parser.error(f"unknown kinds: {', '.join(unknown)}")
        write_suite(args.suite, args.size, args.seed, args.cols, args.rows, kinds)
        return
    if not args.output:
        parser.error("-o/--output or --suite is required")
    data = generate(args.kind, args.size, args.seed, args.cols, args.rows)
    with open(args.output, "wb") as handle:
        handle.write(data)
    print(f"wrote {len(data)} bytes of {args.kind} (seed {args.seed}) to {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
