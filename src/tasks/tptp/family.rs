//! The TPTP task families (conjecture entailment, minimal premise
//! selection, proof reconstruction) on the shared abstraction
//! ([`crate::tasks::family`]): cells are (family, domain, level) with
//! slots; a slot tries up to `max_attempts` theorems (entailment's draws
//! refused before any prover call do not count, up to `max_draws` draws in
//! all; draw `a` of slot
//! `i` of a cell of `count` slots takes `a * count + i` of the cell's
//! seeded permutation of all the domain's usable theorems, over every axiom
//! file: [`theorem_order`]; entailment at an even true share pairs slots
//! 2j and 2j+1 on one draw sequence, so each theorem gives a True and a
//! False row), each certified by the worker's prover. The
//! saturation stage runs before, in `pipeline::tptp`, and hands over a
//! loader of the [`Graph`]s with [`TptpGenerator::set_loader`]: a domain's
//! graphs are read when the loop enters its cells and dropped when it
//! leaves them (cells are domain-major), so a run holds one domain's graphs
//! at a time.

use super::{Background, str_field, str_list};
use super::{
    Family, GENERATOR_VERSION, Graph, Reject, TasksConfig, Theorems, conclusion_formula, entail,
    recon, select, spread_by_premises, stepwise, theorem_order,
};
use crate::checker::{CheckProblem, Checked, check};
use crate::dataset::Record;
use crate::prover::{Prover, Verdict};
use crate::saturation::Params;
use crate::tasks::answer::AnswerShape;
use crate::tasks::audit::{AuditItem, ReaderAnswer};
use crate::tasks::error::BadValue;
use crate::tasks::error::{GeneratorError, RenderError};
use crate::tasks::family::{
    Attempt, Balance, BalanceRule, Built, Cell, ConfigInfo, Fill, Generator, RejectReason,
    ScoreContext, Seen, TaskFamily, Worker, certificate_json, metadata_json,
};
use crate::tasks::fault::{self, RejectEntry};
use crate::tasks::generation::{
    FamilyConfig, Generation, GridRow, MAX_COUNT, Section, SectionInfo, StageHook, cell_grid,
};
use crate::tasks::instance_rng;
use crate::tasks::{Score, TaskError};
use std::collections::BTreeMap;
use std::sync::{Arc, PoisonError, RwLock};

/// The TPTP families (static face).
pub struct TptpFamily;

/// The registered TPTP families.
pub static TPTP: TptpFamily = TptpFamily;

impl RejectReason for Reject {
    fn name(&self) -> &'static str {
        match self {
            Reject::TooShallow => "too_shallow",
            Reject::TooManyPremises => "too_many_premises",
            Reject::Unknown => "unknown",
            Reject::NoModel => "no_model",
            Reject::WrongLabel => "wrong_label",
            Reject::Degenerate => "degenerate",
            Reject::Inconsistent => "inconsistent",
            Reject::DistractorEntails => "distractor_entails",
            Reject::NoProofGraph => "no_proof_graph",
            Reject::StepNotCertified => "step_not_certified",
            Reject::NoDistractors => "no_distractors",
            Reject::UnmatchedPremises => "unmatched_premises",
            Reject::FewStartingPremises => "few_starting_premises",
            Reject::NotOneInference => "not_one_inference",
            Reject::RepeatedAnswer => "repeated_answer",
            Reject::HeldAnswer => "held_answer",
            Reject::Taken => "taken",
        }
    }
}

impl FamilyConfig for TasksConfig {
    const NAME: &'static str = "tptp";

    crate::rows_fields!();

    fn validate(&self) -> Result<(), BadValue> {
        let within = |key: &str, v: u64, lo: u64, hi: u64| {
            if v < lo || v > hi {
                Err(BadValue::new(
                    format!("tasks.tptp.{key}"),
                    format!("{v} is not in {lo}-{hi}"),
                ))
            } else {
                Ok(())
            }
        };
        within("pool_size", self.pool_size as u64, 1, MAX_COUNT)?;
        within("max_attempts", self.max_attempts.into(), 1, 1_000_000)?;
        within("max_draws", self.max_draws.into(), 1, 8_000_000)?;
        if !self.min_score.is_finite() {
            return Err(BadValue::new(
                "tasks.tptp.min_score",
                format!("{} is not a finite number", self.min_score),
            ));
        }
        for (name, m) in [
            ("entailment", &self.entailment),
            ("selection", &self.selection),
            ("reconstruction", &self.reconstruction),
        ] {
            for &d in &m.depth {
                within(&format!("{name}.depth"), d.into(), 1, 64)?;
            }
            for &k in &m.k {
                within(&format!("{name}.k"), k.into(), 0, 1_000)?;
            }
        }
        TasksConfig::validate(self)
    }

    fn prover_limits(&self) -> Option<&crate::prover::ProverLimits> {
        Some(&self.prover)
    }
}

/// The domain run (`saturate --domain`, `saturate generate tptp`): its
/// generator is built by the axiom-saturation stage.
pub struct TptpGeneration;

impl Generation for TptpGeneration {
    fn name(&self) -> &'static str {
        "tptp"
    }

    fn about(&self) -> &'static str {
        "the TPTP families (entailment, selection, reconstruction, derivation) from the saturated axiom files of --domain"
    }

    fn section(&self) -> SectionInfo {
        SectionInfo::of::<TasksConfig>()
    }

    fn title(&self, _: &dyn Section) -> String {
        "saturate TPTP tasks".into()
    }

    fn generators(
        &self,
        _: &dyn Section,
        _: u64,
    ) -> Result<Vec<Box<dyn Generator>>, GeneratorError> {
        Err(GeneratorError::Staged("TPTP"))
    }

    fn stage(&self) -> Option<StageHook> {
        Some(StageHook::AxiomSaturation)
    }
}

