//! Depth on demand (`[saturation.deepen]`, issue 53): a domain run's phase 1
//! saturates a file further, from where its given-clause loop stopped, while
//! too few of its theorems have the deep proof graphs reconstruction needs
//! (`tasks::tptp::recon::proof_graph_supply`); the given-clause loop itself
//! is the one of the saturation module (Bachmair and Ganzinger's
//! superposition calculus), resumed with a larger budget.

use super::{Progress, SaturationReport};
use crate::derivation::{DagStats, Derivation};
use crate::logic::TermBank;
use crate::saturation::{ClauseId, ClauseStore, Inputs, Params, Saturator, State, Status};
use serde::{Deserialize, Serialize};

/// What depth on demand did to one file (`[saturation.deepen]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deepened {
    /// Given clauses of the first saturation (`limits.max_processed`).
    pub from_processed: u64,
    /// Theorems with a deep enough proof graph then.
    pub supply_before: u64,
    /// Given clauses at the end.
    pub to_processed: u64,
    /// Given clauses the deepest saturation tried reached (more than
    /// `to_processed` when it found no more theorems and was dropped).
    pub tried_processed: u64,
    /// Theorems with a deep enough proof graph at the end.
    pub supply_after: u64,
    /// Per further target (`deepen.targets`, in order): such theorems
    /// before and at the end. Not written when there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<[u64; 2]>,
    /// Why it stopped: `enough` theorems, `max_processed`, `max_kept`,
    /// `far` (no short target had [`deepen_gain`] theorems near it:
    /// `deepen.near`), or the saturation's own end (`saturated`,
    /// `unsatisfiable`, `limit`);
    /// `no_gain` when the deeper saturation had fewer than
    /// [`deepen_gain`] more such theorems and the file was brought back
    /// to its first budget (a larger graph
    /// with nothing deeper only makes the other families' prover calls
    /// dearer: TOP-interior's selection cells took 8 times the CPU).
    pub stopped: String,
}

/// The fewest more theorems a deeper saturation must bring for depth on
/// demand to keep it: half of `theorems`, at least 1 (FLD-ordered's 1 -> 2
/// at four times the budget made its selection cells dearer and filled no
/// cell; FLD-field's 8 -> 14 filled 10 more reconstruction rows).
pub fn deepen_gain(d: &crate::saturation::Deepen) -> u64 {
    u64::from(d.theorems / 2).max(1)
}

/// Per target (the first for `deepen.depth` and `deepen.nodes`, then one
/// per `deepen.targets` entry): `[supply, near]`, the file's theorems with
/// a deep enough proof graph, and those whose graph reaches the target's
/// depth with `deepen.near` percent of its clauses.
pub type Supply<'a> = &'a dyn Fn(&Saturator) -> Vec<[u64; 2]>;

/// The clauses a theorem's graph must reach to count as near a target of
/// `nodes` clauses: `near` percent of them, rounded up.
pub fn near_nodes(nodes: u32, near: u32) -> u32 {
    (u64::from(nodes) * u64::from(near)).div_ceil(100) as u32
}

/// Depth on demand (`[saturation.deepen]`, a domain run's phase 1): while
/// the saturation stopped at `limits.max_processed` and `supply` (the
/// file's theorems with a deep enough proof graph) is below
/// `deepen.theorems` for some target, the budget doubles (at most `deepen.max_processed`)
/// and the loop goes on from where it stopped; a doubling that would take
/// the store past `deepen.max_kept` records is not begun, nor one while no
/// short target has [`deepen_gain`] theorems near it (`far`: a graph of
/// its depth with `deepen.near` percent of its clauses; such files gained
/// nothing from their doublings on every file measured, and a doubling
/// costs more than the saturation before it). The report is brought up to date and says
/// what happened ([`Deepened`]); nothing is done or recorded when depth on
/// demand is off or the first saturation did not stop at its given-clause
/// limit.
pub fn deepen(
    sat: &mut Saturator,
    report: &mut SaturationReport,
    progress: &Progress,
    supply: Supply<'_>,
) {
    deepen_marked(sat, report, progress, supply, false);
}

/// The saturation at its first budget, marked by [`deepen_marked`] before
/// its first doubling: enough to come back to it when the deeper
/// saturation is dropped (`no_gain`), instead of saturating again.
struct Mark {
    /// Terms in the bank ([`TermBank::truncate`]).
    terms: usize,
    /// Records and their states ([`ClauseStore::rewind`]).
    states: Vec<State>,
    /// The empty clause then.
    empty: Option<ClauseId>,
    /// The report then.
    report: SaturationReport,
}

