//! Serialised forms of an EQ proof: [`ProofData`], the self-contained,
//! name-based instance data stored in each record's metadata (what scorers
//! reload), and [`PaperRecord`], ProofGrid's EQ1 record layout (seed 000
//! appendix C; spec `pl_eq.md` §5.5) with its field names kept, so users of
//! the original data can switch.

use crate::equational::corrupt::Corruption;
use crate::equational::generate::Proof;
use crate::equational::lang::{Equation, World, dewey};
use crate::equational::step::Witness;
use crate::logic::TermId;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde::{Deserialize, Serialize as DeriveSerialize};

/// A JSON object whose keys keep their insertion order (`E1, E2, ..., E10`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OrderedMap(pub Vec<(String, String)>);

impl Serialize for OrderedMap {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// A proof as names and strings: equations `[name, "L = R"]`, the terms
/// s0..sn, and the cited equation names of each step (`citations[0] = []`).
#[derive(Clone, Debug, PartialEq, DeriveSerialize, Deserialize)]
pub struct ProofData {
    /// `[name, "L = R"]` in order.
    pub equations: Vec<[String; 2]>,
    /// s0..sn, printed.
    pub terms: Vec<String>,
    /// Cited equation names per step.
    pub citations: Vec<Vec<String>>,
}

/// A [`ProofData`] parsed back into a term bank.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// Terms and variable names.
    pub world: World,
    /// The equations.
    pub eqs: Vec<Equation>,
    /// s0..sn.
    pub terms: Vec<TermId>,
    /// Cited equation indices per step.
    pub citations: Vec<Vec<usize>>,
}

impl Loaded {
    /// The index of the equation with this name.
    pub fn eq_index(&self, name: &str) -> Option<usize> {
        self.eqs.iter().position(|e| e.name == name.trim())
    }

    /// Every equation index, in order.
    pub fn all_eqs(&self) -> Vec<usize> {
        (0..self.eqs.len()).collect()
    }
}

impl ProofData {
    /// The data of a generated proof.
    pub fn from_proof(p: &Proof) -> ProofData {
        ProofData {
            equations: p
                .equations
                .iter()
                .map(|e| [e.name.clone(), p.world.show_equation(e)])
                .collect(),
            terms: p.terms.iter().map(|&t| p.world.show(t)).collect(),
            citations: p
                .citations
                .iter()
                .map(|c| c.iter().map(|&e| p.equations[e].name.clone()).collect())
                .collect(),
        }
    }

    /// Parses everything back; an error names the offending part.
    pub fn load(&self) -> Result<Loaded, String> {
        let mut world = World::new();
        let mut eqs = Vec::new();
        for [name, text] in &self.equations {
            eqs.push(
                world
                    .parse_equation(name, text)
                    .map_err(|e| format!("equation {name}: {e}"))?,
            );
        }
        let mut terms = Vec::new();
        for (i, t) in self.terms.iter().enumerate() {
            terms.push(
                world
                    .parse_term(t, false)
                    .map_err(|e| format!("term {i}: {e}"))?,
            );
        }
        if terms.is_empty() || self.citations.len() != terms.len() {
            return Err("one citation list per term is needed".into());
        }
        let mut loaded = Loaded {
            world,
            eqs,
            terms,
            citations: Vec::new(),
        };
        for c in &self.citations {
            let mut idx = Vec::new();
            for name in c {
                idx.push(
                    loaded
                        .eq_index(name)
                        .ok_or_else(|| format!("unknown equation {name}"))?,
                );
            }
            loaded.citations.push(idx);
        }
        Ok(loaded)
    }
}

/// One redex of a step, as in the paper.
#[derive(Clone, Debug, DeriveSerialize)]
#[serde(rename_all = "camelCase")]
pub struct PaperRedex {
    /// `L = R` of the equation used.
    pub equation: String,
    /// Its name.
    pub equation_name: String,
    /// The redex.
    pub redex: String,
    /// Dewey position of the redex.
    pub redex_position: Vec<u32>,
    /// The matching substitution.
    pub theta: OrderedMap,
    /// The contractum written in the step's term.
    pub contractum: String,
    /// Set on a corrupted redex.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corrupted: Option<bool>,
    /// The contractum the equation produces (corrupted redex only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correct_contractum: Option<String>,
    /// `contractumCorruption` (corrupted redex only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corruption_method: Option<String>,
}

