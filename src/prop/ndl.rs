//! NDL, the natural-deduction proof language of ProofGrid (seed 000; PL/EQ
//! spec §1): the line-mapped AST, the parser (§1.2) and the printer. The
//! printer can replace any maskable item (§3.5) and render gaps (§3.6), so
//! the masking and gap-filling tasks are printed from the same AST.
//!
//! The same parser and printer also read and write NDL_f (spec §2), the
//! single-rule dialect of PL2: a step `p from j1, ..., jn` is stored as a
//! [`Step`] whose rule is [`FROM_RULE`] and whose conclusion is `p`.

use super::formula::{Formula, FormulaParser, Tok, Token, lex};

/// A rule argument: a formula, or an identifier that is resolved as a name
/// first and as an atom otherwise (spec §1.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A formula written inline.
    Formula(Formula),
    /// A bare identifier (name or atom).
    Ident(String),
}

/// A rule application `[p BY] rule on a1, ..., an`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// 1-based line of the step's first token (0 if built in memory).
    pub line: usize,
    /// The annotated conclusion `p` of `p BY ...`.
    pub conclusion: Option<Formula>,
    /// Rule name as written.
    pub rule: String,
    /// Arguments.
    pub args: Vec<Arg>,
}

/// A deduction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deduction {
    /// `{ e1; ...; en }`.
    Block {
        /// Line of `{`.
        line: usize,
        /// The elements.
        elems: Vec<Element>,
    },
    /// `assume [I :=] p { ... }` (conditional proof).
    Assume {
        /// Line of `assume`.
        line: usize,
        /// Optional hypothesis name.
        name: Option<String>,
        /// The hypothesis.
        hyp: Formula,
        /// The body (a block).
        body: Box<Deduction>,
    },
    /// `suppose-absurd [I :=] p { ... }` (reductio).
    SupposeAbsurd {
        /// Line of `suppose-absurd`.
        line: usize,
        /// Optional hypothesis name.
        name: Option<String>,
        /// The hypothesis.
        hyp: Formula,
        /// The body (a block).
        body: Box<Deduction>,
    },
    /// A rule application.
    Step(Step),
}

/// An element of a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Element {
    /// `[I :=] D`.
    Ded {
        /// Optional name bound to the result.
        name: Option<String>,
        /// The deduction.
        ded: Deduction,
    },
    /// `I := p`: binds a name, adds nothing to the assumption base.
    Def {
        /// Line of the name.
        line: usize,
        /// The name.
        name: String,
        /// The formula.
        formula: Formula,
    },
    /// `GAP-k` placeholder (gap-filling task); never checks.
    Gap {
        /// Line of the placeholder.
        line: usize,
        /// The label, e.g. `GAP-3`.
        label: String,
    },
}

impl Element {
    /// A plain step element with an annotated conclusion.
    pub fn step(conclusion: Formula, rule: &str, args: Vec<Formula>) -> Element {
        Element::Ded {
            name: None,
            ded: Deduction::Step(Step {
                line: 0,
                conclusion: Some(conclusion),
                rule: rule.to_string(),
                args: args.into_iter().map(Arg::Formula).collect(),
            }),
        }
    }
}

impl Deduction {
    /// The 1-based line where the deduction starts.
    pub fn line(&self) -> usize {
        match self {
            Deduction::Block { line, .. }
            | Deduction::Assume { line, .. }
            | Deduction::SupposeAbsurd { line, .. } => *line,
            Deduction::Step(s) => s.line,
        }
    }
}

/// A parse error with its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// What was expected.
    pub message: String,
}

/// The rule name under which an NDL_f step `p from j1, ..., jn` is stored.
pub const FROM_RULE: &str = "from";

/// Which proof language the parser reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Full NDL (spec §1): `[p BY] rule on args`, `suppose-absurd`.
    Ndl,
    /// NDL_f (spec §2): only `p from j1, ..., jn` steps, no `suppose-absurd`.
    NdlF,
}

struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    last_line: usize,
    depth: usize,
    dialect: Dialect,
}