impl TaskFamily for TptpFamily {
    fn name(&self) -> &'static str {
        "tptp"
    }

    fn trace(
        &self,
        config: &str,
        metadata: &serde_json::Value,
        certificate: &serde_json::Value,
    ) -> Option<Vec<String>> {
        use crate::tasks::trace;
        match Family::from_config(config)? {
            Family::Entailment => trace::entailment(metadata, certificate),
            Family::Selection => trace::selection(metadata, certificate),
            Family::Reconstruction => trace::reconstruction(metadata, certificate),
            Family::Derivation => trace::derivation(metadata, certificate),
        }
    }

    fn configs(&self) -> Vec<ConfigInfo> {
        Family::ALL
            .into_iter()
            .map(|f| ConfigInfo {
                name: f.config(),
                description: f.description(),
            })
            .collect()
    }

    fn score(&self, row: &Record, answer: &str, ctx: &mut ScoreContext) -> Score {
        let Some(f) = Family::from_config(&row.task) else {
            return Score::malformed(format!("no TPTP task {}", row.task));
        };
        let meta = match metadata_json(row) {
            Ok(m) => m,
            Err(e) => return Score::malformed(format!("record {e}")),
        };
        let cert = certificate_json(row).unwrap_or_default();
        let r = match f {
            Family::Entailment => Ok(entail::score(&row.answer, answer)),
            Family::Selection => {
                select::score(&meta, &cert, answer, ctx.metrics.then_some(&mut ctx.prover))
            }
            Family::Reconstruction => {
                recon::score(&meta, &cert, answer, &mut ctx.prover, !ctx.metrics)
            }
            Family::Derivation => stepwise::score(&meta, answer),
        };
        r.unwrap_or_else(|e| Score::malformed(format!("record: {e}")))
    }

    fn verify(&self, row: &Record) -> Result<String, TaskError> {
        let f = Family::from_config(&row.task)
            .ok_or_else(|| TaskError::Record(format!("no TPTP task {}", row.task)))?;
        let meta = metadata_json(row)?;
        let cert = certificate_json(row)?;
        match f {
            Family::Entailment => {
                let verdict: Verdict = serde_json::from_value(cert)
                    .map_err(|e| TaskError::Record(format!("certificate: {e}")))?;
                let problem = CheckProblem {
                    axioms: str_list(&meta, "premises").map_err(TaskError::Record)?,
                    conjecture: Some(str_field(&meta, "theorem").map_err(TaskError::Record)?),
                };
                let checked =
                    check(&problem, &verdict).map_err(|e| TaskError::Rejected(e.to_string()))?;
                match (row.answer.as_str(), checked) {
                    ("True", Checked::Refutation { steps }) => {
                        Ok(format!("refutation of {steps} steps"))
                    }
                    ("False", Checked::Model { size }) => {
                        Ok(format!("countermodel of size {size}"))
                    }
                    (a, c) => Err(TaskError::Rejected(format!(
                        "label {a:?} is not established by {c:?}"
                    ))),
                }
            }
            Family::Selection => {
                select::verify(&meta, &cert, &row.answer).map_err(TaskError::Rejected)
            }
            Family::Reconstruction => {
                recon::verify(&meta, &cert, &row.answer).map_err(TaskError::Rejected)
            }
            Family::Derivation => {
                stepwise::verify(&meta, &cert, &row.answer).map_err(TaskError::Rejected)
            }
        }
    }

    fn audit_items(&self, row: &Record) -> Option<Result<Vec<AuditItem>, TaskError>> {
        let f = Family::from_config(&row.task)?;
        // A derivation's answer is a chain the prover checks step by step:
        // no class for a shallow reader to predict.
        if f == Family::Derivation {
            return None;
        }
        Some(metadata_json(row).and_then(|m| super::audit::items(f, &m, &row.answer)))
    }

    fn exploit_answers(&self, row: &Record) -> Vec<crate::tasks::audit::Exploit> {
        Family::from_config(&row.task).map_or_else(Vec::new, |f| super::exploits::answers(f, row))
    }

    fn audit_readers(&self, row: &Record) -> Option<Result<Vec<ReaderAnswer>, TaskError>> {
        let f = Family::from_config(&row.task)?;
        if f != Family::Reconstruction {
            return None;
        }
        match metadata_json(row) {
            Ok(m) => super::audit::readers(f, &m, &row.answer),
            Err(e) => Some(Err(e)),
        }
    }

    fn answer_shape(&self, config: &str) -> AnswerShape {
        match Family::from_config(config) {
            Some(Family::Entailment) => AnswerShape::Word,
            Some(Family::Selection) => AnswerShape::List,
            // The chain is found by its step labels (`stepwise::parse_chain`).
            Some(Family::Derivation) => AnswerShape::Text,
            Some(Family::Reconstruction) | None => AnswerShape::Lines,
        }
    }

    fn render_prompt(&self, row: &Record) -> Option<Result<String, RenderError>> {
        Some(render_prompt(row))
    }

    /// The theorem: its entailment rows (both labels), selection and
    /// reconstruction rows stay in one split.
    fn split_group(&self, row: &Record) -> Option<String> {
        let meta = metadata_json(row).ok()?;
        meta.get("theorem")?.as_str().map(|t| format!("tptp:{t}"))
    }
}

/// A TPTP row's prompt from its metadata: the domain, the background
/// axioms, the theorem, and the premises, pool or proof clauses.
fn render_prompt(row: &Record) -> Result<String, RenderError> {
    let f = Family::from_config(&row.task).ok_or_else(|| format!("no TPTP task {}", row.task))?;
    let meta = metadata_json(row)?;
    let domain = str_field(&meta, "domain")?;
    let context = Background::from_metadata(&meta)?;
    let theorem = str_field(&meta, "theorem")?;
    Ok(match f {
        Family::Entailment => {
            // A conclusion stated as a formula must be the theorem's closure.
            let formula = match meta.get("conclusion_formula") {
                None => None,
                Some(v) => {
                    let stored = v
                        .as_str()
                        .ok_or("metadata.conclusion_formula is not a string")?;
                    let expected = conclusion_formula(&theorem)?;
                    if stored != expected {
                        return Err(RenderError::Metadata(format!(
                            "metadata.conclusion_formula {stored:?} is not the theorem's closure {expected:?}"
                        )));
                    }
                    Some(expected)
                }
            };
            entail::render(
                &domain,
                &context,
                &str_list(&meta, "premises")?,
                &theorem,
                formula.as_deref(),
            )
        }
        Family::Selection => select::render(&domain, &context, &theorem, &str_list(&meta, "pool")?),
        Family::Reconstruction => recon::render(
            &domain,
            &context,
            &theorem,
            &str_list(&meta, "clauses")?,
            &recon::premise_indices(&meta)?,
        ),
        Family::Derivation => {
            stepwise::render(&domain, &context, &str_list(&meta, "premises")?, &theorem)
        }
    })
}

/// One `--domain` run's task generation.
pub struct TptpGenerator {
    /// The `[tasks.tptp]` settings.
    pub tasks: TasksConfig,
    /// The saturation parameters the prover inherits.
    pub saturation: Params,
    /// Run seed.
    pub seed: u64,
    /// Domains in output order.
    pub domains: Vec<String>,
    /// The run's settings for the manifest.
    pub manifest: serde_json::Value,
    /// Graphs with theorem candidates of the domain being generated.
    graphs: RwLock<BTreeMap<String, Arc<Vec<Graph>>>>,
    /// Reads a domain's graphs on demand (set after saturation).
    loader: Option<GraphLoader>,
    /// The card text (set after saturation).
    card: String,
}

