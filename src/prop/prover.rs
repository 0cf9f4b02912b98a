//! Reference-proof generation for PL1 (PL/EQ spec §3.2): a goal-directed
//! natural-deduction search that writes NDL proofs.
//!
//! Strategy, at each node (assumption base β, goal g, where β ⊨ g):
//! 1. g already holds → `claim`; `false` holds → `from-false`;
//! 2. introduction by the shape of g: `==>` → `assume`; `&` → `both`;
//!    `<==>` → two conditionals and `equiv`; `~ p` → `assume p {.. false}`
//!    and `by-contradiction`; `|` → the side β entails (SAT-checked);
//! 3. forward elimination to a fixpoint (`left-/right-and`, `mp`, `mt`,
//!    `dsyl`, `dn`, `left-/right-iff`, `neg-cond`, `dm`, `absurd`);
//! 4. otherwise split on an undecided atom A with `ex-middle` and `cases`;
//!    when every atom is decided, evaluate: a false member of β is refuted
//!    (`absurd`, then `from-false`), else g is true and is built bottom-up
//!    from the literals.
//!
//! Every branch keeps β ⊨ g, so the search is complete. A backward pass
//! then removes steps whose conclusions are never used, and the strict
//! checker re-verifies the result (self-check invariant).

use super::check::{Mode, check_parsed, named_premises, rule_info};
use super::formula::Formula;
use super::ndl::{Arg, Deduction, Element};
use super::sat::entails;
use std::collections::{BTreeMap, BTreeSet};

/// A proof that could not be produced within the size cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofTooLarge;

/// Size features of a proof, recorded as difficulty.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ProofStats {
    /// Printed lines.
    pub lines: usize,
    /// Rule applications.
    pub steps: usize,
    /// `assume` subproofs.
    pub assumes: usize,
    /// Maximum nesting depth of blocks.
    pub depth: usize,
}

const MAX_ELEMENTS: usize = 600;
const FORWARD_CAP: usize = 40;

struct Prover {
    base: Vec<Formula>,
    emitted: usize,
}

type Out = Vec<Element>;

impl Prover {
    fn holds(&self, f: &Formula) -> bool {
        self.base.iter().any(|b| b == f)
    }

    fn emit(
        &mut self,
        out: &mut Out,
        c: Formula,
        rule: &str,
        args: Vec<Formula>,
    ) -> Result<(), ProofTooLarge> {
        self.emitted += 1;
        if self.emitted > MAX_ELEMENTS {
            return Err(ProofTooLarge);
        }
        out.push(Element::step(c.clone(), rule, args));
        self.base.push(c);
        Ok(())
    }

    /// `assume hyp { body }` where `body` proves `goal`; pushes `(hyp ==> goal)`.
    fn assume(
        &mut self,
        out: &mut Out,
        hyp: Formula,
        goal: &Formula,
        body: impl FnOnce(&mut Prover, &mut Out) -> Result<(), ProofTooLarge>,
    ) -> Result<(), ProofTooLarge> {
        let mark = self.base.len();
        self.base.push(hyp.clone());
        let mut inner = Vec::new();
        body(self, &mut inner)?;
        self.base.truncate(mark);
        if last_conclusion(&inner).as_ref() != Some(goal) {
            inner.push(Element::step(goal.clone(), "claim", vec![goal.clone()]));
        }
        self.emitted += 1;
        out.push(Element::Ded {
            name: None,
            ded: Deduction::Assume {
                line: 0,
                name: None,
                hyp: hyp.clone(),
                body: Box::new(Deduction::Block {
                    line: 0,
                    elems: inner,
                }),
            },
        });
        self.base.push(Formula::imp(hyp, goal.clone()));
        Ok(())
    }

    /// Derives `p` (already implied) and then `false` against `np = (~ p)`
    /// held; used inside refutation blocks.
    fn refute_with(
        &mut self,
        out: &mut Out,
        p: &Formula,
        np: &Formula,
    ) -> Result<(), ProofTooLarge> {
        self.emit(out, Formula::False, "absurd", vec![p.clone(), np.clone()])
    }

