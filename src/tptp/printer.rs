//! Printing terms, literals and clauses as TPTP CNF text that the parser
//! reads back to the same literals.
//!
//! Variables print as `X0, X1, ...`; predicate literals (`p = $true`) as
//! `p` / `~p`; equations as `s=t` / `s!=t`; the empty clause as `$false`.
//! Reading a printed clause back gives the same literals whenever its
//! variables are numbered by first occurrence in print order (left to right,
//! `lhs` before `rhs`), which `normalize_clause` guarantees; otherwise the
//! result is the same clause up to variable renaming.

use super::ast::{Formula, Role};
use super::lexer::{is_dollar_word, is_lower_word, is_number, is_quoted_token};
use crate::logic::{Head, Literal, TermBank, TermId};
use std::borrow::Cow;
use std::fmt::Write;

/// Single-quotes `s` as a TPTP `<single_quoted>` atom, which the BNF limits
/// to printable ASCII with `\\` and `\'` escapes: `\` and `'` are escaped,
/// and every byte outside printable ASCII (control characters, non-ASCII
/// UTF-8) as well as `%` itself is percent-encoded as `%XX` (uppercase hex of
/// the UTF-8 byte), so the result is valid TPTP and [`unquote`] gives back
/// `s` exactly.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for b in s.bytes() {
        match b {
            b'\'' | b'\\' => {
                out.push('\\');
                out.push(b as char);
            }
            b'%' => out.push_str("%25"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out.push('\'');
    out
}

/// A file path (or any text) as a TPTP single-quoted atom, for `file(...)`
/// sources: always quoted, escaped and percent-encoded as described at
/// `quote`; read it back with [`unquote`].
pub fn path_to_tptp(path: &str) -> String {
    quote(path)
}

/// Reads back an atom written by [`path_to_tptp`] (quotes included): undoes
/// the `\\`/`\'` escapes and the `%XX` encoding. `None` if `atom` is not a
/// single-quoted token or decodes to invalid UTF-8.
pub fn unquote(atom: &str) -> Option<String> {
    if !is_quoted_token(atom, b'\'') {
        return None;
    }
    let inner = &atom.as_bytes()[1..atom.len() - 1];
    let mut bytes = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        match inner[i] {
            b'\\' => {
                bytes.push(inner[i + 1]);
                i += 2;
            }
            b'%' => {
                let hex = inner.get(i + 1..i + 3)?;
                if !hex.iter().all(u8::is_ascii_hexdigit) {
                    return None;
                }
                let hex = std::str::from_utf8(hex).ok()?;
                bytes.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            c => {
                bytes.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(bytes).ok()
}

/// A symbol name as TPTP text: names the parser produces (lower words,
/// quoted atoms, distinct objects, numbers, `$`/`$$` words) are printed as
/// they are; any other name (e.g. made by a program) is single-quoted.
pub fn symbol_to_tptp(name: &str) -> Cow<'_, str> {
    let ok = match name.as_bytes().first() {
        Some(b'a'..=b'z') => is_lower_word(name),
        Some(b'\'') => is_quoted_token(name, b'\''),
        Some(b'"') => is_quoted_token(name, b'"'),
        Some(b'$') => is_dollar_word(name),
        Some(b'0'..=b'9' | b'+' | b'-') => is_number(name),
        _ => false,
    };
    if ok {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(quote(name))
    }
}

/// A formula name as TPTP text: lower words, unsigned integers and valid
/// single-quoted atoms as they are, anything else single-quoted.
pub fn name_to_tptp(name: &str) -> Cow<'_, str> {
    let ok = is_lower_word(name)
        || (!name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()))
        || is_quoted_token(name, b'\'');
    if ok {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(quote(name))
    }
}

/// Appends the TPTP text of `t` to `out`.
pub fn write_term(bank: &TermBank, t: TermId, out: &mut String) {
    match bank.head(t) {
        Head::Var(i) => {
            let _ = write!(out, "X{i}");
        }
        Head::Sym(s) => {
            out.push_str(&symbol_to_tptp(&bank.sig.get(s).name));
            let args = bank.args(t);
            if !args.is_empty() {
                out.push('(');
                for (i, &a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_term(bank, a, out);
                }
                out.push(')');
            }
        }
    }
}

/// The TPTP text of a term, e.g. `f(X0,a)`.
pub fn term_to_string(bank: &TermBank, t: TermId) -> String {
    let mut s = String::new();
    write_term(bank, t, &mut s);
    s
}

/// Appends the TPTP text of a literal to `out`.
pub fn write_literal(bank: &TermBank, lit: &Literal, out: &mut String) {
    if lit.is_equational(bank) {
        write_term(bank, lit.lhs, out);
        out.push_str(if lit.pos { "=" } else { "!=" });
        write_term(bank, lit.rhs, out);
    } else {
        if !lit.pos {
            out.push('~');
        }
        write_term(bank, lit.lhs, out);
    }
}

/// The TPTP text of a literal: `p(X0)`, `~p(X0)`, `X0=X1`, `X0!=X1`.
pub fn literal_to_string(bank: &TermBank, lit: &Literal) -> String {
    let mut s = String::new();
    write_literal(bank, lit, &mut s);
    s
}

/// The TPTP text of a clause: literals joined by ` | `, `$false` if empty.
pub fn clause_to_tptp(bank: &TermBank, lits: &[Literal]) -> String {
    if lits.is_empty() {
        return "$false".to_string();
    }
    let mut s = String::new();
    for (i, l) in lits.iter().enumerate() {
        if i > 0 {
            s.push_str(" | ");
        }
        write_literal(bank, l, &mut s);
    }
    s
}

/// A whole annotated clause: `cnf(name, role, (lits)).`, or
/// `cnf(name, role, (lits), annotation).` with an annotation such as
/// `inference(res,[status(thm)],[c1,c2])`. The name is quoted if needed.
pub fn cnf_line(
    name: &str,
    role: Role,
    bank: &TermBank,
    lits: &[Literal],
    annotation: Option<&str>,
) -> String {
    let body = clause_to_tptp(bank, lits);
    let name = name_to_tptp(name);
    match annotation {
        Some(a) => format!("cnf({name}, {role}, ({body}), {a})."),
        None => format!("cnf({name}, {role}, ({body}))."),
    }
}

/// Appends the TPTP text of a FOF formula to `out`: binary connectives and
/// quantifier bodies are parenthesised, so the text reads back as the same
/// tree whatever the BNF's precedences; variables print as `X<i>`, a
/// negated atom as `~p`, a negated equation as `s != t`, an empty `And` as
/// `$true` and an empty `Or` as `$false`.
pub fn write_formula(bank: &TermBank, f: &Formula, out: &mut String) {
    let join = |fs: &[Formula], op: &str, empty: &str, out: &mut String| match fs {
        [] => out.push_str(empty),
        [g] => write_formula(bank, g, out),
        _ => {
            out.push('(');
            for (i, g) in fs.iter().enumerate() {
                if i > 0 {
                    out.push_str(op);
                }
                write_formula(bank, g, out);
            }
            out.push(')');
        }
    };
    match f {
        Formula::True => out.push_str("$true"),
        Formula::False => out.push_str("$false"),
        Formula::Lit(l) => write_literal(bank, l, out),
        Formula::Not(g) => {
            out.push_str("~ (");
            write_formula(bank, g, out);
            out.push(')');
        }
        Formula::And(fs) => join(fs, " & ", "$true", out),
        Formula::Or(fs) => join(fs, " | ", "$false", out),
        Formula::Imp(a, b) | Formula::Iff(a, b) => {
            out.push('(');
            write_formula(bank, a, out);
            out.push_str(if matches!(f, Formula::Imp(..)) {
                " => "
            } else {
                " <=> "
            });
            write_formula(bank, b, out);
            out.push(')');
        }
        Formula::Forall(vs, g) | Formula::Exists(vs, g) => {
            if vs.is_empty() {
                return write_formula(bank, g, out);
            }
            let universal = matches!(f, Formula::Forall(..));
            out.push_str(if universal { "! [" } else { "? [" });
            // Directly nested quantifiers of the same kind print as one.
            let mut body: &Formula = g;
            let mut vars: Vec<u32> = vs.clone();
            loop {
                match body {
                    Formula::Forall(ws, h) if universal => {
                        vars.extend(ws);
                        body = h;
                    }
                    Formula::Exists(ws, h) if !universal => {
                        vars.extend(ws);
                        body = h;
                    }
                    _ => break,
                }
            }
            for (i, v) in vars.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "X{v}");
            }
            out.push_str("] : (");
            write_formula(bank, body, out);
            out.push(')');
        }
    }
}

