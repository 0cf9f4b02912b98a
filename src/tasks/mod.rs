//! Task families (DESIGN.md §8): each instance type can be generated from a
//! seed, rendered as a (prompt, answer) pair and used to score a model answer.
//! This module holds what every family shares: the score type (per-instance
//! seeding, [`instance_rng`], is [`crate::seed`]'s, shared with the engine's
//! generators and their tests).

pub mod answer;
pub mod audit;
pub mod eq;
pub mod equiv;
pub mod error;
pub mod family;
pub mod fault;
pub mod format;
pub mod generation;
pub mod limits;
pub mod pl;
pub mod registry;
#[cfg(feature = "toy-family")]
pub mod toy;
pub mod tptp;
pub mod trace;

pub use crate::seed::{instance_rng, instance_seed};
pub use error::TaskError;
use serde::{Deserialize, Serialize};

/// The grader's verdict on one answer, shared by every scorer: which of
/// five outcomes the answer met. It is carried by [`Score`] beside the
/// credit, and `saturate score` counts it per task and level.
///
/// The rule linking a verdict to the credit ([`Score::consistent`]):
///
/// - `ok`: full credit (value 1), well formed: the answer is right;
/// - `wrong`: well formed, value below 1: the answer is wrong, or earns
///   partial credit (a sufficient but larger premise selection, a
///   reconstruction with some unsound steps);
/// - `malformed`: value 0, not well formed: no answer could be read in the
///   task's format;
/// - `cheating`: value 0, well formed: the answer uses what the task
///   forbids (an item the task does not give, such as a premise number
///   outside the pool, a clause outside the graph or an unlisted equation;
///   the goal restated as a premise or parent; a proof step past a limit
///   that closes a shortcut, such as NDL_f's claimed tautology or its
///   premise and justifier bounds);
/// - `timeout`: value 0, well formed: a check the score depends on ran out
///   of its work budget (the prover answered Unknown), so the answer is
///   neither credited nor blamed; `saturate score` counts it apart and
///   leaves it out of the mean over answered rows and the sub-metric means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Full credit: the answer is right.
    Ok,
    /// Well formed but wrong, partial credit below 1 included.
    Wrong,
    /// No answer could be extracted or parsed.
    Malformed,
    /// The answer uses what the task forbids.
    Cheating,
    /// A check ran out of its work budget: neither credited nor blamed.
    Timeout,
}

impl Verdict {
    /// Every verdict, in report order.
    pub const ALL: [Verdict; 5] = [
        Verdict::Ok,
        Verdict::Wrong,
        Verdict::Malformed,
        Verdict::Cheating,
        Verdict::Timeout,
    ];

    /// The verdict's name as written in outputs (`ok`, `wrong`,
    /// `malformed`, `cheating`, `timeout`; the serde name).
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Wrong => "wrong",
            Verdict::Malformed => "malformed",
            Verdict::Cheating => "cheating",
            Verdict::Timeout => "timeout",
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of scoring one model answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// Credit in `[0, 1]`; 1 for a fully correct answer.
    pub value: f64,
    /// Whether the answer parsed in the expected format at all.
    pub well_formed: bool,
    /// The grader's verdict (see [`Verdict`] for how it agrees with
    /// `value` and `well_formed`).
    pub verdict: Verdict,
    /// A one-line human-readable reason (the first error found, or "correct").
    pub detail: String,
    /// Named sub-metrics, each in `[0, 1]`, beside the main `value` (for
    /// example `lenient` and `strict` proof checking, or ER's `full` and
    /// `per_step`). A scorer reports the same names for every answer of a
    /// row, malformed answers included (with 0), so that `saturate score`
    /// can average each name over the answers that report it; a name that
    /// only applies to some rows (the error line of an incorrect proof) is
    /// reported on those rows only. A `timeout` may leave out the names
    /// whose value the undecided check would give, and so may an answer
    /// whose value does not depend on that check (a selection answer
    /// larger than the minimum, whose sufficiency the prover left
    /// undecided, reports `minimal` only); `saturate score` leaves timeouts
    /// out of the sub-metric means in any case. Empty for scorers without
    /// sub-metrics.
    #[serde(default, skip_deserializing)]
    pub metrics: Vec<(&'static str, f64)>,
    /// For answers made of steps (a derivation chain, reconstruction
    /// lines, a written PL proof), the verdict on each step in answer
    /// order, so the score can serve as a process reward; empty for other
    /// answers.
    #[serde(default)]
    pub steps: Vec<StepVerdict>,
}

/// The grader's verdict on one step of a step answer: the answer
/// verdicts of [`Verdict`], and `redundant`, which only a step can get.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StepGrade {
    /// The step follows from what it cites (and, where the scorer asks,
    /// is used on the way to the goal).
    Ok,
    /// It does not follow (a countermodel, not one inference, or a rule of
    /// the task broken).
    Wrong,
    /// It could not be read.
    Malformed,
    /// It cites what the task does not give.
    Cheating,
    /// Its check ran out of its work budget.
    Timeout,
    /// It holds but adds nothing: it restates a given clause or an earlier
    /// step, is a tautology, or is not used on the way to the goal. It
    /// earns nothing and counts against the answer (the derivation family).
    Redundant,
}

