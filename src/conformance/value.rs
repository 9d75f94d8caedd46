//! Values that cross the host/GPU boundary in conformance kernels: their
//! types, their encoding as `u32` words, comparison and random generation.

use std::fmt;

use rand::Rng;

use crate::dtype::{Dtype, Kind};

/// The type of a kernel operand or result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ValueType {
    /// A scalar of a dtype.
    Scalar(Dtype),
    /// `bool`, stored as one word (0 or 1).
    Bool,
    /// `vec4<u32>`, a 128-lane ballot.
    Ballot,
    /// The struct `wk_sg_kv__K__V { key, value }`.
    KeyValue(Dtype, Dtype),
}

impl ValueType {
    /// Words one value occupies in a buffer.
    pub fn words(self) -> u32 {
        match self {
            ValueType::Scalar(d) if d.size() == 8 => 2,
            ValueType::Scalar(_) | ValueType::Bool => 1,
            ValueType::Ballot => 4,
            ValueType::KeyValue(k, v) => {
                ValueType::Scalar(k).words() + ValueType::Scalar(v).words()
            }
        }
    }

    /// The WGSL type.
    pub fn wgsl(self) -> String {
        match self {
            ValueType::Scalar(d) => d.wgsl().into(),
            ValueType::Bool => "bool".into(),
            ValueType::Ballot => "vec4<u32>".into(),
            ValueType::KeyValue(k, v) => format!("wk_sg_kv__{k}__{v}"),
        }
    }

    /// Name of the kernel's load / store helpers for this type.
    pub fn helper_suffix(self) -> String {
        match self {
            ValueType::Ballot => "ballot".into(),
            ValueType::KeyValue(k, v) => format!("kv_{k}_{v}"),
            other => other.wgsl(),
        }
    }

    /// Other types whose helpers this type's helpers call.
    pub fn parts(self) -> Vec<ValueType> {
        match self {
            ValueType::KeyValue(k, v) => vec![ValueType::Scalar(k), ValueType::Scalar(v)],
            _ => Vec::new(),
        }
    }

    /// WGSL of `fn wk_conf_load_<t>(at: u32) -> T` reading `wk_conf_in`.
    pub fn load_helper(self) -> String {
        let body = match self {
            ValueType::Scalar(Dtype::U32) => "wk_conf_in[at]".to_string(),
            ValueType::Scalar(Dtype::I32) => "bitcast<i32>(wk_conf_in[at])".into(),
            ValueType::Scalar(Dtype::F32) => "bitcast<f32>(wk_conf_in[at])".into(),
            // naga has no 32 -> 2x16 bitcast, so f16 travels through f32,
            // which is exact for every value (NaN payloads may be quieted).
            ValueType::Scalar(Dtype::F16) => "f16(unpack2x16float(wk_conf_in[at]).x)".into(),
            ValueType::Scalar(d @ (Dtype::I64 | Dtype::U64 | Dtype::F64)) => {
                let bits = "(u64(wk_conf_in[at]) | (u64(wk_conf_in[at + 1u]) << 32u))";
                if d == Dtype::U64 {
                    bits.to_string()
                } else {
                    format!("bitcast<{}>{bits}", d.wgsl())
                }
            }
            ValueType::Bool => "wk_conf_in[at] != 0u".into(),
            ValueType::Ballot => "vec4<u32>(wk_conf_in[at], wk_conf_in[at + 1u], \
                                  wk_conf_in[at + 2u], wk_conf_in[at + 3u])"
                .into(),
            ValueType::KeyValue(k, v) => format!(
                "{}(wk_conf_load_{k}(at), wk_conf_load_{v}(at + {}u))",
                self.wgsl(),
                ValueType::Scalar(k).words()
            ),
        };
        format!(
            "fn wk_conf_load_{}(at: u32) -> {} {{\n    return {body};\n}}\n",
            self.helper_suffix(),
            self.wgsl()
        )
    }

