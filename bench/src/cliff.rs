//! The cliff check of issue 19: a size measured inside a sweep (one process
//! running every size and variant in turn) against the same size and
//! variant measured in a process of its own (`raw/alone/`). Through
//! Vulkan on an H100 the two once differed by up to 4×; a difference of
//! more than [`LIMIT`] either way fails the table run.

use std::fmt::Write;

use crate::data::{Raw, Run};

/// The largest ratio, either way, between a sweep's time and its own
/// process's time (10 %).
pub const LIMIT: f64 = 1.10;

/// The check's page and the sizes that failed it.
pub struct Cliff {
    /// `cliff.md`: one row per size measured alone.
    pub page: String,
    /// One line per size whose two times differ by more than [`LIMIT`].
    pub failures: Vec<String>,
}

/// Compares every run of `raw.alone` with the sweep's run of the same side,
/// demo, variant and size; `None` where nothing was measured alone.
pub fn check(raw: &Raw) -> Option<Cliff> {
    if raw.alone.is_empty() {
        return None;
    }
    let mut page = String::from(
        "# Sweep against own process\n\n\
         Each size below ran twice: inside the sweep (every size and variant of the demo in \
         one process) and in a process of its own. A ratio beyond 1.10 either way fails the \
         run (`bench/src/cliff.rs`).\n\n\
         | side | demo | variant | size | sweep ms | alone ms | sweep / alone | |\n\
         |---|---|---|---:|---:|---:|---:|---|\n",
    );
    let mut failures = Vec::new();
    for alone in &raw.alone {
        let sweep = raw.runs.iter().find(|r| same(r, alone));
        let size = format!("2^{}", alone.n.max(1).ilog2());
        let Some(sweep) = sweep else {
            let _ = writeln!(
                page,
                "| {} | {} | {} | {size} | — | {:.4} | — | no sweep run |",
                alone.side.label(),
                alone.demo,
                alone.variant,
                alone.median_ms
            );
            continue;
        };
        let ratio = sweep.median_ms / alone.median_ms;
        let ok = (1.0 / LIMIT..=LIMIT).contains(&ratio);
        let _ = writeln!(
            page,
            "| {} | {} | {} | {size} | {:.4} | {:.4} | {ratio:.3} | {} |",
            alone.side.label(),
            alone.demo,
            alone.variant,
            sweep.median_ms,
            alone.median_ms,
            if ok { "ok" } else { "**FAIL**" }
        );
        if !ok {
            failures.push(format!(
                "{} {} {} at {size}: {:.4} ms in the sweep, {:.4} ms alone ({ratio:.2}×)",
                alone.side.label(),
                alone.demo,
                alone.variant,
                sweep.median_ms,
                alone.median_ms
            ));
        }
    }
    Some(Cliff { page, failures })
}

fn same(a: &Run, b: &Run) -> bool {
    a.side == b.side && a.demo == b.demo && a.variant == b.variant && a.n == b.n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Side;

    fn run(n: u64, median_ms: f64) -> Run {
        Run {
            side: Side::Vulkan,
            demo: "scan".into(),
            variant: "auto".into(),
            implementation: String::new(),
            algorithm: String::new(),
            device: String::new(),
            note: String::new(),
            n,
            bytes: 8 * n,
            median_ms,
            from_log: false,
        }
    }

    #[test]
    fn a_sweep_slower_than_its_own_process_by_more_than_ten_percent_fails() {
        let raw = Raw {
            runs: vec![run(1 << 27, 0.43), run(1 << 28, 3.02)],
            alone: vec![run(1 << 27, 0.42), run(1 << 28, 0.84)],
            ..Raw::default()
        };
        let cliff = check(&raw).expect("runs alone");
        assert_eq!(cliff.failures.len(), 1, "{:?}", cliff.failures);
        assert!(cliff.failures[0].contains("2^28"), "{}", cliff.failures[0]);
        assert!(
            cliff
                .page
                .contains("| 2^27 | 0.4300 | 0.4200 | 1.024 | ok |"),
            "{}",
            cliff.page
        );
        assert!(check(&Raw::default()).is_none());
    }
}
