//! The dispatch checks on hand-made bindings: each refusal names the
//! number and the limit.

use super::{Bound, DeviceLimits, check_dispatch};
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
            fixed_bytes: 0,
            runtime_stride: Some(4),
        },
        BufferBinding {
            group: 0,
            binding: 1,
            name: "table".into(),
            writable: true,
            fixed_bytes: 64,
            runtime_stride: None,
        },
    ]
}

fn bound(input: u64, table: u64) -> Vec<Bound> {
    vec![
        Bound {
            binding: 0,
            bytes: input,
            output: false,
        },
        Bound {
            binding: 1,
            bytes: table,
            output: true,
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
        binding: 5,
        bytes: 4,
        output: false,
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
    b[0].output = true;
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

#[test]
fn other_bind_groups_are_refused() {
    let mut d = declared();
    d[1].group = 1;
    let m = message(check_dispatch(
        "main",
        &d,
        &bound(16, 64),
        [1, 1, 1],
        &LIMITS,
    ));
    assert_eq!(m, "`table` is in @group(1): the runner binds group 0 only");
}
