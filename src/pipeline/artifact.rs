//! Saturation artifacts: what phase 1 of a domain run (saturate one axiom
//! file, rank its derived clauses, look for a finite model of its axioms)
//! leaves for phase 2 (task generation), so that reruns, other seeds, other
//! counts and every shard generate from it without saturating again.
//!
//! An artifact is a folder `<out>/artifacts/<stem>-<key>/` holding
//! `state.bin.zst` (the exact term bank, clause store, ranking and model
//! verdict: postcard, zstd with a content checksum), `derivation.dag.zst`
//! (the readable derivation dump, `derivation::write_dump`) and
//! `report.json` (the saturation report, timings included), and
//! `manifest.json` (format, key, and every file's size and SHA-256: each
//! read checks them, so an edited report or a damaged dump is never used;
//! a run saturates again, `--stage generate` stops). The key is
//! content addressed: a SHA-256 over the engine (crate version and a
//! fingerprint of its source, so another build never reuses it), the
//! file's input clauses as read (names, roles, sources, clauses: the
//! contents of the file and everything it includes), the `[saturation]`
//! section and the model search budgets of `[prover]`. Nothing else that a
//! run varies (seed, counts, levels, families, shards, `[dataset]`) is in
//! it.
//!
//! Rebuilding is exact: symbols and terms are replayed in id order into a
//! fresh bank and records pushed in id order into a fresh store, and every
//! id is checked to come back the same, so a dataset generated from an
//! artifact is byte-identical to one generated straight after saturating.
//! Folders are written inside a marked staging folder
//! (`crate::dataset::staging`) and renamed into place, so a
//! reader never sees half an artifact and two machines saturating the same
//! file at once leave one (identical) copy. Simplification details
//! (`Params::record_simp_detail`) are not kept: task generation never reads
//! them.
//!
//! Postcard (a maintained serde format) does the encoding; the mapping to
//! and from the engine's types is here because the bank and store keep
//! their internals private and the ids must be checked on the way back.

use super::{RunError, SaturationReport};
use crate::config::Config;
use crate::interest::{Components, Ranking, Scored};
use crate::logic::{Clause, Head, Literal, Signature, SymbolId, SymbolKind, TermBank, TermId};
use crate::saturation::{ClauseId, ClauseStore, InputInfo, Inputs, Rule, SimpStep, State};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/source_fingerprint.rs"));

/// Version of the artifact layout; part of every key.
pub const ARTIFACT_FORMAT: u32 = 3;

/// The file holding the engine state inside an artifact folder.
pub const STATE_FILE: &str = "state.bin.zst";
/// The readable derivation dump inside an artifact folder.
pub const DUMP_FILE: &str = "derivation.dag.zst";
/// The saturation report inside an artifact folder.
pub const REPORT_FILE: &str = "report.json";
/// The artifact's manifest: its format, key, and every file's size and
/// SHA-256, checked whenever a file of the artifact is used.
pub const MANIFEST_FILE: &str = "manifest.json";
/// Largest artifact manifest read.
const MAX_MANIFEST_BYTES: u64 = 64 * 1024;

/// The files an artifact's manifest lists (all of them are checked).
const LISTED: [&str; 3] = [STATE_FILE, DUMP_FILE, REPORT_FILE];

/// What `manifest.json` of an artifact holds.
#[derive(Serialize, Deserialize, Debug, PartialEq, Eq)]
struct ArtifactManifest {
    format: u32,
    key: String,
    files: Vec<ListedFile>,
}

/// One file of an artifact as its manifest lists it.
#[derive(Serialize, Deserialize, Debug, PartialEq, Eq)]
struct ListedFile {
    file: String,
    bytes: u64,
    sha256: String,
}

