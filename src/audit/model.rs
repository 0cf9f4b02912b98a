//! The shallow baselines of the shortcut audit, cross-validated: the
//! majority class, the best single-feature threshold rule (a decision
//! stump), a shallow decision tree (CART-style greedy splits on
//! misclassification count; Breiman et al., "Classification and Regression
//! Trees", 1984) and multinomial logistic regression (softmax, L2, full-batch
//! gradient descent on standardised features).
//!
//! Written here rather than taken from a machine-learning crate: the models
//! are a few dozen lines each, the audit needs them bit-for-bit deterministic
//! (fixed iteration counts, fixed summation order, ties broken by index) so
//! that a dataset card that embeds the report regenerates byte for byte, and
//! the crates that offer them pull in a linear-algebra stack the engine does
//! not otherwise need.
//!
//! Cross-validation is grouped: every item carries a fold (from its row id),
//! so the items of one row (the pool clauses of a selection row) are never
//! split between training and test.

/// Folds of the cross-validation.
pub const FOLDS: usize = 5;
/// Depth of the shallow tree.
const TREE_DEPTH: usize = 3;
/// Fewest training items on each side of a split.
const MIN_LEAF: usize = 5;
/// Gradient-descent iterations of the logistic regression.
const ITERATIONS: usize = 300;
/// Its learning rate.
const LEARNING_RATE: f64 = 0.5;
/// Its L2 penalty.
const L2: f64 = 1e-3;

/// Items of one audit cell, as numbers.
#[derive(Clone, Debug, Default)]
pub struct Data {
    /// Class names, indexed by `y`.
    pub classes: Vec<String>,
    /// Feature names, indexed by the columns of `x`.
    pub names: Vec<&'static str>,
    /// One feature vector per item.
    pub x: Vec<Vec<f64>>,
    /// One class per item.
    pub y: Vec<usize>,
    /// One fold (`0..FOLDS`) per item.
    pub fold: Vec<usize>,
}

/// Cross-validated accuracies of the baselines on one cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Always the most frequent class: its share of the items. (Not
    /// cross-validated: on balanced labels the training folds' majority is
    /// the test fold's minority, which would flatter every other baseline.)
    pub majority: f64,
    /// The best single-feature threshold rule (chosen on the training folds).
    pub single_rule: f64,
    /// The single rule fitted on every item, in words.
    pub single_rule_text: String,
    /// The shallow tree over all features.
    pub tree: f64,
    /// Logistic regression over all features.
    pub logistic: f64,
    /// The most predictive features: each one's own cross-validated
    /// threshold-rule accuracy, best first (at most three).
    pub top_features: Vec<(&'static str, f64)>,
}

impl Evaluation {
    /// The best baseline's accuracy minus the majority's.
    pub fn excess(&self) -> f64 {
        self.single_rule.max(self.tree).max(self.logistic) - self.majority
    }
}

