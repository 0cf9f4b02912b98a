//! Clausification of FOF formulas into small clause sets, after Nonnengart
//! and Weidenbach, "Computing small clause normal forms" (Handbook of
//! Automated Reasoning, 2001), the scheme E and Vampire follow:
//!
//! 1. **Truth constants** are simplified away (`$true & F` is `F`, ...).
//!    A formula that becomes `$true` yields no clause, `$false` the empty one.
//! 2. **Conjectures** are negated first: the conjunction of a problem's FOF
//!    conjectures is negated as one formula (role `negated_conjecture`).
//! 3. **NNF** with polarity: `=>` and `<=>` are expanded by the polarity of
//!    their occurrence. An operand of `<=>` that itself contains `<=>` is
//!    named first (a fresh predicate `d(x̄) <=> G`), so nested equivalences
//!    grow linearly, not exponentially.
//! 4. **Miniscoping** pushes quantifiers inwards (`∀x (A & B)` becomes
//!    `∀x A & ∀x B`; `∀x (A | B)` with `x` not free in `B` becomes
//!    `(∀x A) | B`; dually for `∃`), so Skolem functions take fewer arguments.
//! 5. **Skolemisation** replaces each `∃x` by a fresh function of the
//!    universal variables free in its scope; Skolem symbols are `sk1, sk2,
//!    ...` numbered in reading order, with a prefix (`sk`, `sk_`, `sk__` ...)
//!    that no input symbol starts (followed by a digit) with, so they never
//!    clash. Universal variables are renamed apart at the same time.
//! 6. **Distribution with definitional naming**: `A | B` is multiplied out
//!    unless that gives more clauses than naming one side: when `m * n >
//!    m + n` for the clause counts of the two sides, the side with more
//!    clauses `C1 & ... & Ck` is replaced by a fresh atom `d(x̄)` and the
//!    clauses `~d(x̄) | Ci` are added (one direction suffices: the occurrence
//!    is positive in NNF, the Plaisted-Greenbaum refinement N&W use).
//!    Definition predicates are `def1, def2, ...`, named apart as Skolems are.
//!
//! Every step preserves satisfiability, and every model of the clause set is
//! a model of the original formulas (Skolem terms and definitions only
//! strengthen them), so refutations and models of the clauses answer for the
//! formulas. Clauses with complementary literals are dropped; repeated
//! literals are merged.

use super::ast::{
    Clausified, ClausifyStats, Entry, FofInput, FofLine, Formula, ParsedClause, Problem, Role,
};
use super::printer::{formula_to_tptp, name_to_tptp, path_to_tptp};
use crate::logic::{Head, Literal, SymbolKind, TermBank, TermId, rename};

/// A prefix `stem`, `stem_`, `stem__`, ... such that no symbol of `bank`
/// is the prefix followed by a digit.
fn free_prefix(bank: &TermBank, stem: &str) -> String {
    let mut p = stem.to_string();
    loop {
        let taken = bank.sig.ids().any(|id| {
            let n = &bank.sig.get(id).name;
            n.strip_prefix(p.as_str())
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        });
        if !taken {
            return p;
        }
        p.push('_');
    }
}

/// Applies the variable map `map` (original index -> term) to `t`.
fn apply(bank: &mut TermBank, t: TermId, map: &[Option<TermId>]) -> TermId {
    if bank.is_ground(t) {
        return t;
    }
    match bank.head(t) {
        Head::Var(v) => map.get(v as usize).copied().flatten().unwrap_or(t),
        Head::Sym(f) => {
            let args: Vec<TermId> = bank.args(t).to_vec();
            let args: Vec<TermId> = args.into_iter().map(|a| apply(bank, a, map)).collect();
            bank.app(f, &args)
        }
    }
}

/// The variables occurring in literals of `f`, bound or not.
fn occurring(bank: &TermBank, f: &Formula, out: &mut Vec<u32>) {
    match f {
        Formula::True | Formula::False => {}
        Formula::Lit(l) => {
            bank.push_vars(l.lhs, out);
            bank.push_vars(l.rhs, out);
        }
        Formula::Not(g) | Formula::Forall(_, g) | Formula::Exists(_, g) => occurring(bank, g, out),
        Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|g| occurring(bank, g, out)),
        Formula::Imp(a, b) | Formula::Iff(a, b) => {
            occurring(bank, a, out);
            occurring(bank, b, out);
        }
    }
}

