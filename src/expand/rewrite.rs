//! Rewrites of the parsed naga module for what WGSL text cannot say.

/// The function whose barrier becomes a pure memory barrier.
pub const MEM_FENCE: &str = "wk_blk_mem_fence";

/// The subgroup fence, whose `subgroupBarrier()` becomes a workgroup-scope
/// memory barrier: WGSL and naga's IR have no memory scope narrower than
/// the workgroup that orders workgroup or storage memory (naga's
/// `Barrier::SUB_GROUP` orders only SPIR-V's SubgroupMemory class).
pub const SUBGROUP_MEM_FENCE: &str = "wk_sg_mem_fence";

/// Turns the control barrier in `wk_blk_mem_fence` into a memory barrier of
/// the same scope, and the one in `wk_sg_mem_fence` into a workgroup-scope
/// memory barrier: WGSL has only control barriers, naga's IR has both, and
/// every naga back end lowers `Statement::MemoryBarrier` (SPIR-V
/// OpMemoryBarrier, MSL `threadgroup_barrier`-free fences, HLSL
/// `GroupMemoryBarrier`).
pub fn memory_fences(module: &mut naga::Module) {
    for (_, function) in module.functions.iter_mut() {
        match function.name.as_deref() {
            Some(MEM_FENCE) => rewrite_block(&mut function.body, None),
            Some(SUBGROUP_MEM_FENCE) => {
                rewrite_block(&mut function.body, Some(naga::Barrier::WORK_GROUP))
            }
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
    fn subgroup_mem_fence_is_a_workgroup_scope_memory_barrier() {
        assert_eq!(
            barriers("mem_fence", super::SUBGROUP_MEM_FENCE),
            vec![("memory", naga::Barrier::WORK_GROUP)]
        );
    }
}