/// Evaluates every baseline on `data` (which must have items of at least
/// two folds).
pub fn evaluate(data: &Data) -> Evaluation {
    let all: Vec<usize> = (0..data.names.len()).collect();
    let everything: Vec<usize> = (0..data.y.len()).collect();
    let counts = class_counts(data, &everything);
    let majority = counts[argmax(&counts)] as f64 / data.y.len().max(1) as f64;
    let single_rule = cross_validate(data, |train| {
        let t = grow(data, train, &all, 1);
        Box::new(move |x: &[f64]| t.predict(x))
    });
    let tree = cross_validate(data, |train| {
        let t = grow(data, train, &all, TREE_DEPTH);
        Box::new(move |x: &[f64]| t.predict(x))
    });
    let logistic = cross_validate(data, |train| {
        let m = Logistic::fit(data, train);
        Box::new(move |x: &[f64]| m.predict(x))
    });
    let mut top: Vec<(&'static str, f64)> = (0..data.names.len())
        .map(|f| {
            let acc = cross_validate(data, |train| {
                let t = grow(data, train, &[f], 1);
                Box::new(move |x: &[f64]| t.predict(x))
            });
            (data.names[f], acc)
        })
        .collect();
    // Stable: equal accuracies keep feature order.
    top.sort_by(|a, b| b.1.total_cmp(&a.1));
    top.truncate(3);
    let rule = grow(data, &everything, &all, 1);
    Evaluation {
        majority,
        single_rule,
        single_rule_text: rule.describe(data),
        tree,
        logistic,
        top_features: top,
    }
}

/// A classifier trained on some items.
type Predictor = Box<dyn Fn(&[f64]) -> usize>;

/// Accuracy over every item when each fold is predicted by a model trained
/// on the other folds (folds with no training or no test items are skipped).
fn cross_validate(data: &Data, train: impl Fn(&[usize]) -> Predictor) -> f64 {
    let (mut right, mut tested) = (0usize, 0usize);
    for k in 0..FOLDS {
        let (test, rest): (Vec<usize>, Vec<usize>) =
            (0..data.y.len()).partition(|&i| data.fold[i] == k);
        if test.is_empty() || rest.is_empty() {
            continue;
        }
        let model = train(&rest);
        right += test
            .iter()
            .filter(|&&i| model(&data.x[i]) == data.y[i])
            .count();
        tested += test.len();
    }
    if tested == 0 {
        0.0
    } else {
        right as f64 / tested as f64
    }
}

/// The most frequent class among `idx` (ties: the lowest index).
fn majority_class(data: &Data, idx: &[usize]) -> usize {
    let counts = class_counts(data, idx);
    argmax(&counts)
}

fn class_counts(data: &Data, idx: &[usize]) -> Vec<usize> {
    let mut c = vec![0; data.classes.len()];
    for &i in idx {
        c[data.y[i]] += 1;
    }
    c
}

/// The first index of the largest value.
fn argmax<T: PartialOrd + Copy>(v: &[T]) -> usize {
    let mut best = 0;
    for (i, &x) in v.iter().enumerate() {
        if x > v[best] {
            best = i;
        }
    }
    best
}

/// A decision tree node.
#[derive(Clone, Debug)]
enum Node {
    Leaf(usize),
    Split {
        feature: usize,
        threshold: f64,
        left: Box<Node>,
        right: Box<Node>,
    },
}

impl Node {
    fn predict(&self, x: &[f64]) -> usize {
        match self {
            Node::Leaf(c) => *c,
            Node::Split {
                feature,
                threshold,
                left,
                right,
            } => {
                if x[*feature] <= *threshold {
                    left.predict(x)
                } else {
                    right.predict(x)
                }
            }
        }
    }

    /// A one-split tree in words: `share_in_background <= 0.45 → True, else False`.
    fn describe(&self, data: &Data) -> String {
        match self {
            Node::Leaf(c) => format!("always {}", data.classes[*c]),
            Node::Split {
                feature,
                threshold,
                left,
                right,
            } => {
                let leaf = |n: &Node| match n {
                    Node::Leaf(c) => data.classes[*c].clone(),
                    _ => "(subtree)".into(),
                };
                format!(
                    "{} <= {} → {}, else {}",
                    data.names[*feature],
                    round3(*threshold),
                    leaf(left),
                    leaf(right)
                )
            }
        }
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The split of `idx` on one of `features` with the fewest training
/// errors, at least [`MIN_LEAF`] items a side (ties: the first feature, the
/// lowest threshold), if it beats no split.
fn best_split(data: &Data, idx: &[usize], features: &[usize]) -> Option<(usize, f64)> {
    let total = class_counts(data, idx);
    let mut best_correct = total[argmax(&total)];
    let mut best = None;
    let n = idx.len();
    let mut pairs: Vec<(f64, usize)> = Vec::with_capacity(n);
    for &f in features {
        pairs.clear();
        pairs.extend(idx.iter().map(|&i| (data.x[i][f], data.y[i])));
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut left = vec![0usize; total.len()];
        for i in 0..n.saturating_sub(1) {
            left[pairs[i].1] += 1;
            if pairs[i].0 == pairs[i + 1].0 || i + 1 < MIN_LEAF || n - i - 1 < MIN_LEAF {
                continue;
            }
            let l = left.iter().copied().max().unwrap_or(0);
            let r = (0..total.len())
                .map(|c| total[c] - left[c])
                .max()
                .unwrap_or(0);
            if l + r > best_correct {
                best_correct = l + r;
                best = Some((f, (pairs[i].0 + pairs[i + 1].0) / 2.0));
            }
        }
    }
    best
}

/// Grows a tree of at most `depth` splits on `features` over `idx`.
fn grow(data: &Data, idx: &[usize], features: &[usize], depth: usize) -> Node {
    let majority = majority_class(data, idx);
    if depth == 0 || idx.len() < 2 * MIN_LEAF {
        return Node::Leaf(majority);
    }
    match best_split(data, idx, features) {
        None => Node::Leaf(majority),
        Some((feature, threshold)) => {
            let (l, r): (Vec<usize>, Vec<usize>) =
                idx.iter().partition(|&&i| data.x[i][feature] <= threshold);
            Node::Split {
                feature,
                threshold,
                left: Box::new(grow(data, &l, features, depth - 1)),
                right: Box::new(grow(data, &r, features, depth - 1)),
            }
        }
    }
}

/// Multinomial logistic regression on standardised features.
struct Logistic {
    mean: Vec<f64>,
    scale: Vec<f64>,
    /// Per class: a bias then one weight per feature.
    weights: Vec<Vec<f64>>,
}

impl Logistic {
    fn fit(data: &Data, idx: &[usize]) -> Logistic {
        let d = data.names.len();
        let k = data.classes.len();
        let n = idx.len().max(1) as f64;
        let mut mean = vec![0.0; d];
        for &i in idx {
            for (m, v) in mean.iter_mut().zip(&data.x[i]) {
                *m += v / n;
            }
        }
        let mut scale = vec![0.0; d];
        for &i in idx {
            for ((s, v), m) in scale.iter_mut().zip(&data.x[i]).zip(&mean) {
                *s += (v - m) * (v - m) / n;
            }
        }
        for s in &mut scale {
            *s = if *s > 1e-12 { s.sqrt() } else { 1.0 };
        }
        let mut model = Logistic {
            mean,
            scale,
            weights: vec![vec![0.0; d + 1]; k],
        };
        let z: Vec<Vec<f64>> = idx.iter().map(|&i| model.standardise(&data.x[i])).collect();
        let mut grad = vec![vec![0.0; d + 1]; k];
        for _ in 0..ITERATIONS {
            for g in &mut grad {
                g.iter_mut().for_each(|v| *v = 0.0);
            }
            for (row, &i) in z.iter().zip(idx) {
                let p = model.probabilities(row);
                for c in 0..k {
                    let err = p[c] - f64::from(u8::from(data.y[i] == c));
                    grad[c][0] += err / n;
                    for f in 0..d {
                        grad[c][f + 1] += err * row[f] / n;
                    }
                }
            }
            for (w, g) in model.weights.iter_mut().zip(&grad) {
                for (j, (wj, gj)) in w.iter_mut().zip(g).enumerate() {
                    let penalty = if j == 0 { 0.0 } else { L2 * *wj };
                    *wj -= LEARNING_RATE * (gj + penalty);
                }
            }
        }
        model
    }

    fn standardise(&self, x: &[f64]) -> Vec<f64> {
        x.iter()
            .zip(&self.mean)
            .zip(&self.scale)
            .map(|((v, m), s)| (v - m) / s)
            .collect()
    }

    fn scores(&self, z: &[f64]) -> Vec<f64> {
        self.weights
            .iter()
            .map(|w| w[0] + w[1..].iter().zip(z).map(|(a, b)| a * b).sum::<f64>())
            .collect()
    }

    fn probabilities(&self, z: &[f64]) -> Vec<f64> {
        let s = self.scores(z);
        let top = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = s.iter().map(|v| (v - top).exp()).collect();
        let sum: f64 = e.iter().sum();
        e.into_iter().map(|v| v / sum).collect()
    }

    fn predict(&self, x: &[f64]) -> usize {
        argmax(&self.scores(&self.standardise(x)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `n` items: feature 0 is noise from a fixed LCG, feature 1 decides
    /// the class when `leak`, else it is noise too.
    fn data(n: usize, leak: bool) -> Data {
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as f64 / (1u64 << 31) as f64
        };
        let mut d = Data {
            classes: vec!["a".into(), "b".into()],
            names: vec!["noise", "signal"],
            ..Data::default()
        };
        for i in 0..n {
            let y = usize::from(next() < 0.5);
            let signal = if leak {
                y as f64 + 0.1 * next()
            } else {
                next()
            };
            d.x.push(vec![next(), signal]);
            d.y.push(y);
            d.fold.push(i % FOLDS);
        }
        d
    }

    #[test]
    fn a_leaking_feature_is_found_and_named() {
        let e = evaluate(&data(200, true));
        assert!(e.single_rule > 0.98, "{e:?}");
        assert!(e.tree > 0.98 && e.logistic > 0.98, "{e:?}");
        assert!(e.majority < 0.65, "{e:?}");
        assert_eq!(e.top_features[0].0, "signal");
        assert!(e.single_rule_text.starts_with("signal <= "), "{e:?}");
        assert!(e.excess() > 0.3);
    }

    #[test]
    fn noise_does_not_beat_the_majority() {
        let e = evaluate(&data(400, false));
        assert!(e.excess() < 0.1, "{e:?}");
    }

    #[test]
    fn a_constant_label_is_all_majority() {
        let mut d = data(50, false);
        d.y.iter_mut().for_each(|y| *y = 1);
        let e = evaluate(&d);
        assert_eq!(e.majority, 1.0);
        assert_eq!(e.single_rule_text, "always b");
    }

    proptest! {
        /// Every accuracy is a share; the tree and the stump never do worse
        /// on their own training data than the majority (they split only
        /// when it helps), and evaluation is deterministic.
        #[test]
        fn accuracies_are_shares_and_deterministic(
            rows in proptest::collection::vec((0u8..4, 0u8..4, 0usize..2), 10..60)
        ) {
            let d = Data {
                classes: vec!["x".into(), "y".into()],
                names: vec!["f", "g"],
                x: rows.iter().map(|r| vec![f64::from(r.0), f64::from(r.1)]).collect(),
                y: rows.iter().map(|r| r.2).collect(),
                fold: (0..rows.len()).map(|i| i % FOLDS).collect(),
            };
            let e = evaluate(&d);
            for v in [e.majority, e.single_rule, e.tree, e.logistic] {
                prop_assert!((0.0..=1.0).contains(&v));
            }
            prop_assert_eq!(&e, &evaluate(&d));
            let all: Vec<usize> = (0..d.y.len()).collect();
            let t = grow(&d, &all, &[0, 1], 3);
            let fit = all.iter().filter(|&&i| t.predict(&d.x[i]) == d.y[i]).count();
            let maj = class_counts(&d, &all).into_iter().max().unwrap();
            prop_assert!(fit >= maj);
        }
    }
}
