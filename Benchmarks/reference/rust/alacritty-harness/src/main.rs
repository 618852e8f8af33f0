//! alacritty_terminal (Debian's 0.17.0) under the TermBench harness protocol.
//!
//! Bytes go through `ansi::Processor::advance` one at a time, which is how
//! this version's event loop feeds the terminal. The grid keeps its own
//! scrollback (`Config::scrolling` history).

use alacritty_terminal::ansi::Processor;
use alacritty_terminal::config::Config;
use alacritty_terminal::event::VoidListener;
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::index::{Column, Line};
use alacritty_terminal::term::cell::Flags;
use alacritty_terminal::Term;
use harness_common::{CountingAllocator, Engine};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

struct Size {
    columns: usize,
    lines: usize,
}

impl Dimensions for Size {
    fn total_lines(&self) -> usize {
        self.lines
    }
    fn screen_lines(&self) -> usize {
        self.lines
    }
    fn columns(&self) -> usize {
        self.columns
    }
}

struct Alacritty {
    term: Term<VoidListener>,
    processor: Processor,
}

impl Engine for Alacritty {
    fn new(cols: usize, rows: usize, scrollback: usize) -> Self {
        let mut config = Config::default();
        config.scrolling.set_history(scrollback as u32);
        let term = Term::new(&config, &Size { columns: cols, lines: rows }, VoidListener);
        Alacritty { term, processor: Processor::new() }
    }

    fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.processor.advance(&mut self.term, byte);
        }
    }

    fn screen_lines(&self) -> Vec<String> {
        let grid = self.term.grid();
        (0..grid.screen_lines())
            .map(|line| {
                let row = &grid[Line(line as i32)];
                let mut text = String::new();
                for column in 0..grid.columns() {
                    let cell = &row[Column(column)];
                    if cell.flags.contains(Flags::WIDE_CHAR_SPACER) {
                        continue;
                    }
                    text.push(cell.c);
                    if let Some(zerowidth) = cell.zerowidth() {
                        text.extend(zerowidth.iter());
                    }
                }
                text
            })
            .collect()
    }

    fn scrollback_len(&mut self) -> usize {
        self.term.grid().history_size()
    }
}

fn main() {
    harness_common::main::<Alacritty>("alacritty-harness");
}
