//! Tests of the CUDA driver: the no-driver error, PTX entry and JIT-log
//! parsing, and (only where there is a CUDA driver and device) loading,
//! launching and timing a hand-written PTX kernel.

use super::hold::{HOLD_ENTRY, HOLD_PTX};
use super::module::{log_text, ptx_entries, too_old};
use super::*;
use crate::driver::Launch;
use crate::driver::add_one::{launch_add_one, time_add_one};

fn driver_present() -> bool {
    // SAFETY: see `Cuda::open`.
    unsafe { sys::is_culib_present() }
}

#[test]
fn open_without_a_driver_is_an_error_naming_libcuda() {
    if driver_present() {
        // With a driver, open may well succeed; that is the GPU test's job.
        return;
    }
    match Cuda::open(0) {
        Err(NativeError::NoCudaDriver(message)) => {
            assert!(message.contains("libcuda"), "{message}");
        }
        other => panic!("expected NoCudaDriver, got {other:?}"),
    }
    // A second call behaves the same (nothing was half-initialised).
    assert!(matches!(Cuda::open(3), Err(NativeError::NoCudaDriver(_))));
}

#[test]
fn lists_ptx_entries() {
    let ptx = ".visible .entry add_one(\n.param .u64 p)\n{}\n.entry $k2 ( ) {}";
    assert_eq!(ptx_entries(ptx), ["add_one", "$k2"]);
    assert!(ptx_entries(".func f() {}").is_empty());
}

#[test]
fn a_driver_too_old_for_the_ptx_is_told_to_update() {
    let ptx = "//\n.version 8.5\n.target sm_90\n";
    assert_eq!(
        too_old(ptx, Some(12020)),
        " (the PTX is ISA 8.5, which this driver, of CUDA 12.2, is too old for: update the \
         NVIDIA driver)"
    );
    assert!(too_old("", None).contains("ISA ?, which this driver, of an unknown CUDA version"));
}

#[test]
fn the_hold_kernel_assembles() {
    for sm in [75, 90] {
        let cubin =
            crate::tools::assemble(HOLD_PTX, sm).expect("ptxas (pip install nvidia-cuda-nvcc)");
        let sass =
            crate::tools::disassemble(&cubin).expect("nvdisasm (pip install nvidia-cuda-nvdisasm)");
        assert!(sass.contains(HOLD_ENTRY), "sm_{sm}: {sass}");
        // The spin reads the global timer (S2UR/CS2R of SR_GLOBALTIMER...).
        assert!(sass.contains("GLOBALTIMER"), "sm_{sm}: {sass}");
    }
}

#[test]
fn reads_jit_logs_up_to_the_nul() {
    let mut buffer = b"ptxas error   : line 3\n".to_vec();
    buffer.extend_from_slice(&[0, b'x', b'y']);
    assert_eq!(log_text(&buffer), "ptxas error   : line 3");
    assert_eq!(log_text(&[0; 8]), "");
}

/// The `add_one` of [`crate::driver::add_one`], for sm_70 and later. Runs
/// only where there is a CUDA driver and device.
const ADD_ONE_PTX: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry add_one(
	.param .u64 data, .param .u32 data_len,
	.param .u64 out, .param .u32 out_len
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<6>;

	ld.param.u64 %rd1, [data];
	ld.param.u32 %r1, [data_len];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.u32 %r5, %r2, %r3, %r4;
	shl.b32 %r6, %r5, 2;
	setp.ge.u32 %p1, %r6, %r1;
	@%p1 bra DONE;
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.u32 %rd3, %r5, 4;
	add.u64 %rd4, %rd2, %rd3;
	ld.global.u32 %r7, [%rd4];
	add.u32 %r7, %r7, 1;
	st.global.u32 [%rd4], %r7;
	setp.ne.u32 %p1, %r5, 0;
	@%p1 bra DONE;
	ld.param.u64 %rd5, [out];
	cvta.to.global.u64 %rd5, %rd5;
	mov.u32 %r7, %nctaid.x;
	mul.lo.u32 %r7, %r7, %r3;
	st.global.u32 [%rd5], %r7;
DONE:
	ret;
}
"#;

#[test]
fn launches_and_times_on_a_gpu() {
    if !driver_present() {
        return;
    }
    let cuda = match Cuda::open(0) {
        Ok(cuda) => cuda,
        // A driver without a device (a CI machine with libcuda but no
        // GPU): nothing to run on.
        Err(NativeError::NoCudaDriver(message)) => {
            eprintln!("skipping: {message}");
            return;
        }
        Err(e) => panic!("{e}"),
    };
    let (major, minor) = cuda.compute_capability().unwrap();
    eprintln!(
        "{} sm_{major}{minor}, driver CUDA {}",
        cuda.name().unwrap(),
        cuda.version().unwrap()
    );
    assert!(major >= 5);
    assert!(cuda.version().unwrap() >= 11000);
    assert!(!cuda.name().unwrap().is_empty());

    let kernel = cuda.load(ADD_ONE_PTX, "add_one").unwrap();
    assert_eq!(kernel.name(), "add_one");
    let mut buffers = launch_add_one(&cuda, &kernel);

    // Empty buffers and > 48 KiB of dynamic shared memory.
    let mut empty = vec![Vec::new(), vec![0u8; 4]];
    cuda.launch(&kernel, &mut empty, [1, 1, 1], [32, 1, 1], 64 * 1024)
        .unwrap();
    assert!(empty[0].is_empty());

    let times = time_add_one(&cuda, &kernel, &mut buffers);
    eprintln!("add_one times (ms): {times:?}");
    assert!(times.iter().all(|&t| t > 0.0 && t < 1000.0), "{times:?}");

    // The hold keeps the device busy for as long as asked, by its clock.
    let (before, after) = (cuda.event().unwrap(), cuda.event().unwrap());
    cuda.record(&before).unwrap();
    assert!(cuda.hold(Duration::from_millis(5)).unwrap());
    cuda.record(&after).unwrap();
    cuda.synchronize().unwrap();
    let held = before.elapsed_ms(&after).unwrap();
    eprintln!("held 5 ms: {held} ms between events");
    assert!((5.0..50.0).contains(&held), "{held} ms");

    // Errors: bad PTX carries the JIT log; unknown entries list the real ones.
    let bad = ADD_ONE_PTX.replace("add.u32 %r7, %r7, 1;", "bogus.u32 %r7;");
    match cuda.load(&bad, "add_one") {
        Err(NativeError::Cuda(message)) => {
            eprintln!("bad PTX: {message}");
            assert!(message.contains("bogus"), "{message}")
        }
        other => panic!("expected a JIT error, got {other:?}"),
    }
    match cuda.load(ADD_ONE_PTX, "nope") {
        Err(NativeError::Cuda(message)) => {
            assert!(message.contains("add_one"), "{message}")
        }
        other => panic!("expected a missing-entry error, got {other:?}"),
    }
    assert!(matches!(
        cuda.launch(&kernel, &mut buffers, [0, 1, 1], [1, 1, 1], 0),
        Err(NativeError::Cuda(_))
    ));
    match Cuda::open(1000) {
        Err(NativeError::NoCudaDriver(message)) => {
            eprintln!("device 1000: {message}");
            assert!(message.contains("libcuda"), "{message}");
        }
        other => panic!("expected NoCudaDriver, got {other:?}"),
    }
}