/// Reads the graphs of one domain (in the run's file order), or says why it
/// cannot.
pub type GraphLoader = Box<dyn Fn(&str) -> Result<Vec<Graph>, String> + Send + Sync>;

impl TptpGenerator {
    /// A generator before its saturation stage.
    pub fn new(
        tasks: TasksConfig,
        saturation: Params,
        seed: u64,
        domains: Vec<String>,
        manifest: serde_json::Value,
    ) -> TptpGenerator {
        TptpGenerator {
            tasks,
            saturation,
            seed,
            domains,
            manifest,
            graphs: RwLock::new(BTreeMap::new()),
            loader: None,
            card: String::new(),
        }
    }

    /// Hands over a loader of each domain's graphs (those with an empty
    /// pool are skipped: no theorem can be drawn from them) and the card
    /// text: a domain's graphs are read when the loop enters its cells and
    /// dropped when it leaves them.
    pub fn set_loader(&mut self, loader: GraphLoader, card: String) {
        self.graphs
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        self.loader = Some(loader);
        self.card = card;
    }

    /// The graphs of `domain` with theorem candidates, read through the
    /// loader if they are not resident.
    fn domain_graphs(&self, domain: &str) -> Result<Arc<Vec<Graph>>, GeneratorError> {
        if let Some(g) = self
            .graphs
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(domain)
        {
            return Ok(g.clone());
        }
        let Some(loader) = &self.loader else {
            return Ok(Arc::new(Vec::new()));
        };
        let mut resident = self.graphs.write().unwrap_or_else(PoisonError::into_inner);
        if let Some(g) = resident.get(domain) {
            return Ok(g.clone());
        }
        let mut graphs = loader(domain).map_err(GeneratorError::Load)?;
        graphs.retain(|g| !g.pool.is_empty());
        let graphs = Arc::new(graphs);
        resident.insert(domain.to_string(), graphs.clone());
        Ok(graphs)
    }

    /// A worker's prover: the generation limits with the run's saturation
    /// parameters.
    fn new_prover(&self) -> Prover {
        let mut p = Prover::new(self.tasks.prover.clone());
        p.params = self.saturation.clone();
        p
    }

    fn sorted_families(&self) -> Vec<Family> {
        let mut f = self.tasks.families.clone();
        f.sort();
        f.dedup();
        f
    }

    fn fill(&self, family: Family) -> Fill {
        fill_of(&self.tasks, family)
    }
}

/// How a cell of `family` is filled. Selection's rows past the per-answer
/// limit are skipped as repeats: its cells walk on past `count`, up to
/// `selection_slots` times as many slots, so a skipped repeat does not leave
/// a row missing, and stop after `count` slots in a row without a row (the
/// rows held back for their lead are then offered once more): on the paper
/// layout at 50 rows per cell, ALG level 4 wrote its 8 rows by slot 14 and
/// read 200, and no other cell had 50 fruitless slots in a row. Reconstruction and derivation walk on up to
/// `reconstruction_slots` times `count`, so a slot whose `max_attempts`
/// draws all lack a proof graph of the level's size (two in three at SET
/// level 4), or whose graph repeats one already written, is made up by
/// another.
/// Entailment walks on up to twice `count`, its slots still paired (slots
/// 2j and 2j+1 make the same draws, so rows come as a True and a False row
/// of one theorem), and stops after `count` slots in a row without a row:
/// a pair whose draws all fail (`no_distractors` on a small theory) is made
/// up by a later pair, while a cell where nearly every draw fails costs no
/// more than before (the five embedded domains at count 50: 710 -> 768
/// rows, GEO levels 3-4, SET level 4 and TOP level 3 filled, 15.5 -> 20.5
/// CPU-s; FLD and ALG level 4 stay empty at their old cost). Slots below
/// `count` draw as before, so a cell that filled then is unchanged.
fn fill_of(tasks: &TasksConfig, family: Family) -> Fill {
    let count = tasks.count as u64;
    match family {
        Family::Selection => Fill::UntilFull {
            budget: count.saturating_mul(u64::from(tasks.selection_slots)),
            patience: Some(count),
        },
        Family::Reconstruction | Family::Derivation => Fill::UntilFull {
            budget: count.saturating_mul(u64::from(tasks.reconstruction_slots)),
            patience: None,
        },
        Family::Entailment => Fill::UntilFull {
            budget: count.saturating_mul(2),
            patience: Some(count),
        },
    }
}

/// How many times `count` a selection cell's rows, carried at their rate so
/// far, must come to for the cell to count as one that will fill
/// (`TptpGenerator::fills`).
const FILL_MARGIN: f64 = 1.5;

/// Most rows of a selection cell of `count` rows that may share one minimum
/// answer: `share` of them, rounded up, and at least 2.
fn answer_cap(share: f64, count: u64) -> u64 {
    ((share * count as f64).ceil() as u64).max(2)
}

impl TptpGenerator {
    /// [`short_entailment`] of `cell` over its domain's graphs.
    fn short_entailment(&self, cell: &Cell) -> bool {
        // The loop entered the group first, so this reads nothing.
        self.domain_graphs(&cell.group)
            .is_ok_and(|graphs| short_entailment(&graphs, &self.tasks, cell))
    }

    /// Whether a selection row with answer `answer` (its clauses' texts
    /// and canonical forms) gives the cell nothing: once the rows held back
    /// for their balance are offered again ([`Seen`] is the walk as it will
    /// stand then), its answer has `max_answer_share` of the cell's rows.
    /// Were the row held, it would be skipped; were it written now, it
    /// would take the place of a held row already built. Such rows were
    /// built in full and then skipped (GEO level 4 at 50 rows: 100 of 250
    /// built rows).
    fn skipped_answer(&self, cell: &Cell, seen: &Seen, answer: &select::Predicted) -> bool {
        seen.group_rows(&answer.group) >= answer_cap(self.tasks.max_answer_share, cell.count)
    }

