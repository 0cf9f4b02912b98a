//! TSTP export of a derivation: one `cnf` line per clause, inputs with a
//! `file(...)` source (or, for clauses from FOF formulas, the `clausify`
//! inference over the formula's derivation lines, which the caller prints
//! first as `fof` lines), derived clauses with (nested) `inference(...)`
//! records naming the rule and premises, as E and Vampire print them and as
//! GDV and IDV read them. File paths in `file(...)` are single-quoted
//! within the TPTP BNF, with bytes outside printable ASCII (and `%`)
//! percent-encoded, so any path reads back (`crate::tptp::unquote`).

use crate::logic::TermBank;
use crate::saturation::{ClauseId, ClauseStore, InputInfo, Record, Rule};
use crate::tptp::{Role, cnf_line};
use std::io::{self, Write};

/// The TSTP source term of a record: `file(...)` for inputs read as `cnf`,
/// the recorded `clausify` inference for inputs from FOF, otherwise the
/// generating `inference(...)` wrapped in one `inference(...)` per run of
/// simplification steps of the same kind.
pub fn inference_term(r: &Record) -> String {
    if r.rule == Rule::Input {
        return match &r.input {
            Some(InputInfo {
                source: Some(src), ..
            }) => src.clone(),
            Some(i) => format!(
                "file({}, {})",
                crate::tptp::path_to_tptp(&i.file),
                crate::tptp::name_to_tptp(&i.name)
            ),
            None => "introduced(input)".to_string(),
        };
    }
    let parents: Vec<String> = r.parents.iter().map(|p| p.to_string()).collect();
    let mut inner = if r.rule == Rule::Simplification {
        parents.join(",")
    } else {
        format!(
            "inference({},[status(thm)],[{}])",
            r.rule.name(),
            parents.join(",")
        )
    };
    let mut i = 0;
    while i < r.simps.len() {
        let kind = r.simps[i].name();
        let mut partners = Vec::new();
        let mut j = i;
        while j < r.simps.len() && r.simps[j].name() == kind {
            if let Some(p) = r.simps[j].partner()
                && !partners.contains(&p)
            {
                partners.push(p);
            }
            j += 1;
        }
        let mut args = vec![inner];
        args.extend(partners.iter().map(|p: &ClauseId| p.to_string()));
        inner = format!("inference({kind},[status(thm)],[{}])", args.join(","));
        i = j;
    }
    inner
}

/// Writes the clauses `ids` (ascending, so premises come first) as a TSTP
/// derivation.
pub fn write_tstp(
    w: &mut impl Write,
    bank: &TermBank,
    store: &ClauseStore,
    ids: impl IntoIterator<Item = ClauseId>,
) -> io::Result<()> {
    for id in ids {
        let r = store.get(id);
        // A clause from a FOF formula is inferred (E's convention: `plain`,
        // or `negated_conjecture` when it comes from the conjecture).
        let role = match (&r.input, r.rule) {
            (Some(i), Rule::Input) => match Role::from_name(&i.role).unwrap_or(Role::Plain) {
                Role::NegatedConjecture => Role::NegatedConjecture,
                _ if i.source.is_some() => Role::Plain,
                role => role,
            },
            _ => Role::Plain,
        };
        let line = cnf_line(
            &id.to_string(),
            role,
            bank,
            &r.clause.lits,
            Some(&inference_term(r)),
        );
        writeln!(w, "{line}")?;
    }
    Ok(())
}
