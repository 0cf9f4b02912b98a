//! Reading files and resolving `include` directives: search order (TPTP
//! root, then the including file's folder), cycle detection, UTF-8 checks,
//! bounds on what includes may read and, optionally, confinement of
//! includes to the TPTP root and the problem's folder ([`IncludePolicy`]).

use super::ast::{Entry, FileOutput, Includer, dir_of};
use super::error::{ErrorKind, TptpError};
use super::parser::FileParser;
use crate::logic::TermBank;
use std::path::{Path, PathBuf};

/// The TPTP root to resolve includes against: `cli` (e.g. `--tptp DIR`) if
/// given, else the `TPTP` environment variable if set and non-empty.
pub fn tptp_root(cli: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = cli {
        return Some(p.to_path_buf());
    }
    std::env::var_os("TPTP")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// Default [`IncludePolicy::max_included_clauses`].
pub const DEFAULT_MAX_INCLUDED_CLAUSES: u64 = 1_000_000;
/// Default [`IncludePolicy::max_includes`].
pub const DEFAULT_MAX_INCLUDES: u64 = 10_000;
/// Most files open at once along one include chain (the top file
/// included). Each level is a nested parse on the call stack, so a chain of
/// a few thousand files overflowed the stack (an abort, found by the
/// fuzzer at 4,892 levels); the TPTP library nests two or three deep.
pub const MAX_INCLUDE_DEPTH: usize = 64;

/// How `include` directives are followed: work bounds (a few files of a
/// few bytes can include each other into millions of clauses) and
/// confinement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncludePolicy {
    /// Refuse an include that resolves, symbolic links followed, outside
    /// the TPTP root and the folder of the problem file (`--confine-includes`).
    pub confine: bool,
    /// Most clauses read from included files in all; a file included twice
    /// counts twice.
    pub max_included_clauses: u64,
    /// Most include directives followed in all.
    pub max_includes: u64,
    /// Read a file with no formulas (empty, comments only) as an empty
    /// clause set, as TPTP allows and E does (`derive`, `prove`: such a
    /// problem is `Satisfiable`). Off by default: a domain run takes a
    /// formula-less axiom file for a wrong path.
    pub allow_empty: bool,
}

impl Default for IncludePolicy {
    fn default() -> Self {
        IncludePolicy {
            confine: false,
            max_included_clauses: DEFAULT_MAX_INCLUDED_CLAUSES,
            max_includes: DEFAULT_MAX_INCLUDES,
            allow_empty: false,
        }
    }
}

/// State shared by all files of one problem.
pub(crate) struct Reader<'r> {
    pub bank: &'r mut TermBank,
    root: Option<&'r Path>,
    /// Canonical paths of the files being read (innermost last).
    stack: Vec<PathBuf>,
    /// The same files as displayed (resolved, not canonicalised).
    shown: Vec<PathBuf>,
    /// Every file read, first read first, no repeats.
    pub files: Vec<PathBuf>,
    policy: IncludePolicy,
    /// With `policy.confine`: the canonical folders includes may resolve
    /// into (the root, then the top file's folder), set by the first read.
    allowed: Option<Vec<PathBuf>>,
    /// Include directives followed so far.
    includes: u64,
    /// Clauses read from included files so far.
    included_clauses: u64,
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Line and column (1-based, in characters) of byte offset `at` in `bytes`,
/// which are valid UTF-8 up to `at`.
fn position(bytes: &[u8], at: usize) -> (u32, u32) {
    let prefix = &bytes[..at];
    let line = prefix.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let line_start = prefix
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let col =
        std::str::from_utf8(&prefix[line_start..]).map_or(1, |s| s.chars().count() as u32 + 1);
    (line, col)
}

impl<'r> Reader<'r> {
    pub fn new(bank: &'r mut TermBank, root: Option<&'r Path>) -> Self {
        Self::with_policy(bank, root, IncludePolicy::default())
    }

    /// A reader following includes under `policy`.
    pub fn with_policy(
        bank: &'r mut TermBank,
        root: Option<&'r Path>,
        policy: IncludePolicy,
    ) -> Self {
        Reader {
            bank,
            root,
            stack: Vec::new(),
            shown: Vec::new(),
            files: Vec::new(),
            policy,
            allowed: None,
            includes: 0,
            included_clauses: 0,
        }
    }