    /// Whether a selection row with answer `answer`, made at slot `index`,
    /// gives the cell nothing but another row with a clause that already has
    /// more built rows than the cell can take: once the held rows are
    /// offered again ([`Seen::tally`]), a clause of it leads on the answer
    /// side by more than the hard lead (twice `max_answer_lead`) plus the
    /// rows the cell may still write, counting the held rows that would be
    /// skipped for it. Were this row held, it would wait behind them and be
    /// skipped (every row written later may list the clause as a distractor
    /// once, and each such row lets the first waiting one in). Without the
    /// check such rows were built in full, held, offered again and skipped
    /// (GEO levels 2-4 at 50 rows: 119; ALG level 2: 144).
    ///
    /// A row that the rows written so far would not hold
    /// ([`Seen::written_tally`]) would be written at its turn. Stopping it
    /// gives its clause's place to a held row already built, which pays on
    /// a cell that will fill ([`TptpGenerator::fills`]; GEO) but cost a cell
    /// short of answers rows (TOP level 3 at count 500: 445 -> 403). Such a
    /// row is stopped only on a cell that will fill. Not an exact
    /// prediction of the walk, so it is measured (`docs/bench/cost.md`):
    /// stopping only rows certain to be held and skipped saved nothing.
    fn held_answer(
        &self,
        cell: &Cell,
        index: u64,
        seen: &Seen,
        answer: &select::Predicted,
    ) -> bool {
        // The row's answer clauses, as the walk will balance them.
        let row = self.selection_balance(
            cell,
            answer.texts.iter().map(|t| (t.clone(), true)).collect(),
        );
        let held = row.over_by(|t| seen.written_tally(t), row.lead);
        if !held && !self.fills(cell, index, seen) {
            return false;
        }
        // Each row written may list the clause on the other side once.
        let room = self.hard_lead(cell) + cell.count.saturating_sub(seen.written());
        row.over_by(|t| seen.tally(t), room)
    }

    /// Whether a selection cell looks set to fill: the rows it has (held
    /// rows within their lead included), carried at their rate per slot so
    /// far to the end of its slots, come to [`FILL_MARGIN`] times `count`.
    /// Early strides make rows faster than late ones on a cell short of
    /// answers (at once `count`, TOP level 3 at count 500 still lost 42
    /// rows), hence the margin.
    fn fills(&self, cell: &Cell, index: u64, seen: &Seen) -> bool {
        let start = index - index % crate::tasks::family::SEEN_STRIDE;
        if start == 0 {
            return false;
        }
        let budget = cell
            .count
            .saturating_mul(u64::from(self.tasks.selection_slots));
        let written = seen.written() as f64;
        let projected = written + written / start as f64 * budget.saturating_sub(start) as f64;
        projected >= FILL_MARGIN * cell.count as f64
    }

    /// How far a clause of a selection cell may be on the answer side more
    /// often than on the other before its row is held back.
    fn answer_lead(&self, cell: &Cell) -> u64 {
        ((self.tasks.max_answer_lead * cell.count as f64).ceil() as u64).max(4)
    }

    /// How many rows past [`TptpGenerator::answer_lead`] the walk (its
    /// held rows included) has `text` on the answer side: a row needing it
    /// is held back (0 when one would not be).
    fn answer_excess(&self, cell: &Cell, seen: &Seen, text: &str) -> u64 {
        Balance::past_lead(seen.tally(text), self.answer_lead(cell))
    }

    /// The lead a selection cell allows in its lenient slots: a held row
    /// past it is skipped for good.
    fn hard_lead(&self, cell: &Cell) -> u64 {
        2 * self.answer_lead(cell)
    }

    /// The balance of a selection row whose pool clauses are `items`, each
    /// with its side (`true`: in the answer).
    fn selection_balance(&self, cell: &Cell, items: Vec<(String, bool)>) -> Balance {
        Balance {
            lead: self.answer_lead(cell),
            items,
            rule: BalanceRule::AnswerSideHeld {
                hard: self.hard_lead(cell),
            },
        }
    }
}

impl Generator for TptpGenerator {
    fn family(&self) -> &dyn TaskFamily {
        &TPTP
    }