/// The variables bound by quantifiers inside `f`.
fn bound_in(f: &Formula, out: &mut Vec<u32>) {
    match f {
        Formula::True | Formula::False | Formula::Lit(_) => {}
        Formula::Not(g) => bound_in(g, out),
        Formula::Forall(vs, g) | Formula::Exists(vs, g) => {
            out.extend(vs);
            bound_in(g, out);
        }
        Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|g| bound_in(g, out)),
        Formula::Imp(a, b) | Formula::Iff(a, b) => {
            bound_in(a, out);
            bound_in(b, out);
        }
    }
}

/// The free variables of `f`, sorted, without repeats. (Within one formula
/// each binding has its own index, so a variable is free exactly when it
/// occurs and is bound by no quantifier inside.)
fn free_vars(bank: &TermBank, f: &Formula) -> Vec<u32> {
    let mut occ = Vec::new();
    occurring(bank, f, &mut occ);
    let mut bound = Vec::new();
    bound_in(f, &mut bound);
    occ.retain(|v| !bound.contains(v));
    occ.sort_unstable();
    occ.dedup();
    occ
}

fn occurs(bank: &TermBank, v: u32, f: &Formula) -> bool {
    let mut occ = Vec::new();
    occurring(bank, f, &mut occ);
    occ.contains(&v)
}

/// Removes `$true` and `$false` below the top: the result is `True`,
/// `False`, or a formula without either.
pub(crate) fn simplify(f: Formula) -> Formula {
    use Formula::*;
    match f {
        True | False | Lit(_) => f,
        Not(g) => match simplify(*g) {
            True => False,
            False => True,
            g => g.negated(),
        },
        And(fs) => {
            let mut out = Vec::new();
            for g in fs {
                match simplify(g) {
                    True => {}
                    False => return False,
                    g => out.push(g),
                }
            }
            match out.len() {
                0 => True,
                1 => out.pop().unwrap_or(True),
                _ => And(out),
            }
        }
        Or(fs) => {
            let mut out = Vec::new();
            for g in fs {
                match simplify(g) {
                    False => {}
                    True => return True,
                    g => out.push(g),
                }
            }
            match out.len() {
                0 => False,
                1 => out.pop().unwrap_or(False),
                _ => Or(out),
            }
        }
        Imp(a, b) => match (simplify(*a), simplify(*b)) {
            (False, _) | (_, True) => True,
            (True, b) => b,
            (a, False) => a.negated(),
            (a, b) => Imp(Box::new(a), Box::new(b)),
        },
        Iff(a, b) => match (simplify(*a), simplify(*b)) {
            (True, g) | (g, True) => g,
            (False, g) | (g, False) => simplify(g.negated()),
            (a, b) => Iff(Box::new(a), Box::new(b)),
        },
        Forall(vs, g) => match simplify(*g) {
            g @ (True | False) => g,
            g => Forall(vs, Box::new(g)),
        },
        Exists(vs, g) => match simplify(*g) {
            g @ (True | False) => g,
            g => Exists(vs, Box::new(g)),
        },
    }
}

fn contains_iff(f: &Formula) -> bool {
    match f {
        Formula::Iff(..) => true,
        Formula::True | Formula::False | Formula::Lit(_) => false,
        Formula::Not(g) | Formula::Forall(_, g) | Formula::Exists(_, g) => contains_iff(g),
        Formula::And(fs) | Formula::Or(fs) => fs.iter().any(contains_iff),
        Formula::Imp(a, b) => contains_iff(a) || contains_iff(b),
    }
}

/// Miniscoping of an NNF formula (see the module notes).
fn miniscope(bank: &TermBank, f: Formula) -> Formula {
    match f {
        Formula::And(fs) => Formula::And(fs.into_iter().map(|g| miniscope(bank, g)).collect()),
        Formula::Or(fs) => Formula::Or(fs.into_iter().map(|g| miniscope(bank, g)).collect()),
        Formula::Forall(vs, g) => {
            let g = miniscope(bank, *g);
            vs.iter()
                .rev()
                .fold(g, |acc, &v| push_quant(bank, v, acc, true))
        }
        Formula::Exists(vs, g) => {
            let g = miniscope(bank, *g);
            vs.iter()
                .rev()
                .fold(g, |acc, &v| push_quant(bank, v, acc, false))
        }
        f => f,
    }
}

