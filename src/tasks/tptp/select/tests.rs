//! Tests of premise selection: pool sizes, the exact search, distractor
//! kinds, stand-in refusal, answer parsing and every verdict.

use super::super::str_list;
use super::super::testing::*;
use super::cover::*;
use super::distractors::*;
use super::*;
use crate::prover::ProverLimits;
use crate::tasks::Verdict;
use std::collections::HashSet;

#[test]
fn pool_sizes_leave_room_for_the_largest_answer() {
    // Defaults: depth 1-4, k 2, 4, 6, 8, max_premises 10.
    let got: Vec<(usize, usize, usize)> = [(1, 2), (2, 4), (3, 6), (4, 8)]
        .iter()
        .map(|&(d, k)| {
            let (cap, r) = pool_sizes(d, k, 10);
            (cap, *r.start(), *r.end())
        })
        .collect();
    assert_eq!(got, [(2, 4, 4), (4, 6, 8), (6, 8, 12), (8, 10, 16)]);
    // Capped by max_premises and by 31 clauses.
    assert_eq!(pool_sizes(8, 16, 10), (10, 12..=26));
    assert_eq!(pool_sizes(12, 24, 20), (20, 22..=31));
    assert_eq!(pool_sizes(1, 0, 10), (2, 4..=4));
}

/// The pool size of a row is drawn apart from its answer's size: within
/// a level one answer size comes with several pool sizes (with a fixed
/// k the pool was the answer plus k), all in the level's range.
#[test]
fn pool_size_is_drawn_apart_from_the_answer() {
    let rows = set_instances(13, 40, |_| 2);
    let pairs: Vec<(usize, usize)> = rows
        .iter()
        .map(|b| {
            let n = b.metadata["pool"].as_array().unwrap().len();
            (n, b.metadata["answer_size"].as_u64().unwrap() as usize)
        })
        .collect();
    assert!(pairs.len() >= 10, "only {} rows", pairs.len());
    let (cap, range) = pool_sizes(2, 4, 10);
    assert!(pairs.iter().all(|&(n, _)| range.contains(&n)), "{pairs:?}");
    let m = |b: &Built| {
        b.metadata["pool"].as_array().unwrap().len() - b.metadata["k"].as_u64().unwrap() as usize
    };
    assert!(rows.iter().all(|b| m(b) <= cap));
    // One answer size comes with several pool sizes (with a fixed k it
    // came with one).
    let pools_of =
        |s: usize| -> HashSet<usize> { pairs.iter().filter(|p| p.1 == s).map(|p| p.0).collect() };
    assert!(pairs.iter().any(|p| pools_of(p.1).len() >= 2), "{pairs:?}");
    // Every pool holds two distractors or more.
    assert!(pairs.iter().all(|&(n, s)| n >= s + 2), "{pairs:?}");
}

#[test]
fn subsets_enumerates_each_combination_once() {
    assert_eq!(subsets(4, 2).len(), 6);
    assert_eq!(subsets(5, 0), vec![0]);
    assert!(subsets(3, 4).is_empty());
    assert!(subsets(10, 3).iter().all(|m| m.count_ones() == 3));
}

#[test]
fn binomial_counts_what_subsets_lists() {
    for n in 0..=12 {
        for s in 0..=n + 1 {
            assert_eq!(binomial(n, s), subsets(n, s).len() as u64, "{n} choose {s}");
        }
    }
    assert_eq!(binomial(30, 15), 155_117_520);
}

/// An attempt whose answer the cell would skip stops after the deletion
/// pass and notes the theorem's answer; a later attempt on the theorem
/// that reads the note stops before any prover call. The note is the
/// built row's answer.
#[test]
fn repeated_answers_stop_early_and_are_noted() {
    let g = graph(SETS, 600);
    let cfg = TasksConfig::default();
    let mut prover = Prover::new(ProverLimits::default());
    let (i, b) = (0..40u64)
        .find_map(|i| {
            let mut rng = crate::tasks::instance_rng(5, &["s"], i);
            let t = &g.pool[i as usize % g.pool.len()];
            generate(&g, t, &mut prover, &cfg, 2, &mut rng, &mut Walk::none())
                .ok()
                .map(|b| (i, b))
        })
        .expect("a selection instance");
    let t = &g.pool[i as usize % g.pool.len()];
    let rng = || crate::tasks::instance_rng(5, &["s"], i);
    // Every answer is a repeat: the same draw stops, noting M.
    let mut walk = Walk {
        repeated: &|_| true,
        held: &|_| false,
        earlier: &|_| Vec::new(),
        leading: &|_| 0,
        learned: Vec::new(),
    };
    let r = generate(&g, t, &mut prover, &cfg, 2, &mut rng(), &mut walk);
    assert!(matches!(r, Err(Reject::RepeatedAnswer)), "{:?}", r.err());
    assert_eq!(walk.learned.len(), 1);
    let (key, note) = walk.learned[0].clone();
    assert_eq!(key, Walk::theorem_key(&g.name, &g.canon(t.id)));
    let predicted = Predicted::from_note(&note).unwrap();
    assert_eq!(Some(predicted.group.as_str()), b.group.as_deref());
    // What a later slot reads back: the note of this theorem's pass.
    let noted = |k: &str| {
        if k == key {
            vec![note.clone()]
        } else {
            Vec::new()
        }
    };
    // Read back, the note stops the next attempt before its deletion pass.
    let calls = crate::prover::cost::current().calls;
    let mut fresh = Prover::new(ProverLimits::default());
    let mut walk = Walk {
        repeated: &|p| p.group == predicted.group,
        held: &|_| false,
        earlier: &noted,
        leading: &|_| 0,
        learned: Vec::new(),
    };
    let r = generate(&g, t, &mut fresh, &cfg, 2, &mut rng(), &mut walk);
    assert!(matches!(r, Err(Reject::RepeatedAnswer)), "{:?}", r.err());
    assert!(walk.learned.is_empty());
    assert_eq!(
        crate::prover::cost::current().calls,
        calls,
        "no prover call"
    );
    // A note of an answer the cell still takes does not stop it.
    let mut walk = Walk {
        repeated: &|_| false,
        held: &|_| false,
        earlier: &noted,
        leading: &|_| 0,
        learned: Vec::new(),
    };
    let again = generate(&g, t, &mut fresh, &cfg, 2, &mut rng(), &mut walk).unwrap();
    assert_eq!(again.answer, b.answer);
    // One undecided pass noted does not stop the theorem; two do, before
    // any call.
    for (notes, stops) in [(1, false), (MAX_UNDECIDED_PASSES, true)] {
        let undecided: Vec<String> = (0..notes)
            .map(|i| format!("{UNDECIDED_NOTE} {i:016x}"))
            .collect();
        let mut walk = Walk {
            repeated: &|_| false,
            held: &|_| false,
            earlier: &|k| {
                if k == key {
                    undecided.clone()
                } else {
                    Vec::new()
                }
            },
            leading: &|_| 0,
            learned: Vec::new(),
        };
        let calls = crate::prover::cost::current().calls;
        let r = generate(&g, t, &mut fresh, &cfg, 2, &mut rng(), &mut walk);
        if stops {
            assert!(matches!(r, Err(Reject::Unknown)), "{:?}", r.err());
            assert_eq!(crate::prover::cost::current().calls, calls, "no call");
        } else {
            assert_eq!(r.unwrap().answer, b.answer);
        }
    }
    // An answer the walk would hold and skip stops the draw after its
    // deletion pass as `held_answer`, noting M; read back, the note stops
    // the next attempt before any prover call.
    let mut walk = Walk {
        repeated: &|_| false,
        held: &|p| p.group == predicted.group,
        earlier: &|_| Vec::new(),
        leading: &|_| 0,
        learned: Vec::new(),
    };
    let r = generate(&g, t, &mut fresh, &cfg, 2, &mut rng(), &mut walk);
    assert!(matches!(r, Err(Reject::HeldAnswer)), "{:?}", r.err());
    assert_eq!(walk.learned, vec![(key.clone(), note.clone())]);
    let calls = crate::prover::cost::current().calls;
    let mut walk = Walk {
        repeated: &|_| false,
        held: &|_| true,
        earlier: &noted,
        leading: &|_| 0,
        learned: Vec::new(),
    };
    let r = generate(&g, t, &mut fresh, &cfg, 2, &mut rng(), &mut walk);
    assert!(matches!(r, Err(Reject::HeldAnswer)), "{:?}", r.err());
    assert_eq!(crate::prover::cost::current().calls, calls, "no call");
}