fn kw(t: Option<&Tok>, word: &str) -> bool {
    matches!(t, Some(Tok::Ident(s)) if s.eq_ignore_ascii_case(word))
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }
    fn peek2(&self) -> Option<&Tok> {
        self.toks.get(self.pos + 1).map(|t| &t.tok)
    }
    fn line(&self) -> usize {
        self.toks.get(self.pos).map_or(self.last_line, |t| t.line)
    }
    fn err<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            line: self.line(),
            message: message.into(),
        })
    }
    fn found(&self) -> String {
        self.peek()
            .map_or("the end of the proof".to_string(), |t| t.describe())
    }

    fn formula(&mut self) -> Result<Formula, ParseError> {
        let line = self.line();
        let mut fp = FormulaParser {
            toks: self.toks,
            pos: self.pos,
            depth: 0,
        };
        match fp.toplevel() {
            Ok(f) => {
                self.pos = fp.pos;
                Ok(f)
            }
            Err(message) => Err(ParseError {
                line: self.toks.get(fp.pos).map_or(line, |t| t.line),
                message,
            }),
        }
    }

    fn deduction(&mut self) -> Result<Deduction, ParseError> {
        self.depth += 1;
        if self.depth > super::formula::MAX_NESTING {
            return self.err(format!(
                "proof nested deeper than {} levels",
                super::formula::MAX_NESTING
            ));
        }
        let r = self.deduction_inner();
        self.depth -= 1;
        r
    }

    fn deduction_inner(&mut self) -> Result<Deduction, ParseError> {
        let line = self.line();
        match self.peek() {
            Some(Tok::LBrace) => self.block(),
            t if kw(t, "suppose-absurd") && self.dialect == Dialect::NdlF => self.err(
                "suppose-absurd is not part of NDL_f; use assume and `p from ((~ p) ==> false)`",
            ),
            t if kw(t, "assume") || kw(t, "suppose-absurd") => {
                let absurd = kw(t, "suppose-absurd");
                self.pos += 1;
                let name = if matches!(self.peek(), Some(Tok::Ident(_)))
                    && self.peek2() == Some(&Tok::Assign)
                {
                    let Some(Tok::Ident(n)) = self.peek().cloned() else {
                        unreachable!()
                    };
                    self.pos += 2;
                    Some(n)
                } else {
                    None
                };
                let hyp = self.formula()?;
                if self.peek() != Some(&Tok::LBrace) {
                    return self.err(format!(
                        "expected '{{' to open the body after the hypothesis, found {}",
                        self.found()
                    ));
                }
                let body = Box::new(self.block()?);
                Ok(if absurd {
                    Deduction::SupposeAbsurd {
                        line,
                        name,
                        hyp,
                        body,
                    }
                } else {
                    Deduction::Assume {
                        line,
                        name,
                        hyp,
                        body,
                    }
                })
            }
            Some(Tok::Ident(_)) if kw(self.peek2(), "on") && self.dialect == Dialect::NdlF => {
                self.err("NDL_f has no named rules: a step is written `p from j1, ..., jn`")
            }
            Some(Tok::Ident(_)) if kw(self.peek2(), "on") => self.rule_step(None, line),
            _ => {
                let f = self.formula()?;
                if self.dialect == Dialect::NdlF {
                    return self.parse_from_step(f, line);
                }
                if !kw(self.peek(), "by") {
                    return self.err(format!(
                        "expected BY after the formula, found {}",
                        self.found()
                    ));
                }
                self.pos += 1;
                self.rule_step(Some(f), line)
            }
        }
    }

    fn rule_step(
        &mut self,
        conclusion: Option<Formula>,
        line: usize,
    ) -> Result<Deduction, ParseError> {
        let rule = match self.peek() {
            Some(Tok::Ident(r)) => r.clone(),
            _ => return self.err(format!("expected a rule name, found {}", self.found())),
        };
        self.pos += 1;
        if !kw(self.peek(), "on") {
            return self.err(format!(
                "expected 'on' after the rule name, found {}",
                self.found()
            ));
        }
        self.pos += 1;
        let args = self.args()?;
        Ok(Deduction::Step(Step {
            line,
            conclusion,
            rule,
            args,
        }))
    }

    /// An NDL_f step after its conclusion: `from j1, ..., jn` (n may be 0).
    fn parse_from_step(
        &mut self,
        conclusion: Formula,
        line: usize,
    ) -> Result<Deduction, ParseError> {
        if !kw(self.peek(), FROM_RULE) {
            return self.err(format!(
                "expected 'from' after the formula, found {}",
                self.found()
            ));
        }
        self.pos += 1;
        let ends = matches!(self.peek(), None | Some(Tok::Semi | Tok::RBrace));
        let args = if ends { Vec::new() } else { self.args()? };
        Ok(Deduction::Step(Step {
            line,
            conclusion: Some(conclusion),
            rule: FROM_RULE.to_string(),
            args,
        }))
    }

    /// A comma-separated argument list (formulas or identifiers).
    fn args(&mut self) -> Result<Vec<Arg>, ParseError> {
        let mut args = Vec::new();
        loop {
            match self.peek() {
                t if kw(t, "assume") || kw(t, "suppose-absurd") || t == Some(&Tok::LBrace) => {
                    return self.err("a subproof cannot be a rule argument");
                }
                t if kw(t, "by") || kw(t, "on") || kw(t, FROM_RULE) => {
                    return self.err(format!("unexpected {} in the argument list", self.found()));
                }
                Some(Tok::Ident(s)) if s != "true" && s != "false" => {
                    args.push(Arg::Ident(s.clone()));
                    self.pos += 1;
                    if matches!(self.peek(), Some(Tok::And | Tok::Or | Tok::Imp | Tok::Iff)) {
                        return self
                            .err("a complex formula at top level must be wrapped in parentheses");
                    }
                }
                _ => args.push(Arg::Formula(self.formula()?)),
            }
            if self.peek() == Some(&Tok::Comma) {
                self.pos += 1;
            } else {
                break;
            }
        }
        Ok(args)
    }

    fn element(&mut self) -> Result<Element, ParseError> {
        let line = self.line();
        if let (Some(Tok::Ident(n)), Some(Tok::Assign)) = (self.peek().cloned(), self.peek2()) {
            self.pos += 2;
            let starts_deduction = matches!(self.peek(), Some(Tok::LBrace))
                || kw(self.peek(), "assume")
                || kw(self.peek(), "suppose-absurd")
                || (matches!(self.peek(), Some(Tok::Ident(_)))
                    && kw(self.peek2(), "on")
                    && self.dialect == Dialect::Ndl);
            if starts_deduction {
                return Ok(Element::Ded {
                    name: Some(n),
                    ded: self.deduction()?,
                });
            }
            let f = self.formula()?;
            if self.dialect == Dialect::NdlF && kw(self.peek(), FROM_RULE) {
                return Ok(Element::Ded {
                    name: Some(n),
                    ded: self.parse_from_step(f, line)?,
                });
            }
            if kw(self.peek(), "by") {
                self.pos += 1;
                return Ok(Element::Ded {
                    name: Some(n),
                    ded: self.rule_step(Some(f), line)?,
                });
            }
            return Ok(Element::Def {
                line,
                name: n,
                formula: f,
            });
        }
        if let Some(Tok::Ident(s)) = self.peek()
            && s.starts_with("GAP-")
        {
            return self.err(format!("unfilled gap {s}"));
        }
        Ok(Element::Ded {
            name: None,
            ded: self.deduction()?,
        })
    }

    fn block(&mut self) -> Result<Deduction, ParseError> {
        let line = self.line();
        self.pos += 1; // '{'
        let mut elems = Vec::new();
        loop {
            if self.peek() == Some(&Tok::RBrace) {
                if elems.is_empty() {
                    return self.err("empty block");
                }
                self.pos += 1;
                return Ok(Deduction::Block { line, elems });
            }
            elems.push(self.element()?);
            match self.peek() {
                Some(Tok::Semi) => self.pos += 1,
                Some(Tok::RBrace) => {}
                None => return self.err("unclosed '{': expected '}'"),
                _ => {
                    return self.err(format!(
                        "expected ';' or '}}' after a block element, found {}",
                        self.found()
                    ));
                }
            }
        }
    }
}

