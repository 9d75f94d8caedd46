//! Shared by the instruction-budget tests of the native back ends: one
//! compile per target holds every representative kernel and the empty
//! kernels they are measured against, and the rows are compared with a
//! checked-in table.

use std::collections::BTreeMap;
use std::path::Path;

use wavekit::ValidModule;
use wavekit::conformance::Representatives;

/// The kernels of one compile: the empty kernels first (`baseline_<i>`),
/// then the instance kernels (`op_<i>`).
pub struct Batch<'a> {
    /// Kernel names, in compile order.
    pub names: Vec<String>,
    /// Their modules.
    pub modules: Vec<&'a ValidModule>,
    representatives: &'a Representatives,
}

impl<'a> Batch<'a> {
    pub fn new(representatives: &'a Representatives) -> Batch<'a> {
        let baselines = &representatives.baselines;
        let kernels = &representatives.kernels;
        let mut names: Vec<String> = (0..baselines.len())
            .map(|i| format!("baseline_{i}"))
            .collect();
        names.extend((0..kernels.len()).map(|i| format!("op_{i}")));
        let modules = baselines
            .iter()
            .chain(kernels.iter().map(|k| &k.module))
            .collect();
        Batch {
            names,
            modules,
            representatives,
        }
    }

    /// Table rows `label<TAB>instance<TAB>lowering<TAB>A=1 B=2`: what each
    /// instance kernel counts over its empty kernel (`counts` is per name).
    pub fn rows(&self, label: &str, counts: &[BTreeMap<String, i64>]) -> Vec<String> {
        let baselines = self.representatives.baselines.len();
        self.representatives
            .kernels
            .iter()
            .enumerate()
            .map(|(i, kernel)| {
                let mut delta = counts[baselines + i].clone();
                for (m, n) in &counts[kernel.baseline] {
                    *delta.entry(m.clone()).or_default() -= n;
                }
                let cost: Vec<String> = delta
                    .into_iter()
                    .filter(|(_, n)| *n != 0)
                    .map(|(m, n)| format!("{m}={n}"))
                    .collect();
                format!(
                    "{label}\t{}\t{}\t{}",
                    kernel.instance,
                    kernel.lowering,
                    if cost.is_empty() {
                        "-".to_string()
                    } else {
                        cost.join(" ")
                    }
                )
            })
            .collect()
    }
}

/// Compares `rows` with the table at `table` (relative to the crate), or
/// rewrites it when the environment variable `bless` is set.
pub fn check_table(rows: &[String], table: &str, header: &str, bless: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(table);
    if std::env::var_os(bless).is_some() {
        std::fs::write(&path, format!("{header}\n{}\n", rows.join("\n"))).expect("write the table");
        return;
    }
    let text = std::fs::read_to_string(&path).expect("the budget table");
    let expected: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let key = |row: &str| row.splitn(4, '\t').take(3).collect::<Vec<_>>().join("\t");
    let mut problems = Vec::new();
    for row in rows {
        match expected.iter().find(|e| key(e) == key(row)) {
            Some(e) if *e == row => {}
            Some(e) => problems.push(format!("budget {e}\n   got {row}")),
            None => problems.push(format!("no budget for {row}")),
        }
    }
    assert!(
        problems.is_empty(),
        "{} rows differ from {table} (after a deliberate change: {bless}=1):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Asserts rows of the table: (target, instance, lowering, cost).
pub fn assert_rows(table: &str, rows: &[(&str, &str, &str, &str)]) {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(table))
        .expect("the budget table");
    for (target, instance, lowering, cost) in rows {
        let prefix = format!("{target}\t{instance}\t{lowering}\t");
        let line = text
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no row {prefix:?}"));
        assert_eq!(
            line.split('\t').nth(3),
            Some(*cost),
            "{line} should cost {cost}"
        );
    }
}