/// The universal closure of a clause as a closed FOF formula, the form in
/// which an entailment conclusion may be stated: `! [X0,X1] : (p(X0) |
/// ~q(X1))`, variables bound in order of first occurrence; a ground
/// clause is its disjunction alone. The closure and the clause have the
/// same models (a clause's free variables are implicitly universal), and
/// the text reads back through the FOF reader and the clausifier as a
/// variant of the clause.
pub fn clause_closure_to_tptp(bank: &TermBank, lits: &[Literal]) -> String {
    let mut occurrences = Vec::new();
    for l in lits {
        bank.push_vars(l.lhs, &mut occurrences);
        bank.push_vars(l.rhs, &mut occurrences);
    }
    let mut vars: Vec<u32> = Vec::new();
    for v in occurrences {
        if !vars.contains(&v) {
            vars.push(v);
        }
    }
    let body = clause_to_tptp(bank, lits);
    if vars.is_empty() {
        return body;
    }
    let mut s = String::from("! [");
    for (i, v) in vars.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "X{v}");
    }
    let _ = write!(s, "] : ({body})");
    s
}

/// The TPTP text of a FOF formula (see [`write_formula`]).
pub fn formula_to_tptp(bank: &TermBank, f: &Formula) -> String {
    let mut s = String::new();
    write_formula(bank, f, &mut s);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::SymbolKind;
    use crate::tptp::parse_str;

    /// The closure of a clause reads back through the FOF reader and the
    /// clausifier as the same clause (up to variable names), with one
    /// quantified variable per distinct variable of the clause.
    #[test]
    fn clause_closure_reads_back_as_the_clause() {
        for text in [
            "p(X0) | ~q(X1,f(X0))",
            "X0=X1 | f(X0)!=f(X1) | ~r(X1)",
            "member(a,b)",
            "~subset(X2,X0) | subset(X0,X2)",
        ] {
            let mut bank = TermBank::new();
            let lits = crate::tptp::parse_clause_str(&mut bank, text).unwrap();
            let closure = clause_closure_to_tptp(&bank, &lits);
            let (f, nvars) =
                crate::tptp::fof_tests::parse_formula_for_tests(&mut bank, &closure).unwrap();
            let mut distinct = Vec::new();
            for l in &lits {
                bank.push_vars(l.lhs, &mut distinct);
                bank.push_vars(l.rhs, &mut distinct);
            }
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(nvars, distinct.len(), "{closure}");
            assert_eq!(
                closure.starts_with("! ["),
                !distinct.is_empty(),
                "{closure}"
            );
            let (clauses, _) = crate::tptp::clausify_formula(&mut bank, &f);
            assert_eq!(clauses.len(), 1, "{closure}");
            let back = clause_to_tptp(&bank, &clauses[0]);
            // Same literals in the same order, variables renamed apart.
            let mut b2 = TermBank::new();
            let again = crate::tptp::parse_clause_str(&mut b2, &back).unwrap();
            assert_eq!(again.len(), lits.len(), "{text} -> {closure} -> {back}");
            let shape = |s: &str| {
                s.chars()
                    .filter(|c| !c.is_ascii_digit())
                    .collect::<String>()
            };
            assert_eq!(shape(&back), shape(text), "{text} -> {closure} -> {back}");
        }
    }

    #[test]
    fn prints_terms_and_literals() {
        let mut b = TermBank::new();
        let p = b.sig.intern("p", 2, SymbolKind::Predicate);
        let f = b.sig.intern("f", 1, SymbolKind::Function);
        let a = b.sig.intern("a", 0, SymbolKind::Function);
        let (x0, x1) = (b.var(0), b.var(1));
        let ta = b.constant(a);
        let fa = b.app(f, &[ta]);
        let atom = b.app(p, &[x0, fa]);
        assert_eq!(term_to_string(&b, atom), "p(X0,f(a))");
        let pos = Literal::atom(&b, atom, true);
        let neg = pos.negate();
        assert_eq!(literal_to_string(&b, &pos), "p(X0,f(a))");
        assert_eq!(literal_to_string(&b, &neg), "~p(X0,f(a))");
        let eq = Literal::eq(x0, x1, true);
        assert_eq!(literal_to_string(&b, &eq), "X0=X1");
        assert_eq!(literal_to_string(&b, &eq.negate()), "X0!=X1");
        assert_eq!(clause_to_tptp(&b, &[]), "$false");
        assert_eq!(clause_to_tptp(&b, &[neg, eq]), "~p(X0,f(a)) | X0=X1");
        assert_eq!(
            cnf_line("c_1", Role::Axiom, &b, &[pos], None),
            "cnf(c_1, axiom, (p(X0,f(a))))."
        );
        assert_eq!(
            cnf_line(
                "my clause",
                Role::Plain,
                &b,
                &[],
                Some("inference(r,[],[c_1])")
            ),
            "cnf('my clause', plain, ($false), inference(r,[],[c_1]))."
        );
        let t = b.true_term();
        assert_eq!(literal_to_string(&b, &Literal::atom(&b, t, true)), "$true");
    }

    #[test]
    fn names_are_quoted_when_needed() {
        assert_eq!(name_to_tptp("abc"), "abc");
        assert_eq!(name_to_tptp("42"), "42");
        assert_eq!(name_to_tptp("'a b'"), "'a b'");
        assert_eq!(name_to_tptp("Abc"), "'Abc'");
        assert_eq!(name_to_tptp("it's"), "'it\\'s'");
        assert_eq!(name_to_tptp(""), "''");
        assert_eq!(symbol_to_tptp("\"d\""), "\"d\"");
        assert_eq!(symbol_to_tptp("-3/4"), "-3/4");
        assert_eq!(symbol_to_tptp("$$s"), "$$s");
        assert_eq!(symbol_to_tptp("a b"), "'a b'");
        assert_eq!(symbol_to_tptp("back\\slash"), "'back\\\\slash'");
    }

    #[test]
    fn paths_are_quoted_within_the_bnf_and_read_back() {
        for path in [
            "plain/path.p",
            "it's a \\ path",
            "caf\u{e9}/\u{1F600}.ax",
            "new\nline\ttab\u{7}bell\u{0}nul",
            "100%/%41",
        ] {
            let atom = path_to_tptp(path);
            assert!(is_quoted_token(&atom, b'\''), "{atom}");
            assert!(atom.bytes().all(|b| (0x20..=0x7e).contains(&b)), "{atom}");
            assert_eq!(unquote(&atom).as_deref(), Some(path), "{atom}");
        }
        assert_eq!(path_to_tptp("caf\u{e9}"), "'caf%C3%A9'");
        assert_eq!(unquote("'%zz'"), None);
        assert_eq!(unquote("'%4'"), None);
        assert_eq!(unquote("plain"), None);
    }

    #[test]
    fn printed_clauses_parse_back() {
        let mut b = TermBank::new();
        let text = "cnf(x, axiom, (~p('a b',X,\"d\") | f(X,Y)!=-1/2 | $$s(Y)=X | 'Q')).";
        let p = parse_str(&mut b, text, "t", None).unwrap();
        let lits = p.clauses[0].lits.clone();
        let line = cnf_line("x", Role::Axiom, &b, &lits, None);
        assert_eq!(
            line,
            "cnf(x, axiom, (~p('a b',X0,\"d\") | f(X0,X1)!=-1/2 | $$s(X1)=X0 | 'Q'))."
        );
        let q = parse_str(&mut b, &line, "t", None).unwrap();
        assert_eq!(q.clauses[0].lits, lits);
    }
}
