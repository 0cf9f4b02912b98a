//! Checks that `pipeline::heap::RssSampler` sees a short burst of resident
//! memory between two takes (the per-cell `peak_rss_mib` of `--cost-json`),
//! in a test binary of its own so that no other test moves the resident
//! size meanwhile.

#![cfg(target_os = "linux")]

use saturate::pipeline::heap;

/// A block touched and freed between two takes shows in the first
/// period's peak and not in the next one's.
#[test]
fn sampler_sees_a_burst_between_takes() {
    let sampler = heap::RssSampler::start();
    let base = sampler.take().expect("linux has /proc/self/statm");
    let mut block = vec![1u8; 256 << 20];
    for i in (0..block.len()).step_by(4096) {
        block[i] = i as u8;
    }
    std::thread::sleep(heap::RssSampler::EVERY * 5);
    std::hint::black_box(&block);
    drop(block);
    let burst = sampler.take().expect("sampling");
    assert!(
        burst >= base + (200 << 10),
        "a 256 MiB block between takes: peak {burst} KiB from {base} KiB"
    );
    let after = sampler.take().expect("sampling");
    assert!(
        after + (200 << 10) <= burst,
        "the freed block is not in the next period: {after} KiB after {burst} KiB"
    );
}