/// The size and hex SHA-256 of the file at `path`, streamed.
fn digest(path: &Path) -> std::io::Result<(u64, String)> {
    let mut f = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut bytes = 0u64;
    loop {
        let n = std::io::Read::read(&mut f, &mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
        bytes += n as u64;
    }
    Ok((
        bytes,
        h.finalize().iter().map(|b| format!("{b:02x}")).collect(),
    ))
}

/// Checks the artifact at `dir` against its manifest: the manifest is of
/// this format and key, and every listed file has the size and SHA-256 it
/// lists. `Err` names the file that differs (edited, truncated, replaced).
pub fn verify(dir: &Path, key: &str) -> Result<(), String> {
    let bad = |m: String| format!("saturation artifact {}: {m}", dir.display());
    let path = dir.join(MANIFEST_FILE);
    let mut text = String::new();
    std::fs::File::open(&path)
        .and_then(|f| {
            std::io::Read::read_to_string(
                &mut std::io::Read::take(f, MAX_MANIFEST_BYTES),
                &mut text,
            )
        })
        .map_err(|e| bad(format!("{MANIFEST_FILE}: {e}")))?;
    let m: ArtifactManifest = serde_json::from_str(&text)
        .map_err(|e| bad(format!("{MANIFEST_FILE} is not an artifact manifest ({e})")))?;
    if m.format != ARTIFACT_FORMAT {
        return Err(bad(format!(
            "{MANIFEST_FILE} is of artifact format {}, this build reads {ARTIFACT_FORMAT}",
            m.format
        )));
    }
    if m.key != key {
        return Err(bad(format!(
            "{MANIFEST_FILE} holds key {} where {key} was expected",
            crate::tptp::excerpt(&m.key, 70)
        )));
    }
    for name in LISTED {
        let Some(listed) = m.files.iter().find(|f| f.file == name) else {
            return Err(bad(format!("{MANIFEST_FILE} does not list {name}")));
        };
        let (bytes, sha) = digest(&dir.join(name)).map_err(|e| bad(format!("{name}: {e}")))?;
        if bytes != listed.bytes || sha != listed.sha256 {
            return Err(bad(format!(
                "{name} differs from its SHA-256 in {MANIFEST_FILE} (edited or damaged)"
            )));
        }
    }
    Ok(())
}

/// One axiom file after phase 1.
#[derive(Debug)]
pub struct Saturated {
    /// The saturation report (timings of the run that saturated).
    pub report: SaturationReport,
    /// The term bank of the saturation.
    pub bank: TermBank,
    /// The derivation DAG.
    pub store: ClauseStore,
    /// Ranked theorem candidates (empty when `inconsistent`).
    pub ranking: Ranking,
    /// The axioms have a finite model of a small size.
    pub consistent: bool,
    /// The saturation derived the empty clause: no tasks come from the file.
    pub inconsistent: bool,
}

/// The key of an axiom file's artifact: hex SHA-256 (see the module notes
/// for what goes in).
pub fn key(bank: &TermBank, inputs: &Inputs, cfg: &Config) -> String {
    let mut h = Sha256::new();
    let mut field = |b: &[u8]| {
        h.update((b.len() as u64).to_le_bytes());
        h.update(b);
    };
    field(b"saturate saturation artifact");
    field(&ARTIFACT_FORMAT.to_le_bytes());
    field(env!("CARGO_PKG_VERSION").as_bytes());
    field(SOURCE_FINGERPRINT.as_bytes());
    for (lits, info) in inputs {
        field(info.name.as_bytes());
        field(info.role.as_bytes());
        field(info.file.as_bytes());
        field(info.source.as_deref().unwrap_or("").as_bytes());
        field(info.formula.as_deref().unwrap_or("").as_bytes());
        field(crate::tptp::clause_to_tptp(bank, lits).as_bytes());
    }
    field(
        serde_json::to_string(&cfg.saturation)
            .expect("parameters serialise")
            .as_bytes(),
    );
    let p = &cfg.prover;
    for v in [
        p.quick_ground_clauses,
        p.quick_sat_conflicts,
        p.quick_model_size as u64,
    ] {
        field(&v.to_le_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The artifact folder of a file stem and key under `root`
/// (`<out>/artifacts`): the stem for people, 24 hex digits of the key
/// (96 bits) for uniqueness.
pub fn folder(root: &Path, stem: &str, key: &str) -> PathBuf {
    root.join(format!("{stem}-{}", &key[..24.min(key.len())]))
}

/// True when a complete artifact is at `dir` (the rename is the last step
/// of writing one, so a folder with its state file is complete).
pub fn exists(dir: &Path) -> bool {
    dir.join(STATE_FILE).is_file()
        && dir.join(REPORT_FILE).is_file()
        && dir.join(MANIFEST_FILE).is_file()
}

#[derive(Serialize, Deserialize)]
struct WireSymbol {
    name: String,
    arity: u32,
    predicate: bool,
    skolem: bool,
}

#[derive(Serialize, Deserialize)]
struct WireInput {
    name: String,
    role: String,
    file: String,
    source: Option<String>,
    formula: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct WireRecord {
    /// (lhs, rhs, positive) per literal.
    lits: Vec<(u32, u32, bool)>,
    /// Index into `Rule::ALL`.
    rule: u8,
    parents: Vec<u32>,
    /// (kind, partner): kind 0 rewrite, 1 simplify-reflect, 2 trivial
    /// disequation, 3 distinct values.
    simps: Vec<(u8, u32)>,
    depth: u32,
    /// 0 passive, 1 active, 2 deleted.
    state: u8,
    input: Option<WireInput>,
}

#[derive(Serialize, Deserialize)]
struct WireScored {
    id: u32,
    components: Components,
    score: f64,
}

/// The state file's contents.
#[derive(Serialize, Deserialize)]
struct Wire {
    format: u32,
    key: String,
    /// Symbols after `$true` (id 0), in id order.
    symbols: Vec<WireSymbol>,
    /// Per term in id order: `2 * symbol` for an application, `2 * index +
    /// 1` for a variable.
    heads: Vec<u32>,
    /// Per term: its number of arguments (their ids are in `args`).
    arities: Vec<u32>,
    args: Vec<u32>,
    records: Vec<WireRecord>,
    ranking: Vec<WireScored>,
    consistent: bool,
    inconsistent: bool,
}

/// A sequence of `len` items, serialised from a fresh iterator: what a
/// `Vec` of them serialises to, without collecting them.
struct SeqOf<F>(usize, F);

impl<F, I> Serialize for SeqOf<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = ser.serialize_seq(Some(self.0))?;
        let mut n = 0;
        for x in (self.1)() {
            seq.serialize_element(&x)?;
            n += 1;
        }
        debug_assert_eq!(n, self.0, "a sequence of another length than announced");
        seq.end()
    }
}

/// [`WireSymbol`] borrowed.
#[derive(Serialize)]
struct WireSymbolRef<'a> {
    name: &'a str,
    arity: u32,
    predicate: bool,
    skolem: bool,
}

/// [`WireInput`] borrowed.
#[derive(Serialize)]
struct WireInputRef<'a> {
    name: &'a str,
    role: &'a str,
    file: &'a str,
    source: Option<&'a str>,
    formula: Option<&'a str>,
}

/// [`WireScored`] borrowed.
#[derive(Serialize)]
struct WireScoredRef<'a> {
    id: u32,
    components: &'a Components,
    score: f64,
}

