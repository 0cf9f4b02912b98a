//! The dataset card (`README.md`), publishable on the Hugging Face Hub as
//! is: YAML front matter (licence, language, task categories, size
//! category, a default `all` config beside one config per task, and
//! `dataset_info` with typed features, split sizes and the content
//! fingerprint, so no cache keyed on the card confuses two datasets), then
//! the description, how the rows were generated, loading, fields, the
//! training formats, per-level counts and label balance, one example row
//! per config, how to score, the run's sections (yields, shortcut audit),
//! limitations, licence and citations.

use super::manifest::Manifest;
use super::{DatasetSpec, Provenance, Record, Split};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Per config and level: rows per split, and the count of each short
/// answer (the label balance of classification tasks).
#[derive(Clone, Debug, Default)]
pub(crate) struct CardStats {
    /// config → level → rows in train, validation, test.
    pub levels: BTreeMap<String, BTreeMap<Option<u32>, [u64; 3]>>,
    /// config → level → answer → rows (answers that are one short word).
    pub labels: BTreeMap<String, BTreeMap<Option<u32>, BTreeMap<String, u64>>>,
}

/// The answer as a class label, when it is one short word (`True`,
/// `correct`...); longer answers have no label balance to show.
pub(crate) fn label_of(answer: &str) -> Option<String> {
    let a = answer.trim();
    (!a.is_empty() && a.len() <= 16 && a.chars().all(|c| c.is_ascii_alphabetic()))
        .then(|| a.to_string())
}

/// What each column holds, for the card's field table, with its type.
const FIELDS: [(&str, &str, &str); 12] = [
    (
        "id",
        "string",
        "stable instance id, unique in the dataset; rows are sorted by it",
    ),
    ("task", "string", "task name (the config it belongs to)"),
    (
        "domain",
        "string",
        "axiom domain, when the task has one (null otherwise)",
    ),
    (
        "source",
        "string",
        "the generator or axiom file the instance came from",
    ),
    ("level", "int64", "difficulty level, 1 (easiest) upwards"),
    (
        "prompt",
        "string",
        "the full text shown to the model, ending with the answer format's instruction",
    ),
    (
        "answer",
        "string",
        "the gold answer proper, as the scorer reads it",
    ),
    (
        "completion",
        "string",
        "the gold answer written in the dataset's answer format (TRL prompt/completion)",
    ),
    (
        "messages",
        "list of {role, content}",
        "system, user (the prompt) and assistant (the completion) turns (TRL conversational)",
    ),
    (
        "trace",
        "string",
        "the certificate as a readable step-by-step derivation, when the run wrote traces (null otherwise)",
    ),
    (
        "metadata",
        "string",
        "JSON object: generation parameters, difficulty features, statistics",
    ),
    (
        "certificate",
        "string",
        "JSON object: the label's verdict and the evidence that certifies it",
    ),
];

/// The `features` of `dataset_info`, in schema order.
const FEATURES_YAML: &str = "  features:
  - name: id
    dtype: string
  - name: task
    dtype: string
  - name: domain
    dtype: string
  - name: source
    dtype: string
  - name: level
    dtype: int64
  - name: prompt
    dtype: string
  - name: answer
    dtype: string
  - name: completion
    dtype: string
  - name: messages
    list:
    - name: role
      dtype: string
    - name: content
      dtype: string
  - name: trace
    dtype: string
  - name: metadata
    dtype: string
  - name: certificate
    dtype: string
";

/// The Hub's size category of a row count.
fn size_category(rows: u64) -> &'static str {
    match rows {
        0..1_000 => "n<1K",
        1_000..10_000 => "1K<n<10K",
        10_000..100_000 => "10K<n<100K",
        100_000..1_000_000 => "100K<n<1M",
        1_000_000..10_000_000 => "1M<n<10M",
        _ => "10M<n<100M",
    }
}