    /// Proves `(~ f)` from a refutation of `f` built by `body` (which must
    /// end in `false`), via `assume f {..}` and `by-contradiction`.
    fn negate(
        &mut self,
        out: &mut Out,
        f: &Formula,
        body: impl FnOnce(&mut Prover, &mut Out) -> Result<(), ProofTooLarge>,
    ) -> Result<(), ProofTooLarge> {
        self.assume(out, f.clone(), &Formula::False, body)?;
        let nf = Formula::negation(f.clone());
        self.emit(
            out,
            nf.clone(),
            "by-contradiction",
            vec![nf, Formula::imp(f.clone(), Formula::False)],
        )
    }

    /// With every atom of `f` decided by literals in β: derives `f` if it is
    /// true, else `(~ f)`. Returns the truth value.
    fn evaluate(
        &mut self,
        out: &mut Out,
        f: &Formula,
        v: &BTreeMap<String, bool>,
    ) -> Result<bool, ProofTooLarge> {
        let val = f.eval(&|a| v[a]);
        let target = if val {
            f.clone()
        } else {
            Formula::negation(f.clone())
        };
        if self.holds(&target) {
            return Ok(val);
        }
        use Formula as F;
        match f {
            F::Atom(_) => {} // the literal holds by construction
            F::True => {}
            F::False => {
                // (~ false) from assume false { claim on false }.
                self.negate(out, f, |pr, o| {
                    pr.emit(o, F::False, "claim", vec![F::False])
                })?;
            }
            F::Not(g) => {
                // f true ⇔ g false: evaluating g yields (~ g) = f.
                let gv = self.evaluate(out, g, v)?;
                if gv {
                    // f false: derive (~ (~ g)).
                    let g2 = (**g).clone();
                    let ng = f.clone();
                    self.negate(out, f, move |pr, o| pr.refute_with(o, &g2, &ng))?;
                }
            }
            F::And(p, q) => {
                if val {
                    self.evaluate(out, p, v)?;
                    self.evaluate(out, q, v)?;
                    self.emit(out, f.clone(), "both", vec![(**p).clone(), (**q).clone()])?;
                } else {
                    let left_false = !p.eval(&|a| v[a]);
                    let (bad, rule) = if left_false {
                        (p, "left-and")
                    } else {
                        (q, "right-and")
                    };
                    self.evaluate(out, bad, v)?;
                    let bad = (**bad).clone();
                    let nbad = Formula::negation(bad.clone());
                    let fc = f.clone();
                    self.negate(out, f, move |pr, o| {
                        pr.emit(o, bad.clone(), rule, vec![fc])?;
                        pr.refute_with(o, &bad, &nbad)
                    })?;
                }
            }
            F::Or(p, q) => {
                if val {
                    if p.eval(&|a| v[a]) {
                        self.evaluate(out, p, v)?;
                        self.emit(
                            out,
                            f.clone(),
                            "left-either",
                            vec![(**p).clone(), (**q).clone()],
                        )?;
                    } else {
                        self.evaluate(out, q, v)?;
                        self.emit(
                            out,
                            f.clone(),
                            "right-either",
                            vec![(**p).clone(), (**q).clone()],
                        )?;
                    }
                } else {
                    self.evaluate(out, p, v)?;
                    self.evaluate(out, q, v)?;
                    let (p, q, fc) = ((**p).clone(), (**q).clone(), f.clone());
                    self.negate(out, f, move |pr, o| {
                        pr.emit(o, q.clone(), "dsyl", vec![fc, Formula::negation(p)])?;
                        pr.refute_with(o, &q, &Formula::negation(q.clone()))
                    })?;
                }
            }
            F::Imp(p, q) => {
                if val {
                    self.conditional(out, p, q, v)?;
                } else {
                    self.evaluate(out, p, v)?;
                    self.evaluate(out, q, v)?;
                    let (p, q, fc) = ((**p).clone(), (**q).clone(), f.clone());
                    self.negate(out, f, move |pr, o| {
                        pr.emit(o, q.clone(), "mp", vec![fc, p])?;
                        pr.refute_with(o, &q, &Formula::negation(q.clone()))
                    })?;
                }
            }
            F::Iff(p, q) => {
                if val {
                    self.conditional(out, p, q, v)?;
                    self.conditional(out, q, p, v)?;
                    self.emit(
                        out,
                        f.clone(),
                        "equiv",
                        vec![
                            Formula::imp((**p).clone(), (**q).clone()),
                            Formula::imp((**q).clone(), (**p).clone()),
                        ],
                    )?;
                } else {
                    let pv = self.evaluate(out, p, v)?;
                    self.evaluate(out, q, v)?;
                    // The true side implies the false one through the biconditional.
                    let (t, fl, rule) = if pv {
                        (p, q, "left-iff")
                    } else {
                        (q, p, "right-iff")
                    };
                    let (t, fl, fc) = ((**t).clone(), (**fl).clone(), f.clone());
                    self.negate(out, f, move |pr, o| {
                        let cond = Formula::imp(t.clone(), fl.clone());
                        pr.emit(o, cond.clone(), rule, vec![fc])?;
                        pr.emit(o, fl.clone(), "mp", vec![cond, t])?;
                        pr.refute_with(o, &fl, &Formula::negation(fl.clone()))
                    })?;
                }
            }
        }
        Ok(val)
    }