/// One record as [`WireRecord`] encodes it.
struct RecordOut<'a>(&'a crate::saturation::Record);

impl Serialize for RecordOut<'_> {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let r = self.0;
        let mut st = ser.serialize_struct("WireRecord", 7)?;
        st.serialize_field(
            "lits",
            &SeqOf(r.clause.lits.len(), || {
                r.clause.lits.iter().map(|l| (l.lhs.0, l.rhs.0, l.pos))
            }),
        )?;
        st.serialize_field("rule", &rule_index(r.rule))?;
        st.serialize_field(
            "parents",
            &SeqOf(r.parents.len(), || r.parents.iter().map(|p| p.0)),
        )?;
        st.serialize_field(
            "simps",
            &SeqOf(r.simps.len(), || r.simps.iter().map(|&s| simp_pair(s))),
        )?;
        st.serialize_field("depth", &r.depth)?;
        st.serialize_field("state", &state_code(r.state))?;
        st.serialize_field(
            "input",
            &r.input.as_ref().map(|i| WireInputRef {
                name: &i.name,
                role: &i.role,
                file: &i.file,
                source: i.source.as_deref(),
                formula: i.formula.as_deref(),
            }),
        )?;
        st.end()
    }
}

/// The state file's contents, serialised straight from the bank, store and
/// ranking: the postcard bytes of the [`Wire`] that `to_wire` builds (a
/// test checks they agree), without building its vectors first (building
/// and freeing them was a quarter of the artifact's writing).
struct WireOut<'a> {
    s: &'a Saturated,
    key: &'a str,
}

impl Serialize for WireOut<'_> {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let (s, bank) = (self.s, &self.s.bank);
        let sig = &bank.sig;
        let terms = || (0..bank.len() as u32).map(TermId);
        let mut st = ser.serialize_struct("Wire", 10)?;
        st.serialize_field("format", &ARTIFACT_FORMAT)?;
        st.serialize_field("key", self.key)?;
        st.serialize_field(
            "symbols",
            &SeqOf(sig.len().saturating_sub(1), || {
                sig.ids().skip(1).map(|id| {
                    let sym = sig.get(id);
                    WireSymbolRef {
                        name: &sym.name,
                        arity: sym.arity,
                        predicate: sym.kind == SymbolKind::Predicate,
                        skolem: sym.skolem,
                    }
                })
            }),
        )?;
        st.serialize_field(
            "heads",
            &SeqOf(bank.len(), || terms().map(|t| head_code(bank, t))),
        )?;
        st.serialize_field(
            "arities",
            &SeqOf(bank.len(), || terms().map(|t| bank.arity(t) as u32)),
        )?;
        let nargs = terms().map(|t| bank.arity(t)).sum();
        st.serialize_field(
            "args",
            &SeqOf(nargs, || {
                terms().flat_map(|t| bank.args(t).iter().map(|a| a.0))
            }),
        )?;
        let records = s.store.records();
        st.serialize_field(
            "records",
            &SeqOf(records.len(), || records.iter().map(RecordOut)),
        )?;
        let ranked = &s.ranking.ranked;
        st.serialize_field(
            "ranking",
            &SeqOf(ranked.len(), || {
                ranked.iter().map(|x| WireScoredRef {
                    id: x.id.0,
                    components: &x.components,
                    score: x.score,
                })
            }),
        )?;
        st.serialize_field("consistent", &s.consistent)?;
        st.serialize_field("inconsistent", &s.inconsistent)?;
        st.end()
    }
}

/// A term's head as [`Wire::heads`] holds it.
fn head_code(bank: &TermBank, t: TermId) -> u32 {
    match bank.head(t) {
        Head::Var(i) => 2 * i + 1,
        Head::Sym(f) => 2 * f.0,
    }
}

/// A rule's index in `Rule::ALL`.
fn rule_index(rule: Rule) -> u8 {
    Rule::ALL.iter().position(|&x| x == rule).expect("a rule") as u8
}

/// A simplification step as [`WireRecord::simps`] holds it.
fn simp_pair(s: SimpStep) -> (u8, u32) {
    match s {
        SimpStep::Rewrite(c) => (0, c.0),
        SimpStep::SimplifyReflect(c) => (1, c.0),
        SimpStep::TrivialDisequation => (2, 0),
        SimpStep::DistinctValues => (3, 0),
        SimpStep::SubsumptionResolution(c) => (4, c.0),
    }
}