    /// The folders includes may resolve into, computed once from the root
    /// and the folder `top_dir` of the first file read.
    fn allowed_dirs(&mut self, top_dir: &Path) -> &[PathBuf] {
        let root = self.root;
        self.allowed.get_or_insert_with(|| {
            let mut dirs: Vec<PathBuf> = Vec::new();
            for d in root.into_iter().chain(std::iter::once(top_dir)) {
                let d = if d.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    d
                };
                let c = canonical(d);
                if !dirs.contains(&c) {
                    dirs.push(c);
                }
            }
            dirs
        })
    }

    /// The files being read with `last` appended, for error messages.
    fn chain_to(&self, last: &Path) -> Vec<PathBuf> {
        let mut chain = self.shown.clone();
        chain.push(last.to_path_buf());
        chain
    }

    fn note_file(&mut self, path: &Path) {
        if !self.files.iter().any(|f| f == path) {
            self.files.push(path.to_path_buf());
        }
    }

    fn read_bytes(path: &Path) -> Result<Vec<u8>, ErrorKind> {
        std::fs::read(path).map_err(|e| ErrorKind::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
    }

    /// Reads the top file of a problem.
    pub fn read_top_file(&mut self, path: &Path) -> Result<FileOutput, TptpError> {
        let bytes = Self::read_bytes(path).map_err(|k| TptpError::new(path, 1, 1, k))?;
        self.note_file(path);
        self.stack.push(canonical(path));
        self.shown.push(path.to_path_buf());
        let out = self.parse_bytes(&bytes, path, &dir_of(path));
        self.stack.pop();
        self.shown.pop();
        out
    }

    /// Parses bytes that should be UTF-8 TPTP text.
    pub fn parse_bytes(
        &mut self,
        bytes: &[u8],
        file: &Path,
        dir: &Path,
    ) -> Result<FileOutput, TptpError> {
        match std::str::from_utf8(bytes) {
            Ok(text) => self.parse_text(text, file, dir),
            Err(e) => {
                let (line, col) = position(bytes, e.valid_up_to());
                Err(TptpError::new(file, line, col, ErrorKind::InvalidUtf8))
            }
        }
    }

    /// Parses one file's text, following its includes.
    pub fn parse_text(
        &mut self,
        text: &str,
        file: &Path,
        dir: &Path,
    ) -> Result<FileOutput, TptpError> {
        let mut p = FileParser::new(text, file, dir, self as &mut dyn Includer)?;
        p.parse_file()?;
        let status = p.status();
        Ok(FileOutput {
            entries: std::mem::take(&mut p.entries),
            status,
        })
    }

    /// The paths tried for an include of `name` from a file in `from_dir`.
    fn candidates(&self, name: &str, from_dir: &Path) -> Vec<PathBuf> {
        let p = Path::new(name);
        if p.is_absolute() {
            return vec![p.to_path_buf()];
        }
        let mut out = Vec::new();
        if let Some(root) = self.root {
            out.push(root.join(p));
        }
        let local = from_dir.join(p);
        if !out.contains(&local) {
            out.push(local);
        }
        out
    }
}

