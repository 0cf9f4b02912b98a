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
