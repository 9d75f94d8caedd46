//! The suite's results: per instance and lowering, a table for people, JSON
//! for machines and a one-line summary.

use std::collections::BTreeMap;

use comfy_table::{Cell, Color, Table, presets::UTF8_FULL_CONDENSED};

use crate::dtype::Dtype;
use crate::expand::Instance;
use crate::runner::Gpu;
use crate::target::Lowering;

use super::adapter_check::AdapterCheck;
use super::kernel::CaseOutcome;

/// Results of one instance under one lowering.
#[derive(Clone, Debug, serde::Serialize)]
pub struct InstanceResult {
    /// The request (`all_equal_tiled<f32, 3>`).
    pub instance: String,
    /// The op.
    pub op: &'static str,
    /// `T`, if any.
    pub dtype: Option<Dtype>,
    /// `L`, if any.
    pub log2_size: Option<u32>,
    /// `N`, if any.
    pub count: Option<u32>,
    /// `B`, if any.
    pub block_dim: Option<u32>,
    /// Named constants (`radix_bits`), if any.
    pub constants: Vec<(&'static str, u32)>,
    /// The user function of a generic operator, if any.
    pub function: Option<String>,
    /// The lowering it was expanded with.
    pub lowering: Lowering,
    /// Cases run.
    pub cases: u32,
    /// Cases with at least one wrong lane (or that could not run).
    pub failed_cases: u32,
    /// Lanes compared over all cases.
    pub lanes_compared: u32,
    /// The first problems found.
    pub details: Vec<String>,
}

impl InstanceResult {
    /// Whether every case ran and every compared lane matched.
    pub fn passed(&self) -> bool {
        self.failed_cases == 0 && self.cases > 0
    }
}

/// Everything a suite run found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    /// Adapter name.
    pub adapter: String,
    /// Adapter back end, driver and driver info.
    pub driver: String,
    /// The target the adapter offers.
    pub target: String,
    /// Seed of the random inputs.
    pub seed: u64,
    /// The adapter check (absent only before it ran).
    pub adapter_check: Option<AdapterCheck>,
    /// Per instance and lowering.
    pub results: Vec<InstanceResult>,
}

impl Report {
    pub(super) fn new(gpu: &Gpu, seed: u64) -> Report {
        let info = gpu.info();
        Report {
            adapter: info.name.clone(),
            driver: info.driver.clone(),
            target: gpu.target().to_string(),
            seed,
            adapter_check: None,
            results: Vec::new(),
        }
    }

    pub(super) fn add_instance(&mut self, instance: &Instance) -> usize {
        self.results.push(InstanceResult {
            instance: instance.spec().to_string(),
            op: instance.primitive.name,
            dtype: instance.dtype,
            log2_size: instance.log2_size,
            count: instance.count,
            block_dim: instance.block_dim,
            constants: instance.constants.clone(),
            function: instance.function.clone(),
            lowering: instance.lowering,
            cases: 0,
            failed_cases: 0,
            lanes_compared: 0,
            details: Vec::new(),
        });
        self.results.len() - 1
    }

    pub(super) fn record(&mut self, slot: usize, outcome: &CaseOutcome) {
        let result = &mut self.results[slot];
        result.cases += 1;
        result.lanes_compared += outcome.compared;
        if outcome.mismatches > 0 || outcome.compared == 0 {
            result.failed_cases += 1;
            if outcome.compared == 0 {
                result.details.push("no lane was compared".into());
            }
            result.details.extend(outcome.details.iter().cloned());
        }
    }

    pub(super) fn record_error(&mut self, slot: usize, message: &str) {
        let result = &mut self.results[slot];
        result.cases += 1;
        result.failed_cases += 1;
        if result.details.is_empty() {
            result.details.push(message.to_string());
        }
    }

    pub(super) fn adapter_problem(&mut self, problem: String) {
        if let Some(check) = &mut self.adapter_check {
            check.passed = false;
            check.problems.push(problem);
        }
    }

    /// Whether the adapter check passed.
    pub fn adapter_passed(&self) -> bool {
        self.adapter_check.as_ref().is_some_and(|c| c.passed)
    }

