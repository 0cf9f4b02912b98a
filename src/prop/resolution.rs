//! Propositional resolution refutations for PL2 (PL/EQ spec §4.1, §4.3):
//! clausal form without auxiliary atoms (so every clause reads in the
//! problem's own atoms), a small CDCL solver that logs every conflict
//! analysis as binary resolution steps (the 1UIP learned clause is the last
//! resolvent of its chain), backward trimming to the steps the empty clause
//! needs, an independent step-by-step re-check, and the translation of a
//! refutation into an NDL_f proof (conditional proof of the negated goal).
//!
//! The step count is the number of resolution inferences in the trimmed
//! refutation, not counting clausification (as in \[P\], which used Vampire).
//! It is an upper bound on the shortest refutation: instances are rejected
//! when *our* refutation is too long.

use super::formula::Formula;
use super::ndl::{Arg, Deduction, Element, FROM_RULE, Step};
use crate::sat::{Lit, Var};
use std::collections::{BTreeMap, BTreeSet};

/// A clause: sorted by variable, no repeated variable, never a tautology.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Clause(pub Vec<Lit>);

impl Clause {
    /// Builds a clause from literals; `None` for a tautology.
    pub fn new(mut lits: Vec<Lit>) -> Option<Clause> {
        lits.sort_by_key(|l| (l.var().0, !l.is_pos()));
        lits.dedup();
        if lits.windows(2).any(|w| w[0].var() == w[1].var()) {
            return None;
        }
        Some(Clause(lits))
    }

    /// Whether this is the empty clause.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The resolvent on `pivot` (positive in one parent, negative in the
    /// other); `None` if the pivot does not clash or the resolvent is a
    /// tautology.
    pub fn resolve(&self, other: &Clause, pivot: Var) -> Option<Clause> {
        let pos = |c: &Clause| c.0.contains(&Lit::pos(pivot));
        let neg = |c: &Clause| c.0.contains(&Lit::neg(pivot));
        if !((pos(self) && neg(other)) || (neg(self) && pos(other))) {
            return None;
        }
        Clause::new(
            self.0
                .iter()
                .chain(&other.0)
                .copied()
                .filter(|l| l.var() != pivot)
                .collect(),
        )
    }
}

/// Atom names ↔ variables (variable i+1 is `atoms[i]`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AtomTable {
    /// Names by variable index − 1.
    pub atoms: Vec<String>,
    index: BTreeMap<String, Var>,
}

impl AtomTable {
    /// The variable of an atom, created on first use.
    pub fn var(&mut self, name: &str) -> Var {
        if let Some(&v) = self.index.get(name) {
            return v;
        }
        self.atoms.push(name.to_string());
        let v = Var(self.atoms.len() as u32);
        self.index.insert(name.to_string(), v);
        v
    }

    /// The variable of an atom, if it has one.
    pub fn get(&self, name: &str) -> Option<Var> {
        self.index.get(name).copied()
    }

    /// The atom of a variable.
    pub fn name(&self, v: Var) -> &str {
        &self.atoms[(v.0 - 1) as usize]
    }

    /// The literal as a formula: `A` or `(~ A)`.
    pub fn literal(&self, l: Lit) -> Formula {
        let a = Formula::atom(self.name(l.var()));
        if l.is_pos() { a } else { Formula::negation(a) }
    }
}

/// Clausal form of a formula by negation normal form and distribution (no
/// auxiliary atoms). `None` if it would exceed `cap` clauses.
pub fn clausify(f: &Formula, atoms: &mut AtomTable, cap: usize) -> Option<Vec<Clause>> {
    let raw = cnf(f, true, atoms, cap)?;
    let mut set: BTreeSet<Clause> = BTreeSet::new();
    for c in raw {
        if let Some(c) = Clause::new(c) {
            set.insert(c);
        }
    }
    // Drop subsumed clauses, keeping the order of the sorted set.
    let all: Vec<Clause> = set.into_iter().collect();
    let subsumes = |a: &Clause, b: &Clause| a != b && a.0.iter().all(|l| b.0.contains(l));
    Some(
        all.iter()
            .filter(|c| !all.iter().any(|d| subsumes(d, c)))
            .cloned()
            .collect(),
    )
}

