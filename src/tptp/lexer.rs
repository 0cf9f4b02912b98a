//! Tokeniser for the TPTP language: words, quoted atoms, distinct objects,
//! numbers, punctuation and operators, with layout and comments skipped.
//!
//! The token classes follow the `::-` and `:::` rules of the TPTP syntax BNF
//! (<https://www.tptp.org/TPTP/SyntaxBNF.html>). Anything that is not TPTP
//! text (control characters, non-ASCII characters outside comments) is an
//! error, so binary garbage is refused instead of misread.

use super::error::{ErrorKind, TptpError};
use super::szs;
use std::path::Path;

/// Token classes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Tok {
    LParen,
    RParen,
    LBrack,
    RBrack,
    Comma,
    Dot,
    Colon,
    Pipe,
    Tilde,
    Eq,
    Neq,
    /// `<lower_word>`
    Lower,
    /// `<upper_word>`
    Upper,
    /// `<single_quoted>`, quotes included in the text.
    SingleQuoted,
    /// `<distinct_object>`, quotes included in the text.
    Distinct,
    /// `<dollar_word>`
    Dollar,
    /// `<dollar_dollar_word>`
    DollarDollar,
    /// `<integer>`, `<rational>` or `<real>`.
    Number,
    /// Any other operator or punctuation (`&`, `=>`, `*`, `-`, ...).
    Op,
    Eof,
}

/// A token: its class, byte span in the source and 1-based position.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Token {
    pub kind: Tok,
    pub start: usize,
    pub end: usize,
    pub line: u32,
    pub col: u32,
}

/// Multi-character operators of the full TPTP language, longest first, so
/// that error messages name them whole (`found '=>'`).
const OPERATORS: &[&str] = &[
    "<~>", "<=>", "-->", "=>", "<=", "~|", "~&", "!>", "?*", "@+", "@-", "@=", "!!", "??", ":=",
    "==",
];

#[inline]
fn is_alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// True for a `<lower_word>`: `[a-z][A-Za-z0-9_]*`.
pub(crate) fn is_lower_word(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty() && b[0].is_ascii_lowercase() && b[1..].iter().all(|&c| is_alnum(c))
}

/// True for a `<dollar_word>` or `<dollar_dollar_word>`.
pub(crate) fn is_dollar_word(s: &str) -> bool {
    let rest = s.strip_prefix("$$").or_else(|| s.strip_prefix('$'));
    rest.is_some_and(is_lower_word)
}

/// True if `s` is exactly one well-formed quoted token with delimiter `q`
/// (`'` or `"`), escapes included.
pub(crate) fn is_quoted_token(s: &str, q: u8) -> bool {
    let b = s.as_bytes();
    if b.len() < 2 || b[0] != q || b[b.len() - 1] != q {
        return false;
    }
    let inner = &b[1..b.len() - 1];
    if q == b'\'' && inner.is_empty() {
        return false;
    }
    let mut i = 0;
    while i < inner.len() {
        match inner[i] {
            b'\\' if i + 1 < inner.len() && (inner[i + 1] == q || inner[i + 1] == b'\\') => i += 2,
            b'\\' => return false,
            c if c == q => return false,
            0x20..=0x7e => i += 1,
            _ => return false,
        }
    }
    true
}

/// True if `s` is exactly one TPTP number token.
pub(crate) fn is_number(s: &str) -> bool {
    let b = s.as_bytes();
    let digit_at = match b.first() {
        Some(b'+' | b'-') => 1,
        _ => 0,
    };
    b.get(digit_at).is_some_and(u8::is_ascii_digit) && scan_number(b, 0) == Ok(b.len())
}