/// A YAML scalar: JSON strings are valid YAML, so this quotes safely.
fn q(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// The longest example prompt shown in the card, in lines.
const EXAMPLE_LINES: usize = 40;

/// `text` cut to [`EXAMPLE_LINES`] lines, saying how many were left out.
fn clip(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= EXAMPLE_LINES {
        return text.trim_end().to_string();
    }
    format!(
        "{}\n[... {} more lines]",
        lines[..EXAMPLE_LINES].join("\n"),
        lines.len() - EXAMPLE_LINES
    )
}

/// A fenced block whose fence is longer than any backtick run inside.
fn fenced(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}text\n{text}\n{fence}")
}

const CITATIONS: &str = "```bibtex
@misc{quesnel2025saturation,
  title  = {Saturation-Driven Dataset Generation for {LLM} Mathematical Reasoning in the {TPTP} Ecosystem},
  author = {Quesnel, Valentin and Sileo, Damien},
  year   = {2025}
}
@misc{arkoudas2025proofgrid,
  title  = {Stress-Testing the Reasoning Competence of Language Models With Formal Proofs},
  author = {Arkoudas, Konstantine and Batzoglou, Serafim},
  year   = {2025}
}
@article{sutcliffe2017tptp,
  title   = {The {TPTP} Problem Library and Associated Infrastructure. From {CNF} to {TH0}, {TPTP} v6.4.0},
  author  = {Sutcliffe, Geoff},
  journal = {Journal of Automated Reasoning},
  volume  = {59},
  number  = {4},
  pages   = {483--502},
  year    = {2017}
}
@inproceedings{puzis2006agint,
  title     = {Automated Generation of Interesting Theorems},
  author    = {Puzis, Yury and Gao, Yi and Sutcliffe, Geoff},
  booktitle = {Proceedings of the 19th International FLAIRS Conference},
  year      = {2006}
}
```";

/// Renders the card. Depends only on its arguments, so it is deterministic.
pub(crate) fn render(
    spec: &DatasetSpec,
    manifest: &Manifest,
    descriptions: &BTreeMap<String, String>,
    sections: &[(String, String)],
    examples: &BTreeMap<String, Record>,
    stats: &CardStats,
) -> String {
    let mut s = String::new();
    front_matter(&mut s, spec, manifest);
    let _ = writeln!(s, "# {}\n", spec.name);
    if !spec.description.trim().is_empty() {
        let _ = writeln!(s, "{}\n", spec.description.trim_end());
    }
    generation(&mut s, spec, manifest);
    loading(&mut s, manifest);
    s.push_str("## Fields\n\n| field | type | content |\n|---|---|---|\n");
    for (f, t, d) in FIELDS {
        let _ = writeln!(s, "| `{f}` | {t} | {d} |");
    }
    training_formats(&mut s, spec);
    counts(&mut s, manifest, stats);
    let described: Vec<_> = manifest
        .configs
        .keys()
        .filter(|k| descriptions.contains_key(*k) || examples.contains_key(*k))
        .collect();
    if !described.is_empty() {
        s.push_str("\n## Tasks\n");
        for k in described {
            let _ = writeln!(s, "\n### `{k}`\n");
            if let Some(d) = descriptions.get(k) {
                let _ = writeln!(s, "{}\n", d.trim_end());
            }
            if let Some(r) = examples.get(k) {
                let _ = writeln!(
                    s,
                    "Example (`{}`), prompt:\n\n{}\n\ngold answer:\n\n{}",
                    r.id,
                    fenced(&clip(&r.prompt)),
                    fenced(&clip(&r.answer))
                );
            }
        }
    }
    scoring(&mut s);
    for (title, body) in sections {
        let _ = writeln!(s, "\n## {title}\n\n{}", body.trim_end());
    }
    limitations(&mut s);
    licence(&mut s, spec.provenance);
    s
}

/// Split name → (rows, bytes).
type SplitSizes<'a> = BTreeMap<&'a str, (u64, u64)>;

fn front_matter(s: &mut String, spec: &DatasetSpec, manifest: &Manifest) {
    s.push_str("---\n");
    let _ = writeln!(s, "pretty_name: {}", q(&spec.name));
    match spec.provenance {
        Provenance::Original => s.push_str("license: cc-by-4.0\n"),
        Provenance::Tptp => s.push_str(
            "license: other\nlicense_name: tptp-derived\nlicense_link: https://www.tptp.org\n",
        ),
    }
    s.push_str("language:\n- en\n");
    s.push_str("task_categories:\n- text-generation\n- question-answering\n");
    let _ = writeln!(
        s,
        "size_categories:\n- {}",
        size_category(manifest.total_rows)
    );
    s.push_str(
        "tags:\n- logic\n- reasoning\n- theorem-proving\n- first-order-logic\n- synthetic\n",
    );
    let ext = manifest.format.extension();
    s.push_str("configs:\n- config_name: all\n  default: true\n  data_files:\n");
    let present = |sp: Split| {
        manifest
            .configs
            .values()
            .any(|c| c.splits.contains_key(sp.name()))
    };
    for split in Split::ALL.into_iter().filter(|sp| present(*sp)) {
        let _ = writeln!(s, "  - split: {}", split.name());
        let _ = writeln!(s, "    path: {}", q(&format!("*/{}-*.{ext}", split.name())));
    }
    for (name, counts) in &manifest.configs {
        let _ = writeln!(s, "- config_name: {name}");
        s.push_str("  data_files:\n");
        for split in Split::ALL {
            if counts.splits.contains_key(split.name()) {
                let _ = writeln!(s, "  - split: {}", split.name());
                let _ = writeln!(s, "    path: {name}/{}-*.{ext}", split.name());
            }
        }
    }
    s.push_str("dataset_info:\n");
    let info = |s: &mut String, name: &str, splits: &SplitSizes| {
        let _ = writeln!(s, "- config_name: {name}");
        let _ = writeln!(
            s,
            "  description: {}",
            q(&format!(
                "saturate {} seed {}, content fingerprint {}",
                manifest.engine_version, manifest.seed, manifest.content_fingerprint
            ))
        );
        s.push_str(FEATURES_YAML);
        s.push_str("  splits:\n");
        let mut total = 0;
        for split in Split::ALL {
            if let Some((rows, bytes)) = splits.get(split.name()) {
                let _ = writeln!(
                    s,
                    "  - name: {}\n    num_bytes: {bytes}\n    num_examples: {rows}",
                    split.name()
                );
                total += bytes;
            }
        }
        let _ = writeln!(s, "  download_size: {total}\n  dataset_size: {total}");
    };
    let mut all: SplitSizes = BTreeMap::new();
    let mut per: Vec<(&str, SplitSizes)> = Vec::new();
    for (name, counts) in &manifest.configs {
        let mut m = BTreeMap::new();
        for (split, c) in &counts.splits {
            let bytes: u64 = c.shards.iter().map(|x| x.bytes).sum();
            m.insert(split.as_str(), (c.rows, bytes));
            let e = all.entry(split.as_str()).or_default();
            e.0 += c.rows;
            e.1 += bytes;
        }
        per.push((name, m));
    }
    info(s, "all", &all);
    for (name, m) in &per {
        info(s, name, m);
    }
    s.push_str("---\n\n");
}

fn generation(s: &mut String, spec: &DatasetSpec, manifest: &Manifest) {
    s.push_str("## How it was generated\n\n");
    let _ = writeln!(
        s,
        "Generated by saturate {} with seed {}. Every label was decided by saturate's built-in \
         prover and its certificate re-checked by an independent checker (`saturate verify` \
         checks them again, with every prompt rendered anew from the row's metadata). The same \
         engine version, configuration and seed regenerate these files byte for byte, whatever \
         the thread count or the number of shards (`saturate merge` joins shards into exactly \
         the unsharded files). `manifest.json` holds the full configuration and, per shard, its \
         row count, its SHA-256 and a fingerprint of its decoded rows (a shard re-encoded with \
         the same rows, by pyarrow say, still verifies); the dataset's content fingerprint is \
         `{}`.\n",
        manifest.engine_version, manifest.seed, manifest.content_fingerprint
    );
    let [tr, va, te] = spec.split_percent;
    let _ = writeln!(
        s,
        "Splits: {tr}/{va}/{te} (train/validation/test), stratified by config and level and \
         grouped by {}: every row of a group is in one split, whatever its config or level, so \
         no {} of a test row appears in training. Each split of a (config, level) cell is \
         non-empty when the cell has at least three groups.\n",
        spec.split_group, spec.split_group
    );
    s.push_str(
        "This folder is complete: it was renamed into place only after every shard, this card, \
         `summary.json` and `manifest.json` (`\"complete\": true`) were written and the run \
         finished.\n\n",
    );
    let _ = writeln!(
        s,
        "Configuration (as in `manifest.json`):\n\n```json\n{}\n```\n",
        serde_json::to_string_pretty(&spec.config).unwrap_or_default()
    );
}

