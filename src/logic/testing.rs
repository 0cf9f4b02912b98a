//! Shared property-test strategies: random terms and literals over a small
//! fixed signature, built in a fresh term bank, so every logic-core property
//! test draws from one generator.

use super::{Literal, SymbolId, SymbolKind, TermBank, TermId};
use proptest::prelude::*;

/// A term shape, independent of any bank; [`TermShape::build`] interns it.
#[derive(Clone, Debug)]
pub enum TermShape {
    /// Variable `X<i>`.
    Var(u32),
    /// Constant number `i` of the test signature (`a`, `b`, `c`).
    Const(usize),
    /// Unary `g(t)`.
    G(Box<TermShape>),
    /// Binary `f(s, t)`.
    F(Box<TermShape>, Box<TermShape>),
}

/// The test signature: constants a, b, c; unary g; binary f; predicates p/1, q/2.
pub struct TestSig {
    /// Constants a, b, c.
    pub consts: [SymbolId; 3],
    /// Unary function g.
    pub g: SymbolId,
    /// Binary function f.
    pub f: SymbolId,
    /// Unary predicate p.
    pub p: SymbolId,
    /// Binary predicate q.
    pub q: SymbolId,
}

impl TestSig {
    /// Declares the test symbols in `bank`.
    pub fn new(bank: &mut TermBank) -> Self {
        TestSig {
            consts: [
                bank.sig.intern("a", 0, SymbolKind::Function),
                bank.sig.intern("b", 0, SymbolKind::Function),
                bank.sig.intern("c", 0, SymbolKind::Function),
            ],
            g: bank.sig.intern("g", 1, SymbolKind::Function),
            f: bank.sig.intern("f", 2, SymbolKind::Function),
            p: bank.sig.intern("p", 1, SymbolKind::Predicate),
            q: bank.sig.intern("q", 2, SymbolKind::Predicate),
        }
    }
}

impl TermShape {
    /// Interns the shape.
    pub fn build(&self, bank: &mut TermBank, sig: &TestSig) -> TermId {
        match self {
            TermShape::Var(i) => bank.var(*i),
            TermShape::Const(i) => bank.constant(sig.consts[*i]),
            TermShape::G(t) => {
                let a = t.build(bank, sig);
                bank.app(sig.g, &[a])
            }
            TermShape::F(s, t) => {
                let a = s.build(bank, sig);
                let b = t.build(bank, sig);
                bank.app(sig.f, &[a, b])
            }
        }
    }
}

/// Random term shapes with variables among `X0..X<vars-1>`.
pub fn term_shape(vars: u32) -> impl Strategy<Value = TermShape> {
    let leaf = prop_oneof![
        (0..vars.max(1)).prop_map(TermShape::Var),
        (0usize..3).prop_map(TermShape::Const)
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| TermShape::G(Box::new(t))),
            (inner.clone(), inner).prop_map(|(s, t)| TermShape::F(Box::new(s), Box::new(t))),
        ]
    })
}

/// Random ground term shapes.
pub fn ground_shape() -> impl Strategy<Value = TermShape> {
    let leaf = (0usize..3).prop_map(TermShape::Const);
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| TermShape::G(Box::new(t))),
            (inner.clone(), inner).prop_map(|(s, t)| TermShape::F(Box::new(s), Box::new(t))),
        ]
    })
}

/// A random literal shape: (is predicate, polarity, two term shapes).
pub fn literal_shape(vars: u32) -> impl Strategy<Value = (bool, bool, TermShape, TermShape)> {
    (
        any::<bool>(),
        any::<bool>(),
        term_shape(vars),
        term_shape(vars),
    )
}

/// Builds a literal from [`literal_shape`] output: `q(s,t)` or `s = t`.
pub fn build_literal(
    bank: &mut TermBank,
    sig: &TestSig,
    l: &(bool, bool, TermShape, TermShape),
) -> Literal {
    let s = l.2.build(bank, sig);
    let t = l.3.build(bank, sig);
    if l.0 {
        let atom = bank.app(sig.q, &[s, t]);
        Literal::atom(bank, atom, l.1)
    } else {
        Literal::eq(s, t, l.1)
    }
}