/// Scans a number starting at `i` (a digit, or a sign followed by a digit)
/// and returns the end of the longest number token, per the BNF:
/// `[+-]? <decimal> ( /<positive_decimal> | (.<numeric>+)? ([Ee][+-]?<numeric>+)? )`,
/// where `<decimal>` has no leading zero.
pub(crate) fn scan_number(b: &[u8], i: usize) -> Result<usize, &'static str> {
    let digit = |j: usize| b.get(j).is_some_and(u8::is_ascii_digit);
    let mut j = i;
    if matches!(b.get(j), Some(b'+' | b'-')) {
        j += 1;
    }
    if b.get(j) == Some(&b'0') {
        j += 1;
        if digit(j) {
            return Err("leading zeros are not allowed");
        }
    } else {
        while digit(j) {
            j += 1;
        }
    }
    if b.get(j) == Some(&b'/') && b.get(j + 1).is_some_and(|c| (b'1'..=b'9').contains(c)) {
        j += 2;
        while digit(j) {
            j += 1;
        }
        return Ok(j);
    }
    if b.get(j) == Some(&b'.') && digit(j + 1) {
        j += 2;
        while digit(j) {
            j += 1;
        }
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        let k = if matches!(b.get(j + 1), Some(b'+' | b'-')) {
            j + 2
        } else {
            j + 1
        };
        if digit(k) {
            j = k;
            while digit(j) {
                j += 1;
            }
        }
    }
    Ok(j)
}