fn loading(s: &mut String, manifest: &Manifest) {
    s.push_str("## Loading\n\n```python\nimport datasets\n\n");
    s.push_str("# Every task together (the default `all` config):\n");
    s.push_str("ds = datasets.load_dataset(\"path/to/this/dir\")\n");
    if let Some(first) = manifest.configs.keys().next() {
        s.push_str("# One task:\n");
        let _ = writeln!(
            s,
            "ds = datasets.load_dataset(\"path/to/this/dir\", \"{first}\")"
        );
    }
    s.push_str("```\n\n");
    let names: Vec<String> = manifest.configs.keys().map(|k| format!("`{k}`")).collect();
    let _ = writeln!(s, "Configs: `all`, {}.\n", names.join(", "));
}

fn training_formats(s: &mut String, spec: &DatasetSpec) {
    let p = &spec.presentation;
    s.push_str("\n## Training formats\n\n");
    let _ = writeln!(
        s,
        "Answer format: `{}`. {}",
        p.answer_format,
        if p.instruction.is_empty() {
            "Prompts say what to answer and the completion is the bare gold answer.".to_string()
        } else {
            format!(
                "Every prompt ends with the instruction {} and the completion is the gold \
                 answer written that way.",
                q(&p.instruction)
            )
        }
    );
    s.push_str(
        "\n- `prompt` / `completion`: TRL's standard prompt-completion format (SFT, and \
         GRPO with `prompt`).\n- `messages`: TRL's conversational format: a system turn, the \
         prompt as the user turn, the completion as the assistant turn.\n- `trace`: the \
         certificate as a readable derivation (the refutation's steps with rule and parents for \
         TPTP tasks, the natural-deduction proof for PL, the rewrite chain for EQ), for \
         reasoning fine-tuning; null unless the run was asked for traces.\n\n",
    );
    let _ = writeln!(s, "System prompt: {}", q(&p.system_prompt));
}

