//! Per-instance seeding: every generated instance (a task row, or a problem
//! drawn by one of the engine's generators in its tests) gets its own random
//! stream, a function of the run seed, the instance's coordinates and its
//! index only, so output never depends on the thread count or on which other
//! instances are drawn.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};

/// The seed of one instance: a SHA-256 hash of the run seed, the
/// instance's coordinates (domain, source file, task, level, ...) and its
/// index. Coordinates are length-prefixed, so `["ab", "c"]` and `["a", "bc"]`
/// give different seeds. Independent of thread count and of how many other
/// instances are generated.
pub fn instance_seed(run_seed: u64, coords: &[&str], index: u64) -> u64 {
    let mut h = Sha256::new();
    h.update(b"saturate-instance-v1");
    h.update(run_seed.to_le_bytes());
    for c in coords {
        h.update((c.len() as u64).to_le_bytes());
        h.update(c.as_bytes());
    }
    h.update(index.to_le_bytes());
    let digest = h.finalize();
    u64::from_le_bytes(digest[..8].try_into().expect("8 bytes"))
}

/// The random number generator of one instance, seeded by [`instance_seed`].
pub fn instance_rng(run_seed: u64, coords: &[&str], index: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(instance_seed(run_seed, coords, index))
}