impl StepGrade {
    /// The grade's name as written in outputs (the serde name).
    pub fn name(self) -> &'static str {
        match self {
            StepGrade::Ok => "ok",
            StepGrade::Wrong => "wrong",
            StepGrade::Malformed => "malformed",
            StepGrade::Cheating => "cheating",
            StepGrade::Timeout => "timeout",
            StepGrade::Redundant => "redundant",
        }
    }
}

impl From<Verdict> for StepGrade {
    fn from(v: Verdict) -> StepGrade {
        match v {
            Verdict::Ok => StepGrade::Ok,
            Verdict::Wrong => StepGrade::Wrong,
            Verdict::Malformed => StepGrade::Malformed,
            Verdict::Cheating => StepGrade::Cheating,
            Verdict::Timeout => StepGrade::Timeout,
        }
    }
}

impl PartialEq<Verdict> for StepGrade {
    fn eq(&self, v: &Verdict) -> bool {
        *self == StepGrade::from(*v)
    }
}

impl std::fmt::Display for StepGrade {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The grader's verdict on one step of a step answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepVerdict {
    /// The step as the answer names it (`S3`, or the derived clause's
    /// number in a reconstruction).
    pub step: String,
    /// `ok`: the step follows from what it cites; `wrong`: it does not
    /// (a countermodel, not one inference, or a rule of the task broken);
    /// `malformed`: it could not be read; `cheating`: it cites what the
    /// task does not give; `timeout`: the check ran out of its work budget;
    /// `redundant` (derivation steps): it restates a given clause or an
    /// earlier step, is a tautology, or is not used on the way to the goal.
    pub verdict: StepGrade,
    /// Why, in a few words.
    pub detail: String,
}

impl StepVerdict {
    /// A step verdict.
    pub fn new(
        step: impl Into<String>,
        verdict: impl Into<StepGrade>,
        detail: impl Into<String>,
    ) -> Self {
        StepVerdict {
            step: step.into(),
            verdict: verdict.into(),
            detail: detail.into(),
        }
    }
}

impl Score {
    fn new(value: f64, well_formed: bool, verdict: Verdict, detail: impl Into<String>) -> Score {
        Score {
            value,
            well_formed,
            verdict,
            detail: detail.into(),
            metrics: Vec::new(),
            steps: Vec::new(),
        }
    }

    /// Full credit (`ok`).
    pub fn correct() -> Score {
        Score::new(1.0, true, Verdict::Ok, "correct")
    }

    /// No credit for a well-formed but wrong answer (`wrong`).
    pub fn wrong(detail: impl Into<String>) -> Score {
        Score::new(0.0, true, Verdict::Wrong, detail)
    }

    /// Partial credit `value` for a well-formed answer: `ok` when `value`
    /// is 1, else `wrong` (with `detail`).
    pub fn partial(value: f64, detail: impl Into<String>) -> Score {
        let verdict = if value >= 1.0 {
            Verdict::Ok
        } else {
            Verdict::Wrong
        };
        Score::new(value, true, verdict, detail)
    }

    /// No credit: the answer could not be read in the expected format
    /// (`malformed`).
    pub fn malformed(detail: impl Into<String>) -> Score {
        Score::new(0.0, false, Verdict::Malformed, detail)
    }

