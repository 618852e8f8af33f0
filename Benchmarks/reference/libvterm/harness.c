// libvterm (Debian's libvterm-dev) under the TermBench harness protocol:
//
//   libvterm-harness FILE COLS ROWS [--runs N] [--warmup N] [--scrollback N] [--chunk N] [--dump]
//
// Each run creates a VTerm with its VTermScreen (alternate screen enabled,
// UTF-8 on), feeds the file in two halves through vterm_input_write, and
// times only the feed. Allocations are counted during the second half.
// `--chunk N` (N > 0) feeds in calls of at most N bytes (a PTY read's worth)
// instead of the 64 KiB slices below.
//
// libvterm stores no scrollback: a line that scrolls off the top is handed
// to the sb_pushline callback and forgotten. A fair reference must keep
// those lines, as an embedder does, so this harness copies each pushed line
// (VTermScreenCell as given, the same way neovim keeps its terminal
// scrollback) into a ring of `scrollback` lines allocated up front.
//
// Output: see Benchmarks/reference/rust/harness-common/src/lib.rs.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vterm.h>

#include "CAllocCounter.h"

typedef struct {
    VTermScreenCell *cells;  // capacity × cols, calloc'd once
    int cols;
    int capacity;
    int head;   // slot of the oldest line
    int count;  // lines held
} Scrollback;

static int push_line(int cols, const VTermScreenCell *cells, void *user) {
    Scrollback *sb = user;
    if (sb->capacity == 0) return 0;
    int slot;
    if (sb->count < sb->capacity) {
        slot = (sb->head + sb->count) % sb->capacity;
        sb->count++;
    } else {
        slot = sb->head;  // overwrite the oldest
        sb->head = (sb->head + 1) % sb->capacity;
    }
    int n = cols < sb->cols ? cols : sb->cols;
    VTermScreenCell *dest = sb->cells + (size_t)slot * sb->cols;
    memcpy(dest, cells, (size_t)n * sizeof *cells);
    if (n < sb->cols) memset(dest + n, 0, (size_t)(sb->cols - n) * sizeof *cells);
    return 1;
}

static int pop_line(int cols, VTermScreenCell *cells, void *user) {
    Scrollback *sb = user;
    if (sb->count == 0) return 0;
    sb->count--;
    int slot = (sb->head + sb->count) % sb->capacity;
    int n = cols < sb->cols ? cols : sb->cols;
    memcpy(cells, sb->cells + (size_t)slot * sb->cols, (size_t)n * sizeof *cells);
    for (int col = n; col < cols; col++) memset(&cells[col], 0, sizeof *cells);
    return 1;
}

static void discard_output(const char *bytes, size_t len, void *user) {
    (void)bytes; (void)len; (void)user;  // replies to queries go nowhere
}

static const VTermScreenCallbacks callbacks = {
    .sb_pushline = push_line,
    .sb_popline = pop_line,
};

typedef struct {
    VTerm *vt;
    VTermScreen *screen;
    Scrollback scrollback;
} Engine;

static void engine_init(Engine *engine, int cols, int rows, int scrollback) {
    engine->vt = vterm_new(rows, cols);
    vterm_set_utf8(engine->vt, 1);
    vterm_output_set_callback(engine->vt, discard_output, NULL);
    engine->scrollback.cols = cols;
    engine->scrollback.capacity = scrollback;
    engine->scrollback.head = 0;
    engine->scrollback.count = 0;
    engine->scrollback.cells = scrollback ? calloc((size_t)scrollback * cols, sizeof(VTermScreenCell)) : NULL;
    if (scrollback && !engine->scrollback.cells) {
        fprintf(stderr, "libvterm-harness: out of memory\n");
        exit(1);
    }
    engine->screen = vterm_obtain_screen(engine->vt);
    vterm_screen_set_callbacks(engine->screen, &callbacks, &engine->scrollback);
    vterm_screen_enable_altscreen(engine->screen, 1);
    vterm_screen_reset(engine->screen, 1);
}

// libvterm 0.1.4 crashes (SIGSEGV inside vterm_input_write) when one call
// hands it several MiB, e.g. a whole 16 MiB replay; 4 MiB went through. A
// terminal feeds it what one read() of the PTY returns, so the harness
// does the same, in 64 KiB slices: 256 calls for 16 MiB, no measurable cost.
enum { FEED_SLICE = 64 * 1024 };

static void engine_feed(Engine *engine, const uint8_t *bytes, size_t len, size_t chunk) {
    size_t most = chunk > 0 && chunk < FEED_SLICE ? chunk : FEED_SLICE;
    while (len > 0) {
        size_t slice = len < most ? len : most;
        // vterm_input_write consumes everything it is given.
        vterm_input_write(engine->vt, (const char *)bytes, slice);
        bytes += slice;
        len -= slice;
    }
}