#[test]
fn generated_instances_verify_and_score() {
    let g = graph(SETS, 600);
    let cfg = TasksConfig::default();
    let mut prover = Prover::new(ProverLimits::default());
    let mut built = None;
    for i in 0..40 {
        let mut rng = crate::tasks::instance_rng(5, &["s"], i);
        if let Ok(b) = generate(
            &g,
            &g.pool[i as usize % g.pool.len()],
            &mut prover,
            &cfg,
            2,
            &mut rng,
            &mut Walk::none(),
        ) && b.answer.contains(',')
        {
            // A minimum of two or more: leaving one out is an answer.
            built = Some(b);
            break;
        }
    }
    let b = built.expect("a selection instance with a minimum of two or more");
    verify(&b.metadata, &b.certificate, &b.answer).unwrap();
    let s = score(&b.metadata, &b.certificate, &b.answer, Some(&mut prover)).unwrap();
    assert_eq!(s.value, 1.0);
    assert_eq!(
        (s.metric("sufficient"), s.metric("minimal")),
        (Some(1.0), Some(1.0))
    );
    assert_eq!(s.metric("size_credit"), Some(1.0));
    let n = b.metadata["pool"].as_array().unwrap().len();
    let gold = parse_answer(&b.answer, n).unwrap();
    let mut score_of = |ix: &[usize]| {
        score(
            &b.metadata,
            &b.certificate,
            &format_answer(ix),
            Some(&mut prover),
        )
        .unwrap()
    };
    // The whole pool is sufficient but earns nothing; the size credit
    // min / |pool| is a sub-metric only.
    let all: Vec<usize> = (1..=n).collect();
    let s = score_of(&all);
    assert_eq!((s.value, s.verdict), (0.0, Verdict::Wrong), "{}", s.detail);
    assert!(s.detail.starts_with("sufficient"), "{}", s.detail);
    assert_eq!(
        (s.metric("sufficient"), s.metric("minimal")),
        (Some(1.0), Some(0.0))
    );
    assert_eq!(s.metric("size_credit"), Some(gold.len() as f64 / n as f64));
    // The gold plus one extra premise: no credit, size credit
    // min / (min + 1).
    let extra = (1..=n).find(|i| !gold.contains(i)).unwrap();
    let mut plus = gold.clone();
    plus.push(extra);
    plus.sort_unstable();
    let s = score_of(&plus);
    assert_eq!(s.value, 0.0, "{}", s.detail);
    assert!(s.consistent());
    assert_eq!(
        s.metric("size_credit"),
        Some(gold.len() as f64 / (gold.len() + 1) as f64)
    );
    // The gold missing one premise proves nothing: 0.
    if gold.len() > 1 {
        let s = score_of(&gold[1..]);
        assert_eq!(s.value, 0.0, "{}", s.detail);
        assert!(s.well_formed && s.detail.starts_with("not sufficient"));
        assert_eq!(s.metric("sufficient"), Some(0.0));
    }
    // Distractors only: insufficient (certified or refuted), 0.
    let distractors: Vec<usize> = (1..=n)
        .filter(|i| !cert_premises(&b.certificate).contains(i))
        .collect();
    if !distractors.is_empty() {
        assert_eq!(score_of(&distractors).value, 0.0);
    }
    // Naming a premise the pool does not hold is cheating; no number at
    // all is malformed.
    for outside in ["[0]".to_string(), format!("[1, {}]", n + 1)] {
        let s = score(&b.metadata, &b.certificate, &outside, Some(&mut prover)).unwrap();
        assert_eq!(s.verdict, Verdict::Cheating, "{outside}: {}", s.detail);
        assert!(s.consistent() && s.well_formed);
    }
    let s = score(&b.metadata, &b.certificate, "", Some(&mut prover)).unwrap();
    assert_eq!(s.verdict, Verdict::Malformed);
    assert!(!s.well_formed);
    // A pool padded with further copies of a distractor: the whole
    // pool is still sufficient, scores 0 and has a size credit of
    // min / |pool|.
    let mut wide = b.metadata.clone();
    let filler = wide["pool"][distractors.first().copied().unwrap_or(n) - 1].clone();
    while wide["pool"].as_array().unwrap().len() < gold.len() + 8 {
        wide["pool"].as_array_mut().unwrap().push(filler.clone());
    }
    let m = wide["pool"].as_array().unwrap().len();
    let all: Vec<usize> = (1..=m).collect();
    let s = score(
        &wide,
        &b.certificate,
        &format_answer(&all),
        Some(&mut prover),
    )
    .unwrap();
    assert_eq!(s.value, 0.0, "whole pool of {m}: {}", s.detail);
    assert_eq!(s.metric("size_credit"), Some(gold.len() as f64 / m as f64));
    // A certificate missing its countermodels no longer verifies.
    let mut broken = b.certificate.clone();
    broken["countermodels"] = serde_json::json!([]);
    assert!(verify(&b.metadata, &broken, &b.answer).is_err());
}

