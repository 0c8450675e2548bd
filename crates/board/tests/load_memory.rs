//! Loading a saved table holds no more memory than the table it fills: the memory cap counts
//! the table, so whatever a load keeps beside it (a list of its keys, a copy of the file) would
//! pass the cap on a large resume. Clobber 2 x 20's plain keys, 162 M entries loaded under
//! `--max-memory 5G`, once peaked at 8.8 GB that way.
//!
//! This binary counts every byte allocated (one test only, so nothing else allocates beside
//! it), and checks that a load's peak stays within what the load leaves held plus the read
//! buffer.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use grundy_board::clobber::{Solver, Variant};
use grundy_board::engine::Options;
use grundy_board::stones::Board;

/// The system allocator, counting the bytes held now and the most held since the last reset.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn add(n: usize) {
    let now = HELD.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call is passed on unchanged to the system allocator, which upholds
// `GlobalAlloc`'s contract; the counting only reads the sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires of it.
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            add(l.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc_zeroed` requires of it.
        let p = unsafe { System.alloc_zeroed(l) };
        if !p.is_null() {
            add(l.size());
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: `p` was allocated by `System` (through this allocator) with layout `l`.
        unsafe { System.dealloc(p, l) };
        HELD.fetch_sub(l.size(), Relaxed);
    }
    /// A reallocation counts as its change in size: the system moves a large block's pages
    /// (mremap) rather than holding two copies.
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        // SAFETY: `p` was allocated by `System` with layout `l`; `new` is the caller's.
        let q = unsafe { System.realloc(p, l, new) };
        if !q.is_null() {
            if new >= l.size() {
                add(new - l.size());
            } else {
                HELD.fetch_sub(l.size() - new, Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

#[test]
fn a_load_holds_nothing_beside_the_table() {
    let opts = Options {
        max_memory: 64 << 20,
        ..Options::default()
    };
    let board = Board::parse("xoxoxox|oxoxoxo|xoxoxox").unwrap();
    let mut first = Solver::new(Variant::Clobber, &board, opts.clone()).unwrap();
    let v = first.value(&board).unwrap();
    let entries = first.entries();
    assert!(
        entries >= 10_000,
        "too few entries to see a list of keys: {entries}"
    );
    let dir = std::env::temp_dir().join(format!("grundy-load-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("clobber.table");
    first.save(&file).unwrap();
    drop(first);

    let mut second = Solver::new(Variant::Clobber, &board, opts).unwrap();
    let before = HELD.load(Relaxed);
    PEAK.store(before, Relaxed);
    let loaded = second.load(&file).unwrap();
    let after = HELD.load(Relaxed);
    let peak = PEAK.load(Relaxed);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(loaded as usize, entries);
    // What the load held for a while and gave back: the read buffer (8 KiB) and little else.
    // A list of the exact keys would be 32 bytes an entry (about 1 MiB here: 21,661 entries).
    let transient = peak - after;
    assert!(
        transient <= 64 << 10,
        "the load held {transient} bytes beside the table it filled ({entries} entries, \
         {} bytes kept)",
        after - before
    );
    // And the loaded table answers: the value comes straight back.
    assert_eq!(second.value(&board).unwrap(), v);
    assert_eq!(second.nodes(), 0, "every entry came back");
}