    /// Derives a true `(p ==> q)` by evaluation: from `q` true, or `p` false.
    fn conditional(
        &mut self,
        out: &mut Out,
        p: &Formula,
        q: &Formula,
        v: &BTreeMap<String, bool>,
    ) -> Result<(), ProofTooLarge> {
        let c = Formula::imp(p.clone(), q.clone());
        if self.holds(&c) {
            return Ok(());
        }
        if q.eval(&|a| v[a]) {
            self.evaluate(out, q, v)?;
            let q2 = q.clone();
            self.assume(out, p.clone(), q, move |pr, o| {
                pr.emit(o, q2.clone(), "claim", vec![q2])
            })
        } else {
            self.evaluate(out, p, v)?;
            let (p2, q2) = (p.clone(), q.clone());
            self.assume(out, p.clone(), q, move |pr, o| {
                pr.refute_with(o, &p2, &Formula::negation(p2.clone()))?;
                pr.emit(o, q2.clone(), "from-false", vec![q2])
            })
        }
    }

    /// One round of forward elimination; returns whether anything was added.
    fn forward(&mut self, out: &mut Out) -> Result<bool, ProofTooLarge> {
        use Formula as F;
        let mut added = 0;
        let mut i = 0;
        while i < self.base.len() && added < FORWARD_CAP {
            let f = self.base[i].clone();
            i += 1;
            let mut cands: Vec<(Formula, &str, Vec<Formula>)> = Vec::new();
            match &f {
                F::And(p, q) => {
                    cands.push(((**p).clone(), "left-and", vec![f.clone()]));
                    cands.push(((**q).clone(), "right-and", vec![f.clone()]));
                }
                F::Imp(p, q) => {
                    if self.holds(p) {
                        cands.push(((**q).clone(), "mp", vec![f.clone(), (**p).clone()]));
                    }
                    let nq = q.complement();
                    if self.holds(&nq) {
                        cands.push((F::negation((**p).clone()), "mt", vec![f.clone(), nq]));
                    }
                }
                F::Iff(p, q) => {
                    cands.push((
                        F::imp((**p).clone(), (**q).clone()),
                        "left-iff",
                        vec![f.clone()],
                    ));
                    cands.push((
                        F::imp((**q).clone(), (**p).clone()),
                        "right-iff",
                        vec![f.clone()],
                    ));
                }
                F::Or(p, q) => {
                    let np = p.complement();
                    if self.holds(&np) {
                        cands.push(((**q).clone(), "dsyl", vec![f.clone(), np]));
                    }
                    let nq = q.complement();
                    if self.holds(&nq) {
                        cands.push(((**p).clone(), "dsyl", vec![f.clone(), nq]));
                    }
                }
                F::Not(x) => {
                    match &**x {
                        F::Not(p) => cands.push(((**p).clone(), "dn", vec![f.clone()])),
                        F::Imp(p, q) => cands.push((
                            F::and((**p).clone(), F::negation((**q).clone())),
                            "neg-cond",
                            vec![f.clone()],
                        )),
                        F::And(p, q) => cands.push((
                            F::or(F::negation((**p).clone()), F::negation((**q).clone())),
                            "dm",
                            vec![f.clone()],
                        )),
                        F::Or(p, q) => cands.push((
                            F::and(F::negation((**p).clone()), F::negation((**q).clone())),
                            "dm",
                            vec![f.clone()],
                        )),
                        _ => {}
                    }
                    if self.holds(x) {
                        cands.push((F::False, "absurd", vec![(**x).clone(), f.clone()]));
                    }
                }
                _ => {}
            }
            for (c, rule, args) in cands {
                // dsyl needs the exact pairing the checker computes.
                if rule == "dsyl" && super::check::apply_schema("dsyl", &args).as_ref() != Ok(&c) {
                    continue;
                }
                if !self.holds(&c) {
                    self.emit(out, c, rule, args)?;
                    added += 1;
                }
            }
        }
        Ok(added > 0)
    }

