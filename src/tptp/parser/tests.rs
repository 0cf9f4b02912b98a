//! Unit tests of the TPTP reader (CNF and FOF).

use super::*;
use crate::logic::{Head, TermBank};
use crate::tptp::{Problem, SzsStatus, parse_clause_str, parse_str};

fn parse(text: &str) -> (TermBank, Problem) {
    let mut bank = TermBank::new();
    let p = parse_str(&mut bank, text, "t.p", None).unwrap_or_else(|e| panic!("{e}"));
    (bank, p)
}

fn err(text: &str) -> TptpError {
    let mut bank = TermBank::new();
    parse_str(&mut bank, text, "t.p", None).unwrap_err()
}

fn name_of(bank: &TermBank, t: TermId) -> String {
    match bank.head(t) {
        Head::Var(i) => format!("X{i}"),
        Head::Sym(s) => bank.sig.get(s).name.clone(),
    }
}

#[test]
fn reads_a_clause_in_source_order() {
    let (bank, p) =
        parse("cnf(c1, axiom, ( ~ member(Element,Subset) | f(Y) = Element | g(Y) != a )).\n");
    assert_eq!(p.clauses.len(), 1);
    let c = &p.clauses[0];
    assert_eq!((c.name.as_str(), c.role), ("c1", Role::Axiom));
    assert_eq!(c.var_names, vec!["Element", "Subset", "Y"]);
    assert_eq!(c.lits.len(), 3);
    let l0 = c.lits[0];
    assert!(!l0.pos && !l0.is_equational(&bank));
    assert_eq!(name_of(&bank, l0.lhs), "member");
    assert_eq!(bank.sig.get(bank.sym(l0.lhs)).kind, SymbolKind::Predicate);
    assert_eq!(bank.var_index(bank.arg(l0.lhs, 0)), Some(0));
    assert_eq!(bank.var_index(bank.arg(l0.lhs, 1)), Some(1));
    let l1 = c.lits[1];
    assert!(l1.pos && l1.is_equational(&bank));
    assert_eq!(name_of(&bank, l1.lhs), "f");
    assert_eq!(bank.var_index(l1.rhs), Some(0));
    let l2 = c.lits[2];
    assert!(!l2.pos);
    assert_eq!(name_of(&bank, l2.rhs), "a");
    assert_eq!(c.source.line, 1);
    assert_eq!(c.source.col, 1);
    assert_eq!(c.annotations, None);
}

#[test]
fn truth_constants() {
    let (bank, p) = parse(
        "cnf(a, axiom, p | $false).\ncnf(b, axiom, ~$true | q).\n\
         cnf(c, axiom, p | $true).\ncnf(d, axiom, ~ $false).\ncnf(e, axiom, $false).",
    );
    let names: Vec<_> = p.clauses.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "e"]);
    assert_eq!(p.clauses[0].lits.len(), 1);
    assert_eq!(p.clauses[1].lits.len(), 1);
    assert!(p.clauses[2].lits.is_empty());
    let t: Vec<_> = p.tautologies.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(t, ["c", "d"]);
    let tt = bank.true_term();
    assert_eq!(p.tautologies[0].lits[1], Literal::eq(tt, tt, true));
    assert_eq!(p.tautologies[1].lits, vec![Literal::eq(tt, tt, true)]);
    let e = err("cnf(a, axiom, f($true) = a).");
    assert_eq!(
        (e.col, e.kind),
        (17, ErrorKind::TruthAsTerm("$true".into()))
    );
    let e = err("cnf(a, axiom, $false = a).");
    assert_eq!(e.kind, ErrorKind::TruthAsTerm("$false".into()));
}

