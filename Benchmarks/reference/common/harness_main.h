// The TermBench harness protocol for the C reference harnesses, written once:
//
//   NAME FILE COLS ROWS [--runs N] [--warmup N] [--scrollback N] [--chunk N] [--dump] [options of NAME]
//
// Each run creates a terminal, feeds the file in two halves and times only
// the feed; allocations are counted during the second half (CAllocCounter).
// `--chunk N` (N > 0) feeds in calls of at most N bytes, as a terminal hands
// on what one read() of its PTY returned. `--dump` feeds the whole file once
// and prints the screen text and `scrollback=`. Output: see
// Benchmarks/reference/rust/harness-common/src/lib.rs.
//
// A harness defines HARNESS_NAME (the program's name, for messages),
// HARNESS_EXTRA_USAGE (its own options for the usage line, "" for none) and
// ENGINE_MAX_WRITE (the most bytes one engine_write may take) before
// including this file, then `struct Engine` and the functions declared
// below, and calls harness_main(argc, argv) from main.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "CAllocCounter.h"

typedef struct {
    const char *path;
    int cols, rows, runs, warmup, scrollback, chunk, dump;
} HarnessOptions;

// The engine's side, defined by the harness.
typedef struct Engine Engine;
static Engine *engine_new(const HarnessOptions *options);
static void engine_write(Engine *engine, const uint8_t *bytes, size_t length);
// The cell's text (a space when empty) to `out`; returns the columns it covers.
static int engine_put_cell(Engine *engine, int col, int row, FILE *out);
static size_t engine_scrollback_rows(Engine *engine);
static void engine_free(Engine *engine);
// An option of the harness's own: 0 when unknown, 1 when a flag, 2 when it
// took `value` (NULL when there is none).
static int engine_option(const char *name, const char *value);
// After the file is read, before anything is fed (may print and exit).
static void engine_prepare(HarnessOptions *options, const uint8_t *bytes, size_t length);
// Fields of its own after screen=, each with a leading space.
static void engine_result_suffix(FILE *out);

static void harness_usage(void) {
    fprintf(stderr,
            "usage: " HARNESS_NAME " FILE COLS ROWS [--runs N] [--warmup N] [--scrollback N] [--chunk N]"
            " [--dump]" HARNESS_EXTRA_USAGE "\n");
    exit(2);
}

static HarnessOptions harness_options(int argc, char **argv) {
    HarnessOptions o = {.runs = 5, .warmup = 1, .scrollback = 10000};
    const char *positional[3];
    int npositional = 0;
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        int taken;
        if (strcmp(argv[i], "--runs") == 0 && value) o.runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--warmup") == 0 && value) o.warmup = atoi(argv[++i]);
        else if (strcmp(argv[i], "--scrollback") == 0 && value) o.scrollback = atoi(argv[++i]);
        else if (strcmp(argv[i], "--chunk") == 0 && value) o.chunk = atoi(argv[++i]);
        else if (strcmp(argv[i], "--dump") == 0) o.dump = 1;
        else if ((taken = engine_option(argv[i], value)) > 0) i += taken - 1;
        else if (argv[i][0] != '-' && npositional < 3) positional[npositional++] = argv[i];
        else harness_usage();
    }
    if (npositional != 3) harness_usage();
    o.path = positional[0];
    o.cols = atoi(positional[1]);
    o.rows = atoi(positional[2]);
    if (o.cols <= 0 || o.rows <= 0 || o.cols > 65535 || o.rows > 65535 || o.runs <= 0 || o.warmup < 0 ||
        o.scrollback < 0 || o.chunk < 0)
        harness_usage();
    return o;
}

// The whole file, or exit 2 with the reason.
static uint8_t *harness_read(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(2); }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    uint8_t *bytes = malloc(size > 0 ? (size_t)size : 1);
    if (!bytes || (size > 0 && fread(bytes, 1, (size_t)size, file) != (size_t)size)) { perror(path); exit(2); }
    fclose(file);
    *length = size > 0 ? (size_t)size : 0;
    return bytes;
}