fn cnf(f: &Formula, pos: bool, atoms: &mut AtomTable, cap: usize) -> Option<Vec<Vec<Lit>>> {
    fn product(a: Vec<Vec<Lit>>, b: Vec<Vec<Lit>>, cap: usize) -> Option<Vec<Vec<Lit>>> {
        if a.len().saturating_mul(b.len()) > cap {
            return None;
        }
        Some(
            a.iter()
                .flat_map(|x| b.iter().map(move |y| x.iter().chain(y).copied().collect()))
                .collect(),
        )
    }
    fn union(mut a: Vec<Vec<Lit>>, b: Vec<Vec<Lit>>, cap: usize) -> Option<Vec<Vec<Lit>>> {
        a.extend(b);
        (a.len() <= cap).then_some(a)
    }
    Some(match (f, pos) {
        (Formula::True, true) | (Formula::False, false) => vec![],
        (Formula::True, false) | (Formula::False, true) => vec![vec![]],
        (Formula::Atom(a), _) => vec![vec![Lit::new(atoms.var(a), pos)]],
        (Formula::Not(p), _) => cnf(p, !pos, atoms, cap)?,
        (Formula::And(p, q), true) | (Formula::Or(p, q), false) => {
            union(cnf(p, pos, atoms, cap)?, cnf(q, pos, atoms, cap)?, cap)?
        }
        (Formula::Or(p, q), true) | (Formula::And(p, q), false) => {
            product(cnf(p, pos, atoms, cap)?, cnf(q, pos, atoms, cap)?, cap)?
        }
        (Formula::Imp(p, q), true) => {
            product(cnf(p, false, atoms, cap)?, cnf(q, true, atoms, cap)?, cap)?
        }
        (Formula::Imp(p, q), false) => {
            union(cnf(p, true, atoms, cap)?, cnf(q, false, atoms, cap)?, cap)?
        }
        (Formula::Iff(p, q), _) => {
            // p <==> q: (~p | q) & (p | ~q);  ~(p <==> q): (p | q) & (~p | ~q).
            let (pp, pn) = (cnf(p, true, atoms, cap)?, cnf(p, false, atoms, cap)?);
            let (qp, qn) = (cnf(q, true, atoms, cap)?, cnf(q, false, atoms, cap)?);
            if pos {
                union(product(pn, qp, cap)?, product(pp, qn, cap)?, cap)?
            } else {
                union(product(pp, qp, cap)?, product(pn, qn, cap)?, cap)?
            }
        }
    })
}

/// Renders a clause in the implication style of ProofGrid's PL2 (spec §4.1):
/// negative literals form the antecedent conjunction, positive ones the
/// consequent disjunction; an all-negative clause keeps its last literal
/// as a negated consequent; a unit clause is a literal; empty is `false`.
pub fn render_clause(c: &Clause, atoms: &AtomTable) -> Formula {
    fn conj(fs: Vec<Formula>) -> Formula {
        fs.into_iter()
            .rev()
            .reduce(|acc, f| Formula::and(f, acc))
            .expect("non-empty")
    }
    fn disj(fs: Vec<Formula>) -> Formula {
        fs.into_iter()
            .rev()
            .reduce(|acc, f| Formula::or(f, acc))
            .expect("non-empty")
    }
    let neg: Vec<Formula> =
        c.0.iter()
            .filter(|l| !l.is_pos())
            .map(|l| Formula::atom(atoms.name(l.var())))
            .collect();
    let pos: Vec<Formula> =
        c.0.iter()
            .filter(|l| l.is_pos())
            .map(|l| Formula::atom(atoms.name(l.var())))
            .collect();
    match (neg.len(), pos.len()) {
        (0, 0) => Formula::False,
        (1, 0) => Formula::negation(neg[0].clone()),
        (0, _) => disj(pos),
        (_, 0) => {
            let mut ante = neg;
            let last = ante.pop().expect("two or more");
            Formula::imp(conj(ante), Formula::negation(last))
        }
        _ => Formula::imp(conj(neg), disj(pos)),
    }
}

/// One clause of a refutation: an input clause (with the index of the
/// formula it came from) or the resolvent of two earlier nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The clause.
    pub clause: Clause,
    /// `Some((i, j, pivot))` for a resolvent of nodes i and j; `None` for an input clause.
    pub parents: Option<(usize, usize, Var)>,
    /// For an input clause: the index of its source formula.
    pub source: Option<usize>,
}

