//! The audit's judgement: grouped cross-validation of the baselines
//! (majority, single rule, shallow tree, logistic regression) and the
//! learned text readers per cell, the whole-graph readers of proof
//! reconstruction, and the exploit answers scored by each family's scorer.

use super::*;
use model::{Data, Evaluation, FOLDS};
use std::collections::BTreeMap;

pub(super) fn judge_exploits(
    config: &str,
    level: &str,
    e: &mut ExploitRows,
    settings: &AuditSettings,
) -> ExploitCell {
    e.prune(settings.exploit_rows.max(1));
    let rows = e.rows.len();
    let exploits: Vec<ExploitMean> = e
        .names
        .iter()
        .enumerate()
        .map(|(i, (name, constant))| {
            // Summed in id order, so the mean is the same bits whatever
            // order the rows came in.
            let mut scores: Vec<(&str, f64)> = e
                .rows
                .iter()
                .filter_map(|(_, id, s, _)| {
                    s.iter()
                        .find(|(j, _)| usize::from(*j) == i)
                        .map(|&(_, v)| (&**id, v))
                })
                .collect();
            scores.sort_by(|a, b| a.0.cmp(b.0));
            let n = scores.len();
            let sum: f64 = scores.iter().map(|s| s.1).sum();
            let solved = scores.iter().filter(|s| s.1 >= 1.0).count();
            ExploitMean {
                name: name.clone(),
                constant: *constant,
                rows: n,
                mean: if n == 0 { 0.0 } else { sum / n as f64 },
                solved: if n == 0 {
                    0.0
                } else {
                    solved as f64 / n as f64
                },
            }
        })
        .collect();
    // Constants first (stable: the family's order within each kind).
    let mut exploits = exploits;
    exploits.sort_by_key(|x| !x.constant);
    let (baseline_answer, baseline) = exploits.iter().filter(|x| x.constant && x.rows > 0).fold(
        ("empty".to_string(), 0.0),
        |best, x| {
            if x.mean > best.1 {
                (x.name.clone(), x.mean)
            } else {
                best
            }
        },
    );
    let names = &e.names;
    let mut ordered: Vec<&ScoredRow> = e.rows.iter().collect();
    ordered.sort_by(|a, b| a.1.cmp(&b.1));
    let answers = ordered
        .into_iter()
        .flat_map(|(_, id, scores, kept)| {
            kept.iter().map(move |(i, answer)| ExploitAnswer {
                id: id.to_string(),
                exploit: names[usize::from(*i)].0.clone(),
                answer: answer.to_string(),
                score: scores.iter().find(|(j, _)| j == i).map_or(0.0, |&(_, v)| v),
            })
        })
        .collect();
    let mut cell = ExploitCell {
        config: config.to_string(),
        level: level.to_string(),
        rows,
        sampled_from: (e.seen > rows).then_some(e.seen),
        baseline,
        baseline_answer,
        exploits,
        status: ExploitStatus::TooFewRows,
        answers,
    };
    if let Some(best) = cell.best(settings.exploit_min_rows) {
        cell.status = if best.mean > cell.baseline + settings.exploit_margin + 1e-12 {
            ExploitStatus::Exploit
        } else {
            ExploitStatus::Pass
        };
    } else if rows >= settings.exploit_min_rows {
        cell.status = ExploitStatus::Pass;
    }
    cell
}