// `length` bytes in calls of at most `chunk` (0: no limit) and
// ENGINE_MAX_WRITE bytes.
static void harness_feed(Engine *engine, const uint8_t *bytes, size_t length, size_t chunk) {
    size_t most = chunk > 0 && chunk < (size_t)ENGINE_MAX_WRITE ? chunk : (size_t)ENGINE_MAX_WRITE;
    while (length > 0) {
        size_t slice = length < most ? length : most;
        engine_write(engine, bytes, slice);
        bytes += slice;
        length -= slice;
    }
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
static char *harness_screen_text(Engine *engine, int cols, int rows, size_t *length) {
    char *text = NULL;
    FILE *out = open_memstream(&text, length);
    for (int row = 0; row < rows; row++) {
        char *line = NULL;
        size_t line_length = 0;
        FILE *buffer = open_memstream(&line, &line_length);
        for (int col = 0; col < cols;) {
            int covered = engine_put_cell(engine, col, row, buffer);
            col += covered > 0 ? covered : 1;
        }
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

static int harness_main(int argc, char **argv) {
    HarnessOptions options = harness_options(argc, argv);
    size_t len;
    uint8_t *bytes = harness_read(options.path, &len);
    engine_prepare(&options, bytes, len);
    size_t half = len / 2, chunk = (size_t)options.chunk;
    int runs = options.runs;

    if (options.dump) {
        Engine *engine = engine_new(&options);
        harness_feed(engine, bytes, len, chunk);
        size_t length;
        char *text = harness_screen_text(engine, options.cols, options.rows, &length);
        fwrite(text, 1, length, stdout);
        printf("scrollback=%zu\n", engine_scrollback_rows(engine));
        free(text);
        engine_free(engine);
        free(bytes);
        return 0;
    }

    double *seconds = calloc((size_t)runs, sizeof *seconds);
    double *rates = calloc((size_t)runs, sizeof *rates);
    long heap_bytes = 0;
    uint64_t allocs = 0, alloc_bytes = 0, screen = 0;
    size_t scrollback_held = 0;
    for (int run = -options.warmup; run < runs; run++) {
        size_t heap_before = termbench_heap_in_use();
        Engine *engine = engine_new(&options);
        double start = now_seconds();
        harness_feed(engine, bytes, half, chunk);
        termbench_alloc_counts before = termbench_alloc_counts_now();
        harness_feed(engine, bytes + half, len - half, chunk);
        termbench_alloc_counts after = termbench_alloc_counts_now();
        double elapsed = now_seconds() - start;
        heap_bytes = (long)termbench_heap_in_use() - (long)heap_before;
        allocs = after.allocations - before.allocations;
        alloc_bytes = after.bytes - before.bytes;
        size_t length;
        char *text = harness_screen_text(engine, options.cols, options.rows, &length);
        screen = fnv1a(text, length);
        free(text);
        scrollback_held = engine_scrollback_rows(engine);
        engine_free(engine);
        if (run >= 0) {
            seconds[run] = elapsed;
            rates[run] = (double)len / 1048576.0 / elapsed;
        }
    }
    if (!termbench_alloc_counter_active()) allocs = (uint64_t)-1;
    double best = 0;
    for (int run = 0; run < runs; run++) best = rates[run] > best ? rates[run] : best;
    printf("bytes=%zu seconds=%.6f mibps=%.1f mibps_best=%.1f runs=%d heap_bytes=%ld allocs=%llu alloc_bytes=%llu"
           " peak_rss_kib=%ld scrollback=%zu screen=%016llx",
           len, median(seconds, runs), median(rates, runs), best, runs, heap_bytes, (unsigned long long)allocs,
           (unsigned long long)alloc_bytes, peak_rss_kib(), scrollback_held, (unsigned long long)screen);
    engine_result_suffix(stdout);
    printf("\n");
    free(seconds);
    free(rates);
    free(bytes);
    return 0;
}
