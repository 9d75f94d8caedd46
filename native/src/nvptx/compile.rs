//! naga module → PTX text.

use inkwell::OptimizationLevel;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple,
};

use super::Nvptx;
use crate::abi::KernelAbi;
use crate::error::NativeError;
use crate::lower::{BoundsChecks, KernelRequest, LowerOptions, Source, lower_entry_point};
use inkwell::values::BasicValue;

/// How to compile.
#[derive(Clone, Copy, Debug)]
pub struct PtxOptions<'a> {
    /// Compute capability × 10 (70, 80, 90).
    pub sm: u32,
    /// The WGSL the module came from, for error locations.
    pub source: Option<Source<'a>>,
    /// Out-of-bounds indices (clamped by default) and workgroup zeroing
    /// (on by default); a [`BoundsChecks`] converts.
    pub lower: LowerOptions,
}

/// A compiled kernel.
#[derive(Clone, Debug)]
pub struct Ptx {
    /// PTX assembly.
    pub text: String,
    /// The kernel's name (the entry point's).
    pub entry: String,
    /// What launching it takes.
    pub abi: KernelAbi,
}

/// Lowers `entry` of a validated module and compiles it to PTX for `sm`.
pub fn compile(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    entry: &str,
    options: &PtxOptions<'_>,
) -> Result<Ptx, NativeError> {
    let (text, mut abis) = compile_many_with(
        &[KernelRequest {
            module,
            info,
            entry,
            name: entry,
            source: options.source,
        }],
        options.sm,
        options.lower,
    )?;
    Ok(Ptx {
        text,
        entry: entry.to_string(),
        abi: abis.remove(0),
    })
}

/// Compiles several kernels into one PTX module (one `ptxas` run covers
/// them all), with WGSL's bounds checks; returns the PTX and each kernel's
/// ABI.
pub fn compile_many(
    kernels: &[KernelRequest<'_>],
    sm: u32,
) -> Result<(String, Vec<KernelAbi>), NativeError> {
    compile_many_with(kernels, sm, BoundsChecks::default())
}

/// [`compile_many`] with explicit lowering options (a [`BoundsChecks`]
/// converts).
pub fn compile_many_with(
    kernels: &[KernelRequest<'_>],
    sm: u32,
    options: impl Into<LowerOptions>,
) -> Result<(String, Vec<KernelAbi>), NativeError> {
    let options = options.into();
    if !matches!(sm, 70 | 75 | 80 | 86 | 89 | 90) {
        return Err(NativeError::Abi(format!(
            "sm_{sm} is not a supported target (sm_70, sm_75, sm_80, sm_86, sm_89, sm_90)"
        )));
    }
    Target::initialize_nvptx(&InitializationConfig::default());
    let context = Context::create();
    let target = Nvptx { sm };
    let llvm = context.create_module("wavekit");
    let machine = machine(sm)?;
    llvm.set_triple(&machine.get_triple());
    llvm.set_data_layout(&machine.get_target_data().get_data_layout());
    let mut abis = Vec::new();
    for kernel in kernels {
        abis.push(lower_entry_point(
            &context, &llvm, kernel, &target, options,
        )?);
    }
    link_libdevice(&context, &llvm)?;
    llvm.run_passes("default<O3>", &machine, PassBuilderOptions::create())
        .map_err(|e| NativeError::Llvm(format!("optimising: {e}")))?;
    if super::peephole::match_all_equal(&context, &llvm)? > 0 {
        llvm.verify()
            .map_err(|e| NativeError::Llvm(format!("after match.all rewriting: {e}")))?;
    }
    strip_unused_declarations(&llvm);
    let buffer = machine
        .write_to_memory_buffer(&llvm, FileType::Assembly)
        .map_err(|e| NativeError::Llvm(format!("emitting PTX: {e}")))?;
    let text = String::from_utf8_lossy(buffer.as_slice()).into_owned();
    Ok((text, abis))
}

fn machine(sm: u32) -> Result<TargetMachine, NativeError> {
    let triple = TargetTriple::create("nvptx64-nvidia-cuda");
    let target = Target::from_triple(&triple).map_err(|e| NativeError::Llvm(e.to_string()))?;
    target
        .create_target_machine(
            &triple,
            &format!("sm_{sm}"),
            // `activemask` needs PTX 6.2; LLVM 19's default for sm_70/75 is 6.0.
            if sm < 80 { "+ptx63" } else { "" },
            OptimizationLevel::Aggressive,
            RelocMode::Default,
            CodeModel::Default,
        )
        .ok_or_else(|| NativeError::Llvm(format!("no NVPTX target machine for sm_{sm}")))
}

/// Links NVIDIA's libdevice when the module calls its `__nv_*` routines,
/// keeping only what is used (everything else is internalised and dropped
/// by the optimiser).
fn link_libdevice<'ctx>(context: &'ctx Context, module: &Module<'ctx>) -> Result<(), NativeError> {
    let used: Vec<String> = module
        .get_functions()
        .filter(|f| f.count_basic_blocks() == 0)
        .map(|f| f.get_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("__nv_"))
        .collect();
    if used.is_empty() {
        return Ok(());
    }
    let path = crate::tools::libdevice_path()?;
    let libdevice = Module::parse_bitcode_from_path(&path, context)
        .map_err(|e| NativeError::Llvm(format!("reading {}: {e}", path.display())))?;
    libdevice.set_triple(&module.get_triple());
    libdevice.set_data_layout(&module.get_data_layout());
    module
        .link_in_module(libdevice)
        .map_err(|e| NativeError::Llvm(format!("linking libdevice: {e}")))?;
    for function in module.get_functions() {
        if function.count_basic_blocks() > 0
            && function.get_name().to_string_lossy().starts_with("__nv_")
        {
            function.set_linkage(inkwell::module::Linkage::Internal);
        }
    }
    Ok(())
}

/// Drops declarations nothing calls any more (PTX would list them).
fn strip_unused_declarations(module: &Module<'_>) {
    let unused: Vec<_> = module
        .get_functions()
        .filter(|f| {
            f.count_basic_blocks() == 0
                && f.as_global_value()
                    .as_pointer_value()
                    .get_first_use()
                    .is_none()
        })
        .collect();
    for function in unused {
        unsafe { function.delete() };
    }
}
