//! A small fuzzing driver that runs on the stable toolchain, shared by the
//! `fuzz_*` test targets (included with `#[path]`; it is not a test itself).
//!
//! Each target is a function from bytes to `Ok` or a finding. The driver
//! feeds it the target's corpus (`tests/fuzz/corpus/<target>/` at the
//! workspace root, kept in the repository), then inputs made by mutating corpus entries (byte flips,
//! deletions, duplications, splices and insertions of the target's
//! dictionary tokens) or by the target's own generator (a grammar), each
//! under `catch_unwind`. A panic or a finding is a crash: the input is
//! written to `<target dir>/fuzz-crashes/<target>/` and the test fails with
//! it. There is no coverage feedback: the guidance is the grammar and the
//! dictionary.
//!
//! `make test` runs every target for a fixed number of executions from a
//! fixed seed (seconds in all). A long run:
//!
//! ```text
//! WAVEKIT_FUZZ_SECS=600 WAVEKIT_FUZZ_SEED=$RANDOM cargo test --test fuzz_compose -- --nocapture
//! ```
//!
//! runs for that many seconds instead and prints executions, time and
//! crashes.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A splitmix64 generator: small, seedable, good enough for choosing.
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One of `items` (which must not be empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A grammar: makes one input.
pub type Generator = dyn Fn(&mut Rng) -> Vec<u8>;

/// What one fuzz target is.
pub struct Target<'a> {
    /// Its name: the crash folder.
    pub name: &'a str,
    /// The corpus folder (`concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fuzz/corpus/NAME")`).
    pub corpus: &'a str,
    /// Executions of the short run (`make test`).
    pub short_runs: usize,
    /// Tokens worth inserting.
    pub dictionary: &'a [&'a str],
    /// Makes a fresh input from the grammar, if the target has one.
    pub generate: Option<&'a Generator>,
}

/// Runs `target` on `check`; panics listing the crashes if there were any.
pub fn fuzz(target: &Target<'_>, check: impl Fn(&[u8]) -> Result<(), String>) {
    let corpus = corpus(target.corpus);
    let seed = std::env::var("WAVEKIT_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed);
    let deadline = std::env::var("WAVEKIT_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .map(|s| Instant::now() + Duration::from_secs_f64(s));
    let mut rng = Rng::new(seed);
    let started = Instant::now();
    let mut executions = 0usize;
    let mut crashes: Vec<(Vec<u8>, String)> = Vec::new();
    loop {
        let done = match deadline {
            Some(deadline) => Instant::now() >= deadline && executions >= corpus.len(),
            None => executions >= target.short_runs.max(corpus.len()),
        };
        if done {
            break;
        }
        let input = if executions < corpus.len() {
            corpus[executions].clone()
        } else {
            next_input(&mut rng, target, &corpus)
        };
        executions += 1;
        let outcome = catch_unwind(AssertUnwindSafe(|| check(&input)));
        let finding = match outcome {
            Ok(Ok(())) => continue,
            Ok(Err(finding)) => finding,
            Err(panic) => format!(
                "panic: {}",
                panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("(not a string)")
            ),
        };
        crashes.push((input, finding));
        if crashes.len() >= 5 {
            break;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "fuzz {}: {executions} executions in {seconds:.1} s (seed {seed}), {} crashes, corpus {}",
        target.name,
        crashes.len(),
        corpus.len()
    );
    if crashes.is_empty() {
        return;
    }
    let dir = crash_dir(target.name);
    let mut report = String::new();
    for (i, (input, finding)) in crashes.iter().enumerate() {
        let path = dir.join(format!("crash-{seed}-{i}"));
        let saved = std::fs::create_dir_all(&dir)
            .and_then(|()| std::fs::write(&path, input))
            .map(|()| path.display().to_string())
            .unwrap_or_else(|e| format!("(not saved: {e})"));
        report.push_str(&format!(
            "\n--- {saved}: {finding}\n{}\n",
            String::from_utf8_lossy(input)
        ));
    }
    panic!("fuzz {}: {} crashes{report}", target.name, crashes.len());
}

/// The corpus entries in `dir`, in file-name order.
fn corpus(dir: &str) -> Vec<Vec<u8>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.sort();
    paths.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

fn crash_dir(name: &str) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("fuzz-crashes").join(name)
}

/// A generated input, or a mutation of a corpus entry.
fn next_input(rng: &mut Rng, target: &Target<'_>, corpus: &[Vec<u8>]) -> Vec<u8> {
    if let Some(generate) = target.generate
        && (corpus.is_empty() || rng.one_in(2))
    {
        let mut input = generate(rng);
        if rng.one_in(4) {
            mutate(rng, &mut input, target.dictionary, corpus);
        }
        return input;
    }
    let mut input = if corpus.is_empty() {
        Vec::new()
    } else {
        rng.pick(corpus).clone()
    };
    for _ in 0..1 + rng.below(4) {
        mutate(rng, &mut input, target.dictionary, corpus);
    }
    input
}

/// One random edit of `input`.
pub fn mutate(rng: &mut Rng, input: &mut Vec<u8>, dictionary: &[&str], corpus: &[Vec<u8>]) {
    let len = input.len();
    match rng.below(7) {
        0 if len > 0 => {
            let i = rng.below(len);
            input[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let start = rng.below(len);
            let end = (start + 1 + rng.below(16)).min(len);
            input.drain(start..end);
        }
        2 if len > 0 => {
            let start = rng.below(len);
            let end = (start + 1 + rng.below(32)).min(len);
            let copy: Vec<u8> = input[start..end].to_vec();
            let at = rng.below(len + 1);
            input.splice(at..at, copy);
        }
        3 if !corpus.is_empty() => {
            let other = rng.pick(corpus);
            if !other.is_empty() {
                let start = rng.below(other.len());
                let end = (start + 1 + rng.below(64)).min(other.len());
                let at = rng.below(len + 1);
                input.splice(at..at, other[start..end].iter().copied());
            }
        }
        4 if len > 0 => {
            let i = rng.below(len);
            input[i] = *rng.pick(&[0u8, b'<', b'>', b'{', b'}', b'(', b')', b';', b'\n', 0xff]);
        }
        5 if len > 0 => input.truncate(rng.below(len)),
        _ if !dictionary.is_empty() => {
            let token = rng.pick(dictionary);
            let at = rng.below(len + 1);
            input.splice(at..at, token.bytes());
        }
        _ => input.push(rng.next() as u8),
    }
}