/// The instances that `n` attempts on the SET graph give, attempt `i`
/// at level `level(i)` with theorem `i` of the pool (cycling), each
/// with its own stream of `seed`.
fn set_instances(seed: u64, n: u64, level: impl Fn(u64) -> u8) -> Vec<Built> {
    let g = graph(SETS, 600);
    let cfg = TasksConfig::default();
    let mut prover = Prover::new(ProverLimits::default());
    (0..n)
        .filter_map(|i| {
            let mut rng = crate::tasks::instance_rng(seed, &["t"], i);
            let t = &g.pool[i as usize % g.pool.len()];
            generate(
                &g,
                t,
                &mut prover,
                &cfg,
                level(i),
                &mut rng,
                &mut Walk::none(),
            )
            .ok()
        })
        .collect()
}

#[test]
fn distractors_are_premises_or_twins_and_the_background_hides_the_pool() {
    let g = graph(SETS, 600);
    let premise_keys: HashSet<String> = [1, 2]
        .iter()
        .flat_map(|&d| g.depth_premise_pool(d, 2 * d as usize).to_vec())
        .map(|(c, _)| g.canon(c))
        .collect();
    let (mut rows, mut twins, mut pooled) = (0, 0, 0);
    for b in set_instances(9, 30, |i| 1 + (i % 2) as u8) {
        rows += 1;
        let pool: Vec<String> = str_list(&b.metadata, "pool").unwrap();
        let perturbed: Vec<usize> =
            serde_json::from_value(b.metadata["perturbed"].clone()).unwrap();
        twins += perturbed.len();
        // A twin is never part of a minimum answer.
        let answers = cert_premises(&b.certificate);
        pooled += (1..=pool.len())
            .filter(|i| !answers.contains(i))
            .filter(|&i| premise_keys.contains(&text_key(&pool[i - 1]).unwrap()))
            .count();
        assert!(
            perturbed.iter().all(|i| !answers.contains(i)),
            "{perturbed:?} {answers:?}"
        );
        // No pool clause is listed in the background, up to variants.
        let key = |t: &str| text_key(t).unwrap();
        let shown: HashSet<String> = str_list(&b.metadata, "context_axioms")
            .unwrap()
            .iter()
            .map(|t| key(t))
            .collect();
        assert!(pool.iter().all(|p| !shown.contains(&key(p))), "{pool:?}");
        verify(&b.metadata, &b.certificate, &b.answer).unwrap();
    }
    assert!(rows >= 10, "only {rows} rows");
    // Most distractors are premises of other theorems; twins fill in.
    assert!(
        pooled >= rows,
        "{pooled} premise-pool distractors in {rows} rows"
    );
    assert!(
        pooled > twins,
        "{pooled} premise-pool distractors, {twins} twins"
    );
}

/// From depth 2 on, the level's most used premises are offered as
/// distractors where a row does not need them (POPULAR_SHARE_PERCENT):
/// the three most popular clauses of the level's premise pool, over
/// 40 level-2 draws, sit in pools that do not need them more often
/// than in answers (45 times against 37). Without the popular slots:
/// 34 against 38.
#[test]
fn the_most_used_premises_are_distractors_too() {
    let g = graph(SETS, 600);
    let cfg = TasksConfig::default();
    let mut pool = g.depth_premise_pool(2, cfg.max_premises).to_vec();
    pool.sort_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
    let top: HashSet<String> = pool.iter().take(3).map(|&(c, _)| g.canon(c)).collect();
    let (mut answer, mut distractor) = (0usize, 0usize);
    for b in set_instances(21, 40, |_| 2) {
        let texts: Vec<String> = str_list(&b.metadata, "pool").unwrap();
        let gold = parse_answer(&b.answer, texts.len()).unwrap();
        for (i, t) in texts.iter().enumerate() {
            if top.contains(&text_key(t).unwrap()) {
                if gold.contains(&(i + 1)) {
                    answer += 1;
                } else {
                    distractor += 1;
                }
            }
        }
    }
    eprintln!("top premises: {answer} in answers, {distractor} as distractors");
    assert!(answer >= 5, "{answer} answers hold a top premise");
    assert!(
        distractor * 10 >= answer * 11,
        "{distractor} distractors, {answer} answers"
    );
}

/// Distractors are premises of other theorems where possible: across
/// level-1 rows, clause texts recur with both labels, and a reader that
/// answers each pool clause with its text's majority label in the
/// other rows (what the audit's grouped text reader learned) does not
/// beat the majority by much. With twins first, each premise recurred
/// only as a premise and each twin only as a distractor.
#[test]
fn recurring_pool_texts_are_premises_and_distractors() {
    let rows: Vec<Vec<(String, bool)>> = set_instances(13, 80, |_| 1)
        .iter()
        .map(|b| {
            let pool: Vec<String> = str_list(&b.metadata, "pool").unwrap();
            let gold = parse_answer(&b.answer, pool.len()).unwrap();
            pool.iter()
                .enumerate()
                .map(|(i, c)| (text_key(c).unwrap(), gold.contains(&(i + 1))))
                .collect()
        })
        .collect();
    assert!(rows.len() >= 20, "only {} rows", rows.len());
    // Labels per text, then each item judged by the others' labels
    // (its own row left out).
    let mut labels: std::collections::HashMap<&str, [usize; 2]> = Default::default();
    for row in &rows {
        for (k, gold) in row {
            labels.entry(k.as_str()).or_default()[usize::from(*gold)] += 1;
        }
    }
    let (mut right, mut judged, mut mixed) = (0.0, 0usize, 0usize);
    for row in &rows {
        for (k, gold) in row {
            let mut n = labels[k.as_str()];
            n[usize::from(*gold)] -= 1;
            if n[0] + n[1] == 0 {
                continue;
            }
            judged += 1;
            if n[0] > 0 && n[1] > 0 {
                mixed += 1;
            }
            right += match n[1].cmp(&n[0]) {
                std::cmp::Ordering::Equal => 0.5,
                o => f64::from(u8::from((o == std::cmp::Ordering::Greater) == *gold)),
            };
        }
    }
    let memory = right / judged as f64;
    assert!(judged >= 40, "{judged} recurring items");
    assert!(mixed * 2 >= judged, "{mixed} of {judged} with both labels");
    assert!(memory <= 0.8, "text memory {memory:.3} over {judged} items");
}