    fn finish_with_false(&mut self, out: &mut Out, goal: &Formula) -> Result<(), ProofTooLarge> {
        if *goal != Formula::False {
            self.emit(out, goal.clone(), "from-false", vec![goal.clone()])?;
        }
        Ok(())
    }

    /// Appends elements to `out` whose last conclusion is `goal`.
    fn prove(&mut self, out: &mut Out, goal: &Formula) -> Result<(), ProofTooLarge> {
        use Formula as F;
        if self.holds(goal) {
            return self.emit(out, goal.clone(), "claim", vec![goal.clone()]);
        }
        if self.holds(&F::False) {
            return self.finish_with_false(out, goal);
        }
        match goal {
            F::Imp(p, q) => {
                let q2 = (**q).clone();
                return self.assume(out, (**p).clone(), q, move |pr, o| pr.prove(o, &q2));
            }
            F::And(p, q) => {
                self.prove(out, p)?;
                self.prove(out, q)?;
                return self.emit(
                    out,
                    goal.clone(),
                    "both",
                    vec![(**p).clone(), (**q).clone()],
                );
            }
            F::Iff(p, q) => {
                let pq = F::imp((**p).clone(), (**q).clone());
                let qp = F::imp((**q).clone(), (**p).clone());
                self.prove(out, &pq)?;
                self.prove(out, &qp)?;
                return self.emit(out, goal.clone(), "equiv", vec![pq, qp]);
            }
            F::Not(p) => {
                return self.negate(out, p, |pr, o| pr.prove(o, &F::False));
            }
            F::Or(p, q) => {
                if entails(&self.base, p) {
                    self.prove(out, p)?;
                    return self.emit(
                        out,
                        goal.clone(),
                        "left-either",
                        vec![(**p).clone(), (**q).clone()],
                    );
                }
                if entails(&self.base, q) {
                    self.prove(out, q)?;
                    return self.emit(
                        out,
                        goal.clone(),
                        "right-either",
                        vec![(**p).clone(), (**q).clone()],
                    );
                }
            }
            _ => {}
        }
        while self.forward(out)? {
            if self.holds(goal) {
                return self.emit(out, goal.clone(), "claim", vec![goal.clone()]);
            }
            if self.holds(&F::False) {
                return self.finish_with_false(out, goal);
            }
        }
        // Split on the first undecided atom.
        let mut atoms = goal.atoms();
        for b in &self.base {
            b.collect_atoms(&mut atoms);
        }
        let undecided = atoms.iter().find(|a| {
            let l = F::atom(a);
            !self.holds(&l) && !self.holds(&F::negation(l))
        });
        if let Some(a) = undecided {
            let l = F::atom(a);
            let nl = F::negation(l.clone());
            let em = F::or(l.clone(), nl.clone());
            self.emit(out, em.clone(), "ex-middle", vec![l.clone()])?;
            let g1 = goal.clone();
            self.assume(out, l.clone(), goal, move |pr, o| pr.prove(o, &g1))?;
            let g2 = goal.clone();
            self.assume(out, nl.clone(), goal, move |pr, o| pr.prove(o, &g2))?;
            return self.emit(
                out,
                goal.clone(),
                "cases",
                vec![em, F::imp(l, goal.clone()), F::imp(nl, goal.clone())],
            );
        }
        // Every atom decided: evaluate.
        let v: BTreeMap<String, bool> = atoms
            .iter()
            .map(|a| (a.clone(), self.holds(&F::atom(a))))
            .collect();
        let members: Vec<Formula> = self.base.clone();
        for m in &members {
            if !m.eval(&|a| v[a]) {
                self.evaluate(out, m, &v)?;
                self.emit(
                    out,
                    F::False,
                    "absurd",
                    vec![m.clone(), F::negation(m.clone())],
                )?;
                return self.finish_with_false(out, goal);
            }
        }
        let truth = self.evaluate(out, goal, &v)?;
        debug_assert!(truth, "β ⊨ goal violated at a leaf");
        if last_conclusion(out).as_ref() != Some(goal) {
            self.emit(out, goal.clone(), "claim", vec![goal.clone()])?;
        }
        Ok(())
    }
}