    fn version(&self) -> &'static str {
        GENERATOR_VERSION
    }

    fn cells(&self) -> Vec<Cell> {
        let families = self.sorted_families();
        let rows = self.domains.iter().flat_map(|d| {
            families.iter().map(move |f| GridRow {
                config: f.config(),
                group: d.clone(),
                tag: *f as usize,
                fill: self.fill(*f),
            })
        });
        cell_grid(rows, &self.tasks.levels, self.tasks.count as u64)
    }

    fn new_worker(&self) -> Worker {
        Worker::Prover(Box::new(self.new_prover()))
    }

    fn max_per_group(&self, cell: &Cell) -> Option<u64> {
        (Family::from_config(cell.config) == Some(Family::Selection))
            .then(|| answer_cap(self.tasks.max_answer_share, cell.count))
    }

    fn balanced_items(&self, cell: &Cell, index: u64, built: &Built) -> Option<Balance> {
        let share = |s: f64, min: u64| ((s * cell.count as f64).ceil() as u64).max(min);
        match Family::from_config(cell.config)? {
            Family::Selection => {
                let pool = super::str_list(built.metadata.as_value()?, "pool").ok()?;
                let answer = super::select::parse_answer(&built.answer, pool.len()).ok()?;
                let items = pool
                    .into_iter()
                    .enumerate()
                    .map(|(i, text)| (text, answer.contains(&(i + 1))))
                    .collect();
                Some(self.selection_balance(cell, items))
            }
            // A paired False row (slot 2j) stands for its pair: the
            // premises it replaced are in the True row (slot 2j + 1) only,
            // its replacements in the False row only, and the rest in
            // both. The True row adds nothing of its own; it is skipped
            // with its False row.
            Family::Entailment if self.tasks.true_share == 0.5 && index % 2 == 0 => {
                let mut items = Vec::new();
                for pair in built.metadata.as_value()?.get("replaced")?.as_array()? {
                    let [old, new] = pair.as_array()?.as_slice() else {
                        return None;
                    };
                    items.push((old.as_str()?.to_string(), true));
                    items.push((new.as_str()?.to_string(), false));
                }
                Some(Balance {
                    lead: share(self.tasks.max_premise_lead, 3),
                    items,
                    rule: BalanceRule::BothSidesSkipped {
                        partner: Some(index + 1),
                    },
                })
            }
            _ => None,
        }
    }

    fn build(&self, cell: &Cell, index: u64, worker: &mut Worker) -> Attempt {
        self.build_seeing(cell, index, worker, &Seen::default())
    }

    fn sees_walk(&self, cell: &Cell) -> bool {
        match Family::from_config(cell.config) {
            Some(Family::Selection) => true,
            Some(Family::Entailment) => self.short_entailment(cell),
            _ => false,
        }
    }

    fn sees_keys(&self, cell: &Cell) -> bool {
        Family::from_config(cell.config) == Some(Family::Entailment) && self.short_entailment(cell)
    }

    fn build_seeing(&self, cell: &Cell, index: u64, worker: &mut Worker, seen: &Seen) -> Attempt {
        let prover = worker.prover(|| self.new_prover());
        let Some(family) = Family::from_config(cell.config) else {
            return Attempt::rejected(&Reject::Degenerate);
        };
        // The loop entered the group first, so this reads nothing; a
        // failure here would be a loader that failed once and not before.
        let graphs = match self.domain_graphs(&cell.group) {
            Ok(g) => g,
            Err(e) => panic!("graphs of {}: {e}", cell.group),
        };
        let graphs = &graphs[..];
        if graphs.is_empty() {
            return Attempt::rejected(&Reject::TooShallow);
        }
        let cfg = &self.tasks;
        let mut out = Attempt::default();
        let want_true = {
            let s = cfg.true_share;
            ((index + 1) as f64 * s).floor() > (index as f64 * s).floor()
        };
        // Entailment at an even share pairs its slots: slots 2j (False) and
        // 2j+1 (True) make the same draws with the same random stream, so
        // every attempt builds the same instance for both and each keeps
        // its own version. Every theorem then gives one True and one False
        // row (a minimal pair), and nothing about the theorem, its file or
        // its premises' look can stand in for the label. Other families,
        // and other shares, draw per slot.
        let paired = family == Family::Entailment && cfg.true_share == 0.5;
        let (unit, units) = if paired {
            (index / 2, cell.count.div_ceil(2))
        } else {
            (index, cell.count)
        };
        let level = cell.level.to_string();
        // Every family needs premises at distance d (a binary proof graph
        // of depth d has a premise path of length d at least).
        let reach = cfg.params(family, cell.level).0;
        let mut order = theorem_order(
            graphs,
            self.seed,
            &cell.group,
            &[family.name(), &level],
            reach,
        );
        if matches!(family, Family::Entailment | Family::Selection) {
            // Only theorems with at most `max_premises` premises at the
            // level's depth: the others are refused `too_many_premises`
            // before any prover call, and took 944 of ALG level 2's 1,323
            // selection draws, draws the feasible theorems never got.
            let fits: Vec<_> = graphs.iter().map(|g| g.fits_premises(reach)).collect();
            order.retain(|&(gi, ti)| fits[gi][ti]);
        }
        // The theorems past the pools a short cell also draws
        // ([`wider_order`]), those that `usable` flags.
        let wider = |usable: &dyn Fn(&Graph) -> std::sync::Arc<Vec<bool>>| {
            wider_order(graphs, self.seed, &cell.group, family, &level, usable)
        };
        let short = family == Family::Entailment && short_entailment(graphs, cfg, cell);
        if family == Family::Entailment {
            // A cell whose pools hold fewer theorems a False row could
            // perturb at all ([`Graph::perturbable_estimate`]) than four
            // times its count also draws on past the pool, as
            // reconstruction does: a theorem gives at most a pair of rows,
            // and few pairs certify on those cells (FLD level 4: 7 pairs
            // from the pool's 59 such theorems; TOP level 4: 17 from 80).
            // Such a cell draws only theorems a False row perturbs
            // ([`Graph::perturbable`]), in the pool and past it: the others
            // are refused before any prover call, but each such draw is one
            // of the slot's `max_draws`, and a slot whose draws run out
            // takes a theorem another slot had (FLD level 4: 4,092 refused
            // draws, 44 duplicates, 40 rows of 50).
            let (d, k) = cfg.params(family, cell.level);
            if short {
                let able: Vec<_> = graphs
                    .iter()
                    .map(|g| g.perturbable(d, k, Theorems::Pool))
                    .collect();
                order.retain(|&(gi, ti)| able[gi][ti]);
                order.extend(wider(&|g: &Graph| g.perturbable(d, k, Theorems::More)));
            }
        }
        if family == Family::Selection {
            order = spread_by_premises(graphs, order, reach);
        }
        if matches!(family, Family::Reconstruction | Family::Derivation) {
            // Only theorems a proof graph of the level's size can be cut
            // from: on TOP level 4, 34 of 946 draws could, and the rest
            // were refused as `no_proof_graph` one by one.
            let (d, n) = cfg.params(family, cell.level);
            let nodes = recon::min_nodes(n);
            let cuttable: Vec<_> = graphs.iter().map(|g| g.cuttable(d, nodes)).collect();
            order.retain(|&(gi, ti)| cuttable[gi][ti]);
            if order.len() < wide_below(cell.count) {
                order.extend(wider(&|g: &Graph| g.cuttable_more(d, nodes)));
            }
        }
        if order.is_empty() {
            // A short entailment cell with theorems deep enough, none of
            // which a False row perturbs, says so.
            let deep = short
                && graphs
                    .iter()
                    .any(|g| g.fits_premises(reach).iter().any(|&f| f));
            return Attempt::rejected(if deep {
                &Reject::NoDistractors
            } else {
                &Reject::TooShallow
            });
        }
        // Selection's notes for later slots ([`Attempt::notes`]).
        let mut notes: Vec<(String, String)> = Vec::new();
        // Entailment's draws refused before any prover call ([`free_reject`])
        // do not use up the slot's `max_attempts`; `max_draws` bounds them
        // all. Both slots of a pair meet the same refusals (they come before
        // the label decides anything), so they keep drawing alike.
        let max_draws = if family == Family::Entailment {
            u64::from(cfg.max_draws.max(cfg.max_attempts))
        } else {
            u64::from(cfg.max_attempts)
        };
        let mut attempts = 0u64;
        for attempt in 0..max_draws {
            if attempts >= u64::from(cfg.max_attempts) {
                break;
            }
            attempts += 1;
            // This draw's CPU, for `--cost-json` ([`Attempt::reject_timed`]).
            let draw_cpu = crate::prover::cost::now();
            // Draw a of slot (or pair) i takes draw a * count + i: the
            // first draws of all slots take distinct theorems (while the
            // cell has that many), and so do the second ones, and so on.
            let draw = attempt * units + unit;
            let (gi, ti) = order[(draw % order.len() as u64) as usize];
            let g = &graphs[gi];
            let t = g.theorem(ti);
            if short && entail::taken(g, t.id, seen) {
                // A theorem an earlier stride's slot made rows of: its row
                // would be a duplicate, so the slot draws again, as after
                // any draw refused before a prover call.
                out.reject_timed(Reject::Taken.name(), crate::prover::cost::secs(draw_cpu));
                attempts -= u64::from(free_reject(family, Reject::Taken));
                continue;
            }
            let attempt_s = attempt.to_string();
            let where_ = format!("{} attempt {attempt} ({})", cell.id(index), g.name);
            let mut rng = instance_rng(
                self.seed,
                &[&cell.group, &g.name, family.name(), &level, &attempt_s],
                unit,
            );
            // The prover's cache key holds its limits.
            let full = prover.limits.clone();
            prover.limits.max_model_size =
                attempt_model_size(family, attempts, cfg.max_attempts, &full);
            let caught = fault::catch(|| match family {
                Family::Entailment => {
                    entail::generate(g, t, prover, cfg, cell.level, want_true, &mut rng)
                }
                Family::Selection => {
                    let mut walk = select::Walk {
                        repeated: &|answer| self.skipped_answer(cell, seen, answer),
                        held: &|answer| self.held_answer(cell, index, seen, answer),
                        earlier: &|key| seen.notes(key).to_vec(),
                        leading: &|text| self.answer_excess(cell, seen, text),
                        learned: Vec::new(),
                    };
                    let r = select::generate(g, t, prover, cfg, cell.level, &mut rng, &mut walk);
                    notes.append(&mut walk.learned);
                    r
                }
                Family::Reconstruction => recon::generate(g, t, prover, cfg, cell.level, &mut rng),
                Family::Derivation => stepwise::generate(g, t, prover, cfg, cell.level, &mut rng),
            });
            prover.limits = full;
            let r = match caught {
                Err(panic) => {
                    // The prover may be mid-update: start the worker afresh.
                    *prover = self.new_prover();
                    out.reject_timed("generator_panic", crate::prover::cost::secs(draw_cpu));
                    out.bugs.push(RejectEntry::from_panic(where_, panic));
                    continue;
                }
                Ok(r) => r,
            };
            let defects = prover.take_defects();
            if !defects.is_empty() {
                // No label may rest on an attempt that met a refused
                // certificate. A fresh prover keeps the refused problem's
                // cached `Unknown` from other slots, so the rejects do not
                // depend on scheduling.
                *prover = self.new_prover();
                out.reject_timed("certificate_failure", crate::prover::cost::secs(draw_cpu));
                out.bugs.extend(
                    defects
                        .into_iter()
                        .map(|d| RejectEntry::from_defect(where_.clone(), d)),
                );
                continue;
            }
            match r {
                Ok(b) => {
                    let difficulty = g.difficulty(t.id, &b);
                    out.built = Some(Built {
                        prompt: b.prompt,
                        answer: b.answer,
                        metadata: b.metadata.into(),
                        certificate: b.certificate.to_string(),
                        key: b.key,
                        group: b.group,
                        label: b.label,
                        domain: Some(cell.group.clone()),
                        source: Some(g.name.clone()),
                        difficulty,
                        stats: vec![("prover_processed", b.prover_processed as f64)],
                    });
                    out.notes = notes;
                    return out;
                }
                Err(e) => {
                    out.reject_timed(e.name(), crate::prover::cost::secs(draw_cpu));
                    if free_reject(family, e) {
                        attempts -= 1;
                    }
                    // The row the walk would skip ends the slot, as its
                    // build would have: another draw would be an attempt
                    // the slot did not make before, and on a cell short of
                    // answers most draws are repeats, failing at their
                    // other costs (TOP level 4 drawing on: 3.6 times the
                    // CPU for the same rows).
                    if e == Reject::RepeatedAnswer || e == Reject::HeldAnswer {
                        out.held = e == Reject::HeldAnswer;
                        break;
                    }
                }
            }
        }
        out.notes = notes;
        out
    }

    fn manifest(&self) -> serde_json::Value {
        self.manifest.clone()
    }

    fn card(&self) -> String {
        self.card.clone()
    }

    fn enter_group(&self, group: &str) -> Result<(), GeneratorError> {
        self.domain_graphs(group).map(|_| ())
    }

    fn leave_group(&self, group: &str) {
        self.graphs
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(group);
    }
}

