//! Integration tests of the TPTP reader and printer: the shared TPTP sample
//! library, malformed inputs with their messages and positions, print/parse
//! round trips, and never-panic properties on arbitrary input.

use proptest::prelude::*;
use saturate::logic::{Head, Literal, SymbolKind, TermBank, TermId};
use saturate::tptp::{
    ErrorKind, Problem, Role, SzsStatus, TptpError, clause_to_tptp, cnf_line, parse_bytes,
    parse_file, parse_str,
};
use std::path::{Path, PathBuf};

fn tptp_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/tptp")
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The `Number of clauses : N` of a TPTP header.
fn header_clause_count(text: &str) -> Option<usize> {
    let line = text.lines().find(|l| l.contains("Number of clauses"))?;
    let after = line.split("Number of clauses").nth(1)?;
    after
        .trim_start_matches([' ', ':'])
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Prints each clause, reads it back and checks the literals are identical.
fn assert_round_trip(bank: &mut TermBank, p: &Problem) {
    for c in &p.clauses {
        let line = cnf_line(&c.name, c.role, bank, &c.lits, c.annotations.as_deref());
        let q = parse_str(bank, &line, "printed", None).unwrap_or_else(|e| panic!("{e}\n{line}"));
        assert_eq!(q.clauses.len(), 1, "{line}");
        assert_eq!(q.clauses[0].lits, c.lits, "{line}");
        assert_eq!(q.clauses[0].name, c.name);
        assert_eq!(q.clauses[0].role, c.role);
        assert_eq!(q.clauses[0].annotations, c.annotations);
    }
}

#[test]
fn every_file_of_the_sample_library_parses() {
    let root = tptp_dir();
    if !root.is_dir() {
        eprintln!(
            "note: {} is absent; skipping the library test",
            root.display()
        );
        return;
    }
    let mut files = Vec::new();
    files_under(&root.join("Axioms"), &mut files);
    let axioms = files.len();
    files_under(&root.join("Problems"), &mut files);
    assert!(
        axioms > 0 && files.len() > axioms,
        "sample library is empty"
    );
    let mut total = 0;
    for (i, path) in files.iter().enumerate() {
        let mut bank = TermBank::new();
        let p = parse_file(&mut bank, path, Some(&root)).unwrap_or_else(|e| panic!("{e}"));
        let n = p.clauses.len() + p.tautologies.len();
        assert!(n > 0, "{}: no clauses", path.display());
        assert_eq!(p.files[0], *path);
        let text = std::fs::read_to_string(path).unwrap();
        if let Some(expected) = header_clause_count(&text) {
            assert_eq!(
                n,
                expected,
                "{}: clause count differs from header",
                path.display()
            );
        }
        if i >= axioms {
            let status = p.szs_status();
            assert!(
                matches!(
                    status,
                    Some(SzsStatus::Satisfiable | SzsStatus::Unsatisfiable)
                ),
                "{}: status {:?}",
                path.display(),
                p.status
            );
            if text.contains("\ninclude(") {
                assert!(
                    p.files.len() > 1,
                    "{}: includes not followed",
                    path.display()
                );
            }
        }
        for c in &p.clauses {
            assert!(p.files.contains(&c.source.file));
            let max_var = c.lits.iter().map(|l| l.var_bound(&bank)).max().unwrap_or(0);
            assert_eq!(max_var as usize, c.var_names.len(), "{}", c.name);
        }
        assert_round_trip(&mut bank, &p);
        total += n;
    }
    eprintln!("parsed {} files, {total} clauses", files.len());
}

fn err(text: &str) -> TptpError {
    let mut bank = TermBank::new();
    match parse_str(&mut bank, text, "bad.p", None) {
        Ok(p) => panic!("accepted: {p:?}"),
        Err(e) => e,
    }
}

#[track_caller]
fn assert_err(text: &str, line: u32, col: u32, message: &str) {
    let e = err(text);
    assert_eq!(
        (e.line, e.col, e.message().as_str()),
        (line, col, message),
        "for {text:?}"
    );
    assert_eq!(e.to_string(), format!("bad.p:{line}:{col}: {message}"));
}

#[test]
fn unbalanced_parentheses() {
    assert_err(
        "cnf(a, axiom, ((p(X) | q).",
        1,
        26,
        "expected ')' but found '.'",
    );
    assert_err(
        "cnf(a, axiom, (p(X) | q).",
        1,
        25,
        "expected ',' or ')' but found '.'",
    );
    assert_err(
        "cnf(a, axiom, p(f(X).",
        1,
        21,
        "expected ',' or ')' but found '.'",
    );
    assert_err("cnf(a, axiom, p(X))).", 1, 20, "expected '.' but found ')'");
    assert_err(
        "cnf(a, axiom, p(X)",
        1,
        19,
        "expected '|', ',' or ')' but found end of file",
    );
    assert_err(
        "cnf(a, axiom, p, inference(r, [x], [a, b)).",
        1,
        41,
        "expected ',' or ']' but found ')'",
    );
}

#[test]
fn bad_role() {
    let e = err("cnf(a, axiom, p).\ncnf(b, lemmas, q).");
    assert_eq!((e.line, e.col), (2, 8));
    assert_eq!(e.kind, ErrorKind::BadRole("lemmas".into()));
    assert!(e.message().starts_with("bad role 'lemmas'"));
    assert_err(
        "cnf(a, 'axiom', p).",
        1,
        8,
        "expected a formula role but found ''axiom''",
    );
}

#[test]
fn missing_include() {
    let tmp = tempfile::tempdir().unwrap();
    let prob = tmp.path().join("P.p");
    std::fs::write(&prob, "cnf(a, axiom, p).\n  include('Axioms/NOPE.ax').\n").unwrap();
    let mut bank = TermBank::new();
    let root = tmp.path().join("root");
    let e = parse_file(&mut bank, &prob, Some(&root)).unwrap_err();
    assert_eq!(e.file, prob);
    assert_eq!((e.line, e.col), (2, 11));
    assert_eq!(
        e.message(),
        format!(
            "cannot find included file 'Axioms/NOPE.ax' (searched {}, {})",
            root.join("Axioms/NOPE.ax").display(),
            tmp.path().join("Axioms/NOPE.ax").display()
        )
    );
}

#[test]
fn binary_garbage() {
    let mut bank = TermBank::new();
    let e = parse_bytes(
        &mut bank,
        b"cnf(a, axiom, p).\n\x7fELF\x02\x01",
        "bin",
        None,
    )
    .unwrap_err();
    assert_eq!(
        (e.line, e.col, e.kind),
        (2, 1, ErrorKind::ControlChar(0x7f))
    );
    let e = parse_bytes(&mut bank, b"cnf(a,\n axiom, \xc3\x28)", "bin", None).unwrap_err();
    assert_eq!((e.line, e.col, e.kind), (2, 9, ErrorKind::InvalidUtf8));
    assert_err(
        "cnf(a, axiom, p).\u{0}",
        1,
        18,
        "control character U+0000 (binary file?)",
    );
    assert_err(
        "% comment \u{1}\n",
        1,
        11,
        "control character U+0001 (binary file?)",
    );
    assert_err("cnf(a, axiom, p(é)).", 1, 17, "unexpected character 'é'");
}

#[test]
fn empty_file() {
    assert_err("", 1, 1, "no formulas in file");
    assert_err(
        "%----\n% Status : Satisfiable\n\n/* nothing */\n",
        1,
        1,
        "no formulas in file",
    );
}

#[test]
fn unterminated_tokens() {
    assert_err(
        "cnf(a, axiom, p('abc)).\n",
        1,
        17,
        "unterminated quoted atom",
    );
    assert_err(
        "cnf(a, axiom, p(\"abc)).\n",
        1,
        17,
        "unterminated distinct object",
    );
    assert_err(
        "cnf(a, axiom, p).\n/* open\n comment",
        2,
        1,
        "unterminated block comment",
    );
    assert_err("cnf(a, axiom, p('')).", 1, 17, "empty quoted atom ''");
}

#[test]
fn other_languages_are_refused_with_position() {
    assert_err(
        "% header\ntcf(a, axiom, ![X]: p(X)).",
        2,
        1,
        "TCF input is not supported (saturate reads CNF and FOF)",
    );
    assert_err(
        "tff(t, type, a: $i).",
        1,
        1,
        "TFF input is not supported (saturate reads CNF and FOF)",
    );
    assert_err(
        "thf(t, type, a: $i).",
        1,
        1,
        "THF input is not supported (saturate reads CNF and FOF)",
    );
}

#[test]
fn inconsistent_arity_is_allowed() {
    let mut bank = TermBank::new();
    let p = parse_str(
        &mut bank,
        "cnf(a, axiom, p(f(a), f(a, b)) | p(a)).",
        "t",
        None,
    )
    .unwrap();
    let lits = &p.clauses[0].lits;
    assert_ne!(bank.sym(lits[0].lhs), bank.sym(lits[1].lhs));
    let args = bank.args(lits[0].lhs);
    assert_ne!(bank.sym(args[0]), bank.sym(args[1]));
    assert_eq!(bank.sig.get(bank.sym(args[1])).arity, 2);
}

#[test]
fn names_roles_and_variables_are_kept() {
    let mut bank = TermBank::new();
    let text = "cnf('my name', negated_conjecture, ( Foo = Bar | ~ p(Bar, Baz) ), file('f.p', x)).";
    let p = parse_str(&mut bank, text, "t", None).unwrap();
    let c = &p.clauses[0];
    assert_eq!(c.name, "'my name'");
    assert_eq!(c.role, Role::NegatedConjecture);
    assert_eq!(c.var_names, ["Foo", "Bar", "Baz"]);
    assert_eq!(c.annotations.as_deref(), Some("file('f.p', x)"));
    assert_eq!(clause_to_tptp(&bank, &c.lits), "X0=X1 | ~p(X1,X2)");
}

// ---------------------------------------------------------------------------
// Round trip: random clauses over a small signature.

/// Functions (name, arity) and predicates used by the generator; the names
/// are spelled as the parser stores them.
const FUNCS: &[(&str, u32)] = &[
    ("a", 0),
    ("b", 0),
    ("'c d'", 0),
    ("\"obj\"", 0),
    ("-1/2", 0),
    ("3.5e2", 0),
    ("f", 1),
    ("g", 2),
    ("'h k'", 1),
    ("$$s", 1),
    ("$sum", 2),
    ("g", 1),
];
const PREDS: &[(&str, u32)] = &[
    ("p", 0),
    ("q", 1),
    ("r", 2),
    ("'P q'", 1),
    ("$less", 2),
    ("q", 2),
];

#[derive(Clone, Debug)]
enum GTerm {
    Var(u32),
    App(usize, Vec<GTerm>),
}

#[derive(Clone, Debug)]
enum GLit {
    Pred(usize, Vec<GTerm>, bool),
    Eq(GTerm, GTerm, bool),
}

fn gterm() -> impl Strategy<Value = GTerm> {
    let leaf = prop_oneof![
        (0u32..4).prop_map(GTerm::Var),
        prop::sample::select(
            FUNCS
                .iter()
                .enumerate()
                .filter(|(_, f)| f.1 == 0)
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        )
        .prop_map(|i| GTerm::App(i, vec![])),
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        (0..FUNCS.len(), prop::collection::vec(inner, 2)).prop_map(|(i, mut args)| {
            args.truncate(FUNCS[i].1 as usize);
            while args.len() < FUNCS[i].1 as usize {
                args.push(GTerm::Var(0));
            }
            GTerm::App(i, args)
        })
    })
}