pub(super) fn judge(
    config: &str,
    level: &str,
    cell_rows: &CellRows,
    settings: &AuditSettings,
) -> CellAudit {
    let rows = &cell_rows.rows;
    let mut labels: BTreeMap<String, usize> = BTreeMap::new();
    for it in rows.iter().flat_map(|r| &r.items) {
        *labels
            .entry(cell_rows.labels[usize::from(it.label)].clone())
            .or_default() += 1;
    }
    let items = labels.values().sum();
    let groups: std::collections::BTreeSet<u64> = rows.iter().map(|r| r.group).collect();
    let mut cell = CellAudit {
        config: config.to_string(),
        level: level.to_string(),
        rows: rows.len(),
        sampled_from: None,
        items,
        labels: labels.clone(),
        majority: None,
        single_rule: None,
        single_rule_text: None,
        tree: None,
        logistic: None,
        groups: groups.len(),
        text_readers: Vec::new(),
        text_rows: 0,
        top_features: Vec::new(),
        whole: whole(cell_rows),
        status: Status::TooFewRows,
    };
    let enough = rows.len() >= settings.min_rows;
    if labels.len() < 2 {
        if enough {
            cell.status = Status::ConstantLabel;
        }
        return cell;
    }
    let folds: std::collections::BTreeSet<u8> = rows.iter().map(|r| r.fold).collect();
    if folds.len() < 2 {
        return cell;
    }
    let e = evaluate_rows(cell_rows, &labels);
    cell.majority = Some(e.majority);
    cell.single_rule = Some(e.single_rule);
    cell.single_rule_text = Some(e.single_rule_text.clone());
    cell.tree = Some(e.tree);
    cell.logistic = Some(e.logistic);
    cell.top_features = e
        .top_features
        .iter()
        .map(|(n, v)| (n.to_string(), *v))
        .collect();
    (cell.text_readers, cell.text_rows) = text_readers(cell_rows, &labels);
    if enough {
        let lead = match &cell.whole {
            Some(w) => w.solved,
            None => cell.excess_points().unwrap_or(0.0) / 100.0,
        };
        cell.status = if 100.0 * lead > settings.margin_points {
            Status::Shortcut
        } else {
            Status::Pass
        };
    }
    cell
}

/// The learned text readers of a cell ([`text`]), over the items of the
/// rows that kept their texts: per section, over all sections, and over
/// all sections with the surface features. A section whose text is the
/// same on every item is skipped (nothing to learn). Returns the readers'
/// accuracies and the rows read.
pub(super) fn text_readers(
    cell: &CellRows,
    labels: &BTreeMap<String, usize>,
) -> (Vec<(String, f64)>, usize) {
    let classes: Vec<&String> = labels.keys().collect();
    let class_of: Vec<usize> = cell
        .labels
        .iter()
        .map(|l| classes.iter().position(|c| *c == l).unwrap_or(0))
        .collect();
    let (mut texts, mut y, mut fold, mut inner, mut feats) =
        (vec![], vec![], vec![], vec![], vec![]);
    let mut read = 0;
    for r in &cell.rows {
        let Some(t) = &r.texts else { continue };
        read += 1;
        for (it, tx) in r.items.iter().zip(t) {
            if tx.is_empty() {
                continue;
            }
            texts.push(tx);
            y.push(class_of[usize::from(it.label)]);
            fold.push(usize::from(r.fold));
            inner.push(usize::from(r.inner));
            feats.push(&it.x);
        }
    }
    let distinct_y: std::collections::BTreeSet<usize> = y.iter().copied().collect();
    if distinct_y.len() < 2 {
        return (Vec::new(), read);
    }
    let salts: Vec<u64> = cell.sections.iter().map(|s| text::salt(s)).collect();
    let mut out = Vec::new();
    let run = |x: &[text::Sparse], dense: usize| {
        text::evaluate(&text::TextData {
            x,
            dense,
            y: &y,
            classes: classes.len(),
            fold: &fold,
            inner: &inner,
            folds: FOLDS,
        })
    };
    let mut varying = Vec::new();
    for (s, name) in cell.sections.iter().enumerate() {
        let first = section_of(texts[0], s);
        if texts.iter().all(|t| section_of(t, s) == first) {
            continue;
        }
        varying.push(s);
        let x: Vec<text::Sparse> = texts
            .iter()
            .map(|t| match section_of(t, s) {
                Some(toks) => text::vector(&[(salts[s], toks)], &[]),
                None => Vec::new(),
            })
            .collect();
        let (lr, nb) = run(&x, 0);
        out.push((format!("lr:{name}"), lr));
        out.push((format!("nb:{name}"), nb));
    }
    if varying.is_empty() {
        return (out, read);
    }
    if varying.len() > 1 {
        let x: Vec<text::Sparse> = texts
            .iter()
            .map(|t| text::vector(&all_sections(t, &varying, &salts), &[]))
            .collect();
        let (lr, nb) = run(&x, 0);
        out.push(("lr:all_sections".to_string(), lr));
        out.push(("nb:all_sections".to_string(), nb));
    }
    // The surface features standardised over the items read (no label
    // seen), scaled so that together they weigh as much as the text.
    let d = cell.names.len();
    if d > 0 {
        let n = feats.len() as f64;
        let mean: Vec<f64> = (0..d)
            .map(|j| feats.iter().map(|x| x[j]).sum::<f64>() / n)
            .collect();
        let sd: Vec<f64> = (0..d)
            .map(|j| {
                let v = feats.iter().map(|x| (x[j] - mean[j]).powi(2)).sum::<f64>() / n;
                if v > 1e-12 { v.sqrt() } else { 1.0 }
            })
            .collect();
        let k = 1.0 / (d as f64).sqrt();
        let x: Vec<text::Sparse> = texts
            .iter()
            .zip(&feats)
            .map(|(t, f)| {
                let dense: Vec<f64> = (0..d).map(|j| k * (f[j] - mean[j]) / sd[j]).collect();
                text::vector(&all_sections(t, &varying, &salts), &dense)
            })
            .collect();
        let (lr, _) = run(&x, d);
        out.push(("lr:text+features".to_string(), lr));
    }
    (out, read)
}