/// `∀v f` (or `∃v f`) with the quantifier pushed as far in as it goes.
fn push_quant(bank: &TermBank, v: u32, f: Formula, universal: bool) -> Formula {
    if !occurs(bank, v, &f) {
        return f;
    }
    let wrap = |g: Formula| {
        if universal {
            Formula::Forall(vec![v], Box::new(g))
        } else {
            Formula::Exists(vec![v], Box::new(g))
        }
    };
    match f {
        // The connective the quantifier distributes over.
        Formula::And(fs) if universal => Formula::And(
            fs.into_iter()
                .map(|g| push_quant(bank, v, g, universal))
                .collect(),
        ),
        Formula::Or(fs) if !universal => Formula::Or(
            fs.into_iter()
                .map(|g| push_quant(bank, v, g, universal))
                .collect(),
        ),
        // The other one: only the operands with `v` stay in its scope.
        Formula::And(fs) | Formula::Or(fs) => {
            let is_and = !universal;
            let (mut with, mut without): (Vec<Formula>, Vec<Formula>) =
                fs.into_iter().partition(|g| occurs(bank, v, g));
            let inner = if with.len() == 1 {
                push_quant(bank, v, with.pop().unwrap_or(Formula::True), universal)
            } else if is_and {
                wrap(Formula::And(with))
            } else {
                wrap(Formula::Or(with))
            };
            if without.is_empty() {
                return inner;
            }
            without.push(inner);
            if is_and {
                Formula::And(without)
            } else {
                Formula::Or(without)
            }
        }
        f => wrap(f),
    }
}

/// A TSTP source and the derivation lines it cites.
type Cited = (String, Vec<String>);

/// Clausification state for one problem: symbol naming and counters.
struct Clausifier {
    sk_prefix: String,
    def_prefix: String,
    stats: ClausifyStats,
    /// `<=>` operand definitions still to clausify: atom, free variables,
    /// the named formula and the name of its definition line.
    pending: Vec<(Literal, Vec<u32>, Formula, String)>,
    /// Clauses of distribution definitions.
    def_clauses: Vec<Vec<Literal>>,
    /// Names of the distribution definition lines introduced since the
    /// last clause-producing step.
    def_lines: Vec<String>,
    /// The derivation so far (see [`FofLine`]).
    lines: Vec<FofLine>,
    /// Original names of the fresh variables (`fresh_names[i]` for fresh
    /// variable `i`).
    fresh_names: Vec<String>,
}

impl Clausifier {
    fn new(bank: &TermBank) -> Self {
        Clausifier {
            sk_prefix: free_prefix(bank, "sk"),
            def_prefix: free_prefix(bank, "def"),
            stats: ClausifyStats::default(),
            pending: Vec::new(),
            def_clauses: Vec::new(),
            def_lines: Vec::new(),
            lines: Vec::new(),
            fresh_names: Vec::new(),
        }
    }

    /// Adds a derivation line and returns its name.
    fn line(
        &mut self,
        bank: &TermBank,
        role: Role,
        formula: &Formula,
        source: String,
        parents: Vec<String>,
    ) -> String {
        let name = format!("f{}", self.lines.len() + 1);
        self.lines.push(FofLine {
            name: name.clone(),
            role,
            formula: formula_to_tptp(bank, formula),
            source,
            parents,
        });
        name
    }

    /// Adds the step `rule` from `parents` giving `formula`, unless it is a
    /// single-premise step that changed nothing visible (the formula prints
    /// as its premise does): then the premise stands for it.
    fn step(
        &mut self,
        bank: &TermBank,
        role: Role,
        formula: &Formula,
        source: String,
        parents: Vec<String>,
    ) -> String {
        if let [p] = parents.as_slice()
            && let Some(l) = self.lines.iter().rev().find(|l| &l.name == p)
            && l.formula == formula_to_tptp(bank, formula)
        {
            return p.clone();
        }
        self.line(bank, role, formula, source, parents)
    }

