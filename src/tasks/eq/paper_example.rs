//! The worked examples of seed 000 appendix C, transcribed (spacing as in the
//! paper, which the parser tolerates), for tests of the checker and scorers.

use super::record::ProofData;

fn data(eqs: &[&str], lines: &[(&str, &[&str])]) -> ProofData {
    ProofData {
        equations: eqs
            .iter()
            .enumerate()
            .map(|(i, e)| [format!("E{}", i + 1), e.to_string()])
            .collect(),
        terms: lines.iter().map(|l| l.0.to_string()).collect(),
        citations: lines
            .iter()
            .map(|l| l.1.iter().map(|s| s.to_string()).collect())
            .collect(),
    }
}

/// The full 9-step example, corrupted at step 9 (`contractumCorruption`).
pub fn appendix_c() -> ProofData {
    data(
        &[
            "f4(V186772) = V186772",
            "g4(V186784, V186785) = f3(V186784)",
            "g4(V186773, V186774) = g2(f4(f3(V186773)),V186774)",
            "h5(V186755, c, e) = f1(f1(g1(V186755, e)))",
            "f(V186794) = g3(V186794,d)",
            "g2(f4(f3(V186783)),b) = f(g3(V186783,a))",
            "f1(f1(V186767)) = f4(g4(V186767,f4(e)))",
            "r(c,e,V186752,c) = g4(f3(V186752),b)",
            "r(V186733,e,V186734,V186735) = h5(V186733, V186734, V186735)",
            "f3(V186766) = f4(V186766)",
            "f3(V186793) = f2(f5(V186793))",
            "g1(V186758, V186759) = g1(V186759, V186758)",
            "g3(V186799, V186800) = f1(V186799)",
        ],
        &[
            ("g(r(c,e,d,c),r(b,e,c,e))", &[]),
            ("g(r(c,e,d,c),h5(b,c,e))", &["E9"]),
            ("g(g4(f3(d),b),h5(b,c,e))", &["E8"]),
            ("g(g4(f3(d),b),f1(f1(g1(b,e))))", &["E4"]),
            ("g(g4(f3(d),b),f1(f1(g1(e,b))))", &["E12"]),
            ("g(g4(f4(d),b),f4(g4(g1(e,b),f4(e))))", &["E10", "E7"]),
            ("g(g2(f4(f3(f4(d))),b),g4(g1(e,b),f4(e)))", &["E1", "E3"]),
            ("g(f(g3(f4(d),a)),f3(g1(e,b)))", &["E6", "E2"]),
            ("g(g3(g3(f4(d),a),d),f2(f5(g1(e,b))))", &["E11", "E5"]),
            ("g(g3(f1(f4(b)),d),f2(f5(g1(e,b))))", &["E13"]),
        ],
    )
}

