//! Rewrites of the parsed naga module for what WGSL text cannot say.

/// The function whose barrier becomes a pure memory barrier.
pub const MEM_FENCE: &str = "wk_blk_mem_fence";

/// Turns the control barrier in `wk_blk_mem_fence` into a memory barrier of
/// the same scope: WGSL has only control barriers, naga's IR has both, and
/// every naga back end lowers `Statement::MemoryBarrier` (SPIR-V
/// OpMemoryBarrier, MSL `threadgroup_barrier`-free fences, HLSL
/// `GroupMemoryBarrier`).
pub fn memory_fences(module: &mut naga::Module) {
    for (_, function) in module.functions.iter_mut() {
        if function.name.as_deref() == Some(MEM_FENCE) {
            rewrite_block(&mut function.body);
        }
    }
}

fn rewrite_block(block: &mut naga::Block) {
    for statement in block.iter_mut() {
        match statement {
            naga::Statement::ControlBarrier(barrier) => {
                *statement = naga::Statement::MemoryBarrier(*barrier);
            }
            naga::Statement::Block(inner) => rewrite_block(inner),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Backend, Library, SubgroupSize, Target};

    #[test]
    fn mem_fence_is_a_memory_barrier_only() {
        let target = Target::new(Backend::Vulkan, SubgroupSize::fixed(32).unwrap());
        let valid = Library::new(target)
            .expand_strs(&["block::mem_fence"])
            .and_then(|e| e.module())
            .unwrap();
        let (_, fence) = valid
            .module
            .functions
            .iter()
            .find(|(_, f)| f.name.as_deref() == Some(super::MEM_FENCE))
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
        assert_eq!(barriers, vec![("memory", naga::Barrier::WORK_GROUP)]);
    }
}