    /// Adds the introduced definition `∀vars (d <=> body)` as a line.
    fn definition_line(
        &mut self,
        bank: &TermBank,
        d: Literal,
        vars: Vec<u32>,
        body: Formula,
    ) -> String {
        let symbol = match bank.head(d.lhs) {
            Head::Sym(s) => bank.sig.get(s).name.clone(),
            Head::Var(_) => String::new(),
        };
        let f = Formula::Forall(
            vars,
            Box::new(Formula::Iff(Box::new(Formula::Lit(d)), Box::new(body))),
        );
        let source = format!("introduced(definition,[new_symbols(definition,[{symbol}])])");
        self.line(bank, Role::Definition, &f, source, Vec::new())
    }

    /// A fresh definition atom over the variables `vars`.
    fn def_atom(&mut self, bank: &mut TermBank, vars: &[u32]) -> Literal {
        self.stats.definitions += 1;
        let name = format!("{}{}", self.def_prefix, self.stats.definitions);
        let d = bank
            .sig
            .intern(&name, vars.len() as u32, SymbolKind::Predicate);
        let args: Vec<TermId> = vars.iter().map(|&v| bank.var(v)).collect();
        let atom = bank.app(d, &args);
        Literal::atom(bank, atom, true)
    }

    /// `<=>` operand `g`, named when it contains `<=>` itself.
    fn iff_operand(&mut self, bank: &mut TermBank, g: Formula) -> Formula {
        if !contains_iff(&g) {
            return g;
        }
        let fv = free_vars(bank, &g);
        let d = self.def_atom(bank, &fv);
        let name = self.definition_line(bank, d, fv.clone(), g.clone());
        self.pending.push((d, fv, g, name));
        Formula::Lit(d)
    }

    /// Names (bottom-up) every operand of `<=>` in `f` that itself holds
    /// `<=>`, so that the two copies NNF makes of each operand never hold
    /// another equivalence: the result grows linearly in `f`.
    fn prename(&mut self, bank: &mut TermBank, f: Formula) -> Formula {
        use Formula::*;
        match f {
            Iff(a, b) => {
                let a = self.prename(bank, *a);
                let a = self.iff_operand(bank, a);
                let b = self.prename(bank, *b);
                let b = self.iff_operand(bank, b);
                Iff(Box::new(a), Box::new(b))
            }
            Not(g) => self.prename(bank, *g).negated(),
            And(fs) => And(fs.into_iter().map(|g| self.prename(bank, g)).collect()),
            Or(fs) => Or(fs.into_iter().map(|g| self.prename(bank, g)).collect()),
            Imp(a, b) => Imp(
                Box::new(self.prename(bank, *a)),
                Box::new(self.prename(bank, *b)),
            ),
            Forall(vs, g) => Forall(vs, Box::new(self.prename(bank, *g))),
            Exists(vs, g) => Exists(vs, Box::new(self.prename(bank, *g))),
            f => f,
        }
    }

    /// Negation normal form of `f` (negated when `!pos`): only literals,
    /// `And`, `Or` and quantifiers remain.
    fn nnf(&mut self, f: Formula, pos: bool) -> Formula {
        use Formula::*;
        match f {
            True if pos => And(vec![]),
            False if !pos => And(vec![]),
            True | False => Or(vec![]),
            Lit(l) => Lit(if pos { l } else { l.negate() }),
            Not(g) => self.nnf(*g, !pos),
            And(fs) => {
                let gs = fs.into_iter().map(|g| self.nnf(g, pos)).collect();
                if pos { And(gs) } else { Or(gs) }
            }
            Or(fs) => {
                let gs = fs.into_iter().map(|g| self.nnf(g, pos)).collect();
                if pos { Or(gs) } else { And(gs) }
            }
            Imp(a, b) => {
                let (a, b) = (self.nnf(*a, !pos), self.nnf(*b, pos));
                if pos { Or(vec![a, b]) } else { And(vec![a, b]) }
            }
            Iff(a, b) => {
                // Operands were named by `prename` where they hold `<=>`.
                let (a, b) = (*a, *b);
                let (a2, b2) = (a.clone(), b.clone());
                let (na, pa) = (self.nnf(a, false), self.nnf(a2, true));
                let (nb, pb) = (self.nnf(b, false), self.nnf(b2, true));
                if pos {
                    And(vec![Or(vec![na, pb]), Or(vec![pa, nb])])
                } else {
                    And(vec![Or(vec![pa, pb]), Or(vec![na, nb])])
                }
            }
            Forall(vs, g) => {
                let g = Box::new(self.nnf(*g, pos));
                if pos { Forall(vs, g) } else { Exists(vs, g) }
            }
            Exists(vs, g) => {
                let g = Box::new(self.nnf(*g, pos));
                if pos { Exists(vs, g) } else { Forall(vs, g) }
            }
        }
    }