fn glit() -> impl Strategy<Value = GLit> {
    prop_oneof![
        (
            0..PREDS.len(),
            prop::collection::vec(gterm(), 2),
            any::<bool>()
        )
            .prop_map(|(i, mut args, pos)| {
                args.truncate(PREDS[i].1 as usize);
                GLit::Pred(i, args, pos)
            }),
        (gterm(), gterm(), any::<bool>()).prop_map(|(l, r, pos)| GLit::Eq(l, r, pos)),
    ]
}

fn build_term(bank: &mut TermBank, t: &GTerm) -> TermId {
    match t {
        GTerm::Var(i) => bank.var(*i),
        GTerm::App(i, args) => {
            let ids: Vec<TermId> = args.iter().map(|a| build_term(bank, a)).collect();
            let (name, arity) = FUNCS[*i];
            let f = bank.sig.intern(name, arity, SymbolKind::Function);
            bank.app(f, &ids)
        }
    }
}

fn build(bank: &mut TermBank, lits: &[GLit]) -> Vec<Literal> {
    lits.iter()
        .map(|l| match l {
            GLit::Pred(i, args, pos) => {
                let ids: Vec<TermId> = args.iter().map(|a| build_term(bank, a)).collect();
                let (name, arity) = PREDS[*i];
                let p = bank.sig.intern(name, arity, SymbolKind::Predicate);
                let atom = bank.app(p, &ids);
                Literal::atom(bank, atom, *pos)
            }
            GLit::Eq(l, r, pos) => {
                let l = build_term(bank, l);
                let r = build_term(bank, r);
                Literal::eq(l, r, *pos)
            }
        })
        .collect()
}