/// A resolution refutation: nodes in derivation order, the last one empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refutation {
    /// The nodes (only those the empty clause depends on).
    pub nodes: Vec<Node>,
}

impl Refutation {
    /// Number of resolution inferences.
    pub fn steps(&self) -> usize {
        self.nodes.iter().filter(|n| n.parents.is_some()).count()
    }

    /// Number of distinct input clauses used.
    pub fn inputs(&self) -> usize {
        self.nodes.iter().filter(|n| n.parents.is_none()).count()
    }

    /// Re-checks the refutation without trusting the solver: every input
    /// clause is one of `inputs`, every resolvent is the resolvent of its
    /// parents on its pivot, parents come earlier, and the last clause is
    /// empty.
    pub fn verify(&self, inputs: &[(Clause, usize)]) -> Result<(), String> {
        for (k, n) in self.nodes.iter().enumerate() {
            match n.parents {
                None => {
                    let src = n
                        .source
                        .ok_or(format!("node {k}: input without a source"))?;
                    if !inputs.contains(&(n.clause.clone(), src)) {
                        return Err(format!("node {k}: not an input clause of formula {src}"));
                    }
                }
                Some((i, j, v)) => {
                    if i >= k || j >= k {
                        return Err(format!("node {k}: parent after the node"));
                    }
                    let r = self.nodes[i].clause.resolve(&self.nodes[j].clause, v);
                    if r.as_ref() != Some(&n.clause) {
                        return Err(format!("node {k}: not the resolvent of {i} and {j}"));
                    }
                }
            }
        }
        match self.nodes.last() {
            Some(n) if n.clause.is_empty() => Ok(()),
            _ => Err("the refutation does not end in the empty clause".into()),
        }
    }
}

/// Why no refutation came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefuteError {
    /// The clauses are satisfiable.
    Satisfiable,
    /// The conflict budget ran out.
    Budget,
}

/// The proof-logging CDCL solver (1UIP learning, activity-ordered decisions,
/// no restarts, no clause deletion: the instances are small).
struct Cdcl {
    nodes: Vec<Node>,
    /// Clause node ids by literal code (occurrence lists).
    occurs: Vec<Vec<usize>>,
    value: Vec<Option<bool>>,
    level: Vec<usize>,
    reason: Vec<Option<usize>>,
    trail: Vec<Lit>,
    limits: Vec<usize>,
    activity: Vec<f64>,
    bump: f64,
    /// Node id of every clause the solver propagates with.
    active: Vec<usize>,
    /// Decision strategy.
    strategy: Strategy,
}

/// A decision strategy: the polarity tried first and how activity ties
/// are broken. Different strategies find refutations of different length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// Value a decision tries first.
    pub phase: bool,
    /// Break activity ties towards the highest variable (else the lowest).
    pub prefer_high: bool,
}

/// The strategies [`refute`] tries, in order.
pub const STRATEGIES: [Strategy; 4] = [
    Strategy {
        phase: false,
        prefer_high: false,
    },
    Strategy {
        phase: true,
        prefer_high: false,
    },
    Strategy {
        phase: false,
        prefer_high: true,
    },
    Strategy {
        phase: true,
        prefer_high: true,
    },
];

fn code(l: Lit) -> usize {
    2 * (l.var().0 as usize) + usize::from(!l.is_pos())
}

impl Cdcl {
    fn new(nvars: usize, strategy: Strategy) -> Cdcl {
        Cdcl {
            strategy,
            nodes: Vec::new(),
            occurs: vec![Vec::new(); 2 * nvars + 2],
            value: vec![None; nvars + 1],
            level: vec![0; nvars + 1],
            reason: vec![None; nvars + 1],
            trail: Vec::new(),
            limits: Vec::new(),
            activity: vec![0.0; nvars + 1],
            bump: 1.0,
            active: Vec::new(),
        }
    }

    fn lit_value(&self, l: Lit) -> Option<bool> {
        self.value[l.var().0 as usize].map(|v| v == l.is_pos())
    }

    fn add(&mut self, node: Node) -> usize {
        let id = self.nodes.len();
        for &l in &node.clause.0 {
            self.occurs[code(l)].push(id);
        }
        self.nodes.push(node);
        self.active.push(id);
        id
    }

