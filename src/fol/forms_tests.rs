//! Tests of the first-order target forms ([`super`]): conversions are
//! equivalent (decided by the prover) and in their form, checks read the
//! tree, wrappers stay outside.

use super::*;
use crate::fol::parse;
use crate::prop::forms::FOL_TARGETS;
use crate::prover::equivalence::{Decision, decide};

#[test]
fn conversions_are_equivalent_and_in_their_form() {
    let fs = [
        "? [X] : ((~ (p(X) | r(X,a)) => ~ q(X)) => ? [Y] : p(Y))",
        "(! [X] : p(X) <=> ? [X] : q(X))",
        "~ ! [X] : (p(X) => ? [Y] : r(X,Y))",
        "(! [X] : p(X) & ~ ? [X] : (q(X) | p(X)))",
    ];
    for s in fs {
        let f = parse(s).unwrap();
        for t in FOL_TARGETS {
            let (g, _) = convert(t, &f).expect("converts");
            assert_eq!(violation(t, &g), None, "{t:?} of {s}: {g}");
            assert!(
                matches!(decide(&f, &g).unwrap(), Decision::Equivalent(_)),
                "{t:?} of {s}: {g}"
            );
            assert!(parse(&g.to_string()).is_ok());
        }
    }
}

#[test]
fn forms_are_checked_on_the_tree() {
    let p = |s: &str| parse(s).unwrap();
    assert_eq!(
        violation(Target::Prenex, &p("! [X] : ? [Y] : (p(X) => r(X,Y))")),
        None
    );
    assert!(violation(Target::Prenex, &p("~ ! [X] : p(X)")).is_some());
    assert!(violation(Target::Prenex, &p("! [X] : (p(X) & ? [Y] : q(Y))")).is_some());
    assert_eq!(
        violation(Target::Nnf, &p("! [X] : (~ p(X) | ? [Y] : r(X,Y))")),
        None
    );
    assert!(
        violation(Target::Nnf, &p("~ ~ p(a)"))
            .unwrap()
            .contains("not an atom")
    );
    assert!(
        violation(Target::AndNotExists, &p("! [X] : p(X)"))
            .unwrap()
            .contains("uses !")
    );
    assert!(
        violation(Target::OrNotForall, &p("(p(a) | $true)"))
            .unwrap()
            .contains("constant")
    );
    // Wrappers of a formula outside the form stay outside.
    let f = p("(! [X] : p(X) => ? [Y] : q(Y))");
    for t in FOL_TARGETS {
        assert!(violation(t, &f).is_some());
        for w in [
            Fol::negation(Fol::negation(f.clone())),
            Fol::bin(Bin::And, f.clone(), f.clone()),
            Fol::bin(Bin::Or, f.clone(), Fol::False),
            Fol::bin(Bin::Imp, Fol::True, f.clone()),
        ] {
            assert!(violation(t, &w).is_some(), "{t:?}: {w}");
        }
    }
}