    /// A fresh variable standing for the original variable `v`.
    fn fresh(&mut self, bank: &mut TermBank, names: &[String], v: u32) -> TermId {
        let i = self.fresh_names.len() as u32;
        let name = names
            .get(v as usize)
            .cloned()
            .unwrap_or_else(|| format!("X{v}"));
        self.fresh_names.push(name);
        bank.var(i)
    }

    /// Skolemises an NNF formula and renames its universal variables to
    /// fresh ones, removing every quantifier. `map` holds the term each
    /// bound original variable stands for.
    fn skolemize(
        &mut self,
        bank: &mut TermBank,
        f: Formula,
        names: &[String],
        map: &mut Vec<Option<TermId>>,
    ) -> Formula {
        let set = |map: &mut Vec<Option<TermId>>, v: u32, t: TermId| {
            if map.len() <= v as usize {
                map.resize(v as usize + 1, None);
            }
            map[v as usize] = Some(t);
        };
        match f {
            Formula::Lit(l) => {
                let lhs = apply(bank, l.lhs, map);
                let rhs = apply(bank, l.rhs, map);
                Formula::Lit(Literal::eq(lhs, rhs, l.pos))
            }
            Formula::And(fs) => Formula::And(
                fs.into_iter()
                    .map(|g| self.skolemize(bank, g, names, map))
                    .collect(),
            ),
            Formula::Or(fs) => Formula::Or(
                fs.into_iter()
                    .map(|g| self.skolemize(bank, g, names, map))
                    .collect(),
            ),
            Formula::Forall(vs, g) => {
                for &v in &vs {
                    let t = self.fresh(bank, names, v);
                    set(map, v, t);
                }
                self.skolemize(bank, *g, names, map)
            }
            Formula::Exists(vs, g) => {
                let whole = Formula::Exists(vs, g);
                let mut args: Vec<u32> = Vec::new();
                for v in free_vars(bank, &whole) {
                    if let Some(Some(t)) = map.get(v as usize) {
                        bank.push_vars(*t, &mut args);
                    }
                }
                args.sort_unstable();
                args.dedup();
                let Formula::Exists(vs, g) = whole else {
                    unreachable!("rebuilt above")
                };
                let arg_terms: Vec<TermId> = args.iter().map(|&i| bank.var(i)).collect();
                for &v in &vs {
                    self.stats.skolems += 1;
                    let name = format!("{}{}", self.sk_prefix, self.stats.skolems);
                    let s = bank
                        .sig
                        .intern(&name, arg_terms.len() as u32, SymbolKind::Function);
                    let t = bank.app(s, &arg_terms);
                    set(map, v, t);
                }
                self.skolemize(bank, *g, names, map)
            }
            f => f,
        }
    }

