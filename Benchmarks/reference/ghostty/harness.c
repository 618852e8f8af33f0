// Ghostty's terminal core (libghostty-vt, from the PyPI wheel `pyghostty`)
// under the TermBench harness protocol:
//
//   ghostty-harness FILE COLS ROWS [--runs N] [--warmup N] [--scrollback N] [--chunk N]
//                   [--scrollback-bytes N] [--calibrate] [--dump]
//
// Each run creates a terminal with ghostty_terminal_new (the library's own
// allocator: a NULL GhosttyAllocator), sets the scrollback limit, feeds the
// file in two halves through ghostty_terminal_vt_write and times only the
// feed; allocations are counted during the second half. `--chunk N` (N > 0)
// feeds each half in calls of at most N bytes, as a terminal hands on what
// one read() of its PTY returned.
//
// The fastest configuration the C API offers: the wheel's library is built
// ReleaseFast (its build mode string says so), and no callback is installed
// (no reply writer, no title, bell or unknown-sequence handlers), so replies
// to queries are dropped inside the library and nothing calls out per
// sequence. Output: see Benchmarks/reference/rust/harness-common/src/lib.rs.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "CAllocCounter.h"
#include "ghostty_vt.h"

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

static GhosttyTerminal engine_new(int cols, int rows, size_t bytes) {
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

// The whole slice in one call, or in calls of at most `chunk` bytes.
static void engine_feed(GhosttyTerminal terminal, const uint8_t *bytes, size_t len, size_t chunk) {
    if (chunk == 0) {
        ghostty_terminal_vt_write(terminal, bytes, len);
        return;
    }
    while (len > 0) {
        size_t slice = len < chunk ? len : chunk;
        ghostty_terminal_vt_write(terminal, bytes, slice);
        bytes += slice;
        len -= slice;
    }
}

static size_t scrollback_rows(GhosttyTerminal terminal) {
    size_t rows = 0;
    if (ghostty_terminal_get(terminal, GHOSTTY_TERMINAL_DATA_SCROLLBACK_ROWS, &rows) != GHOSTTY_SUCCESS) return 0;
    return rows;
}

// The lines of scrollback a figure leaves after the whole file (untimed).
static size_t lines_kept(const uint8_t *bytes, size_t len, int cols, int rows, size_t figure) {
    GhosttyTerminal terminal = engine_new(cols, rows, figure);
    engine_feed(terminal, bytes, len, 0);
    size_t kept = scrollback_rows(terminal);
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

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

// VmHWM from /proc/self/status, in KiB.
static long peak_rss_kib(void) {
    FILE *status = fopen("/proc/self/status", "r");
    if (!status) return 0;
    char line[256];
    long kib = 0;
    while (fgets(line, sizeof line, status)) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kib = strtol(line + 6, NULL, 10);
            break;
        }
    }
    fclose(status);
    return kib;
}

static void put_utf8(uint32_t c, FILE *out) {
    if (c < 0x80) {
        fputc((int)c, out);
    } else if (c < 0x800) {
        fputc(0xC0 | (c >> 6), out); fputc(0x80 | (c & 0x3F), out);
    } else if (c < 0x10000) {
        fputc(0xE0 | (c >> 12), out); fputc(0x80 | ((c >> 6) & 0x3F), out); fputc(0x80 | (c & 0x3F), out);
    } else {
        fputc(0xF0 | (c >> 18), out); fputc(0x80 | ((c >> 12) & 0x3F), out);
        fputc(0x80 | ((c >> 6) & 0x3F), out); fputc(0x80 | (c & 0x3F), out);
    }
}

// One cell's text: nothing for the second half of a wide character (and
// for the spacer Ghostty leaves at the end of a row when a wide character
// wraps: a blank there), a space for an empty cell, else its grapheme
// cluster (the base code point and any marks joined to it).
static void put_cell(GhosttyTerminal terminal, int col, int row, FILE *out) {
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
        return;
    }
    GhosttyCellWide wide = GHOSTTY_CELL_WIDE_NARROW;
    ghostty_cell_get(cell, GHOSTTY_CELL_DATA_WIDE, &wide);
    if (wide == GHOSTTY_CELL_WIDE_SPACER_TAIL) return;
    bool has_text = false;
    ghostty_cell_get(cell, GHOSTTY_CELL_DATA_HAS_TEXT, &has_text);
    if (!has_text || wide == GHOSTTY_CELL_WIDE_SPACER_HEAD) {
        fputc(' ', out);
        return;
    }
    uint32_t cluster[32];
    size_t count = 0;
    if (ghostty_grid_ref_graphemes(&ref, cluster, sizeof cluster / sizeof cluster[0], &count) == GHOSTTY_SUCCESS &&
        count > 0) {
        for (size_t i = 0; i < count; i++) put_utf8(cluster[i], out);
        return;
    }
    uint32_t codepoint = 0;
    ghostty_cell_get(cell, GHOSTTY_CELL_DATA_CODEPOINT, &codepoint);
    put_utf8(codepoint ? codepoint : ' ', out);
}

