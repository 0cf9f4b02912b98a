//! Staging folders: the temporary folders a run writes into before renaming
//! its outputs into place (a dataset beside `--out`, an artifact under
//! `artifacts/`, an atomically written file). Each one holds a marker file
//! naming the process that made it (host, boot, pid and the process's start
//! time), so a later run removes only the leftovers it can show a dead
//! saturate process made. Anything else, whatever its name, is left alone:
//! a user's `data.old-2023/` beside `--out data` is never deleted.
//!
//! A process killed between making the folder and finishing its marker
//! leaves a folder that is empty or holds a marker cut short. Its name
//! (`<stem><pid>-<k>-<tag>`, the tag a hash of host and boot id) says which
//! process of which machine and boot made it, so such a folder of this
//! machine is removed once no process of that pid runs here; holding no
//! data, removing it loses nothing.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// The marker file inside every staging folder.
pub const MARKER: &str = ".saturate-staging";

/// The marker's first line; a file without it is not a marker.
const MAGIC: &str = "saturate staging folder";

/// Largest marker read (a real one is about 150 bytes).
const MAX_MARKER_BYTES: u64 = 4096;

/// Names tried per staging folder before giving up (an existing entry of
/// that name, whoever made it, is skipped, never replaced).
const MAX_TRIES: u32 = 10_000;

/// Who made a staging folder: enough to tell, on the same machine, whether
/// that process is still running (a reused pid has another start time).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Owner {
    host: String,
    boot: String,
    pid: u32,
    start: u64,
}

impl Owner {
    fn text(&self) -> String {
        format!(
            "{MAGIC}: a later saturate run removes it once the process below has ended\nhost={}\nboot={}\npid={}\nstart={}\n",
            self.host, self.boot, self.pid, self.start
        )
    }

    fn parse(text: &str) -> Option<Owner> {
        let mut lines = text.lines();
        if !lines.next()?.starts_with(MAGIC) {
            return None;
        }
        let mut field = |key: &str| {
            lines
                .next()
                .and_then(|l| l.strip_prefix(key))
                .and_then(|l| l.strip_prefix('='))
                .map(str::to_string)
        };
        Some(Owner {
            host: field("host")?,
            boot: field("boot")?,
            pid: field("pid")?.parse().ok()?,
            start: field("start")?.parse().ok()?,
        })
    }
}

/// The start time of process `pid` in clock ticks since boot (field 22 of
/// `/proc/<pid>/stat`), `None` when there is no such process (or no `/proc`).
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')')?.1;
    rest.split_whitespace().nth(19)?.parse().ok()
}

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| {
            s.trim()
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
                .collect::<String>()
        })
        .filter(|s| !s.is_empty())
}

/// This process, or `None` where `/proc` does not say (then no staging
/// folder is ever judged dead).
fn me() -> Option<&'static Owner> {
    static ME: OnceLock<Option<Owner>> = OnceLock::new();
    ME.get_or_init(|| {
        let pid = std::process::id();
        Some(Owner {
            host: read_trimmed("/proc/sys/kernel/hostname").unwrap_or_else(|| "host".into()),
            boot: read_trimmed("/proc/sys/kernel/random/boot_id")?,
            pid,
            start: start_time(pid)?,
        })
    })
    .as_ref()
}

/// The name tag of staging folders made on this machine in this boot:
/// 12 hex digits of a 64-bit FNV-1a hash of host and boot id (a fixed
/// function, so every process of one boot agrees), `None` where `/proc`
/// does not say.
fn my_tag() -> Option<&'static str> {
    static TAG: OnceLock<Option<String>> = OnceLock::new();
    TAG.get_or_init(|| {
        let me = me()?;
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in me.host.bytes().chain([b'\n']).chain(me.boot.bytes()) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        Some(format!("{:012x}", h >> 16))
    })
    .as_deref()
}

