//! Block loads and stores, checked over whole workgroups against a tile in
//! workgroup memory that the case fills from its operands: what each
//! thread's items hold after a load, what the tile holds after a store.

use rand::Rng;

use super::Inputs;
use super::block_exchange::{bind_items, items_from_operands, tile_index};
use crate::catalog::Param;
use crate::conformance::case::{Case, CaseBuilder, Lanes};
use crate::conformance::expected::Expected;
use crate::conformance::value::{Value, ValueType, random_bits};
use crate::dtype::Dtype;
use crate::expand::Instance;

/// Where the workgroup's tile starts in the case's array.
const OFFSET: u32 = 2;

/// The most items the suite passes to `op` (the largest sample of its
/// `items`).
pub(super) fn most_items(op: &str) -> u32 {
    crate::catalog::find(op)
        .and_then(|p| {
            p.params.iter().find_map(|p| match p {
                Param::Const {
                    name: "items",
                    samples,
                    ..
                } => samples.iter().copied().max(),
                _ => None,
            })
        })
        .expect("loads take items")
}

/// Elements of the case's array for workgroups of `b` threads: the tile at
/// [`OFFSET`] of every sampled `items`.
fn array_len(b: u32) -> u32 {
    OFFSET + b * most_items("block::load_direct_blocked")
}

/// The array the suite's loads and stores of `dtype` over `b` threads name.
pub(crate) fn array_name(dtype: Dtype, b: u32) -> String {
    format!("wk_conf_tile_{dtype}_{b}")
}

pub(super) fn cases(instance: &Instance, inputs: &mut Inputs) -> Vec<Case> {
    let dtype = instance.dtype.expect("block loads take a dtype");
    let b = instance.block_dim.expect("block loads take B");
    let n = instance.constant("items");
    let valid = inputs.rng().random_range(b * n / 2..=b * n);
    let array = TileArray {
        name: array_name(dtype, b),
        len: array_len(b),
        offset: OFFSET,
        vectors: false,
    };
    vec![tile_case(instance, inputs, &array, valid)]
}

/// The array a case's load or store names, which the case declares in
/// workgroup memory and fills from its operands.
pub(super) struct TileArray {
    /// Its name.
    pub name: String,
    /// Its length, in elements of T.
    pub len: u32,
    /// Where the workgroup's tile starts, in elements of T.
    pub offset: u32,
    /// Whether it is an array of `vec4<T>` (`len / 4` words) rather than
    /// of T.
    pub vectors: bool,
}

impl TileArray {
    /// WGSL naming element `x` (a u32 expression) of the array.
    fn element(&self, x: &str) -> String {
        if self.vectors {
            format!("{}[({x}) / 4u][({x}) % 4u]", self.name)
        } else {
            format!("{}[{x}]", self.name)
        }
    }

    /// The module-scope declaration, for elements of type `t`.
    fn declaration(&self, t: &str) -> String {
        if self.vectors {
            format!(
                "var<workgroup> {}: array<vec4<{t}>, {}>;\n",
                self.name,
                self.len / 4
            )
        } else {
            format!("var<workgroup> {}: array<{t}, {}>;\n", self.name, self.len)
        }
    }
}

/// The case of a load or store of `instance` (its kind from its name:
/// `store_*`, `*_striped`, `*_transpose`, blocked otherwise) over `array`
/// with `valid` valid items: the array filled from operands, the call, and
/// the items (a load) or the array (a store) after it.
pub(super) fn tile_case(
    instance: &Instance,
    inputs: &mut Inputs,
    array: &TileArray,
    valid: u32,
) -> Case {
    let dtype = instance.dtype.expect("block loads take a dtype");
    let b = instance.block_dim.expect("block loads take B");
    let n = instance.constant("items");
    let ty = ValueType::Scalar(dtype);
    let t = dtype.wgsl();
    let (len, offset) = (array.len, array.offset);
    let fills = len.div_ceil(b);
    let name = instance.primitive.name;
    let store = name.starts_with("store_");
    let striped = name.ends_with("_striped");
    let transposed = name.ends_with("_transpose");
    // Fill the array: element j * b + t from operand j of thread t.
    let mut code = String::from("workgroupBarrier();\n");
    for j in 0..fills {
        code.push_str(&format!(
            "if ({j}u * threads + thread < {len}u) {{ {} = ${j}; }}\n",
            array.element(&format!("{j}u * threads + thread"))
        ));
    }
    code.push_str("workgroupBarrier();\n");
    code.push_str(&items_from_operands(t, n, fills));
    code.push_str(&format!("\n$f({offset}u, {valid}u, &items);\n"));
    if store {
        code.push_str("workgroupBarrier();\n");
        let reads: Vec<String> = (0..fills)
            .map(|j| array.element(&format!("min({j}u * threads + thread, {}u)", len - 1)))
            .collect();
        code.push_str(&format!(
            "let r = array<{t}, {fills}>({});",
            reads.join(", ")
        ));
    } else {
        code.push_str(bind_items(n));
    }
    let model = move |l: &Lanes<'_>| {
        let element = |x: u32| l.get((x / b) as usize, x % b);
        let item = |t: u32, k: u32| l.get((fills + k) as usize, t);
        // Tile index of thread t's item k in memory (stores of a transposed
        // store write the blocked items, like a blocked store).
        let index = |t: u32, k: u32| tile_index(striped, b, n, t, k);
        let mut out = Vec::new();
        if store {
            let mut after: Vec<Value> = (0..len).map(element).collect();
            for t in 0..b {
                for k in 0..n {
                    if index(t, k) < valid {
                        after[(offset + index(t, k)) as usize] = item(t, k);
                    }
                }
            }
            for t in 0..b {
                for j in 0..fills {
                    let x = j * b + t;
                    out.push((x < len).then(|| Expected::from(after[x as usize])));
                }
            }
        } else {
            for t in 0..b {
                for k in 0..n {
                    out.push(if index(t, k) < valid {
                        Some(element(offset + index(t, k)).into())
                    } else if transposed {
                        None
                    } else {
                        Some(item(t, k).into())
                    });
                }
            }
        }
        out
    };
    let mut builder = CaseBuilder::new(instance.spec(), instance.lowering, ty, model);
    for _ in 0..fills + n {
        builder = builder.operand(ty, inputs.per_invocation(|rng, _| random_bits(dtype, rng)));
    }
    builder
        .custom(code)
        .support(array.declaration(t))
        .label(format!(
            "random bits, offset {offset}, {valid} valid of {}",
            b * n
        ))
        .results(if store { fills } else { n })
        .block(b)
        .build()
}
