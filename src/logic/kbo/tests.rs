//! Tests of the Knuth-Bendix ordering: the textbook facts, instances
//! under substitutions and matchers against built terms.

use super::*;
use crate::logic::SymbolKind;

#[test]
fn basic_kbo_facts() {
    let mut b = TermBank::new();
    let f = b.sig.intern("f", 2, SymbolKind::Function);
    let g = b.sig.intern("g", 1, SymbolKind::Function);
    let a = b.sig.intern("a", 0, SymbolKind::Function);
    let kbo = Kbo::from_order(&b, &[a, g, f]);
    let x = b.var(0);
    let y = b.var(1);
    let ta = b.constant(a);
    let gx = b.app(g, &[x]);
    let fxy = b.app(f, &[x, y]);
    let fyx = b.app(f, &[y, x]);
    assert_eq!(kbo.compare(&b, gx, x), TermOrder::Greater);
    assert_eq!(kbo.compare(&b, x, gx), TermOrder::Less);
    assert_eq!(kbo.compare(&b, fxy, fyx), TermOrder::Incomparable);
    assert_eq!(kbo.compare(&b, gx, ta), TermOrder::Greater);
    assert_eq!(kbo.compare(&b, ta, x), TermOrder::Incomparable);
    let ga = b.app(g, &[ta]);
    assert_eq!(kbo.compare(&b, ga, ta), TermOrder::Greater);
    // f(X,a) vs g(g(X)): equal weight 3, f > g in precedence.
    let fxa = b.app(f, &[x, ta]);
    let ggx = b.app(g, &[gx]);
    assert_eq!(kbo.compare(&b, fxa, ggx), TermOrder::Greater);
}
