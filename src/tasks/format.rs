//! Answer formats for training columns: how a gold answer is wrapped in a
//! completion and which sentence tells a model to wrap its own answer that
//! way. Every rendered form is read back by [`super::answer::extract`], so a
//! gold completion in any format scores 1.
//!
//! Rules (one per format, the same for every task):
//!
//! - [`AnswerFormat::Plain`]: the answer as it is; no instruction, since
//!   every prompt already says what to answer and in which notation.
//! - [`AnswerFormat::Tags`]: `<answer>X</answer>` when the answer is one
//!   line, else `<answer>`, the answer's lines, `</answer>` each on their
//!   own lines. Surrounding whitespace of the answer is trimmed.
//! - [`AnswerFormat::Json`]: one object with the single key `answer`. When
//!   the answer is itself a JSON object (proof checking, proof writing,
//!   masking, the EQ tasks), it is the value as written, so
//!   `{"correct":true,"errorDetails":{}}` becomes
//!   `{"answer": {"correct":true,"errorDetails":{}}}`; any other answer
//!   (a word, a list such as `[1, 4]`, graph lines, gap sections) is a JSON
//!   string, its line breaks escaped: `{"answer": "[1, 4]"}`. The extractor
//!   gives a string value back unescaped and any other value as written.

use std::fmt;
use std::str::FromStr;

/// How a completion wraps its final answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AnswerFormat {
    /// The bare answer, as the `answer` column holds it.
    #[default]
    Plain,
    /// The answer inside `<answer></answer>` tags.
    Tags,
    /// A final JSON object `{"answer": ...}`.
    Json,
}

impl AnswerFormat {
    /// Every format, in a fixed order.
    pub const ALL: [AnswerFormat; 3] =
        [AnswerFormat::Plain, AnswerFormat::Tags, AnswerFormat::Json];

    /// The format's name, as [`FromStr`] reads it: `plain`, `tags` or `json`.
    pub fn name(&self) -> &'static str {
        match self {
            AnswerFormat::Plain => "plain",
            AnswerFormat::Tags => "tags",
            AnswerFormat::Json => "json",
        }
    }

    /// The sentence appended to a prompt telling the model how to wrap its
    /// final answer; `None` for [`AnswerFormat::Plain`], whose prompts
    /// already say what to answer.
    pub fn instruction(&self) -> Option<&'static str> {
        match self {
            AnswerFormat::Plain => None,
            AnswerFormat::Tags => Some(
                "Write your final answer, exactly as asked above, inside <answer></answer> tags.",
            ),
            AnswerFormat::Json => Some(
                "End your reply with a JSON object of the form {\"answer\": ...} holding your final answer: the answer object itself when the answer asked for is a JSON object, otherwise the answer text as a JSON string.",
            ),
        }
    }

    /// `prompt` followed by a blank line and the format's
    /// [`instruction`](Self::instruction); the prompt unchanged for
    /// [`AnswerFormat::Plain`].
    pub fn apply_to_prompt(&self, prompt: &str) -> String {
        match self.instruction() {
            Some(i) => format!("{}\n\n{i}", prompt.trim_end()),
            None => prompt.to_string(),
        }
    }

    /// The gold answer `answer` wrapped in this format (see the module's
    /// rules).
    pub fn render(&self, answer: &str) -> String {
        let a = answer.trim();
        match self {
            AnswerFormat::Plain => answer.to_string(),
            AnswerFormat::Tags if a.contains('\n') => format!("<answer>\n{a}\n</answer>"),
            AnswerFormat::Tags => format!("<answer>{a}</answer>"),
            AnswerFormat::Json => {
                if is_json_object(a) {
                    format!("{{\"answer\": {a}}}")
                } else {
                    let s = serde_json::Value::String(a.to_string());
                    format!("{{\"answer\": {s}}}")
                }
            }
        }
    }
}

/// Whether `text` is exactly one JSON object.
fn is_json_object(text: &str) -> bool {
    text.starts_with('{')
        && serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v.is_object())
}

impl fmt::Display for AnswerFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for AnswerFormat {
    /// As its [`AnswerFormat::name`] (`plain`, `tags`, `json`).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl FromStr for AnswerFormat {
    type Err = String;

