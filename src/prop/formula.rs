//! Propositional formulas of the PL/EQ spec §0: the AST, the lexer shared
//! with NDL, a parser with the spec's precedence (`~` > `&` > `|` > `==>` >
//! `<==>`, all binary connectives right-associative, complex top-level
//! formulas wrapped in parentheses) and the canonical, fully parenthesised
//! printer (`((~ A) ==> (B | C))`).

use std::collections::BTreeSet;
use std::fmt;

/// A propositional formula. Identity is AST identity (derived `Eq`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Formula {
    /// The constant `true`.
    True,
    /// The constant `false`.
    False,
    /// An atom: an upper-case letter followed by letters, digits and `_`.
    Atom(String),
    /// `(~ p)`.
    Not(Box<Formula>),
    /// `(p & q)`.
    And(Box<Formula>, Box<Formula>),
    /// `(p | q)`.
    Or(Box<Formula>, Box<Formula>),
    /// `(p ==> q)`.
    Imp(Box<Formula>, Box<Formula>),
    /// `(p <==> q)`.
    Iff(Box<Formula>, Box<Formula>),
}

/// Shorthand constructors.
impl Formula {
    /// An atom.
    pub fn atom(name: &str) -> Formula {
        Formula::Atom(name.to_string())
    }
    /// `(~ p)`.
    pub fn negation(p: Formula) -> Formula {
        Formula::Not(Box::new(p))
    }
    /// `(p & q)`.
    pub fn and(p: Formula, q: Formula) -> Formula {
        Formula::And(Box::new(p), Box::new(q))
    }
    /// `(p | q)`.
    pub fn or(p: Formula, q: Formula) -> Formula {
        Formula::Or(Box::new(p), Box::new(q))
    }
    /// `(p ==> q)`.
    pub fn imp(p: Formula, q: Formula) -> Formula {
        Formula::Imp(Box::new(p), Box::new(q))
    }
    /// `(p <==> q)`.
    pub fn iff(p: Formula, q: Formula) -> Formula {
        Formula::Iff(Box::new(p), Box::new(q))
    }

    /// The complement function of spec §0.4: `q` if `self = (~ q)`, else `(~ self)`.
    pub fn complement(&self) -> Formula {
        match self {
            Formula::Not(q) => (**q).clone(),
            p => Formula::negation(p.clone()),
        }
    }

    /// The complement relation of spec §0.4: `p = (~ q)` or `q = (~ p)`.
    pub fn is_complement_of(&self, other: &Formula) -> bool {
        matches!(self, Formula::Not(q) if **q == *other)
            || matches!(other, Formula::Not(p) if **p == *self)
    }

    /// Removes every double negation `(~ (~ p))` → `p`, bottom up (for the
    /// lenient checker's "up to double negation" comparison).
    pub fn strip_double_negations(&self) -> Formula {
        match self {
            Formula::Not(p) => match p.strip_double_negations() {
                Formula::Not(q) => *q,
                q => Formula::negation(q),
            },
            Formula::And(p, q) => {
                Formula::and(p.strip_double_negations(), q.strip_double_negations())
            }
            Formula::Or(p, q) => {
                Formula::or(p.strip_double_negations(), q.strip_double_negations())
            }
            Formula::Imp(p, q) => {
                Formula::imp(p.strip_double_negations(), q.strip_double_negations())
            }
            Formula::Iff(p, q) => {
                Formula::iff(p.strip_double_negations(), q.strip_double_negations())
            }
            f => f.clone(),
        }
    }

    /// The atoms occurring in the formula.
    pub fn atoms(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        self.collect_atoms(&mut out);
        out
    }

    /// Adds the formula's atoms to `out`.
    pub fn collect_atoms(&self, out: &mut BTreeSet<String>) {
        match self {
            Formula::Atom(a) => {
                out.insert(a.clone());
            }
            Formula::Not(p) => p.collect_atoms(out),
            Formula::And(p, q) | Formula::Or(p, q) | Formula::Imp(p, q) | Formula::Iff(p, q) => {
                p.collect_atoms(out);
                q.collect_atoms(out);
            }
            Formula::True | Formula::False => {}
        }
    }

