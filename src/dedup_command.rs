//! `saturate dedup`: the command-line face of [`saturate::pipeline::dedup`]
//! (rows of a dataset that an earlier row, its train split or a reference
//! dataset already poses, up to variable renaming and clause order).

use clap::Args;
use saturate::pipeline::RunError;
use std::path::PathBuf;

/// The arguments of `saturate dedup`.
#[derive(Args, Debug)]
pub struct DedupArgs {
    /// The dataset folder to check (holding manifest.json).
    dataset: PathBuf,
    /// A reference dataset folder (a training set, another seed, another
    /// release): count the rows of DATASET whose problem it poses.
    reference: Option<PathBuf>,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Runs `saturate dedup`: prints the report (exit 0; an unreadable dataset
/// is an input error, exit 2).
pub fn run(args: &DedupArgs) -> Result<(), RunError> {
    let report = saturate::pipeline::dedup::dedup(&args.dataset, args.reference.as_deref())?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).expect("a report serialises")
        );
    } else {
        println!("{}", report.render());
    }
    Ok(())
}
