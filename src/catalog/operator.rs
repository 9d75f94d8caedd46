//! The binary operators of reductions and scans.

use crate::dtype::{Dtype, Kind};

/// An associative, commutative binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Operator {
    /// `a + b` (wrapping for integers).
    Add,
    /// `a * b` (wrapping for integers).
    Mul,
    /// `min(a, b)`.
    Min,
    /// `max(a, b)`.
    Max,
    /// `a & b` (integers).
    And,
    /// `a | b` (integers).
    Or,
    /// `a ^ b` (integers).
    Xor,
}

/// Integer dtypes: the bitwise operators' domain.
pub(crate) const INTEGER_DTYPES: &[Dtype] = &Dtype::INTEGERS;

impl Operator {
    /// Every operator.
    pub const ALL: [Operator; 7] = [
        Operator::Add,
        Operator::Mul,
        Operator::Min,
        Operator::Max,
        Operator::And,
        Operator::Or,
        Operator::Xor,
    ];

    /// Lower-case name, as in op names (`reduce_add`).
    pub fn name(self) -> &'static str {
        match self {
            Operator::Add => "add",
            Operator::Mul => "mul",
            Operator::Min => "min",
            Operator::Max => "max",
            Operator::And => "and",
            Operator::Or => "or",
            Operator::Xor => "xor",
        }
    }

    /// The WGSL builtin stem: `subgroup{Add}`, `subgroupInclusive{Add}`.
    pub fn builtin_stem(self) -> &'static str {
        match self {
            Operator::Add => "Add",
            Operator::Mul => "Mul",
            Operator::Min => "Min",
            Operator::Max => "Max",
            Operator::And => "And",
            Operator::Or => "Or",
            Operator::Xor => "Xor",
        }
    }

    /// Whether WGSL has inclusive / exclusive scan builtins for it.
    pub fn has_scan_builtin(self) -> bool {
        matches!(self, Operator::Add | Operator::Mul)
    }

    /// WGSL for `a op b`.
    pub fn combine(self, a: &str, b: &str) -> String {
        match self {
            Operator::Add => format!("{a} + {b}"),
            Operator::Mul => format!("{a} * {b}"),
            Operator::Min => format!("min({a}, {b})"),
            Operator::Max => format!("max({a}, {b})"),
            Operator::And => format!("{a} & {b}"),
            Operator::Or => format!("{a} | {b}"),
            Operator::Xor => format!("{a} ^ {b}"),
        }
    }

    /// WGSL expression of the identity element for `dtype`: 0, 1, the
    /// largest / smallest value (±inf for floats), all ones.
    pub fn identity_expr(self, dtype: Dtype) -> String {
        match self {
            Operator::Add | Operator::Or | Operator::Xor => dtype.int_literal(0),
            Operator::Mul => dtype.int_literal(1),
            Operator::Min => dtype.max_value_expr(),
            Operator::Max => dtype.min_value_expr(),
            Operator::And => match dtype.kind() {
                Kind::Signed => dtype.int_literal(-1),
                _ => dtype.max_value_expr(),
            },
        }
    }
}
