//! Scalar element types ("dtypes") that primitives are instantiated for.

use std::fmt;
use std::str::FromStr;

/// A WGSL scalar type a primitive can be instantiated for.
///
/// `I32`, `U32` and `F32` exist on every target; the others need a target
/// feature ([`Dtype::feature`]) and are refused with a clear error elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Dtype {
    /// 32-bit signed integer (`i32`).
    I32,
    /// 32-bit unsigned integer (`u32`).
    U32,
    /// 32-bit IEEE float (`f32`).
    F32,
    /// 16-bit IEEE float (`f16`, needs `enable f16;` and [`ScalarFeature::F16`]).
    F16,
    /// 64-bit signed integer (`i64`, needs [`ScalarFeature::Int64`]).
    I64,
    /// 64-bit unsigned integer (`u64`, needs [`ScalarFeature::Int64`]).
    U64,
    /// 64-bit IEEE float (`f64`, needs [`ScalarFeature::F64`]).
    F64,
}

/// An optional scalar capability of a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ScalarFeature {
    /// `f16` arithmetic and storage.
    F16,
    /// `i64` / `u64` arithmetic.
    Int64,
    /// `f64` arithmetic.
    F64,
}

impl fmt::Display for ScalarFeature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ScalarFeature::F16 => "shader-f16",
            ScalarFeature::Int64 => "shader-int64",
            ScalarFeature::F64 => "shader-f64",
        })
    }
}

/// Whether a dtype is an integer or a float: decides which operators apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Signed two's-complement integer.
    Signed,
    /// Unsigned integer.
    Unsigned,
    /// IEEE-754 binary float.
    Float,
}

impl Dtype {
    /// Every dtype, in the order tables list them.
    pub const ALL: [Dtype; 7] = [
        Dtype::I32,
        Dtype::U32,
        Dtype::F32,
        Dtype::F16,
        Dtype::I64,
        Dtype::U64,
        Dtype::F64,
    ];

    /// The integer dtypes.
    pub const INTEGERS: [Dtype; 4] = [Dtype::I32, Dtype::U32, Dtype::I64, Dtype::U64];

    /// The WGSL spelling of the type.
    pub fn wgsl(self) -> &'static str {
        match self {
            Dtype::I32 => "i32",
            Dtype::U32 => "u32",
            Dtype::F32 => "f32",
            Dtype::F16 => "f16",
            Dtype::I64 => "i64",
            Dtype::U64 => "u64",
            Dtype::F64 => "f64",
        }
    }

    /// Size of one value in bytes.
    pub fn size(self) -> u32 {
        match self {
            Dtype::F16 => 2,
            Dtype::I32 | Dtype::U32 | Dtype::F32 => 4,
            Dtype::I64 | Dtype::U64 | Dtype::F64 => 8,
        }
    }

    /// Width in bits.
    pub fn bits(self) -> u32 {
        self.size() * 8
    }

    /// Integer or float, signed or not.
    pub fn kind(self) -> Kind {
        match self {
            Dtype::I32 | Dtype::I64 => Kind::Signed,
            Dtype::U32 | Dtype::U64 => Kind::Unsigned,
            Dtype::F16 | Dtype::F32 | Dtype::F64 => Kind::Float,
        }
    }

    /// True for the float dtypes.
    pub fn is_float(self) -> bool {
        self.kind() == Kind::Float
    }

    /// Every target feature this dtype needs: [`Dtype::feature`], and for
    /// `f64` also 64-bit integers (its shuffles move it as `u64` halves).
    pub fn features(self) -> &'static [ScalarFeature] {
        match self {
            Dtype::I32 | Dtype::U32 | Dtype::F32 => &[],
            Dtype::F16 => &[ScalarFeature::F16],
            Dtype::I64 | Dtype::U64 => &[ScalarFeature::Int64],
            Dtype::F64 => &[ScalarFeature::F64, ScalarFeature::Int64],
        }
    }

    /// The target feature this dtype is named after, if any.
    pub fn feature(self) -> Option<ScalarFeature> {
        match self {
            Dtype::I32 | Dtype::U32 | Dtype::F32 => None,
            Dtype::F16 => Some(ScalarFeature::F16),
            Dtype::I64 | Dtype::U64 => Some(ScalarFeature::Int64),
            Dtype::F64 => Some(ScalarFeature::F64),
        }
    }

    /// A WGSL literal of this type for an integer value that fits it.
    pub fn int_literal(self, value: i128) -> String {
        match self {
            Dtype::I32 if value == i128::from(i32::MIN) => "i32(-2147483648)".into(),
            Dtype::I32 => format!("{value}i"),
            Dtype::U32 => format!("{value}u"),
            Dtype::I64 if value == i128::from(i64::MIN) => "(-9223372036854775807li - 1li)".into(),
            Dtype::I64 => format!("{value}li"),
            Dtype::U64 => format!("{value}lu"),
            Dtype::F16 => format!("{value}.0h"),
            Dtype::F32 => format!("{value}.0f"),
            Dtype::F64 => format!("{value}.0lf"),
        }
    }

    /// WGSL expression for the largest value of the type (+inf for floats).
    pub fn max_value_expr(self) -> String {
        match self {
            Dtype::I32 => self.int_literal(i128::from(i32::MAX)),
            Dtype::U32 => self.int_literal(i128::from(u32::MAX)),
            Dtype::I64 => self.int_literal(i128::from(i64::MAX)),
            Dtype::U64 => self.int_literal(i128::from(u64::MAX)),
            // naga has no 32 -> 16-bit bitcast; converting f32 infinity is exact.
            Dtype::F16 => "f16(bitcast<f32>(0x7f800000u))".into(),
            Dtype::F32 => "bitcast<f32>(0x7f800000u)".into(),
            Dtype::F64 => "bitcast<f64>(0x7ff0000000000000lu)".into(),
        }
    }

    /// WGSL expression for the smallest value of the type (-inf for floats).
    pub fn min_value_expr(self) -> String {
        match self {
            Dtype::I32 => self.int_literal(i128::from(i32::MIN)),
            Dtype::U32 | Dtype::U64 => self.int_literal(0),
            Dtype::I64 => self.int_literal(i128::from(i64::MIN)),
            Dtype::F16 => "f16(bitcast<f32>(0xff800000u))".into(),
            Dtype::F32 => "bitcast<f32>(0xff800000u)".into(),
            Dtype::F64 => "bitcast<f64>(0xfff0000000000000lu)".into(),
        }
    }
}

impl fmt::Display for Dtype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.wgsl())
    }
}

/// The text was not the name of a dtype.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown dtype `{0}`{hint} (expected one of i32, u32, f32, f16, i64, u64, f64)",
    hint = UnknownDtype::suggestion(.0).map(|d| format!(" (did you mean `{d}`?)")).unwrap_or_default()
)]
pub struct UnknownDtype(pub String);

impl UnknownDtype {
    /// The dtype closest to `text` (`f23` → `f32`, `float` → none), for
    /// "did you mean" hints.
    pub fn suggestion(text: &str) -> Option<Dtype> {
        Dtype::ALL
            .into_iter()
            .map(|d| (strsim::levenshtein(text, d.wgsl()), d))
            .filter(|(distance, _)| *distance <= 2)
            .min_by_key(|(distance, _)| *distance)
            .map(|(_, d)| d)
    }
}

impl FromStr for Dtype {
    type Err = UnknownDtype;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dtype::ALL
            .into_iter()
            .find(|d| d.wgsl() == s)
            .ok_or_else(|| UnknownDtype(s.to_string()))
    }
}