    /// WGSL of `fn wk_conf_store_<t>(at: u32, v: T)` writing `wk_conf_out`.
    pub fn store_helper(self) -> String {
        let body = match self {
            ValueType::Scalar(Dtype::U32) => "    wk_conf_out[at] = v;\n".to_string(),
            ValueType::Scalar(Dtype::I32 | Dtype::F32) => {
                "    wk_conf_out[at] = bitcast<u32>(v);\n".into()
            }
            ValueType::Scalar(Dtype::F16) => {
                "    wk_conf_out[at] = pack2x16float(vec2<f32>(f32(v), 0.0));\n".into()
            }
            ValueType::Scalar(d @ (Dtype::I64 | Dtype::U64 | Dtype::F64)) => {
                let bits = if d == Dtype::U64 {
                    "v".to_string()
                } else {
                    "bitcast<u64>(v)".to_string()
                };
                format!(
                    "    let bits = {bits};\n    wk_conf_out[at] = u32(bits & 0xfffffffflu);\n    \
                     wk_conf_out[at + 1u] = u32(bits >> 32u);\n"
                )
            }
            ValueType::Bool => "    wk_conf_out[at] = select(0u, 1u, v);\n".into(),
            ValueType::Ballot => (0..4)
                .map(|i| format!("    wk_conf_out[at + {i}u] = v[{i}];\n"))
                .collect(),
            ValueType::KeyValue(k, v) => format!(
                "    wk_conf_store_{k}(at, v.key);\n    wk_conf_store_{v}(at + {}u, v.value);\n",
                ValueType::Scalar(k).words()
            ),
        };
        format!(
            "fn wk_conf_store_{}(at: u32, v: {}) {{\n{body}}}\n",
            self.helper_suffix(),
            self.wgsl()
        )
    }
}

/// One value: the raw bits of a scalar, a bool, or ballot words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A scalar's bit pattern, zero-extended to 64 bits.
    Bits(Dtype, u64),
    /// A boolean.
    Bool(bool),
    /// A `vec4<u32>` ballot.
    Ballot([u32; 4]),
    /// A key/value pair: two scalars.
    Pair(Dtype, u64, Dtype, u64),
}

impl Value {
    /// A `u32`.
    pub fn u32(v: u32) -> Value {
        Value::Bits(Dtype::U32, u64::from(v))
    }

    /// A `u64`.
    pub fn u64(v: u64) -> Value {
        Value::Bits(Dtype::U64, v)
    }

    /// The bits of a scalar (panics on bool / ballot: callers know the type).
    pub fn bits(self) -> u64 {
        match self {
            Value::Bits(_, b) => b,
            Value::Bool(b) => u64::from(b),
            Value::Ballot(w) => u64::from(w[0]) | (u64::from(w[1]) << 32),
            Value::Pair(_, k, _, _) => k,
        }
    }

    /// The value as a `u32` (lane indices, masks).
    pub fn as_u32(self) -> u32 {
        self.bits() as u32
    }

    /// The value as a bool (predicates).
    pub fn as_bool(self) -> bool {
        match self {
            Value::Bool(b) => b,
            other => other.bits() != 0,
        }
    }

    /// Encodes into `ty.words()` words.
    pub fn encode(self, out: &mut Vec<u32>) {
        match self {
            Value::Bits(d, b) if d.size() == 8 => out.extend([b as u32, (b >> 32) as u32]),
            Value::Bits(_, b) => out.push(b as u32),
            Value::Bool(b) => out.push(u32::from(b)),
            Value::Ballot(w) => out.extend(w),
            Value::Pair(kd, k, vd, v) => {
                Value::Bits(kd, k).encode(out);
                Value::Bits(vd, v).encode(out);
            }
        }
    }