// The screen text that `screen=` hashes and --dump prints: each row with
// trailing spaces trimmed, followed by "\n" (the same in every harness).
static char *screen_text(GhosttyTerminal terminal, int cols, int rows, size_t *length) {
    char *text = NULL;
    FILE *out = open_memstream(&text, length);
    for (int row = 0; row < rows; row++) {
        char *line = NULL;
        size_t line_length = 0;
        FILE *buffer = open_memstream(&line, &line_length);
        for (int col = 0; col < cols; col++) put_cell(terminal, col, row, buffer);
        fclose(buffer);
        while (line_length > 0 && line[line_length - 1] == ' ') line_length--;
        fwrite(line, 1, line_length, out);
        fputc('\n', out);
        free(line);
    }
    fclose(out);
    return text;
}

static uint64_t fnv1a(const char *bytes, size_t length) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < length; i++) {
        hash ^= (uint8_t)bytes[i];
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int n) {
    qsort(values, (size_t)n, sizeof *values, compare_doubles);
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

static void usage(void) {
    fprintf(stderr,
            "usage: ghostty-harness FILE COLS ROWS [--runs N] [--warmup N] [--scrollback N] [--chunk N]\n"
            "                       [--scrollback-bytes N] [--calibrate] [--dump]\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *positional[3];
    int npositional = 0, runs = 5, warmup = 1, scrollback = 10000, chunk = 0, want_dump = 0, want_calibrate = 0;
    long long figure = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc) warmup = atoi(argv[++i]);
        else if (strcmp(argv[i], "--scrollback") == 0 && i + 1 < argc) scrollback = atoi(argv[++i]);
        else if (strcmp(argv[i], "--chunk") == 0 && i + 1 < argc) chunk = atoi(argv[++i]);
        else if (strcmp(argv[i], "--scrollback-bytes") == 0 && i + 1 < argc) figure = atoll(argv[++i]);
        else if (strcmp(argv[i], "--calibrate") == 0) want_calibrate = 1;
        else if (strcmp(argv[i], "--dump") == 0) want_dump = 1;
        else if (npositional < 3) positional[npositional++] = argv[i];
        else usage();
    }
    if (npositional != 3) usage();
    int cols = atoi(positional[1]), rows = atoi(positional[2]);
    if (cols <= 0 || rows <= 0 || cols > 65535 || rows > 65535 || runs <= 0 || warmup < 0 || scrollback < 0 ||
        chunk < 0)
        usage();

    FILE *file = fopen(positional[0], "rb");
    if (!file) { perror(positional[0]); return 2; }
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    uint8_t *bytes = malloc(length > 0 ? (size_t)length : 1);
    if (length > 0 && fread(bytes, 1, (size_t)length, file) != (size_t)length) { perror("read"); return 2; }
    fclose(file);
    size_t len = (size_t)length, half = len / 2;
    size_t bytes_limit = figure >= 0 ? (size_t)figure : scrollback_bytes(cols, rows, scrollback, 50);

    if (want_calibrate) {
        printf("scrollback-bytes=%zu\n", calibrate(bytes, len, cols, rows, scrollback));
        free(bytes);
        return 0;
    }

    if (want_dump) {
        GhosttyTerminal terminal = engine_new(cols, rows, bytes_limit);
        engine_feed(terminal, bytes, len, (size_t)chunk);
        size_t text_length;
        char *text = screen_text(terminal, cols, rows, &text_length);
        fwrite(text, 1, text_length, stdout);
        printf("scrollback=%zu\n", scrollback_rows(terminal));
        free(text);
        ghostty_terminal_free(terminal);
        return 0;
    }

    double *seconds = calloc((size_t)runs, sizeof *seconds);
    double *rates = calloc((size_t)runs, sizeof *rates);
    long heap_bytes = 0;
    uint64_t allocs = 0, alloc_bytes = 0, screen = 0;
    size_t scrollback_held = 0;
    for (int run = -warmup; run < runs; run++) {
        size_t heap_before = termbench_heap_in_use();
        GhosttyTerminal terminal = engine_new(cols, rows, bytes_limit);
        double start = now_seconds();
        engine_feed(terminal, bytes, half, (size_t)chunk);
        termbench_alloc_counts before = termbench_alloc_counts_now();
        engine_feed(terminal, bytes + half, len - half, (size_t)chunk);
        termbench_alloc_counts after = termbench_alloc_counts_now();
        double elapsed = now_seconds() - start;
        heap_bytes = (long)termbench_heap_in_use() - (long)heap_before;
        allocs = after.allocations - before.allocations;
        alloc_bytes = after.bytes - before.bytes;
        size_t text_length;
        char *text = screen_text(terminal, cols, rows, &text_length);
        screen = fnv1a(text, text_length);
        free(text);
        scrollback_held = scrollback_rows(terminal);
        ghostty_terminal_free(terminal);
        if (run >= 0) {
            seconds[run] = elapsed;
            rates[run] = (double)len / 1048576.0 / elapsed;
        }
    }
    if (!termbench_alloc_counter_active()) allocs = (uint64_t)-1;
    double best = 0;
    for (int run = 0; run < runs; run++) best = rates[run] > best ? rates[run] : best;
    printf("bytes=%zu seconds=%.6f mibps=%.1f mibps_best=%.1f runs=%d heap_bytes=%ld allocs=%llu alloc_bytes=%llu peak_rss_kib=%ld"
           " scrollback=%zu screen=%016llx scrollback_bytes=%zu\n",
           len, median(seconds, runs), median(rates, runs), best, runs, heap_bytes,
           (unsigned long long)allocs, (unsigned long long)alloc_bytes, peak_rss_kib(),
           scrollback_held, (unsigned long long)screen, bytes_limit);
    free(seconds);
    free(rates);
    free(bytes);
    return 0;
}