fn last_conclusion(elems: &[Element]) -> Option<Formula> {
    elems.last().and_then(contribution)
}

/// The formula an element contributes to β (our own proofs only: every
/// step is annotated, every assume has a block body).
fn contribution(e: &Element) -> Option<Formula> {
    match e {
        Element::Ded {
            ded: Deduction::Step(s),
            ..
        } => s.conclusion.clone(),
        Element::Ded {
            ded: Deduction::Assume { hyp, body, .. },
            ..
        } => {
            let Deduction::Block { elems, .. } = &**body else {
                return None;
            };
            let last = elems.last().and_then(|l| match l {
                Element::Ded {
                    ded: Deduction::Step(s),
                    ..
                } => s.conclusion.clone(),
                _ => contribution(l),
            })?;
            Some(Formula::imp(hyp.clone(), last))
        }
        _ => None,
    }
}

/// Backward dead-step elimination over one block: keeps the last element
/// and every element whose contribution a kept later element needs.
/// Returns what the block needs from outside.
fn prune_block(elems: &mut Vec<Element>) -> BTreeSet<Formula> {
    let mut needed: BTreeSet<Formula> = BTreeSet::new();
    let mut keep = vec![false; elems.len()];
    for i in (0..elems.len()).rev() {
        let last = i + 1 == elems.len();
        let c = contribution(&elems[i]);
        let used = last || c.as_ref().is_some_and(|c| needed.contains(c));
        if !used {
            continue;
        }
        keep[i] = true;
        if let Some(c) = &c {
            needed.remove(c);
        }
        match &mut elems[i] {
            Element::Ded {
                ded: Deduction::Step(s),
                ..
            } => {
                let info = rule_info(&s.rule).expect("own rules");
                for (a, &m) in s.args.iter().zip(info.must_hold) {
                    if let (Arg::Formula(f), true) = (a, m) {
                        needed.insert(f.clone());
                    }
                }
                if s.rule == "from-false" {
                    needed.insert(Formula::False);
                }
            }
            Element::Ded {
                ded: Deduction::Assume { hyp, body, .. },
                ..
            } => {
                if let Deduction::Block { elems: inner, .. } = &mut **body {
                    let mut inner_needs = prune_block(inner);
                    inner_needs.remove(hyp);
                    needed.extend(inner_needs);
                }
            }
            _ => {}
        }
    }
    let mut k = keep.into_iter();
    elems.retain(|_| k.next().unwrap_or(true));
    needed
}