/// From depth 2 on, a clause the walk has on the answer side past the
/// cell's lead (`Walk::leading`) is offered as a distractor first: a
/// level's premise-pool clauses that a draw left out of its pool enter it
/// once the walk says they lead, and the minimum answer stays the same.
#[test]
fn clauses_past_the_lead_are_offered_as_distractors_first() {
    let g = graph(SETS, 600);
    let cfg = TasksConfig::default();
    let (d, _) = cfg.params(super::super::Family::Selection, 3);
    let pool_texts: Vec<String> = g
        .counted_premise_pool(d, cfg.max_premises)
        .1
        .iter()
        .map(|&(c, _)| g.text(c))
        .collect();
    let mut prover = Prover::new(ProverLimits::default());
    let (mut rows, mut entered) = (0, 0);
    for i in 0..60u64 {
        let t = &g.pool[i as usize % g.pool.len()];
        let rng = || crate::tasks::instance_rng(21, &["lead"], i);
        let Ok(plain) = generate(&g, t, &mut prover, &cfg, 3, &mut rng(), &mut Walk::none()) else {
            continue;
        };
        let pool: Vec<String> = str_list(&plain.metadata, "pool").unwrap();
        let premises: Vec<String> = str_list(&plain.metadata, "premises").unwrap();
        // Premise-pool clauses the plain draw left out (and not the
        // theorem's own premises): the walk says they lead.
        let outside: HashSet<&str> = pool_texts
            .iter()
            .filter(|c| !pool.contains(c) && !premises.contains(c))
            .map(String::as_str)
            .collect();
        let leading = |text: &str| u64::from(outside.contains(text));
        let mut walk = Walk {
            leading: &leading,
            ..Walk::none()
        };
        let Ok(led) = generate(&g, t, &mut prover, &cfg, 3, &mut rng(), &mut walk) else {
            continue;
        };
        rows += 1;
        let led_pool: Vec<String> = str_list(&led.metadata, "pool").unwrap();
        // The same minimum answer: the deletion pass comes before the draw.
        let answer = |b: &Built, pool: &[String]| -> Vec<String> {
            let mut a: Vec<String> = cert_premises(&b.certificate)
                .iter()
                .map(|&k| pool[k - 1].clone())
                .collect();
            a.sort();
            a
        };
        assert_eq!(answer(&plain, &pool), answer(&led, &led_pool));
        if led_pool.iter().any(|c| outside.contains(c.as_str())) {
            entered += 1;
        }
        verify(&led.metadata, &led.certificate, &led.answer).unwrap();
    }
    assert!(rows >= 10, "only {rows} rows");
    assert!(
        entered * 2 >= rows,
        "leading clauses entered {entered} of {rows} pools"
    );
}

/// Depth-d premises that the deletion pass dropped are offered as
/// distractors first: they are as deep as the answer's premises.
#[test]
fn dropped_premises_become_distractors() {
    let (mut with_dropped, mut used) = (0, 0);
    for b in set_instances(11, 100, |_| 3) {
        let pool: Vec<String> = str_list(&b.metadata, "pool").unwrap();
        let gold = cert_premises(&b.certificate);
        let gold_texts: Vec<&String> = gold.iter().map(|&i| &pool[i - 1]).collect();
        let dropped: Vec<String> = str_list(&b.metadata, "premises")
            .unwrap()
            .into_iter()
            .filter(|p| !gold_texts.contains(&p))
            .collect();
        if dropped.is_empty() {
            continue;
        }
        with_dropped += 1;
        if dropped.iter().any(|d| pool.contains(d)) {
            used += 1;
        }
        verify(&b.metadata, &b.certificate, &b.answer).unwrap();
    }
    assert!(
        with_dropped >= 3,
        "only {with_dropped} rows dropped premises"
    );
    assert!(
        used * 2 >= with_dropped,
        "dropped premises in {used} of {with_dropped} pools"
    );
}

#[test]
fn strong_laws_get_twins_two_edits_away() {
    use rand::SeedableRng;
    // A monoid theorem over `square` and `cube`: every twin of
    // associativity one swap away is a permuted associativity law that
    // the quick prover cannot clear (with the other two premises it
    // often proves the theorem), so only a second edit finds the law a
    // twin, without which it is the pool's only clause of one symbol.
    let texts: Vec<String> = [
        "op(op(X0,X1),X2)=op(X0,op(X1,X2))",
        "op(X0,X0)=square(X0)",
        "op(X0,square(X0))=cube(X0)",
    ]
    .map(String::from)
    .to_vec();
    let theorem = "op(cube(X0),cube(op(X0,square(square(X0)))))=square(cube(cube(X0)))";
    let taken: HashSet<String> = texts
        .iter()
        .map(String::as_str)
        .chain([theorem])
        .map(|t| text_key(t).unwrap())
        .collect();
    let mut assoc_twins = 0;
    for seed in 0..6 {
        let prover = Prover::new(TasksConfig::default().prover);
        let mut s = StandIns::with_models(&texts, theorem, vec![None; 3], &prover);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let twins = twins_of(taken.clone(), 3, &mut s, &mut rng);
        // Twins of associativity: one symbol and three variables.
        assoc_twins += twins
            .iter()
            .filter(|t| !t.contains("square") && !t.contains("cube"))
            .inspect(|t| assert!(t.contains("X2"), "{t}"))
            .count();
    }
    assert!(
        assoc_twins >= 5,
        "associativity got {assoc_twins} twins in 6 draws"
    );
}

/// A clause stands in for a premise when the other premises and it
/// prove the theorem; a clause true in each premise's countermodel is
/// cleared without a prover call.
#[test]
fn stand_ins_are_refused_and_models_clear_the_rest() {
    let texts = vec!["p(a)".to_string(), "~p(X) | q(X)".to_string()];
    let theorem = "q(a)".to_string();
    let mut prover = Prover::new(ProverLimits::default());
    let model_without = |drop: usize, prover: &mut Prover| {
        let mut all: Vec<String> = texts.clone();
        all.remove(drop);
        all.push(theorem.clone());
        let (bank, c) = super::super::parse_clauses(&all).unwrap();
        match prover.prove(&bank, &[c[0].as_slice()], &c[1]).verdict {
            crate::prover::Verdict::CounterSatisfiable {
                evidence: crate::prover::Evidence::Model { model },
            } => model,
            v => panic!("{v:?}"),
        }
    };
    let models = vec![
        Some(model_without(0, &mut prover)),
        Some(model_without(1, &mut prover)),
    ];
    let mut s = StandIns::with_models(&texts, &theorem, models, &prover);
    assert!(s.excluded("~q(a)"));
    assert_eq!(s.calls, 0, "both models satisfy ~q(a)");
    for stand_in in ["p(a)", "q(a)", "q(X)", "p(X)"] {
        assert!(!s.excluded(stand_in), "{stand_in}");
    }
    assert!(s.calls > 0);
    // Without models the quick prover decides.
    s.models = vec![Vec::new(), Vec::new()];
    assert!(s.excluded("p(b)"));
    assert!(!s.excluded("~p(X) | q(a)"));
    // A banned text is refused however harmless, and without a call.
    s.banned.insert("~q(a)".into());
    let calls = s.calls;
    assert!(s.banned("~q(a)"));
    assert!(!s.excluded("~q(a)"));
    assert_eq!(s.calls, calls);
}