    fn assign(&mut self, l: Lit, reason: Option<usize>) {
        let v = l.var().0 as usize;
        self.value[v] = Some(l.is_pos());
        self.level[v] = self.limits.len();
        self.reason[v] = reason;
        self.trail.push(l);
    }

    /// Status of a clause: conflict, unit (the open literal), or neither.
    fn status(&self, id: usize) -> Result<Option<Lit>, ()> {
        let mut open = None;
        for &l in &self.nodes[id].clause.0 {
            match self.lit_value(l) {
                Some(true) => return Ok(None),
                Some(false) => {}
                None if open.is_some() => return Ok(None),
                None => open = Some(l),
            }
        }
        match open {
            Some(l) => Ok(Some(l)),
            None => Err(()),
        }
    }

    /// Unit propagation from trail position `from`; `Err(conflict clause id)`.
    fn propagate(&mut self, mut from: usize) -> Result<(), usize> {
        while from < self.trail.len() {
            let falsified = !self.trail[from];
            from += 1;
            for k in 0..self.occurs[code(falsified)].len() {
                let id = self.occurs[code(falsified)][k];
                match self.status(id) {
                    Err(()) => return Err(id),
                    Ok(Some(l)) => self.assign(l, Some(id)),
                    Ok(None) => {}
                }
            }
        }
        Ok(())
    }

    fn resolve_into(&mut self, current: usize, reason: usize, pivot: Var) -> usize {
        let clause = self.nodes[current]
            .clause
            .resolve(&self.nodes[reason].clause, pivot)
            .expect("conflict analysis resolves on a clashing pivot");
        self.nodes.push(Node {
            clause,
            parents: Some((current, reason, pivot)),
            source: None,
        });
        self.nodes.len() - 1
    }

    /// 1UIP analysis; every resolution is logged as a node. At level 0 the
    /// chain goes all the way to the empty clause.
    fn analyze(&mut self, conflict: usize) -> usize {
        let level = self.limits.len();
        let mut current = conflict;
        let mut t = self.trail.len();
        loop {
            let at_level: Vec<Lit> = self.nodes[current]
                .clause
                .0
                .iter()
                .copied()
                .filter(|l| self.level[l.var().0 as usize] == level)
                .collect();
            if at_level.is_empty() || (level > 0 && at_level.len() == 1) {
                return current;
            }
            // The latest trail literal whose negation is in the clause.
            let lit = loop {
                t -= 1;
                let l = self.trail[t];
                if self.nodes[current].clause.0.contains(&!l) {
                    break l;
                }
            };
            let v = lit.var();
            self.activity[v.0 as usize] += self.bump;
            let reason = self.reason[v.0 as usize].expect("implied literals have reasons");
            current = self.resolve_into(current, reason, v);
        }
    }

    fn backtrack(&mut self, level: usize) {
        while self.limits.len() > level {
            let start = self.limits.pop().expect("level");
            for l in self.trail.drain(start..) {
                let v = l.var().0 as usize;
                self.value[v] = None;
                self.reason[v] = None;
            }
        }
    }

    fn solve(&mut self, budget: usize) -> Result<usize, RefuteError> {
        // Empty or unit input clauses first.
        for id in self.active.clone() {
            match self.status(id) {
                Err(()) => return Ok(self.analyze(id)),
                Ok(Some(l)) => self.assign(l, Some(id)),
                Ok(None) => {}
            }
        }
        let mut from = 0;
        let mut conflicts = 0;
        loop {
            match self.propagate(from) {
                Err(conflict) => {
                    conflicts += 1;
                    if conflicts > budget {
                        return Err(RefuteError::Budget);
                    }
                    let learned = self.analyze(conflict);
                    if self.limits.is_empty() {
                        return Ok(learned);
                    }
                    self.bump *= 1.05;
                    let clause = self.nodes[learned].clause.clone();
                    let back = clause
                        .0
                        .iter()
                        .map(|l| self.level[l.var().0 as usize])
                        .filter(|&lv| lv < self.limits.len())
                        .max()
                        .unwrap_or(0);
                    self.backtrack(back);
                    for &l in &clause.0 {
                        self.occurs[code(l)].push(learned);
                    }
                    self.active.push(learned);
                    from = self.trail.len();
                    match self.status(learned) {
                        Ok(Some(l)) => self.assign(l, Some(learned)),
                        Err(()) => return Ok(self.analyze(learned)),
                        Ok(None) => unreachable!("a learned clause is unit after backjumping"),
                    }
                }
                Ok(()) => {
                    from = self.trail.len();
                    // Highest activity, ties by the strategy's variable order.
                    let mut best: Option<usize> = None;
                    for v in 1..self.value.len() {
                        if self.value[v].is_none()
                            && best.is_none_or(|b| {
                                self.activity[v] > self.activity[b]
                                    || (self.strategy.prefer_high
                                        && self.activity[v] == self.activity[b])
                            })
                        {
                            best = Some(v);
                        }
                    }
                    let Some(v) = best else {
                        return Err(RefuteError::Satisfiable);
                    };
                    self.limits.push(self.trail.len());
                    self.assign(Lit::new(Var(v as u32), self.strategy.phase), None);
                }
            }
        }
    }
}