/// One step of the paper's `proof` list. Step i's `redexList` explains
/// s_{i-1} → s_i (the convention of the paper's worked example; step 0's is
/// empty).
#[derive(Clone, Debug, DeriveSerialize)]
#[serde(rename_all = "camelCase")]
pub struct PaperStep {
    /// 0-based step number.
    pub step: usize,
    /// s_i.
    pub term: String,
    /// The redexes rewriting s_{i-1} into s_i.
    pub redex_list: Vec<PaperRedex>,
    /// The equations the proof cites for this step (our addition; differs
    /// from the `redexList` names only on a citation-corrupted step).
    pub cited_equations: Vec<String>,
    /// 1-based index of the corrupted redex in `redexList`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corrupted_redex: Option<usize>,
    /// `citationCorruption` on a citation-corrupted step (our addition).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corruption_method: Option<String>,
}

/// The paper's EQ1 record.
#[derive(Clone, Debug, DeriveSerialize)]
#[serde(rename_all = "camelCase")]
pub struct PaperRecord {
    /// s0.
    pub start: String,
    /// sn.
    pub end: String,
    /// Name → `L = R`, in order.
    pub equational_axioms: OrderedMap,
    /// n.
    pub number_of_proof_steps: usize,
    /// Whether every step checks.
    pub correct_proof: bool,
    /// First failing step, -1 if none.
    pub incorrect_step: i64,
    /// The steps.
    pub proof: Vec<PaperStep>,
}

fn paper_redex(w: &World, eqs: &[Equation], x: &Witness) -> PaperRedex {
    let e = &eqs[x.eq];
    PaperRedex {
        equation: w.show_equation(e),
        equation_name: e.name.clone(),
        redex: w.show(x.redex),
        redex_position: dewey(&x.pos),
        theta: OrderedMap(
            x.theta
                .iter()
                .map(|&(v, t)| (w.var_name(v), w.show(t)))
                .collect(),
        ),
        contractum: w.show(x.contractum),
        corrupted: None,
        correct_contractum: None,
        corruption_method: None,
    }
}

impl PaperRecord {
    /// The record of `p` (possibly corrupted by `corruption`). `p.witnesses`
    /// are the witnesses of the original, correct chain.
    pub fn new(p: &Proof, corruption: Option<&Corruption>, incorrect_step: Option<usize>) -> Self {
        let w = &p.world;
        let mut proof = Vec::new();
        for (i, &t) in p.terms.iter().enumerate() {
            let mut redex_list: Vec<PaperRedex> = p.witnesses[i]
                .iter()
                .map(|x| paper_redex(w, &p.equations, x))
                .collect();
            let mut step = PaperStep {
                step: i,
                term: w.show(t),
                redex_list: Vec::new(),
                cited_equations: p.citations[i]
                    .iter()
                    .map(|&e| p.equations[e].name.clone())
                    .collect(),
                corrupted_redex: None,
                corruption_method: None,
            };
            match corruption {
                Some(Corruption::Contractum {
                    step: s,
                    redex,
                    correct,
                    actual,
                }) if *s == i => {
                    let r = &mut redex_list[*redex];
                    r.contractum = w.show(*actual);
                    r.corrupted = Some(true);
                    r.correct_contractum = Some(w.show(*correct));
                    r.corruption_method = Some("contractumCorruption".into());
                    step.corrupted_redex = Some(redex + 1);
                }
                Some(Corruption::Citation { step: s, .. }) if *s == i => {
                    step.corruption_method = Some("citationCorruption".into());
                }
                _ => {}
            }
            step.redex_list = redex_list;
            proof.push(step);
        }
        PaperRecord {
            start: w.show(p.terms[0]),
            end: w.show(*p.terms.last().expect("nonempty")),
            equational_axioms: OrderedMap(
                p.equations
                    .iter()
                    .map(|e| (e.name.clone(), w.show_equation(e)))
                    .collect(),
            ),
            number_of_proof_steps: p.steps(),
            correct_proof: incorrect_step.is_none(),
            incorrect_step: incorrect_step.map_or(-1, |s| s as i64),
            proof,
        }
    }
}