    /// Truth value under an assignment of the atoms.
    pub fn eval(&self, value: &dyn Fn(&str) -> bool) -> bool {
        match self {
            Formula::True => true,
            Formula::False => false,
            Formula::Atom(a) => value(a),
            Formula::Not(p) => !p.eval(value),
            Formula::And(p, q) => p.eval(value) && q.eval(value),
            Formula::Or(p, q) => p.eval(value) || q.eval(value),
            Formula::Imp(p, q) => !p.eval(value) || q.eval(value),
            Formula::Iff(p, q) => p.eval(value) == q.eval(value),
        }
    }

    /// Number of connectives.
    pub fn size(&self) -> usize {
        match self {
            Formula::True | Formula::False | Formula::Atom(_) => 0,
            Formula::Not(p) => 1 + p.size(),
            Formula::And(p, q) | Formula::Or(p, q) | Formula::Imp(p, q) | Formula::Iff(p, q) => {
                1 + p.size() + q.size()
            }
        }
    }

    /// Nesting depth of connectives (an atom has depth 0).
    pub fn depth(&self) -> usize {
        match self {
            Formula::True | Formula::False | Formula::Atom(_) => 0,
            Formula::Not(p) => 1 + p.depth(),
            Formula::And(p, q) | Formula::Or(p, q) | Formula::Imp(p, q) | Formula::Iff(p, q) => {
                1 + p.depth().max(q.depth())
            }
        }
    }

    /// Renames atoms through `map` (atoms not in it stay).
    pub fn rename(&self, map: &dyn Fn(&str) -> String) -> Formula {
        match self {
            Formula::Atom(a) => Formula::Atom(map(a)),
            Formula::Not(p) => Formula::negation(p.rename(map)),
            Formula::And(p, q) => Formula::and(p.rename(map), q.rename(map)),
            Formula::Or(p, q) => Formula::or(p.rename(map), q.rename(map)),
            Formula::Imp(p, q) => Formula::imp(p.rename(map), q.rename(map)),
            Formula::Iff(p, q) => Formula::iff(p.rename(map), q.rename(map)),
            f => f.clone(),
        }
    }

    /// Parses one top-level formula (spec §0.2: an atom, a constant, or a
    /// parenthesised expression) that must span the whole string.
    pub fn parse(text: &str) -> Result<Formula, String> {
        let toks = lex(text).map_err(|e| e.message)?;
        let mut p = FormulaParser {
            toks: &toks,
            pos: 0,
            depth: 0,
        };
        let f = p.toplevel()?;
        if p.pos != toks.len() {
            return Err(format!(
                "unexpected {} after the formula",
                toks[p.pos].tok.describe()
            ));
        }
        Ok(f)
    }
}

/// Canonical printing: fully parenthesised, one space around binary
/// connectives, `(~ p)` with a space.
impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Formula::True => write!(f, "true"),
            Formula::False => write!(f, "false"),
            Formula::Atom(a) => write!(f, "{a}"),
            Formula::Not(p) => write!(f, "(~ {p})"),
            Formula::And(p, q) => write!(f, "({p} & {q})"),
            Formula::Or(p, q) => write!(f, "({p} | {q})"),
            Formula::Imp(p, q) => write!(f, "({p} ==> {q})"),
            Formula::Iff(p, q) => write!(f, "({p} <==> {q})"),
        }
    }
}

/// A token of the formula language and of NDL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `;`
    Semi,
    /// `,`
    Comma,
    /// `:=`
    Assign,
    /// `~`
    Not,
    /// `&`
    And,
    /// `|`
    Or,
    /// `==>`
    Imp,
    /// `<==>`
    Iff,
    /// An identifier: atom, name, rule, keyword, constant.
    Ident(String),
}

