//! The derivation DAG: views over the clause store (ancestors, proofs,
//! depth, petgraph graphs) and its exports (TSTP derivation, zstd JSONL dump).

mod dag;
mod dump;
mod tstp;

pub use dag::{DagStats, Derivation, EdgeKind};
pub use dump::{DumpRecord, read_dump, write_dump};
pub use tstp::{inference_term, write_tstp};