/// A record's state as [`WireRecord::state`] holds it.
fn state_code(s: State) -> u8 {
    match s {
        State::Passive => 0,
        State::Active => 1,
        State::Deleted => 2,
    }
}

/// The [`Wire`] of `s`, built: what [`WireOut`] serialises without
/// building it (the tests compare the two).
#[cfg(test)]
fn to_wire(s: &Saturated, key: &str) -> Wire {
    let sig = &s.bank.sig;
    let symbols = sig
        .ids()
        .skip(1)
        .map(|id| {
            let sym = sig.get(id);
            WireSymbol {
                name: sym.name.clone(),
                arity: sym.arity,
                predicate: sym.kind == SymbolKind::Predicate,
                skolem: sym.skolem,
            }
        })
        .collect();
    let n = s.bank.len();
    let mut heads = Vec::with_capacity(n);
    let mut arities = Vec::with_capacity(n);
    let mut args = Vec::new();
    for t in (0..n as u32).map(TermId) {
        heads.push(head_code(&s.bank, t));
        let a = s.bank.args(t);
        arities.push(a.len() as u32);
        args.extend(a.iter().map(|x| x.0));
    }
    let records = s
        .store
        .records()
        .iter()
        .map(|r| WireRecord {
            lits: r
                .clause
                .lits
                .iter()
                .map(|l| (l.lhs.0, l.rhs.0, l.pos))
                .collect(),
            rule: rule_index(r.rule),
            parents: r.parents.iter().map(|p| p.0).collect(),
            simps: r.simps.iter().map(|&s| simp_pair(s)).collect(),
            depth: r.depth,
            state: state_code(r.state),
            input: r.input.as_ref().map(|i| WireInput {
                name: i.name.clone(),
                role: i.role.clone(),
                file: i.file.clone(),
                source: i.source.clone(),
                formula: i.formula.clone(),
            }),
        })
        .collect();
    Wire {
        format: ARTIFACT_FORMAT,
        key: key.to_string(),
        symbols,
        heads,
        arities,
        args,
        records,
        ranking: s
            .ranking
            .ranked
            .iter()
            .map(|x| WireScored {
                id: x.id.0,
                components: x.components.clone(),
                score: x.score,
            })
            .collect(),
        consistent: s.consistent,
        inconsistent: s.inconsistent,
    }
}

/// Rebuilds bank, store and ranking, checking every id; `Err` names what
/// does not fit.
fn from_wire(w: Wire, report: SaturationReport) -> Result<Saturated, String> {
    if w.format != ARTIFACT_FORMAT {
        return Err(format!(
            "artifact format {} (this build reads {ARTIFACT_FORMAT})",
            w.format
        ));
    }
    let mut sig = Signature::new();
    for (i, s) in w.symbols.iter().enumerate() {
        let kind = if s.predicate {
            SymbolKind::Predicate
        } else {
            SymbolKind::Function
        };
        let id = sig.intern(&s.name, s.arity, kind);
        if id.index() != i + 1 {
            return Err(format!(
                "symbol {} does not come back as id {}",
                s.name,
                i + 1
            ));
        }
        if s.skolem {
            sig.mark_skolem(id);
        }
    }
    let nsym = sig.len() as u32;
    let mut bank = TermBank::with_signature(sig);
    if w.heads.len() != w.arities.len() {
        return Err("term tables of different lengths".into());
    }
    let mut at = 0usize;
    let mut buf: Vec<TermId> = Vec::new();
    for (i, (&h, &a)) in w.heads.iter().zip(&w.arities).enumerate() {
        let end = at
            .checked_add(a as usize)
            .filter(|&e| e <= w.args.len())
            .ok_or("term arguments past the end")?;
        buf.clear();
        for &x in &w.args[at..end] {
            if x as usize >= i {
                return Err(format!("term {i} has an argument {x} not built before it"));
            }
            buf.push(TermId(x));
        }
        at = end;
        let t = if h % 2 == 1 {
            if a != 0 {
                return Err(format!("variable term {i} with arguments"));
            }
            bank.var(h / 2)
        } else {
            let f = h / 2;
            if f >= nsym || bank.sig.get(SymbolId(f)).arity != a {
                return Err(format!("term {i}: bad symbol {f} of arity {a}"));
            }
            bank.app(SymbolId(f), &buf)
        };
        if t.0 as usize != i {
            return Err(format!("term {i} comes back as {}", t.0));
        }
    }
    if bank.len() != w.heads.len() {
        return Err("term bank of a different size".into());
    }
    let nterms = bank.len() as u32;
    let mut store = ClauseStore::new();
    for (i, r) in w.records.into_iter().enumerate() {
        let term = |x: u32| {
            (x < nterms)
                .then_some(TermId(x))
                .ok_or_else(|| format!("record {i}: term {x} out of range"))
        };
        let id = |x: u32| {
            ((x as usize) < i)
                .then_some(ClauseId(x))
                .ok_or_else(|| format!("record {i}: clause {x} not before it"))
        };
        let mut lits = Vec::with_capacity(r.lits.len());
        for (l, rr, pos) in r.lits {
            lits.push(Literal {
                lhs: term(l)?,
                rhs: term(rr)?,
                pos,
            });
        }
        let rule = *Rule::ALL
            .get(r.rule as usize)
            .ok_or_else(|| format!("record {i}: rule {}", r.rule))?;
        let parents = r.parents.into_iter().map(id).collect::<Result<_, _>>()?;
        let mut simps = Vec::with_capacity(r.simps.len());
        for (k, c) in r.simps {
            simps.push(match k {
                0 => SimpStep::Rewrite(id(c)?),
                1 => SimpStep::SimplifyReflect(id(c)?),
                2 => SimpStep::TrivialDisequation,
                3 => SimpStep::DistinctValues,
                4 => SimpStep::SubsumptionResolution(id(c)?),
                _ => return Err(format!("record {i}: simplification kind {k}")),
            });
        }
        let input = r.input.map(|x| InputInfo {
            name: x.name,
            role: x.role,
            file: x.file,
            source: x.source,
            formula: x.formula,
        });
        let c = store.push(
            Clause {
                lits: lits.into_boxed_slice(),
            },
            rule,
            parents,
            simps,
            input,
        );
        if store.get(c).depth != r.depth {
            return Err(format!("record {i}: depth does not come back"));
        }
        store.set_state(
            c,
            match r.state {
                0 => State::Passive,
                1 => State::Active,
                2 => State::Deleted,
                s => return Err(format!("record {i}: state {s}")),
            },
        );
    }
    let n = store.len() as u32;
    let mut ranked = Vec::with_capacity(w.ranking.len());
    for s in w.ranking {
        if s.id >= n {
            return Err(format!("ranked clause {} out of range", s.id));
        }
        ranked.push(Scored {
            id: ClauseId(s.id),
            components: s.components,
            score: s.score,
        });
    }
    Ok(Saturated {
        report,
        bank,
        store,
        ranking: Ranking { ranked },
        consistent: w.consistent,
        inconsistent: w.inconsistent,
    })
}