/// Whether an entailment cell's pools hold fewer theorems a False row
/// could perturb ([`Graph::perturbable_estimate`]) than four times its
/// count: such a cell draws only theorems a False row perturbs, in the
/// pools and past them, and its slots skip the theorems earlier strides
/// made rows of ([`Seen::has_key`]).
fn short_entailment(graphs: &[Graph], cfg: &TasksConfig, cell: &Cell) -> bool {
    let (d, k) = cfg.params(Family::Entailment, cell.level);
    let estimate: f64 = graphs.iter().map(|g| g.perturbable_estimate(d, k)).sum();
    estimate < 4.0 * cell.count as f64
}

/// The largest countermodel the `attempts`-th attempt (1-based) of a slot
/// of `family` searches, under the worker prover's `limits`.
///
/// Selection: the first half of a slot's attempts search only up to the
/// quick size (`quick_model_size`), the rest up to `max_model_size`: a
/// theorem whose certificate needs a larger model is left for when the
/// cheaper ones have failed. Models above size 4 were 1 of 1,350 found in
/// selection's searches on SET and GEO levels 3-4, and undecided searches
/// to size 6 cost 0.06-0.15 s each, most of a cell's undecided time.
///
/// Entailment's False side keeps to the quick size in every attempt. Its
/// second-half searches to size 6 gave 4 of the 8,298 rows of the paper
/// layout at count 500 (two ALG level 4 pairs), and on the cells that run
/// out of theorems they were nearly all the CPU, since a slot that gives
/// up makes them in each of its late attempts: GEO level 3 spent 350 of
/// its 358 CPU-s there, in SAT propagation over grounded betweenness and
/// equidistance relations, and found no model above size 3. At the quick
/// size it wrote the same 354 rows in 48.6 CPU-s; ALG level 4 wrote 136
/// rows instead of 140, in 67 CPU-s instead of 125.
///
/// The other families search up to `max_model_size`.
fn attempt_model_size(
    family: Family,
    attempts: u64,
    max_attempts: u32,
    limits: &crate::prover::ProverLimits,
) -> u32 {
    let quick = limits.max_model_size.min(limits.quick_model_size);
    match family {
        Family::Entailment => quick,
        Family::Selection if attempts <= u64::from(max_attempts / 2) => quick,
        _ => limits.max_model_size,
    }
}

/// Whether a refused draw cost no prover call, so that it does not use up
/// one of the slot's `max_attempts` (`max_draws` bounds such draws): an
/// entailment draw whose premises no replacement fits (`no_distractors`) or
/// that has no usable premise set, all refused in [`entail::generate`]
/// before either version is certified, or whose theorem an earlier stride
/// made rows of (`taken`, refused before [`entail::generate`]).
fn free_reject(family: Family, e: Reject) -> bool {
    family == Family::Entailment
        && matches!(
            e,
            Reject::NoDistractors | Reject::TooShallow | Reject::TooManyPremises | Reject::Taken
        )
}

/// A reconstruction or derivation cell whose pool holds fewer theorems a
/// graph of its size can be cut from than half its rows also draws from
/// the candidates after the pool ([`wider_order`]). Each such theorem gave
/// about 2.6 distinct rows on ALG level 3 (29 rows from 11 theorems, the
/// rest refused as repeats), so half the rows' worth of theorems is where
/// a cell starts to repeat itself.
fn wide_below(count: u64) -> usize {
    usize::try_from(count.div_ceil(2)).unwrap_or(usize::MAX)
}