/// The stand-in checks skip model searches within the sizes at which
/// the premises but one, with the negated theorem, have no model, and
/// decide as before.
#[test]
fn stand_in_checks_skip_sizes_the_premises_have_no_model_of() {
    // Without `r(a)` the premises are a strict order with a successor,
    // which no finite model satisfies; without any other premise there
    // is a one-element model.
    let texts: Vec<String> = [
        "less(X,s(X))",
        "~less(X,Y) | ~less(Y,Z) | less(X,Z)",
        "~less(X,X)",
        "r(a)",
    ]
    .map(String::from)
    .to_vec();
    let theorem = "q(a)".to_string();
    let prover = Prover::new(ProverLimits::default());
    let upto = quick_limits(&prover.limits).max_model_size;
    let mut s = StandIns::with_models(&texts, &theorem, vec![None; 4], &prover);
    assert_eq!(s.absent_upto(3), upto);
    assert_eq!(s.absent_upto(0), 0);
    // Decisions are those of prover calls that search every size.
    let mut quick = Prover::new(stand_in_conflicts(quick_limits(&prover.limits)));
    for candidate in ["q(a)", "~r(X) | q(X)", "p(b)"] {
        let plain = (0..texts.len()).all(|q| {
            let mut all: Vec<String> = texts.clone();
            all.remove(q);
            all.push(candidate.to_string());
            all.push(theorem.clone());
            let (bank, c) = super::super::parse_clauses(&all).unwrap();
            let refs: Vec<&[crate::logic::Literal]> =
                c[..texts.len()].iter().map(|c| c.as_slice()).collect();
            matches!(
                quick.prove(&bank, &refs, &c[texts.len()]).verdict,
                crate::prover::Verdict::CounterSatisfiable { .. }
            )
        });
        assert_eq!(s.excluded(candidate), plain, "{candidate}");
    }
    assert!(!s.excluded("q(a)"));
}

/// A premise is matched by a non-premise of its literal count, foreign
/// symbol count and length (within a quarter); premises never match
/// each other.
#[test]
fn unmatched_counts_premises_without_a_look_alike() {
    let count = |pool: &[(&str, bool)]| {
        let mut texts: Vec<String> = pool.iter().map(|p| p.0.to_string()).collect();
        texts.push("is_open(union2(whole_space,empty_set))".into());
        let (bank, mut c) = super::super::parse_clauses(&texts).unwrap();
        let theorem = c.pop().unwrap();
        texts.pop();
        let premise: Vec<bool> = pool.iter().map(|p| p.1).collect();
        unmatched(&bank, &c, &texts, &premise, &theorem)
    };
    let unit = ("is_open(whole_space)", true);
    let closure = ("~is_open(X) | ~is_open(Y) | is_open(union2(X,Y))", true);
    let foreign = ("~member(X,empty_set) | is_open(X)", false);
    assert_eq!(count(&[unit, closure, foreign]), 2);
    // A unit without foreign symbols of about the same length.
    let like_unit = ("is_open(empty_set)", false);
    assert_eq!(count(&[unit, closure, foreign, like_unit]), 1);
    // The same shape with a foreign symbol does not match.
    let inter = ("~is_open(X) | ~is_open(Y) | is_open(inter2(X,Y))", false);
    assert_eq!(count(&[unit, closure, like_unit, inter]), 1);
    let twin = ("~is_open(X) | is_open(Y) | is_open(union2(X,Y))", false);
    assert_eq!(count(&[unit, closure, like_unit, twin]), 0);
    // Two premises of one shape do not match each other.
    assert_eq!(count(&[unit, ("is_open(empty_set)", true)]), 2);
}

/// `unmatched_at_best` is a lower bound: whatever `slots` clauses join
/// the pool, at least that many premises stay without a look-alike, and
/// some choice reaches it when the candidates cover the classes.
#[test]
fn unmatched_at_best_bounds_every_way_of_filling_the_slots() {
    let theorem = "is_open(union2(whole_space,empty_set))";
    let premises = [
        "is_open(whole_space)",
        "is_open(empty_set)",
        "~is_open(X) | ~is_open(Y) | is_open(union2(X,Y))",
        "~member(X,empty_set) | is_open(X)",
    ];
    let candidates = [
        "~is_open(whole_space)",
        "is_open(inter2(whole_space,empty_set))",
        "~is_open(X) | is_open(Y) | is_open(union2(X,Y))",
        "~member(Y,whole_space) | is_open(Y)",
        "~open_family(X) | is_open(big_union(X))",
    ];
    let unmatched_with = |extra: &[&str]| {
        let mut texts: Vec<String> = premises.iter().map(|p| p.to_string()).collect();
        texts.extend(extra.iter().map(|e| e.to_string()));
        texts.push(theorem.into());
        let (bank, mut c) = super::super::parse_clauses(&texts).unwrap();
        let t = c.pop().unwrap();
        texts.pop();
        let premise: Vec<bool> = (0..texts.len()).map(|i| i < premises.len()).collect();
        unmatched(&bank, &c, &texts, &premise, &t)
    };
    let texts: Vec<String> = premises.iter().map(|p| p.to_string()).collect();
    let premise = vec![true; premises.len()];
    let best = |slots| unmatched_at_best(&texts, &premise, theorem, slots).unwrap();
    // Classes: two units without foreign symbols, one 3-literal clause,
    // one 2-literal clause with a foreign symbol.
    assert_eq!(best(0), 4);
    assert_eq!(best(0), unmatched_with(&[]));
    assert_eq!(best(1), 2);
    assert_eq!(best(2), 1);
    assert_eq!(best(3), 0);
    for slots in 0..=3usize {
        let mut reached = usize::MAX;
        // Every choice of `slots` candidates (with repeats).
        let mut choice = vec![0usize; slots];
        loop {
            let extra: Vec<&str> = choice.iter().map(|&i| candidates[i]).collect();
            let n = unmatched_with(&extra);
            assert!(n >= best(slots), "{extra:?}: {n} < {}", best(slots));
            reached = reached.min(n);
            let Some(j) = choice.iter().rposition(|&i| i + 1 < candidates.len()) else {
                break;
            };
            choice[j] += 1;
            for k in j + 1..slots {
                choice[k] = choice[j];
            }
        }
        assert_eq!(reached, best(slots), "{slots} slots");
    }
    // A distractor already in the pool clears its class.
    let mut with = texts.clone();
    with.push(candidates[0].into());
    let mut marks = premise.clone();
    marks.push(false);
    assert_eq!(unmatched_at_best(&with, &marks, theorem, 0), Some(2));
}