/// Writes the artifact of `s` under key `key` into `dir` (made inside a
/// marked staging folder in the same parent, then renamed into place). When
/// a complete artifact already sits at `dir` (another process wrote the
/// same one first), that one is kept.
pub fn write(dir: &Path, key: &str, s: &Saturated) -> Result<(), RunError> {
    let parent = dir
        .parent()
        .ok_or_else(|| RunError::Runtime(format!("{}: no parent folder", dir.display())))?;
    let io = |p: &Path, e: std::io::Error| RunError::Runtime(format!("{}: {e}", p.display()));
    std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stage = crate::dataset::staging::create(parent, &format!(".{name}.tmp-"))
        .map_err(|e| io(parent, e))?;
    let tmp = stage.join("artifact");
    let result = (|| {
        std::fs::create_dir(&tmp).map_err(|e| io(&tmp, e))?;
        let bytes = postcard::to_stdvec(&WireOut { s, key })
            .map_err(|e| RunError::Runtime(format!("encoding the artifact: {e}")))?;
        let state = tmp.join(STATE_FILE);
        let mut f = std::fs::File::create(&state).map_err(|e| io(&state, e))?;
        let mut enc = zstd::stream::write::Encoder::new(&mut f, 3).map_err(|e| io(&state, e))?;
        enc.include_checksum(true).map_err(|e| io(&state, e))?;
        std::io::Write::write_all(&mut enc, &bytes).map_err(|e| io(&state, e))?;
        enc.finish().map_err(|e| io(&state, e))?;
        f.sync_all().map_err(|e| io(&state, e))?;
        let dump = tmp.join(DUMP_FILE);
        let f = std::fs::File::create(&dump).map_err(|e| io(&dump, e))?;
        let mut w = std::io::BufWriter::new(f);
        crate::derivation::write_dump(&mut w, &s.bank, &s.store).map_err(|e| io(&dump, e))?;
        std::io::Write::flush(&mut w).map_err(|e| io(&dump, e))?;
        let report = tmp.join(REPORT_FILE);
        let mut text =
            serde_json::to_string_pretty(&s.report.stats_json(true)).expect("report serialises");
        text.push('\n');
        std::fs::write(&report, text).map_err(|e| io(&report, e))?;
        let mut files = Vec::new();
        for name in LISTED {
            let path = tmp.join(name);
            let (bytes, sha256) = digest(&path).map_err(|e| io(&path, e))?;
            files.push(ListedFile {
                file: name.to_string(),
                bytes,
                sha256,
            });
        }
        let manifest = ArtifactManifest {
            format: ARTIFACT_FORMAT,
            key: key.to_string(),
            files,
        };
        let path = tmp.join(MANIFEST_FILE);
        let mut text = serde_json::to_string_pretty(&manifest).expect("manifest serialises");
        text.push('\n');
        std::fs::write(&path, text).map_err(|e| io(&path, e))
    })();
    let result = result.and_then(|()| match std::fs::rename(&tmp, dir) {
        Ok(()) => Ok(()),
        // Someone else's identical copy won the race.
        Err(_) if exists(dir) => Ok(()),
        Err(e) => Err(io(dir, e)),
    });
    let _ = crate::dataset::staging::remove(&stage);
    result
}

/// Removes the staging folders under `root` (`.<name>.tmp-<pid>-<k>-<tag>`,
/// holding a staging marker) that processes of this machine left when they
/// ended (killed while writing an artifact). Those of live processes, of
/// other machines sharing the folder, and anything unmarked are left
/// alone. Returns the removed paths.
pub fn remove_stale(root: &Path) -> Vec<PathBuf> {
    crate::dataset::staging::remove_stale(root, ".")
}

