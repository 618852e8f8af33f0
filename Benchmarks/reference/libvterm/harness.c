// libvterm (Debian's libvterm-dev) under the TermBench harness protocol:
//
//   libvterm-harness FILE COLS ROWS [--runs N] [--warmup N] [--scrollback N] [--chunk N] [--dump]
//
// Each run creates a VTerm with its VTermScreen (alternate screen enabled,
// UTF-8 on) and feeds it through vterm_input_write; the protocol (timing,
// allocations, --chunk, --dump) is Benchmarks/reference/common/harness_main.h.
// Without --chunk the file goes in the 64 KiB slices below.
//
// libvterm stores no scrollback: a line that scrolls off the top is handed
// to the sb_pushline callback and forgotten. A fair reference must keep
// those lines, as an embedder does, so this harness copies each pushed line
// (VTermScreenCell as given, the same way neovim keeps its terminal
// scrollback) into a ring of `scrollback` lines allocated up front.

#include <vterm.h>

// libvterm 0.1.4 crashes (SIGSEGV inside vterm_input_write) when one call
// hands it several MiB, e.g. a whole 16 MiB replay; 4 MiB went through. A
// terminal feeds it what one read() of the PTY returns, so the harness
// does the same, in 64 KiB slices: 256 calls for 16 MiB, no measurable cost.
#define HARNESS_NAME "libvterm-harness"
#define HARNESS_EXTRA_USAGE ""
#define ENGINE_MAX_WRITE (64 * 1024)
#include "harness_main.h"

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

struct Engine {
    VTerm *vt;
    VTermScreen *screen;
    Scrollback scrollback;
};

static Engine *engine_new(const HarnessOptions *options) {
    Engine *engine = calloc(1, sizeof *engine);
    int cols = options->cols, scrollback = options->scrollback;
    engine->vt = vterm_new(options->rows, cols);
    vterm_set_utf8(engine->vt, 1);
    vterm_output_set_callback(engine->vt, discard_output, NULL);
    engine->scrollback.cols = cols;
    engine->scrollback.capacity = scrollback;
    engine->scrollback.cells = scrollback ? calloc((size_t)scrollback * cols, sizeof(VTermScreenCell)) : NULL;
    if (scrollback && !engine->scrollback.cells) {
        fprintf(stderr, "libvterm-harness: out of memory\n");
        exit(1);
    }
    engine->screen = vterm_obtain_screen(engine->vt);
    vterm_screen_set_callbacks(engine->screen, &callbacks, &engine->scrollback);
    vterm_screen_enable_altscreen(engine->screen, 1);
    vterm_screen_reset(engine->screen, 1);
    return engine;
}

static void engine_write(Engine *engine, const uint8_t *bytes, size_t length) {
    // vterm_input_write consumes everything it is given.
    vterm_input_write(engine->vt, (const char *)bytes, length);
}

static int engine_put_cell(Engine *engine, int col, int row, FILE *out) {
    VTermScreenCell cell;
    vterm_screen_get_cell(engine->screen, (VTermPos){.row = row, .col = col}, &cell);
    if (cell.chars[0] == 0) {
        fputc(' ', out);
    } else {
        for (int i = 0; i < VTERM_MAX_CHARS_PER_CELL && cell.chars[i]; i++) put_utf8(cell.chars[i], out);
    }
    return cell.width;
}

static size_t engine_scrollback_rows(Engine *engine) { return (size_t)engine->scrollback.count; }

static void engine_free(Engine *engine) {
    vterm_free(engine->vt);
    free(engine->scrollback.cells);
    free(engine);
}

static int engine_option(const char *name, const char *value) {
    (void)name; (void)value;
    return 0;
}

static void engine_prepare(HarnessOptions *options, const uint8_t *bytes, size_t length) {
    (void)options; (void)bytes; (void)length;
}

static void engine_result_suffix(FILE *out) { (void)out; }

int main(int argc, char **argv) { return harness_main(argc, argv); }
