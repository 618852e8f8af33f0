//! The vt100 crate (Debian's 0.15.1) under the TermBench harness protocol.
//!
//! `Parser::new(rows, cols, scrollback_len)` keeps the scrollback itself;
//! bytes are fed in slices with `Parser::process`.

use harness_common::{CountingAllocator, Engine};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

struct Vt100 {
    parser: vt100::Parser,
}

impl Engine for Vt100 {
    fn new(cols: usize, rows: usize, scrollback: usize) -> Self {
        Vt100 { parser: vt100::Parser::new(rows as u16, cols as u16, scrollback) }
    }

    fn feed(&mut self, bytes: &[u8]) {
        self.parser.process(bytes);
    }

    fn screen_lines(&self) -> Vec<String> {
        let screen = self.parser.screen();
        let (rows, cols) = screen.size();
        screen.rows(0, cols).take(rows as usize).collect()
    }

    fn scrollback_len(&mut self) -> usize {
        // 0.15 exposes the scrollback length only through the viewport:
        // asking for a huge offset clamps it to the number of lines held.
        self.parser.set_scrollback(usize::MAX);
        let held = self.parser.screen().scrollback();
        self.parser.set_scrollback(0);
        held
    }
}

fn main() {
    harness_common::main::<Vt100>("vt100-harness");
}
