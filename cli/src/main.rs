//! The `wavekit` command: list the catalog, expand instances, run the
//! conformance suite on an adapter.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    cli::runtime_dir::ensure();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(error) => {
            eprint!("{}", cli::report::error_text(&error));
            ExitCode::FAILURE
        }
    }
}
