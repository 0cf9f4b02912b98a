//! The families saturate ships and the one registry that finds them: by
//! config name for `score`, `verify`, `audit`, `merge` and the trace column,
//! by command name for generation. A new family joins with one line of
//! [`Registry::builtin`]. The registry sits above the abstractions it joins
//! ([`super::family::TaskFamily`] for rows, [`super::generation::Generation`]
//! for generate commands) and above every family, so none of them imports
//! it and no two import each other.

use super::family::TaskFamily;
use super::generation::{Generation, SectionInfo};
use serde_json::Value;
use std::collections::BTreeMap;

/// Maps config names to families (`score` and `verify` dispatch on a row's
/// `task` through it) and command names to generate commands.
#[derive(Default)]
pub struct Registry {
    families: Vec<&'static dyn TaskFamily>,
    generations: Vec<&'static dyn Generation>,
    by_config: BTreeMap<&'static str, usize>,
}

impl Registry {
    /// A registry of the given families, without generate commands.
    /// Panics if two families claim one config name (a programming error,
    /// caught by the registry test).
    pub fn new(families: Vec<&'static dyn TaskFamily>) -> Registry {
        families
            .into_iter()
            .fold(Registry::default(), |r, f| r.add(f, None))
    }

    /// This registry plus `family` and, when it has one, its generate
    /// command (`None` for a family another's command generates: PL2 comes
    /// with `pl`). Panics on a config name already registered.
    pub fn add(
        mut self,
        family: &'static dyn TaskFamily,
        generation: Option<&'static dyn Generation>,
    ) -> Registry {
        let i = self.families.len();
        for c in family.configs() {
            let old = self.by_config.insert(c.name, i);
            assert!(old.is_none(), "config {} registered twice", c.name);
        }
        self.families.push(family);
        self.generations.extend(generation);
        self
    }

    /// This registry plus one more family without a command (tests
    /// register toy families so).
    pub fn with(self, family: &'static dyn TaskFamily) -> Registry {
        self.add(family, None)
    }

    /// Every family saturate ships: one line per family.
    pub fn builtin() -> Registry {
        use super::{eq, equiv, pl, tptp};
        let r = Registry::default()
            .add(&tptp::family::TPTP, Some(&tptp::family::TptpGeneration))
            .add(&pl::family::PL1, Some(&pl::family::PlGeneration))
            .add(&pl::family::PL2, None)
            .add(&eq::family::EQ, Some(&eq::family::EqGeneration))
            .add(&equiv::family::EQUIV, Some(&equiv::family::EquivGeneration));
        #[cfg(feature = "toy-family")]
        let r = r.add(&super::toy::TOY, Some(&super::toy::ToyGeneration));
        r
    }

    /// [`Registry::builtin`], made once per process (the configuration and
    /// the trace renderer look families up per section and per row).
    pub fn shared() -> &'static Registry {
        static SHARED: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
        SHARED.get_or_init(Registry::builtin)
    }

    /// The family that writes config `name`.
    pub fn family_of(&self, config: &str) -> Option<&'static dyn TaskFamily> {
        self.by_config.get(config).map(|&i| self.families[i])
    }

    /// The registered families.
    pub fn families(&self) -> &[&'static dyn TaskFamily] {
        &self.families
    }

    /// The generate commands of the registered families, in registry
    /// order.
    pub fn generations(&self) -> Vec<&'static dyn Generation> {
        self.generations.clone()
    }

    /// The generate command named `name` (also its section's name).
    pub fn generation(&self, name: &str) -> Option<&'static dyn Generation> {
        self.generations.iter().copied().find(|g| g.name() == name)
    }

    /// The configuration sections of the registered families, in registry
    /// order (`[tasks.<name>]`).
    pub fn sections(&self) -> Vec<SectionInfo> {
        self.generations.iter().map(|g| g.section()).collect()
    }

    /// The trace of a row of config `task` (its `task` column) from its
    /// parsed `metadata` and `certificate` columns, rendered by the family
    /// that writes the config ([`TaskFamily::trace`]; the renderers and
    /// their rules are in [`super::trace`]), or `None` when there is
    /// nothing to render: an unknown config, or a row its family renders
    /// nothing for.
    pub fn trace(&self, task: &str, metadata: &Value, certificate: &Value) -> Option<String> {
        let lines = self.family_of(task)?.trace(task, metadata, certificate)?;
        (!lines.is_empty()).then(|| lines.join("\n"))
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
