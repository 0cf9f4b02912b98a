//! The families saturate ships, registered by name: the one list a new
//! family joins (one line), kept apart from the abstraction in
//! [`super::family`] so that no family file and the abstraction import each
//! other.

use super::family::Registry;

impl Registry {
    /// Every family saturate ships: one line per family.
    pub fn builtin() -> Registry {
        Registry::new(vec![
            &super::tptp::family::TPTP,
            &super::pl::family::PL1,
            &super::pl::family::PL2,
            &super::eq::family::EQ,
            &super::equiv::family::EQUIV,
            #[cfg(feature = "toy-family")]
            &super::toy::TOY,
        ])
    }

    /// [`Registry::builtin`], made once per process (the configuration and
    /// the trace renderer look families up per section and per row).
    pub fn shared() -> &'static Registry {
        static SHARED: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
        SHARED.get_or_init(Registry::builtin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_configs_are_unique_and_found() {
        let r = Registry::builtin();
        let names: Vec<&str> = r
            .families()
            .iter()
            .flat_map(|f| f.configs().into_iter().map(|c| c.name))
            .collect();
        assert!(names.len() >= 12, "{names:?}");
        for n in &names {
            assert!(r.family_of(n).is_some(), "{n}");
        }
        assert_eq!(
            r.family_of("conjecture_entailment").map(|f| f.name()),
            Some("tptp")
        );
        assert_eq!(r.family_of("eq_pc").map(|f| f.name()), Some("eq"));
        assert!(r.family_of("no_such_task").is_none());
    }
}
