//! Fuzz target (c): the native lowering on valid naga modules. A grammar
//! of the WGSL constructs the README lists as lowered (buffers with
//! runtime-sized arrays and structs, uniforms, workgroup, private and
//! function arrays, vectors, integer and float arithmetic, casts, math and
//! bit functions, atomics, subgroup operations, `if` / `for` / `switch` /
//! `loop`, helper functions, barriers) makes shaders; what naga validates
//! is lowered for NVPTX (sm_80 or sm_90) and AMDGPU (gfx942 wave64 or
//! gfx1100 wave32), with bounds checks on or off. The PTX must assemble
//! with `ptxas` and the code object must link and read back with
//! `llvm-readelf`; the only error allowed is the back end's clean "does not
//! support". The driver and how to run it longer are in
//! `tests/fuzz/driver.rs` at the workspace root.

#[path = "../../tests/fuzz/driver.rs"]
mod driver;

use driver::Rng;
use wavekit_native::amdgpu::{self, Amdgpu, Arch};
use wavekit_native::lower::{KernelRequest, Source};
use wavekit_native::nvptx::{self};
use wavekit_native::{BoundsChecks, NativeError, tools};

/// Mutations splice these into shaders.
const DICTIONARY: &[&str] = &[
    "u0",
    "f0",
    "i0",
    "li",
    "lane",
    "1u",
    "0.5",
    "-1",
    " + ",
    " * ",
    " >> ",
    "[u0]",
    "tile[li]",
    "buf_u[u1]",
    "subgroupAdd(u0)",
    "workgroupBarrier();",
    "{ }",
    "return;",
    "break;",
];

/// The typed expression grammar.
#[derive(Clone, Copy, PartialEq)]
enum Ty {
    U32,
    I32,
    F32,
    Bool,
}

struct Gen<'r> {
    rng: &'r mut Rng,
    workgroup: u32,
    /// Inside `helper` (no recursion, no barrier, returns a value).
    in_helper: bool,
}

