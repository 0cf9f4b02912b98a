//! Tests of the FOF reader (`parser.rs`, FOF part): precedence and
//! associativity as the TPTP BNF defines them, and its errors.

use super::ast::{Entry, Formula};
use super::error::TptpError;
use crate::logic::TermBank;

/// Reads `text` as the formula of `fof(f, axiom, text).`: the closed
/// formula and its number of variables.
pub(crate) fn parse_formula_for_tests(
    bank: &mut crate::logic::TermBank,
    text: &str,
) -> Result<(Formula, usize), TptpError> {
    let src = format!("fof(f, axiom, {text}).");
    let mut reader = super::include::Reader::new(bank, None);
    let out = reader.parse_text(&src, std::path::Path::new("t.p"), std::path::Path::new("."))?;
    match out.entries.into_iter().next() {
        Some(Entry::Fof(f)) => Ok((f.formula, f.var_names.len())),
        _ => unreachable!("one fof entry was read"),
    }
}

mod tests {
    use super::*;

    fn read(text: &str) -> Result<Formula, TptpError> {
        let mut bank = TermBank::new();
        parse_formula_for_tests(&mut bank, text).map(|f| f.0)
    }

    fn shape(f: &Formula) -> String {
        match f {
            Formula::True => "T".into(),
            Formula::False => "F".into(),
            Formula::Lit(l) => if l.pos { "L" } else { "-L" }.into(),
            Formula::Not(g) => format!("~{}", shape(g)),
            Formula::And(fs) => format!(
                "and({})",
                fs.iter().map(shape).collect::<Vec<_>>().join(",")
            ),
            Formula::Or(fs) => {
                format!("or({})", fs.iter().map(shape).collect::<Vec<_>>().join(","))
            }
            Formula::Imp(a, b) => format!("imp({},{})", shape(a), shape(b)),
            Formula::Iff(a, b) => format!("iff({},{})", shape(a), shape(b)),
            Formula::Forall(vs, g) => format!("all{vs:?}{}", shape(g)),
            Formula::Exists(vs, g) => format!("ex{vs:?}{}", shape(g)),
        }
    }

    #[test]
    fn precedence_and_connectives_follow_the_bnf() {
        let s = |t: &str| shape(&read(t).unwrap_or_else(|e| panic!("{t}: {e}")));
        assert_eq!(s("p | q | r"), "or(L,L,L)");
        assert_eq!(s("p & q & r"), "and(L,L,L)");
        assert_eq!(s("~ p => q"), "imp(~L,L)");
        assert_eq!(s("p <= q"), "imp(L,L)");
        assert_eq!(s("p <~> q"), "~iff(L,L)");
        assert_eq!(s("p ~| q"), "~or(L,L)");
        assert_eq!(s("p ~& q"), "~and(L,L)");
        assert_eq!(s("! [X] : p(X) => q"), "imp(all[0]L,L)");
        assert_eq!(
            s("! [X,Y] : ? [X] : (p(X) & q(Y))"),
            "all[0, 1]ex[2]and(L,L)"
        );
        assert_eq!(s("a != b & ~ a = b"), "and(-L,~L)");
        assert_eq!(s("$true | ~ $false"), "or(T,~F)");
        // Free variables are closed universally at the top.
        assert_eq!(s("p(X) | ? [Y] : q(X,Y)"), "all[0]or(L,ex[1]L)");
    }

    #[test]
    fn mixing_binary_connectives_needs_parentheses() {
        for t in ["p | q & r", "p => q => r", "p & q | r", "p <=> q <=> r"] {
            let e = read(t).unwrap_err();
            assert!(e.message().contains("parentheses"), "{t}: {}", e.message());
        }
        let e = read("! X : p(X)").unwrap_err();
        assert_eq!((e.line, e.col), (1, 17));
        assert!(read("((p | q) & r)").is_ok());
    }

    #[test]
    fn a_bare_formula_reads_whole_with_its_free_variables_left_free() {
        let mut bank = TermBank::new();
        let (f, names) =
            crate::tptp::parse_fof_formula(&mut bank, "! [X] : e(X,Y) & p(Y)").unwrap();
        assert!(matches!(&f, Formula::And(parts) if matches!(parts[0], Formula::Forall(..))));
        assert_eq!(names, ["X", "Y"]);
        // A bound name reused gets its own index.
        let (_, names) = crate::tptp::parse_fof_formula(&mut bank, "! [X] : ? [X] : p(X)").unwrap();
        assert_eq!(names, ["X", "X"]);
        // One formula and nothing after it: no annotations, no second
        // formula smuggled past a closing parenthesis.
        for t in ["p(a).", "p(a)), fof(g, axiom, q(a)", "p(a) q(a)", ""] {
            assert!(
                crate::tptp::parse_fof_formula(&mut bank, t).is_err(),
                "{t:?}"
            );
        }
        let deep = format!("{}p", "~ ".repeat(5000));
        let e = crate::tptp::parse_fof_formula(&mut bank, &deep).unwrap_err();
        assert!(e.message().contains("nesting"), "{}", e.message());
    }
}
