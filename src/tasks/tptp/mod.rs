//! The three TPTP task families of seed 001 (`../shared/specs/tptp_tasks.md`):
//! conjecture entailment, minimal premise selection and proof graph
//! reconstruction. Each family generates an instance from one derivation
//! graph (a finished saturation run of one axiom file), renders its prompt
//! and gold answer, certifies the label with the built-in prover, and scores
//! model answers. This module holds what the families share: the
//! configuration, the graph wrapper with its ranked theorem pool, depth-d
//! premises, same-signature distractors and the text forms.

pub mod audit;
mod config;
pub mod entail;
pub mod exploits;
pub mod family;
mod graph;
mod prompt;
pub mod recon;
mod record;
pub mod select;
pub mod stepwise;
pub mod twin;

use crate::interest::Scored;
pub use config::*;
pub use graph::*;
pub use prompt::*;
pub use record::*;

/// Version of the TPTP task generators; recorded in the manifest and in
/// every record's `source` so a change of generation is visible.
pub const GENERATOR_VERSION: &str = "tptp-tasks-52";

#[cfg(test)]
pub(crate) mod testing {
    //! A small graph shared by the family tests.
    use super::*;
    use crate::prover::Prover;

    /// Membership-style set theory without equality.
    pub const SETS: &str = "cnf(ui, axiom, ~member(E, union(A, B)) | member(E, A) | member(E, B)).\n\
        cnf(ul, axiom, ~member(E, A) | member(E, union(A, B))).\n\
        cnf(ur, axiom, ~member(E, B) | member(E, union(A, B))).\n\
        cnf(il, axiom, ~member(E, inter(A, B)) | member(E, A)).\n\
        cnf(ir, axiom, ~member(E, inter(A, B)) | member(E, B)).\n\
        cnf(ii, axiom, ~member(E, A) | ~member(E, B) | member(E, inter(A, B))).\n\
        cnf(sub, axiom, ~subset(A, B) | ~member(E, A) | member(E, B)).\n\
        cnf(sub2, axiom, subset(A, B) | member(w(A, B), A)).\n\
        cnf(sub3, axiom, subset(A, B) | ~member(w(A, B), B)).\n";

    /// Prover limits without a work budget: no given clause, no model
    /// size, so any question that needs search ends `Unknown` (to force a
    /// scorer's `timeout`).
    pub fn no_budget() -> crate::prover::ProverLimits {
        crate::prover::ProverLimits {
            quick_processed: 0,
            max_processed: 0,
            quick_model_size: 0,
            max_model_size: 0,
            ..crate::prover::ProverLimits::default()
        }
    }

    /// A graph of `text` saturated for `processed` given clauses.
    pub fn graph(text: &str, processed: u64) -> Graph {
        let s = crate::interest::tests::run(text, processed);
        let r = crate::interest::rank(&s.bank, &s.store);
        Graph::new(
            s.bank,
            s.store,
            r,
            "TST",
            "t",
            &TasksConfig::default(),
            false,
        )
    }

    /// A family's generator, as the tests call it.
    pub type Generate = fn(
        &Graph,
        &Scored,
        &mut Prover,
        &TasksConfig,
        u8,
        &mut rand_chacha::ChaCha8Rng,
    ) -> Result<Built, Reject>;