/// [`deepen`], returning the [`Mark`] of the saturation before its first
/// doubling when `mark` is set and a doubling was begun.
fn deepen_marked(
    sat: &mut Saturator,
    report: &mut SaturationReport,
    progress: &Progress,
    supply: Supply<'_>,
    mark: bool,
) -> Option<Mark> {
    let mut first = None;
    let d = sat.params.deepen.clone();
    let limit = sat.params.limits.max_processed;
    let stopped_at_limit = |sat: &Saturator, status: Status| {
        status == Status::ResourceOut
            && !sat.timed_out
            && limit.is_some_and(|l| sat.stats.processed >= l)
    };
    if !d.on() || !stopped_at_limit(sat, report.status) {
        return None;
    }
    let start = std::time::Instant::now();
    let read = |sat: &Saturator| -> (Vec<u64>, Vec<u64>) {
        supply(sat).into_iter().map(|[s, n]| (s, n)).unzip()
    };
    let (before, mut near) = read(sat);
    let mut after = before.clone();
    let mut status = report.status;
    let from = sat.stats.processed;
    let enough = |x: &[u64]| x.iter().all(|&n| n >= u64::from(d.theorems));
    // Some short target has enough theorems near it to hope for a gain.
    let close = |x: &[u64], near: &[u64]| {
        d.near == 0
            || x.iter()
                .zip(near)
                .any(|(&s, &n)| s < u64::from(d.theorems) && n >= deepen_gain(&d))
    };
    let stopped = loop {
        if enough(&after) {
            break "enough";
        }
        if sat.stats.processed >= d.max_processed {
            break "max_processed";
        }
        // The store at least doubles with the budget on every file
        // measured, so a doubling that would pass `max_kept` is not begun.
        if (sat.store.len() as u64).saturating_mul(2) > d.max_kept {
            break "max_kept";
        }
        if !close(&after, &near) {
            break "far";
        }
        if mark && first.is_none() {
            first = Some(Mark {
                terms: sat.bank.len(),
                states: sat.store.states(),
                empty: sat.empty_clause(),
                report: report.clone(),
            });
        }
        let next = sat
            .stats
            .processed
            .saturating_mul(2)
            .clamp(1, d.max_processed);
        sat.params.limits.max_processed = Some(next);
        status = sat.run(&mut |s| progress.tick(s.processed));
        (after, near) = read(sat);
        tracing::debug!(
            "depth on demand: {} processed, {} records, {after:?} theorems per target",
            sat.stats.processed,
            sat.store.len()
        );
        if status != Status::ResourceOut || sat.stats.processed < next {
            break match status {
                Status::Saturated => "saturated",
                Status::Unsatisfiable => "unsatisfiable",
                Status::ResourceOut => "limit",
            };
        }
    };
    sat.params.limits.max_processed = limit;
    if enough(&before) {
        return first;
    }
    let dag: DagStats = Derivation::new(&sat.store).stats();
    if let Some(last) = report.rounds.last_mut() {
        last.processed += sat.stats.processed - from;
        last.status = status;
    }
    report.status = status;
    report.processed = sat.stats.processed;
    report.generated = sat.stats.generated;
    report.kept = sat.stats.kept;
    report.dag_nodes = dag.nodes;
    report.dag_edges = dag.edges;
    report.max_depth = dag.max_depth;
    report.seconds += start.elapsed().as_secs_f64();
    report.counters = sat.stats.clone();
    report.deepened = Some(Deepened {
        from_processed: from,
        supply_before: before[0],
        to_processed: sat.stats.processed,
        tried_processed: sat.stats.processed,
        supply_after: after[0],
        targets: before[1..]
            .iter()
            .zip(&after[1..])
            .map(|(&b, &a)| [b, a])
            .collect(),
        stopped: stopped.to_string(),
    });
    first
}

impl Deepened {
    /// True when some target gained at least `gain` theorems.
    fn gained(&self, gain: u64) -> bool {
        self.supply_after >= self.supply_before + gain
            || self.targets.iter().any(|&[b, a]| a >= b + gain)
    }
}

