//! Shortcut-audit items of the equivalence family (after AutoEval, seed
//! 002; [`crate::tasks::audit`]): one item per `equivalence_pl` row,
//! labelled True/False, with the surface features a reader gets from the
//! two shown formulas without deciding anything: lengths, nesting, counts
//! of each connective and of atom occurrences on both sides and their
//! differences, whether the two use the same atoms, the same multiset and
//! the same left-to-right sequence of atom occurrences, and whether one
//! formula is the negation of the other's text.

use crate::tasks::audit::{AuditItem, identifiers, jaccard, nesting, upper_identifiers};
use serde_json::Value;

/// Counts of each connective in a PL text: `~`, `&`, `|`, `==>`, `<==>`.
fn connectives(text: &str) -> [f64; 5] {
    let iff = text.matches("<==>").count();
    let imp = text.matches("==>").count() - iff;
    [
        text.matches('~').count() as f64,
        text.matches('&').count() as f64,
        text.matches('|').count() as f64,
        imp as f64,
        iff as f64,
    ]
}

/// The item of an `equivalence_pl` row, from its metadata (`left`,
/// `right`: what the prompt shows) and gold label.
pub fn item(metadata: &str, gold: &str) -> Result<AuditItem, String> {
    let meta: Value = serde_json::from_str(metadata).map_err(|e| format!("metadata: {e}"))?;
    let text = |k: &str| {
        meta[k]
            .as_str()
            .ok_or_else(|| format!("metadata has no string `{k}`"))
    };
    let (l, r) = (text("left")?, text("right")?);
    let label = match gold.trim() {
        "True" => "True",
        "False" => "False",
        other => return Err(format!("gold label {other:?} is not True or False")),
    };
    let mut it = AuditItem::new(label);
    it.push("left_chars", l.len() as f64);
    it.push("right_chars", r.len() as f64);
    it.push("chars_diff", r.len() as f64 - l.len() as f64);
    it.push("left_nesting", nesting(l) as f64);
    it.push("right_nesting", nesting(r) as f64);
    it.push("nesting_diff", nesting(r) as f64 - nesting(l) as f64);
    let (cl, cr) = (connectives(l), connectives(r));
    let names_l = ["left_not", "left_and", "left_or", "left_imp", "left_iff"];
    let names_d = ["not_diff", "and_diff", "or_diff", "imp_diff", "iff_diff"];
    for i in 0..5 {
        it.push(names_l[i], cl[i]);
        it.push(names_d[i], cr[i] - cl[i]);
    }
    let binary = |c: &[f64; 5]| c[1] + c[2] + c[3] + c[4];
    it.push("binary_diff", binary(&cr) - binary(&cl));
    let (al, ar) = (identifiers(l), identifiers(r));
    it.push("atom_occurrences_diff", ar.len() as f64 - al.len() as f64);
    let (sl, sr) = (upper_identifiers(l), upper_identifiers(r));
    it.push("atom_jaccard", jaccard(&sl, &sr));
    let (mut ml, mut mr) = (al.clone(), ar.clone());
    ml.sort_unstable();
    mr.sort_unstable();
    it.push("same_atom_multiset", f64::from(u8::from(ml == mr)));
    it.push("same_atom_sequence", f64::from(u8::from(al == ar)));
    let stripped = |s: &str| s.replace(['~', '(', ')', ' '], "");
    it.push(
        "same_text_without_negations",
        f64::from(u8::from(stripped(l) == stripped(r))),
    );
    Ok(it)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_read_the_shown_formulas() {
        let meta = r#"{"left": "(P ==> Q)", "right": "(~Q ==> ~P)"}"#;
        let it = item(meta, "True").unwrap();
        assert_eq!(it.label, "True");
        let f = |n: &str| it.features.iter().find(|x| x.0 == n).unwrap().1;
        assert_eq!(f("not_diff"), 2.0);
        assert_eq!(f("imp_diff"), 0.0);
        assert_eq!(f("iff_diff"), 0.0);
        assert_eq!(f("same_atom_multiset"), 1.0);
        assert_eq!(f("same_atom_sequence"), 0.0);
        assert!(item(meta, "maybe").is_err());
        assert!(item("{}", "True").is_err());
    }
}
