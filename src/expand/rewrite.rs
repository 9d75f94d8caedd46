//! Rewrites of the parsed naga module for what WGSL text cannot say.

/// The function whose barrier becomes a pure memory barrier.
pub const MEM_FENCE: &str = "wk_blk_mem_fence";

/// The subgroup fence, whose `subgroupBarrier()` becomes a subgroup-scope
/// memory barrier over workgroup memory, `Barrier::SUB_GROUP |
/// Barrier::WORK_GROUP`: naga's SPIR-V writer takes the memory scope from
/// the narrowest flag (Subgroup) and the semantics from every flag
/// (WorkgroupMemory | SubgroupMemory), where `SUB_GROUP` alone would order
/// only SPIR-V's SubgroupMemory class. The native back ends take the scope
/// the same way (a wavefront fence on AMDGPU).
pub const SUBGROUP_MEM_FENCE: &str = "wk_sg_mem_fence";

/// The device-scope fence, whose `storageBarrier()` becomes a memory
/// barrier of the same (storage) flags.
pub const GRID_MEM_FENCE: &str = "wk_grid_mem_fence";

/// Turns the control barrier in `wk_blk_mem_fence` and `wk_grid_mem_fence`
/// into a memory barrier of the same flags, and the one in
/// `wk_sg_mem_fence` into a subgroup-scope memory barrier over workgroup
/// memory ([`SUBGROUP_MEM_FENCE`]): WGSL has only
/// control barriers and naga's IR has both. naga's back ends lower
/// `Statement::MemoryBarrier` to SPIR-V `OpMemoryBarrier` (Device scope for
/// storage, Workgroup scope otherwise), HLSL `DeviceMemoryBarrier` /
/// `GroupMemoryBarrier` and GLSL `memoryBarrierBuffer` /
/// `memoryBarrierShared`; naga 30's MSL writer has no fence and writes the
/// same `threadgroup_barrier(mem_device / mem_threadgroup)` as for a
/// control barrier, so on Metal a fence also synchronises the threadgroup.
pub fn memory_fences(module: &mut naga::Module) {
    for (_, function) in module.functions.iter_mut() {
        match function.name.as_deref() {
            Some(MEM_FENCE | GRID_MEM_FENCE) => rewrite_block(&mut function.body, None),
            Some(SUBGROUP_MEM_FENCE) => rewrite_block(
                &mut function.body,
                Some(naga::Barrier::SUB_GROUP | naga::Barrier::WORK_GROUP),
            ),
            _ => {}
        }
    }
}

/// Replaces every control barrier of `block` by a memory barrier of
/// `scope`, or of the barrier's own scope when `scope` is `None`.
fn rewrite_block(block: &mut naga::Block, scope: Option<naga::Barrier>) {
    for statement in block.iter_mut() {
        match statement {
            naga::Statement::ControlBarrier(barrier) => {
                // With emulated subgroups the fence's barrier is already a
                // workgroup one, and stays one.
                let scope = scope.filter(|_| barrier.contains(naga::Barrier::SUB_GROUP));
                *statement = naga::Statement::MemoryBarrier(scope.unwrap_or(*barrier));
            }
            naga::Statement::Block(inner) => rewrite_block(inner, scope),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Backend, Library, SubgroupSize, Target};

    /// The barriers of function `name` after expanding `request`.
    fn barriers(request: &str, name: &str) -> Vec<(&'static str, naga::Barrier)> {
        let target = Target::new(Backend::Vulkan, SubgroupSize::fixed(32).unwrap());
        let valid = Library::new(target)
            .expand_strs(&[request])
            .and_then(|e| e.module())
            .unwrap();
        let (_, fence) = valid
            .module
            .functions
            .iter()
            .find(|(_, f)| f.name.as_deref() == Some(name))
            .unwrap();
        let barriers: Vec<_> = fence
            .body
            .iter()
            .filter_map(|s| match s {
                naga::Statement::MemoryBarrier(b) => Some(("memory", *b)),
                naga::Statement::ControlBarrier(b) => Some(("control", *b)),
                _ => None,
            })
            .collect();
        barriers
    }

    #[test]
    fn mem_fence_is_a_memory_barrier_only() {
        assert_eq!(
            barriers("block::mem_fence", super::MEM_FENCE),
            vec![("memory", naga::Barrier::WORK_GROUP)]
        );
    }

    #[test]
    fn subgroup_mem_fence_is_a_subgroup_scope_memory_barrier_over_workgroup_memory() {
        assert_eq!(
            barriers("mem_fence", super::SUBGROUP_MEM_FENCE),
            vec![(
                "memory",
                naga::Barrier::SUB_GROUP | naga::Barrier::WORK_GROUP
            )]
        );
    }

    #[test]
    fn grid_mem_fence_is_a_storage_memory_barrier() {
        assert_eq!(
            barriers("grid::mem_fence", super::GRID_MEM_FENCE),
            vec![("memory", naga::Barrier::STORAGE)]
        );
    }
}