impl Tok {
    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("'{s}'"),
            Tok::LParen => "'('".into(),
            Tok::RParen => "')'".into(),
            Tok::LBrace => "'{'".into(),
            Tok::RBrace => "'}'".into(),
            Tok::Semi => "';'".into(),
            Tok::Comma => "','".into(),
            Tok::Assign => "':='".into(),
            Tok::Not => "'~'".into(),
            Tok::And => "'&'".into(),
            Tok::Or => "'|'".into(),
            Tok::Imp => "'==>'".into(),
            Tok::Iff => "'<==>'".into(),
        }
    }
}

/// A token with its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// 1-based line number in the text.
    pub line: usize,
}

/// A lexical error with its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    /// 1-based line number.
    pub line: usize,
    /// What went wrong.
    pub message: String,
}

/// Whether a token is an atom name (upper-case letter, then letters, digits, `_`).
pub fn is_atom_name(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_uppercase())
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Splits text into tokens; `#` starts a comment to the end of the line.
pub fn lex(text: &str) -> Result<Vec<Token>, LexError> {
    let mut out = Vec::new();
    let mut line = 1;
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let mut push = |tok, len: usize, i: &mut usize| {
            out.push(Token { tok, line });
            *i += len;
        };
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' => push(Tok::LParen, 1, &mut i),
            b')' => push(Tok::RParen, 1, &mut i),
            b'{' => push(Tok::LBrace, 1, &mut i),
            b'}' => push(Tok::RBrace, 1, &mut i),
            b';' => push(Tok::Semi, 1, &mut i),
            b',' => push(Tok::Comma, 1, &mut i),
            b'~' => push(Tok::Not, 1, &mut i),
            b'&' => push(Tok::And, 1, &mut i),
            b'|' => push(Tok::Or, 1, &mut i),
            b':' if b.get(i + 1) == Some(&b'=') => push(Tok::Assign, 2, &mut i),
            b'=' if text[i..].starts_with("==>") => push(Tok::Imp, 3, &mut i),
            b'<' if text[i..].starts_with("<==>") => push(Tok::Iff, 4, &mut i),
            c if c.is_ascii_alphanumeric() || c == b'_' => {
                let start = i;
                while i < b.len()
                    && (b[i].is_ascii_alphanumeric()
                        || b[i] == b'_'
                        || b[i] == b'\''
                        || (b[i] == b'-'
                            && b.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric())))
                {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Ident(text[start..i].to_string()),
                    line,
                });
            }
            _ => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(LexError {
                    line,
                    message: format!("unexpected character {ch:?}"),
                });
            }
        }
    }
    Ok(out)
}

/// Recursive-descent parser over a token slice (shared with NDL).
pub(crate) struct FormulaParser<'a> {
    pub(crate) toks: &'a [Token],
    pub(crate) pos: usize,
    /// Current recursion depth (bounded, so hostile input cannot overflow the stack).
    pub(crate) depth: usize,
}

/// Maximum nesting of formulas (and of NDL blocks) the parsers accept.
pub const MAX_NESTING: usize = 400;

