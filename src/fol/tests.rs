//! Tests of the first-order core: reading and printing TPTP FOF, and
//! Tarski evaluation.

use super::*;
use crate::certificate::Table;

fn p(s: &str) -> Fol {
    parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn parse_and_print_round_trip() {
    for s in [
        "! [X] : (p(X) => ? [Y] : e(X,Y))",
        "(~ p(a) | q(a))",
        "! [X,Y] : (e(X,Y) <=> e(Y,X))",
        "? [X] : ~ ! [Y] : ~ e(X,Y)",
        "(! [X] : (X = a) & $true)",
    ] {
        let f = p(s);
        assert_eq!(p(&f.to_string()), f, "{s} printed as {f}");
    }
    assert_eq!(p("p(a) & q(a) & r(a)"), p("((p(a) & q(a)) & r(a))"));
    assert_eq!(p("p(a) <= q(a)"), p("(q(a) => p(a))"));
    assert_eq!(p("p(a) <~> q(a)"), p("~ (p(a) <=> q(a))"));
    assert_eq!(p("a != b"), p("~ (a = b)"));
    assert_eq!(p("! [X] : p(X)."), p("![X]:p(X)"));
    for bad in [
        "",
        "p(X)",
        "p(a) => q(a) => r(a)",
        "p(a) & q(a) | r(a)",
        "! [x] : p(x)",
        "(p(a)",
        "X",
        "p(a) %",
    ] {
        assert!(parse(bad).is_err(), "{bad:?} parsed");
    }
    assert!(parse("p(a) => ").unwrap_err().contains("column"));
}

#[test]
fn evaluation_follows_tarski() {
    let m = Model {
        size: 2,
        functions: vec![Table {
            name: "a".into(),
            arity: 0,
            values: vec![1],
        }],
        predicates: vec![
            Table {
                name: "p".into(),
                arity: 1,
                values: vec![0, 1],
            },
            Table {
                name: "e".into(),
                arity: 2,
                values: vec![0, 1, 0, 0],
            },
        ],
    };
    assert!(eval(&p("p(a)"), &m));
    assert!(eval(&p("? [X] : ~ p(X)"), &m));
    assert!(!eval(&p("! [X] : p(X)"), &m));
    assert!(eval(&p("e(X0,a)".replace("X0", "b").as_str()), &m) == eval(&p("e(b,a)"), &m));
    assert!(eval(&p("? [X,Y] : e(X,Y)"), &m));
    assert!(!eval(&p("? [X] : e(X,X)"), &m));
    assert!(eval(&p("! [X] : ? [Y] : (X = Y)"), &m));
    assert_eq!(show_model(&m), "domain {0,1}; a=1; p={1}; e={(0,1)}");
}

#[test]
fn the_tptp_reader_bounds_nesting_and_the_plain_syntax_holds() {
    // 85,000 negations fit a scorer's answer cap; reading them recursively
    // overflowed the stack and aborted the process. The reader's nesting
    // bound refuses them with an error naming the column.
    let deep = format!("{}p(a)", "~ ".repeat(85_000));
    let e = parse(&deep).unwrap_err();
    assert!(e.contains("nesting"), "{e}");
    let deep_term = format!("p({}a{})", "f(".repeat(5_000), ")".repeat(5_000));
    assert!(parse(&deep_term).is_err());
    assert!(parse(&format!("{}p(a){}", "(".repeat(900), ")".repeat(900))).is_ok());
    // What the TPTP reader accepts beyond the syntax prompts show.
    for bad in [
        "'p'(a)",
        "p(a) % comment",
        "/* c */ p(a)",
        "p(1)",
        "p(\"a\")",
        "$p(a)",
        "p($$a)",
        "p(a) . q(a)",
        "é(a)",
    ] {
        assert!(parse(bad).is_err(), "{bad:?} parsed");
    }
    assert_eq!(
        parse("p(a)\n&\tq(a)").unwrap(),
        parse("(p(a) & q(a))").unwrap()
    );
    assert_eq!(
        parse("p(a) & %").unwrap_err(),
        "column 8: unexpected character '%'"
    );
    assert!(
        parse("! [X] : (p(X) & q(Y))")
            .unwrap_err()
            .contains("free variable Y")
    );
    // Shadowing keeps each binder's own name.
    let f = parse("! [X] : (p(X) & ? [X] : q(X))").unwrap();
    assert_eq!(f.to_string(), "! [X] : (p(X) & ? [X] : q(X))");
    // A symbol used as a predicate and as a constant stays one name.
    assert_eq!(parse("(a & p(a))").unwrap().to_string(), "(a & p(a))");
}