    /// Whether the adapter check and every instance passed.
    pub fn passed(&self) -> bool {
        self.adapter_passed()
            && !self.results.is_empty()
            && self.results.iter().all(InstanceResult::passed)
    }

    /// `wavekit check: PASS — 312/312 instance checks, 1040 cases, ... on <adapter>`.
    pub fn summary_line(&self) -> String {
        let verdict = if self.passed() { "PASS" } else { "FAIL" };
        if !self.adapter_passed() {
            let problems = self
                .adapter_check
                .as_ref()
                .map(|c| c.problems.join("; "))
                .unwrap_or_default();
            return format!(
                "wavekit check: {verdict}: adapter check failed on {} ({}): {problems}; no op was run",
                self.adapter, self.target
            );
        }
        let passed = self.results.iter().filter(|r| r.passed()).count();
        let cases: u32 = self.results.iter().map(|r| r.cases).sum();
        let lanes: u64 = self
            .results
            .iter()
            .map(|r| u64::from(r.lanes_compared))
            .sum();
        format!(
            "wavekit check: {verdict}: {passed}/{} instance checks passed ({cases} cases, \
             {lanes} lanes compared) on {} ({}), seed {:#x}",
            self.results.len(),
            self.adapter,
            self.target,
            self.seed
        )
    }

    /// The table op × dtype × log2 → pass / fail per lowering.
    pub fn table(&self) -> Table {
        // One row per instance, in first-seen order, with a cell per lowering.
        let mut rows: Vec<Row> = Vec::new();
        let mut row_of: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for r in &self.results {
            let index = *row_of.entry(r.instance.as_str()).or_insert_with(|| {
                rows.push(Row {
                    op: r.op,
                    dtype: r.dtype.map_or("-".into(), |d| d.to_string()),
                    param: parameters(r),
                    cells: BTreeMap::new(),
                    cases: 0,
                });
                rows.len() - 1
            });
            rows[index].cases += r.cases;
            rows[index].cells.insert(r.lowering, r.passed());
        }
        let mut table = Table::new();
        table.load_preset(UTF8_FULL_CONDENSED);
        table.set_header([
            "op",
            "dtype",
            "L / N / B ...",
            "builtin",
            "shuffle",
            "cases",
        ]);
        for row in rows {
            let mut cells = vec![
                Cell::new(row.op),
                Cell::new(row.dtype),
                Cell::new(row.param),
            ];
            for lowering in Lowering::ALL {
                cells.push(match row.cells.get(&lowering) {
                    Some(true) => Cell::new("pass").fg(Color::Green),
                    Some(false) => Cell::new("FAIL").fg(Color::Red),
                    None => Cell::new("-"),
                });
            }
            cells.push(Cell::new(row.cases));
            table.add_row(cells);
        }
        table
    }

    /// The problems found, one per line.
    pub fn failures(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .adapter_check
            .iter()
            .flat_map(|c| c.problems.iter().map(|p| format!("adapter check: {p}")))
            .collect();
        for r in self.results.iter().filter(|r| !r.passed()) {
            for d in &r.details {
                lines.push(format!("{} [{}]: {d}", r.instance, r.lowering));
            }
        }
        lines
    }
}

/// The integer template arguments of a result, `L=3`, `B=256 radix_bits=8 ...`.
fn parameters(r: &InstanceResult) -> String {
    let mut parts = Vec::new();
    if let Some(l) = r.log2_size {
        parts.push(format!("L={l}"));
    }
    if let Some(n) = r.count {
        parts.push(format!("N={n}"));
    }
    if let Some(b) = r.block_dim {
        parts.push(format!("B={b}"));
    }
    parts.extend(r.constants.iter().map(|(name, v)| format!("{name}={v}")));
    if let Some(f) = &r.function {
        parts.push(format!("F={f}"));
    }
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(" ")
    }
}

struct Row {
    op: &'static str,
    dtype: String,
    param: String,
    cells: BTreeMap<Lowering, bool>,
    cases: u32,
}