static void engine_free(Engine *engine) {
    vterm_free(engine->vt);
    free(engine->scrollback.cells);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

// VmHWM from /proc/self/status (Linux's); 0, not measured, elsewhere.
static long peak_rss_kib(void) {
#if defined(__linux__)
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
#else
    return 0;
#endif
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

// The screen text that `screen=` hashes and --dump prints: each row with
// trailing spaces trimmed, followed by "\n" (the same in every harness).
static char *screen_text(Engine *engine, int cols, int rows, size_t *length) {
    char *text = NULL;
    FILE *out = open_memstream(&text, length);
    char *line = NULL;
    size_t line_length = 0;
    for (int row = 0; row < rows; row++) {
        FILE *buffer = open_memstream(&line, &line_length);
        for (int col = 0; col < cols;) {
            VTermScreenCell cell;
            vterm_screen_get_cell(engine->screen, (VTermPos){.row = row, .col = col}, &cell);
            if (cell.chars[0] == 0) {
                fputc(' ', buffer);
            } else {
                for (int i = 0; i < VTERM_MAX_CHARS_PER_CELL && cell.chars[i]; i++) put_utf8(cell.chars[i], buffer);
            }
            col += cell.width > 0 ? cell.width : 1;
        }
        fclose(buffer);
        while (line_length > 0 && line[line_length - 1] == ' ') line_length--;
        fwrite(line, 1, line_length, out);
        fputc('\n', out);
        free(line);
        line = NULL;
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
    fprintf(stderr, "usage: libvterm-harness FILE COLS ROWS [--runs N] [--warmup N] [--scrollback N] [--chunk N] [--dump]\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *positional[3];
    int npositional = 0, runs = 5, warmup = 1, scrollback = 10000, chunk = 0, want_dump = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc) warmup = atoi(argv[++i]);
        else if (strcmp(argv[i], "--scrollback") == 0 && i + 1 < argc) scrollback = atoi(argv[++i]);
        else if (strcmp(argv[i], "--chunk") == 0 && i + 1 < argc) chunk = atoi(argv[++i]);
        else if (strcmp(argv[i], "--dump") == 0) want_dump = 1;
        else if (npositional < 3) positional[npositional++] = argv[i];
        else usage();
    }
    if (npositional != 3) usage();
    int cols = atoi(positional[1]), rows = atoi(positional[2]);
    if (cols <= 0 || rows <= 0 || runs <= 0 || warmup < 0 || scrollback < 0 || chunk < 0) usage();

    FILE *file = fopen(positional[0], "rb");
    if (!file) { perror(positional[0]); return 2; }
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    uint8_t *bytes = malloc(length > 0 ? (size_t)length : 1);
    if (length > 0 && fread(bytes, 1, (size_t)length, file) != (size_t)length) { perror("read"); return 2; }
    fclose(file);
    size_t len = (size_t)length, half = len / 2;

    if (want_dump) {
        Engine engine;
        engine_init(&engine, cols, rows, scrollback);
        engine_feed(&engine, bytes, len, (size_t)chunk);
        size_t length;
        char *text = screen_text(&engine, cols, rows, &length);
        fwrite(text, 1, length, stdout);
        printf("scrollback=%d\n", engine.scrollback.count);
        free(text);
        engine_free(&engine);
        return 0;
    }

    double *seconds = calloc((size_t)runs, sizeof *seconds);
    double *rates = calloc((size_t)runs, sizeof *rates);
    long heap_bytes = 0;
    uint64_t allocs = 0, alloc_bytes = 0, screen = 0;
    int scrollback_held = 0;
    for (int run = -warmup; run < runs; run++) {
        size_t heap_before = termbench_heap_in_use();
        Engine engine;
        engine_init(&engine, cols, rows, scrollback);
        double start = now_seconds();
        engine_feed(&engine, bytes, half, (size_t)chunk);
        termbench_alloc_counts before = termbench_alloc_counts_now();
        engine_feed(&engine, bytes + half, len - half, (size_t)chunk);
        termbench_alloc_counts after = termbench_alloc_counts_now();
        double elapsed = now_seconds() - start;
        heap_bytes = (long)termbench_heap_in_use() - (long)heap_before;
        allocs = after.allocations - before.allocations;
        alloc_bytes = after.bytes - before.bytes;
        size_t length;
        char *text = screen_text(&engine, cols, rows, &length);
        screen = fnv1a(text, length);
        free(text);
        scrollback_held = engine.scrollback.count;
        engine_free(&engine);
        if (run >= 0) {
            seconds[run] = elapsed;
            rates[run] = (double)len / 1048576.0 / elapsed;
        }
    }
    if (!termbench_alloc_counter_active()) allocs = (uint64_t)-1;
    double best = 0;
    for (int run = 0; run < runs; run++) best = rates[run] > best ? rates[run] : best;
    printf("bytes=%zu seconds=%.6f mibps=%.1f mibps_best=%.1f runs=%d heap_bytes=%ld allocs=%llu alloc_bytes=%llu peak_rss_kib=%ld"
           " scrollback=%d screen=%016llx\n",
           len, median(seconds, runs), median(rates, runs), best, runs, heap_bytes,
           (unsigned long long)allocs, (unsigned long long)alloc_bytes, peak_rss_kib(),
           scrollback_held, (unsigned long long)screen);
    free(seconds);
    free(rates);
    free(bytes);
    return 0;
}
