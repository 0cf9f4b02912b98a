//! Unit tests of the clausifier (`clausify.rs`): truth constants, NNF,
//! miniscoping, Skolem and definition naming, provenance lines.

use crate::logic::TermBank;
use crate::tptp::{Role, clause_to_tptp, parse_str};

fn clauses(text: &str) -> (Vec<String>, crate::tptp::Problem) {
    let mut bank = TermBank::new();
    let p = parse_str(&mut bank, text, "t.p", None).unwrap_or_else(|e| panic!("{e}"));
    let cs = p
        .clauses
        .iter()
        .map(|c| clause_to_tptp(&bank, &c.lits))
        .collect();
    (cs, p)
}

#[test]
fn skolems_are_named_apart_from_input_symbols() {
    // `sk1` is an input symbol: Skolems get the prefix `sk_`.
    let (cs, p) = clauses("fof(a, axiom, ! [X] : ? [Y] : r(X,Y)).\nfof(b, axiom, p(sk1)).");
    assert_eq!(cs, ["r(X0,sk_1(X0))", "p(sk1)"]);
    assert_eq!(p.clausify.skolems, 1);
}

#[test]
fn miniscoping_gives_constants_where_it_can() {
    let (cs, _) = clauses("fof(a, axiom, ! [X] : ? [Y] : (p(X) & q(Y))).");
    assert_eq!(cs, ["p(X0)", "q(sk1)"]);
}

#[test]
fn conjectures_are_negated_and_joined() {
    let (cs, p) =
        clauses("fof(a, axiom, p).\nfof(c1, conjecture, ! [X] : q(X)).\nfof(c2, conjecture, r).");
    assert_eq!(cs, ["p", "~q(sk1) | ~r"]);
    assert_eq!(p.fof_conjectures, ["c1", "c2"]);
    assert_eq!(p.clauses[1].role, Role::NegatedConjecture);
}

#[test]
fn truth_constants_and_tautologies() {
    let (cs, p) =
        clauses("fof(a, axiom, p | $true).\nfof(b, axiom, ~ $true).\nfof(c, axiom, q | ~ q).");
    assert_eq!(cs, [""; 1].map(|_| "$false"));
    assert_eq!(p.clausify.tautologies, 1);
}

#[test]
fn distribution_is_replaced_by_naming_when_smaller() {
    // (a1&a2&a3) | (b1&b2&b3): 9 clauses multiplied out, 3 + 3 named.
    let (cs, p) = clauses("fof(a, axiom, (a1 & a2 & a3) | (b1 & b2 & b3)).");
    assert_eq!(p.clausify.definitions, 1);
    assert_eq!(cs.len(), 6, "{cs:?}");
    // (a1&a2) | (b1&b2): 4 clauses either way, multiplied out.
    let (cs, p) = clauses("fof(a, axiom, (a1 & a2) | (b1 & b2)).");
    assert_eq!((cs.len(), p.clausify.definitions), (4, 0));
}

#[test]
fn nested_equivalences_grow_linearly() {
    let mut f = "p0".to_string();
    for i in 1..12 {
        f = format!("(p{i} <=> {f})");
    }
    let (cs, _) = clauses(&format!("fof(a, axiom, {f})."));
    assert!(cs.len() < 60, "{} clauses", cs.len());
}

#[test]
fn each_clause_cites_its_derivation_from_the_formula_as_read() {
    let (_, p) = clauses("fof(ax, axiom, ! [X] : (p(X) => ? [Y] : r(X,Y))).");
    let lines: Vec<String> = p.fof_lines.iter().map(|l| l.to_tptp()).collect();
    assert_eq!(
        lines,
        [
            "fof(f1, axiom, ! [X0] : ((p(X0) => ? [X1] : (r(X0,X1)))), file('t.p', ax)).",
            "fof(f2, plain, ! [X0] : ((~p(X0) | ? [X1] : (r(X0,X1)))), inference(fof_nnf,[status(thm)],[f1])).",
            "fof(f3, plain, ! [X0] : ((~p(X0) | r(X0,sk1(X0)))), inference(skolemize,[status(esa),new_symbols(skolem,[sk1])],[f2])).",
        ]
    );
    let o = p.clauses[0].clausified.as_ref().unwrap();
    assert_eq!(o.source, "inference(clausify,[status(thm)],[f3])");
    assert_eq!(o.raw, "~p(X0) | r(X0,sk1(X0))");
    assert_eq!(p.fof_lines[2].rule(), "skolemize");
    assert_eq!(p.fof_lines[0].rule(), "input");
    // CNF clauses have no FOF origin.
    let (_, p) = clauses("cnf(c, axiom, p(X)).");
    assert!(p.clauses[0].clausified.is_none() && p.fof_lines.is_empty());
}

#[test]
fn conjectures_and_definitions_are_lines_of_their_own() {
    let (_, p) = clauses(
        "fof(a, axiom, (a1 & a2 & a3) | (b1 & b2 & b3)).\nfof(c1, conjecture, q).\nfof(c2, conjecture, r).",
    );
    let rules: Vec<&str> = p.fof_lines.iter().map(|l| l.rule()).collect();
    assert_eq!(
        rules,
        [
            "input",
            "definition",
            "input",
            "input",
            "assume_negation",
            "fof_nnf"
        ]
    );
    assert_eq!(p.fof_lines[1].role, Role::Definition);
    assert!(
        p.fof_lines[1]
            .source
            .starts_with("introduced(definition,[new_symbols(definition,[def1])])"),
        "{:?}",
        p.fof_lines[1]
    );
    assert_eq!(p.fof_lines[4].parents, ["f3", "f4"]);
    assert_eq!(p.fof_lines[4].role, Role::NegatedConjecture);
    // Every clause of the named disjunction cites the definition.
    for c in &p.clauses[..6] {
        let o = c.clausified.as_ref().unwrap();
        assert_eq!(o.parents, ["f1", "f2"], "{o:?}");
    }
}
