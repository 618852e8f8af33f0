//! What every Rust reference harness shares: the command line, the timing
//! loop, allocation counting and the result line that TermBench parses.
//!
//! Protocol (the same for the C harness and `termbench feed`):
//!
//! ```text
//! HARNESS FILE COLS ROWS [--runs N] [--warmup N] [--scrollback N] [--chunk N] [--dump]
//! ```
//!
//! Each run feeds the whole file into a fresh terminal, in two halves: the
//! first half is the warm-up, allocations are counted during the second.
//! Only the feed is timed (the file is read before). `--chunk N` (N > 0)
//! feeds each half in calls of at most N bytes, as a terminal hands on what
//! one read() of its PTY returned (0, the default: one call per half). The
//! last line is
//!
//! ```text
//! bytes=B seconds=S mibps=M mibps_best=X runs=N heap_bytes=H allocs=A alloc_bytes=AB peak_rss_kib=K scrollback=L screen=F
//! ```
//!
//! with the median seconds and MiB/s over the runs, the fastest run's MiB/s, the heap in use by the
//! terminal after the feed (glibc `mallinfo2`: `uordblks + hblkhd`, after
//! minus before creating it), and the allocation count and bytes during
//! the second half of the last run; then the scrollback lines held and
//! `screen`, the FNV-1a 64 hash (16 hex digits) of the final screen text:
//! each row with trailing spaces trimmed, followed by "\n". Engines that
//! agree on the screen print the same hash. `--dump` instead feeds once and
//! prints that text, then `scrollback=N`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Counts allocations made through Rust's global allocator (everything
/// these crates allocate), then forwards to the system malloc, so glibc's
/// `mallinfo2` still sees the memory.
pub struct CountingAllocator;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static ALLOCATED_BYTES: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        ALLOCATED_BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        ALLOCATED_BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A realloc may move the block, so it counts as an allocation.
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        ALLOCATED_BYTES.fetch_add(new_size as u64, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

fn allocation_counts() -> (u64, u64) {
    (ALLOCATIONS.load(Ordering::Relaxed), ALLOCATED_BYTES.load(Ordering::Relaxed))
}

/// glibc's `struct mallinfo2` (glibc ≥ 2.33): ten `size_t` fields.
#[repr(C)]
#[derive(Default)]
struct MallInfo2 {
    arena: usize,
    ordblks: usize,
    smblks: usize,
    hblks: usize,
    hblkhd: usize,
    usmblks: usize,
    fsmblks: usize,
    uordblks: usize,
    fordblks: usize,
    keepcost: usize,
}

extern "C" {
    fn mallinfo2() -> MallInfo2;
}

/// Bytes of heap in use: small chunks in the arenas plus mmapped blocks.
fn heap_in_use() -> i64 {
    let info = unsafe { mallinfo2() };
    (info.uordblks + info.hblkhd) as i64
}

/// VmHWM from /proc/self/status: the process's peak resident set, in KiB.
fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// One engine under test, created fresh for every run.
pub trait Engine {
    fn new(cols: usize, rows: usize, scrollback: usize) -> Self;
    fn feed(&mut self, bytes: &[u8]);
    /// The visible rows, trailing blanks trimmed, for `--dump`.
    fn screen_lines(&self) -> Vec<String>;
    /// Lines currently held in the scrollback.
    fn scrollback_len(&mut self) -> usize;
}

struct Options {
    file: String,
    cols: usize,
    rows: usize,
    runs: usize,
    warmup: usize,
    scrollback: usize,
    chunk: usize,
    dump: bool,
}

fn usage(name: &str) -> ! {
    eprintln!("usage: {name} FILE COLS ROWS [--runs N] [--warmup N] [--scrollback N] [--chunk N] [--dump]");
    std::process::exit(2)
}

fn parse(name: &str) -> Options {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut positional = Vec::new();
    let mut options = Options {
        file: String::new(),
        cols: 0,
        rows: 0,
        runs: 5,
        warmup: 1,
        scrollback: 10_000,
        chunk: 0,
        dump: false,
    };
    let mut index = 0;
    while index < args.len() {
        let arg = &args[index];
        let mut value = || {
            index += 1;
            args.get(index).and_then(|v| v.parse::<usize>().ok()).unwrap_or_else(|| usage(name))
        };
        match arg.as_str() {
            "--runs" => options.runs = value().max(1),
            "--warmup" => options.warmup = value(),
            "--scrollback" => options.scrollback = value(),
            "--chunk" => options.chunk = value(),
            "--dump" => options.dump = true,
            _ => positional.push(arg.clone()),
        }
        index += 1;
    }
    if positional.len() != 3 {
        usage(name);
    }
    options.file = positional[0].clone();
    options.cols = positional[1].parse().unwrap_or_else(|_| usage(name));
    options.rows = positional[2].parse().unwrap_or_else(|_| usage(name));
    if options.cols == 0 || options.rows == 0 {
        usage(name);
    }
    options
}

struct Run {
    seconds: f64,
    heap_bytes: i64,
    allocs: u64,
    alloc_bytes: u64,
    scrollback: usize,
    screen: u64,
}

/// The screen text the hash and `--dump` use: trimmed rows, each + "\n".
fn screen_text<E: Engine>(engine: &E) -> String {
    let mut text = String::new();
    for line in engine.screen_lines() {
        text.push_str(line.trim_end_matches(' '));
        text.push('\n');
    }
    text
}

/// FNV-1a, 64 bits: tiny, and the same in the C and Swift harnesses.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf29ce484222325;
    for &byte in bytes {
        hash ^= byte as u64;
        hash = hash.wrapping_mul(0x100000001b3);
    }
    hash
}

