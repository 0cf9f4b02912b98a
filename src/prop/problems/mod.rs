//! The problem generators of ProofGrid's PL datasets (seed 000; PL/EQ spec
//! §3.1 and §4.2), over the propositional core: [`random`] draws PL1's
//! random problems (premises and goal meeting the five constraints, SAT
//! certified), [`families`] builds PL2's eight structured families with a
//! size knob. Both are seeded (`ChaCha8Rng`) and deterministic; neither knows
//! about tasks, prompts or rows.

pub mod families;
pub mod random;