    /// The first instance `generate` builds at `level` on the [`SETS`]
    /// graph under the default config, trying up to 60 theorems with the
    /// streams of `tag`.
    pub fn first_instance(generate: Generate, tag: &str, level: u8) -> Built {
        let g = graph(SETS, 600);
        let cfg = TasksConfig::default();
        let mut prover = Prover::new(crate::prover::ProverLimits::default());
        (0..60u64)
            .find_map(|i| {
                let mut rng = crate::tasks::instance_rng(11, &[tag], i);
                let t = &g.pool[i as usize % g.pool.len()];
                generate(&g, t, &mut prover, &cfg, level, &mut rng).ok()
            })
            .unwrap_or_else(|| panic!("no {tag} instance at level {level}"))
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;
    use crate::interest::symbols;
    use crate::prover::Prover;
    use crate::saturation::ClauseId;
    use std::collections::HashSet;

    fn origin(name: &str, formula: &str) -> Option<Origin> {
        Some(Origin {
            name: name.into(),
            formula: formula.into(),
        })
    }

    #[test]
    fn theorems_by_depth_counts_what_each_depth_draws() {
        let g = graph(SETS, 300);
        let by = g.theorems_by_depth();
        assert!(by.len() >= 2, "{by:?}");
        assert_eq!(by[0] as usize, g.pool.len());
        assert!(by.windows(2).all(|w| w[0] >= w[1]), "{by:?}");
        for (i, &n) in by.iter().enumerate() {
            let order = theorem_order(std::slice::from_ref(&g), 0, "SET", &["x"], i as u32 + 1);
            assert_eq!(n as usize, order.len(), "depth {}", i + 1);
        }
        // Past the deepest, nothing is drawn.
        let past = theorem_order(
            std::slice::from_ref(&g),
            0,
            "SET",
            &["x"],
            by.len() as u32 + 1,
        );
        assert!(past.is_empty());
        // Phase 1's count, made without the graph, is the same.
        let s = crate::interest::tests::run(SETS, 300);
        let r = crate::interest::rank(&s.bank, &s.store);
        assert_eq!(
            pool_depths(&s.bank, &s.store, &r, &TasksConfig::default()),
            (g.pool.len(), by)
        );
    }

    #[test]
    fn backgrounds_group_clauses_under_their_formula() {
        let b = Background {
            axioms: vec![
                "p(X0) | ~q(X0)".into(),
                "r(a)".into(),
                "q(X0) | ~p(X0)".into(),
            ],
            origins: vec![
                origin("pq", "! [X0] : (p(X0) <=> q(X0))"),
                None,
                origin("pq", "! [X0] : (p(X0) <=> q(X0))"),
            ],
        };
        let s = context_block("SET", &b);
        assert!(s.contains("Some background axioms are first-order formulas"));
        assert!(s.ends_with(
            "- pq: ! [X0] : (p(X0) <=> q(X0))\n  clauses of its clausal form used here:\n  - p(X0) | ~q(X0)\n  - q(X0) | ~p(X0)\n- r(a)\n"
        ), "{s}");
        // Round trip through metadata; CNF-only backgrounds add no field
        // and print as before.
        let mut meta = serde_json::json!({"context_formulas": "stale"});
        b.store(&mut meta);
        assert_eq!(Background::from_metadata(&meta).unwrap(), b);
        let cnf = Background::clauses(vec!["r(a)".into()]);
        let mut meta = serde_json::json!({});
        cnf.store(&mut meta);
        assert!(meta.get("context_formulas").is_none());
        assert_eq!(Background::from_metadata(&meta).unwrap(), cnf);
        let s = context_block("SET", &cnf);
        assert!(!s.contains("first-order formulas"));
        assert!(s.ends_with("(for context only; they are not available as premises):\n- r(a)\n"));
        // Misaligned or malformed metadata is refused, not misread.
        let bad = serde_json::json!({"context_axioms": ["r(a)"], "context_formulas": []});
        assert!(
            Background::from_metadata(&bad)
                .unwrap_err()
                .contains("0 entries for 1")
        );
        let bad =
            serde_json::json!({"context_axioms": ["r(a)"], "context_formulas": [{"name": "x"}]});
        assert!(Background::from_metadata(&bad).is_err());
    }
    use crate::prover::ProverLimits;

    #[test]
    fn depth_premises_entail_the_theorem() {
        let g = graph(SETS, 600);
        let mut prover = Prover::new(ProverLimits::default());
        let (mut checked, mut proved) = (0, 0);
        for s in g.pool.iter().take(25) {
            for d in 1..=3 {
                let Some(p) = g.depth_premises(s.id, d) else {
                    continue;
                };
                assert!(!p.contains(&s.id));
                let o = g.prove(&mut prover, &p, s.id);
                assert_ne!(o.verdict.label(), Some(false), "P_{d} must entail T");
                // Without the model search: the same verdict, no search.
                let derived = g.prove_derived(&mut prover, &p, s.id);
                assert_eq!(derived.verdict.label(), o.verdict.label());
                assert!(!derived.stats.cached, "its own cache entry");
                assert_eq!(derived.stats.model_size_tried, 0);
                proved += usize::from(o.verdict.label() == Some(true));
                checked += 1;
            }
        }
        assert!(checked > 10, "only {checked} checked");
        assert!(proved > 10, "only {proved} proved");
    }

    #[test]
    fn distractors_share_symbols_and_avoid_ancestors() {
        let g = graph(SETS, 600);
        let t = g.pool[0].id;
        let anc = crate::derivation::Derivation::new(&g.store).ancestors(t);
        let ds = g.plain_distractors(t, &[]);
        assert!(!ds.is_empty());
        let keys: HashSet<String> = ds.iter().map(|&c| g.canon(c)).collect();
        assert_eq!(keys.len(), ds.len(), "no two candidates are variants");
        let ts = symbols(g.bank(), g.lits(t));
        for d in ds {
            assert!(!anc.contains(&d));
            assert!(symbols(g.bank(), g.lits(d)).iter().any(|s| ts.contains(s)));
        }
    }

    /// The premise pool holds one clause per variant class of the depth-d
    /// premises of the pool theorems that have at most `limit` of them,
    /// each counted once per distinct premise set (up to variants).
    #[test]
    fn the_premise_pool_counts_premise_sets_per_premise() {
        let g = graph(SETS, 600);
        let pool = g.depth_premise_pool(1, 2);
        assert!(pool.len() >= 5, "{} premises", pool.len());
        let mut want: std::collections::BTreeMap<String, u32> = Default::default();
        let mut sets: HashSet<std::collections::BTreeSet<String>> = HashSet::new();
        let mut theorems = 0;
        for s in &g.pool {
            let ps = g.depth_premises(s.id, 1).unwrap_or_default();
            if ps.len() > 2 {
                continue;
            }
            theorems += 1;
            let keys: std::collections::BTreeSet<String> = ps.iter().map(|&c| g.canon(c)).collect();
            if !sets.insert(keys.clone()) {
                continue;
            }
            for k in keys {
                *want.entry(k).or_default() += 1;
            }
        }
        assert!(
            sets.len() < theorems,
            "{} sets of {theorems} theorems",
            sets.len()
        );
        assert_eq!(g.counted_premise_pool(1, 2).0 as usize, sets.len());
        let got: std::collections::BTreeMap<String, u32> =
            pool.iter().map(|&(c, n)| (g.canon(c), n)).collect();
        assert_eq!(got.len(), pool.len(), "one clause per variant class");
        assert_eq!(got, want);
        // Cached: the same list again.
        assert!(std::sync::Arc::ptr_eq(&pool, &g.depth_premise_pool(1, 2)));
        // A larger limit counts more theorems.
        let all = g.depth_premise_pool(1, usize::MAX);
        let (few, many) = (
            pool.iter().map(|p| p.1).sum::<u32>(),
            all.iter().map(|p| p.1).sum::<u32>(),
        );
        assert!(few <= many, "{few} {many}");
    }

    /// A weighted draw keeps the literal count and the literals shared
    /// with the theorem, never takes a weightless candidate, and takes the
    /// only weighted one.
    #[test]
    fn weighted_draws_keep_the_shape_and_follow_the_weights() {
        use rand::SeedableRng;
        let g = graph(SETS, 600);
        let t = g.pool[0].id;
        let like = g.depth_premises(t, 1).unwrap()[0];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let all: Vec<ClauseId> = g.active.clone();
        let mut cands = all.clone();
        let none = g.take_weighted(t, like, &mut cands, &mut rng, 1.0, |_| Some(0.0), |_| 0.0);
        assert_eq!(none, None);
        assert_eq!(cands.len(), all.len(), "nothing removed");
        let lits = g.lits(like).len();
        let mut drawn = 0;
        while let Some(c) =
            g.take_weighted(t, like, &mut cands, &mut rng, 1.0, |_| Some(0.0), |_| 1.0)
        {
            assert_eq!(g.lits(c).len(), lits, "{}", g.text(c));
            drawn += 1;
        }
        assert!(drawn >= 2, "{drawn} drawn");
        // One candidate of weight 1 among weightless ones.
        let first = all
            .iter()
            .copied()
            .find(|&c| {
                let mut one = vec![c];
                g.take_weighted(t, like, &mut one, &mut rng, 1.0, |_| Some(0.0), |_| 1.0)
                    .is_some()
            })
            .expect("a candidate of the premise's shape");
        for _ in 0..5 {
            let mut cands = all.clone();
            let w = |c: ClauseId| if c == first { 1.0 } else { 0.0 };
            let got = g.take_weighted(t, like, &mut cands, &mut rng, 1.0, |_| Some(0.0), w);
            assert_eq!(got, Some(first));
        }
    }

    #[test]
    fn config_validation_names_the_field() {
        let c = TasksConfig {
            levels: vec![0],
            ..Default::default()
        };
        assert_eq!(c.validate().unwrap_err().key, "tasks.tptp.levels");
        let deep = TasksConfig {
            levels: vec![5, 8, 255],
            ..Default::default()
        };
        assert!(deep.validate().is_ok());
        let empty = TasksConfig {
            selection: LevelMap {
                depth: vec![],
                k: vec![1],
            },
            ..Default::default()
        };
        assert_eq!(empty.validate().unwrap_err().key, "tasks.tptp.selection");
        for lead in [0.0, -0.5, 1.5, f64::NAN] {
            let c = TasksConfig {
                max_answer_lead: lead,
                ..Default::default()
            };
            let e = c.validate().unwrap_err();
            assert_eq!(e.key, "tasks.tptp.max_answer_lead", "{lead}");
            // The sentence names its key once, shown alone.
            assert_eq!(e.text(), "tasks.tptp.max_answer_lead must be in (0, 1]");
            let c = TasksConfig {
                max_premise_lead: lead,
                ..Default::default()
            };
            let e = c.validate().unwrap_err();
            assert_eq!(e.text(), "tasks.tptp.max_premise_lead must be in (0, 1]");
        }
        assert!(TasksConfig::default().validate().is_ok());
        assert_eq!(TasksConfig::default().params(Family::Selection, 4), (4, 8));
    }

    #[test]
    fn levels_go_on_past_the_lists() {
        let c = TasksConfig::default();
        // The documented table: k at level 8, and depth = level.
        assert_eq!(c.params(Family::Entailment, 8), (8, 14));
        assert_eq!(c.params(Family::Selection, 8), (8, 16));
        assert_eq!(c.params(Family::Reconstruction, 8), (8, 32));
        assert_eq!(c.params(Family::Derivation, 8), (8, 24));
        assert_eq!(c.params(Family::Entailment, 5), (5, 8));
        // Levels 1-4 are the lists.
        assert_eq!(c.params(Family::Reconstruction, 2), (2, 8));
        // A one-entry list grows by 1; a flat tail still grows by 1.
        let m = LevelMap {
            depth: vec![3],
            k: vec![4, 4],
        };
        assert_eq!(m.at(1), (3, 4));
        assert_eq!(m.at(3), (5, 5));
        assert_eq!(m.at(255).0, 257);
    }
}
