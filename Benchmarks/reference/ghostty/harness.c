// Ghostty's terminal core (libghostty-vt, from the PyPI wheel `pyghostty`)
// under the TermBench harness protocol:
//
//   ghostty-harness FILE COLS ROWS [--runs N] [--warmup N] [--scrollback N] [--chunk N]
//                   [--scrollback-bytes N] [--calibrate] [--dump]
//
// Each run creates a terminal with ghostty_terminal_new (the library's own
// allocator: a NULL GhosttyAllocator), sets the scrollback limit and feeds
// it through ghostty_terminal_vt_write; the protocol (timing, allocations,
// --chunk, --dump) is Benchmarks/reference/common/harness_main.h.
//
// The fastest configuration the C API offers: the wheel's library is built
// ReleaseFast (its build mode string says so), and no callback is installed
// (no reply writer, no title, bell or unknown-sequence handlers), so replies
// to queries are dropped inside the library and nothing calls out per
// sequence.

#include <stdbool.h>
#include <stdint.h>

#include "ghostty_vt.h"

#define HARNESS_NAME "ghostty-harness"
#define HARNESS_EXTRA_USAGE " [--scrollback-bytes N] [--calibrate]"
#define ENGINE_MAX_WRITE SIZE_MAX
#include "harness_main.h"

// The engine is the library's terminal handle itself.
struct Engine;

// Ghostty limits its scrollback in bytes, not lines: history is kept in
// whole pages of cells, and the oldest page is dropped once the pages behind
// the screen exceed the limit (the library's default is 10,000 bytes, which
// kept 673-1,077 lines of 80 columns here). How many lines a byte figure
// keeps depends on the output: a row costs 8 bytes a cell plus 16 for the
// row, `cols * 8 + 16`, and a page adds its style, grapheme and hyperlink
// tables, which are reallocated larger when they fill. With 1.5 times the
// cells' bytes, ASCII lines kept 13,477 at 80x24, but truecolor_dense 2,183
// of its 2,761 scrolled lines, unicode_zwj 5,951 and unicode_combining (a
// mark on every letter) 2,971; that one needed 4.5 times.
//
// A larger figure is not free: Ghostty then maps fresh pages for longer
// before it reuses the oldest, and plain scrolling at 80x24 ran 266 MiB/s
// with 1.5 times, 229 with 2.5, 178 with 5 (46,423 lines kept). Its line
// limit (GHOSTTY_TERMINAL_OPT_SCROLLBACK_MAX_LINES) is slower still: capped
// at 11,000 lines, unicode_cjk ran 86 MiB/s against 312 without the cap.
//
// So the fastest configuration that keeps the lines the other engines keep
// is the smallest byte figure that does so on the output at hand, and it is
// found before anything is timed: `--calibrate` feeds the file with a figure
// of 10 times the cells' bytes to learn how many lines it leaves behind
// (`scrollback` at most), then with factors of 1.2, 1.5, 2, 2.5, 3, 4, 5, 6
// and 8, and prints the first figure that keeps as many lines, as
// `scrollback-bytes=N`; termbench runs it once per file and size and passes
// `--scrollback-bytes N` to every measurement of that file. Without the
// option the figure is 5 times, `(scrollback + rows) * (cols * 8 + 16) * 5`,
// which kept at least 10,000 lines on every corpus of the suite. The result
// line's scrollback= is the count the library reports (GHOSTTY_TERMINAL_
// DATA_SCROLLBACK_ROWS), so every run shows that the figure held.
static size_t scrollback_bytes(int cols, int rows, int scrollback, int tenths) {
    if (scrollback == 0) return 0;
    return (size_t)(scrollback + rows) * ((size_t)cols * 8 + 16) * (size_t)tenths / 10;
}

static GhosttyTerminal terminal_new(int cols, int rows, size_t bytes) {
    GhosttyTerminal terminal = NULL;
    if (ghostty_terminal_new(NULL, &terminal, (uint16_t)cols, (uint16_t)rows) != GHOSTTY_SUCCESS) {
        fprintf(stderr, "ghostty-harness: ghostty_terminal_new failed\n");
        exit(1);
    }
    if (ghostty_terminal_set(terminal, GHOSTTY_TERMINAL_OPT_SCROLLBACK_MAX_BYTES, &bytes) != GHOSTTY_SUCCESS) {
        fprintf(stderr, "ghostty-harness: cannot set the scrollback limit\n");
        exit(1);
    }
    return terminal;
}

static size_t engine_scrollback_rows(Engine *engine) {
    size_t rows = 0;
    if (ghostty_terminal_get((GhosttyTerminal)engine, GHOSTTY_TERMINAL_DATA_SCROLLBACK_ROWS, &rows) != GHOSTTY_SUCCESS)
        return 0;
    return rows;
}

