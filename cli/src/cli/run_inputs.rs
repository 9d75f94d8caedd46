//! What `wavekit run` reads before it touches a device: `--workgroups`,
//! `--bind` and `--out` specs and `.npy` files, parsed into values or
//! refused with a usage error (never a panic: `run_fuzz.rs` fuzzes all of
//! it); and how buffers read back are written out.

use std::path::Path;

use wavekit::Error;

/// Element types of output buffers and .npy files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Element {
    U32,
    I32,
    F32,
    U64,
    I64,
    F64,
}

impl Element {
    /// The element type a CLI name (`u32`) or `.npy` descriptor (`<u4`) names.
    pub(super) fn parse(text: &str) -> Option<Element> {
        Some(match text {
            "u32" | "<u4" => Element::U32,
            "i32" | "<i4" => Element::I32,
            "f32" | "<f4" => Element::F32,
            "u64" | "<u8" => Element::U64,
            "i64" | "<i8" => Element::I64,
            "f64" | "<f8" => Element::F64,
            _ => return None,
        })
    }

    fn size(self) -> u64 {
        match self {
            Element::U32 | Element::I32 | Element::F32 => 4,
            _ => 8,
        }
    }

    /// The bytes of `count` elements ([`parse_bind`] refuses counts whose
    /// bytes overflow).
    pub(super) fn bytes(self, count: u64) -> u64 {
        count.saturating_mul(self.size())
    }
}

/// One `--bind G:B=...`.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Bind {
    pub(super) group: u32,
    pub(super) binding: u32,
    pub(super) what: BindWhat,
}

/// The buffer a `--bind` names.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum BindWhat {
    /// An input read from this file.
    File(String),
    /// An output of this many elements.
    Output(Element, u64),
}

/// Parses `G:B=FILE` or `G:B=out:TYPE:COUNT`.
pub(super) fn parse_bind(spec: &str) -> Result<Bind, Error> {
    let usage = |m: String| Error::Usage(format!("--bind `{spec}`: {m}"));
    let (slot, what) = spec
        .split_once('=')
        .ok_or_else(|| usage("expected G:B=FILE or G:B=out:TYPE:COUNT".into()))?;
    let (group, binding) = slot
        .split_once(':')
        .and_then(|(g, b)| Some((g.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
        .ok_or_else(|| usage(format!("`{slot}` is not G:B")))?;
    let what = match what.split(':').collect::<Vec<_>>().as_slice() {
        ["out", ty, count] => {
            let element =
                Element::parse(ty).ok_or_else(|| usage(format!("unknown element type `{ty}`")))?;
            let count: u64 = count
                .parse()
                .map_err(|_| usage(format!("`{count}` is not a count")))?;
            if count.checked_mul(element.size()).is_none() {
                return Err(usage(format!(
                    "{count} elements of {ty} are more than 2^64 bytes"
                )));
            }
            BindWhat::Output(element, count)
        }
        _ if what.is_empty() => return Err(usage("no file after `=`".into())),
        _ => BindWhat::File(what.to_string()),
    };
    Ok(Bind {
        group,
        binding,
        what,
    })
}

/// One `--out`: where a buffer read back goes.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Out<'a> {
    /// `G:B=FILE`: the writable binding at group `G`, binding `B`.
    Slot {
        /// `@group`.
        group: u32,
        /// `@binding`.
        binding: u32,
        /// The file.
        path: &'a Path,
    },
    /// A plain `FILE`: the next `out:TYPE:COUNT` binding that no `G:B=FILE`
    /// names, in (group, binding) order.
    Next(&'a Path),
}

/// Parses an `--out`: `G:B=FILE` when it starts with two decimal numbers
/// split by `:` and followed by `=` and a file, else a plain file (so a
/// file whose name merely contains `=` or `:` stays a plain file).
pub(super) fn parse_out(spec: &Path) -> Result<Out<'_>, Error> {
    let Some((slot, file)) = spec.to_str().and_then(|s| s.split_once('=')) else {
        return Ok(Out::Next(spec));
    };
    let numbers = slot.split_once(':').filter(|(g, b)| {
        [g, b]
            .iter()
            .all(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
    });
    let Some((group, binding)) = numbers else {
        return Ok(Out::Next(spec));
    };
    let usage = |m: &str| Error::Usage(format!("--out `{}`: {m}", spec.display()));
    let (Ok(group), Ok(binding)) = (group.parse::<u32>(), binding.parse::<u32>()) else {
        return Err(usage("the group or binding is beyond 2^32 - 1"));
    };
    if file.is_empty() {
        return Err(usage("no file after `=`"));
    }
    Ok(Out::Slot {
        group,
        binding,
        path: Path::new(file),
    })
}

/// Parses `X[,Y[,Z]]`.
pub(super) fn parse_workgroups(text: &str) -> Option<[u32; 3]> {
    let parts: Vec<u32> = text
        .split(',')
        .map(|p| p.trim().parse().ok())
        .collect::<Option<_>>()?;
    match parts.as_slice() {
        [x] => Some([*x, 1, 1]),
        [x, y] => Some([*x, *y, 1]),
        [x, y, z] => Some([*x, *y, *z]),
        _ => None,
    }
}

/// Whether `path` names a `.npy` file (else buffers are raw bytes).
pub(super) fn is_npy(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "npy")
}

/// A buffer's bytes and, for a `.npy`, its element type: the data of a
/// little-endian `.npy`, or the raw file (no element type).
pub(super) fn read_buffer(path: &Path) -> Result<(Vec<u8>, Option<Element>), Error> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::Usage(format!("cannot read {}: {e}", path.display())))?;
    if !is_npy(path) {
        return Ok((bytes, None));
    }
    let (data, element) = npy_bytes(&bytes, &path.display().to_string())?;
    Ok((data, Some(element)))
}

