//! The FOF half of the TPTP reader: `fof` annotated formulas read to the
//! BNF's precedence into [`Formula`] trees (see the grammar in
//! `parser.rs`); a child module so that it shares the file parser's state.

use super::*;

/// The binary connectives of the BNF.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Binary {
    Or,
    And,
    Imp,
    RevImp,
    Iff,
    Xor,
    Nor,
    Nand,
}

impl FileParser<'_, '_> {
    /// The binary connective at the current token, if any.
    fn binary(&self) -> Option<Binary> {
        if self.cur.kind == Tok::Pipe {
            return Some(Binary::Or);
        }
        if self.cur.kind != Tok::Op {
            return None;
        }
        Some(match self.text(self.cur) {
            "&" => Binary::And,
            "=>" => Binary::Imp,
            "<=" => Binary::RevImp,
            "<=>" => Binary::Iff,
            "<~>" => Binary::Xor,
            "~|" => Binary::Nor,
            "~&" => Binary::Nand,
            _ => return None,
        })
    }

    /// `<fof_annotated>`, the `fof` keyword being the current token.
    pub(super) fn fof(&mut self) -> Result<(), TptpError> {
        let head = self.advance()?;
        self.expect(Tok::LParen, "'('")?;
        let name = self.name("a formula name")?;
        self.expect(Tok::Comma, "','")?;
        let role = self.role()?;
        self.expect(Tok::Comma, "','")?;
        self.vars.clear();
        self.free.clear();
        self.scope = Some(Vec::new());
        let parsed = self.fof_logic(0);
        self.scope = None;
        let mut formula = parsed?;
        if !self.free.is_empty() {
            formula = Formula::Forall(std::mem::take(&mut self.free), Box::new(formula));
        }
        match self.cur.kind {
            Tok::Comma => {
                // Clauses cite the formula by name; the annotations
                // themselves are checked for syntax only.
                self.advance()?;
                self.general_term()?;
                if self.cur.kind == Tok::Comma {
                    self.advance()?;
                    if self.cur.kind != Tok::LBrack {
                        return Err(self.expected("'[' (useful info is a list)"));
                    }
                    self.general_term()?;
                }
            }
            Tok::RParen => {}
            _ => return Err(self.expected("a binary connective, ',' or ')'")),
        }
        self.expect(Tok::RParen, "')'")?;
        self.expect(Tok::Dot, "'.'")?;
        self.entries.push(Entry::Fof(FofInput {
            name,
            role,
            formula,
            source: SourceInfo {
                file: self.file.to_path_buf(),
                line: head.line,
                col: head.col,
            },
            var_names: std::mem::take(&mut self.vars),
        }));
        Ok(())
    }

    /// One bare `<fof_logic_formula>` filling the rest of the input (no
    /// annotations, no final `.`): the formula with its free variables left
    /// free, and the names of its variables (`names[i]` is bank variable
    /// `i`; a variable bound twice has two indices).
    pub(in crate::tptp) fn bare_fof(&mut self) -> Result<(Formula, Vec<String>), TptpError> {
        self.vars.clear();
        self.free.clear();
        self.scope = Some(Vec::new());
        let parsed = self.fof_logic(0);
        self.scope = None;
        let formula = parsed?;
        if self.cur.kind != Tok::Eof {
            return Err(self.expected("a binary connective or the end of the formula"));
        }
        Ok((formula, std::mem::take(&mut self.vars)))
    }

    /// `<fof_logic_formula>` at nesting `depth`.
    fn fof_logic(&mut self, depth: usize) -> Result<Formula, TptpError> {
        let first = self.fof_unit(depth)?;
        let Some(op) = self.binary() else {
            return Ok(first);
        };
        self.advance()?;
        let second = self.fof_unit(depth)?;
        let f = match op {
            Binary::Or | Binary::And => {
                let mut parts = vec![first, second];
                while self.binary() == Some(op) {
                    self.advance()?;
                    parts.push(self.fof_unit(depth)?);
                }
                if op == Binary::Or {
                    Formula::Or(parts)
                } else {
                    Formula::And(parts)
                }
            }
            Binary::Imp => Formula::Imp(Box::new(first), Box::new(second)),
            Binary::RevImp => Formula::Imp(Box::new(second), Box::new(first)),
            Binary::Iff => Formula::Iff(Box::new(first), Box::new(second)),
            Binary::Xor => Formula::Iff(Box::new(first), Box::new(second)).negated(),
            Binary::Nor => Formula::Or(vec![first, second]).negated(),
            Binary::Nand => Formula::And(vec![first, second]).negated(),
        };
        if self.binary().is_some() {
            return Err(self.expected(
                "')' or ',' (TPTP needs parentheses around a binary formula used as an operand)",
            ));
        }
        Ok(f)
    }

    /// `<fof_unit_formula>` at nesting `depth`.
    fn fof_unit(&mut self, depth: usize) -> Result<Formula, TptpError> {
        if depth >= MAX_NESTING {
            return Err(self.too_deep());
        }
        match self.cur.kind {
            Tok::Tilde => {
                self.advance()?;
                Ok(self.fof_unit(depth + 1)?.negated())
            }
            Tok::LParen => {
                self.advance()?;
                let f = self.fof_logic(depth + 1)?;
                self.expect(Tok::RParen, "a binary connective or ')'")?;
                Ok(f)
            }
            Tok::Op if matches!(self.text(self.cur), "!" | "?") => {
                let universal = self.text(self.cur) == "!";
                self.advance()?;
                self.expect(Tok::LBrack, "'['")?;
                let mut bound = Vec::new();
                loop {
                    if self.cur.kind != Tok::Upper {
                        return Err(self.expected("a variable"));
                    }
                    let name = self.text(self.cur).to_string();
                    self.advance()?;
                    let i = self.vars.len() as u32;
                    self.vars.push(name.clone());
                    bound.push((name, i));
                    if self.list_end()? {
                        break;
                    }
                }
                self.expect(Tok::Colon, "':'")?;
                let ids: Vec<u32> = bound.iter().map(|b| b.1).collect();
                let n = bound.len();
                if let Some(scope) = self.scope.as_mut() {
                    scope.extend(bound);
                }
                let body = self.fof_unit(depth + 1);
                if let Some(scope) = self.scope.as_mut() {
                    scope.truncate(scope.len() - n);
                }
                let body = Box::new(body?);
                Ok(if universal {
                    Formula::Forall(ids, body)
                } else {
                    Formula::Exists(ids, body)
                })
            }
            _ => Ok(match self.atomic(true)? {
                Atomic::Lit(l) => Formula::Lit(l),
                Atomic::True => Formula::True,
                Atomic::False => Formula::False,
            }),
        }
    }
}
