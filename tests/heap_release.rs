//! Checks that `pipeline::heap::release` gives freed heap pages back to the
//! operating system under glibc's malloc (malloc_trim(3)): the generation
//! loop relies on it to keep a long run's resident size near its live heap.

#![cfg(all(target_os = "linux", target_env = "gnu"))]

use saturate::pipeline::heap;

/// Resident set size of this process in bytes.
fn resident() -> u64 {
    heap::rss_kib().expect("/proc/self/statm") * 1024
}

/// A worker thread fills its arena with 192 MB of blocks below the mmap
/// threshold, then frees all but one block in 64, as prover calls do under
/// cached verdicts: free never returns the pages, which lie below live
/// blocks. `release` must return most of them.
#[test]
fn release_returns_pages_freed_below_live_blocks() {
    const BLOCK: usize = 48 * 1024;
    const BLOCKS: usize = 4096;
    std::thread::spawn(|| {
        let mut blocks: Vec<Option<Vec<u8>>> = (0..BLOCKS)
            .map(|i| Some(vec![(i % 251) as u8 + 1; BLOCK]))
            .collect();
        for (i, b) in blocks.iter_mut().enumerate() {
            if i % 64 != 0 {
                *b = None;
            }
        }
        let before = resident();
        heap::release();
        let after = resident();
        let freed = (BLOCK * BLOCKS * 63 / 64) as u64;
        assert!(
            before.saturating_sub(after) >= freed / 2,
            "release gave back {} of {freed} freed bytes ({before} -> {after} resident)",
            before.saturating_sub(after)
        );
        // The live blocks are intact.
        for (i, b) in blocks.iter().enumerate() {
            if let Some(b) = b {
                assert!(b.iter().all(|&x| x == (i % 251) as u8 + 1));
            }
        }
    })
    .join()
    .expect("the allocating thread");
}