/// Every premise of some certified minimum answer.
fn cert_premises(cert: &serde_json::Value) -> Vec<usize> {
    let c: Certificate = serde_json::from_value(cert.clone()).unwrap();
    c.answers.iter().flat_map(|a| a.premises.clone()).collect()
}

#[test]
fn answers_parse_leniently_but_strictly() {
    assert_eq!(parse_answer("[3, 1]", 5).unwrap(), vec![1, 3]);
    assert_eq!(parse_answer("2 4", 5).unwrap(), vec![2, 4]);
    let malformed = |a: &str| matches!(parse_answer(a, 5), Err(AnswerError::Malformed(_)));
    assert!(malformed("[1, 1]"));
    assert!(malformed("[a]"));
    assert!(malformed("[]"));
    // Garbage is malformed even beside a number outside the pool.
    assert!(malformed("[9, a]"));
    assert_eq!(
        parse_answer("[6]", 5),
        Err(AnswerError::OutsidePool { number: 6, pool: 5 })
    );
    assert!(matches!(
        parse_answer("[2, 0, 2]", 5),
        Err(AnswerError::OutsidePool { number: 0, .. })
    ));
}

/// Every verdict of the selection scorer where it should arise: the
/// gold answer `ok`, a distractor `wrong`, an unreadable answer
/// `malformed`, a number outside the pool `cheating`; an answer larger
/// than the minimum whose sufficiency only the prover can decide is
/// `wrong` with or without a prover budget (no `timeout`: its value is
/// 0 whatever the prover says), reporting `minimal` only when the
/// prover has no budget.
#[test]
fn each_verdict_arises_where_it_should() {
    let g = graph(SETS, 600);
    let cfg = TasksConfig::default();
    let mut prover = Prover::new(ProverLimits::default());
    let mut starved = Prover::new(no_budget());
    let mut seen_undecided = false;
    for i in 0..40 {
        let mut rng = crate::tasks::instance_rng(5, &["s"], i);
        let Ok(b) = generate(
            &g,
            &g.pool[i as usize % g.pool.len()],
            &mut prover,
            &cfg,
            2,
            &mut rng,
            &mut Walk::none(),
        ) else {
            continue;
        };
        let sc = |a: &str, p: &mut Prover| score(&b.metadata, &b.certificate, a, Some(p)).unwrap();
        let n = b.metadata["pool"].as_array().unwrap().len();
        let gold = sc(&b.answer, &mut starved);
        assert_eq!(gold.verdict, Verdict::Ok, "{}", gold.detail);
        assert_eq!(
            sc("premises 1 and 2", &mut starved).verdict,
            Verdict::Malformed
        );
        let outside = sc(&format_answer(&[n + 1]), &mut starved);
        assert_eq!(outside.verdict, Verdict::Cheating, "{}", outside.detail);
        let c: Certificate = serde_json::from_value(b.certificate.clone()).unwrap();
        let within = |small: &[usize], big: &[usize]| small.iter().all(|x| big.contains(x));
        // Answers the certificate does not settle: larger than the
        // minimum, no certified answer inside, no countermodel over them.
        for mask in 1u32..(1 << n) {
            let got: Vec<usize> = (1..=n).filter(|i| mask & (1 << (i - 1)) != 0).collect();
            if got.len() <= c.size
                || c.answers.iter().any(|a| within(&a.premises, &got))
                || c.countermodels.iter().any(|m| within(&got, &m.satisfies))
            {
                continue;
            }
            let s = sc(&format_answer(&got), &mut starved);
            assert_eq!(s.verdict, Verdict::Wrong, "{got:?}: {}", s.detail);
            assert!(s.detail.contains("undecided"), "{}", s.detail);
            assert!(s.consistent() && s.value == 0.0);
            assert_eq!(s.metrics, vec![("minimal", 0.0)]);
            let decided = sc(&format_answer(&got), &mut prover);
            assert_eq!(
                (decided.verdict, decided.value),
                (Verdict::Wrong, 0.0),
                "{got:?}: {}",
                decided.detail
            );
            // Values only (the audit's exploit suite): the same verdict
            // and value with no prover, and no sufficiency metric.
            let bare = score(&b.metadata, &b.certificate, &format_answer(&got), None).unwrap();
            assert_eq!((bare.verdict, bare.value), (Verdict::Wrong, 0.0));
            assert!(bare.detail.contains("not checked"), "{}", bare.detail);
            assert_eq!(bare.metrics, vec![("minimal", 0.0)]);
            // Every answer the certificate settles scores as with a prover.
            for a in [
                b.answer.clone(),
                format_answer(&(1..=n).collect::<Vec<_>>()),
            ] {
                let (x, y) = (
                    score(&b.metadata, &b.certificate, &a, None).unwrap(),
                    sc(&a, &mut prover),
                );
                assert_eq!(
                    (x.verdict, x.value, x.metrics),
                    (y.verdict, y.value, y.metrics)
                );
            }
            seen_undecided = true;
            break;
        }
        if seen_undecided {
            // A wrong answer: a certified-insufficient one.
            if let Some(m) = c.countermodels.iter().find(|m| !m.satisfies.is_empty()) {
                let s = sc(&format_answer(&m.satisfies), &mut starved);
                assert_eq!(s.verdict, Verdict::Wrong, "{}", s.detail);
            }
            break;
        }
    }
    assert!(seen_undecided, "no selection answer left to the prover");
}

/// The lowercase names (functions, constants, predicates) of a clause's
/// text.
fn names(text: &str) -> HashSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_lowercase()))
        .map(str::to_string)
        .collect()
}

/// From depth 2 on, where every clause of the answer shares a symbol with
/// the theorem, the distractors drawn from the level's premise pool do
/// too: the most used premises, offered unmatched, often shared none (FLD
/// level 2: 31% of them, and none of the answers), so "no symbol of the
/// theorem" read as "distractor". Here, over 40 level-2 draws on the SET
/// theory: 0 of 148 such distractors (9 of 140 without the rule).
#[test]
fn deep_distractors_share_a_symbol_with_the_theorem() {
    let (mut rows, mut distractors, mut strangers) = (0, 0, 0);
    for b in set_instances(31, 40, |_| 2) {
        let pool: Vec<String> = str_list(&b.metadata, "pool").unwrap();
        let gold = parse_answer(&b.answer, pool.len()).unwrap();
        let theorem = names(b.metadata["theorem"].as_str().unwrap());
        let shares = |t: &String| !names(t).is_disjoint(&theorem);
        if !gold.iter().all(|&i| shares(&pool[i - 1])) {
            continue;
        }
        rows += 1;
        for (i, t) in pool.iter().enumerate() {
            if !gold.contains(&(i + 1)) {
                distractors += 1;
                strangers += usize::from(!shares(t));
            }
        }
    }
    eprintln!("{strangers} of {distractors} distractors share no symbol ({rows} rows)");
    assert!(rows >= 20, "{rows} rows");
    assert!(
        strangers * 50 <= distractors,
        "{strangers} of {distractors}"
    );
}

