//! Compact derivation dump: one JSON object per kept clause (JSON Lines),
//! zstd-compressed. Clauses are stored as TPTP text so the dump is
//! self-contained and readable by any tool with a JSON and zstd reader.

use crate::logic::TermBank;
use crate::saturation::{ClauseStore, State};
use crate::tptp::clause_to_tptp;
use serde::{Deserialize, Serialize};
use std::io::{self, BufRead, Read, Write};

/// One line of the dump.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DumpRecord {
    /// Clause id (`c<id>` in TSTP output).
    pub id: u32,
    /// The clause in TPTP syntax (`$false` for the empty clause).
    pub clause: String,
    /// Generating rule name.
    pub rule: String,
    /// Premises of the generating rule.
    pub parents: Vec<u32>,
    /// Simplification steps: (step name, unit clause id if any).
    pub simps: Vec<(String, Option<u32>)>,
    /// Longest path to an input clause.
    pub depth: u32,
    /// `passive`, `active` or `deleted` at the end of the run.
    pub state: String,
    /// Input name, for input clauses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Input role, for input clauses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
}

/// The written form of a [`DumpRecord`]: the same fields in the same order,
/// borrowed, so writing allocates nothing per field.
#[derive(Serialize)]
struct DumpRecordOut<'a> {
    id: u32,
    clause: &'a str,
    rule: &'static str,
    parents: &'a [u32],
    simps: &'a [(&'static str, Option<u32>)],
    depth: u32,
    state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<&'a str>,
}

/// Writes the whole store as zstd-compressed JSON Lines. Each line is
/// serialised into a buffer and handed to the compressor in one write
/// (serde's many small writes straight into the encoder cost more than the
/// compression itself).
pub fn write_dump(w: impl Write, bank: &TermBank, store: &ClauseStore) -> io::Result<()> {
    let mut enc = zstd::stream::write::Encoder::new(w, 3)?;
    let mut line: Vec<u8> = Vec::with_capacity(1 << 12);
    let mut parents: Vec<u32> = Vec::new();
    let mut simps: Vec<(&'static str, Option<u32>)> = Vec::new();
    for id in store.ids() {
        let r = store.get(id);
        parents.clear();
        parents.extend(r.parents.iter().map(|p| p.0));
        simps.clear();
        simps.extend(r.simps.iter().map(|s| (s.name(), s.partner().map(|p| p.0))));
        let clause = clause_to_tptp(bank, &r.clause.lits);
        let rec = DumpRecordOut {
            id: id.0,
            clause: &clause,
            rule: r.rule.name(),
            parents: &parents,
            simps: &simps,
            depth: r.depth,
            state: match r.state {
                State::Passive => "passive",
                State::Active => "active",
                State::Deleted => "deleted",
            },
            name: r.input.as_ref().map(|i| i.name.as_str()),
            role: r.input.as_ref().map(|i| i.role.as_str()),
        };
        line.clear();
        serde_json::to_writer(&mut line, &rec)?;
        line.push(b'\n');
        enc.write_all(&line)?;
    }
    enc.finish()?.flush()
}

/// Reads a dump written by [`write_dump`].
pub fn read_dump(r: impl Read) -> io::Result<Vec<DumpRecord>> {
    let dec = io::BufReader::new(zstd::stream::read::Decoder::new(r)?);
    let mut out = Vec::new();
    for (n, line) in dec.lines().enumerate() {
        let line = line?;
        if line.is_empty() {
            continue;
        }
        let rec: DumpRecord = serde_json::from_str(&line).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("dump line {}: {e}", n + 1),
            )
        })?;
        out.push(rec);
    }
    Ok(out)
}
