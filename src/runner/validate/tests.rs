//! The dispatch checks on hand-made bindings: each refusal names the
//! number and the limit.

use super::{Bound, BoundKind, DeviceLimits, check_dispatch};
use crate::error::Error;
use crate::runner::BufferBinding;

const LIMITS: DeviceLimits = DeviceLimits {
    max_workgroups: [65535; 3],
    max_buffer_size: 1 << 30,
    max_storage_binding: 1 << 27,
};

fn declared() -> Vec<BufferBinding> {
    vec![
        BufferBinding {
            group: 0,
            binding: 0,
            name: "input".into(),
            writable: false,
            uniform: false,
            fixed_bytes: 0,
            runtime_stride: Some(4),
        },
        BufferBinding {
            group: 0,
            binding: 1,
            name: "table".into(),
            writable: true,
            uniform: false,
            fixed_bytes: 64,
            runtime_stride: None,
        },
    ]
}

fn bound(input: u64, table: u64) -> Vec<Bound> {
    vec![
        Bound {
            group: 0,
            binding: 0,
            bytes: input,
            kind: BoundKind::Input,
        },
        Bound {
            group: 0,
            binding: 1,
            bytes: table,
            kind: BoundKind::Output,
        },
    ]
}

fn message(result: Result<(), Error>) -> String {
    match result {
        Err(Error::Dispatch { entry, message }) => {
            assert_eq!(entry, "main");
            message
        }
        other => panic!("expected a dispatch error, got {other:?}"),
    }
}

#[test]
fn a_right_dispatch_passes() {
    check_dispatch("main", &declared(), &bound(16, 64), [4, 1, 1], &LIMITS).unwrap();
}

#[test]
fn too_many_workgroups_name_the_axis_and_the_limit() {
    let m = message(check_dispatch(
        "main",
        &declared(),
        &bound(16, 64),
        [1, 70000, 1],
        &LIMITS,
    ));
    assert_eq!(
        m,
        "70000 workgroups in y: the device dispatches at most 65535 per dimension"
    );
}

#[test]
fn a_small_buffer_names_both_sizes() {
    let m = message(check_dispatch(
        "main",
        &declared(),
        &bound(16, 60),
        [1, 1, 1],
        &LIMITS,
    ));
    assert_eq!(
        m,
        "@binding(1) (`table`) has a buffer of 60 bytes, the shader needs 64 bytes"
    );
    let m = message(check_dispatch(
        "main",
        &declared(),
        &bound(0, 64),
        [1, 1, 1],
        &LIMITS,
    ));
    assert_eq!(
        m,
        "@binding(0) (`input`) has a buffer of 0 bytes, the shader needs 0 bytes plus at least \
         one 4-byte element"
    );
}

#[test]
fn a_missing_or_extra_binding_is_named() {
    let m = message(check_dispatch(
        "main",
        &declared(),
        &bound(16, 64)[..1],
        [1, 1, 1],
        &LIMITS,
    ));
    assert_eq!(
        m,
        "@binding(1) (`table`) has no buffer: every declared binding needs one"
    );
    let mut extra = bound(16, 64);
    extra.push(Bound {
        group: 0,
        binding: 5,
        bytes: 4,
        kind: BoundKind::Input,
    });
    let m = message(check_dispatch(
        "main",
        &declared(),
        &extra,
        [1, 1, 1],
        &LIMITS,
    ));
    assert_eq!(
        m,
        "a buffer is bound at @binding(5), which the shader does not declare (it declares 0, 1)"
    );
}

#[test]
fn an_output_on_a_read_only_binding_is_refused() {
    let mut b = bound(16, 64);
    b[0].kind = BoundKind::Output;
    let m = message(check_dispatch("main", &declared(), &b, [1, 1, 1], &LIMITS));
    assert_eq!(
        m,
        "@binding(0) (`input`) is read-only in the shader: an output there would stay zero"
    );
}

#[test]
fn buffers_over_the_limits_are_refused() {
    let m = message(check_dispatch(
        "main",
        &declared(),
        &bound(1 << 28, 64),
        [1, 1, 1],
        &LIMITS,
    ));
    assert_eq!(
        m,
        "@binding(0) (`input`) has a buffer of 268435456 bytes: the device binds at most \
         134217728 bytes (max_storage_buffer_binding_size)"
    );
    let Err(Error::Usage(m)) = LIMITS.check_buffer((1 << 30) + 4) else {
        panic!("a buffer over max_buffer_size passed");
    };
    assert_eq!(
        m,
        "a buffer of 1073741828 bytes: the device's largest buffer (max_buffer_size) is \
         1073741824 bytes"
    );
}