/// Feeds `bytes` in one call, or in calls of at most `chunk` bytes.
fn feed_chunked<E: Engine>(engine: &mut E, bytes: &[u8], chunk: usize) {
    if chunk == 0 {
        engine.feed(bytes);
    } else {
        for slice in bytes.chunks(chunk) {
            engine.feed(slice);
        }
    }
}

fn run_once<E: Engine>(options: &Options, bytes: &[u8]) -> Run {
    let half = bytes.len() / 2;
    let heap_before = heap_in_use();
    let mut engine = E::new(options.cols, options.rows, options.scrollback);
    let start = Instant::now();
    feed_chunked(&mut engine, &bytes[..half], options.chunk);
    let (allocs_before, alloc_bytes_before) = allocation_counts();
    feed_chunked(&mut engine, &bytes[half..], options.chunk);
    let (allocs_after, alloc_bytes_after) = allocation_counts();
    let seconds = start.elapsed().as_secs_f64();
    let heap_bytes = heap_in_use() - heap_before;
    let screen = fnv1a(screen_text(&engine).as_bytes());
    let scrollback = engine.scrollback_len();
    drop(engine);
    Run {
        seconds,
        heap_bytes,
        allocs: allocs_after - allocs_before,
        alloc_bytes: alloc_bytes_after - alloc_bytes_before,
        scrollback,
        screen,
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = values.len();
    if n % 2 == 1 { values[n / 2] } else { (values[n / 2 - 1] + values[n / 2]) / 2.0 }
}

/// Runs the harness protocol for one engine; `name` is used in messages.
pub fn main<E: Engine>(name: &str) {
    let options = parse(name);
    let bytes = std::fs::read(&options.file).unwrap_or_else(|error| {
        eprintln!("{name}: cannot read {}: {error}", options.file);
        std::process::exit(2)
    });

    if options.dump {
        let mut engine = E::new(options.cols, options.rows, options.scrollback);
        feed_chunked(&mut engine, &bytes, options.chunk);
        print!("{}", screen_text(&engine));
        println!("scrollback={}", engine.scrollback_len());
        return;
    }

    for _ in 0..options.warmup {
        run_once::<E>(&options, &bytes);
    }
    let mut runs = Vec::new();
    for _ in 0..options.runs {
        runs.push(run_once::<E>(&options, &bytes));
    }
    let mib = bytes.len() as f64 / 1_048_576.0;
    let seconds = median(runs.iter().map(|r| r.seconds).collect());
    let mibps = median(runs.iter().map(|r| mib / r.seconds).collect());
    // The fastest run: the one least disturbed by other work on the machine.
    let best = runs.iter().map(|r| mib / r.seconds).fold(0.0, f64::max);
    let last = runs.last().unwrap();
    println!(
        "bytes={} seconds={:.6} mibps={:.1} mibps_best={:.1} runs={} heap_bytes={} allocs={} alloc_bytes={} peak_rss_kib={} scrollback={} screen={:016x}",
        bytes.len(),
        seconds,
        mibps,
        best,
        runs.len(),
        last.heap_bytes,
        last.allocs,
        last.alloc_bytes,
        peak_rss_kib(),
        last.scrollback,
        last.screen
    );
}
