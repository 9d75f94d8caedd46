//! Bindings matched to a hand-made kernel ABI, as the CUDA and HIP back
//! ends launch them (no GPU needed): slots in any group put in ABI order,
//! read-write buffers and outputs read back in the caller's order, and a
//! uniform bound as storage (or the reverse) refused with an error.

use wavekit_native::abi::{BufferParam, KernelAbi};

use super::NativeBuffers;
use crate::error::Error;
use crate::runner::{Binding, Slot};

fn param(
    group: u32,
    binding: u32,
    uniform: bool,
    fixed_size: u32,
    stride: Option<u32>,
) -> BufferParam {
    BufferParam {
        group,
        binding,
        name: Some(format!("b{group}_{binding}")),
        writable: !uniform,
        uniform,
        fixed_size,
        runtime_stride: stride,
    }
}

/// The sort kernel's ABI with an output in group 0: (0:0), (1:0), (1:1).
fn abi() -> KernelAbi {
    KernelAbi {
        buffers: vec![
            param(0, 0, false, 0, Some(4)),
            param(1, 0, false, 0, Some(4)),
            param(1, 1, true, 4, None),
        ],
        workgroup_size: [64, 1, 1],
        subgroup_size: 32,
        dynamic_workgroup_bytes: 0,
    }
}

#[test]
fn slots_in_any_group_take_the_abi_order_and_read_back_in_list_order() {
    let keys = [3u8, 0, 0, 0, 1, 0, 0, 0];
    let n = 2u32.to_le_bytes();
    let bound = [
        (Slot::new(1, 1), Binding::Uniform(&n)),
        (Slot::new(1, 0), Binding::ReadWrite(&keys)),
        (Slot::new(0, 0), Binding::Output { size: 8 }),
    ];
    let mut buffers = NativeBuffers::bind(&abi(), &bound).unwrap();
    assert_eq!(buffers.buffers, vec![vec![0; 8], keys.to_vec(), n.to_vec()]);
    // What a launch would write back.
    buffers.buffers[0] = vec![7; 8];
    buffers.buffers[1] = vec![1, 0, 0, 0, 3, 0, 0, 0];
    assert_eq!(
        buffers.outputs(),
        vec![vec![1, 0, 0, 0, 3, 0, 0, 0], vec![7; 8]]
    );
}

#[test]
fn a_uniform_bound_as_storage_or_a_missing_slot_is_an_error() {
    let keys = [0u8; 8];
    let n = 2u32.to_le_bytes();
    let as_storage = [
        (Slot::new(0, 0), Binding::Output { size: 8 }),
        (Slot::new(1, 0), Binding::ReadWrite(&keys)),
        (Slot::new(1, 1), Binding::Input(&n)),
    ];
    let Err(Error::Gpu(m)) = NativeBuffers::bind(&abi(), &as_storage) else {
        panic!("a storage buffer bound to a uniform passed");
    };
    assert_eq!(
        m,
        "@group(1) @binding(1) is a uniform in the kernel, the buffer bound there is not"
    );
    let Err(Error::Gpu(m)) = NativeBuffers::bind(&abi(), &as_storage[..2]) else {
        panic!("a missing uniform passed");
    };
    assert_eq!(m, "no buffer for @group(1) @binding(1)");
}
