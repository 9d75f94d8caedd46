//! Which AMD GPU architecture to compile for: names like `gfx942` checked
//! and normalised ([`parse_arch`]), the one the user names in [`ARCH_ENV`]
//! ([`arch_from_env`]), and the wave size it runs ([`default_wave_size`]).
//!
//! HIP has no stable simple call for a device's architecture: it is in
//! `hipDeviceProp_t::gcnArchName`, whose offset changes between ROCm
//! releases, so the caller says it (`rocminfo` or `amdgpu-arch` print it).

use std::env;

/// The environment variable that names the GPU architecture, e.g. `gfx942`.
pub const ARCH_ENV: &str = "WAVEKIT_HIP_ARCH";

/// Checks a GPU architecture name and returns it normalised (lower case,
/// trimmed): a processor such as `gfx90a`, `gfx942`, `gfx1100`, or a
/// generic target such as `gfx11-generic` / `gfx10-3-generic`. Target-ID
/// feature suffixes (`gfx90a:xnack+`) are not accepted: wavekit takes the
/// processor alone and sets features itself.
pub fn parse_arch(text: &str) -> Option<String> {
    let arch = text.trim().to_ascii_lowercase();
    // ASCII only, so that the byte slicing below is on character boundaries.
    if !arch.is_ascii() {
        return None;
    }
    let rest = arch.strip_prefix("gfx")?;
    let valid = if let Some(family) = rest.strip_suffix("-generic") {
        // `9`, `9-4`, `10-1`, `10-3`, `11`, `12`: a major version, then
        // optionally one minor.
        let mut parts = family.split('-');
        let major = parts.next().unwrap_or("");
        let minor = parts.next();
        is_version(major)
            && minor.is_none_or(|m| m.len() == 1 && m.bytes().all(|b| b.is_ascii_digit()))
            && parts.next().is_none()
    } else {
        // `{major}{minor}{stepping}`: decimal digits, the stepping a hex
        // digit (`gfx90a`, `gfx90c`), three or four characters in all.
        let bytes = rest.as_bytes();
        match bytes.split_last() {
            Some((stepping, version)) if (2..=3).contains(&version.len()) => {
                is_version(&rest[..version.len()]) && stepping.is_ascii_hexdigit()
            }
            _ => false,
        }
    };
    valid.then_some(arch)
}

/// A major (and minor) version: decimal digits, not starting with 0.
fn is_version(digits: &str) -> bool {
    !digits.is_empty() && !digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The GPU architecture from [`ARCH_ENV`] (`WAVEKIT_HIP_ARCH`), e.g.
/// `gfx942`, checked by [`parse_arch`].
///
/// HIP has no stable simple call for it (the architecture is in
/// `hipDeviceProp_t::gcnArchName`, whose offset changes between ROCm
/// releases), so the caller says it; `rocminfo | grep gfx` or `amdgpu-arch`
/// print it. `None` when unset; when set to something that is not an
/// architecture name, `None` and a warning in the log.
pub fn arch_from_env() -> Option<String> {
    let value = env::var_os(ARCH_ENV)?;
    let text = value.to_string_lossy();
    let arch = parse_arch(&text);
    if arch.is_none() {
        log::warn!(
            "ignoring {ARCH_ENV}={text:?}: not a GPU architecture such as gfx942 or gfx1100"
        );
    }
    arch
}

/// The wave size code for `arch` runs at unless compiled otherwise: 64 on
/// GCN and CDNA (gfx6 to gfx9: `gfx90a`, `gfx942`, `gfx950`), 32 on RDNA
/// (gfx10 and later), which also runs wave64 code compiled with
/// `+wavefrontsize64`. `None` when `arch` is not an architecture name.
pub fn default_wave_size(arch: &str) -> Option<u32> {
    let arch = parse_arch(arch)?;
    let rest = arch.strip_prefix("gfx")?;
    let major: u32 = match rest.strip_suffix("-generic") {
        Some(family) => family.split('-').next()?.parse().ok()?,
        // The last two characters are minor and stepping.
        None => rest.get(..rest.len() - 2)?.parse().ok()?,
    };
    Some(if major >= 10 { 32 } else { 64 })
}