impl Includer for Reader<'_> {
    fn bank(&mut self) -> &mut TermBank {
        self.bank
    }

    fn allow_empty(&self) -> bool {
        self.policy.allow_empty
    }

    /// Reads the file an `include('name')` at `from:line:col` refers to.
    /// Returns its clauses and the path it was found at.
    fn include(
        &mut self,
        name: &str,
        from: &Path,
        from_dir: &Path,
        line: u32,
        col: u32,
    ) -> Result<(Vec<Entry>, PathBuf), TptpError> {
        let at = |kind| TptpError::new(from, line, col, kind);
        self.includes += 1;
        if self.includes > self.policy.max_includes {
            return Err(at(ErrorKind::IncludeLimit {
                what: "include directives",
                limit: self.policy.max_includes,
                chain: self.chain_to(Path::new(name)),
            }));
        }
        let searched = self.candidates(name, from_dir);
        let Some(path) = searched.iter().find(|p| p.is_file()).cloned() else {
            return Err(at(ErrorKind::MissingInclude {
                name: name.to_string(),
                searched,
            }));
        };
        let canon = canonical(&path);
        if self.policy.confine {
            // The top file's folder: the first folder an include was
            // resolved from (the outermost file is read first).
            let top_dir = self
                .shown
                .first()
                .map(|p| dir_of(p))
                .unwrap_or_else(|| from_dir.to_path_buf());
            let allowed = self.allowed_dirs(&top_dir).to_vec();
            if !allowed.iter().any(|d| canon.starts_with(d)) {
                return Err(at(ErrorKind::IncludeOutside {
                    name: name.to_string(),
                    path: canon,
                    allowed,
                }));
            }
        }
        if let Some(i) = self.stack.iter().position(|p| *p == canon) {
            let mut chain = self.shown[i..].to_vec();
            chain.push(path);
            return Err(at(ErrorKind::IncludeCycle(chain)));
        }
        // The files open (the top one included) and this one.
        if self.stack.len() >= MAX_INCLUDE_DEPTH {
            return Err(at(ErrorKind::IncludeLimit {
                what: "nested include levels",
                limit: MAX_INCLUDE_DEPTH as u64,
                chain: self.chain_to(&path),
            }));
        }
        let bytes = Self::read_bytes(&path).map_err(at)?;
        self.note_file(&path);
        self.stack.push(canon);
        self.shown.push(path.clone());
        let before = self.included_clauses;
        let out = self.parse_bytes(&bytes, &path, &dir_of(&path));
        let chain = self.shown.clone();
        self.stack.pop();
        self.shown.pop();
        let entries = out?.entries;
        // Nested includes counted their clauses already; this file's own
        // are the rest (a selection may have dropped nested ones).
        self.included_clauses = self
            .included_clauses
            .max(before.saturating_add(entries.len() as u64));
        if self.included_clauses > self.policy.max_included_clauses {
            return Err(at(ErrorKind::IncludeLimit {
                what: "included clauses",
                limit: self.policy.max_included_clauses,
                chain,
            }));
        }
        Ok((entries, path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tptp::{parse_file, parse_file_with, parse_str};
    use std::fs;

    fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
        let p = dir.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn includes_resolve_against_root_then_local_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("root");
        write(
            &root,
            "Axioms/A.ax",
            "cnf(a1, axiom, p(a)).\ncnf(a2, axiom, q(a)).\n",
        );
        write(tmp.path(), "probs/Local.ax", "cnf(l1, axiom, r).\n");
        let prob = write(
            tmp.path(),
            "probs/P.p",
            "% Status : Theorem\ninclude('Axioms/A.ax').\ninclude('Local.ax').\ncnf(c, negated_conjecture, ~p(a)).\n",
        );
        let mut bank = TermBank::new();
        let p = parse_file(&mut bank, &prob, Some(&root)).unwrap();
        let names: Vec<_> = p.clauses.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a1", "a2", "l1", "c"]);
        assert_eq!(p.files.len(), 3);
        assert_eq!(p.files[0], prob);
        assert_eq!(p.status.as_deref(), Some("Theorem"));
        assert_eq!(p.clauses[0].source.file, root.join("Axioms/A.ax"));
        // Without the root, the first include is missing.
        let e = parse_file(&mut bank, &prob, None).unwrap_err();
        assert_eq!((e.line, e.col), (2, 9));
        assert!(
            e.to_string()
                .contains("cannot find included file 'Axioms/A.ax'"),
            "{e}"
        );
        assert!(e.to_string().contains(&prob.display().to_string()));
    }

    #[test]
    fn selections_nesting_and_cycles() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        write(d, "B.ax", "cnf(b1, axiom, p).\ncnf('b 2', axiom, q).\n");
        write(d, "A.ax", "include('B.ax').\ncnf(a1, axiom, r).\n");
        let p = write(d, "P.p", "include('A.ax', [a1, 'b 2']).\n");
        let mut bank = TermBank::new();
        let prob = parse_file(&mut bank, &p, None).unwrap();
        let names: Vec<_> = prob.clauses.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["'b 2'", "a1"]);
        assert_eq!(prob.status, None);

        let p = write(d, "Q.p", "include(Upper).\n");
        let e = parse_file(&mut bank, &p, None).unwrap_err();
        assert_eq!(e.message(), "expected a file name but found 'Upper'");
        let p = write(d, "Q.p", "include('A.ax', *, space).\n");
        assert_eq!(parse_file(&mut bank, &p, None).unwrap().clauses.len(), 3);

        let p = write(d, "S.p", "\n include('A.ax', [a1, nope]).\n");
        let e = parse_file(&mut bank, &p, None).unwrap_err();
        assert_eq!((e.line, e.col), (2, 23));
        assert!(
            e.message()
                .starts_with("formula 'nope' selected by the include is not in"),
            "{e}"
        );

        write(d, "C1.ax", "include('C2.ax').\n");
        write(d, "C2.ax", "cnf(x, axiom, p).\ninclude('C1.ax').\n");
        let p = write(d, "C.p", "include('C1.ax').\n");
        let e = parse_file(&mut bank, &p, None).unwrap_err();
        assert!(e.message().starts_with("include cycle: "), "{e}");
        let (c1, c2) = (d.join("C1.ax"), d.join("C2.ax"));
        assert_eq!(e.kind, ErrorKind::IncludeCycle(vec![c1.clone(), c2, c1]));
        assert_eq!(e.file, d.join("C2.ax"));
        assert_eq!((e.line, e.col), (2, 9));

        // A file including itself.
        let p = write(d, "Self.p", "include('Self.p').\n");
        let e = parse_file(&mut bank, &p, None).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::IncludeCycle(_)));

        // An axiom file with only includes is fine; an empty one is not.
        write(d, "Only.ax", "include('B.ax').\n");
        let p = write(d, "O.p", "include('Only.ax').\n");
        assert_eq!(parse_file(&mut bank, &p, None).unwrap().clauses.len(), 2);
        write(d, "Empty.ax", "% nothing\n");
        let p = write(d, "E.p", "include('Empty.ax').\n");
        let e = parse_file(&mut bank, &p, None).unwrap_err();
        assert_eq!(e.file, d.join("Empty.ax"));
        assert_eq!(e.kind, ErrorKind::NoFormulas);
    }

    #[test]
    fn parse_str_falls_back_to_origin_folder_and_reads_bytes() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), "X.ax", "cnf(x, axiom, p).\n");
        let origin = tmp.path().join("virtual.p");
        let mut bank = TermBank::new();
        let p = parse_str(
            &mut bank,
            "include('X.ax').",
            origin.to_str().unwrap(),
            None,
        )
        .unwrap();
        assert_eq!(p.clauses.len(), 1);
        assert_eq!(p.files, vec![tmp.path().join("X.ax")]);

        let bin = write(tmp.path(), "bin.p", "");
        fs::write(&bin, b"cnf(a, axiom, p).\n\xff\xfe").unwrap();
        let e = parse_file(&mut bank, &bin, None).unwrap_err();
        assert_eq!((e.line, e.col, e.kind), (2, 1, ErrorKind::InvalidUtf8));
        let e = parse_file(&mut bank, &tmp.path().join("absent.p"), None).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Io { .. }));
    }

    #[test]
    fn root_from_cli_wins() {
        assert_eq!(tptp_root(Some(Path::new("/x"))), Some(PathBuf::from("/x")));
    }

    /// The include bomb of the robustness review: each level includes the
    /// one below ten times. Reading stops at the include and clause bounds
    /// with the chain in the error, long before the 10^6 clauses.
    /// A chain of includes deeper than [`MAX_INCLUDE_DEPTH`] is an input
    /// error naming the chain, not a stack overflow; one level less reads.
    #[test]
    fn deep_include_chains_stop_at_the_depth_bound() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        let n = 5_000;
        write(d, "C0.ax", "cnf(leaf, axiom, p(a)).\n");
        for i in 1..=n {
            write(
                d,
                &format!("C{i}.ax"),
                &format!("include('C{}.ax').\n", i - 1),
            );
        }
        let mut bank = TermBank::new();
        let e = parse_file(&mut bank, &d.join(format!("C{n}.ax")), None).unwrap_err();
        let ErrorKind::IncludeLimit { what, limit, chain } = &e.kind else {
            panic!("{e}");
        };
        assert_eq!(*what, "nested include levels");
        assert_eq!(*limit, MAX_INCLUDE_DEPTH as u64);
        assert_eq!(chain.len(), MAX_INCLUDE_DEPTH + 1, "{chain:?}");
        let top = MAX_INCLUDE_DEPTH - 1;
        let p = parse_file(&mut bank, &d.join(format!("C{top}.ax")), None).unwrap();
        assert_eq!(p.clauses.len(), 1);
        assert!(parse_file(&mut bank, &d.join(format!("C{}.ax", top + 1)), None).is_err());
    }

    #[test]
    fn include_bombs_stop_at_the_bounds() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        write(d, "L0.ax", "cnf(leaf, axiom, p(a)).\n");
        for i in 1..=6 {
            let body = format!("include('L{}.ax').\n", i - 1).repeat(10);
            write(d, &format!("L{i}.ax"), &body);
        }
        let top = d.join("L6.ax");
        let mut bank = TermBank::new();
        let e = parse_file(&mut bank, &top, None).unwrap_err();
        let ErrorKind::IncludeLimit { what, limit, chain } = &e.kind else {
            panic!("{e}");
        };
        assert_eq!(
            (*what, *limit),
            ("include directives", DEFAULT_MAX_INCLUDES)
        );
        assert_eq!(chain.first(), Some(&top));
        assert_eq!(chain.len(), 7, "{chain:?}");
        assert!(e.to_string().contains("L6.ax -> "), "{e}");
        let policy = IncludePolicy {
            max_included_clauses: 50,
            ..IncludePolicy::default()
        };
        let e = parse_file_with(&mut bank, &top, None, &policy).unwrap_err();
        assert!(
            matches!(
                e.kind,
                ErrorKind::IncludeLimit {
                    what: "included clauses",
                    limit: 50,
                    ..
                }
            ),
            "{e}"
        );
        // Within the bounds the same files read normally.
        let p = parse_file_with(&mut bank, &d.join("L1.ax"), None, &policy).unwrap();
        assert_eq!(p.clauses.len(), 10);
        let policy = IncludePolicy {
            max_includes: 10,
            ..IncludePolicy::default()
        };
        assert!(parse_file_with(&mut bank, &d.join("L1.ax"), None, &policy).is_ok());
        assert!(parse_file_with(&mut bank, &d.join("L2.ax"), None, &policy).is_err());
    }

    #[test]
    fn confined_includes_stay_in_root_and_problem_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("root");
        write(&root, "Axioms/A.ax", "cnf(a, axiom, p(a)).\n");
        write(tmp.path(), "secret/S.ax", "cnf(s, axiom, q(a)).\n");
        write(tmp.path(), "probs/sub/L.ax", "cnf(l, axiom, r(a)).\n");
        let inside = write(
            tmp.path(),
            "probs/P.p",
            "include('Axioms/A.ax').\ninclude('sub/L.ax').\n",
        );
        let outside = write(tmp.path(), "probs/Q.p", "include('../secret/S.ax').\n");
        let confine = IncludePolicy {
            confine: true,
            ..IncludePolicy::default()
        };
        let mut bank = TermBank::new();
        let p = parse_file_with(&mut bank, &inside, Some(&root), &confine).unwrap();
        assert_eq!(p.clauses.len(), 2);
        // Not confined: followed anywhere.
        assert!(parse_file(&mut bank, &outside, Some(&root)).is_ok());
        let e = parse_file_with(&mut bank, &outside, Some(&root), &confine).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::IncludeOutside { .. }), "{e}");
        assert_eq!((e.file.clone(), e.line, e.col), (outside.clone(), 1, 9));
        assert!(e.to_string().contains("confined"), "{e}");
        // Absolute paths and symbolic links are judged where they lead.
        let abs = tmp.path().join("secret/S.ax");
        let q = write(
            tmp.path(),
            "probs/Abs.p",
            &format!("include('{}').\n", abs.display()),
        );
        assert!(parse_file_with(&mut bank, &q, Some(&root), &confine).is_err());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&abs, tmp.path().join("probs/link.ax")).unwrap();
            let l = write(tmp.path(), "probs/Link.p", "include('link.ax').\n");
            assert!(parse_file(&mut bank, &l, None).is_ok());
            let e = parse_file_with(&mut bank, &l, None, &confine).unwrap_err();
            assert!(matches!(e.kind, ErrorKind::IncludeOutside { .. }), "{e}");
        }
    }
}
