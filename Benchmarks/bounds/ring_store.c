// The memory traffic of plain scrolling with TermEngine's grid layout, and
// nothing else: no parsing, no cursor, no styles.
//
// A screen of 80 columns with 10,000 lines of scrollback is a ring of 10,024
// rows of 80 eight-byte cells (6.3 MiB, more than this machine's 2 MiB of L2
// per core). Each line of `scrolling` output recycles the oldest row: the row
// is cleared to empty cells, then the line's characters are stored as cells.
// The corpus's lines are 0-80 characters (random widths, 42 bytes with CR LF
// on average), so this loop stores the same number of cells per line as the
// engine and reports the input rate that traffic alone would allow.
//
// A bound on the traffic, not on the engine: its figure moves with the
// machine's speed (499 to 830 MiB/s in "full" mode on this machine within a
// day), and the engine with 10,000 lines of scrollback runs within a tenth of
// its own speed with none (`termbench feed ... --scrollback 0`): plain
// scrolling is bound by the work per line (docs/PERFORMANCE.md, "Reading the
// numbers").
//
//   cc -O2 -o /tmp/ring_store Benchmarks/bounds/ring_store.c && /tmp/ring_store
//
// Modes: "full" clears the whole recycled row, as TermEngine does; "extent"
// clears only the cells the row's previous line used (a per-row length);
// "compact" keeps the 24 screen rows apart (always in cache) and appends the
// used cells of each line that leaves the screen to a scrollback buffer of
// 10,000 average lines, the layout of a compact scrollback.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { COLUMNS = 80, ROWS = 10024, LINES = 400000, PASSES = 7 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void) {
    uint64_t *cells = calloc((size_t)ROWS * COLUMNS, sizeof *cells);
    int *extents = calloc(ROWS, sizeof *extents);
    int *lengths = malloc(LINES * sizeof *lengths);
    enum { SCREEN_ROWS = 24, HISTORY_CELLS = 10000 * COLUMNS / 2 };
    uint64_t *history = calloc(HISTORY_CELLS + COLUMNS, sizeof *history);
    if (!cells || !extents || !lengths || !history) return 1;
    // Line widths 0-80 from a fixed xorshift sequence.
    uint64_t state = 88172645463325252ull;
    long input_bytes = 0;
    for (int line = 0; line < LINES; line++) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        lengths[line] = (int)(state % (COLUMNS + 1));
        input_bytes += lengths[line] + 2;  // CR LF
    }
    static const char *mode_names[] = {"full", "extent", "compact"};
    for (int mode = 0; mode <= 2; mode++) {
        double best = 1e9;
        for (int pass = 0; pass < PASSES; pass++) {
            double start = now();
            for (int line = 0; line < LINES; line++) {
                if (mode == 2) {
                    // The leaving line's cells go to the history, then its
                    // screen row is cleared and takes the new line.
                    static size_t history_end = 0;
                    int slot = line % SCREEN_ROWS;
                    uint64_t *row = cells + (size_t)slot * COLUMNS;
                    if (history_end + extents[slot] > HISTORY_CELLS) history_end = 0;
                    memcpy(history + history_end, row, (size_t)extents[slot] * sizeof *row);
                    history_end += extents[slot];
                    memset(row, 0, (size_t)extents[slot] * sizeof *row);
                    extents[slot] = lengths[line];
                    for (int col = 0; col < lengths[line]; col++) row[col] = 0x41 | (uint64_t)col << 32;
                    continue;
                }
                int slot = line % ROWS;
                uint64_t *row = cells + (size_t)slot * COLUMNS;
                if (mode == 1) {
                    memset(row, 0, (size_t)extents[slot] * sizeof *row);
                    extents[slot] = lengths[line];
                } else {
                    memset(row, 0, COLUMNS * sizeof *row);
                }
                for (int col = 0; col < lengths[line]; col++) row[col] = 0x41 | (uint64_t)col << 32;
            }
            double seconds = now() - start;
            if (seconds < best) best = seconds;
        }
        memset(extents, 0, ROWS * sizeof *extents);
        printf("%-7s clear: %.1f ms for %d lines, %.0f MiB/s of scrolling input\n", mode_names[mode],
               best * 1e3, LINES, input_bytes / best / 1048576.0);
    }
    return (int)((cells[5] ^ history[5]) & 1);
}
