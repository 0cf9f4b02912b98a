//! The learned text readers of the shortcut audit: classifiers over the
//! words of a prompt's sections rather than over hand-written features, so
//! that a tell nobody thought to measure (a symbol that only False rows
//! use, a premise that only appears with one label) is found anyway.
//!
//! Text is cut into tokens (runs of letters, digits and `_`, and every other
//! non-blank character alone), whose unigrams and bigrams are hashed into
//! 2^18 buckets (the hashing trick: Weinberger et al., "Feature Hashing for
//! Large Scale Multitask Learning", ICML 2009) with a fixed FNV-1a hash, so
//! the buckets never depend on the process or the row order. Two models
//! read the buckets, trained per fold of the audit's grouped
//! cross-validation:
//!
//! - softmax logistic regression with an L2 penalty on log-scaled,
//!   length-normalised counts, fitted by stochastic gradient descent in a
//!   fixed order with the step `eta0 / (1 + lambda * eta0 * t)` (Bottou,
//!   "Large-Scale Machine Learning with Stochastic Gradient Descent",
//!   COMPSTAT 2010), its penalty chosen among three by a validation split of
//!   the training groups;
//! - multinomial naive Bayes over token presence with add-one smoothing
//!   (McCallum and Nigam, "A Comparison of Event Models for Naive Bayes Text
//!   Classification", 1998), a cross-check that needs no tuning.
//!
//! Everything is deterministic: fixed epochs, a fixed permutation per
//! epoch, f64 arithmetic in a fixed order.

use std::collections::BTreeMap;

/// Bits of the hashed feature space.
pub const HASH_BITS: u32 = 18;
const BUCKETS: usize = 1 << HASH_BITS;
/// Passes of stochastic gradient descent over the training items.
const EPOCHS: usize = 12;
/// The initial step.
const ETA0: f64 = 0.5;
/// The penalties the validation split chooses from.
const LAMBDAS: [f64; 3] = [1e-4, 1e-3, 1e-2];

/// One text as hashed token counts: `(hash, count)`, sorted by hash, each
/// hash once. The hashes are full 32-bit; a reader folds them into its
/// buckets with its section's salt.
pub type Tokens = Box<[(u32, u32)]>;

/// FNV-1a, 64 bits.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A 64-bit finaliser (MurmurHash3's fmix64): spreads a combined hash.
fn mix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    h
}

