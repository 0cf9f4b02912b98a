//! Train/validation/test assignment, stratified by config x level and
//! grouped: every row of a group (a theorem, a problem, an axiom file)
//! lands in one split, whatever config or level it appears in, so no test
//! row's theorem was seen in training.
//!
//! The algorithm is a greedy largest-deficit fill, the usual way to
//! approximate stratified group splits without solving the bin-packing
//! problem exactly (as in scikit-learn's `StratifiedGroupKFold`, which
//! assigns groups greedily to the fold that keeps the strata closest to
//! their targets). Cells (config, level) are visited in name order, and in
//! each cell the groups not yet assigned in an earlier cell in the order of
//! their hash ([`super::group_hash`]):
//!
//! 1. when the cell has at least three groups, each split that is still
//!    empty in the cell and has a non-zero share takes the next group (test
//!    first, then validation, then train), so every split of the cell is
//!    non-empty whenever the groups allow it;
//! 2. every other group goes to the split whose deficit is largest after
//!    adding it: `percent[s] * (rows placed + group rows) - 100 * rows[s]`
//!    (ties to train, then validation), which keeps each split's share of
//!    the cell's rows within one group of its target.
//!
//! A group assigned in an earlier cell keeps its split. The result depends
//! only on the set of (config, level, group) entries, never on their order,
//! so a merge of shards assigns exactly what the unsharded run did.

use super::Split;
use std::collections::{BTreeMap, HashMap};

/// What a row's split group is (`[dataset] split_by`, the manifest's
/// `split_group`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SplitBy {
    /// The row's theorem or problem ([`crate::tasks::family::TaskFamily::split_group`]).
    #[default]
    Theorem,
    /// The row's `source` (axiom file or generator).
    Source,
}

impl SplitBy {
    /// The name in the configuration and the manifest.
    pub fn name(self) -> &'static str {
        match self {
            SplitBy::Theorem => "theorem",
            SplitBy::Source => "source",
        }
    }
}

impl std::str::FromStr for SplitBy {
    type Err = String;

    /// Reads `theorem` or `source`; anything else is an error naming both.
    fn from_str(s: &str) -> Result<SplitBy, String> {
        match s {
            "theorem" => Ok(SplitBy::Theorem),
            "source" => Ok(SplitBy::Source),
            _ => Err(format!("{s:?}: expected \"theorem\" or \"source\"")),
        }
    }
}

/// One row's stratum and group, as the writer indexes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitKey<'a> {
    /// The row's config.
    pub config: &'a str,
    /// The row's level (`None` sorts first).
    pub level: Option<u32>,
    /// The hash of the row's split group ([`super::group_hash`]).
    pub group: u64,
}