/// Creates a new staging folder `<parent>/<stem><pid>-<k>-<tag>` (the first
/// `k` whose name is free) holding the marker, and returns its path. Never
/// removes or enters an existing entry.
pub fn create(parent: &Path, stem: &str) -> std::io::Result<PathBuf> {
    let pid = std::process::id();
    let marker = me()
        .cloned()
        .unwrap_or(Owner {
            host: "unknown".into(),
            boot: "unknown".into(),
            pid,
            start: 0,
        })
        .text();
    let tag = my_tag().unwrap_or("unknown");
    for k in 0..MAX_TRIES {
        let dir = parent.join(format!("{stem}{pid}-{k}-{tag}"));
        match std::fs::create_dir(&dir) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
        if let Err(e) = std::fs::write(dir.join(MARKER), &marker) {
            let _ = std::fs::remove_dir_all(&dir);
            return Err(e);
        }
        return Ok(dir);
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        format!(
            "{}: {MAX_TRIES} staging names {stem}{pid}-* are all taken",
            parent.display()
        ),
    ))
}

/// Removes the staging folder `dir` made by [`create`]: everything in it
/// but the marker first, then the marker, then the folder, so a process
/// killed part way leaves a folder that is still marked (or empty) and a
/// later run can judge and remove it.
pub fn remove(dir: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_name() == MARKER {
            continue;
        }
        let path = entry.path();
        if std::fs::symlink_metadata(&path)?.is_dir() {
            std::fs::remove_dir_all(&path)?;
        } else {
            std::fs::remove_file(&path)?;
        }
    }
    match std::fs::remove_file(dir.join(MARKER)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    std::fs::remove_dir(dir)
}

/// What a folder found beside an output is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Staging {
    /// Not a staging folder (no marker, or not a folder): not ours to touch.
    NotOurs,
    /// A staging folder of a process that may still be running (or of
    /// another machine, or one this machine cannot judge).
    Live,
    /// A staging folder whose process has ended: safe to remove.
    Dead,
}

/// The marker text at `marker` (at most [`MAX_MARKER_BYTES`]), `None`
/// when it is not a regular file or cannot be read as text.
fn read_marker(marker: &Path) -> Option<String> {
    let is_file = std::fs::symlink_metadata(marker)
        .map(|m| m.is_file())
        .unwrap_or(false);
    if !is_file {
        return None;
    }
    let mut text = String::new();
    std::fs::File::open(marker)
        .and_then(|f| f.take(MAX_MARKER_BYTES).read_to_string(&mut text))
        .ok()?;
    Some(text)
}

/// The process that made the folder `path` if it is one [`create`] left
/// unfinished on this machine in this boot: named `...<pid>-<k>-<tag>` with
/// this machine's tag, and holding nothing but a marker that is a strict
/// prefix of the one `create` writes (empty included), or nothing at all.
fn unfinished(path: &Path) -> Option<u32> {
    let me = me()?;
    let name = path.file_name()?.to_str()?;
    let rest = name.strip_suffix(my_tag()?)?.strip_suffix('-')?;
    let (rest, k) = rest.rsplit_once('-')?;
    k.parse::<u32>().ok()?;
    let digits = rest.len() - rest.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let pid: u32 = rest[rest.len() - digits..].parse().ok()?;
    let mut entries = std::fs::read_dir(path).ok()?;
    let Some(first) = entries.next() else {
        return Some(pid);
    };
    if first.ok()?.file_name() != MARKER || entries.next().is_some() {
        return None;
    }
    let text = read_marker(&path.join(MARKER))?;
    let full = Owner {
        host: me.host.clone(),
        boot: me.boot.clone(),
        pid,
        start: 0,
    }
    .text();
    // Everything up to the start time, which this process cannot know.
    let head = &full[..full.len() - "0\n".len()];
    let cut = if text.len() <= head.len() {
        head.starts_with(&text)
    } else {
        text.starts_with(head) && text[head.len()..].bytes().all(|b| b.is_ascii_digit())
    };
    cut.then_some(pid)
}