impl FormulaParser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn expect_rparen(&mut self) -> Result<(), String> {
        match self.peek() {
            Some(Tok::RParen) => {
                self.pos += 1;
                Ok(())
            }
            Some(t) => Err(format!("expected ')' but found {}", t.describe())),
            None => Err("expected ')' but the text ended".into()),
        }
    }

    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(format!("formula nested deeper than {MAX_NESTING} levels"));
        }
        Ok(())
    }

    /// `toplevel_formula := ATOM | true | false | "(" expr ")"`.
    pub(crate) fn toplevel(&mut self) -> Result<Formula, String> {
        match self.peek() {
            Some(Tok::LParen) => {
                self.pos += 1;
                let f = self.expr()?;
                self.expect_rparen()?;
                Ok(f)
            }
            Some(Tok::Ident(_)) => self.constant_or_atom(),
            Some(Tok::Not) => {
                Err("a complex formula at top level must be wrapped in parentheses".into())
            }
            Some(t) => Err(format!("expected a formula but found {}", t.describe())),
            None => Err("expected a formula but the text ended".into()),
        }
    }

    fn constant_or_atom(&mut self) -> Result<Formula, String> {
        let Some(Tok::Ident(s)) = self.peek() else {
            unreachable!("caller checked")
        };
        let f = match s.as_str() {
            "true" => Formula::True,
            "false" => Formula::False,
            s if is_atom_name(s) => Formula::atom(s),
            s => return Err(format!("'{s}' is not an atom")),
        };
        self.pos += 1;
        if matches!(self.peek(), Some(Tok::And | Tok::Or | Tok::Imp | Tok::Iff)) {
            return Err("a complex formula at top level must be wrapped in parentheses".into());
        }
        Ok(f)
    }

    fn expr(&mut self) -> Result<Formula, String> {
        self.binary(0)
    }

    /// One level of the binary connectives, loosest first (`<==>`, `==>`,
    /// `|`, `&`), each right-associative; below the last comes negation.
    fn binary(&mut self, level: usize) -> Result<Formula, String> {
        self.enter()?;
        let r = self.binary_inner(level);
        self.depth -= 1;
        r
    }

    fn binary_inner(&mut self, level: usize) -> Result<Formula, String> {
        const LEVELS: [Tok; 4] = [Tok::Iff, Tok::Imp, Tok::Or, Tok::And];
        let l = if level + 1 < LEVELS.len() {
            self.binary(level + 1)?
        } else {
            self.un()?
        };
        if self.peek() == Some(&LEVELS[level]) {
            self.pos += 1;
            let r = self.binary(level)?;
            return Ok(match level {
                0 => Formula::iff(l, r),
                1 => Formula::imp(l, r),
                2 => Formula::or(l, r),
                _ => Formula::and(l, r),
            });
        }
        Ok(l)
    }

    fn un(&mut self) -> Result<Formula, String> {
        self.enter()?;
        let r = self.un_inner();
        self.depth -= 1;
        r
    }

    fn un_inner(&mut self) -> Result<Formula, String> {
        if self.peek() == Some(&Tok::Not) {
            self.pos += 1;
            return Ok(Formula::negation(self.un()?));
        }
        self.prim()
    }

    fn prim(&mut self) -> Result<Formula, String> {
        match self.peek() {
            Some(Tok::LParen) => {
                self.pos += 1;
                let f = self.expr()?;
                self.expect_rparen()?;
                Ok(f)
            }
            Some(Tok::Ident(s)) => {
                let f = match s.as_str() {
                    "true" => Formula::True,
                    "false" => Formula::False,
                    s if is_atom_name(s) => Formula::atom(s),
                    s => return Err(format!("'{s}' is not an atom")),
                };
                self.pos += 1;
                Ok(f)
            }
            Some(t) => Err(format!("expected a formula but found {}", t.describe())),
            None => Err("expected a formula but the text ended".into()),
        }
    }
}