/// The tokens of a text: maximal runs of ASCII letters, digits and `_`, and
/// every other non-blank character on its own.
pub fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        let word = c.is_ascii_alphanumeric() || c == '_';
        if word {
            start.get_or_insert(i);
            continue;
        }
        if let Some(s) = start.take() {
            out.push(&text[s..i]);
        }
        if !c.is_whitespace() {
            out.push(&text[i..i + c.len_utf8()]);
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

/// The hashed unigram and bigram counts of a text.
pub fn hash_text(text: &str) -> Tokens {
    let toks: Vec<u64> = tokens(text).iter().map(|t| fnv(t.as_bytes())).collect();
    let mut counts: BTreeMap<u32, u32> = BTreeMap::new();
    for (i, &h) in toks.iter().enumerate() {
        *counts.entry(mix(h) as u32).or_default() += 1;
        if let Some(&next) = toks.get(i + 1) {
            let b = mix(h.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ next.rotate_left(17));
            *counts.entry(b as u32).or_default() += 1;
        }
    }
    counts.into_iter().collect()
}

/// A sparse vector: `(index, value)`, indices distinct.
pub type Sparse = Vec<(u32, f64)>;

/// The bucket of a token hash in the section salted by `salt`.
fn bucket(hash: u32, salt: u64) -> u32 {
    (mix(u64::from(hash) ^ salt.wrapping_mul(0x2545_f491_4f6c_dd1d)) as usize % BUCKETS) as u32
}

/// The salt of a section name.
pub fn salt(section: &str) -> u64 {
    fnv(section.as_bytes()) | 1
}

/// An item's text as one sparse vector: each section's tokens folded into
/// buckets with its salt, counts log-scaled (`1 + ln c`), the whole scaled
/// to unit length; then `dense` values (already scaled) at indices after
/// the buckets.
pub fn vector(sections: &[(u64, &Tokens)], dense: &[f64]) -> Sparse {
    let mut acc: BTreeMap<u32, f64> = BTreeMap::new();
    for (salt, toks) in sections {
        for &(h, c) in toks.iter() {
            *acc.entry(bucket(h, *salt)).or_default() += 1.0 + f64::from(c).ln();
        }
    }
    let norm = acc.values().map(|v| v * v).sum::<f64>().sqrt();
    let mut out: Sparse = acc
        .into_iter()
        .map(|(i, v)| (i, if norm > 0.0 { v / norm } else { 0.0 }))
        .collect();
    for (j, &v) in dense.iter().enumerate() {
        if v != 0.0 {
            out.push(((BUCKETS + j) as u32, v));
        }
    }
    out
}

/// The weight table's width for vectors with `dense` extra values.
fn width(dense: usize) -> usize {
    BUCKETS + dense
}

/// A fitted softmax regression: per class a weight row (times `scale`) and
/// a bias.
struct Softmax {
    w: Vec<Vec<f64>>,
    scale: f64,
    bias: Vec<f64>,
}

impl Softmax {
    fn scores(&self, x: &Sparse) -> Vec<f64> {
        self.w
            .iter()
            .zip(&self.bias)
            .map(|(w, b)| b + self.scale * x.iter().map(|&(j, v)| w[j as usize] * v).sum::<f64>())
            .collect()
    }

    fn predict(&self, x: &Sparse) -> usize {
        argmax(&self.scores(x))
    }

    /// Fits on `idx` of `xs` with penalty `lambda`.
    fn fit(
        xs: &[Sparse],
        y: &[usize],
        classes: usize,
        dims: usize,
        idx: &[usize],
        lambda: f64,
    ) -> Softmax {
        let mut m = Softmax {
            w: vec![vec![0.0; dims]; classes],
            scale: 1.0,
            bias: vec![0.0; classes],
        };
        let mut order: Vec<usize> = idx.to_vec();
        let mut state: u64 = 0x853c_49e6_748f_ea9b;
        let mut t = 0.0f64;
        for _ in 0..EPOCHS {
            // A fixed Fisher-Yates shuffle per epoch (a 64-bit LCG).
            for i in (1..order.len()).rev() {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let j = ((state >> 33) % (i as u64 + 1)) as usize;
                order.swap(i, j);
            }
            for &i in &order {
                let eta = ETA0 / (1.0 + lambda * ETA0 * t);
                t += 1.0;
                // The penalty's shrink, applied to every weight at once.
                m.scale *= 1.0 - eta * lambda;
                if m.scale < 1e-6 {
                    for row in &mut m.w {
                        row.iter_mut().for_each(|v| *v *= m.scale);
                    }
                    m.scale = 1.0;
                }
                let s = m.scores(&xs[i]);
                let p = softmax(&s);
                for (c, pc) in p.iter().enumerate() {
                    let g = pc - f64::from(u8::from(y[i] == c));
                    if g == 0.0 {
                        continue;
                    }
                    let step = eta * g / m.scale;
                    for &(j, v) in &xs[i] {
                        m.w[c][j as usize] -= step * v;
                    }
                    m.bias[c] -= eta * g;
                }
            }
        }
        m
    }
}

fn softmax(s: &[f64]) -> Vec<f64> {
    let top = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = s.iter().map(|v| (v - top).exp()).collect();
    let sum: f64 = e.iter().sum();
    e.into_iter().map(|v| v / sum).collect()
}

/// The first index of the largest value.
fn argmax(v: &[f64]) -> usize {
    let mut best = 0;
    for (i, &x) in v.iter().enumerate() {
        if x > v[best] {
            best = i;
        }
    }
    best
}

/// Items for the text readers of one cell.
pub struct TextData<'a> {
    /// One vector per item ([`vector`]).
    pub x: &'a [Sparse],
    /// Dense values appended to the vectors (0 for text only).
    pub dense: usize,
    /// One class per item.
    pub y: &'a [usize],
    /// Classes.
    pub classes: usize,
    /// One fold per item (`0..folds`).
    pub fold: &'a [usize],
    /// An inner fold per item (`0..4`), from the same group as `fold` but
    /// other bits of its hash: the validation split that chooses the
    /// penalty takes inner fold 0 of the training items.
    pub inner: &'a [usize],
    /// Folds.
    pub folds: usize,
}

/// Cross-validated accuracy of the logistic regression (penalty chosen on
/// a validation split of each training set) and of naive Bayes.
pub fn evaluate(d: &TextData) -> (f64, f64) {
    let dims = width(d.dense);
    let (mut lr_right, mut nb_right, mut tested) = (0usize, 0usize, 0usize);
    for k in 0..d.folds {
        let (test, train): (Vec<usize>, Vec<usize>) = (0..d.y.len()).partition(|&i| d.fold[i] == k);
        if test.is_empty() || train.is_empty() {
            continue;
        }
        let (val, fit): (Vec<usize>, Vec<usize>) = train.iter().partition(|&&i| d.inner[i] == 0);
        let lambda = if val.is_empty() || fit.is_empty() {
            LAMBDAS[1]
        } else {
            let mut best = (0usize, LAMBDAS[1]);
            for &l in &LAMBDAS {
                let m = Softmax::fit(d.x, d.y, d.classes, dims, &fit, l);
                let right = val
                    .iter()
                    .filter(|&&i| m.predict(&d.x[i]) == d.y[i])
                    .count();
                // Ties: the stronger penalty (the later one).
                if right >= best.0 {
                    best = (right, l);
                }
            }
            best.1
        };
        let m = Softmax::fit(d.x, d.y, d.classes, dims, &train, lambda);
        lr_right += test
            .iter()
            .filter(|&&i| m.predict(&d.x[i]) == d.y[i])
            .count();
        let nb = Bayes::fit(d, &train);
        nb_right += test
            .iter()
            .filter(|&&i| nb.predict(&d.x[i]) == d.y[i])
            .count();
        tested += test.len();
    }
    if tested == 0 {
        return (0.0, 0.0);
    }
    (
        lr_right as f64 / tested as f64,
        nb_right as f64 / tested as f64,
    )
}