/// Reads the artifact at `dir` and checks it carries `key`. `Err` is a
/// message naming the folder and what is wrong with it (missing,
/// truncated, from another layout, not this key).
pub fn read(dir: &Path, key: &str) -> Result<Saturated, String> {
    verify(dir, key)?;
    let bad = |m: String| format!("saturation artifact {}: {m}", dir.display());
    let state = dir.join(STATE_FILE);
    let raw = std::fs::read(&state).map_err(|e| bad(format!("{STATE_FILE}: {e}")))?;
    let bytes = zstd::stream::decode_all(&raw[..]).map_err(|e| {
        bad(format!(
            "{STATE_FILE} does not decompress ({e}): truncated or not an artifact"
        ))
    })?;
    let wire: Wire = postcard::from_bytes(&bytes)
        .map_err(|e| bad(format!("{STATE_FILE} does not decode ({e})")))?;
    if wire.key != key {
        return Err(bad(format!(
            "holds key {} where {key} was expected",
            crate::tptp::excerpt(&wire.key, 70)
        )));
    }
    let report_path = dir.join(REPORT_FILE);
    let text =
        std::fs::read_to_string(&report_path).map_err(|e| bad(format!("{REPORT_FILE}: {e}")))?;
    let report = report_from_json(&text).map_err(|e| bad(format!("{REPORT_FILE}: {e}")))?;
    from_wire(wire, report).map_err(bad)
}