/// Parses a whole proof: one deduction. With `lenient`, a top-level
/// sequence of `;`-separated elements without braces is read as a block.
pub fn parse_proof(text: &str, lenient: bool) -> Result<Deduction, ParseError> {
    parse_proof_in(text, lenient, Dialect::Ndl)
}

/// [`parse_proof`] for a chosen dialect (NDL or NDL_f).
pub fn parse_proof_in(
    text: &str,
    lenient: bool,
    dialect: Dialect,
) -> Result<Deduction, ParseError> {
    let toks = lex(text).map_err(|e| ParseError {
        line: e.line,
        message: e.message,
    })?;
    let mut p = Parser {
        toks: &toks,
        pos: 0,
        last_line: text.lines().count().max(1),
        depth: 0,
        dialect,
    };
    if toks.is_empty() {
        return p.err("empty proof");
    }
    if lenient && p.peek() != Some(&Tok::LBrace) {
        let mut elems = vec![p.element()?];
        while p.peek() == Some(&Tok::Semi) {
            p.pos += 1;
            if p.peek().is_none() {
                break;
            }
            elems.push(p.element()?);
        }
        if p.peek().is_some() {
            return p.err(format!("unexpected {} after the proof", p.found()));
        }
        if elems.len() == 1
            && let Element::Ded { name: None, .. } = &elems[0]
        {
            let Some(Element::Ded { ded, .. }) = elems.pop() else {
                unreachable!()
            };
            return Ok(ded);
        }
        return Ok(Deduction::Block { line: 1, elems });
    }
    let d = p.deduction()?;
    if p.peek() == Some(&Tok::Semi) && p.pos + 1 == toks.len() {
        p.pos += 1;
    }
    if p.peek().is_some() {
        return p.err(format!(
            "unexpected {} after the proof (a proof is one deduction; wrap several in {{ }})",
            p.found()
        ));
    }
    Ok(d)
}

