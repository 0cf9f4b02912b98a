//! Shortcut-audit items of the equivalence family (after AutoEval, seed
//! 002; [`crate::tasks::audit`]): one item per `equivalence_pl` row,
//! labelled True/False, with the surface features a reader gets from the
//! two shown formulas without deciding anything: lengths, nesting, counts
//! of each connective and of atom occurrences on both sides and their
//! differences, whether the two use the same atoms, the same multiset and
//! the same left-to-right sequence of atom occurrences, and whether one
//! formula is the negation of the other's text. `equivalence_fol` rows get
//! the first-order analogue ([`fol_item`]): the same counts for the TPTP
//! connectives, plus quantifiers of each kind, variable occurrences and
//! names, and the predicate and constant occurrences of both sides.

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

/// The two shown formulas of a pair's metadata and an item with the gold
/// label and the features both logics share: lengths and the left
/// formula's nesting.
fn pair_item<'a>(meta: &'a Value, gold: &str) -> Result<(&'a str, &'a str, AuditItem), String> {
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
    Ok((l, r, it))
}

/// The item of an `equivalence_pl` row, from its metadata (`left`,
/// `right`: what the prompt shows) and gold label.
pub fn item(metadata: &str, gold: &str) -> Result<AuditItem, String> {
    let meta: Value = serde_json::from_str(metadata).map_err(|e| format!("metadata: {e}"))?;
    let (l, r, mut it) = pair_item(&meta, gold)?;
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

/// Counts in a TPTP FOF text: `~`, `&`, `|`, `=>`, `<=>`, `!`, `?`.
fn fol_connectives(text: &str) -> [f64; 7] {
    let iff = text.matches("<=>").count();
    [
        text.matches('~').count() as f64,
        text.matches('&').count() as f64,
        text.matches('|').count() as f64,
        (text.matches("=>").count() - iff) as f64,
        iff as f64,
        (text.matches('!').count() - text.matches("!=").count()) as f64,
        text.matches('?').count() as f64,
    ]
}

/// The item of an `equivalence_fol` row, from its metadata (`left`,
/// `right` in TPTP FOF syntax) and gold label.
pub fn fol_item(metadata: &str, gold: &str) -> Result<AuditItem, String> {
    let meta: Value = serde_json::from_str(metadata).map_err(|e| format!("metadata: {e}"))?;
    let (l, r, mut it) = pair_item(&meta, gold)?;
    let (fl, fr) = (crate::fol::parse(l)?, crate::fol::parse(r)?);
    it.push("nesting_diff", nesting(r) as f64 - nesting(l) as f64);
    let (cl, cr) = (fol_connectives(l), fol_connectives(r));
    let names_l = [
        "left_not", "left_and", "left_or", "left_imp", "left_iff", "left_all", "left_ex",
    ];
    let names_d = [
        "not_diff", "and_diff", "or_diff", "imp_diff", "iff_diff", "all_diff", "ex_diff",
    ];
    for i in 0..7 {
        it.push(names_l[i], cl[i]);
        it.push(names_d[i], cr[i] - cl[i]);
    }
    it.push("quantifier_diff", cr[5] + cr[6] - cl[5] - cl[6]);
    it.push(
        "binary_diff",
        cr[1..5].iter().sum::<f64>() - cl[1..5].iter().sum::<f64>(),
    );
    let (al, ar) = (fl.atom_sequence(), fr.atom_sequence());
    it.push("atom_occurrences_diff", ar.len() as f64 - al.len() as f64);
    let (mut ml, mut mr) = (al.clone(), ar.clone());
    ml.sort_unstable();
    mr.sort_unstable();
    it.push("same_predicate_multiset", f64::from(u8::from(ml == mr)));
    it.push("same_predicate_sequence", f64::from(u8::from(al == ar)));
    // Terms: variable occurrences, distinct variable names, constants.
    let preds: Vec<String> = al.iter().chain(&ar).cloned().collect();
    fn terms<'a>(t: &'a str, preds: &[String]) -> (Vec<&'a str>, Vec<&'a str>) {
        let ids = identifiers(t);
        let vars: Vec<&str> = ids
            .iter()
            .copied()
            .filter(|s| s.starts_with(|c: char| c.is_ascii_uppercase()))
            .collect();
        let mut consts: Vec<&str> = ids
            .iter()
            .copied()
            .filter(|s| s.starts_with(|c: char| c.is_ascii_lowercase()))
            .filter(|s| !preds.iter().any(|p| p == s))
            .collect();
        consts.sort_unstable();
        (vars, consts)
    }
    let ((vl, kl), (vr, kr)) = (terms(l, &preds), terms(r, &preds));
    it.push(
        "variable_occurrences_diff",
        vr.len() as f64 - vl.len() as f64,
    );
    let distinct = |v: &[&str]| v.iter().collect::<std::collections::BTreeSet<_>>().len() as f64;
    it.push("variable_names_diff", distinct(&vr) - distinct(&vl));
    it.push(
        "variable_jaccard",
        jaccard(&vl.iter().copied().collect(), &vr.iter().copied().collect()),
    );
    it.push("same_constant_multiset", f64::from(u8::from(kl == kr)));
    it.push(
        "constant_occurrences_diff",
        kr.len() as f64 - kl.len() as f64,
    );
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

    #[test]
    fn first_order_features_read_quantifiers_and_terms() {
        let meta = r#"{"left": "! [X] : (p(X) => q(a))", "right": "(? [Y] : p(Y) => q(a))"}"#;
        let it = fol_item(meta, "True").unwrap();
        let f = |n: &str| it.features.iter().find(|x| x.0 == n).unwrap().1;
        assert_eq!(f("all_diff"), -1.0);
        assert_eq!(f("ex_diff"), 1.0);
        assert_eq!(f("quantifier_diff"), 0.0);
        assert_eq!(f("same_predicate_sequence"), 1.0);
        assert_eq!(f("same_constant_multiset"), 1.0);
        assert_eq!(f("variable_jaccard"), 0.0);
        assert!(fol_item(r#"{"left": "p(X)", "right": "p(a)"}"#, "True").is_err());
    }
}