/// Renumbers variables by first occurrence in print order.
fn canon(bank: &mut TermBank, lits: &[Literal]) -> Vec<Literal> {
    fn walk(bank: &mut TermBank, t: TermId, map: &mut Vec<u32>) -> TermId {
        match bank.head(t) {
            Head::Var(v) => {
                let i = match map.iter().position(|&w| w == v) {
                    Some(i) => i,
                    None => {
                        map.push(v);
                        map.len() - 1
                    }
                };
                bank.var(i as u32)
            }
            Head::Sym(s) => {
                let args: Vec<TermId> = bank.args(t).to_vec();
                let new: Vec<TermId> = args.iter().map(|&a| walk(bank, a, map)).collect();
                bank.app(s, &new)
            }
        }
    }
    let mut map = Vec::new();
    lits.iter()
        .map(|l| {
            let lhs = walk(bank, l.lhs, &mut map);
            let rhs = walk(bank, l.rhs, &mut map);
            Literal::eq(lhs, rhs, l.pos)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn printed_clauses_read_back_identically(
        glits in prop::collection::vec(glit(), 0..5),
        role in prop::sample::select(Role::ALL.to_vec()),
        name in prop::sample::select(vec!["c1", "42", "'a name'", "Upper", "it's"]),
    ) {
        let mut bank = TermBank::new();
        let lits = build(&mut bank, &glits);
        let expected = canon(&mut bank, &lits);
        let line = cnf_line(name, role, &bank, &lits, Some("inference(r,[status(thm)],[c0])"));
        let p = parse_str(&mut bank, &line, "rt", None).map_err(|e| TestCaseError::fail(format!("{e}\n{line}")))?;
        prop_assert_eq!(p.clauses.len(), 1);
        let c = &p.clauses[0];
        prop_assert_eq!(&c.lits, &expected, "{}", line);
        prop_assert_eq!(c.role, role);
        prop_assert_eq!(c.annotations.as_deref(), Some("inference(r,[status(thm)],[c0])"));
        // Printing the parsed clause gives the same text again.
        prop_assert_eq!(cnf_line(name, role, &bank, &c.lits, Some("inference(r,[status(thm)],[c0])")), cnf_line(name, role, &bank, &expected, Some("inference(r,[status(thm)],[c0])")));
    }
}

// ---------------------------------------------------------------------------
// Never panic.

const VALID: &str = "%------\n% Status   : Unsatisfiable\n%------\n\
cnf(membership_in_subsets,axiom,\n    ( ~ member(Element,Subset)\n    | ~ subset(Subset,Superset)\n    | member(Element,Superset) ) ).\n\
cnf(q, negated_conjecture, ( f('a b', \"obj\", -1/2) = X | X != g(Y) | $false ), inference(r, [status(thm)], [a, b:c])).\n\
/* block */ cnf(t, axiom, ~ (p) | $true).\n";

const SOUP: &[&str] = &[
    "cnf",
    "(",
    ")",
    ",",
    ".",
    "|",
    "~",
    "=",
    "!=",
    "p",
    "f",
    "X",
    "Y",
    "'q r'",
    "\"d\"",
    "1",
    "-2.5",
    "$true",
    "$false",
    "$sum",
    "axiom",
    "plain",
    "[",
    "]",
    ":",
    "include",
    "'nofile.ax'",
    "%c\n",
    "/*",
    "*/",
    " ",
    "\n",
    "fof",
    "-",
    "*",
    "$fof",
    "'",
    "\"",
    "\\",
    "&",
    "=>",
    "0",
];

fn check_no_panic(bytes: &[u8]) {
    let mut bank = TermBank::new();
    if let Ok(p) = parse_bytes(&mut bank, bytes, "fuzz.p", None) {
        for c in p.clauses.iter().chain(&p.tautologies) {
            let _ = clause_to_tptp(&bank, &c.lits);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        check_no_panic(&bytes);
    }

    #[test]
    fn mutated_valid_files_never_panic(
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<u8>()), 1..8)
    ) {
        let mut bytes = VALID.as_bytes().to_vec();
        for (at, op, b) in edits {
            let i = at.index(bytes.len() + 1);
            match op {
                0 => bytes.insert(i, b),
                1 if i < bytes.len() => { bytes.remove(i); }
                _ if i < bytes.len() => bytes[i] = b,
                _ => bytes.push(b),
            }
        }
        check_no_panic(&bytes);
    }

    #[test]
    fn token_soup_never_panics(toks in prop::collection::vec(prop::sample::select(SOUP), 0..60)) {
        let text: String = toks.concat();
        check_no_panic(text.as_bytes());
        let spaced = toks.join(" ");
        check_no_panic(spaced.as_bytes());
    }
}

#[test]
fn the_fuzz_seed_is_valid() {
    let mut bank = TermBank::new();
    let p = parse_str(&mut bank, VALID, "seed.p", None).unwrap();
    assert_eq!(p.clauses.len(), 2);
    assert_eq!(p.tautologies.len(), 1);
    assert_eq!(p.szs_status(), Some(SzsStatus::Unsatisfiable));
    assert_eq!(
        clause_to_tptp(&bank, &p.clauses[1].lits),
        "f('a b',\"obj\",-1/2)=X0 | X0!=g(X1)"
    );
}
