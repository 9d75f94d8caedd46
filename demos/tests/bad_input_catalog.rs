//! `docs/bad-input.md` lists the classes of bad input wavekit answers with a
//! clear error, each with the test that asserts the answer. This checks the
//! list against the workspace: at least 30 classes (issue 23), numbered in
//! order, and every test it names exists, is a `#[test]`, and asserts
//! something. It lives in the demos crate because that one is never
//! published: it reads files of the whole workspace.

use std::path::Path;

/// One row: its number and the test it names, `path::function`.
struct Row {
    number: usize,
    test: String,
}

fn rows(table: &str) -> Vec<Row> {
    table
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            // "| # | class | example | answer | span | test |" splits into
            // 8 cells, the outer two empty.
            let number = cells.get(1)?.parse().ok()?;
            let test = cells.get(cells.len().checked_sub(2)?)?;
            Some(Row {
                number,
                test: test.trim_matches('`').to_string(),
            })
        })
        .collect()
}

/// The text of function `name` in `source`, if it is a `#[test]`: from its
/// signature to the next `#[test]` (shader text inside a test keeps braces
/// from telling where its body ends).
fn test_body<'s>(source: &'s str, name: &str) -> Option<&'s str> {
    let signature = format!("fn {name}()");
    let at = source.find(&signature)?;
    let before = &source[..at];
    let attributes = before.rsplit("\n\n").next().unwrap_or(before);
    if !attributes.contains("#[test]") {
        return None;
    }
    let rest = &source[at + signature.len()..];
    Some(&rest[..rest.find("#[test]").unwrap_or(rest.len())])
}

#[test]
fn every_listed_test_exists_and_asserts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let table = std::fs::read_to_string(root.join("docs/bad-input.md")).expect("docs/bad-input.md");
    let rows = rows(&table);
    assert!(rows.len() >= 30, "only {} classes listed", rows.len());
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.number, i + 1, "rows are numbered in order");
        let (file, name) = row
            .test
            .rsplit_once("::")
            .unwrap_or_else(|| panic!("row {}: `{}` is not path::function", row.number, row.test));
        let source = std::fs::read_to_string(root.join(file))
            .unwrap_or_else(|e| panic!("row {}: {file}: {e}", row.number));
        let body = test_body(&source, name)
            .unwrap_or_else(|| panic!("row {}: {file} has no #[test] fn {name}()", row.number));
        assert!(
            ["assert", "expect_err", "unwrap_err", "panic!"]
                .iter()
                .any(|a| body.contains(a)),
            "row {}: {file}::{name} asserts nothing",
            row.number
        );
    }
    let mut tests: Vec<&str> = rows.iter().map(|r| r.test.as_str()).collect();
    tests.sort_unstable();
    let listed = tests.len();
    tests.dedup();
    assert_eq!(tests.len(), listed, "a test is listed twice");
}