// The lines of scrollback a figure leaves after the whole file (untimed).
static size_t lines_kept(const uint8_t *bytes, size_t len, int cols, int rows, size_t figure) {
    GhosttyTerminal terminal = terminal_new(cols, rows, figure);
    ghostty_terminal_vt_write(terminal, bytes, len);
    size_t kept = engine_scrollback_rows((Engine *)terminal);
    ghostty_terminal_free(terminal);
    return kept;
}

// `--calibrate`: the smallest figure of the list above that keeps as many
// lines as a generous one does, `scrollback` at most.
static size_t calibrate(const uint8_t *bytes, size_t len, int cols, int rows, int scrollback) {
    if (scrollback == 0) return 0;
    size_t wanted = lines_kept(bytes, len, cols, rows, scrollback_bytes(cols, rows, scrollback, 100));
    if (wanted > (size_t)scrollback) wanted = (size_t)scrollback;
    static const int tenths[] = {12, 15, 20, 25, 30, 40, 50, 60, 80};
    for (size_t i = 0; i < sizeof tenths / sizeof tenths[0]; i++) {
        size_t figure = scrollback_bytes(cols, rows, scrollback, tenths[i]);
        if (lines_kept(bytes, len, cols, rows, figure) >= wanted) return figure;
    }
    return scrollback_bytes(cols, rows, scrollback, 100);
}

// --scrollback-bytes N (-1: not given) and --calibrate.
static long long scrollback_figure = -1;
static int want_calibrate = 0;
static size_t bytes_limit = 0;

static int engine_option(const char *name, const char *value) {
    if (strcmp(name, "--scrollback-bytes") == 0 && value) {
        scrollback_figure = atoll(value);
        return 2;
    }
    if (strcmp(name, "--calibrate") == 0) {
        want_calibrate = 1;
        return 1;
    }
    return 0;
}

static void engine_prepare(HarnessOptions *options, const uint8_t *bytes, size_t length) {
    if (want_calibrate) {
        printf("scrollback-bytes=%zu\n", calibrate(bytes, length, options->cols, options->rows, options->scrollback));
        exit(0);
    }
    bytes_limit = scrollback_figure >= 0 ? (size_t)scrollback_figure
                                         : scrollback_bytes(options->cols, options->rows, options->scrollback, 50);
}

static Engine *engine_new(const HarnessOptions *options) {
    return (Engine *)terminal_new(options->cols, options->rows, bytes_limit);
}

static void engine_write(Engine *engine, const uint8_t *bytes, size_t length) {
    ghostty_terminal_vt_write((GhosttyTerminal)engine, bytes, length);
}

static void engine_free(Engine *engine) { ghostty_terminal_free((GhosttyTerminal)engine); }

// One cell's text: nothing for the second half of a wide character (and
// for the spacer Ghostty leaves at the end of a row when a wide character
// wraps: a blank there), a space for an empty cell, else its grapheme
// cluster (the base code point and any marks joined to it).
static int engine_put_cell(Engine *engine, int col, int row, FILE *out) {
    GhosttyTerminal terminal = (GhosttyTerminal)engine;
    GhosttyPoint point;
    memset(&point, 0, sizeof point);
    point.tag = GHOSTTY_POINT_TAG_ACTIVE;
    point.value.coordinate.x = (uint16_t)col;
    point.value.coordinate.y = (uint32_t)row;
    GhosttyGridRef ref;
    memset(&ref, 0, sizeof ref);
    ref.size = sizeof ref;
    GhosttyCell cell = 0;
    if (ghostty_terminal_grid_ref(terminal, point, &ref) != GHOSTTY_SUCCESS ||
        ghostty_grid_ref_cell(&ref, &cell) != GHOSTTY_SUCCESS) {
        fputc(' ', out);
        return 1;
    }
    GhosttyCellWide wide = GHOSTTY_CELL_WIDE_NARROW;
    ghostty_cell_get(cell, GHOSTTY_CELL_DATA_WIDE, &wide);
    if (wide == GHOSTTY_CELL_WIDE_SPACER_TAIL) return 1;
    bool has_text = false;
    ghostty_cell_get(cell, GHOSTTY_CELL_DATA_HAS_TEXT, &has_text);
    if (!has_text || wide == GHOSTTY_CELL_WIDE_SPACER_HEAD) {
        fputc(' ', out);
        return 1;
    }
    uint32_t cluster[32];
    size_t count = 0;
    if (ghostty_grid_ref_graphemes(&ref, cluster, sizeof cluster / sizeof cluster[0], &count) == GHOSTTY_SUCCESS &&
        count > 0) {
        for (size_t i = 0; i < count; i++) put_utf8(cluster[i], out);
        return 1;
    }
    uint32_t codepoint = 0;
    ghostty_cell_get(cell, GHOSTTY_CELL_DATA_CODEPOINT, &codepoint);
    put_utf8(codepoint ? codepoint : ' ', out);
    return 1;
}

static void engine_result_suffix(FILE *out) { fprintf(out, " scrollback_bytes=%zu", bytes_limit); }

int main(int argc, char **argv) { return harness_main(argc, argv); }