/// The theorems after the pools ([`Graph::more`]) that `usable` flags (per
/// theorem of `more`: a graph of the level's size can be cut from it,
/// [`Graph::cuttable_more`], or a False row could perturb its premises,
/// [`Graph::perturbable`]), as (graph, [`Graph::theorem`] index), in a
/// seeded order of their own: appended to a cell's draw order, so
/// its first draws still take the pool's theorems, best-ranked sets first.
fn wider_order(
    graphs: &[Graph],
    seed: u64,
    group: &str,
    family: Family,
    level: &str,
    usable: impl Fn(&Graph) -> std::sync::Arc<Vec<bool>>,
) -> Vec<(usize, usize)> {
    let coords = [group, family.name(), level, "more"];
    super::graph::seeded_order(graphs, seed, &coords, |g| {
        let flags = usable(g);
        let base = g.pool.len();
        (0..g.more().len())
            .filter(|&j| flags[j])
            .map(|j| base + j)
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::super::testing::{SETS, graph};
    use super::super::{ConclusionForm, conclusion_formula};
    use super::*;
    use std::collections::HashSet;

    /// A graph of [`SETS`] with a pool of `pool_size` candidates.
    fn graph_pooled(pool_size: usize) -> Graph {
        let s = crate::interest::tests::run(SETS, 600);
        let r = crate::interest::rank(&s.bank, &s.store);
        let cfg = TasksConfig {
            pool_size,
            ..TasksConfig::default()
        };
        Graph::new(s.bank, s.store, r, "TST", "t", &cfg, false)
    }

    /// Entailment searches countermodels to the quick size in every
    /// attempt; selection in the first half of a slot's attempts, then to
    /// the largest size; reconstruction always to the largest size; and no
    /// family goes past `max_model_size`.
    #[test]
    fn attempts_search_models_to_the_quick_size_where_larger_ones_pay_nothing() {
        let limits = crate::prover::ProverLimits {
            quick_model_size: 4,
            max_model_size: 6,
            ..crate::prover::ProverLimits::default()
        };
        for a in 1..=12 {
            assert_eq!(attempt_model_size(Family::Entailment, a, 12, &limits), 4);
            let selection = if a <= 6 { 4 } else { 6 };
            assert_eq!(
                attempt_model_size(Family::Selection, a, 12, &limits),
                selection
            );
            assert_eq!(
                attempt_model_size(Family::Reconstruction, a, 12, &limits),
                6
            );
        }
        let small = crate::prover::ProverLimits {
            quick_model_size: 4,
            max_model_size: 3,
            ..crate::prover::ProverLimits::default()
        };
        for f in [
            Family::Entailment,
            Family::Selection,
            Family::Reconstruction,
        ] {
            assert_eq!(attempt_model_size(f, 1, 12, &small), 3);
            assert_eq!(attempt_model_size(f, 12, 12, &small), 3);
        }
    }

    /// A short entailment cell's wider draws are the theorems after the
    /// pool that a False row could perturb, in a fixed order; the pool's
    /// estimate is exact on a pool no larger than the sample, and a wide
    /// pool's estimate stays within the theorems it could count.
    #[test]
    fn short_entailment_cells_draw_perturbable_theorems_past_the_pool() {
        let narrow = graph_pooled(30);
        let (d, k) = (2, 3);
        let weights = narrow.swap_weights(d, k);
        let order = |g: &Graph| {
            wider_order(
                std::slice::from_ref(g),
                3,
                "TST",
                Family::Entailment,
                "2",
                |g| g.perturbable(d, k, Theorems::More),
            )
        };
        let drawn = order(&narrow);
        assert!(!drawn.is_empty());
        assert_eq!(drawn, order(&narrow));
        let mut able_after = 0;
        for (j, t) in narrow.more().iter().enumerate() {
            let able = entail::perturbs(&narrow, t.id, d, k, &weights);
            able_after += usize::from(able);
            let i = narrow.pool.len() + j;
            assert_eq!(drawn.contains(&(0, i)), able, "{}", narrow.text(t.id));
        }
        assert_eq!(drawn.len(), able_after);
        // At most PERTURB_SAMPLE fitting theorems: every one is tested.
        let fits = narrow.fits_premises(d);
        assert!(fits.iter().filter(|&&f| f).count() <= super::super::PERTURB_SAMPLE);
        let exact = narrow
            .pool
            .iter()
            .zip(fits.iter())
            .filter(|&(t, &f)| f && entail::can_perturb(&narrow, t.id, d, k, &weights))
            .count();
        assert_eq!(narrow.perturbable_estimate(d, k), exact as f64);
        let wide = graph_pooled(400);
        let fitting = wide.fits_premises(d).iter().filter(|&&f| f).count();
        let estimate = wide.perturbable_estimate(d, k);
        assert!(
            estimate > 0.0 && estimate <= fitting as f64,
            "{estimate} of {fitting}"
        );
    }

    /// A reconstruction cell whose pool holds fewer theorems a graph of its
    /// size can be cut from than half its rows draws past the pool, on the
    /// ranking's next candidates ([`Graph::more`]): the pool is what it
    /// was, `more` its continuation, the wider draws are cuttable theorems
    /// after the pool in a fixed order, and the cell's rows then come from
    /// them too and verify; a cell of two rows, which its pool fills, never
    /// reads past it.
    #[test]
    fn short_reconstruction_cells_draw_past_the_pool() {
        let ids = |v: &[crate::interest::Scored]| v.iter().map(|t| t.id).collect::<Vec<_>>();
        let narrow = graph_pooled(6);
        let wide = graph_pooled(48);
        assert_eq!(narrow.pool.len(), 6);
        assert!(!narrow.more().is_empty());
        let mut both = ids(&narrow.pool);
        both.extend(ids(narrow.more()));
        assert_eq!(
            both,
            ids(&wide.pool)[..both.len()],
            "pool, then its continuation"
        );
        let (d, nodes) = (2, recon::min_nodes(8));
        let order = wider_order(
            std::slice::from_ref(&narrow),
            3,
            "TST",
            Family::Reconstruction,
            "2",
            |g| g.cuttable_more(d, nodes),
        );
        assert!(!order.is_empty());
        assert_eq!(
            order,
            wider_order(
                std::slice::from_ref(&narrow),
                3,
                "TST",
                Family::Reconstruction,
                "2",
                |g| g.cuttable_more(d, nodes)
            )
        );
        for &(gi, ti) in &order {
            assert_eq!(gi, 0);
            assert!(ti >= narrow.pool.len());
            assert!(recon::can_cut(
                &narrow.store,
                narrow.theorem(ti).id,
                d,
                nodes
            ));
        }
        let from_more: HashSet<String> = narrow.more().iter().map(|t| t.id.to_string()).collect();
        let rows = |count: usize| {
            let tasks = TasksConfig {
                pool_size: 6,
                count,
                ..TasksConfig::default()
            };
            let mut generator = TptpGenerator::new(
                tasks.clone(),
                Params::default(),
                3,
                vec!["TST".into()],
                serde_json::json!({}),
            );
            generator.set_loader(Box::new(|_| Ok(vec![graph_pooled(6)])), String::new());
            let cell = Cell {
                config: Family::Reconstruction.config(),
                group: "TST".into(),
                level: 2,
                count: count as u64,
                fill: fill_of(&tasks, Family::Reconstruction),
                tag: 0,
            };
            let mut worker = Worker::default();
            (0..count as u64)
                .filter_map(|i| generator.build(&cell, i, &mut worker).built)
                .map(|b| {
                    let crate::tasks::family::Metadata::Value(meta) = &b.metadata else {
                        panic!("TPTP metadata is a value")
                    };
                    let cert: serde_json::Value = serde_json::from_str(&b.certificate).unwrap();
                    recon::verify(meta, &cert, &b.answer).expect("the row verifies");
                    meta["theorem_id"].as_str().unwrap().to_string()
                })
                .collect::<Vec<String>>()
        };
        let many = rows(24);
        assert!(many.iter().any(|t| from_more.contains(t)), "{many:?}");
        let two = rows(2);
        assert!(!two.is_empty());
        assert!(two.iter().all(|t| !from_more.contains(t)), "{two:?}");
    }

    /// Selection's theorem order is the cell's permutation with every
    /// premise set's first theorem before any set's second: the same
    /// theorems, none lost, and no premise set drawn twice while another
    /// waits.
    #[test]
    fn selection_draws_each_premise_set_before_any_again() {
        let graphs = vec![graph(SETS, 400)];
        let d = 2;
        let order = theorem_order(&graphs, 7, "SET", &["premise_selection", "2"], d);
        let spread = spread_by_premises(&graphs, order.clone(), d);
        let mut a = order.clone();
        let mut b = spread.clone();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "a permutation of the same theorems");
        let keys = graphs[0].premise_keys(d);
        let distinct: HashSet<u64> = order.iter().map(|&(_, t)| keys[t]).collect();
        assert!(
            distinct.len() > 1 && distinct.len() < order.len(),
            "{}",
            distinct.len()
        );
        let firsts: HashSet<u64> = spread[..distinct.len()]
            .iter()
            .map(|&(_, t)| keys[t])
            .collect();
        assert_eq!(firsts.len(), distinct.len(), "each set once first");
        assert_ne!(order, spread);
    }

    /// Selection cells may use `selection_slots` slots per requested row,
    /// reconstruction and derivation `reconstruction_slots`, entailment two;
    /// selection and entailment stop after `count` fruitless slots in a row.
    /// Both knobs are refused outside 1-1000.
    #[test]
    fn cells_draw_on_up_to_their_slot_budget() {
        let cfg = TasksConfig {
            count: 50,
            selection_slots: 4,
            reconstruction_slots: 3,
            ..TasksConfig::default()
        };
        assert_eq!(
            fill_of(&cfg, Family::Selection),
            Fill::UntilFull {
                budget: 200,
                patience: Some(50)
            }
        );
        for f in [Family::Reconstruction, Family::Derivation] {
            assert_eq!(
                fill_of(&cfg, f),
                Fill::UntilFull {
                    budget: 150,
                    patience: None
                }
            );
        }
        assert_eq!(
            fill_of(&cfg, Family::Entailment),
            Fill::UntilFull {
                budget: 100,
                patience: Some(50)
            }
        );
        assert_eq!(TasksConfig::default().reconstruction_slots, 8);
        for (bad, key) in [
            (
                TasksConfig {
                    selection_slots: 0,
                    ..TasksConfig::default()
                },
                "tasks.tptp.selection_slots",
            ),
            (
                TasksConfig {
                    reconstruction_slots: 0,
                    ..TasksConfig::default()
                },
                "tasks.tptp.reconstruction_slots",
            ),
            (
                TasksConfig {
                    reconstruction_slots: 1001,
                    ..TasksConfig::default()
                },
                "tasks.tptp.reconstruction_slots",
            ),
            (
                TasksConfig {
                    max_draws: 11,
                    ..TasksConfig::default()
                },
                "tasks.tptp.max_draws",
            ),
        ] {
            assert_eq!(bad.validate().unwrap_err().key, key);
        }
    }

    /// An entailment row whose conclusion is stated as a formula re-renders
    /// from its metadata, and a formula that is not the theorem's closure
    /// is refused by the re-render (so `verify` names the row).
    #[test]
    fn formula_conclusions_render_again_and_are_checked() {
        let g = graph(SETS, 600);
        let cfg = TasksConfig {
            conclusion: ConclusionForm::Formula,
            ..TasksConfig::default()
        };
        let mut prover = Prover::new(crate::prover::ProverLimits::default());
        let built = (0..40u64)
            .find_map(|i| {
                let mut rng = crate::tasks::instance_rng(5, &["f"], i);
                let t = &g.pool[i as usize % g.pool.len()];
                entail::generate(&g, t, &mut prover, &cfg, 1, i % 2 == 0, &mut rng).ok()
            })
            .expect("an entailment instance");
        let formula = built.metadata["conclusion_formula"].as_str().unwrap();
        let theorem = built.metadata["theorem"].as_str().unwrap();
        assert_eq!(formula, conclusion_formula(theorem).unwrap());
        assert!(built.prompt.contains(formula));
        assert!(!built.prompt.contains("\nConclusion:\n"));
        let mut row = Record {
            id: "x".into(),
            task: "conjecture_entailment".into(),
            domain: Some("TST".into()),
            source: None,
            level: Some(1),
            prompt: built.prompt.clone(),
            answer: built.answer.clone(),
            completion: built.answer.clone(),
            trace: None,
            metadata: built.metadata.to_string(),
            certificate: built.certificate.to_string(),
        };
        assert_eq!(render_prompt(&row).unwrap(), built.prompt);
        let mut meta = built.metadata.clone();
        meta["conclusion_formula"] = "! [X0] : (member(X0,X0))".into();
        row.metadata = meta.to_string();
        let err = render_prompt(&row).unwrap_err();
        assert!(
            err.to_string().contains("not the theorem's closure"),
            "{err}"
        );
    }
}