/// Writes a strict-checked NDL proof of `goal` from `premises` (which must
/// entail it). `Err` if the proof would exceed the size cap.
pub fn prove(premises: &[Formula], goal: &Formula) -> Result<Deduction, ProofTooLarge> {
    prove_with_effort(premises, goal).map(|(d, _)| d)
}

/// [`prove`], with the search's effort: the proof elements it wrote before
/// dead steps were pruned (a deterministic work measure: the same problem
/// always gives the same count).
pub fn prove_with_effort(
    premises: &[Formula],
    goal: &Formula,
) -> Result<(Deduction, usize), ProofTooLarge> {
    let mut p = Prover {
        base: premises.to_vec(),
        emitted: 0,
    };
    let mut out = Vec::new();
    p.prove(&mut out, goal)?;
    if last_conclusion(&out).as_ref() != Some(goal) {
        out.push(Element::step(goal.clone(), "claim", vec![goal.clone()]));
    }
    let full = Deduction::Block {
        line: 0,
        elems: out.clone(),
    };
    prune_block(&mut out);
    let pruned = Deduction::Block {
        line: 0,
        elems: out,
    };
    let named = named_premises(premises);
    // Self-check on the printed text, as a model would see it.
    for candidate in [pruned, full] {
        let text = super::ndl::print(&candidate);
        let parsed = super::ndl::parse_proof(&text, false).expect("own proofs parse");
        if check_parsed(&named, goal, &parsed, Mode::Strict).ok() {
            return Ok((parsed, p.emitted));
        }
    }
    panic!("prover emitted a proof the strict checker rejects: {premises:?} ⊢ {goal}");
}

/// Size features of a proof.
pub fn stats(d: &Deduction) -> ProofStats {
    fn walk(d: &Deduction, depth: usize, s: &mut ProofStats) {
        match d {
            Deduction::Step(_) => s.steps += 1,
            Deduction::Block { elems, .. } => {
                s.depth = s.depth.max(depth + 1);
                for e in elems {
                    if let Element::Ded { ded, .. } = e {
                        walk(ded, depth + 1, s);
                    }
                }
            }
            Deduction::Assume { body, .. } | Deduction::SupposeAbsurd { body, .. } => {
                s.assumes += 1;
                walk(body, depth, s);
            }
        }
    }
    let mut s = ProofStats {
        lines: super::ndl::print(d).lines().count(),
        steps: 0,
        assumes: 0,
        depth: 0,
    };
    walk(d, 0, &mut s);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prop::ndl::print;

    #[test]
    fn proves_textbook_entailments() {
        let f = |s: &str| Formula::parse(s).unwrap();
        for (ps, g) in [
            (vec!["(A ==> B)", "A"], "B"),
            (vec!["(A | B)", "(~ A)"], "B"),
            (vec![], "(A | (~ A))"),
            (vec!["(A <==> B)", "(~ B)"], "(~ A)"),
            (vec!["(~ (A & B))", "A"], "(~ B)"),
            (vec!["((A ==> B) ==> A)"], "A"),
        ] {
            let ps: Vec<Formula> = ps.into_iter().map(f).collect();
            let d = prove(&ps, &f(g)).unwrap();
            let r = check_parsed(&named_premises(&ps), &f(g), &d, Mode::Strict);
            assert!(r.ok(), "{g}: {:?}\n{}", r.result, print(&d));
        }
    }
}
