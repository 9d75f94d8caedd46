//! Scoped fences for AMDGPU.
//!
//! LLVM 19's C API (and so inkwell) cannot set a fence's sync scope, and
//! an unscoped fence is system scope (L2 writeback and invalidate on
//! CDNA). The scoped fences are written as textual IR, parsed into the
//! module's context and linked in once; calls to them inline away.

use inkwell::memory_buffer::MemoryBuffer;

use crate::error::NativeError;
use crate::target::Cx;

/// A fence the lowering needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fence {
    /// Before a workgroup barrier.
    WorkgroupRelease,
    /// After a workgroup barrier.
    WorkgroupAcquire,
    /// A workgroup memory fence.
    Workgroup,
    /// A subgroup (wavefront) fence.
    Wavefront,
    /// A device-wide (agent) fence.
    Agent,
}

impl Fence {
    fn function(self) -> &'static str {
        match self {
            Fence::WorkgroupRelease => "wk.fence.workgroup.release",
            Fence::WorkgroupAcquire => "wk.fence.workgroup.acquire",
            Fence::Workgroup => "wk.fence.workgroup",
            Fence::Wavefront => "wk.fence.wavefront",
            Fence::Agent => "wk.fence.agent",
        }
    }
}

const HELPERS: &str = r#"
define linkonce_odr hidden void @wk.fence.workgroup.release() alwaysinline {
  fence syncscope("workgroup") release
  ret void
}
define linkonce_odr hidden void @wk.fence.workgroup.acquire() alwaysinline {
  fence syncscope("workgroup") acquire
  ret void
}
define linkonce_odr hidden void @wk.fence.workgroup() alwaysinline {
  fence syncscope("workgroup") acq_rel
  ret void
}
define linkonce_odr hidden void @wk.fence.wavefront() alwaysinline {
  fence syncscope("wavefront") acq_rel
  ret void
}
define linkonce_odr hidden void @wk.fence.agent() alwaysinline {
  fence syncscope("agent") acq_rel
  ret void
}
"#;

/// Calls `fence`, linking the helpers into the module on first use.
pub fn call(cx: &Cx<'_, '_>, fence: Fence) -> Result<(), NativeError> {
    // The linker only brings in the linkonce definitions something refers
    // to: declare the fence first, then link.
    let function = cx.module.get_function(fence.function()).unwrap_or_else(|| {
        cx.module.add_function(
            fence.function(),
            cx.context.void_type().fn_type(&[], false),
            None,
        )
    });
    if function.count_basic_blocks() == 0 {
        let buffer = MemoryBuffer::create_from_memory_range_copy(HELPERS.as_bytes(), "wk.fences");
        let helpers = cx
            .context
            .create_module_from_ir(buffer)
            .map_err(|e| NativeError::Llvm(format!("the fence helpers: {e}")))?;
        helpers.set_triple(&cx.module.get_triple());
        helpers.set_data_layout(&cx.module.get_data_layout());
        cx.module
            .link_in_module(helpers)
            .map_err(|e| NativeError::Llvm(format!("linking the fence helpers: {e}")))?;
    }
    cx.call_intrinsic(fence.function(), None, &[])?;
    Ok(())
}
