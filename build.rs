//! Build script: embeds the project's own axiom files (`axioms/<DOMAIN>/*.ax`)
//! into the binary, so `saturate --domain SET` works from any directory with
//! no TPTP library installed.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("axioms");
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
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("embedded_axioms.rs");
    std::fs::write(out, code).unwrap();
}
