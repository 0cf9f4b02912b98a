//! How a generated row is presented for training, from the `[dataset]`
//! options: the answer format's instruction appended to the prompt, the
//! gold completion in that format, the optional readable trace, and the
//! split group the writer keeps in one split. `verify` checks stored rows
//! against the same rules ([`Presenter::check`]), and `merge` recomputes
//! the groups with them.

use crate::config::{BadValue, DatasetOptions};
use crate::dataset::{DatasetSpec, Manifest, Presentation, Provenance, Record, Row};
use crate::tasks::family::TaskFamily;
use crate::tasks::format::AnswerFormat;

pub use crate::dataset::splits::SplitBy;

/// The presentation rules of one dataset.
#[derive(Clone, Debug)]
pub struct Presenter {
    /// The answer format.
    pub format: AnswerFormat,
    /// The system turn of `messages`.
    pub system_prompt: String,
    /// Whether rows get a `trace`.
    pub trace: bool,
    /// The split grouping.
    pub split_by: SplitBy,
}

impl Presenter {
    /// The rules of `[dataset]` (validated: the error names the key).
    pub fn from_options(o: &DatasetOptions) -> Result<Presenter, BadValue> {
        o.validate()?;
        Ok(Presenter {
            format: o.answer_format,
            system_prompt: o.system_prompt.clone(),
            trace: o.trace,
            split_by: o.split_by,
        })
    }

    /// The rules a dataset was written with, from its manifest.
    pub fn from_manifest(m: &Manifest) -> Result<Presenter, String> {
        Ok(Presenter {
            format: m.presentation.answer_format.parse()?,
            system_prompt: m.presentation.system_prompt.clone(),
            trace: false,
            split_by: if m.split_group.is_empty() {
                SplitBy::Theorem
            } else {
                m.split_group.parse().map_err(|e| format!("split_by {e}"))?
            },
        })
    }

    /// The presentation block of the manifest and card.
    pub fn presentation(&self) -> Presentation {
        Presentation {
            answer_format: self.format.name().to_string(),
            instruction: self.format.instruction().unwrap_or_default().to_string(),
            system_prompt: self.system_prompt.clone(),
        }
    }

    /// Appends the format's instruction to the prompt and fills the
    /// completion (and the trace, when asked for) of a freshly built row.
    pub fn present(&self, r: &mut Record) {
        r.prompt = self.format.apply_to_prompt(&r.prompt);
        r.completion = self.format.render(&r.answer);
        if self.trace {
            r.trace = trace_of(r);
        }
    }

    /// The prompt a model is shown for a family prompt `rendered` afresh.
    pub fn prompt_for(&self, rendered: &str) -> String {
        self.format.apply_to_prompt(rendered)
    }

    /// Checks a stored row's completion and `messages` against its answer
    /// and prompt; the error says what differs.
    pub fn check(&self, row: &Row) -> Result<(), String> {
        let completion = self.format.render(&row.answer);
        if row.completion != completion {
            return Err(format!(
                "completion {:?} is not the gold answer in the `{}` format ({:?})",
                crate::tptp::excerpt(&row.completion, 60),
                self.format.name(),
                crate::tptp::excerpt(&completion, 60)
            ));
        }
        let expected = [
            ("system", self.system_prompt.as_str()),
            ("user", row.prompt.as_str()),
            ("assistant", row.completion.as_str()),
        ];
        let same = row.messages.len() == expected.len()
            && row
                .messages
                .iter()
                .zip(expected)
                .all(|((r, c), (er, ec))| r == er && c == ec);
        if !same {
            return Err(
                "messages are not [system prompt, prompt, completion] as the manifest states"
                    .into(),
            );
        }
        Ok(())
    }

    /// The split group of a row written by `family`.
    pub fn group(&self, r: &Record, family: Option<&dyn TaskFamily>) -> String {
        match self.split_by {
            SplitBy::Theorem => family
                .and_then(|f| f.split_group(r))
                .unwrap_or_else(|| format!("id:{}", r.id)),
            SplitBy::Source => match &r.source {
                Some(s) => format!("source:{s}"),
                None => format!("id:{}", r.id),
            },
        }
    }
}

/// The dataset spec of a run with the `[dataset]` options `o` (validated:
/// the error names the key).
pub fn spec(
    o: &DatasetOptions,
    name: &str,
    seed: u64,
    config: serde_json::Value,
    max_rows_per_shard: usize,
    provenance: Provenance,
) -> Result<DatasetSpec, BadValue> {
    let presenter = Presenter::from_options(o)?;
    let mut spec = DatasetSpec::new(name, seed, config);
    spec.max_rows_per_shard = max_rows_per_shard;
    spec.split_percent = o.split;
    spec.split_group = o.split_by.name().to_string();
    spec.presentation = presenter.presentation();
    spec.format = o.format;
    spec.provenance = provenance;
    Ok(spec)
}

/// The row's certificate as a readable derivation, when it holds one.
fn trace_of(r: &Record) -> Option<String> {
    let meta: serde_json::Value = serde_json::from_str(&r.metadata).ok()?;
    let cert: serde_json::Value = serde_json::from_str(&r.certificate).ok()?;
    crate::tasks::registry::Registry::shared().trace(&r.task, &meta, &cert)
}