/// What [`saturate_deepened`] leaves of a file's saturation: the term
/// bank and clause store (the derivation DAG), the empty clause when one
/// was derived, and the report.
#[derive(Debug)]
pub struct DeepSaturation {
    /// The term bank.
    pub bank: TermBank,
    /// Every kept clause and its derivation.
    pub store: ClauseStore,
    /// The empty clause, when the saturation derived it.
    pub empty: Option<ClauseId>,
    /// The saturation report, depth on demand's included.
    pub report: SaturationReport,
}

/// [`super::saturate`] then [`deepen`]; a deeper saturation that brought
/// fewer than [`deepen_gain`] more such theorems (for every target) is
/// dropped and the file brought back to its first budget (`no_gain`, the
/// budget it tried kept in [`Deepened::tried_processed`]). Coming back is
/// exact and saturates nothing again: resuming is the loop that never
/// stopped, so the bank and store at the first budget are the first
/// terms and records of the deeper ones, with the states marked before
/// the first doubling ([`TermBank::truncate`], [`ClauseStore::rewind`]).
pub fn saturate_deepened(
    source: &str,
    bank: TermBank,
    inputs: Inputs,
    params: &Params,
    progress: &Progress,
    supply: Supply<'_>,
) -> DeepSaturation {
    let (mut sat, mut report) = super::saturate(source, bank, inputs, params, progress);
    let first = deepen_marked(&mut sat, &mut report, progress, supply, true);
    let empty = sat.empty_clause();
    let (mut bank, mut store) = (sat.bank, sat.store);
    if let (Some(d), Some(first)) = (report.deepened.clone(), first)
        && d.to_processed > d.from_processed
        && !d.gained(deepen_gain(&params.deepen))
    {
        bank.truncate(first.terms);
        store.rewind(&first.states);
        let seconds = report.seconds;
        report = first.report;
        report.seconds = seconds;
        report.deepened = Some(Deepened {
            to_processed: report.processed,
            supply_after: d.supply_before,
            targets: d.targets.iter().map(|&[b, _]| [b, b]).collect(),
            stopped: "no_gain".to_string(),
            ..d
        });
        return DeepSaturation {
            bank,
            store,
            empty: first.empty,
            report,
        };
    }
    DeepSaturation {
        bank,
        store,
        empty,
        report,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{inputs_of, saturate};
    use super::*;
    use crate::saturation::Deepen;
    use std::cell::Cell;

    fn theory() -> (TermBank, Inputs) {
        let mut bank = TermBank::new();
        let text = include_str!("../../axioms/SET/SET-boolean.ax");
        let p = crate::tptp::parse_str(&mut bank, text, "SET-boolean.ax", None).expect("parses");
        (bank, inputs_of(&p))
    }

    fn params(max_processed: u64, deepen: Deepen) -> Params {
        let mut p = Params::default();
        p.limits.max_processed = Some(max_processed);
        p.deepen = deepen;
        p
    }

    fn asking(theorems: u32, max_processed: u64, max_kept: u64) -> Deepen {
        Deepen {
            theorems,
            max_processed,
            max_kept,
            ..Deepen::default()
        }
    }

    fn texts(sat: &Saturator) -> Vec<String> {
        sat.store
            .ids()
            .map(|c| crate::tptp::clause_to_tptp(&sat.bank, &sat.store.clause(c).lits))
            .collect()
    }

    /// Going on from where the loop stopped is the loop that never
    /// stopped: a file deepened from 100 to 400 given clauses (by
    /// doublings: the supply is read three times) holds exactly the
    /// records of one saturated to 400 at once, and its report says so.
    #[test]
    fn deepening_resumes_the_loop_exactly() {
        let (bank, inputs) = theory();
        let p = params(100, asking(u32::MAX, 400, u64::MAX));
        let (mut sat, mut report) = saturate("t", bank, inputs, &p, &Progress::silent());
        let calls = Cell::new(0u32);
        deepen(&mut sat, &mut report, &Progress::silent(), &|_| {
            calls.set(calls.get() + 1);
            vec![[7, u64::MAX]]
        });
        assert_eq!(calls.get(), 3);
        assert_eq!(
            report.deepened,
            Some(Deepened {
                from_processed: 100,
                supply_before: 7,
                to_processed: 400,
                tried_processed: 400,
                supply_after: 7,
                targets: Vec::new(),
                stopped: "max_processed".into(),
            })
        );
        assert_eq!(sat.params.limits.max_processed, Some(100), "limit restored");
        let (bank, inputs) = theory();
        let once = params(
            400,
            Deepen {
                depth: 0,
                ..Deepen::default()
            },
        );
        let (plain, plain_report) = saturate("t", bank, inputs, &once, &Progress::silent());
        assert_eq!(texts(&sat), texts(&plain));
        assert_eq!(report.processed, plain_report.processed);
        assert_eq!(report.generated, plain_report.generated);
        assert_eq!(report.kept, plain_report.kept);
        assert_eq!(report.dag_edges, plain_report.dag_edges);
    }

    /// A file with enough theorems, or with depth on demand off, is left
    /// alone and reports nothing; one the store limit stops reports why,
    /// without a doubling.
    #[test]
    fn enough_theorems_off_or_the_store_limit_leave_the_saturation_alone() {
        let cases = [
            (asking(5, 400, u64::MAX), None),
            (
                Deepen {
                    depth: 0,
                    ..asking(u32::MAX, 400, u64::MAX)
                },
                None,
            ),
            (asking(u32::MAX, 400, 1), Some("max_kept")),
        ];
        for (d, stopped) in cases {
            let (bank, inputs) = theory();
            let p = params(100, d);
            let (mut sat, mut report) = saturate("t", bank, inputs, &p, &Progress::silent());
            let kept = sat.store.len();
            deepen(&mut sat, &mut report, &Progress::silent(), &|_| {
                vec![[6, u64::MAX]]
            });
            assert_eq!(sat.stats.processed, 100);
            assert_eq!(sat.store.len(), kept);
            assert_eq!(
                report.deepened.as_ref().map(|d| d.stopped.as_str()),
                stopped
            );
            if let Some(d) = &report.deepened {
                assert_eq!((d.from_processed, d.to_processed), (100, 100));
            }
        }
    }

    /// A deeper saturation dropped for no gain is undone, not redone: the
    /// bank, store and report are those of a saturation to the first
    /// budget alone, term for term and record for record (states
    /// included), and the bank builds the next terms as that one would.
    #[test]
    fn a_dropped_deeper_saturation_comes_back_exactly() {
        let (bank, inputs) = theory();
        let p = params(100, asking(u32::MAX, 400, u64::MAX));
        let deep = saturate_deepened("t", bank, inputs, &p, &Progress::silent(), &|_| {
            vec![[0, u64::MAX]]
        });
        let got = deep.report.deepened.clone().unwrap();
        assert_eq!(
            (got.stopped.as_str(), got.tried_processed, got.to_processed),
            ("no_gain", 400, 100)
        );
        let (bank, inputs) = theory();
        let off = Deepen {
            depth: 0,
            ..Deepen::default()
        };
        let (plain, plain_report) =
            saturate("t", bank, inputs, &params(100, off), &Progress::silent());
        let dump = |bank: &TermBank, store: &ClauseStore| {
            let mut v = Vec::new();
            crate::derivation::write_dump(&mut v, bank, store).unwrap();
            crate::derivation::read_dump(&v[..]).unwrap()
        };
        assert_eq!(
            dump(&deep.bank, &deep.store),
            dump(&plain.bank, &plain.store)
        );
        assert_eq!(deep.empty, plain.empty_clause());
        assert_eq!(deep.bank.len(), plain.bank.len());
        for t in (0..plain.bank.len() as u32).map(crate::logic::TermId) {
            assert_eq!(deep.bank.head(t), plain.bank.head(t));
            assert_eq!(deep.bank.args(t), plain.bank.args(t));
        }
        let mut report = deep.report.clone();
        report.deepened = None;
        assert_eq!(report.stats_json(false), plain_report.stats_json(false));
        let (mut a, mut b) = (deep.bank, plain.bank);
        let f = (0..a.sig.len() as u32)
            .map(crate::logic::SymbolId)
            .find(|&s| {
                a.sig.get(s).arity == 2 && a.sig.get(s).kind == crate::logic::SymbolKind::Function
            })
            .expect("a binary function");
        for bank in [&mut a, &mut b] {
            let x = bank.var(40);
            let y = bank.var(41);
            bank.app(f, &[x, y]);
        }
        assert_eq!(a.len(), b.len());
        assert_eq!(
            a.args(crate::logic::TermId(a.len() as u32 - 1)),
            b.args(crate::logic::TermId(b.len() as u32 - 1))
        );
    }

    /// A further target short of theorems deepens a file whose first
    /// target has enough, and what it gains alone keeps the deeper
    /// saturation; without a gain the file is brought back to its
    /// budget.
    #[test]
    fn a_further_target_deepens_and_its_gain_keeps_the_deeper_saturation() {
        let d = Deepen {
            targets: vec![[6, 24]],
            ..asking(5, 400, u64::MAX)
        };
        let p = params(100, d);
        // The first target has 5 (enough); the further one 2 at 100 given
        // clauses, 4 at 200 and 8 at 400.
        let (bank, inputs) = theory();
        let DeepSaturation { report, .. } =
            saturate_deepened("t", bank, inputs, &p, &Progress::silent(), &|s| {
                vec![[5, 0], [s.stats.processed / 50, 5]]
            });
        let got = report.deepened.unwrap();
        assert_eq!((got.supply_before, got.supply_after), (5, 5));
        assert_eq!(got.targets, vec![[2, 8]]);
        assert_eq!(got.stopped, "enough");
        assert_eq!(report.processed, 400);
        let (bank, inputs) = theory();
        let DeepSaturation { report, .. } =
            saturate_deepened("t", bank, inputs, &p, &Progress::silent(), &|_| {
                vec![[5, 0], [2, 5]]
            });
        let got = report.deepened.unwrap();
        assert_eq!(got.stopped, "no_gain");
        assert_eq!(got.targets, vec![[2, 2]]);
        assert_eq!(report.processed, 100);
    }

    /// A doubling is begun only while some short target has
    /// `deepen_gain` theorems near it: with fewer the file is left at its
    /// budget (`far`, nothing saturated twice); a target with enough
    /// theorems is no reason to go on however near its theorems are;
    /// `near = 0` begins every doubling as before; and each doubling reads
    /// the file again, so one that leaves it far is the last.
    #[test]
    fn a_file_far_from_every_short_target_is_not_deepened() {
        let d = Deepen {
            targets: vec![[6, 24]],
            ..asking(10, 400, u64::MAX)
        };
        let gain = deepen_gain(&d);
        assert_eq!(gain, 5);
        assert_eq!(near_nodes(16, 75), 12);
        assert_eq!(near_nodes(30, 75), 23);
        assert_eq!(near_nodes(16, 0), 0);
        let run = |d: &Deepen, supply: Supply<'_>| {
            let (bank, inputs) = theory();
            let p = params(100, d.clone());
            saturate_deepened("t", bank, inputs, &p, &Progress::silent(), supply)
        };
        // Short on both targets, one fewer than the gain near each.
        let DeepSaturation { report, .. } = run(&d, &|_| vec![[0, gain - 1], [3, gain - 1]]);
        let got = report.deepened.unwrap();
        assert_eq!(got.stopped, "far");
        assert_eq!(
            (got.from_processed, got.to_processed, got.tried_processed),
            (100, 100, 100)
        );
        assert_eq!(report.processed, 100);
        // Near enough only on the target that has its theorems.
        let DeepSaturation { report, .. } = run(&d, &|_| vec![[10, 500], [3, gain - 1]]);
        assert_eq!(report.deepened.unwrap().stopped, "far");
        // Near enough on a short target: the doublings go on to the cap.
        let DeepSaturation { report, .. } = run(&d, &|_| vec![[10, 500], [3, gain]]);
        assert_eq!(report.deepened.unwrap().tried_processed, 400);
        assert_eq!(report.processed, 100, "no gain: back at the budget");
        // Off: every doubling is begun.
        let off = Deepen {
            near: 0,
            ..d.clone()
        };
        let DeepSaturation { report, .. } = run(&off, &|_| vec![[0, 0], [3, 0]]);
        assert_eq!(report.deepened.unwrap().tried_processed, 400);
        // Near at the budget, far after one doubling: it stops there.
        let DeepSaturation { report, .. } = run(&d, &|s| {
            let near = if s.stats.processed > 100 {
                gain - 1
            } else {
                gain
            };
            vec![[10, 0], [3, near]]
        });
        let got = report.deepened.unwrap();
        assert_eq!(
            (got.tried_processed, got.stopped.as_str()),
            (200, "no_gain")
        );
        assert_eq!(report.processed, 100);
    }
}