fn counts(s: &mut String, manifest: &Manifest, stats: &CardStats) {
    s.push_str("\n## Configs, levels and counts\n\n");
    s.push_str(
        "| config | level | train | validation | test | total | label balance |\n\
         |---|---:|---:|---:|---:|---:|---|\n",
    );
    for (name, counts) in &manifest.configs {
        if let Some(levels) = stats.levels.get(name) {
            for (level, rows) in levels {
                let labels = stats
                    .labels
                    .get(name)
                    .and_then(|l| l.get(level))
                    .map(|m| {
                        m.iter()
                            .map(|(k, v)| format!("{k} {v}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .unwrap_or_default();
                let _ = writeln!(
                    s,
                    "| `{name}` | {} | {} | {} | {} | {} | {} |",
                    level.map_or("-".to_string(), |l| l.to_string()),
                    rows[0],
                    rows[1],
                    rows[2],
                    rows.iter().sum::<u64>(),
                    if labels.is_empty() { "-" } else { &labels }
                );
            }
        }
        let n = |sp: Split| counts.splits.get(sp.name()).map_or(0, |c| c.rows);
        let _ = writeln!(
            s,
            "| `{name}` | all | {} | {} | {} | {} | |",
            n(Split::Train),
            n(Split::Validation),
            n(Split::Test),
            counts.rows
        );
    }
    let _ = writeln!(s, "\nTotal rows: {}.", manifest.total_rows);
}

fn scoring(s: &mut String) {
    s.push_str(
        "\n## How to score\n\nWrite the model's replies as JSON Lines `{\"id\": ..., \
         \"answer\": ...}` and run\n\n```sh\nsaturate score --dataset path/to/this/dir \
         --answers answers.jsonl --json\n```\n\nor, in Python, \
         `saturate.score(row, completion)` / `saturate.score_batch(rows, completions)` (the \
         `python/` package; `saturate.rewards.saturate_reward` is a TRL GRPO reward function). \
         Replies may be written as models write them: one shared extractor takes the answer \
         out of `<answer>...</answer>` tags, a final `Answer:` line, `\\boxed{}`, a code \
         fence, a final JSON object `{\"answer\": ...}`, reasoning with the answer last, \
         Markdown emphasis and a trailing period. Each task's scorer then decides: labels by \
         comparison, premise selections against the certified minimum answers (any other \
         selection scores 0; a sufficient superset's size credit is a sub-metric), proofs and reconstructions with the checker. \
         Each answer also gets one verdict: `ok` (full credit), `wrong` (partial or no \
         credit), `malformed` (no answer could be read), `cheating` (no credit: the answer \
         uses what the task forbids, such as a premise or clause outside the pool or graph, \
         an equation the problem does not list, the goal assumed as a premise, or an NDL_f \
         step past the limits that close its shortcuts) or `timeout` (a prover check ran out \
         of its budget: neither credited nor blamed). The summary gives the count of each \
         verdict, the mean over all rows (an unanswered row counts 0), the mean over \
         answered rows (timeouts left out) and the format-compliance rate, per task and \
         level.\n",
    );
}

fn limitations(s: &mut String) {
    s.push_str(
        "\n## Limitations\n\n- The logic is classical first-order (TPTP tasks), \
         propositional (PL) or equational (EQ); prompts are formal notation, not natural \
         language.\n- Difficulty levels are set by construction (proof depth, premises, \
         distractors, proof length); what a level means differs between tasks.\n- Labels are \
         exact for what they state: \"not entailed\" is certified by a finite countermodel, \
         so it says nothing about infinite-only models beyond the certificate.\n- The shortcut \
         audit above bounds what shallow surface features predict; cells it marks are listed \
         there and in `summary.json`, and are better kept out of evaluation.\n- Rows of one \
         axiom file share symbols and axioms across splits unless the dataset was split by \
         source.\n",
    );
}

fn licence(s: &mut String, provenance: Provenance) {
    s.push_str("\n## Licence and citation\n\n");
    match provenance {
        Provenance::Original => s.push_str(
            "The rows were generated from saturate's own axiom files or from scratch and are \
             released under CC BY 4.0. The saturate code is MIT OR Apache-2.0.\n",
        ),
        Provenance::Tptp => s.push_str(
            "The rows are derived from axiom files of the TPTP Problem Library (Geoff \
             Sutcliffe, https://www.tptp.org), which is freely distributed for research; its \
             terms apply to this data, and the TPTP asks that work using it cite Sutcliffe \
             (2017), below. The saturate code is MIT OR Apache-2.0.\n",
        ),
    }
    let _ = writeln!(
        s,
        "\nThe tasks follow these papers (saturation-driven TPTP tasks; ProofGrid's PL and EQ \
         tasks); the interestingness ranking follows AGInTRater:\n\n{CITATIONS}"
    );
}