    /// The clauses of a quantifier-free NNF formula, naming the larger side
    /// of a disjunction when multiplying out would give more clauses.
    fn cnf(&mut self, bank: &mut TermBank, f: Formula) -> Vec<Vec<Literal>> {
        match f {
            Formula::Lit(l) => vec![vec![l]],
            Formula::And(fs) => fs.into_iter().flat_map(|g| self.cnf(bank, g)).collect(),
            Formula::Or(fs) => {
                let mut acc: Vec<Vec<Literal>> = vec![vec![]];
                for g in fs {
                    let mut cc = self.cnf(bank, g);
                    let (m, n) = (acc.len(), cc.len());
                    if m > 1 && n > 1 && m.saturating_mul(n) > m + n {
                        if m > n {
                            acc = self.name_clauses(bank, acc);
                        } else {
                            cc = self.name_clauses(bank, cc);
                        }
                    }
                    let mut next = Vec::with_capacity(acc.len() * cc.len());
                    for a in &acc {
                        for c in &cc {
                            let mut lits = a.clone();
                            lits.extend_from_slice(c);
                            next.push(lits);
                        }
                    }
                    acc = next;
                }
                acc
            }
            // Quantifiers are gone and truth constants were simplified.
            _ => vec![],
        }
    }

    /// Replaces the conjunction of `clauses` by a fresh atom `d(x̄)` over
    /// their variables and records `~d(x̄) | C` for each clause `C`.
    fn name_clauses(
        &mut self,
        bank: &mut TermBank,
        clauses: Vec<Vec<Literal>>,
    ) -> Vec<Vec<Literal>> {
        let mut vars = Vec::new();
        for c in &clauses {
            for l in c {
                bank.push_vars(l.lhs, &mut vars);
                bank.push_vars(l.rhs, &mut vars);
            }
        }
        vars.sort_unstable();
        vars.dedup();
        let d = self.def_atom(bank, &vars);
        let body = Formula::And(
            clauses
                .iter()
                .map(|c| Formula::Or(c.iter().map(|&l| Formula::Lit(l)).collect()))
                .collect(),
        );
        let name = self.definition_line(bank, d, vars, body);
        self.def_lines.push(name);
        for mut c in clauses {
            c.insert(0, d.negate());
            self.def_clauses.push(c);
        }
        vec![vec![d]]
    }

    /// All clauses of the closed formula `f` whose variable names are
    /// `names`, definitions last, each with its TSTP source. `from` is the
    /// derivation line holding `f`; the steps are added as lines (`role`
    /// for the formula's own chain): `fof_nnf` (truth constants, `<=>`
    /// operands named by definitions, NNF), `shift_quantors` (miniscoping),
    /// `skolemize` (or `variable_rename` when nothing was Skolemised), then
    /// `clausify` for the clauses (distribution, with its definitions).
    fn clausify(
        &mut self,
        bank: &mut TermBank,
        f: Formula,
        names: &[String],
        from: &str,
        role: Role,
    ) -> Vec<(Vec<Literal>, Vec<String>, Clausified)> {
        self.fresh_names.clear();
        // Each clause with its source and the lines that source cites.
        let mut raw: Vec<(Vec<Literal>, Cited)> = Vec::new();
        match simplify(f) {
            Formula::True => {}
            Formula::False => {
                let parents = vec![from.to_string()];
                raw.push((vec![], (inference("clausify", "thm", &parents), parents)));
            }
            f => {
                let f = self.prename(bank, f);
                let mut parents = vec![from.to_string()];
                parents.extend(self.pending.iter().map(|p| p.3.clone()));
                let n = self.nnf(f, true);
                let mut todo = vec![(n, parents, role)];
                while let Some((n, parents, role)) = todo.pop() {
                    let src = inference("fof_nnf", "thm", &parents);
                    let n_name = self.step(bank, role, &n, src, parents);
                    let m = miniscope(bank, n);
                    let src = inference("shift_quantors", "thm", std::slice::from_ref(&n_name));
                    let m_name = self.step(bank, role, &m, src, vec![n_name]);
                    let first_skolem = self.stats.skolems + 1;
                    let s = self.skolemize(bank, m, names, &mut Vec::new());
                    let src = if self.stats.skolems < first_skolem {
                        inference("variable_rename", "thm", std::slice::from_ref(&m_name))
                    } else {
                        let sks: Vec<String> = (first_skolem..=self.stats.skolems)
                            .map(|k| format!("{}{k}", self.sk_prefix))
                            .collect();
                        format!(
                            "inference(skolemize,[status(esa),new_symbols(skolem,[{}])],[{m_name}])",
                            sks.join(",")
                        )
                    };
                    let closed = Formula::Forall(free_vars(bank, &s), Box::new(s.clone()));
                    let s_name = self.step(bank, role, &closed, src, vec![m_name]);
                    let clauses = self.cnf(bank, s);
                    let mut cited = vec![s_name];
                    cited.append(&mut self.def_lines);
                    let src = (inference("clausify", "thm", &cited), cited);
                    raw.extend(clauses.into_iter().map(|c| (c, src.clone())));
                    raw.extend(self.def_clauses.drain(..).map(|c| (c, src.clone())));
                    // Definitions of `<=>` operands: ∀x̄ (d(x̄) <=> G).
                    for (d, fv, g, name) in std::mem::take(&mut self.pending) {
                        let g2 = g.clone();
                        let pos = self.nnf(g, true);
                        let neg = self.nnf(g2, false);
                        let body = Formula::And(vec![
                            Formula::Or(vec![Formula::Lit(d.negate()), pos]),
                            Formula::Or(vec![Formula::Lit(d), neg]),
                        ]);
                        todo.insert(
                            0,
                            (Formula::Forall(fv, Box::new(body)), vec![name], Role::Plain),
                        );
                    }
                }
            }
        }
        raw.into_iter()
            .filter_map(|(c, (source, parents))| {
                self.finish(bank, c).map(|(lits, names, raw)| {
                    let origin = Clausified {
                        source,
                        parents,
                        raw,
                        formula: String::new(),
                    };
                    (lits, names, origin)
                })
            })
            .collect()
    }