/// Finds a resolution refutation of the clauses (each tagged with its
/// source formula), trimmed to the nodes the empty clause depends on: the
/// shortest over [`STRATEGIES`] (the first one on ties), each run with the
/// conflict budget.
pub fn refute(
    inputs: &[(Clause, usize)],
    nvars: usize,
    budget: usize,
) -> Result<Refutation, RefuteError> {
    let mut best: Option<Refutation> = None;
    for strategy in STRATEGIES {
        match refute_with(inputs, nvars, budget, strategy) {
            Ok(r) => {
                if best.as_ref().is_none_or(|b| r.steps() < b.steps()) {
                    best = Some(r);
                }
            }
            Err(RefuteError::Satisfiable) => return Err(RefuteError::Satisfiable),
            Err(RefuteError::Budget) => {}
        }
    }
    best.ok_or(RefuteError::Budget)
}

/// One proof-logging CDCL run with a given decision strategy.
pub fn refute_with(
    inputs: &[(Clause, usize)],
    nvars: usize,
    budget: usize,
    strategy: Strategy,
) -> Result<Refutation, RefuteError> {
    let mut s = Cdcl::new(nvars, strategy);
    for (c, src) in inputs {
        s.add(Node {
            clause: c.clone(),
            parents: None,
            source: Some(*src),
        });
    }
    let empty = s.solve(budget)?;
    // Trim: keep what the empty clause depends on, renumbered in order.
    let mut needed = vec![false; s.nodes.len()];
    needed[empty] = true;
    for k in (0..=empty).rev() {
        if needed[k]
            && let Some((i, j, _)) = s.nodes[k].parents
        {
            needed[i] = true;
            needed[j] = true;
        }
    }
    let mut renumber = vec![usize::MAX; s.nodes.len()];
    let mut nodes = Vec::new();
    for k in 0..=empty {
        if needed[k] {
            renumber[k] = nodes.len();
            let mut n = s.nodes[k].clone();
            n.parents = n.parents.map(|(i, j, v)| (renumber[i], renumber[j], v));
            nodes.push(n);
        }
    }
    Ok(Refutation { nodes })
}

/// Builds a refutation node by node from known input clauses, for
/// family-specific refutations (the result is checked by [`Refutation::verify`]).
#[derive(Debug, Default)]
pub struct RefutationBuilder {
    nodes: Vec<Node>,
}

impl RefutationBuilder {
    /// Adds (or finds) the input clause `lits`; `None` if it is not among `inputs`.
    pub fn input(&mut self, inputs: &[(Clause, usize)], lits: Vec<Lit>) -> Option<usize> {
        let c = Clause::new(lits)?;
        if let Some(k) = self
            .nodes
            .iter()
            .position(|n| n.parents.is_none() && n.clause == c)
        {
            return Some(k);
        }
        let (_, src) = inputs.iter().find(|(d, _)| *d == c)?;
        self.nodes.push(Node {
            clause: c,
            parents: None,
            source: Some(*src),
        });
        Some(self.nodes.len() - 1)
    }

    /// Adds the resolvent of nodes `i` and `j` on `pivot`; `None` if they do not clash.
    pub fn resolve(&mut self, i: usize, j: usize, pivot: Var) -> Option<usize> {
        let clause = self.nodes[i].clause.resolve(&self.nodes[j].clause, pivot)?;
        self.nodes.push(Node {
            clause,
            parents: Some((i, j, pivot)),
            source: None,
        });
        Some(self.nodes.len() - 1)
    }

