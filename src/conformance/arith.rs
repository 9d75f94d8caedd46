//! Reference arithmetic for reductions and scans: exact wrapping integer
//! operations, and float results with an error bound for the summation order.

use std::cmp::Ordering;

use crate::catalog::Operator;
use crate::dtype::{Dtype, Kind};

use super::expected::Expected;
use super::value::{Value, float_of, min_normal};

/// A scalar as a number, for ordering.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub enum Number {
    /// Integers, signed or not.
    Int(i128),
    /// Floats.
    Float(f64),
}

/// `value` as a number of its dtype.
pub fn number(value: Value) -> Number {
    match value {
        Value::Bits(d, bits) => match d.kind() {
            Kind::Float => Number::Float(float_of(d, bits)),
            Kind::Unsigned => Number::Int(i128::from(bits)),
            Kind::Signed if d.bits() == 32 => Number::Int(i128::from(bits as u32 as i32)),
            Kind::Signed => Number::Int(i128::from(bits as i64)),
        },
        other => Number::Int(i128::from(other.bits())),
    }
}

/// Total order of NaN-free numbers of one dtype.
pub fn compare(a: Value, b: Value) -> Ordering {
    number(a).partial_cmp(&number(b)).unwrap_or(Ordering::Equal)
}

fn mask(dtype: Dtype) -> u64 {
    if dtype.bits() == 64 {
        u64::MAX
    } else {
        (1u64 << dtype.bits()) - 1
    }
}

/// The identity of `op` for `dtype`, as bits.
pub fn identity(op: Operator, dtype: Dtype) -> Value {
    let m = mask(dtype);
    let bits = match (op, dtype.kind()) {
        (Operator::Add | Operator::Or | Operator::Xor, _) => 0,
        (Operator::And, _) => m,
        (Operator::Mul, Kind::Float) => float_bits(dtype, 1.0),
        (Operator::Mul, _) => 1,
        (Operator::Min, Kind::Float) => float_bits(dtype, f64::INFINITY),
        (Operator::Max, Kind::Float) => float_bits(dtype, f64::NEG_INFINITY),
        (Operator::Min, Kind::Unsigned) => m,
        (Operator::Max, Kind::Unsigned) => 0,
        (Operator::Min, Kind::Signed) => m >> 1,
        (Operator::Max, Kind::Signed) => (m >> 1) + 1,
    };
    Value::Bits(dtype, bits)
}

/// The bits of `x` rounded to a float dtype.
pub fn float_bits(dtype: Dtype, x: f64) -> u64 {
    match dtype {
        Dtype::F16 => u64::from(half::f16::from_f64(x).to_bits()),
        Dtype::F32 => u64::from((x as f32).to_bits()),
        _ => x.to_bits(),
    }
}

/// Unit roundoff of a float dtype.
fn unit_roundoff(dtype: Dtype) -> f64 {
    match dtype {
        Dtype::F16 => 2f64.powi(-11),
        Dtype::F32 => 2f64.powi(-24),
        _ => 2f64.powi(-53),
    }
}

/// `a op b` for integers, wrapping at the dtype's width.
fn integer_op(op: Operator, dtype: Dtype, a: Value, b: Value) -> Value {
    let (x, y) = (a.bits(), b.bits());
    let bits = match op {
        Operator::Add => x.wrapping_add(y),
        Operator::Mul => x.wrapping_mul(y),
        Operator::And => x & y,
        Operator::Or => x | y,
        Operator::Xor => x ^ y,
        Operator::Min => {
            return if compare(a, b) == Ordering::Greater {
                b
            } else {
                a
            };
        }
        Operator::Max => {
            return if compare(a, b) == Ordering::Less {
                b
            } else {
                a
            };
        }
    };
    Value::Bits(dtype, bits & mask(dtype))
}