/// Every countermodel a stand-in check finds is kept for its premise, so
/// a later candidate true in it needs no check: the model the premise's
/// finder found for the others and the negated theorem alone, and the
/// one of the check.
#[test]
fn stand_in_checks_reuse_the_models_they_find() {
    let texts = vec!["p(a)".to_string(), "~p(X) | q(X)".to_string()];
    let theorem = "q(a)".to_string();
    let prover = Prover::new(ProverLimits::default());
    let mut s = StandIns::with_models(&texts, &theorem, vec![None, None], &prover);
    assert!(s.excluded("p(b)"));
    assert_eq!(s.calls, 2, "one check per premise");
    assert_eq!(s.known_models().count(), 4);
    // Without p(a): p(b), q(b) true, p(a), q(a) false; without the rule:
    // p(a), p(b) true, q(a) false. The candidate holds in both.
    assert!(s.excluded("p(b) | ~p(a)"));
    assert_eq!(s.calls, 2, "settled by the models kept");
    assert!(!s.excluded("q(a)"), "the theorem itself stands in");
}

/// `pool` and `theorem` parsed into one bank: the bank, the pool's
/// clauses and the theorem's literals.
fn parsed_pool(
    pool: &[String],
    theorem: &str,
) -> (
    crate::logic::TermBank,
    Vec<Vec<crate::logic::Literal>>,
    Vec<crate::logic::Literal>,
) {
    let mut all = pool.to_vec();
    all.push(theorem.to_string());
    let (bank, mut clauses) = super::super::parse_clauses(&all).unwrap();
    let t = clauses.pop().unwrap();
    (bank, clauses, t)
}

/// A refutation of `premises` with the negated theorem `t` (the deletion
/// pass's proof of M).
fn refutation_of(
    bank: &crate::logic::TermBank,
    premises: &[&[crate::logic::Literal]],
    t: &[crate::logic::Literal],
) -> crate::prover::Refutation {
    let crate::prover::Verdict::Theorem { refutation } = Prover::new(ProverLimits::default())
        .prove(bank, premises, t)
        .verdict
    else {
        panic!("M proves the theorem");
    };
    refutation
}

/// Every subset of a pool of `n` of at most `size` clauses but `required`
/// is covered by one of `covers`.
fn assert_covered(
    covers: &[(u32, crate::prover::FiniteModel)],
    n: usize,
    size: usize,
    required: u32,
) {
    for s in 0..=size {
        for mask in subsets(n, s) {
            assert!(
                mask == required || covers.iter().any(|(sat, _)| mask & !sat == 0),
                "{mask:0n$b} uncovered"
            );
        }
    }
}

/// The minimum search asks first for a countermodel of the pool without
/// each premise of M; with one per premise, M alone is left to prove,
/// and the certificate covers every other subset.
#[test]
fn the_minimum_search_covers_from_the_top_down() {
    let pool: Vec<String> = ["r(b)", "p(a)", "s(c)", "~p(X) | q(X)", "~r(X) | s(X)"]
        .map(String::from)
        .to_vec();
    let theorem = "q(a)".to_string();
    let (bank, clauses, t) = parsed_pool(&pool, &theorem);
    let mut prover = Prover::new(ProverLimits::default());
    let required = 0b01010;
    let none: [&crate::prover::FiniteModel; 0] = [];
    let st = minimum_detail(
        &bank,
        &mut prover,
        &clauses,
        &pool,
        &theorem,
        &t,
        2,
        required,
        None,
        none,
        None,
    )
    .map_err(|f| f.reject)
    .unwrap();
    assert_eq!(st.size, 2);
    assert_eq!(
        st.answers.iter().map(|a| a.0).collect::<Vec<_>>(),
        [required]
    );
    assert_eq!(st.calls, 3, "two top-down models, then M's proof");
    assert_eq!(prover.models_first, 0, "the caller's schedule is restored");
    // With M's refutation known (the deletion pass's), M's subset needs no
    // call and the answer carries that refutation.
    let refutation = refutation_of(&bank, &[&clauses[1], &clauses[3]], &t);
    let mut fresh = Prover::new(ProverLimits::default());
    let known = minimum_detail(
        &bank,
        &mut fresh,
        &clauses,
        &pool,
        &theorem,
        &t,
        2,
        required,
        Some(&refutation),
        none,
        None,
    )
    .map_err(|f| f.reject)
    .unwrap();
    assert_eq!(known.calls, 2, "the two top-down models only");
    assert_eq!(known.answers.len(), 1);
    assert_eq!(known.answers[0].0, required);
    assert_eq!(known.answers[0].1, refutation);
    assert_covered(&st.covers, pool.len(), 2, required);
}

/// The top-down calls search small models only: a pool without a premise
/// that needs four elements leaves that premise undecided, without a
/// saturation, and the search by size covers its subsets with models
/// searched first, so a search given M's refutation saturates nothing.
#[test]
fn top_down_calls_search_models_only() {
    let pool: Vec<String> = [
        "a != b",
        "p(a)",
        "a != c",
        "~p(X) | q(X)",
        "a != d",
        "b != c",
        "b != d",
        "c != d",
    ]
    .map(String::from)
    .to_vec();
    let theorem = "q(a)".to_string();
    let (bank, clauses, t) = parsed_pool(&pool, &theorem);
    let required = 0b1010;
    let refutation = refutation_of(&bank, &[&clauses[1], &clauses[3]], &t);
    let mut prover = Prover::new(ProverLimits::default());
    let none: [&crate::prover::FiniteModel; 0] = [];
    let st = minimum_detail(
        &bank,
        &mut prover,
        &clauses,
        &pool,
        &theorem,
        &t,
        2,
        required,
        Some(&refutation),
        none,
        None,
    )
    .map_err(|f| f.reject)
    .unwrap();
    assert_eq!(st.size, 2);
    assert_eq!(
        st.answers.iter().map(|a| a.0).collect::<Vec<_>>(),
        [required]
    );
    assert_eq!(st.processed, 0, "no call saturated");
    assert!(
        st.calls > 2,
        "the search by size covered what top down left"
    );
    assert_covered(&st.covers, pool.len(), 2, required);
    for (sat, model) in &st.covers {
        for (i, text) in pool.iter().enumerate() {
            let holds = crate::checker::model_satisfies(model, text) == Ok(true);
            assert_eq!(holds, sat >> i & 1 == 1, "{text} in a cover");
        }
        assert_eq!(crate::checker::model_satisfies(model, &theorem), Ok(false));
    }
}