/// Prints with the fewest parentheses precedence and right-associativity
/// allow, keeping one outer pair around a complex formula (spec §0.3).
pub fn compact(f: &Formula) -> String {
    fn prec(f: &Formula) -> u8 {
        match f {
            Formula::Iff(..) => 1,
            Formula::Imp(..) => 2,
            Formula::Or(..) => 3,
            Formula::And(..) => 4,
            Formula::Not(_) => 5,
            _ => 6,
        }
    }
    fn go(f: &Formula, out: &mut String) {
        let bin = |p: &Formula, q: &Formula, op: &str, out: &mut String| {
            let me = prec(f);
            // Left operand needs parentheses unless strictly tighter;
            // right operand (right-assoc) unless at least as tight.
            wrap(p, prec(p) <= me, out);
            out.push_str(op);
            wrap(q, prec(q) < me, out);
        };
        match f {
            Formula::Not(p) => {
                out.push('~');
                wrap(p, prec(p) < 5, out);
            }
            Formula::And(p, q) => bin(p, q, " & ", out),
            Formula::Or(p, q) => bin(p, q, " | ", out),
            Formula::Imp(p, q) => bin(p, q, " ==> ", out),
            Formula::Iff(p, q) => bin(p, q, " <==> ", out),
            f => out.push_str(&f.to_string()),
        }
    }
    fn wrap(f: &Formula, paren: bool, out: &mut String) {
        if paren {
            out.push('(');
            go(f, out);
            out.push(')');
        } else {
            go(f, out);
        }
    }
    let mut s = String::new();
    match f {
        Formula::True | Formula::False | Formula::Atom(_) => go(f, &mut s),
        _ => wrap(f, true, &mut s),
    }
    s
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn precedence_and_right_associativity() {
        let f = Formula::parse("(~A & B ==> C | D)").unwrap();
        assert_eq!(f.to_string(), "(((~ A) & B) ==> (C | D))");
        let g = Formula::parse("(A ==> B ==> C)").unwrap();
        assert_eq!(g.to_string(), "(A ==> (B ==> C))");
        let h = Formula::parse("(A & B & C)").unwrap();
        assert_eq!(h.to_string(), "(A & (B & C))");
        let i = Formula::parse("(A <==> B | ~ ~C)").unwrap();
        assert_eq!(i.to_string(), "(A <==> (B | (~ (~ C))))");
    }

    #[test]
    fn top_level_rule() {
        assert!(Formula::parse("~B").is_err());
        assert!(Formula::parse("B ==> C").is_err());
        assert!(Formula::parse("(~ B)").is_ok());
        assert!(Formula::parse("A").is_ok());
        assert!(Formula::parse("false").is_ok());
        assert!(Formula::parse("(A &)").is_err());
        assert!(Formula::parse("(A & B").is_err());
        assert!(Formula::parse("(a & B)").is_err());
        // Hostile nesting is an error, not a stack overflow.
        let deep = format!("{}A{}", "(".repeat(100_000), ")".repeat(100_000));
        assert!(Formula::parse(&deep).unwrap_err().contains("nested"));
        let long = format!("({})", vec!["A"; 100_000].join(" & "));
        assert!(Formula::parse(&long).is_err());
    }

    #[test]
    fn complement_relation_and_function() {
        let a = Formula::atom("A");
        let na = Formula::negation(a.clone());
        assert!(a.is_complement_of(&na) && na.is_complement_of(&a));
        assert_eq!(na.complement(), a);
        assert_eq!(a.complement(), na);
        assert!(!a.is_complement_of(&a));
    }

    pub(crate) fn arb_formula() -> impl Strategy<Value = Formula> {
        arb_formula_sized(5, 40)
    }

    /// Random formulas of bounded depth and node count, atoms `A`-`E`.
    pub(crate) fn arb_formula_sized(depth: u32, nodes: u32) -> impl Strategy<Value = Formula> {
        let leaf = prop_oneof![
            4 => prop::sample::select(vec!["A", "B", "C", "D", "E"]).prop_map(Formula::atom),
            1 => Just(Formula::True),
            1 => Just(Formula::False),
        ];
        leaf.prop_recursive(depth, nodes, 2, |inner| {
            prop_oneof![
                inner.clone().prop_map(Formula::negation),
                (inner.clone(), inner.clone()).prop_map(|(p, q)| Formula::and(p, q)),
                (inner.clone(), inner.clone()).prop_map(|(p, q)| Formula::or(p, q)),
                (inner.clone(), inner.clone()).prop_map(|(p, q)| Formula::imp(p, q)),
                (inner.clone(), inner).prop_map(|(p, q)| Formula::iff(p, q)),
            ]
        })
    }

    proptest! {
        #[test]
        fn canonical_print_parse_round_trip(f in arb_formula()) {
            prop_assert_eq!(Formula::parse(&f.to_string()).unwrap(), f);
        }

        #[test]
        fn compact_print_parse_round_trip(f in arb_formula()) {
            let s = compact(&f);
            prop_assert_eq!(Formula::parse(&s).unwrap(), f, "{}", s);
        }
    }
}