/// What `op` folded over `values` must give, with the identity for an
/// empty fold. Integers: exact. Float min / max: the extreme value as a
/// number. Float sums and products: within the worst-case rounding error of
/// any combination order, `1.5 (n-1) u + u` relative to `Σ|x|` (sums) or
/// `|Π x|` (products), plus `n` times the smallest normal for flushed
/// subnormal partial results.
pub fn fold(op: Operator, dtype: Dtype, values: &[Value]) -> Expected {
    if values.is_empty() {
        return Expected::Numeric(identity(op, dtype));
    }
    if !dtype.is_float() {
        let result = values[1..]
            .iter()
            .fold(values[0], |acc, &v| integer_op(op, dtype, acc, v));
        return Expected::Exact(result);
    }
    let xs: Vec<f64> = values.iter().map(|v| float_of(dtype, v.bits())).collect();
    let n = xs.len() as f64;
    let bound = 1.5 * (n - 1.0) * unit_roundoff(dtype) + unit_roundoff(dtype);
    let slack = n * min_normal(dtype);
    match op {
        Operator::Min | Operator::Max => {
            let pick = if op == Operator::Min {
                Ordering::Less
            } else {
                Ordering::Greater
            };
            let best =
                values[1..].iter().fold(
                    values[0],
                    |acc, &v| {
                        if compare(v, acc) == pick { v } else { acc }
                    },
                );
            Expected::Numeric(best)
        }
        Operator::Add => Expected::Near {
            value: xs.iter().sum(),
            tolerance: bound * xs.iter().map(|x| x.abs()).sum::<f64>() + slack,
        },
        Operator::Mul => {
            let product: f64 = xs.iter().product();
            Expected::Near {
                value: product,
                tolerance: bound * product.abs() + slack,
            }
        }
        Operator::And | Operator::Or | Operator::Xor => {
            unreachable!("bitwise operators take integer dtypes")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_wrap_and_order_by_sign() {
        let i = |x: i32| Value::Bits(Dtype::I32, u64::from(x as u32));
        assert_eq!(
            fold(Operator::Add, Dtype::I32, &[i(i32::MAX), i(1)]).to_string(),
            i(i32::MIN).to_string()
        );
        assert_eq!(
            fold(Operator::Min, Dtype::I32, &[i(3), i(-5), i(2)]).to_string(),
            "-5"
        );
        let u = |x: u64| Value::Bits(Dtype::U64, x);
        assert!(matches!(
            fold(Operator::Max, Dtype::U64, &[u(1), u(u64::MAX)]),
            Expected::Exact(Value::Bits(Dtype::U64, u64::MAX))
        ));
    }

    #[test]
    fn identities_are_neutral() {
        assert_eq!(identity(Operator::Min, Dtype::I64).bits(), i64::MAX as u64);
        assert_eq!(identity(Operator::Max, Dtype::I32).bits(), 0x8000_0000);
        assert_eq!(identity(Operator::Max, Dtype::U32).bits(), 0);
        assert_eq!(identity(Operator::And, Dtype::U32).bits(), 0xffff_ffff);
        assert_eq!(identity(Operator::Min, Dtype::F16).bits(), 0x7c00);
        assert_eq!(identity(Operator::Mul, Dtype::F32).bits(), 0x3f80_0000);
    }

    #[test]
    fn float_sums_get_an_order_dependent_tolerance() {
        let f = |x: f32| Value::Bits(Dtype::F32, u64::from(x.to_bits()));
        let Expected::Near { value, tolerance } =
            fold(Operator::Add, Dtype::F32, &[f(1.0), f(2.0), f(-0.5)])
        else {
            panic!("float sums are compared within a tolerance");
        };
        assert_eq!(value, 2.5);
        assert!(tolerance > 0.0 && tolerance < 1e-5);
        // Any order of f32 additions lands within it.
        let reordered = (-0.5f32 + 2.0) + 1.0;
        assert!(Expected::Near { value, tolerance }.accepts(f(reordered)));
    }
}