    /// No credit: the answer, well formed, uses what the task forbids
    /// (`cheating`); `detail` says what.
    pub fn cheating(detail: impl Into<String>) -> Score {
        Score::new(0.0, true, Verdict::Cheating, detail)
    }

    /// Neither credit nor blame: a check the score depends on ran out of
    /// its work budget (`timeout`); the value is 0 and `saturate score`
    /// counts the answer apart.
    pub fn timeout(detail: impl Into<String>) -> Score {
        Score::new(0.0, true, Verdict::Timeout, detail)
    }

    /// This score with the named sub-metrics `metrics` (replacing any).
    pub fn with_metrics(mut self, metrics: Vec<(&'static str, f64)>) -> Score {
        self.metrics = metrics;
        self
    }

    /// This score with the per-step verdicts `steps` (replacing any).
    pub fn with_steps(mut self, steps: Vec<StepVerdict>) -> Score {
        self.steps = steps;
        self
    }

    /// The value of the sub-metric `name`, if reported.
    pub fn metric(&self, name: &str) -> Option<f64> {
        self.metrics.iter().find(|(n, _)| *n == name).map(|m| m.1)
    }

    /// Whether the verdict agrees with the value and well-formedness by
    /// the rule of [`Verdict`]: `ok` iff value 1 and well formed; `wrong`
    /// well formed with a value in `[0, 1)`; `malformed` value 0, not well
    /// formed; `cheating` and `timeout` value 0, well formed.
    pub fn consistent(&self) -> bool {
        let v = self.value;
        match self.verdict {
            Verdict::Ok => v == 1.0 && self.well_formed,
            Verdict::Wrong => (0.0..1.0).contains(&v) && self.well_formed,
            Verdict::Malformed => v == 0.0 && !self.well_formed,
            Verdict::Cheating | Verdict::Timeout => v == 0.0 && self.well_formed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn seeds_depend_on_every_coordinate() {
        let base = instance_seed(7, &["SET", "entailment", "1"], 0);
        assert_eq!(base, instance_seed(7, &["SET", "entailment", "1"], 0));
        assert_ne!(base, instance_seed(8, &["SET", "entailment", "1"], 0));
        assert_ne!(base, instance_seed(7, &["SET", "entailment", "2"], 0));
        assert_ne!(base, instance_seed(7, &["SET", "entailment", "1"], 1));
        assert_ne!(
            instance_seed(7, &["ab", "c"], 0),
            instance_seed(7, &["a", "bc"], 0)
        );
    }

    #[test]
    fn rng_stream_is_fixed() {
        // Pinned: a change here changes every dataset; bump the version if intended.
        assert_eq!(instance_seed(42, &["pl1"], 3), 8849609773819012137);
        let a: u64 = instance_rng(42, &["pl1"], 3).random();
        assert_eq!(a, instance_rng(42, &["pl1"], 3).random::<u64>());
    }

    #[test]
    fn verdicts_serialise_by_their_lowercase_names_and_agree_with_the_value() {
        let names: Vec<String> = Verdict::ALL
            .iter()
            .map(|v| serde_json::to_string(v).unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "\"ok\"",
                "\"wrong\"",
                "\"malformed\"",
                "\"cheating\"",
                "\"timeout\""
            ]
        );
        for v in Verdict::ALL {
            assert_eq!(
                serde_json::to_string(&v).unwrap(),
                format!("\"{}\"", v.name())
            );
        }
        let made = [
            (Score::correct(), Verdict::Ok),
            (Score::wrong("w"), Verdict::Wrong),
            (Score::partial(0.5, "half"), Verdict::Wrong),
            (Score::partial(1.0, "all"), Verdict::Ok),
            (Score::malformed("m"), Verdict::Malformed),
            (Score::cheating("c"), Verdict::Cheating),
            (Score::timeout("t"), Verdict::Timeout),
        ];
        for (s, v) in made {
            assert_eq!(s.verdict, v, "{s:?}");
            assert!(s.consistent(), "{s:?}");
        }
        // A verdict that contradicts the value is caught.
        let lie = Score {
            value: 0.0,
            ..Score::correct()
        };
        assert!(!lie.consistent());
        assert!(
            !Score {
                well_formed: false,
                ..Score::cheating("c")
            }
            .consistent()
        );
    }
}