/// Judges `path`: a real folder (not a symbolic link) holding a regular
/// marker file naming a process that has ended is [`Staging::Dead`]; so is
/// a folder [`create`] left unfinished on this machine (see the module
/// text) once no process of its pid runs.
pub fn judge(path: &Path) -> Staging {
    let is_dir = std::fs::symlink_metadata(path)
        .map(|m| m.is_dir())
        .unwrap_or(false);
    if !is_dir {
        return Staging::NotOurs;
    }
    let Some(owner) = read_marker(&path.join(MARKER)).and_then(|t| Owner::parse(&t)) else {
        return match unfinished(path) {
            Some(pid) if start_time(pid).is_some() => Staging::Live,
            Some(_) => Staging::Dead,
            None => Staging::NotOurs,
        };
    };
    let Some(me) = me() else {
        return Staging::Live;
    };
    if owner.host != me.host {
        return Staging::Live;
    }
    if owner.boot != me.boot {
        return Staging::Dead;
    }
    if start_time(owner.pid) == Some(owner.start) {
        Staging::Live
    } else {
        Staging::Dead
    }
}

/// Set once a run has said it left an unmarked look-alike alone.
static NOTED: AtomicBool = AtomicBool::new(false);

/// Removes the staging folders in `dir` whose names start with `prefix` and
/// hold `.tmp-` or `.old-` (or start with `tmp-`/`old-` after the prefix)
/// that processes now ended left behind (killed mid-write). Entries without
/// a marker are left alone (said once per run, at info level, which `-q`
/// hides); so are those of live processes. Returns the removed paths.
pub fn remove_stale(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return removed;
    };
    let mut names: Vec<(String, PathBuf)> = entries
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(n, _)| {
            n.strip_prefix(prefix).is_some_and(|rest| {
                rest.starts_with("tmp-")
                    || rest.starts_with("old-")
                    || rest.contains(".tmp-")
                    || rest.contains(".old-")
            })
        })
        .collect();
    names.sort();
    for (_, path) in names {
        match judge(&path) {
            Staging::Dead => {
                if remove(&path).is_ok() {
                    tracing::info!("removed {} left by an interrupted run", path.display());
                    removed.push(path);
                }
            }
            Staging::NotOurs => {
                if !NOTED.swap(true, Ordering::Relaxed) {
                    tracing::info!(
                        "left {} alone: its name looks like a saturate temporary but it holds no {MARKER} marker",
                        path.display()
                    );
                }
            }
            Staging::Live => {}
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_round_trips_and_rejects_lookalikes() {
        let o = Owner {
            host: "h".into(),
            boot: "b".into(),
            pid: 7,
            start: 99,
        };
        assert_eq!(Owner::parse(&o.text()), Some(o));
        assert_eq!(Owner::parse("backup\npid=7\n"), None);
        assert_eq!(Owner::parse(""), None);
    }

    #[test]
    fn only_marked_dead_folders_are_removed() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        // A user's folder and file with the old name patterns.
        std::fs::create_dir(d.join("data.old-2023")).unwrap();
        std::fs::write(d.join("data.old-2023/b.txt"), "backup").unwrap();
        std::fs::write(d.join("data.tmp-31337"), "keep").unwrap();
        // A look-alike marker that is not one.
        std::fs::create_dir(d.join("data.tmp-5")).unwrap();
        std::fs::write(d.join("data.tmp-5").join(MARKER), "pid=5\n").unwrap();
        // A live staging folder (this process) and a dead one (this
        // process's pid with another start time: a reused pid).
        let live = create(d, "data.tmp-").unwrap();
        let dead = create(d, "data.tmp-").unwrap();
        let mut owner = me().unwrap().clone();
        owner.start += 1;
        std::fs::write(dead.join(MARKER), owner.text()).unwrap();
        // A staging folder of a boot before this one.
        let old_boot = create(d, "data.old-").unwrap();
        let mut owner = me().unwrap().clone();
        owner.boot = "earlier".into();
        std::fs::write(old_boot.join(MARKER), owner.text()).unwrap();
        // Another machine's: not judged here.
        let other = create(d, "data.tmp-").unwrap();
        let mut owner = me().unwrap().clone();
        owner.host = "elsewhere".into();
        owner.start += 1;
        std::fs::write(other.join(MARKER), owner.text()).unwrap();

        assert_eq!(judge(&live), Staging::Live);
        assert_eq!(judge(&dead), Staging::Dead);
        assert_eq!(judge(&d.join("data.old-2023")), Staging::NotOurs);
        let mut removed = remove_stale(d, "data.");
        removed.sort();
        let mut want = vec![dead, old_boot];
        want.sort();
        assert_eq!(removed, want);
        assert!(d.join("data.old-2023/b.txt").exists());
        assert!(d.join("data.tmp-31337").exists());
        assert!(d.join("data.tmp-5").exists());
        assert!(live.exists() && other.exists());
    }

    #[test]
    fn create_skips_taken_names() {
        let t = tempfile::tempdir().unwrap();
        let pid = std::process::id();
        let taken = t
            .path()
            .join(format!("x.tmp-{pid}-0-{}", my_tag().unwrap()));
        std::fs::create_dir(&taken).unwrap();
        std::fs::write(taken.join("user.txt"), "mine").unwrap();
        let s = create(t.path(), "x.tmp-").unwrap();
        assert_ne!(s, taken);
        assert!(taken.join("user.txt").exists());
        assert!(!taken.join(MARKER).exists());
        assert!(s.join(MARKER).is_file());
    }

    #[test]
    fn folders_left_unfinished_by_a_killed_create_are_removed_and_nothing_else() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        let tag = my_tag().unwrap();
        // No process has this pid (above any pid_max).
        let gone = u32::MAX - 1;
        let full = Owner {
            start: 0,
            pid: gone,
            ..me().unwrap().clone()
        }
        .text();
        let cut = &full[..full.len() / 2];
        let folder = |name: String, marker: Option<&str>, extra: bool| {
            let p = d.join(name);
            std::fs::create_dir(&p).unwrap();
            if let Some(m) = marker {
                std::fs::write(p.join(MARKER), m).unwrap();
            }
            if extra {
                std::fs::write(p.join("x.parquet"), "data").unwrap();
            }
            p
        };
        // Killed before the marker, while writing it, and before its end.
        let empty = folder(format!("data.tmp-{gone}-0-{tag}"), None, false);
        let blank = folder(format!("data.tmp-{gone}-1-{tag}"), Some(""), false);
        let half = folder(format!("data.tmp-{gone}-2-{tag}"), Some(cut), false);
        let digits = format!("{}12", &full[..full.len() - 2]);
        let start = folder(format!("data.tmp-{gone}-3-{tag}"), Some(&digits), false);
        // Not unfinished: a live pid, another machine or boot, data beside
        // the marker, a marker that is not a prefix, an unmarked user name.
        let mine = std::process::id();
        let live = folder(format!("data.tmp-{mine}-4-{tag}"), Some(""), false);
        let other = folder(format!("data.tmp-{gone}-5-0123456789ab"), None, false);
        let data = folder(format!("data.tmp-{gone}-6-{tag}"), Some(""), true);
        let foreign = folder(format!("data.tmp-{gone}-7-{tag}"), Some("backup"), false);
        let user = folder(format!("data.tmp-{gone}"), None, false);
        for p in [&empty, &blank, &half, &start] {
            assert_eq!(judge(p), Staging::Dead, "{}", p.display());
        }
        assert_eq!(judge(&live), Staging::Live);
        for p in [&other, &data, &foreign, &user] {
            assert_eq!(judge(p), Staging::NotOurs, "{}", p.display());
        }
        let mut removed = remove_stale(d, "data.");
        removed.sort();
        assert_eq!(removed, [empty, blank, half, start]);
        for p in [&live, &other, &data, &foreign, &user] {
            assert!(p.exists(), "{}", p.display());
        }
        assert!(data.join("x.parquet").exists());
    }
}