impl Gen<'_> {
    fn index(&mut self, depth: u32) -> String {
        let e = self.expr(Ty::U32, depth);
        match self.rng.below(4) {
            0 => format!("({e}) % 64u"),
            1 => format!("({e}) & 7u"),
            _ => e,
        }
    }

    fn expr(&mut self, ty: Ty, depth: u32) -> String {
        let leaf = depth == 0 || self.rng.one_in(3);
        if leaf {
            return match ty {
                Ty::U32 => self
                    .rng
                    .pick(&["u0", "u1", "li", "lane", "gid.x", "3u", "params.x", "seed"])
                    .to_string(),
                Ty::I32 => self.rng.pick(&["i0", "-7", "i32(li)"]).to_string(),
                Ty::F32 => self.rng.pick(&["f0", "f1", "0.25", "f32(li)"]).to_string(),
                Ty::Bool => self.rng.pick(&["b0", "lane < 3u", "true"]).to_string(),
            };
        }
        let d = depth - 1;
        match ty {
            Ty::U32 => match self.rng.below(17) {
                0 => format!(
                    "({} {} {})",
                    self.expr(Ty::U32, d),
                    self.rng.pick(&["+", "-", "*", "&", "|", "^"]),
                    self.expr(Ty::U32, d)
                ),
                1 => format!(
                    "({} / ({} | 1u))",
                    self.expr(Ty::U32, d),
                    self.expr(Ty::U32, d)
                ),
                2 => format!(
                    "({} % ({} | 1u))",
                    self.expr(Ty::U32, d),
                    self.expr(Ty::U32, d)
                ),
                3 => format!(
                    "({} >> ({} & 31u))",
                    self.expr(Ty::U32, d),
                    self.expr(Ty::U32, d)
                ),
                4 => format!("buf_u[{}]", self.index(d)),
                5 => format!("tile[{}]", self.index(d)),
                6 => format!("arr[{}]", self.index(d)),
                7 => format!("u32({})", self.expr(Ty::F32, d)),
                8 => format!("u32({})", self.expr(Ty::I32, d)),
                9 => format!(
                    "select({}, {}, {})",
                    self.expr(Ty::U32, d),
                    self.expr(Ty::U32, d),
                    self.expr(Ty::Bool, d)
                ),
                10 => format!(
                    "{}({})",
                    self.rng.pick(&[
                        "countOneBits",
                        "reverseBits",
                        "firstLeadingBit",
                        "subgroupAdd",
                        "subgroupMax",
                        "subgroupBroadcastFirst",
                        "subgroupExclusiveAdd",
                        "subgroupOr"
                    ]),
                    self.expr(Ty::U32, d)
                ),
                11 => format!(
                    "subgroupShuffle({}, {})",
                    self.expr(Ty::U32, d),
                    self.index(d)
                ),
                12 => format!(
                    "atomicAdd(&counters[({}) & 3u], {})",
                    self.index(d),
                    self.expr(Ty::U32, d)
                ),
                13 => format!("pairs[{}].key", self.index(d)),
                14 => format!("vu[{}]", self.index(d)),
                15 if self.in_helper => "x_in".to_string(),
                15 => format!(
                    "helper({}, {})",
                    self.expr(Ty::U32, d),
                    self.expr(Ty::F32, d)
                ),
                _ => "arrayLength(&buf_u)".to_string(),
            },
            Ty::I32 => match self.rng.below(6) {
                0 => format!(
                    "({} {} {})",
                    self.expr(Ty::I32, d),
                    self.rng.pick(&["+", "-", "*", "&"]),
                    self.expr(Ty::I32, d)
                ),
                1 => format!("i32({})", self.expr(Ty::U32, d)),
                2 => format!("i32({})", self.expr(Ty::F32, d)),
                3 => format!("abs({})", self.expr(Ty::I32, d)),
                4 => format!("subgroupMin({})", self.expr(Ty::I32, d)),
                _ => format!("max({}, {})", self.expr(Ty::I32, d), self.expr(Ty::I32, d)),
            },
            Ty::F32 => match self.rng.below(11) {
                0 => format!(
                    "({} {} {})",
                    self.expr(Ty::F32, d),
                    self.rng.pick(&["+", "-", "*", "/"]),
                    self.expr(Ty::F32, d)
                ),
                1 => format!("buf_f[{}]", self.index(d)),
                2 => format!("f32({})", self.expr(Ty::U32, d)),
                3 => format!(
                    "{}({})",
                    self.rng.pick(&[
                        "sqrt",
                        "abs",
                        "sin",
                        "exp2",
                        "floor",
                        "subgroupAdd",
                        "subgroupExclusiveMul"
                    ]),
                    self.expr(Ty::F32, d)
                ),
                4 => format!(
                    "fma({}, {}, {})",
                    self.expr(Ty::F32, d),
                    self.expr(Ty::F32, d),
                    self.expr(Ty::F32, d)
                ),
                5 => format!("v0[{}]", self.index(d)),
                6 => format!("pairs[{}].value", self.index(d)),
                7 => format!("farr[{}]", self.index(d)),
                8 => format!("dot(v0, vec4<f32>({}))", self.expr(Ty::F32, d)),
                9 => format!("subgroupShuffleXor({}, 1u)", self.expr(Ty::F32, d)),
                _ => format!(
                    "clamp({}, 0.0, {})",
                    self.expr(Ty::F32, d),
                    self.expr(Ty::F32, d)
                ),
            },
            Ty::Bool => match self.rng.below(5) {
                0 => format!(
                    "({} {} {})",
                    self.expr(Ty::U32, d),
                    self.rng.pick(&["<", "==", ">=", "!="]),
                    self.expr(Ty::U32, d)
                ),
                1 => format!("({} < {})", self.expr(Ty::F32, d), self.expr(Ty::F32, d)),
                2 => format!("!({})", self.expr(Ty::Bool, d)),
                3 => format!(
                    "{}({})",
                    self.rng.pick(&["subgroupAll", "subgroupAny"]),
                    self.expr(Ty::Bool, d)
                ),
                _ => format!("({} && {})", self.expr(Ty::Bool, d), self.expr(Ty::Bool, d)),
            },
        }
    }

    fn statements(&mut self, out: &mut String, depth: u32, top: bool) {
        for _ in 0..1 + self.rng.below(4) {
            self.statement(out, depth, top);
        }
    }

    fn statement(&mut self, out: &mut String, depth: u32, top: bool) {
        let e = 2;
        let nested = depth > 0;
        match self.rng.below(if nested { 16 } else { 10 }) {
            0 => {
                let v = self.expr(Ty::U32, e);
                out.push_str(&format!("u0 = {v};\n"));
            }
            1 => {
                let v = self.expr(Ty::F32, e);
                out.push_str(&format!("f0 = {v};\n"));
            }
            2 => {
                let (i, v) = (self.index(e), self.expr(Ty::U32, e));
                out.push_str(&format!("buf_u[{i}] = {v};\n"));
            }
            3 => {
                let (i, v) = (self.index(e), self.expr(Ty::F32, e));
                out.push_str(&format!("buf_f[{i}] = {v};\n"));
            }
            4 => {
                let (i, v) = (self.index(e), self.expr(Ty::U32, e));
                out.push_str(&format!("tile[{i}] = {v};\n"));
            }
            5 => {
                let (i, v) = (self.index(e), self.expr(Ty::U32, e));
                out.push_str(&format!("arr[{i}] = {v};\n"));
            }
            6 => {
                let (i, v) = (self.index(e), self.expr(Ty::F32, e));
                out.push_str(&format!("pairs[{i}].value = {v};\n"));
            }
            7 => {
                let v = self.expr(Ty::I32, e);
                out.push_str(&format!("i0 = {v};\n"));
            }
            8 if top => out.push_str("workgroupBarrier();\n"),
            9 => {
                let (i, v) = (self.index(e), self.expr(Ty::F32, e));
                out.push_str(&format!("v0[({i}) & 3u] = {v};\nfarr[({i}) & 3u] = {v};\n"));
            }
            10 => {
                let c = self.expr(Ty::Bool, e);
                out.push_str(&format!("if ({c}) {{\n"));
                self.statements(out, depth - 1, false);
                out.push_str("} else {\n");
                self.statements(out, depth - 1, false);
                out.push_str("}\n");
            }
            11 => {
                let n = self.rng.pick(&["4u", "8u", "u1 & 15u"]).to_string();
                out.push_str(&format!("for (var k = 0u; k < {n}; k++) {{\nu1 += k;\n"));
                self.statements(out, depth - 1, false);
                out.push_str("}\n");
            }
            12 => {
                let s = self.expr(Ty::U32, e);
                out.push_str(&format!("switch ({s}) % 4u {{\ncase 0u, 2u: {{\n"));
                self.statements(out, depth - 1, false);
                out.push_str("}\ndefault: {\n");
                self.statements(out, depth - 1, false);
                out.push_str("}\n}\n");
            }
            13 => {
                let c = self.expr(Ty::Bool, e);
                out.push_str(&format!("loop {{\nif ({c}) {{ break; }}\nu1 += 1u;\n"));
                self.statements(out, depth - 1, false);
                out.push_str("continuing {\nbreak if u1 > 64u;\n}\n}\n");
            }
            14 => {
                let (i, v) = (self.index(e), self.expr(Ty::U32, e));
                out.push_str(&format!(
                    "atomicMax(&wg_counter, {v});\natomicStore(&counters[({i}) & 3u], {v});\n"
                ));
            }
            _ => {
                let c = self.expr(Ty::Bool, e);
                let value = if self.in_helper { " u0" } else { "" };
                out.push_str(&format!("if ({c}) {{ return{value}; }}\n"));
            }
        }
    }

    fn shader(&mut self) -> String {
        self.in_helper = true;
        let mut helper = String::new();
        self.statements(&mut helper, 1, false);
        let helper_ret = self.expr(Ty::U32, 1);
        self.in_helper = false;
        let mut body = String::new();
        self.statements(&mut body, 2, true);
        let result = self.expr(Ty::U32, 2);
        format!(
            "struct Pair {{ key: u32, value: f32 }}
struct Params {{ x: u32, y: u32, scale: f32, pad: u32 }}
@group(0) @binding(0) var<storage, read_write> buf_u: array<u32>;
@group(0) @binding(1) var<storage, read_write> buf_f: array<f32>;
@group(0) @binding(2) var<storage, read_write> pairs: array<Pair>;
@group(0) @binding(3) var<storage, read_write> counters: array<atomic<u32>, 4>;
@group(0) @binding(4) var<uniform> params: Params;
var<workgroup> tile: array<u32, 64>;
var<workgroup> wg_counter: atomic<u32>;
var<private> seed: u32 = 7u;

fn helper(x_in: u32, y_in: f32) -> u32 {{
    let gid = vec3<u32>(x_in);
    let li = x_in & 63u;
    let lane = x_in & 31u;
    let lanes = 32u;
    var u0: u32 = x_in;
    var u1: u32 = x_in ^ 5u;
    var i0: i32 = -3;
    var f0: f32 = y_in;
    var f1: f32 = 2.0;
    var b0: bool = x_in > 2u;
    var v0: vec4<f32> = vec4<f32>(f0);
    var vu: vec4<u32> = vec4<u32>(u0, u1, 1u, 2u);
    var arr: array<u32, 8>;
    var farr: array<f32, 4>;
{helper}    return u0 + u1 + u32(f0) + {helper_ret};
}}

@compute @workgroup_size({})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) li: u32,
        @builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) lanes: u32) {{
    var u0: u32 = gid.x;
    var u1: u32 = li;
    var i0: i32 = i32(lane);
    var f0: f32 = f32(gid.x) * 0.5;
    var f1: f32 = 1.0;
    var b0: bool = lane < 3u;
    var v0: vec4<f32> = vec4<f32>(f0);
    var vu: vec4<u32> = vec4<u32>(u0, u1, lane, lanes);
    var arr: array<u32, 8>;
    var farr: array<f32, 4>;
{body}    buf_u[gid.x] = {result} + u0 + u1 + u32(i0) + u32(f0 + f1) + u32(b0) + u32(dot(v0, vec4<f32>(1.0))) + vu.x + arr[0] + u32(farr[1]) + atomicLoad(&wg_counter);
}}
",
            self.workgroup
        )
    }
}