/// The lexer over one source text.
pub(crate) struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    line: u32,
    col: u32,
    file: &'a Path,
    /// The word of the first `% Status : X` comment line seen.
    pub status: Option<String>,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`; `file` is used in error messages.
    pub fn new(src: &'a str, file: &'a Path) -> Self {
        let mut lx = Lexer {
            src,
            bytes: src.as_bytes(),
            pos: 0,
            line: 1,
            col: 1,
            file,
            status: None,
        };
        // A UTF-8 byte order mark is not part of the text.
        if src.starts_with('\u{feff}') {
            lx.pos = 3;
        }
        lx
    }

    fn err_at(&self, line: u32, col: u32, kind: ErrorKind) -> TptpError {
        TptpError::new(self.file, line, col, kind)
    }

    fn err_here(&self, kind: ErrorKind) -> TptpError {
        self.err_at(self.line, self.col, kind)
    }

    #[inline]
    fn peek(&self, off: usize) -> Option<u8> {
        self.bytes.get(self.pos + off).copied()
    }

    /// Advances over one character (any UTF-8 length), tracking line/column.
    fn bump_char(&mut self) {
        let b = self.bytes[self.pos];
        if b < 0x80 {
            self.pos += 1;
            if b == b'\n' {
                self.line += 1;
                self.col = 1;
            } else {
                self.col += 1;
            }
        } else {
            let len = self.src[self.pos..]
                .chars()
                .next()
                .map_or(1, char::len_utf8);
            self.pos += len;
            self.col += 1;
        }
    }

    /// Advances over `n` ASCII characters on the current line.
    fn bump_ascii(&mut self, n: usize) {
        self.pos += n;
        self.col += n as u32;
    }

    fn char_here(&self) -> char {
        self.src[self.pos..].chars().next().unwrap_or('\0')
    }

    /// Checks a character inside a comment: anything printable, including
    /// non-ASCII, is fine; control characters are not.
    fn check_comment_char(&self) -> Result<(), TptpError> {
        let b = self.bytes[self.pos];
        if (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)) || b == 0x7f {
            return Err(self.err_here(ErrorKind::ControlChar(b as u32)));
        }
        if b >= 0x80 && self.char_here().is_control() {
            return Err(self.err_here(ErrorKind::ControlChar(self.char_here() as u32)));
        }
        Ok(())
    }

    /// Skips whitespace, `%` line comments and `/* */` block comments.
    fn skip_layout(&mut self) -> Result<(), TptpError> {
        while let Some(b) = self.peek(0) {
            match b {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => self.bump_char(),
                b'%' => {
                    let start = self.pos;
                    while let Some(c) = self.peek(0) {
                        if c == b'\n' {
                            break;
                        }
                        self.check_comment_char()?;
                        self.bump_char();
                    }
                    if self.status.is_none() {
                        self.status =
                            szs::header_status_word(&self.src[start..self.pos]).map(str::to_string);
                    }
                }
                b'/' if self.peek(1) == Some(b'*') => {
                    let (line, col) = (self.line, self.col);
                    self.bump_ascii(2);
                    loop {
                        match self.peek(0) {
                            None => {
                                return Err(self.err_at(line, col, ErrorKind::UnterminatedComment));
                            }
                            Some(b'*') if self.peek(1) == Some(b'/') => {
                                self.bump_ascii(2);
                                break;
                            }
                            Some(_) => {
                                self.check_comment_char()?;
                                self.bump_char();
                            }
                        }
                    }
                }
                _ => break,
            }
        }
        Ok(())
    }

    /// The next token (`Tok::Eof` at the end, repeatedly).
    pub fn next_token(&mut self) -> Result<Token, TptpError> {
        self.skip_layout()?;
        let (start, line, col) = (self.pos, self.line, self.col);
        let tok = |kind, end| Token {
            kind,
            start,
            end,
            line,
            col,
        };
        let Some(b) = self.peek(0) else {
            return Ok(tok(Tok::Eof, start));
        };
        let single = |lx: &mut Self, kind| {
            lx.bump_ascii(1);
            Ok(tok(kind, start + 1))
        };
        match b {
            b'(' => single(self, Tok::LParen),
            b')' => single(self, Tok::RParen),
            b'[' => single(self, Tok::LBrack),
            b']' => single(self, Tok::RBrack),
            b',' => single(self, Tok::Comma),
            b'.' => single(self, Tok::Dot),
            b'|' => single(self, Tok::Pipe),
            b'!' if self.peek(1) == Some(b'=') => {
                self.bump_ascii(2);
                Ok(tok(Tok::Neq, start + 2))
            }
            b'\'' | b'"' => self.quoted(b, line, col),
            b'$' => {
                let n = if self.peek(1) == Some(b'$') { 2 } else { 1 };
                if !self.peek(n).is_some_and(|c| c.is_ascii_lowercase()) {
                    return Err(self.err_here(ErrorKind::UnexpectedChar('$')));
                }
                self.bump_ascii(n);
                self.word();
                let kind = if n == 2 {
                    Tok::DollarDollar
                } else {
                    Tok::Dollar
                };
                Ok(tok(kind, self.pos))
            }
            b'a'..=b'z' => {
                self.word();
                Ok(tok(Tok::Lower, self.pos))
            }
            b'A'..=b'Z' => {
                self.word();
                Ok(tok(Tok::Upper, self.pos))
            }
            b'0'..=b'9' => self.number(line, col),
            b'+' | b'-' if self.peek(1).is_some_and(|c| c.is_ascii_digit()) => {
                self.number(line, col)
            }
            0x21..=0x7e => {
                let rest = &self.src[self.pos..];
                let len = OPERATORS
                    .iter()
                    .find(|op| rest.starts_with(*op))
                    .map_or(1, |op| op.len());
                let kind = match (len, b) {
                    (1, b'=') => Tok::Eq,
                    (1, b'~') => Tok::Tilde,
                    (1, b':') => Tok::Colon,
                    _ => Tok::Op,
                };
                self.bump_ascii(len);
                Ok(tok(kind, self.pos))
            }
            c if c < 0x20 || c == 0x7f => Err(self.err_here(ErrorKind::ControlChar(c as u32))),
            _ => {
                let ch = self.char_here();
                if ch.is_control() {
                    Err(self.err_here(ErrorKind::ControlChar(ch as u32)))
                } else {
                    Err(self.err_here(ErrorKind::UnexpectedChar(ch)))
                }
            }
        }
    }

    fn word(&mut self) {
        let mut j = self.pos + 1;
        while self.bytes.get(j).is_some_and(|&c| is_alnum(c)) {
            j += 1;
        }
        self.bump_ascii(j - self.pos);
    }

    fn number(&mut self, line: u32, col: u32) -> Result<Token, TptpError> {
        let start = self.pos;
        match scan_number(self.bytes, start) {
            Ok(end) => {
                self.bump_ascii(end - start);
                Ok(Token {
                    kind: Tok::Number,
                    start,
                    end,
                    line,
                    col,
                })
            }
            Err(why) => {
                let mut end = start + 1;
                while self.bytes.get(end).is_some_and(u8::is_ascii_digit) {
                    end += 1;
                }
                let text = self.src[start..end].to_string();
                Err(self.err_at(line, col, ErrorKind::BadNumber(text, why)))
            }
        }
    }

    /// A single-quoted atom or a distinct object; `q` is the delimiter.
    fn quoted(&mut self, q: u8, line: u32, col: u32) -> Result<Token, TptpError> {
        let start = self.pos;
        let unterminated = if q == b'\'' {
            ErrorKind::UnterminatedQuoted
        } else {
            ErrorKind::UnterminatedDistinct
        };
        let mut j = start + 1;
        loop {
            let at = |j: usize| col + (j - start) as u32;
            match self.bytes.get(j) {
                None | Some(b'\n') => return Err(self.err_at(line, col, unterminated)),
                Some(&c) if c == q => break,
                Some(b'\\') => match self.bytes.get(j + 1) {
                    Some(&c) if c == q || c == b'\\' => j += 2,
                    None | Some(b'\n') => return Err(self.err_at(line, col, unterminated)),
                    Some(&c) if c < 0x80 => {
                        return Err(self.err_at(line, at(j), ErrorKind::BadEscape(c as char)));
                    }
                    Some(_) => {
                        let ch = self.src[j + 1..].chars().next().unwrap_or('\u{fffd}');
                        return Err(self.err_at(line, at(j), ErrorKind::BadEscape(ch)));
                    }
                },
                Some(&c) if c < 0x20 || c == 0x7f => {
                    return Err(self.err_at(line, at(j), ErrorKind::ControlChar(c as u32)));
                }
                Some(&c) if c >= 0x80 => {
                    let ch = self.src[j..].chars().next().unwrap_or('\u{fffd}');
                    return Err(self.err_at(line, at(j), ErrorKind::UnexpectedChar(ch)));
                }
                Some(_) => j += 1,
            }
        }
        if q == b'\'' && j == start + 1 {
            return Err(self.err_at(line, col, ErrorKind::EmptyQuoted));
        }
        let end = j + 1;
        self.bump_ascii(end - start);
        let kind = if q == b'\'' {
            Tok::SingleQuoted
        } else {
            Tok::Distinct
        };
        Ok(Token {
            kind,
            start,
            end,
            line,
            col,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex(s: &str) -> Result<Vec<(Tok, String)>, TptpError> {
        let mut lx = Lexer::new(s, Path::new("t"));
        let mut out = Vec::new();
        loop {
            let t = lx.next_token()?;
            if t.kind == Tok::Eof {
                return Ok(out);
            }
            out.push((t.kind, s[t.start..t.end].to_string()));
        }
    }

    fn kinds(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|(k, _)| k).collect()
    }

    #[test]
    fn words_and_punctuation() {
        use Tok::*;
        assert_eq!(
            kinds("cnf(a_1, axiom, ~p(X) | f(Y)!=Z | $x = $$y)."),
            vec![
                Lower,
                LParen,
                Lower,
                Comma,
                Lower,
                Comma,
                Tilde,
                Lower,
                LParen,
                Upper,
                RParen,
                Pipe,
                Lower,
                LParen,
                Upper,
                RParen,
                Neq,
                Upper,
                Pipe,
                Dollar,
                Eq,
                DollarDollar,
                RParen,
                Dot
            ]
        );
    }

    #[test]
    fn comments_are_skipped_and_status_recorded() {
        let mut lx = Lexer::new(
            "% File : x\n% Status   : Unsatisfiable\n/* a\n * b */ p % c\n% Status : Satisfiable\n",
            Path::new("t"),
        );
        let t = lx.next_token().unwrap();
        assert_eq!((t.kind, t.line, t.col), (Tok::Lower, 4, 9));
        assert_eq!(lx.next_token().unwrap().kind, Tok::Eof);
        assert_eq!(lx.status.as_deref(), Some("Unsatisfiable"));
    }

    #[test]
    fn numbers_follow_the_bnf() {
        let toks = lex("0 12 -3 +4 1/2 -7/3 0.5 1.25e-3 2E10 1e 3.x").unwrap();
        let texts: Vec<&str> = toks.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                "0", "12", "-3", "+4", "1/2", "-7/3", "0.5", "1.25e-3", "2E10", "1", "e", "3", ".",
                "x"
            ]
        );
        let e = lex("p(007)").unwrap_err();
        assert_eq!((e.line, e.col), (1, 3));
        assert!(e.message().contains("leading zeros"));
        assert!(is_number("-1/2") && is_number("0.5e+3") && !is_number("01") && !is_number("1."));
        assert!(!is_number("") && !is_number("-") && !is_number("1/0"));
    }

    #[test]
    fn quoted_tokens() {
        let toks = lex(r#"'a b' 'it\'s' '\\' "x" "" "q\"""#).unwrap();
        assert_eq!(toks[0], (Tok::SingleQuoted, "'a b'".into()));
        assert_eq!(toks[1].1, r"'it\'s'");
        assert_eq!(toks[2].1, r"'\\'");
        assert_eq!(toks[3], (Tok::Distinct, "\"x\"".into()));
        assert_eq!(toks[4].1, "\"\"");
        assert_eq!(toks[5].1, r#""q\"""#);
        assert!(is_quoted_token("'a b'", b'\'') && !is_quoted_token("''", b'\''));
        assert!(is_quoted_token("\"\"", b'"') && !is_quoted_token("'a'b'", b'\''));
    }

    #[test]
    fn lexical_errors_are_located() {
        let e = lex("p('abc").unwrap_err();
        assert_eq!(
            (e.line, e.col, e.kind.clone()),
            (1, 3, ErrorKind::UnterminatedQuoted)
        );
        let e = lex("p /* x").unwrap_err();
        assert_eq!((e.col, e.kind.clone()), (3, ErrorKind::UnterminatedComment));
        let e = lex("p ''").unwrap_err();
        assert_eq!(e.kind, ErrorKind::EmptyQuoted);
        let e = lex("'a\\b'").unwrap_err();
        assert_eq!((e.col, e.kind.clone()), (3, ErrorKind::BadEscape('b')));
        let e = lex("\n  p\u{0}").unwrap_err();
        assert_eq!(
            (e.line, e.col, e.kind.clone()),
            (2, 4, ErrorKind::ControlChar(0))
        );
        let e = lex("p é").unwrap_err();
        assert_eq!(e.kind, ErrorKind::UnexpectedChar('é'));
        let e = lex("$ x").unwrap_err();
        assert_eq!(e.kind, ErrorKind::UnexpectedChar('$'));
        // Non-ASCII is fine inside comments, and columns count characters.
        let mut lx = Lexer::new("% été\n/* ü */ q", Path::new("t"));
        let t = lx.next_token().unwrap();
        assert_eq!((t.line, t.col), (2, 9));
    }

    #[test]
    fn operators_are_munched_whole() {
        let toks = lex("=> <=> = ~ ~| & !").unwrap();
        let v: Vec<(Tok, &str)> = toks.iter().map(|(k, s)| (*k, s.as_str())).collect();
        assert_eq!(
            v,
            vec![
                (Tok::Op, "=>"),
                (Tok::Op, "<=>"),
                (Tok::Eq, "="),
                (Tok::Tilde, "~"),
                (Tok::Op, "~|"),
                (Tok::Op, "&"),
                (Tok::Op, "!")
            ]
        );
    }
}
