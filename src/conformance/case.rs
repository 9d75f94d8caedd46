//! One conformance case: an instance called with per-lane operands and
//! uniform literals, and the reference model of what each lane must get.

use crate::expand::InstanceSpec;
use crate::target::Lowering;

use super::expected::Expected;
use super::value::{Value, ValueType};

/// Per-invocation inputs of one operand, one value per invocation.
#[derive(Clone, Debug)]
pub struct Operand {
    /// The operand's type.
    pub ty: ValueType,
    /// One value per invocation of the dispatch, in global invocation order.
    pub values: Vec<Value>,
}

/// An argument of the call under test.
#[derive(Clone, Debug)]
pub enum CallArg {
    /// The `i`-th operand, loaded per invocation.
    Operand(usize),
    /// A WGSL expression that is uniform across the dispatch (`3u`).
    Literal(String),
}

/// How the case's WGSL is written.
#[derive(Clone, Debug)]
pub enum Call {
    /// `let r = <function>(<args>);`
    Function(Vec<CallArg>),
    /// A statement sequence that ends by binding `r`. `$f` stands for the
    /// instance's function and `$0`, `$1`, ... for the operands; the kernel
    /// also provides `lane`, `subgroup` (subgroup id in the workgroup),
    /// `lane_count` (subgroup size), `thread` (local invocation index),
    /// `threads` (workgroup size) and a `wk_conf_scratch` workgroup array
    /// of `threads` words.
    Custom(String),
}

/// The lanes of one subgroup (or the threads of one workgroup, for block
/// cases), as the reference models see them.
pub struct Lanes<'a> {
    /// The subgroup's (workgroup's) size.
    pub size: u32,
    /// The subgroup size the lanes ran at: `size` for subgroup cases, the
    /// size the workgroup's subgroups read for block cases (warp-striped
    /// arrangements depend on it).
    pub subgroup_size: u32,
    /// `operands[i][lane]`: operand `i` of each lane.
    pub operands: Vec<Vec<&'a Value>>,
}

impl Lanes<'_> {
    /// Operand `i` of `lane`.
    pub fn get(&self, operand: usize, lane: u32) -> Value {
        *self.operands[operand][lane as usize]
    }
}

/// A reference model: the expected result of each lane of a subgroup, `None`
/// where the contract leaves the result undefined.
pub type Model = Box<dyn Fn(&Lanes<'_>) -> Vec<Option<Expected>>>;

/// One case of the suite.
pub struct Case {
    /// The instance under test.
    pub spec: InstanceSpec,
    /// The lowering the instance is expanded with.
    pub lowering: Lowering,
    /// What distinguishes this case from the instance's other cases.
    pub label: String,
    /// Per-invocation inputs.
    pub operands: Vec<Operand>,
    /// How the instance is called.
    pub call: Call,
    /// The result type.
    pub ret: ValueType,
    /// The reference model.
    pub model: Model,
    /// Module-scope WGSL the case needs besides the library (the user
    /// function of a generic operator).
    pub support: Option<String>,
    /// For block ops, threads per workgroup: the model then sees whole
    /// workgroups in `local_invocation_index` order instead of subgroups.
    pub block_dim: Option<u32>,
    /// Results per invocation: with more than one, the call binds `r` to an
    /// array of that many and the model returns each lane's results one
    /// after another (lane 0's, then lane 1's, ...).
    pub results: u32,
}

/// Builds a [`Case`] step by step.
pub struct CaseBuilder {
    case: Case,
}

impl CaseBuilder {
    /// A case of `spec` returning `ret`, whose expected lanes `model` computes.
    pub fn new(
        spec: InstanceSpec,
        lowering: Lowering,
        ret: ValueType,
        model: impl Fn(&Lanes<'_>) -> Vec<Option<Expected>> + 'static,
    ) -> Self {
        CaseBuilder {
            case: Case {
                spec,
                lowering,
                label: String::new(),
                operands: Vec::new(),
                call: Call::Function(Vec::new()),
                ret,
                model: Box::new(model),
                block_dim: None,
                support: None,
                results: 1,
            },
        }
    }

    /// Describes the case's inputs.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.case.label = label.into();
        self
    }

    /// Passes a per-invocation operand as the next argument.
    pub fn operand(mut self, ty: ValueType, values: Vec<Value>) -> Self {
        let index = self.case.operands.len();
        self.case.operands.push(Operand { ty, values });
        if let Call::Function(args) = &mut self.case.call {
            args.push(CallArg::Operand(index));
        }
        self
    }

    /// Passes a uniform WGSL expression as the next argument.
    pub fn literal(mut self, wgsl: impl Into<String>) -> Self {
        if let Call::Function(args) = &mut self.case.call {
            args.push(CallArg::Literal(wgsl.into()));
        }
        self
    }

    /// Replaces the call by custom statements (see [`Call::Custom`]).
    pub fn custom(mut self, body: impl Into<String>) -> Self {
        self.case.call = Call::Custom(body.into());
        self
    }

    /// Makes it a block case over workgroups of `block_dim` threads.
    pub fn block(mut self, block_dim: u32) -> Self {
        self.case.block_dim = Some(block_dim);
        self
    }

    /// Makes `r` an array of `results` values per invocation (see
    /// [`Case::results`]).
    pub fn results(mut self, results: u32) -> Self {
        self.case.results = results;
        self
    }

    /// Adds module-scope WGSL the case needs.
    pub fn support(mut self, wgsl: impl Into<String>) -> Self {
        self.case.support = Some(wgsl.into());
        self
    }

    /// The finished case.
    pub fn build(self) -> Case {
        self.case
    }
}