fn generate(rng: &mut Rng) -> Vec<u8> {
    let workgroup = *rng.pick(&[32u32, 64, 96, 128]);
    Gen {
        rng,
        workgroup,
        in_helper: false,
    }
    .shader()
    .into_bytes()
}

fn validate(text: &str) -> Option<(naga::Module, naga::valid::ModuleInfo)> {
    let module = naga::front::wgsl::parse_str(text).ok()?;
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .ok()?;
    Some((module, info))
}

/// `Ok` for a clean "not supported", a finding for any other error.
fn allowed(result: Result<(), NativeError>, what: &str) -> Result<(), String> {
    match result {
        Ok(()) | Err(NativeError::Unsupported { .. }) => Ok(()),
        Err(other) => Err(format!("{what}: {other}")),
    }
}

fn check(input: &[u8], valid: &std::cell::Cell<usize>) -> Result<(), String> {
    let text = String::from_utf8_lossy(input);
    let Some((module, info)) = validate(&text) else {
        return Ok(());
    };
    valid.set(valid.get() + 1);
    let choice = input
        .iter()
        .fold(0usize, |h, b| h.wrapping_mul(31) ^ *b as usize);
    let bounds = if choice & 1 == 0 {
        BoundsChecks::Restrict
    } else {
        BoundsChecks::Unchecked
    };
    // Mutations may rename `main`: lower the first compute entry point.
    let Some(entry) = module
        .entry_points
        .iter()
        .find(|e| e.stage == naga::ShaderStage::Compute)
        .map(|e| e.name.clone())
    else {
        return Ok(());
    };
    let request = KernelRequest {
        module: &module,
        info: &info,
        entry: &entry,
        name: &entry,
        source: Some(Source {
            name: "fuzz.wgsl",
            text: &text,
        }),
    };
    let sm = if choice & 2 == 0 { 90 } else { 80 };
    allowed(
        nvptx::compile_many_with(std::slice::from_ref(&request), sm, bounds)
            .and_then(|(ptx, _)| tools::assemble(&ptx, sm).map(|_| ())),
        &format!("NVPTX sm_{sm} ({})", bounds.name()),
    )?;
    let target = if choice & 4 == 0 {
        Amdgpu::new(Arch::Gfx942, 64)
    } else {
        Amdgpu::new(Arch::Gfx1100, 32)
    }
    .map_err(|e| e.to_string())?;
    allowed(
        amdgpu::compile_many_with(std::slice::from_ref(&request), target, bounds)
            .and_then(|hsaco| tools::amdgpu_notes(&hsaco.bytes).map(|_| ())),
        &format!(
            "AMDGPU {} wave{} ({})",
            target.arch.name(),
            target.wave_size,
            bounds.name()
        ),
    )
}

#[test]
fn the_native_lowering_takes_every_valid_module() {
    let valid = std::cell::Cell::new(0);
    driver::fuzz(
        &driver::Target {
            name: "native",
            corpus: concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fuzz/corpus/native"),
            short_runs: 10,
            dictionary: DICTIONARY,
            generate: Some(&generate),
        },
        |input| check(input, &valid),
    );
    println!("{} of the inputs were valid modules", valid.get());
}