    /// Decodes a value of type `ty` from its words.
    pub fn decode(ty: ValueType, words: &[u32]) -> Value {
        match ty {
            ValueType::Scalar(d) if d.size() == 8 => {
                Value::Bits(d, u64::from(words[0]) | (u64::from(words[1]) << 32))
            }
            ValueType::Scalar(Dtype::F16) => Value::Bits(Dtype::F16, u64::from(words[0])),
            ValueType::Scalar(d) => Value::Bits(d, u64::from(words[0])),
            ValueType::Bool => Value::Bool(words[0] != 0),
            ValueType::Ballot => Value::Ballot([words[0], words[1], words[2], words[3]]),
            ValueType::KeyValue(k, v) => {
                let split = ValueType::Scalar(k).words() as usize;
                let key = Value::decode(ValueType::Scalar(k), words);
                let value = Value::decode(ValueType::Scalar(v), &words[split..]);
                Value::Pair(k, key.bits(), v, value.bits())
            }
        }
    }

    /// Equal as numbers: IEEE equality for floats (+0 == -0) except that NaN
    /// matches NaN; bits for everything else; pairs field by field.
    pub fn numerically_same(self, other: Value) -> bool {
        match (self, other) {
            (Value::Bits(d, a), Value::Bits(_, b)) if d.is_float() => {
                let (x, y) = (float_of(d, a), float_of(d, b));
                x == y || (x.is_nan() && y.is_nan())
            }
            (Value::Pair(kd, k1, vd, v1), Value::Pair(_, k2, _, v2)) => {
                Value::Bits(kd, k1).numerically_same(Value::Bits(kd, k2))
                    && Value::Bits(vd, v1).numerically_same(Value::Bits(vd, v2))
            }
            _ => self == other,
        }
    }

    /// Bit-exact agreement, except that any f16 NaN matches any other: f16
    /// crosses the kernel boundary through f32, which may quiet a payload.
    pub fn same_as(self, other: Value) -> bool {
        match (self, other) {
            (Value::Bits(Dtype::F16, a), Value::Bits(Dtype::F16, b)) => {
                a == b || (f16_of(a).is_nan() && f16_of(b).is_nan())
            }
            _ => self == other,
        }
    }

    /// WGSL `==`: IEEE equality for floats (NaN != NaN, +0 == -0), bits otherwise.
    pub fn ieee_eq(self, other: Value) -> bool {
        match (self, other) {
            (Value::Bits(d, a), Value::Bits(_, b)) if d.is_float() => {
                float_of(d, a) == float_of(d, b)
            }
            _ => self == other,
        }
    }

    /// WGSL `==` on an implementation that flushes subnormal operands to
    /// zero, which WGSL allows (NVIDIA does it for f32).
    pub fn ieee_eq_flushed(self, other: Value) -> bool {
        let flush = |d: Dtype, bits: u64| {
            let x = float_of(d, bits);
            if x != 0.0 && x.abs() < min_normal(d) {
                0.0
            } else {
                x
            }
        };
        match (self, other) {
            (Value::Bits(d, a), Value::Bits(_, b)) if d.is_float() => flush(d, a) == flush(d, b),
            _ => self == other,
        }
    }
}

fn f16_of(bits: u64) -> half::f16 {
    half::f16::from_bits(bits as u16)
}

/// The smallest positive normal value of a float dtype.
pub fn min_normal(dtype: Dtype) -> f64 {
    match dtype {
        Dtype::F16 => f64::from(half::f16::MIN_POSITIVE),
        Dtype::F32 => f64::from(f32::MIN_POSITIVE),
        _ => f64::MIN_POSITIVE,
    }
}

/// A float dtype's bits as an `f64` (exact for f16 and f32).
pub fn float_of(dtype: Dtype, bits: u64) -> f64 {
    match dtype {
        Dtype::F16 => f64::from(f16_of(bits)),
        Dtype::F32 => f64::from(f32::from_bits(bits as u32)),
        _ => f64::from_bits(bits),
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Value::Bits(d, b) => match d {
                Dtype::F16 | Dtype::F32 | Dtype::F64 => {
                    write!(f, "{} (0x{b:x})", float_of(d, b))
                }
                Dtype::I32 => write!(f, "{}", b as u32 as i32),
                Dtype::I64 => write!(f, "{}", b as i64),
                Dtype::U32 | Dtype::U64 => write!(f, "{b} (0x{b:x})"),
            },
            Value::Bool(b) => write!(f, "{b}"),
            Value::Ballot(w) => write!(f, "[{:#x}, {:#x}, {:#x}, {:#x}]", w[0], w[1], w[2], w[3]),
            Value::Pair(kd, k, vd, v) => {
                write!(f, "({}, {})", Value::Bits(kd, k), Value::Bits(vd, v))
            }
        }
    }
}