/// The short introductory example (four steps).
pub fn appendix_c_short() -> ProofData {
    data(
        &[
            "h(c,V1170,c) = h(V1170,a,f4(f1(c)))",
            "h(V1173,V1174,V1173) = g2(V1173,V1174)",
            "h(a,V1181,f4(f1(c))) = g1(f2(f4(V1181)),f4(e))",
            "f2(f4(V1184)) = g(f3(V1184),f2(e))",
            "g(V1187,f2(e)) = g4(f1(f5(V1187)),d)",
            "f4(V1188) = V1188",
        ],
        &[
            ("g(h(c,a,c),h(a,c,a))", &[]),
            ("g(h(a,a,f4(f1(c))),h(a,c,a))", &["E1"]),
            ("g(g1(f2(f4(a)),f4(e)),g2(a,c))", &["E3"]),
            ("g(g1(g(f3(a),f2(e)),f4(e)),g2(a,c))", &["E4"]),
            ("g(g1(g4(f1(f5(f3(a))),d),e),g2(a,c))", &["E5", "E6"]),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::equational::lang::dewey;
    use crate::equational::step::{StepError, check_step, find_cover, is_minimal};

    #[test]
    fn checker_reproduces_the_worked_example() {
        let l = appendix_c().load().unwrap();
        let w = &l.world;
        // Steps 1-8 check, with the paper's positions and substitutions.
        type Rewrites<'a> = &'a [(&'a str, &'a [u32], &'a str)];
        let expect: [(usize, Rewrites); 8] = [
            (1, &[("E9", &[2], "h5(b,c,e)")]),
            (2, &[("E8", &[1], "g4(f3(d),b)")]),
            (3, &[("E4", &[2], "f1(f1(g1(b,e)))")]),
            (4, &[("E12", &[2, 1, 1], "g1(e,b)")]),
            (
                5,
                &[
                    ("E10", &[1, 1], "f4(d)"),
                    ("E7", &[2], "f4(g4(g1(e,b),f4(e)))"),
                ],
            ),
            (
                6,
                &[
                    ("E1", &[2], "g4(g1(e,b),f4(e))"),
                    ("E3", &[1], "g2(f4(f3(f4(d))),b)"),
                ],
            ),
            (
                7,
                &[("E6", &[1], "f(g3(f4(d),a))"), ("E2", &[2], "f3(g1(e,b))")],
            ),
            (
                8,
                &[
                    ("E11", &[2], "f2(f5(g1(e,b)))"),
                    ("E5", &[1], "g3(g3(f4(d),a),d)"),
                ],
            ),
        ];
        for (i, rw) in expect {
            let ws = check_step(w, &l.eqs, l.terms[i - 1], l.terms[i], &l.citations[i])
                .unwrap_or_else(|e| panic!("step {i}: {e:?}"));
            assert!(is_minimal(
                w,
                &l.eqs,
                l.terms[i - 1],
                l.terms[i],
                &l.citations[i]
            ));
            for (x, (name, pos, con)) in ws.iter().zip(rw.iter()) {
                assert_eq!(l.eqs[x.eq].name, *name);
                assert_eq!(dewey(&x.pos), pos.to_vec(), "step {i}");
                assert_eq!(w.show(x.contractum), *con);
            }
        }
        // Step 7's substitution for E6, as printed in the paper.
        let ws = check_step(w, &l.eqs, l.terms[6], l.terms[7], &l.citations[7]).unwrap();
        let theta: Vec<(String, String)> = ws[0]
            .theta
            .iter()
            .map(|&(v, t)| (w.var_name(v), w.show(t)))
            .collect();
        assert_eq!(theta, vec![("V186783".to_string(), "f4(d)".to_string())]);
        // Step 9 is the corrupted one: E13 matches g3(f4(d),a) at [1,1] but the
        // term has f1(f4(b)) instead of f1(f4(d)); nothing licenses the step.
        let err = check_step(w, &l.eqs, l.terms[8], l.terms[9], &l.citations[9]).unwrap_err();
        assert_eq!(err, StepError::NoRedex(12));
        let all = l.all_eqs();
        assert!(find_cover(w, &l.eqs, l.terms[8], l.terms[9], &all, all.len()).is_none());
    }

    #[test]
    fn short_example_step_2_needs_e2_as_well() {
        // The paper's short example cites only E3 for step 2, but h(a,c,a)
        // also becomes g2(a,c), which takes E2: as printed, step 2 fails.
        let l = appendix_c_short().load().unwrap();
        let w = &l.world;
        let ok = |i: usize, c: &[usize]| check_step(w, &l.eqs, l.terms[i - 1], l.terms[i], c);
        assert!(ok(1, &l.citations[1]).is_ok());
        assert!(ok(2, &l.citations[2]).is_err());
        assert!(ok(2, &[2, 1]).is_ok());
        assert!(ok(3, &l.citations[3]).is_ok());
        assert!(ok(4, &l.citations[4]).is_ok());
    }
}