#[test]
fn quoted_names_numbers_and_distinct_objects() {
    let (bank, p) = parse(
        "cnf('abc', axiom, 'p'('a b', \"d o\", -1/2, 2.5e3, $$sys, $sum(1,2)) | 'Q').\n\
         cnf(17, plain, 'it\\'s' = abc).",
    );
    assert_eq!(p.clauses[0].name, "abc");
    assert_eq!(p.clauses[1].name, "17");
    let atom = p.clauses[0].lits[0].lhs;
    assert_eq!(name_of(&bank, atom), "p");
    let args: Vec<String> = bank.args(atom).iter().map(|&a| name_of(&bank, a)).collect();
    assert_eq!(args, ["'a b'", "\"d o\"", "-1/2", "2.5e3", "$$sys", "$sum"]);
    assert_eq!(name_of(&bank, p.clauses[0].lits[1].lhs), "'Q'");
    let l = p.clauses[1].lits[0];
    assert_eq!(name_of(&bank, l.lhs), "'it\\'s'");
    assert_eq!(name_of(&bank, l.rhs), "abc");
    // `'abc'` and `abc` are the same symbol.
    let (bank, p) = parse("cnf(x, axiom, f('abc') = f(abc)).");
    let l = p.clauses[0].lits[0];
    assert_eq!(l.lhs, l.rhs);
    assert_eq!(name_of(&bank, bank.arg(l.lhs, 0)), "abc");
}

#[test]
fn same_name_different_arities_are_different_symbols() {
    let (bank, p) = parse("cnf(x, axiom, p(f(a), f) | p | f(a,a) = a).");
    let c = &p.clauses[0];
    assert_ne!(bank.sym(c.lits[0].lhs), bank.sym(c.lits[1].lhs));
    let inner = bank.args(c.lits[0].lhs);
    assert_ne!(bank.sym(inner[0]), bank.sym(inner[1]));
    assert_ne!(bank.sym(inner[0]), bank.sym(c.lits[2].lhs));
}

#[test]
fn parentheses_negation_forms_and_roles() {
    let (_, p) = parse(
        "cnf(a, negated_conjecture, (((p)))).\ncnf(b, hypothesis, ~ (p)).\n\
         cnf(c, axiom-derived(x, [y]), ~ a = b).\ncnf(d, lemma-1, p).",
    );
    assert_eq!(p.clauses.len(), 4);
    assert_eq!(p.clauses[0].role, Role::NegatedConjecture);
    assert!(p.clauses[0].lits[0].pos);
    assert!(!p.clauses[1].lits[0].pos);
    assert!(!p.clauses[2].lits[0].pos);
    assert_eq!(p.clauses[3].role, Role::Lemma);
    for r in Role::ALL {
        assert_eq!(Role::from_name(r.as_str()), Some(r));
        assert_eq!(r.to_string(), r.as_str());
    }
}

#[test]
fn annotations_are_kept_verbatim() {
    let (_, p) = parse(
        "cnf(a, plain, p(X), inference(res, [status(thm), a:b:[c]], [c1, 'c 2', 3])).\n\
         cnf(b, axiom, p, file('x.ax', name), [description(\"d\"), $fof(! [X] : (p(X) => q)), iquote(X)]).\n\
         cnf(c, axiom, p, introduced(definition)).",
    );
    assert_eq!(
        p.clauses[0].annotations.as_deref(),
        Some("inference(res, [status(thm), a:b:[c]], [c1, 'c 2', 3])")
    );
    assert_eq!(
        p.clauses[1].annotations.as_deref(),
        Some("file('x.ax', name), [description(\"d\"), $fof(! [X] : (p(X) => q)), iquote(X)]")
    );
    assert_eq!(
        p.clauses[2].annotations.as_deref(),
        Some("introduced(definition)")
    );
    let e = err("cnf(a, axiom, p, file('x', n), other).");
    assert_eq!(
        e.message(),
        "expected '[' (useful info is a list) but found 'other'"
    );
    let e = err("cnf(a, axiom, p, $fof((p ]).");
    assert_eq!(e.message(), "expected ')' but found ']'");
}