/// The data of the `.npy` file `bytes` (called `name` in errors) as bytes
/// in host order, which is what the buffers hold (every platform wavekit
/// runs on is little-endian), and its element type.
pub(super) fn npy_bytes(bytes: &[u8], name: &str) -> Result<(Vec<u8>, Element), Error> {
    let io = |e: std::io::Error| Error::Usage(format!("cannot read {name}: {e}"));
    match header_shape(bytes) {
        Some(Ok(shape))
            if shape
                .iter()
                .try_fold(1u64, |n, d| n.checked_mul(*d))
                .is_none() =>
        {
            return Err(Error::Usage(format!(
                "{name}: the .npy header's shape {shape:?} has more than 2^64 elements"
            )));
        }
        Some(Err(text)) => {
            return Err(Error::Usage(format!(
                "{name}: the .npy header's shape `({text})` is not a tuple of integers"
            )));
        }
        // No shape: npyz names what is wrong with the header.
        _ => {}
    }
    // The checks above keep npyz's arithmetic in range; should a header
    // still make it panic, that is a bad file, not a crash.
    let file = std::panic::catch_unwind(|| npyz::NpyFile::new(bytes))
        .map_err(|_| Error::Usage(format!("{name}: a malformed .npy header")))?
        .map_err(io)?;
    let descr = file.dtype().descr().trim_matches('\'').to_string();
    let element = Element::parse(&descr)
        .ok_or_else(|| Error::Usage(format!("{name}: unsupported .npy dtype `{descr}`")))?;
    // The header's shape is a claim: refuse one the data cannot hold
    // before anything is allocated for it.
    let claimed = file
        .shape()
        .iter()
        .try_fold(1u64, |n, d| n.checked_mul(*d))
        .and_then(|n| n.checked_mul(element.size()));
    let available = bytes.len() as u64;
    match claimed {
        Some(needed) if needed <= available => {}
        _ => {
            return Err(Error::Usage(format!(
                "{name}: the .npy header's shape {:?} of {descr} needs more than the file's {available} bytes",
                file.shape()
            )));
        }
    }
    match element {
        Element::U32 => npy_data::<u32>(file),
        Element::I32 => npy_data::<i32>(file),
        Element::F32 => npy_data::<f32>(file),
        Element::U64 => npy_data::<u64>(file),
        Element::I64 => npy_data::<i64>(file),
        Element::F64 => npy_data::<f64>(file),
    }
    .map(|data| (data, element))
    .map_err(io)
}

/// The dimensions of a `.npy` header's `'shape': (..)`, or the text
/// between the parentheses when it is not a tuple of plain integers (which
/// numpy always writes); `None` without a shape. npyz multiplies the
/// dimensions without checking for overflow (a panic in debug builds,
/// found by `run_fuzz.rs`), so they are checked first.
fn header_shape(bytes: &[u8]) -> Option<Result<Vec<u64>, String>> {
    // Magic, version and length, then the header: 64 KiB at most in v1,
    // 4 GiB in v2, but a shape is near its start.
    let header = bytes.get(..bytes.len().min(1 << 16))?;
    let key = [&b"'shape'"[..], &b"\"shape\""[..]].iter().find_map(|k| {
        header
            .windows(k.len())
            .position(|w| w == *k)
            .map(|p| p + k.len())
    })?;
    let rest = &header[key..];
    let open = rest.iter().position(|b| *b == b'(')?;
    let close = rest.iter().position(|b| *b == b')')?;
    let inside = String::from_utf8_lossy(rest.get(open + 1..close)?);
    let dims: Option<Vec<u64>> = inside
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            let d = d.strip_suffix('L').unwrap_or(d);
            if d.bytes().all(|b| b.is_ascii_digit()) {
                d.parse::<u64>().ok()
            } else {
                None
            }
        })
        .collect();
    Some(dims.ok_or_else(|| inside.trim().chars().take(80).collect()))
}

fn npy_data<T: npyz::Deserialize + bytemuck::Pod>(
    file: npyz::NpyFile<&[u8]>,
) -> std::io::Result<Vec<u8>> {
    Ok(bytemuck::cast_slice(&file.into_vec::<T>()?).to_vec())
}

/// Writes a buffer's bytes as a 1-D `.npy` of `T`.
fn npy_write<T: npyz::AutoSerialize + bytemuck::Pod>(
    path: &Path,
    data: &[u8],
) -> std::io::Result<()> {
    npyz::to_file_1d(path, bytemuck::pod_collect_to_vec::<u8, T>(data))
}

/// Writes a buffer read back as a 1-D `.npy` of its element type, or raw
/// bytes.
pub(super) fn write_buffer(path: &Path, data: &[u8], element: Element) -> Result<(), Error> {
    let io = |e: std::io::Error| Error::Usage(format!("cannot write {}: {e}", path.display()));
    if !is_npy(path) {
        return std::fs::write(path, data).map_err(io);
    }
    match element {
        Element::U32 => npy_write::<u32>(path, data),
        Element::I32 => npy_write::<i32>(path, data),
        Element::F32 => npy_write::<f32>(path, data),
        Element::U64 => npy_write::<u64>(path, data),
        Element::I64 => npy_write::<i64>(path, data),
        Element::F64 => npy_write::<f64>(path, data),
    }
    .map_err(io)
}