    /// Merges repeated literals, drops tautologies and numbers the
    /// variables `X0, X1, ...` by first occurrence.
    fn finish(
        &mut self,
        bank: &mut TermBank,
        lits: Vec<Literal>,
    ) -> Option<(Vec<Literal>, Vec<String>, String)> {
        let mut out: Vec<Literal> = Vec::with_capacity(lits.len());
        for l in lits {
            if out.contains(&l.negate()) || (l.pos && l.lhs == l.rhs) {
                self.stats.tautologies += 1;
                return None;
            }
            if !out.contains(&l) {
                out.push(l);
            }
        }
        let raw = super::printer::clause_to_tptp(bank, &out);
        let mut order = Vec::new();
        for l in &out {
            bank.push_vars(l.lhs, &mut order);
            bank.push_vars(l.rhs, &mut order);
        }
        let mut seen: Vec<u32> = Vec::new();
        for v in order {
            if !seen.contains(&v) {
                seen.push(v);
            }
        }
        let bound = seen.iter().copied().max().map_or(0, |m| m as usize + 1);
        let mut map = vec![0u32; bound];
        let mut names = Vec::with_capacity(seen.len());
        for (i, &v) in seen.iter().enumerate() {
            map[v as usize] = i as u32;
            let base = self
                .fresh_names
                .get(v as usize)
                .cloned()
                .unwrap_or_else(|| format!("X{v}"));
            let name = if names.contains(&base) {
                format!("{base}_{i}")
            } else {
                base
            };
            names.push(name);
        }
        let lits = out
            .into_iter()
            .map(|l| Literal::eq(rename(bank, l.lhs, &map), rename(bank, l.rhs, &map), l.pos))
            .collect();
        self.stats.clauses += 1;
        Some((lits, names, raw))
    }
}

/// Clausifies one closed formula in `bank` (variables named `X<i>`),
/// for tests and tools. Skolem and definition symbols are named apart from
/// the symbols already in `bank`.
pub fn clausify_formula(bank: &mut TermBank, f: &Formula) -> (Vec<Vec<Literal>>, ClausifyStats) {
    let mut c = Clausifier::new(bank);
    let clauses = c.clausify(bank, f.clone(), &[], "f0", Role::Axiom);
    (clauses.into_iter().map(|(l, _, _)| l).collect(), c.stats)
}

/// An inference record `inference(rule,[status(status)],[parents])`.
fn inference(rule: &str, status: &str, parents: &[String]) -> String {
    format!(
        "inference({rule},[status({status})],[{}])",
        parents.join(",")
    )
}

#[path = "clausify_problem.rs"]
mod problem;
pub(crate) use problem::clausify_entries;

#[cfg(test)]
#[path = "clausify_tests.rs"]
mod tests;