/// The kind of a maskable item (spec §3.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// The conclusion before `BY`.
    Conclusion,
    /// The rule name before `on`.
    Rule,
    /// The hypothesis of `assume`/`suppose-absurd`.
    Hypothesis,
    /// One argument after `on`.
    Argument,
}

/// Prints a proof, two-space indentation, one element per line. Every
/// maskable item goes through `item(index, kind, text)`, which returns the
/// text to print (the identity for plain printing); `index` counts items in
/// text order from 0.
pub fn print_with(d: &Deduction, item: &mut dyn FnMut(usize, Slot, &str) -> String) -> String {
    let mut out = String::new();
    let mut counter = 0;
    print_ded(d, 0, &mut out, &mut counter, item);
    out
}

/// Prints a proof plainly.
pub fn print(d: &Deduction) -> String {
    print_with(d, &mut |_, _, s| s.to_string())
}

fn arg_text(a: &Arg) -> String {
    match a {
        Arg::Formula(f) => f.to_string(),
        Arg::Ident(s) => s.clone(),
    }
}

/// Prints block elements at an indentation level, separated by `;` and
/// newlines (no trailing separator).
pub fn print_elements(elems: &[Element], indent: usize) -> String {
    let mut out = String::new();
    let mut counter = 0;
    print_elems(elems, indent, &mut out, &mut counter, &mut |_, _, s| {
        s.to_string()
    });
    out
}

fn print_elems(
    elems: &[Element],
    indent: usize,
    out: &mut String,
    counter: &mut usize,
    item: &mut dyn FnMut(usize, Slot, &str) -> String,
) {
    for (i, e) in elems.iter().enumerate() {
        out.push_str(&"  ".repeat(indent));
        match e {
            Element::Ded { name, ded } => {
                if let Some(n) = name {
                    out.push_str(n);
                    out.push_str(" := ");
                }
                print_ded(ded, indent, out, counter, item);
            }
            Element::Def { name, formula, .. } => {
                out.push_str(&format!("{name} := {formula}"));
            }
            Element::Gap { label, .. } => out.push_str(label),
        }
        if i + 1 < elems.len() {
            out.push_str(";\n");
        }
    }
}