/// Bit patterns worth testing for each float width: zeros, infinities,
/// quiet and signalling NaNs, extremes, subnormals, one.
fn float_specials(dtype: Dtype) -> &'static [u64] {
    match dtype {
        Dtype::F16 => &[
            0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x7bff, 0x0001, 0x3c00,
        ],
        Dtype::F32 => &[
            0x0000_0000,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7f80_0001,
            0x7f7f_ffff,
            0x0000_0001,
            0x3f80_0000,
        ],
        _ => &[
            0,
            0x8000_0000_0000_0000,
            0x7ff0_0000_0000_0000,
            0xfff0_0000_0000_0000,
            0x7ff8_0000_0000_0000,
            0x7ff0_0000_0000_0001,
            0x7fef_ffff_ffff_ffff,
            1,
            0x3ff0_0000_0000_0000,
        ],
    }
}

/// A random value of `dtype` for data-movement tests: any bit pattern, with
/// a quarter drawn from the special values (extremes, zeros, NaNs).
pub fn random_bits(dtype: Dtype, rng: &mut impl Rng) -> Value {
    let mask = if dtype.bits() == 64 {
        u64::MAX
    } else {
        (1u64 << dtype.bits()) - 1
    };
    let bits = if rng.random_ratio(1, 4) {
        match dtype.kind() {
            Kind::Float => {
                let s = float_specials(dtype);
                s[rng.random_range(0..s.len())]
            }
            Kind::Signed | Kind::Unsigned => {
                let ints = [0u64, 1, mask, mask >> 1, (mask >> 1) + 1];
                ints[rng.random_range(0..ints.len())]
            }
        }
    } else {
        rng.random::<u64>() & mask
    };
    Value::Bits(dtype, bits)
}

/// The NaN and the two zeros of a float dtype, for equality tests.
pub fn nan_and_zeros(dtype: Dtype) -> (u64, u64, u64) {
    match dtype {
        Dtype::F16 => (0x7e00, 0x0000, 0x8000),
        Dtype::F32 => (0x7fc0_0000, 0, 0x8000_0000),
        _ => (0x7ff8_0000_0000_0000, 0, 0x8000_0000_0000_0000),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip() {
        for (ty, value) in [
            (
                ValueType::Scalar(Dtype::I64),
                Value::Bits(Dtype::I64, 0x8000_0000_0000_0001),
            ),
            (
                ValueType::Scalar(Dtype::F16),
                Value::Bits(Dtype::F16, 0x7c01),
            ),
            (ValueType::Bool, Value::Bool(true)),
            (ValueType::Ballot, Value::Ballot([1, 2, 3, 4])),
        ] {
            let mut words = Vec::new();
            value.encode(&mut words);
            assert_eq!(words.len() as u32, ty.words());
            assert_eq!(Value::decode(ty, &words), value);
        }
    }

    #[test]
    fn ieee_equality_follows_wgsl() {
        let (nan, pos, neg) = nan_and_zeros(Dtype::F32);
        let f = |b| Value::Bits(Dtype::F32, b);
        assert!(!f(nan).ieee_eq(f(nan)));
        assert!(f(pos).ieee_eq(f(neg)));
        assert!(!f(pos).same_as(f(neg)));
        // Any f16 NaN matches any other: payloads may be quieted in transit.
        assert!(Value::Bits(Dtype::F16, 0x7c01).same_as(Value::Bits(Dtype::F16, 0x7e01)));
    }
}
