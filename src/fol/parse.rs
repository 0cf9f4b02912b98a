//! Reading first-order formulas in TPTP FOF syntax for the equivalence
//! tasks (after AutoEval, seed 002): a lexer and a recursive-descent parser
//! for the `fof_logic_formula` rules of the TPTP BNF (untyped, no
//! annotations), errors naming the column.

use super::{Bin, Fol, Quant, Term};

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    LParen,
    RParen,
    LBrack,
    RBrack,
    Comma,
    Colon,
    All,
    Ex,
    Not,
    And,
    Or,
    Imp,
    RevImp,
    Iff,
    Xor,
    Nor,
    Nand,
    Eq,
    Neq,
    True,
    False,
    Upper(String),
    Lower(String),
}

fn lex(text: &str) -> Result<Vec<(Tok, usize)>, String> {
    if let Some((i, c)) = text.char_indices().find(|(_, c)| !c.is_ascii()) {
        return Err(format!(
            "column {}: unexpected character {c:?}",
            text[..i].chars().count() + 1
        ));
    }
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    const FIXED: [(&str, Tok); 21] = [
        ("<=>", Tok::Iff),
        ("<~>", Tok::Xor),
        ("=>", Tok::Imp),
        ("<=", Tok::RevImp),
        ("~|", Tok::Nor),
        ("~&", Tok::Nand),
        ("!=", Tok::Neq),
        ("$true", Tok::True),
        ("$false", Tok::False),
        ("(", Tok::LParen),
        (")", Tok::RParen),
        ("[", Tok::LBrack),
        ("]", Tok::RBrack),
        (",", Tok::Comma),
        (":", Tok::Colon),
        ("!", Tok::All),
        ("?", Tok::Ex),
        ("~", Tok::Not),
        ("&", Tok::And),
        ("|", Tok::Or),
        ("=", Tok::Eq),
    ];
    while i < b.len() {
        let c = b[i] as char;
        let col = i + 1;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if let Some((s, t)) = FIXED.iter().find(|(s, _)| text[i..].starts_with(s)) {
            out.push((t.clone(), col));
            i += s.len();
            continue;
        }
        if c.is_ascii_alphabetic() {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            let w = text[i..j].to_string();
            out.push((
                if c.is_ascii_uppercase() {
                    Tok::Upper(w)
                } else {
                    Tok::Lower(w)
                },
                col,
            ));
            i = j;
            continue;
        }
        return Err(format!("column {col}: unexpected character {c:?}"));
    }
    Ok(out)
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    end: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn col(&self) -> usize {
        self.toks.get(self.pos).map_or(self.end, |t| t.1)
    }
    fn err<T>(&self, what: &str) -> Result<T, String> {
        let found = match self.peek() {
            None => "the end".to_string(),
            Some(t) => format!("{t:?}"),
        };
        Err(format!(
            "column {}: expected {what}, found {found}",
            self.col()
        ))
    }
    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, t: Tok, what: &str) -> Result<(), String> {
        if self.eat(&t) { Ok(()) } else { self.err(what) }
    }

    /// Whether the next token is a binary connective.
    fn at_binary(&self) -> bool {
        matches!(
            self.peek(),
            Some(
                Tok::And
                    | Tok::Or
                    | Tok::Imp
                    | Tok::RevImp
                    | Tok::Iff
                    | Tok::Xor
                    | Tok::Nor
                    | Tok::Nand
            )
        )
    }

    /// `<fof_logic_formula>`: a unit, then one non-associative binary
    /// connective and a unit, or a chain of `&` or of `|` (grouped to the
    /// left).
    fn logic(&mut self) -> Result<Fol, String> {
        let first = self.unit()?;
        let op = match self.peek() {
            Some(Tok::And) | Some(Tok::Or) => {
                let t = self.peek().cloned().unwrap_or(Tok::And);
                let op = if t == Tok::And { Bin::And } else { Bin::Or };
                let mut acc = first;
                while self.eat(&t) {
                    let next = self.unit()?;
                    acc = Fol::bin(op, acc, next);
                }
                if self.at_binary() {
                    return self.err("')' (mixed connectives need parentheses)");
                }
                return Ok(acc);
            }
            Some(t @ (Tok::Imp | Tok::RevImp | Tok::Iff | Tok::Xor | Tok::Nor | Tok::Nand)) => {
                t.clone()
            }
            _ => return Ok(first),
        };
        self.pos += 1;
        let second = self.unit()?;
        if self.at_binary() {
            return self.err("')' (a non-associative connective needs parentheses)");
        }
        Ok(match op {
            Tok::Imp => Fol::bin(Bin::Imp, first, second),
            Tok::RevImp => Fol::bin(Bin::Imp, second, first),
            Tok::Iff => Fol::bin(Bin::Iff, first, second),
            Tok::Xor => Fol::negation(Fol::bin(Bin::Iff, first, second)),
            Tok::Nor => Fol::negation(Fol::bin(Bin::Or, first, second)),
            _ => Fol::negation(Fol::bin(Bin::And, first, second)),
        })
    }

    /// `<fof_unit_formula>`: negation, quantified, parenthesised or atomic.
    fn unit(&mut self) -> Result<Fol, String> {
        match self.peek() {
            Some(Tok::Not) => {
                self.pos += 1;
                Ok(Fol::negation(self.unit()?))
            }
            Some(Tok::All) | Some(Tok::Ex) => {
                let q = if self.peek() == Some(&Tok::All) {
                    Quant::All
                } else {
                    Quant::Ex
                };
                self.pos += 1;
                self.expect(Tok::LBrack, "'['")?;
                let mut vars = Vec::new();
                loop {
                    match self.peek() {
                        Some(Tok::Upper(v)) => {
                            vars.push(v.clone());
                            self.pos += 1;
                        }
                        _ => return self.err("a variable (upper-case name)"),
                    }
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
                self.expect(Tok::RBrack, "']'")?;
                self.expect(Tok::Colon, "':'")?;
                let body = self.unit()?;
                Ok(vars
                    .iter()
                    .rev()
                    .fold(body, |acc, v| Fol::Q(q, v.clone(), Box::new(acc))))
            }
            Some(Tok::LParen) => {
                self.pos += 1;
                let f = self.logic()?;
                self.expect(Tok::RParen, "')'")?;
                Ok(f)
            }
            Some(Tok::True) => {
                self.pos += 1;
                Ok(Fol::True)
            }
            Some(Tok::False) => {
                self.pos += 1;
                Ok(Fol::False)
            }
            Some(Tok::Upper(_)) | Some(Tok::Lower(_)) => {
                let col = self.col();
                let t = self.term()?;
                if self.eat(&Tok::Eq) {
                    return Ok(Fol::Eq(t, self.term()?));
                }
                if self.eat(&Tok::Neq) {
                    return Ok(Fol::negation(Fol::Eq(t, self.term()?)));
                }
                match t {
                    Term::App(p, args) => Ok(Fol::Atom(p, args)),
                    Term::Var(v) => Err(format!(
                        "column {col}: the variable {v} stands where a formula is expected"
                    )),
                }
            }
            _ => self.err("a formula"),
        }
    }

    fn term(&mut self) -> Result<Term, String> {
        match self.peek().cloned() {
            Some(Tok::Upper(v)) => {
                self.pos += 1;
                Ok(Term::Var(v))
            }
            Some(Tok::Lower(f)) => {
                self.pos += 1;
                let mut args = Vec::new();
                if self.eat(&Tok::LParen) {
                    loop {
                        args.push(self.term()?);
                        if !self.eat(&Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(Tok::RParen, "',' or ')'")?;
                }
                Ok(Term::App(f, args))
            }
            _ => self.err("a term"),
        }
    }
}

/// Reads a formula in TPTP FOF syntax (one `fof_logic_formula`, no
/// annotations; a final `.` is allowed). Free variables are an error: a
/// FOF formula is closed. Errors name the column.
pub fn parse(text: &str) -> Result<Fol, String> {
    let t = text.trim();
    let t = t.strip_suffix('.').unwrap_or(t);
    let toks = lex(t)?;
    let mut p = Parser {
        toks,
        pos: 0,
        end: t.chars().count() + 1,
    };
    let f = p.logic()?;
    if p.pos < p.toks.len() {
        return p.err("the end of the formula");
    }
    let free = f.free_vars();
    if !free.is_empty() {
        return Err(format!(
            "free variable{} {} (bind every variable with ! or ?)",
            if free.len() > 1 { "s" } else { "" },
            free.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    Ok(f)
}
