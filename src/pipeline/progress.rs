//! Progress on long work: an indicatif bar when stderr is a terminal, plain
//! tracing log lines at every tenth of the work otherwise (batch jobs, CI).

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};

/// A progress reporter for one unit of work with a known or unknown total.
pub struct Progress {
    bar: Option<ProgressBar>,
    label: String,
    total: u64,
    next_log: AtomicU64,
}

impl Progress {
    /// A reporter; `total` = 0 means unknown. `enabled` = false is silent.
    pub fn new(label: &str, total: u64, enabled: bool) -> Self {
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let b = if total > 0 {
                ProgressBar::new(total)
            } else {
                ProgressBar::new_spinner()
            };
            b.set_style(
                ProgressStyle::with_template("{prefix:>12} [{bar:30}] {pos}/{len} {per_sec} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            b.set_prefix(label.to_string());
            b
        });
        Progress {
            bar,
            label: label.to_string(),
            total: if enabled { total } else { 0 },
            next_log: AtomicU64::new(if total > 0 { total / 10 } else { u64::MAX }),
        }
    }

    /// A reporter that says nothing.
    pub fn silent() -> Self {
        Self::new("", 0, false)
    }

    /// Reports that `done` units are complete.
    pub fn tick(&self, done: u64) {
        if let Some(b) = &self.bar {
            if done % 64 == 0 || done == self.total {
                b.set_position(done);
            }
            return;
        }
        let next = self.next_log.load(Ordering::Relaxed);
        if self.total > 0 && done >= next && next > 0 {
            self.next_log
                .store(next + (self.total / 10).max(1), Ordering::Relaxed);
            tracing::info!(
                "{}: {}/{} ({}%)",
                self.label,
                done,
                self.total,
                done * 100 / self.total
            );
        }
    }

    /// Ends the bar with a message.
    pub fn finish(&self, msg: &str) {
        if let Some(b) = &self.bar {
            b.finish_with_message(msg.to_string());
        }
    }
}