/// A proof of M's size or less that uses a clause outside M ends the
/// search: it, or a smaller proof below it, is a minimum answer with a
/// distractor, so the row is refused without classifying the rest.
#[test]
fn the_minimum_search_stops_at_a_proof_with_a_distractor() {
    let pool: Vec<String> = ["q(a)", "q(X)", "r(b)"].map(String::from).to_vec();
    let theorem = "q(a)".to_string();
    let (bank, clauses, t) = parsed_pool(&pool, &theorem);
    let mut prover = Prover::new(ProverLimits::default());
    // The search stops and names the distractor the proof used, `q(X)`,
    // handing back the countermodel it had found (of the empty subset).
    let none: [&crate::prover::FiniteModel; 0] = [];
    let Err(f) = minimum_detail(
        &bank,
        &mut prover,
        &clauses,
        &pool,
        &theorem,
        &t,
        1,
        0b001,
        None,
        none,
        None,
    ) else {
        panic!("the distractor proves the theorem");
    };
    assert_eq!(f.reject, Reject::DistractorEntails);
    assert_eq!(f.entailing, 0b010);
    assert_eq!(f.models.len(), 1);
    assert!(f.calls >= 2, "the empty subset, then q(X)");
    for m in &f.models {
        assert_eq!(crate::checker::model_satisfies(m, &theorem), Ok(false));
    }
}

/// A known model that falsifies the theorem covers the subsets it
/// satisfies; one that satisfies the theorem is never used.
#[test]
fn known_models_enter_the_certificate_only_when_they_cover() {
    let pool: Vec<String> = ["p(a)", "~p(X) | q(X)", "r(b)"].map(String::from).to_vec();
    let theorem = "q(a)".to_string();
    let (bank, clauses, t) = parsed_pool(&pool, &theorem);
    let mut prover = Prover::new(ProverLimits::default());
    let model_of = |texts: &[&str], prover: &mut Prover| {
        let mut all: Vec<String> = texts.iter().map(|s| s.to_string()).collect();
        all.push(theorem.clone());
        let (bank, c) = super::super::parse_clauses(&all).unwrap();
        let refs: Vec<&[crate::logic::Literal]> =
            c[..c.len() - 1].iter().map(|c| c.as_slice()).collect();
        match prover.prove(&bank, &refs, &c[c.len() - 1]).verdict {
            crate::prover::Verdict::CounterSatisfiable {
                evidence: crate::prover::Evidence::Model { model },
            } => model,
            v => panic!("{v:?}"),
        }
    };
    // Falsifies q(a) and satisfies every pool clause but p(a).
    let without_p = model_of(&["~p(X) | q(X)", "r(b)"], &mut prover);
    let mut plain = Prover::new(ProverLimits::default());
    let a = minimum_detail(
        &bank,
        &mut plain,
        &clauses,
        &pool,
        &theorem,
        &t,
        2,
        0b011,
        None,
        [&without_p],
        None,
    )
    .map_err(|f| f.reject)
    .unwrap();
    let mut fresh = Prover::new(ProverLimits::default());
    let none: [&crate::prover::FiniteModel; 0] = [];
    let b = minimum_detail(
        &bank, &mut fresh, &clauses, &pool, &theorem, &t, 2, 0b011, None, none, None,
    )
    .map_err(|f| f.reject)
    .unwrap();
    assert_eq!(a.answers.iter().map(|x| x.0).collect::<Vec<_>>(), [0b011]);
    assert_eq!(a.calls + 1, b.calls, "the known model saved one search");
    assert!(a.covers.iter().any(|(_, m)| *m == without_p));
}

/// The minimum search asks its caller's warm finder for a model of each
/// subset it cannot cover otherwise, and uses a model only when it
/// satisfies that subset: with no model search of its own (largest size
/// 0) the search certifies the pool from the warm models alone, and a
/// finder that answers with a model of the wrong clauses leaves it
/// uncertified.
#[test]
fn warm_models_cover_only_the_subsets_they_satisfy() {
    let pool: Vec<String> = ["p(a)", "~p(X) | q(X)", "r(b)"].map(String::from).to_vec();
    let theorem = "q(a)".to_string();
    let (bank, clauses, t) = parsed_pool(&pool, &theorem);
    let model_of = |texts: &[&str]| {
        let mut all: Vec<String> = texts.iter().map(|s| s.to_string()).collect();
        all.push(theorem.clone());
        let (bank, c) = super::super::parse_clauses(&all).unwrap();
        let refs: Vec<&[crate::logic::Literal]> =
            c[..c.len() - 1].iter().map(|c| c.as_slice()).collect();
        let mut prover = Prover::new(ProverLimits::default());
        match prover.prove(&bank, &refs, &c[c.len() - 1]).verdict {
            crate::prover::Verdict::CounterSatisfiable {
                evidence: crate::prover::Evidence::Model { model },
            } => Some(model),
            _ => None,
        }
    };
    let blind = || {
        let mut p = Prover::new(ProverLimits::default());
        p.limits.max_model_size = 0;
        p.limits.quick_model_size = 0;
        p
    };
    let none: [&crate::prover::FiniteModel; 0] = [];
    let required = 0b011;
    let search = |warm: Option<super::cover::Warm<'_>>| {
        minimum_detail(
            &bank,
            &mut blind(),
            &clauses,
            &pool,
            &theorem,
            &t,
            2,
            required,
            None,
            none,
            warm,
        )
    };
    assert!(search(None).is_err(), "no model search, no certificate");
    let mut asked = 0;
    let mut right = |q: usize, others: &[usize]| {
        asked += 1;
        let texts: Vec<&str> = (0..pool.len())
            .filter(|&i| (required >> i & 1 == 1 && i != q) || others.contains(&i))
            .map(|i| pool[i].as_str())
            .collect();
        model_of(&texts)
    };
    let st = search(Some(&mut right)).map_err(|f| f.reject).unwrap();
    assert!(asked > 0);
    assert_eq!(st.size, 2);
    assert_eq!(st.answers.iter().map(|x| x.0).collect::<Vec<_>>(), [0b011]);
    for (sat, m) in &st.covers {
        assert_eq!(crate::checker::model_satisfies(m, &theorem), Ok(false));
        for i in indices(*sat) {
            assert_eq!(crate::checker::model_satisfies(m, &pool[i]), Ok(true));
        }
    }
    // A model of r(b) alone, whatever is asked: it satisfies ~p(X) | q(X)
    // only by chance, never p(a) with q(a) false.
    let mut wrong = |_: usize, _: &[usize]| model_of(&["~p(a)", "r(b)"]);
    assert!(search(Some(&mut wrong)).is_err());
}