fn print_ded(
    d: &Deduction,
    indent: usize,
    out: &mut String,
    counter: &mut usize,
    item: &mut dyn FnMut(usize, Slot, &str) -> String,
) {
    let mut take = |kind: Slot, text: &str, counter: &mut usize| {
        let s = item(*counter, kind, text);
        *counter += 1;
        s
    };
    match d {
        Deduction::Block { elems, .. } => {
            out.push_str("{\n");
            print_elems(elems, indent + 1, out, counter, item);
            out.push('\n');
            out.push_str(&"  ".repeat(indent));
            out.push('}');
        }
        Deduction::Assume {
            name, hyp, body, ..
        }
        | Deduction::SupposeAbsurd {
            name, hyp, body, ..
        } => {
            let kwd = if matches!(d, Deduction::Assume { .. }) {
                "assume"
            } else {
                "suppose-absurd"
            };
            out.push_str(kwd);
            out.push(' ');
            if let Some(n) = name {
                out.push_str(n);
                out.push_str(" := ");
            }
            out.push_str(&take(Slot::Hypothesis, &hyp.to_string(), counter));
            out.push(' ');
            print_ded(body, indent, out, counter, item);
        }
        Deduction::Step(s) if s.rule == FROM_RULE => {
            let c = s
                .conclusion
                .as_ref()
                .map_or(String::new(), |c| c.to_string());
            out.push_str(&take(Slot::Conclusion, &c, counter));
            out.push_str(" from");
            for (i, a) in s.args.iter().enumerate() {
                out.push_str(if i == 0 { " " } else { ", " });
                out.push_str(&take(Slot::Argument, &arg_text(a), counter));
            }
        }
        Deduction::Step(s) => {
            if let Some(c) = &s.conclusion {
                out.push_str(&take(Slot::Conclusion, &c.to_string(), counter));
                out.push_str(" BY ");
            }
            out.push_str(&take(Slot::Rule, &s.rule, counter));
            out.push_str(" on ");
            for (i, a) in s.args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&take(Slot::Argument, &arg_text(a), counter));
            }
        }
    }
}

/// Whether an identifier may be used as a name (spec §1.2).
pub fn is_name(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '\'')
        || s == "_"
}

/// Calls `f` on every rule step of `d`, in evaluation order.
pub fn visit_steps(d: &mut Deduction, f: &mut dyn FnMut(&mut Step)) {
    match d {
        Deduction::Step(s) => f(s),
        Deduction::Block { elems, .. } => {
            for e in elems {
                if let Element::Ded { ded, .. } = e {
                    visit_steps(ded, f);
                }
            }
        }
        Deduction::Assume { body, .. } | Deduction::SupposeAbsurd { body, .. } => {
            visit_steps(body, f)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "{\n  assume h := (A & B) {\n    A BY left-and on h;\n    B BY right-and on (A & B);\n    (B & A) BY both on B, A\n  };\n  # a comment line\n  claim on ((A & B) ==> (B & A))\n}";

    #[test]
    fn parses_the_documented_forms_with_lines() {
        let d = parse_proof(SAMPLE, false).unwrap();
        let Deduction::Block { elems, .. } = &d else {
            panic!()
        };
        assert_eq!(elems.len(), 2);
        let Element::Ded {
            ded: Deduction::Assume {
                line, name, body, ..
            },
            ..
        } = &elems[0]
        else {
            panic!()
        };
        assert_eq!((*line, name.as_deref()), (2, Some("h")));
        let Deduction::Block { elems: inner, .. } = &**body else {
            panic!()
        };
        assert_eq!(inner[1].clone(), {
            let Element::Ded { ded, .. } = &inner[1] else {
                panic!()
            };
            assert_eq!(ded.line(), 4);
            inner[1].clone()
        });
        let Element::Ded { ded: last, .. } = &elems[1] else {
            panic!()
        };
        assert_eq!(last.line(), 8);
    }

    #[test]
    fn print_parse_round_trip() {
        let d = parse_proof(SAMPLE, false).unwrap();
        let printed = print(&d);
        let again = parse_proof(&printed, false).unwrap();
        assert_eq!(print(&again), printed);
    }

    #[test]
    fn syntax_errors_have_lines() {
        let e = parse_proof("{\n  A BY claim on A\n  B BY claim on B\n}", false).unwrap_err();
        assert_eq!(e.line, 3);
        let e = parse_proof("{\n  mp on assume A { claim on A }, A\n}", false).unwrap_err();
        assert!(e.message.contains("subproof"), "{}", e.message);
        let e = parse_proof("{\n  claim on A ==> B\n}", false).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(parse_proof("claim on A; claim on B", false).is_err());
        assert!(parse_proof("claim on A; claim on B", true).is_ok());
        let deep = format!("{}claim on A{}", "{ ".repeat(50_000), " }".repeat(50_000));
        assert!(
            parse_proof(&deep, false)
                .unwrap_err()
                .message
                .contains("nested")
        );
    }
}
