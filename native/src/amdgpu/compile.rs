//! naga module → AMDGPU code object (HSACO).

use inkwell::OptimizationLevel;
use inkwell::context::Context;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple,
};

use super::Amdgpu;
use crate::abi::KernelAbi;
use crate::error::NativeError;
use crate::lower::{BoundsChecks, KernelRequest, LowerOptions, lower_entry_point};

/// A linked code object.
#[derive(Clone, Debug)]
pub struct Hsaco {
    /// The ELF bytes `hipModuleLoadData` takes.
    pub bytes: Vec<u8>,
    /// Each kernel's ABI, in request order.
    pub abis: Vec<KernelAbi>,
}

/// Lowers one entry point and links it into a code object.
pub fn compile(request: &KernelRequest<'_>, target: Amdgpu) -> Result<Hsaco, NativeError> {
    compile_many(std::slice::from_ref(request), target)
}

/// Lowers several kernels into one code object, with WGSL's bounds checks:
/// the object from LLVM's AMDGPU target machine (position-independent, as
/// code objects must be), linked by `ld.lld -shared`.
pub fn compile_many(kernels: &[KernelRequest<'_>], target: Amdgpu) -> Result<Hsaco, NativeError> {
    compile_many_with(kernels, target, BoundsChecks::default())
}

/// [`compile_many`] with explicit lowering options (a [`BoundsChecks`]
/// converts).
pub fn compile_many_with(
    kernels: &[KernelRequest<'_>],
    target: Amdgpu,
    options: impl Into<LowerOptions>,
) -> Result<Hsaco, NativeError> {
    let options = options.into();
    Target::initialize_amd_gpu(&InitializationConfig::default());
    let context = Context::create();
    let module = context.create_module("wavekit");
    let machine = machine(target)?;
    module.set_triple(&machine.get_triple());
    module.set_data_layout(&machine.get_target_data().get_data_layout());
    let mut abis = Vec::new();
    for kernel in kernels {
        abis.push(lower_entry_point(
            &context, &module, kernel, &target, options,
        )?);
    }
    module
        .run_passes("default<O3>", &machine, PassBuilderOptions::create())
        .map_err(|e| NativeError::Llvm(format!("optimising: {e}")))?;
    let object = machine
        .write_to_memory_buffer(&module, FileType::Object)
        .map_err(|e| NativeError::Llvm(format!("emitting the object: {e}")))?;
    let bytes = crate::tools::link_hsaco(object.as_slice())?;
    Ok(Hsaco { bytes, abis })
}

fn machine(target: Amdgpu) -> Result<TargetMachine, NativeError> {
    let triple = TargetTriple::create("amdgcn-amd-amdhsa");
    let llvm_target = Target::from_triple(&triple).map_err(|e| NativeError::Llvm(e.to_string()))?;
    llvm_target
        .create_target_machine(
            &triple,
            target.arch.name(),
            target.features(),
            OptimizationLevel::Aggressive,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or_else(|| {
            NativeError::Llvm(format!(
                "no AMDGPU target machine for {}",
                target.arch.name()
            ))
        })
}