/// The saturation report of the artifact at `dir` alone (the state file
/// is not decoded; every file is checked against the manifest).
pub fn read_report(dir: &Path, key: &str) -> Result<SaturationReport, String> {
    verify(dir, key)?;
    let path = dir.join(REPORT_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    report_from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// A report back from its `stats_json(true)` form (timings in `timing`).
fn report_from_json(text: &str) -> Result<SaturationReport, String> {
    let mut v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let obj = v.as_object_mut().ok_or("not a JSON object")?;
    let timing = obj.remove("timing").unwrap_or_default();
    obj.insert(
        "seconds".into(),
        timing.get("seconds").cloned().unwrap_or(0.0.into()),
    );
    obj.insert(
        "cpu_seconds".into(),
        timing.get("cpu_seconds").cloned().unwrap_or(0.0.into()),
    );
    serde_json::from_value(v).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::{AxiomSource, domain_sources, load_source};

    fn saturated(src: &AxiomSource, max: u64) -> (Saturated, String) {
        let mut cfg = Config::default();
        cfg.saturation.limits.max_processed = Some(max);
        let (bank, inputs) = load_source(src, None).unwrap();
        let key = key(&bank, &inputs, &cfg);
        (
            crate::pipeline::tptp::saturate_file(src, bank, inputs, &cfg),
            key,
        )
    }

    fn dump(s: &Saturated) -> Vec<u8> {
        let mut v = Vec::new();
        crate::derivation::write_dump(&mut v, &s.bank, &s.store).unwrap();
        v
    }

    /// Iterative saturation: lemmas are earlier rounds' theorems, later
    /// rounds build on them, depths count from the original axioms, every
    /// sampled theorem reached through a lemma is proved from the axioms
    /// alone (certificate re-checked), the run is deterministic, and the
    /// artifact keeps the rounds.
    #[test]
    fn iterated_saturation_builds_on_lemmas_and_comes_back() {
        let src = domain_sources("SET", None)
            .unwrap()
            .into_iter()
            .find(|s| s.name == "SET-boolean")
            .unwrap();
        let mut cfg = Config::default();
        cfg.saturation.limits.max_processed = Some(900);
        cfg.saturation.iterate.rounds = 3;
        cfg.saturation.iterate.promote = 20;
        // The round budgets alone (depth on demand would go on with the
        // last round: `pipeline::deepen_tests`).
        cfg.saturation.deepen.depth = 0;
        let run = |cfg: &Config| {
            let (bank, inputs) = load_source(&src, None).unwrap();
            let key = key(&bank, &inputs, cfg);
            (
                crate::pipeline::tptp::saturate_file(&src, bank, inputs, cfg),
                key,
            )
        };
        let (s, k) = run(&cfg);
        let rounds = &s.report.rounds;
        assert_eq!(rounds.len(), 3);
        assert_eq!(rounds.iter().map(|r| r.processed).sum::<u64>(), 900);
        assert_eq!(rounds[0].processed, 300);
        assert!(rounds[2].lemmas.is_empty());
        for (i, r) in rounds.iter().enumerate().take(2) {
            assert!(!r.lemmas.is_empty() && r.lemmas.len() <= 20);
            for &l in &r.lemmas {
                let rec = s.store.get(ClauseId(l));
                assert_ne!(rec.rule, Rule::Input);
                assert!(
                    l < rounds[i + 1].first_record,
                    "a lemma of round {}",
                    r.round
                );
            }
        }
        // Depth counts from the original axioms: premises first, and a
        // derived record is one deeper than its deepest premise.
        for (i, rec) in s.store.records().iter().enumerate() {
            let deepest = rec.premises().map(|p| {
                assert!(p.index() < i);
                s.store.get(p).depth
            });
            match deepest.max() {
                Some(d) => assert_eq!(rec.depth, d + 1),
                None => assert_eq!(rec.rule, Rule::Input),
            }
        }
        let t = s.report.theorems.clone().unwrap();
        assert!(t.via_lemma > 0, "{t:?}");
        assert_eq!(t.per_round.len(), 3);
        assert_eq!(t.per_round.iter().sum::<u64>(), t.candidates);
        // Theorems reached through lemmas follow from the axioms alone.
        let via = crate::saturation::via_lemma(&s.store, rounds);
        let axioms: Vec<&[Literal]> = s
            .store
            .records()
            .iter()
            .filter(|r| r.rule == Rule::Input)
            .map(|r| &*r.clause.lits)
            .collect();
        let mut prover = crate::prover::Prover::new(crate::prover::ProverLimits::default());
        let mut proved = 0;
        for sc in s
            .ranking
            .ranked
            .iter()
            .filter(|c| via[c.id.index()])
            .take(4)
        {
            let goal = &s.store.clause(sc.id).lits;
            let out = prover.prove(&s.bank, &axioms, goal);
            assert!(
                !matches!(
                    out.verdict,
                    crate::prover::Verdict::CounterSatisfiable { .. }
                ),
                "a theorem through a lemma has a countermodel"
            );
            if matches!(out.verdict, crate::prover::Verdict::Theorem { .. }) {
                proved += 1;
            }
        }
        assert!(proved > 0, "no theorem through a lemma was proved");
        assert!(prover.take_defects().is_empty());
        // Deterministic, and the artifact keeps the rounds.
        let (again, k2) = run(&cfg);
        assert_eq!(k, k2);
        assert_eq!(dump(&again), dump(&s));
        assert_eq!(again.report.rounds, s.report.rounds);
        let tmp = tempfile::tempdir().unwrap();
        let dir = folder(tmp.path(), &src.name, &k);
        write(&dir, &k, &s).unwrap();
        let back = read(&dir, &k).unwrap();
        assert_eq!(back.report.rounds, s.report.rounds);
        assert_eq!(back.report.theorems, s.report.theorems);
        // The rounds are part of the key.
        let mut one = cfg.clone();
        one.saturation.iterate.rounds = 1;
        assert_ne!(run(&one).1, k);
    }

    /// The state file's bytes come straight from the bank, store and
    /// ranking ([`WireOut`]) and are those of the built [`Wire`]: on a CNF
    /// file (simplification steps, a ranking) and on a FOF one (inputs
    /// with their sources and formulas).
    #[test]
    fn the_streamed_state_is_the_wire_encoding() {
        let fof = AxiomSource {
            domain: "SET".into(),
            name: "fof-test".into(),
            display: "embedded:fof-test.ax".into(),
            path: None,
            text: Some(
                "fof(a, axiom, ![X]: (p(X) => q(f(X)))).\n\
                 fof(b, axiom, ![X, Y]: (q(X) | ~r(Y) | X = g(Y))).\n\
                 fof(c, axiom, p(a) & r(b) & ~q(f(b))).\n",
            ),
        };
        let cnf = domain_sources("SET", None).unwrap()[0].clone();
        for src in [cnf, fof] {
            let (s, key) = saturated(&src, 300);
            let records = s.store.records();
            if src.name == "fof-test" {
                assert!(records.iter().any(|r| {
                    r.input
                        .as_ref()
                        .is_some_and(|i| i.formula.is_some() && i.source.is_some())
                }));
            } else {
                assert!(!s.ranking.ranked.is_empty());
                assert!(records.iter().any(|r| !r.simps.is_empty()));
            }
            let streamed = postcard::to_stdvec(&WireOut { s: &s, key: &key }).unwrap();
            let built = postcard::to_stdvec(&to_wire(&s, &key)).unwrap();
            assert!(
                streamed == built,
                "{}: the streamed state differs",
                src.name
            );
        }
    }

    #[test]
    fn an_artifact_comes_back_exactly() {
        let src = &domain_sources("SET", None).unwrap()[0];
        let (mut s, key) = saturated(src, 300);
        // A timing whose shortest decimal form is 17 digits: it must come
        // back bit for bit (a float parser that is not correctly rounded
        // returns its neighbour).
        s.report.seconds = 0.059378732000000004;
        let tmp = tempfile::tempdir().unwrap();
        let dir = folder(tmp.path(), &src.name, &key);
        assert!(!exists(&dir));
        write(&dir, &key, &s).unwrap();
        assert!(exists(&dir));
        let back = read(&dir, &key).unwrap();
        assert_eq!(dump(&back), dump(&s));
        assert_eq!(back.bank.len(), s.bank.len());
        assert_eq!(back.bank.sig.len(), s.bank.sig.len());
        for t in (0..s.bank.len() as u32).map(TermId) {
            assert_eq!(back.bank.head(t), s.bank.head(t));
            assert_eq!(back.bank.args(t), s.bank.args(t));
            assert_eq!(back.bank.shape(t), s.bank.shape(t));
        }
        assert_eq!(back.ranking.ranked, s.ranking.ranked);
        assert_eq!(back.report.processed, s.report.processed);
        assert_eq!(back.report.seconds, s.report.seconds);
        // No temporary folder is left behind.
        let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1);
        // Only marked staging folders of ended processes are removed; an
        // unmarked look-alike is left alone.
        let live = crate::dataset::staging::create(tmp.path(), ".y.tmp-").unwrap();
        let lookalike = tmp.path().join(format!(".x.tmp-{}-host", u32::MAX - 1));
        std::fs::create_dir(&lookalike).unwrap();
        assert!(remove_stale(tmp.path()).is_empty());
        assert!(live.exists() && lookalike.exists() && dir.exists());
        // Writing the same artifact again keeps the one there.
        write(&dir, &key, &s).unwrap();
        assert_eq!(read(&dir, &key).unwrap().store.len(), s.store.len());
    }

    #[test]
    fn keys_follow_contents_and_saturation_config_only() {
        let srcs = domain_sources("SET", None).unwrap();
        let (bank, inputs) = load_source(&srcs[0], None).unwrap();
        let cfg = Config::default();
        let k = key(&bank, &inputs, &cfg);
        assert_eq!(k.len(), 64);
        let mut other = cfg.clone();
        other.seed += 1;
        other
            .tasks
            .get_mut::<crate::tasks::tptp::TasksConfig>()
            .count += 5;
        other.dataset.trace = true;
        assert_eq!(key(&bank, &inputs, &other), k);
        let mut sat = cfg.clone();
        sat.saturation.limits.max_processed = Some(17);
        assert_ne!(key(&bank, &inputs, &sat), k);
        let mut prover = cfg.clone();
        prover.prover.quick_model_size += 1;
        assert_ne!(key(&bank, &inputs, &prover), k);
        let (bank2, inputs2) = load_source(&srcs[1], None).unwrap();
        assert_ne!(key(&bank2, &inputs2, &cfg), k);
    }

    #[test]
    fn damaged_or_foreign_artifacts_are_refused_with_their_folder() {
        let src = &domain_sources("SET", None).unwrap()[0];
        let (s, key) = saturated(src, 50);
        let tmp = tempfile::tempdir().unwrap();
        let dir = folder(tmp.path(), &src.name, &key);
        write(&dir, &key, &s).unwrap();
        let e = read(&dir, &"0".repeat(64)).unwrap_err();
        assert!(
            e.contains("where 0000") && e.contains(&*dir.to_string_lossy()),
            "{e}"
        );
        let state = dir.join(STATE_FILE);
        let bytes = std::fs::read(&state).unwrap();
        std::fs::write(&state, &bytes[..bytes.len() / 2]).unwrap();
        let e = read(&dir, &key).unwrap_err();
        assert!(e.contains(STATE_FILE) && e.contains("SHA-256"), "{e}");
        std::fs::write(&state, b"not zstd at all").unwrap();
        assert!(read(&dir, &key).is_err());
        std::fs::remove_file(&state).unwrap();
        assert!(!exists(&dir));
        assert!(read(&dir, &key).unwrap_err().contains(STATE_FILE));
    }

    /// Every file of an artifact is checked against the SHA-256 its
    /// manifest lists: an edited number in the report or a flipped byte in
    /// the dump is refused, naming the file.
    #[test]
    fn edited_artifact_files_are_refused() {
        let src = &domain_sources("SET", None).unwrap()[0];
        let (s, key) = saturated(src, 50);
        let tmp = tempfile::tempdir().unwrap();
        let dir = folder(tmp.path(), &src.name, &key);
        write(&dir, &key, &s).unwrap();
        assert!(verify(&dir, &key).is_ok());
        assert!(read_report(&dir, &key).is_ok());
        for name in [REPORT_FILE, DUMP_FILE, STATE_FILE] {
            let path = dir.join(name);
            let good = std::fs::read(&path).unwrap();
            let mut bad = good.clone();
            if name == REPORT_FILE {
                // Same length, one digit changed: a plausible report.
                let text = String::from_utf8(good.clone()).unwrap();
                let at = text.find(|c: char| c.is_ascii_digit()).unwrap();
                bad[at] = if bad[at] == b'9' { b'1' } else { bad[at] + 1 };
                assert!(serde_json::from_slice::<serde_json::Value>(&bad).is_ok());
            } else {
                let at = bad.len() / 2;
                bad[at] ^= 0x01;
            }
            std::fs::write(&path, &bad).unwrap();
            let e = read(&dir, &key).unwrap_err();
            assert!(e.contains(name) && e.contains("SHA-256"), "{e}");
            assert!(read_report(&dir, &key).is_err());
            std::fs::write(&path, &good).unwrap();
            assert!(read(&dir, &key).is_ok());
        }
        // A manifest of another key, or none, is refused too.
        let m = dir.join(MANIFEST_FILE);
        let text = std::fs::read_to_string(&m).unwrap();
        std::fs::write(&m, text.replace(&key, &"0".repeat(64))).unwrap();
        assert!(verify(&dir, &key).unwrap_err().contains("where"));
        std::fs::remove_file(&m).unwrap();
        assert!(!exists(&dir));
        assert!(read(&dir, &key).unwrap_err().contains(MANIFEST_FILE));
    }
}
