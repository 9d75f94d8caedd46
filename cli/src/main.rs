//! The `wavekit` command: list the catalog, expand instances, run the
//! conformance suite on an adapter.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    cli::runtime_dir::ensure();
    // The Vulkan loader's own messages (wgpu relays them through its debug
    // messenger in debug builds) are left out: a missing driver is one
    // line of wavekit's (`RUST_LOG` brings them back).
    env_logger::Builder::from_env(
        env_logger::Env::default().default_filter_or("warn,wgpu_hal::vulkan::instance=off"),
    )
    .init();
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(error) => {
            eprint!("{}", cli::report::error_text(&error));
            if matches!(error, wavekit::Error::Timeout { .. }) {
                exit_now();
            }
            ExitCode::FAILURE
        }
    }
}

/// Exits with status 1 without the C library's exit handlers: after a
/// time-out the device still runs the kernel, and a driver's handler may
/// wait for it (NVIDIA's Vulkan driver does: `exit` hung for minutes on an
/// H100). The kernel ends with the process.
fn exit_now() -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` ends the process at once; nothing runs after it.
    unsafe { libc::_exit(1) }
}