    /// Reads `plain`, `tags` or `json` (any case, surrounding spaces
    /// ignored); anything else is an error naming the choices.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        AnswerFormat::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(t))
            .ok_or_else(|| {
                let names: Vec<&str> = AnswerFormat::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "unknown answer format `{s}`: expected one of {}",
                    names.join(", ")
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::AnswerFormat::*;
    use super::*;
    use crate::tasks::answer::{AnswerShape, extract};
    use proptest::prelude::*;

    #[test]
    fn names_round_trip_and_unknown_names_list_the_choices() {
        for f in AnswerFormat::ALL {
            assert_eq!(f.name().parse::<AnswerFormat>(), Ok(f));
            assert_eq!(f.to_string(), f.name());
        }
        assert_eq!(" JSON ".parse::<AnswerFormat>(), Ok(Json));
        let e = "xml".parse::<AnswerFormat>().unwrap_err();
        assert!(
            e.contains("`xml`") && e.contains("plain, tags, json"),
            "{e}"
        );
    }

    #[test]
    fn instructions_and_prompts() {
        assert_eq!(Plain.instruction(), None);
        assert!(Tags.instruction().unwrap().contains("<answer></answer>"));
        assert!(Json.instruction().unwrap().contains("{\"answer\": ...}"));
        assert_eq!(Plain.apply_to_prompt("Q?\n"), "Q?\n");
        assert_eq!(
            Tags.apply_to_prompt("Q?\n"),
            format!("Q?\n\n{}", Tags.instruction().unwrap())
        );
    }

    #[test]
    fn renders_follow_the_rules() {
        assert_eq!(Plain.render("True"), "True");
        assert_eq!(Tags.render("True"), "<answer>True</answer>");
        assert_eq!(
            Tags.render("3 <- 1, 2\n5 <- 3, 4\n"),
            "<answer>\n3 <- 1, 2\n5 <- 3, 4\n</answer>"
        );
        assert_eq!(Json.render("[1, 4]"), r#"{"answer": "[1, 4]"}"#);
        assert_eq!(Json.render("a\nb"), r#"{"answer": "a\nb"}"#);
        let o = r#"{"correct":true,"errorDetails":{}}"#;
        assert_eq!(Json.render(o), format!(r#"{{"answer": {o}}}"#));
        // Not an object: a string, even when it is other JSON.
        assert_eq!(Json.render("[1, 2]"), r#"{"answer": "[1, 2]"}"#);
        assert_eq!(Json.render("{ not json"), r#"{"answer": "{ not json"}"#);
    }

    #[test]
    fn every_format_extracts_back_for_every_shape() {
        let cases: [(AnswerShape, &str); 6] = [
            (AnswerShape::Word, "True"),
            (AnswerShape::List, "[1, 4]"),
            (
                AnswerShape::Json,
                r#"{"correct":false,"errorDetails":{"line":"assume A {","n":[1, 2]}}"#,
            ),
            (AnswerShape::Lines, "3 <- 1, 2\n5 <- 3, 4"),
            (
                AnswerShape::Sections("GAP-1:"),
                "GAP-1:\nA BY claim on A\n\nGAP-2:\n(~ B) BY mt on (A ==> B), (~ A)",
            ),
            (AnswerShape::Text, "{\n  A BY claim on A\n}"),
        ];
        for (shape, gold) in cases {
            for f in AnswerFormat::ALL {
                let r = f.render(gold);
                assert_eq!(extract(&r, shape), gold, "{f} {shape:?}: {r}");
                if f == Plain && shape == AnswerShape::Text {
                    // Free text in prose has no edge to find: the reason
                    // for the other formats.
                    continue;
                }
                let after = format!("Let me reason about it.\nIt holds.\n\n{r}");
                assert_eq!(extract(&after, shape), gold, "{f} {shape:?}: {after}");
            }
        }
    }

    #[test]
    fn json_answers_in_other_wrappers_and_prose() {
        let w = r#"{"answer": "True"}"#;
        for raw in [
            w.to_string(),
            format!("```json\n{w}\n```"),
            format!("Answer: {w}"),
            format!("<answer>{w}</answer>"),
            format!("I use {{braces}} and {{\"x\": 1}} first.\n{w}"),
            format!("{{\"answer\": \"False\"}} was a draft.\n{w}"),
            r#"{ "answer" : "True" }"#.to_string(),
        ] {
            assert_eq!(extract(&raw, AnswerShape::Word), "True", "{raw}");
        }
        // Other values keep the text written; objects with more keys are
        // the task's own answers, not the wrapper.
        assert_eq!(
            extract(r#"{"answer": [1, 4]}"#, AnswerShape::List),
            "[1, 4]"
        );
        let own = r#"{"answer": "x", "correct": true}"#;
        assert_eq!(extract(own, AnswerShape::Json), own);
        assert_eq!(
            extract(r#"{"answer": {"masks": {}}}"#, AnswerShape::Json),
            r#"{"masks": {}}"#
        );
    }

    proptest! {
        #[test]
        fn any_text_answer_survives_the_json_and_tag_formats(
            lines in proptest::collection::vec("[A-Za-z0-9 ()<>~|=,.:-]{1,30}", 1..5),
        ) {
            let gold: Vec<String> = lines
                .iter()
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty())
                .collect();
            prop_assume!(!gold.is_empty());
            let gold = gold.join("\n");
            prop_assume!(!gold.to_ascii_lowercase().contains("answer"));
            for f in [Tags, Json] {
                let r = f.render(&gold);
                prop_assert_eq!(extract(&r, AnswerShape::Text), gold.clone(), "{}", r);
            }
        }
    }
}
