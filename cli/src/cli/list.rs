//! `wavekit list`: the catalog as a table.

use std::process::ExitCode;

use clap::Args;
use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};

use wavekit::{Error, catalog};

/// Arguments of `wavekit list`.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// Also print each primitive's documentation.
    #[arg(long)]
    docs: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &ListArgs) -> Result<ExitCode, Error> {
    if args.json {
        let all: Vec<_> = catalog::primitives().collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&all).expect("catalog serialises")
        );
        return Ok(ExitCode::SUCCESS);
    }
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic);
    table.set_header([
        "family",
        "signature",
        "dtypes",
        "log2_size",
        "result",
        "cost (exchanges)",
        "lowerings",
    ]);
    for p in catalog::primitives() {
        let log2 = if p.is_tiled() { "0..=log2(S)" } else { "-" };
        let lowerings: Vec<_> = p.lowerings.iter().map(|l| l.name()).collect();
        table.add_row([
            p.family.name().to_string(),
            p.signature(),
            p.dtype_list(),
            log2.to_string(),
            p.placement.describe().to_string(),
            p.cost.to_string(),
            if lowerings.is_empty() {
                "builtin".into()
            } else {
                lowerings.join(", ")
            },
        ]);
    }
    println!("{table}");
    if args.docs {
        for p in catalog::primitives() {
            println!("\n{}\n    {}", p.signature(), p.doc);
        }
    }
    Ok(ExitCode::SUCCESS)
}