/// Multinomial naive Bayes over the presence of buckets (dense values
/// ignored).
struct Bayes {
    prior: Vec<f64>,
    /// Per class: log-probability of each bucket met in training.
    logp: Vec<BTreeMap<u32, f64>>,
    /// Per class: log-probability of a bucket never met with it.
    unseen: Vec<f64>,
}

impl Bayes {
    fn fit(d: &TextData, idx: &[usize]) -> Bayes {
        let mut counts: Vec<BTreeMap<u32, f64>> = vec![BTreeMap::new(); d.classes];
        let mut totals = vec![0.0; d.classes];
        let mut items = vec![0.0; d.classes];
        for &i in idx {
            items[d.y[i]] += 1.0;
            for &(j, _) in d.x[i].iter().filter(|&&(j, _)| (j as usize) < BUCKETS) {
                *counts[d.y[i]].entry(j).or_default() += 1.0;
                totals[d.y[i]] += 1.0;
            }
        }
        let n: f64 = items.iter().sum();
        let v = BUCKETS as f64;
        Bayes {
            prior: items
                .iter()
                .map(|c| ((c + 1.0) / (n + d.classes as f64)).ln())
                .collect(),
            logp: counts
                .iter()
                .zip(&totals)
                .map(|(m, t)| {
                    m.iter()
                        .map(|(&j, c)| (j, ((c + 1.0) / (t + v)).ln()))
                        .collect()
                })
                .collect(),
            unseen: totals.iter().map(|t| (1.0 / (t + v)).ln()).collect(),
        }
    }

    fn predict(&self, x: &Sparse) -> usize {
        let s: Vec<f64> = (0..self.prior.len())
            .map(|c| {
                self.prior[c]
                    + x.iter()
                        .filter(|&&(j, _)| (j as usize) < BUCKETS)
                        .map(|(j, _)| *self.logp[c].get(j).unwrap_or(&self.unseen[c]))
                        .sum::<f64>()
            })
            .collect();
        argmax(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_words_and_symbols() {
        assert_eq!(
            tokens("~p(X0) | q_1(a)=>b"),
            vec![
                "~", "p", "(", "X0", ")", "|", "q_1", "(", "a", ")", "=", ">", "b"
            ]
        );
        let t = hash_text("a b a b");
        // Unigrams a, b; bigrams (a b) twice and (b a) once.
        assert_eq!(t.iter().map(|p| p.1).sum::<u32>(), 4 + 3);
        assert_eq!(hash_text("a b a b"), t);
    }

    /// A cell whose texts are noise words except that one class's rows
    /// carry a planted word: the text readers find it, and without it they
    /// stay near the majority.
    fn cell(planted: bool) -> (Vec<Sparse>, Vec<usize>, Vec<usize>, Vec<usize>) {
        let words = [
            "alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta",
        ];
        let mut state = 99u64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        let (mut x, mut y, mut fold, mut inner) = (vec![], vec![], vec![], vec![]);
        for i in 0..200 {
            let label = next(2) as usize;
            let mut text: Vec<&str> = (0..12).map(|_| words[next(8) as usize]).collect();
            if planted && label == 1 {
                text.insert(next(12) as usize, "tell");
            }
            let toks = hash_text(&text.join(" "));
            x.push(vector(&[(salt("s"), &toks)], &[]));
            y.push(label);
            fold.push(i % 5);
            inner.push((i / 5) % 4);
        }
        (x, y, fold, inner)
    }

    #[test]
    fn a_planted_word_is_learned_and_noise_is_not() {
        for planted in [true, false] {
            let (x, y, fold, inner) = cell(planted);
            let d = TextData {
                x: &x,
                dense: 0,
                y: &y,
                classes: 2,
                fold: &fold,
                inner: &inner,
                folds: 5,
            };
            let (lr, nb) = evaluate(&d);
            let ones = y.iter().filter(|&&c| c == 1).count() as f64 / y.len() as f64;
            let majority = ones.max(1.0 - ones);
            if planted {
                assert!(lr > 0.95 && nb > 0.9, "lr {lr} nb {nb}");
            } else {
                assert!(
                    lr < majority + 0.1 && nb < majority + 0.1,
                    "lr {lr} nb {nb} maj {majority}"
                );
            }
            assert_eq!(evaluate(&d), (lr, nb));
        }
    }
}