    /// The refutation built so far.
    pub fn finish(self) -> Refutation {
        Refutation { nodes: self.nodes }
    }
}

/// The clausal form of a formula list, each clause tagged with the index of
/// its formula. `None` if a formula exceeds the clause cap.
pub fn clausify_all(fs: &[Formula], cap: usize) -> Option<(AtomTable, Vec<(Clause, usize)>)> {
    let mut atoms = AtomTable::default();
    // Atoms in order of first occurrence in the formula list.
    for f in fs {
        visit_atoms(f, &mut |a| {
            atoms.var(a);
        });
    }
    let mut out = Vec::new();
    for (i, f) in fs.iter().enumerate() {
        for c in clausify(f, &mut atoms, cap)? {
            if !out.iter().any(|(d, _)| *d == c) {
                out.push((c, i));
            }
        }
    }
    Some((atoms, out))
}

fn visit_atoms(f: &Formula, g: &mut dyn FnMut(&str)) {
    match f {
        Formula::Atom(a) => g(a),
        Formula::Not(p) => visit_atoms(p, g),
        Formula::And(p, q) | Formula::Or(p, q) | Formula::Imp(p, q) | Formula::Iff(p, q) => {
            visit_atoms(p, g);
            visit_atoms(q, g);
        }
        Formula::True | Formula::False => {}
    }
}

fn from_step(name: Option<String>, claim: Formula, args: Vec<Arg>) -> Element {
    Element::Ded {
        name,
        ded: Deduction::Step(Step {
            line: 0,
            conclusion: Some(claim),
            rule: FROM_RULE.to_string(),
            args,
        }),
    }
}

