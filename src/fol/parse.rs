//! Reading first-order formulas in TPTP FOF syntax: the text goes through
//! the TPTP reader's FOF formula parser ([`crate::tptp::parse_fof_formula`],
//! the crate's one FOF parser: the BNF's precedence, located errors,
//! nesting bounded by [`crate::tptp::MAX_NESTING`]) and its tree over a
//! scratch term bank is read back as a [`Fol`]. On top of the BNF the
//! formulas keep to the plain syntax prompts show: ASCII, symbols and
//! variables are words of letters, digits and `_` starting with a letter
//! (no quoted names, numbers, distinct objects, comments or `$` words
//! other than `$true` and `$false`), and every variable is bound.

use super::{Bin, Fol, Quant, Term};
use crate::logic::{TermBank, TermId};
use crate::tptp::{Formula, parse_fof_formula};

/// The ASCII characters a formula may use besides letters, digits, `_`
/// and whitespace (`$` only to start `$true` or `$false`).
const PUNCTUATION: &str = "()[],:!?~&|=<>$";

/// The first character outside the plain syntax, as an error naming its
/// column (non-ASCII characters are looked for first).
fn lexical_check(t: &str) -> Result<(), String> {
    let column = |i: usize| t[..i].chars().count() + 1;
    if let Some((i, c)) = t.char_indices().find(|(_, c)| !c.is_ascii()) {
        return Err(format!("column {}: unexpected character {c:?}", column(i)));
    }
    let bad = t.char_indices().find(|&(i, c)| {
        let plain = c.is_ascii_alphanumeric()
            || c == '_'
            || c.is_ascii_whitespace()
            || PUNCTUATION.contains(c);
        !plain || (c == '$' && !t[i..].starts_with("$true") && !t[i..].starts_with("$false"))
    });
    match bad {
        Some((i, c)) => Err(format!("column {}: unexpected character {c:?}", column(i))),
        None => Ok(()),
    }
}

/// Whether `name` is a plain symbol name: a lower-case letter, then
/// letters, digits and `_`.
fn plain_symbol(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The bank term `t` as a [`Term`]; `names[i]` names variable `i`.
fn term(bank: &TermBank, names: &[String], t: TermId) -> Result<Term, String> {
    if let Some(i) = bank.var_index(t) {
        let name = names.get(i as usize).cloned();
        return name
            .map(Term::Var)
            .ok_or_else(|| format!("unnamed variable {i}"));
    }
    let name = &bank.sig.get(bank.sym(t)).name;
    if !plain_symbol(name) {
        return Err(format!(
            "{name} is not a symbol name (a lower-case letter, then letters, digits and _)"
        ));
    }
    let args = bank.args(t).iter().map(|&a| term(bank, names, a));
    Ok(Term::App(name.clone(), args.collect::<Result<_, _>>()?))
}

/// The reader's tree as a [`Fol`]: `&` and `|` chains grouped to the left,
/// a quantifier over several variables as nested quantifiers, `s != t` as
/// `~ (s = t)`.
fn formula(bank: &TermBank, names: &[String], f: &Formula) -> Result<Fol, String> {
    let chain = |op: Bin, fs: &[Formula]| -> Result<Fol, String> {
        let mut parts = fs.iter().map(|g| formula(bank, names, g));
        let first = parts.next().ok_or("an empty connective chain")??;
        parts.try_fold(first, |acc, g| Ok(Fol::bin(op, acc, g?)))
    };
    let quantified = |q: Quant, vars: &[u32], body: &Formula| -> Result<Fol, String> {
        let mut acc = formula(bank, names, body)?;
        for &i in vars.iter().rev() {
            let x = names.get(i as usize).ok_or("an unnamed bound variable")?;
            acc = Fol::Q(q, x.clone(), Box::new(acc));
        }
        Ok(acc)
    };
    Ok(match f {
        Formula::True => Fol::True,
        Formula::False => Fol::False,
        Formula::Lit(l) => {
            let atom = if l.rhs == bank.true_term() {
                match term(bank, names, l.lhs)? {
                    Term::App(p, args) => Fol::Atom(p, args),
                    Term::Var(v) => return Err(format!("the variable {v} stands as a formula")),
                }
            } else {
                Fol::Eq(term(bank, names, l.lhs)?, term(bank, names, l.rhs)?)
            };
            if l.pos { atom } else { Fol::negation(atom) }
        }
        Formula::Not(g) => Fol::negation(formula(bank, names, g)?),
        Formula::And(fs) => chain(Bin::And, fs)?,
        Formula::Or(fs) => chain(Bin::Or, fs)?,
        Formula::Imp(a, b) => {
            Fol::bin(Bin::Imp, formula(bank, names, a)?, formula(bank, names, b)?)
        }
        Formula::Iff(a, b) => {
            Fol::bin(Bin::Iff, formula(bank, names, a)?, formula(bank, names, b)?)
        }
        Formula::Forall(vars, body) => quantified(Quant::All, vars, body)?,
        Formula::Exists(vars, body) => quantified(Quant::Ex, vars, body)?,
    })
}

/// Reads a formula in TPTP FOF syntax (one `fof_logic_formula`, no
/// annotations; a final `.` is allowed). Free variables are an error: a
/// FOF formula is closed. Errors name the column.
pub fn parse(text: &str) -> Result<Fol, String> {
    let t = text.trim();
    let t = t.strip_suffix('.').unwrap_or(t);
    lexical_check(t)?;
    // One line, so the reader's columns are the text's.
    let line: String = t
        .chars()
        .map(|c| if c.is_ascii_whitespace() { ' ' } else { c })
        .collect();
    let mut bank = TermBank::new();
    let (f, names) = parse_fof_formula(&mut bank, &line)
        .map_err(|e| format!("column {}: {}", e.col, e.message()))?;
    let f = formula(&bank, &names, &f)?;
    let free = f.free_vars();
    if !free.is_empty() {
        return Err(format!(
            "free variable{} {} (bind every variable with ! or ?)",
            if free.len() > 1 { "s" } else { "" },
            free.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    Ok(f)
}
