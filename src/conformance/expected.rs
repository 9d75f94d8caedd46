//! What a lane must hold: exactly a value, a value as a number, or a value
//! within a tolerance.

use std::fmt;

use super::value::{Value, float_of};

/// The expected result of one lane.
#[derive(Clone, Copy, Debug)]
pub enum Expected {
    /// These exact bits (data movement, integer arithmetic, votes).
    Exact(Value),
    /// This number: floats compare with `==` except that NaN matches NaN and
    /// either zero matches the other (float min / max, sorted keys).
    Numeric(Value),
    /// A float within `tolerance` of `value` (sums and products, whose
    /// rounding depends on the combination order).
    Near {
        /// The exact result, computed in f64.
        value: f64,
        /// The largest error the contract allows.
        tolerance: f64,
    },
}

impl Expected {
    /// Whether `got` satisfies the expectation.
    pub fn accepts(self, got: Value) -> bool {
        match self {
            Expected::Exact(want) => want.same_as(got),
            Expected::Numeric(want) => want.numerically_same(got),
            Expected::Near { value, tolerance } => match got {
                Value::Bits(d, bits) if d.is_float() => {
                    let x = float_of(d, bits);
                    (x - value).abs() <= tolerance || x == value
                }
                _ => false,
            },
        }
    }
}

impl From<Value> for Expected {
    fn from(value: Value) -> Self {
        Expected::Exact(value)
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Exact(v) => write!(f, "{v}"),
            Expected::Numeric(v) => write!(f, "{v} (as a number)"),
            Expected::Near { value, tolerance } => write!(f, "{value} ± {tolerance:e}"),
        }
    }
}
