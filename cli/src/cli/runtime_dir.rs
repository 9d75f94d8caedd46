//! A private `XDG_RUNTIME_DIR` for the command when none is set: Mesa's
//! Vulkan drivers look for one while enumerating adapters and, without it,
//! print `error: XDG_RUNTIME_DIR is invalid or not set` lines that read like
//! wavekit's own errors. The directory is `wavekit-runtime-<uid>` under the
//! temporary directory, mode 0700, owned by the user; anything else there is
//! left alone and the variable stays unset.

/// Sets `XDG_RUNTIME_DIR` to the private directory when it is unset or empty.
/// Must run before any thread is started (it edits the environment).
pub fn ensure() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|v| !v.is_empty()) {
        return;
    }
    if let Some(dir) = private_dir() {
        // SAFETY: called first thing in `main`, before any thread exists, so
        // nothing reads the environment concurrently.
        unsafe { std::env::set_var("XDG_RUNTIME_DIR", dir) };
    }
}

/// The directory, created if missing, if it is ours and private.
#[cfg(target_os = "linux")]
fn private_dir() -> Option<std::path::PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    // /proc/self belongs to the process's effective user.
    let uid = std::fs::metadata("/proc/self").ok()?.uid();
    let dir = std::env::temp_dir().join(format!("wavekit-runtime-{uid}"));
    let _ = std::fs::DirBuilder::new().mode(0o700).create(&dir);
    let meta = std::fs::symlink_metadata(&dir).ok()?;
    let private = meta.is_dir() && meta.uid() == uid && meta.permissions().mode() & 0o777 == 0o700;
    private.then_some(dir)
}

/// Elsewhere Mesa does not ask for one.
#[cfg(not(target_os = "linux"))]
fn private_dir() -> Option<std::path::PathBuf> {
    None
}