/// Translates a refutation of `[f1, premises...]` into an NDL_f proof of
/// `goal` (spec §4.1): `assume h := (~ goal) { ... false from q, (~ q) };
/// goal from ((~ goal) ==> false)`, where `(~ goal)` is the complement of
/// the goal (equivalent to f1). Input clauses equal to a premise (or the
/// hypothesis) are cited by its name; others are restated `clause from
/// premise-k`; each resolution is `ck := clause from parent1, parent2`.
pub fn to_ndlf(
    refutation: &Refutation,
    atoms: &AtomTable,
    premises: &[Formula],
    goal: &Formula,
) -> Deduction {
    let hyp = goal.complement();
    let source_name = |src: usize| {
        if src == 0 {
            "h".to_string()
        } else {
            format!("premise-{src}")
        }
    };
    let source_formula = |src: usize| {
        if src == 0 {
            hyp.clone()
        } else {
            premises[src - 1].clone()
        }
    };
    let mut names: Vec<String> = Vec::with_capacity(refutation.nodes.len());
    let mut body: Vec<Element> = Vec::new();
    let mut counter = 0;
    let last = refutation.nodes.len() - 1;
    for (k, n) in refutation.nodes.iter().enumerate() {
        let claim = render_clause(&n.clause, atoms);
        match n.parents {
            None => {
                let src = n.source.expect("input clauses have a source");
                if claim == source_formula(src) {
                    names.push(source_name(src));
                } else {
                    counter += 1;
                    let name = format!("c{counter}");
                    body.push(from_step(
                        Some(name.clone()),
                        claim,
                        vec![Arg::Ident(source_name(src))],
                    ));
                    names.push(name);
                }
            }
            Some((i, j, _)) => {
                let args = vec![Arg::Ident(names[i].clone()), Arg::Ident(names[j].clone())];
                if k == last {
                    body.push(from_step(None, Formula::False, args));
                    names.push(String::new());
                } else {
                    counter += 1;
                    let name = format!("c{counter}");
                    body.push(from_step(Some(name.clone()), claim, args));
                    names.push(name);
                }
            }
        }
    }
    if refutation.nodes.len() == 1 {
        // The empty clause is itself an input clause (a formula equivalent to false).
        let src = refutation.nodes[0].source.expect("input");
        body.push(from_step(
            None,
            Formula::False,
            vec![Arg::Ident(source_name(src))],
        ));
    }
    let assume = Deduction::Assume {
        line: 0,
        name: Some("h".to_string()),
        hyp: hyp.clone(),
        body: Box::new(Deduction::Block {
            line: 0,
            elems: body,
        }),
    };
    Deduction::Block {
        line: 0,
        elems: vec![
            Element::Ded {
                name: None,
                ded: assume,
            },
            from_step(
                None,
                goal.clone(),
                vec![Arg::Formula(Formula::imp(hyp, Formula::False))],
            ),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::super::check::{Mode, named_premises};
    use super::super::ndl::print;
    use super::super::ndlf::{NdlfOptions, check_parsed_ndlf};
    use super::super::sat;
    use super::*;
    use proptest::prelude::*;

    fn f(s: &str) -> Formula {
        Formula::parse(s).unwrap()
    }

    /// Refutes `[f1, premises..]`, checks the refutation and its NDL_f
    /// translation, and returns the step count.
    fn refute_and_check(f1: &Formula, premises: &[Formula], goal: &Formula) -> Option<usize> {
        let mut all = vec![f1.clone()];
        all.extend(premises.iter().cloned());
        let (atoms, inputs) = clausify_all(&all, 4096).unwrap();
        let r = match refute(&inputs, atoms.atoms.len(), 100_000) {
            Ok(r) => r,
            Err(RefuteError::Satisfiable) => return None,
            Err(RefuteError::Budget) => panic!("budget"),
        };
        r.verify(&inputs).unwrap();
        let proof = to_ndlf(&r, &atoms, premises, goal);
        let opts = NdlfOptions {
            max_premise_conjuncts: None,
            ..NdlfOptions::default()
        };
        let rep = check_parsed_ndlf(&named_premises(premises), goal, &proof, Mode::Strict, &opts);
        assert!(rep.ok(), "{:?}\n{}", rep.result, print(&proof));
        Some(r.steps())
    }

    #[test]
    fn clausal_form_and_rendering() {
        let mut atoms = AtomTable::default();
        let cs = clausify(&f("((A & B) ==> (C | D))"), &mut atoms, 100).unwrap();
        assert_eq!(cs.len(), 1);
        assert_eq!(render_clause(&cs[0], &atoms), f("((A & B) ==> (C | D))"));
        let cs = clausify(&f("(A <==> (~ B))"), &mut atoms, 100).unwrap();
        assert_eq!(cs.len(), 2);
        let cs = clausify(&f("(A ==> (~ B))"), &mut atoms, 100).unwrap();
        assert_eq!(render_clause(&cs[0], &atoms), f("(A ==> (~ B))"));
        assert!(
            clausify(&f("(A | (~ A))"), &mut atoms, 100)
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            clausify(&f("false"), &mut atoms, 100).unwrap(),
            vec![Clause(vec![])]
        );
        let big = f("((A <==> B) <==> ((C <==> D) <==> (E <==> (A1 <==> B1))))");
        assert!(clausify(&big, &mut atoms, 8).is_none());
    }

    #[test]
    fn refutes_modus_ponens_chains_and_small_pigeonholes() {
        let ps = vec![f("A"), f("(A ==> B)"), f("(B ==> C)")];
        assert_eq!(refute_and_check(&f("(~ C)"), &ps, &f("C")), Some(3));
        // Three pigeons, two holes.
        let mut fs = Vec::new();
        for i in 1..=3 {
            fs.push(f(&format!("(P{i}_1 | P{i}_2)")));
        }
        for h in 1..=2 {
            for i in 1..=3 {
                for j in i + 1..=3 {
                    fs.push(f(&format!("(P{i}_{h} ==> (~ P{j}_{h}))")));
                }
            }
        }
        let goal = fs[0].complement();
        let steps = refute_and_check(&fs[0], &fs[1..], &goal).unwrap();
        assert!(steps > 5, "{steps}");
        // Satisfiable: no refutation.
        assert_eq!(
            refute_and_check(&f("A"), &[f("(A ==> B)")], &f("(~ A)")),
            None
        );
    }

    proptest! {
        /// Whenever random formulas are jointly unsatisfiable, the solver's
        /// refutation re-checks step by step and its NDL_f translation passes
        /// the NDL_f checker; when they are satisfiable, no refutation exists.
        #[test]
        fn refutations_always_check(
            fs in prop::collection::vec(super::super::formula::tests::arb_formula_sized(3, 7), 2..7),
        ) {
            let unsat = !sat::satisfiable(&fs);
            let goal = fs[0].complement();
            let r = refute_and_check(&fs[0], &fs[1..], &goal);
            prop_assert_eq!(r.is_some(), unsat);
        }
    }
}