#[test]
fn syntax_errors_say_what_was_expected() {
    let e = err("cnf(a, axiom, p(X.");
    assert_eq!(e.to_string(), "t.p:1:18: expected ',' or ')' but found '.'");
    let e = err("cnf(a, axiom, p(X).");
    assert_eq!(
        e.to_string(),
        "t.p:1:19: expected '|', ',' or ')' but found '.'"
    );
    let e = err("cnf(a, axiom, (p(X)).");
    assert_eq!(e.to_string(), "t.p:1:21: expected ',' or ')' but found '.'");
    let e = err("cnf(a, axiom, ((p | q).");
    assert_eq!(e.message(), "expected ')' but found '.'");
    let e = err("cnf(a, axiom, p(X)) ");
    assert_eq!(e.message(), "expected '.' but found end of file");
    let e = err("cnf(a, axiom, X).");
    assert_eq!(e.message(), "expected '=' or '!=' but found ')'");
    let e = err("cnf(a, axiom, ~ a != b).");
    assert_eq!(e.col, 19);
    let e = err("cnf(a, axiom, p()).");
    assert_eq!(e.message(), "expected a term but found ')'");
    let e = err("cnf(a, axiom, p & q).");
    assert_eq!(e.message(), "expected '|', ',' or ')' but found '&'");
    let e = err("cnf(a, axiom, p).\nfoo(b).");
    assert_eq!(
        e.to_string(),
        "t.p:2:1: expected 'cnf(', 'fof(' or 'include(' but found 'foo'"
    );
    let e = err("cnf(a, axoim, p).");
    assert_eq!(
        (e.line, e.col, e.kind),
        (1, 8, ErrorKind::BadRole("axoim".into()))
    );
    let e = err("cnf(A, axiom, p).");
    assert_eq!(e.message(), "expected a formula name but found 'A'");
}

#[test]
fn other_languages_are_refused() {
    for (lang, up) in [("tff", "TFF"), ("thf", "THF"), ("tcf", "TCF")] {
        let e = err(&format!(
            "cnf(a, axiom, p).\n  {lang}(b, axiom, ![X]: p(X))."
        ));
        assert_eq!((e.line, e.col), (2, 3));
        assert_eq!(
            e.message(),
            format!("{up} input is not supported (saturate reads CNF and FOF)")
        );
    }
}

#[test]
fn empty_inputs_are_errors() {
    for text in ["", "  % only a comment\n", "/* block */"] {
        let e = err(text);
        assert_eq!(e.kind, ErrorKind::NoFormulas);
        assert_eq!(e.to_string(), "t.p:1:1: no formulas in file");
    }
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let deep = format!(
        "cnf(a, axiom, p({}a{})).",
        "f(".repeat(5000),
        ")".repeat(5000)
    );
    assert_eq!(err(&deep).kind, ErrorKind::TooDeep(MAX_NESTING));
    let ok = format!(
        "cnf(a, axiom, p({}a{})).",
        "f(".repeat(900),
        ")".repeat(900)
    );
    parse(&ok);
    let parens = format!("cnf(a, axiom, {}p{}).", "(".repeat(5000), ")".repeat(5000));
    assert_eq!(err(&parens).kind, ErrorKind::TooDeep(MAX_NESTING));
    let ann = format!(
        "cnf(a, axiom, p, {}a{}).",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    assert_eq!(err(&ann).kind, ErrorKind::TooDeep(MAX_NESTING));
}

#[test]
fn status_header_is_read() {
    let (_, p) = parse("% File : x\n% Status   : Unsatisfiable\ncnf(a, axiom, p).");
    assert_eq!(p.status.as_deref(), Some("Unsatisfiable"));
    assert_eq!(p.szs_status(), Some(SzsStatus::Unsatisfiable));
}

#[test]
fn clause_strings() {
    let mut bank = TermBank::new();
    let lits = parse_clause_str(&mut bank, "p(X) | ~q(X, Y) | X = f(Y).").unwrap();
    assert_eq!(lits.len(), 3);
    let lits2 = parse_clause_str(&mut bank, "(p(X))").unwrap();
    assert_eq!(lits2[0], lits[0]);
    let e = parse_clause_str(&mut bank, "p(X) q").unwrap_err();
    assert_eq!(e.message(), "expected '|' or end of input but found 'q'");
}