/// An item's tokens of section `s`.
pub(super) fn section_of(tx: &ItemText, s: usize) -> Option<&text::Tokens> {
    tx.iter().find(|(i, _)| usize::from(*i) == s).map(|p| &p.1)
}

/// An item's tokens of the sections `keep`, with their salts.
pub(super) fn all_sections<'a>(
    t: &'a ItemText,
    keep: &[usize],
    salts: &[u64],
) -> Vec<(u64, &'a text::Tokens)> {
    t.iter()
        .filter(|(i, _)| keep.contains(&usize::from(*i)))
        .map(|(i, toks)| (salts[usize::from(*i)], toks))
        .collect()
}

/// The best shallow reader of a cell's rows (`None` when no row was read):
/// the one solving the most rows, then getting the most parts right, then
/// the first met. A row the reader did not answer counts unsolved.
pub(super) fn whole(cell: &CellRows) -> Option<WholeAudit> {
    if cell.readers.is_empty() || cell.rows.is_empty() {
        return None;
    }
    let rows = cell.rows.len() as f64;
    (0..cell.readers.len())
        .map(|i| {
            let (mut solved, mut parts, mut right) = (0usize, 0u64, 0u64);
            for r in &cell.rows {
                for &(reader, p, ok) in &r.reads {
                    if usize::from(reader) == i {
                        parts += u64::from(p);
                        right += u64::from(ok);
                        solved += usize::from(p > 0 && ok == p);
                    }
                }
            }
            WholeAudit {
                reader: cell.readers[i].to_string(),
                solved: solved as f64 / rows,
                parts_right: if parts == 0 {
                    0.0
                } else {
                    right as f64 / parts as f64
                },
            }
        })
        .fold(None, |best: Option<WholeAudit>, w| match best {
            Some(b) if (b.solved, b.parts_right) >= (w.solved, w.parts_right) => Some(b),
            _ => Some(w),
        })
}

/// The cell's items as numbers (features by the first item's names; an
/// item lacking a feature counts it 0) and their evaluation.
pub(super) fn evaluate_rows(cell: &CellRows, labels: &BTreeMap<String, usize>) -> Evaluation {
    let classes: Vec<String> = labels.keys().cloned().collect();
    // The cell's label table, as class indices.
    let class_of: Vec<usize> = cell
        .labels
        .iter()
        .map(|l| classes.iter().position(|c| c == l).unwrap_or(0))
        .collect();
    let mut data = Data {
        classes,
        names: cell.names.clone(),
        ..Data::default()
    };
    for r in &cell.rows {
        for it in &r.items {
            data.x.push(it.x.to_vec());
            data.y.push(class_of[usize::from(it.label)]);
            data.fold.push(usize::from(r.fold));
        }
    }
    model::evaluate(&data)
}

/// Failing cells named for the card: `` `config` level L``, comma-separated.
pub(super) fn cell_list<'a>(cells: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    cells
        .map(|(config, level)| format!("`{config}` level {level}"))
        .collect::<Vec<_>>()
        .join(", ")
}
