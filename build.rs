//! Build script: embeds the project's own axiom files (`axioms/<DOMAIN>/*.ax`)
//! into the binary, so `saturate --domain SET` works from any directory with
//! no TPTP library installed; and fingerprints the engine's source, so a
//! saturation artifact (`pipeline::artifact`) written by one build of the
//! code is never reused by a build of different code.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    // Read when the script runs, not when it was compiled: a script binary
    // built for one checkout (a copied or moved target folder) must still
    // read this checkout's axioms, or it embeds none.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("axioms");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    if let Ok(domains) = std::fs::read_dir(&root) {
        for d in domains.flatten() {
            let dpath = d.path();
            if !dpath.is_dir() {
                continue;
            }
            println!("cargo:rerun-if-changed={}", dpath.display());
            let domain = d.file_name().to_string_lossy().into_owned();
            for f in std::fs::read_dir(&dpath).into_iter().flatten().flatten() {
                let p = f.path();
                if p.extension().is_some_and(|e| e == "ax") {
                    println!("cargo:rerun-if-changed={}", p.display());
                    files.push((
                        domain.clone(),
                        f.file_name().to_string_lossy().into_owned(),
                        p,
                    ));
                }
            }
        }
    }
    files.sort();
    let mut code = String::from(
        "/// Embedded axiom files: (domain, file name, TPTP text), sorted.\npub static EMBEDDED_AXIOMS: &[(&str, &str, &str)] = &[\n",
    );
    for (domain, name, path) in &files {
        writeln!(
            code,
            "    ({domain:?}, {name:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    code.push_str("];\n");
    let out_dir = std::env::var("OUT_DIR").unwrap();
    let out = Path::new(&out_dir).join("embedded_axioms.rs");
    std::fs::write(out, code).unwrap();
    source_fingerprint(Path::new(&out_dir));
}

/// Writes `source_fingerprint.rs`: a 64-bit hash (std's SipHash with its
/// fixed keys) of every file under `src/` plus `Cargo.toml`, `Cargo.lock`
/// and the axioms, by relative path and contents in sorted order. Any edit
/// to the engine changes it; only artifact reuse reads it, never a dataset.
fn source_fingerprint(out_dir: &Path) {
    use std::hash::{Hash, Hasher};
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest);
    let mut files = Vec::new();
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    walk(&root.join("src"), &mut files);
    walk(&root.join("axioms"), &mut files);
    for f in ["Cargo.toml", "Cargo.lock", "build.rs"] {
        files.push(root.join(f));
    }
    files.sort();
    let mut h = std::hash::DefaultHasher::new();
    for f in &files {
        f.strip_prefix(root).unwrap_or(f).hash(&mut h);
        std::fs::read(f).unwrap_or_default().hash(&mut h);
    }
    println!("cargo:rerun-if-changed={}", root.join("src").display());
    for f in ["Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={}", root.join(f).display());
    }
    std::fs::write(
        out_dir.join("source_fingerprint.rs"),
        format!(
            "/// Hash of the engine's source files (see `build.rs`).\npub const SOURCE_FINGERPRINT: &str = \"{:016x}\";\n",
            h.finish()
        ),
    )
    .unwrap();
}