/// A module over two groups: keys to sort in place at 1:0, its
/// parameters in a uniform at 1:1, and group 0's input.
fn grouped() -> Vec<BufferBinding> {
    let mut d = declared();
    d.truncate(1);
    d.push(BufferBinding {
        group: 1,
        binding: 0,
        name: "keys".into(),
        writable: true,
        uniform: false,
        fixed_bytes: 0,
        runtime_stride: Some(4),
    });
    d.push(BufferBinding {
        group: 1,
        binding: 1,
        name: "params".into(),
        writable: false,
        uniform: true,
        fixed_bytes: 16,
        runtime_stride: None,
    });
    d
}

fn grouped_bound(keys: BoundKind, params: (BoundKind, u64)) -> Vec<Bound> {
    let mut b = bound(16, 64);
    b.truncate(1);
    b.push(Bound {
        group: 1,
        binding: 0,
        bytes: 64,
        kind: keys,
    });
    b.push(Bound {
        group: 1,
        binding: 1,
        bytes: params.1,
        kind: params.0,
    });
    b
}

#[test]
fn other_bind_groups_read_write_buffers_and_uniforms_pass() {
    check_dispatch(
        "main",
        &grouped(),
        &grouped_bound(BoundKind::ReadWrite, (BoundKind::Uniform, 16)),
        [1, 1, 1],
        &LIMITS,
    )
    .unwrap();
}

#[test]
fn a_uniform_of_the_wrong_size_or_kind_is_refused() {
    let check = |keys, params| {
        message(check_dispatch(
            "main",
            &grouped(),
            &grouped_bound(keys, params),
            [1, 1, 1],
            &LIMITS,
        ))
    };
    assert_eq!(
        check(BoundKind::ReadWrite, (BoundKind::Uniform, 4)),
        "@group(1) @binding(1) (`params`) is a uniform of 16 bytes (its type's size), the buffer \
         has 4"
    );
    assert_eq!(
        check(BoundKind::ReadWrite, (BoundKind::Input, 16)),
        "@group(1) @binding(1) (`params`) is a `var<uniform>`: it takes a uniform buffer, not a \
         storage one"
    );
    assert_eq!(
        check(BoundKind::Uniform, (BoundKind::Uniform, 16)),
        "@group(1) @binding(0) (`keys`) is a storage buffer: it takes a storage buffer, not a \
         uniform"
    );
}

#[test]
fn a_read_write_buffer_on_a_read_only_binding_is_refused() {
    let mut b = bound(16, 64);
    b[0].kind = BoundKind::ReadWrite;
    let m = message(check_dispatch("main", &declared(), &b, [1, 1, 1], &LIMITS));
    assert_eq!(
        m,
        "@binding(0) (`input`) is read-only in the shader: reading it back would return its \
         input unchanged"
    );
}

#[test]
fn slots_in_other_groups_are_named_by_group_and_binding() {
    let mut b = grouped_bound(BoundKind::ReadWrite, (BoundKind::Uniform, 16));
    b.pop();
    let m = message(check_dispatch("main", &grouped(), &b, [1, 1, 1], &LIMITS));
    assert_eq!(
        m,
        "@group(1) @binding(1) (`params`) has no buffer: every declared binding needs one"
    );
    let mut b = grouped_bound(BoundKind::ReadWrite, (BoundKind::Uniform, 16));
    b[1].group = 2;
    let m = message(check_dispatch("main", &grouped(), &b, [1, 1, 1], &LIMITS));
    assert_eq!(
        m,
        "a buffer is bound at @group(2) @binding(0), which the shader does not declare (it \
         declares @binding(0), @group(1) @binding(0), @group(1) @binding(1))"
    );
}

#[test]
fn a_slot_bound_twice_is_refused() {
    let mut b = bound(16, 64);
    b.push(b[1]);
    let m = message(check_dispatch("main", &declared(), &b, [1, 1, 1], &LIMITS));
    assert_eq!(
        m,
        "two buffers are bound at @binding(1): bind each slot once"
    );
}