/// Assigns a split to every entry (see the module's algorithm). `percent`
/// gives train, validation and test shares summing to 100.
pub fn assign(keys: &[SplitKey<'_>], percent: [u32; 3]) -> Vec<Split> {
    let mut cells: BTreeMap<(&str, Option<u32>), Vec<usize>> = BTreeMap::new();
    for (i, k) in keys.iter().enumerate() {
        cells.entry((k.config, k.level)).or_default().push(i);
    }
    let mut assigned: HashMap<u64, Split> = HashMap::new();
    for rows in cells.values() {
        // Rows per group of this cell, groups in hash order.
        let mut groups: BTreeMap<u64, u64> = BTreeMap::new();
        for &i in rows {
            *groups.entry(keys[i].group).or_default() += 1;
        }
        let mut count = [0u64; 3];
        let mut open = Vec::new();
        for (&g, &n) in &groups {
            match assigned.get(&g) {
                Some(s) => count[index(*s)] += n,
                None => open.push((g, n)),
            }
        }
        let mut open = open.into_iter().peekable();
        if groups.len() >= 3 {
            for s in [Split::Test, Split::Validation, Split::Train] {
                if count[index(s)] == 0 && percent[index(s)] > 0 {
                    let Some((g, n)) = open.next() else { break };
                    assigned.insert(g, s);
                    count[index(s)] += n;
                }
            }
        }
        for (g, n) in open {
            let placed: u64 = count.iter().sum();
            let deficit = |s: usize| {
                i128::from(percent[s]) * i128::from(placed + n) - 100 * i128::from(count[s])
            };
            let best = (0..3)
                .filter(|&s| percent[s] > 0)
                .max_by(|&a, &b| deficit(a).cmp(&deficit(b)).then(b.cmp(&a)))
                .unwrap_or(0);
            assigned.insert(g, Split::ALL[best]);
            count[best] += n;
        }
    }
    keys.iter()
        .map(|k| *assigned.get(&k.group).expect("every group is assigned"))
        .collect()
}

fn index(s: Split) -> usize {
    match s {
        Split::Train => 0,
        Split::Validation => 1,
        Split::Test => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn keys(spec: &[(&'static str, u32, u64)]) -> Vec<SplitKey<'static>> {
        spec.iter()
            .map(|&(config, level, group)| SplitKey {
                config,
                level: Some(level),
                group,
            })
            .collect()
    }

    #[test]
    fn small_cells_get_every_split_and_shares_follow_the_target() {
        let k = keys(&[("a", 1, 1), ("a", 1, 2), ("a", 1, 3)]);
        let s = assign(&k, [80, 10, 10]);
        let mut sorted = s.clone();
        sorted.sort();
        assert_eq!(sorted, vec![Split::Train, Split::Validation, Split::Test]);

        let k: Vec<_> = (0..1000u64)
            .map(|g| SplitKey {
                config: "a",
                level: Some(2),
                group: g.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            })
            .collect();
        let s = assign(&k, [80, 10, 10]);
        let n = |x: Split| s.iter().filter(|&&y| y == x).count();
        assert_eq!(
            (n(Split::Train), n(Split::Validation), n(Split::Test)),
            (800, 100, 100)
        );
    }

    #[test]
    fn a_group_never_crosses_splits_even_across_configs() {
        // Group 7 appears in two configs and two levels.
        let k = keys(&[
            ("a", 1, 7),
            ("a", 1, 8),
            ("a", 1, 9),
            ("b", 3, 7),
            ("b", 3, 10),
            ("b", 3, 11),
            ("a", 2, 7),
        ]);
        let s = assign(&k, [80, 10, 10]);
        let of7: Vec<_> = k
            .iter()
            .zip(&s)
            .filter(|(k, _)| k.group == 7)
            .map(|(_, s)| *s)
            .collect();
        assert!(of7.windows(2).all(|w| w[0] == w[1]), "{of7:?}");
    }

    #[test]
    fn a_zero_share_split_stays_empty() {
        let k: Vec<_> = (0..50u64)
            .map(|g| SplitKey {
                config: "a",
                level: None,
                group: g,
            })
            .collect();
        let s = assign(&k, [90, 0, 10]);
        assert!(!s.contains(&Split::Validation));
        assert_eq!(s.iter().filter(|&&x| x == Split::Test).count(), 5);
    }

    proptest! {
        #[test]
        fn order_independent_grouped_and_non_empty(
            entries in proptest::collection::vec((0u8..3, 1u32..5, 0u64..40), 1..200),
            rotate in 0usize..200,
        ) {
            const NAMES: [&str; 3] = ["x", "y", "z"];
            let k: Vec<_> = entries
                .iter()
                .map(|&(c, level, group)| SplitKey { config: NAMES[c as usize], level: Some(level), group })
                .collect();
            let s = assign(&k, [80, 10, 10]);
            // The same entries in another order get the same splits.
            let r = rotate % k.len();
            let mut k2 = k.clone();
            k2.rotate_left(r);
            let mut s2 = assign(&k2, [80, 10, 10]);
            s2.rotate_right(r);
            prop_assert_eq!(&s, &s2);
            // One split per group.
            let mut of: HashMap<u64, Split> = HashMap::new();
            for (k, s) in k.iter().zip(&s) {
                prop_assert_eq!(*of.entry(k.group).or_insert(*s), *s);
            }
            // A cell whose groups are all its own (first seen there) and
            // number at least three has every split.
            let mut first_cell: HashMap<u64, (&str, Option<u32>)> = HashMap::new();
            let mut cells: BTreeMap<(&str, Option<u32>), Vec<usize>> = BTreeMap::new();
            for (i, key) in k.iter().enumerate() {
                cells.entry((key.config, key.level)).or_default().push(i);
            }
            for (cell, rows) in &cells {
                for &i in rows {
                    first_cell.entry(k[i].group).or_insert(*cell);
                }
            }
            for (cell, rows) in &cells {
                let mut groups: Vec<u64> = rows.iter().map(|&i| k[i].group).collect();
                groups.sort();
                groups.dedup();
                if groups.len() >= 3 && groups.iter().all(|g| first_cell[g] == *cell) {
                    for sp in Split::ALL {
                        prop_assert!(rows.iter().any(|&i| s[i] == sp), "{cell:?} lacks {sp:?}");
                    }
                }
            }
        }
    }
}
