//! What every driver's tests check of an `add_one` kernel — it adds 1 to
//! every u32 of buffer 0 (one thread per element, bounds checked against the
//! byte length) and stores the thread count in buffer 1 — whichever driver
//! launches it (a GPU's, or the HIP stub).

use super::{Driver, Kernel, Launch};

/// Launches `kernel` on 1000 words over 4 blocks of 256 threads and checks
/// the words and the count; returns the buffers, for [`time_add_one`].
pub(crate) fn launch_add_one<D: Driver>(driver: &D, kernel: &Kernel<D>) -> Vec<Vec<u8>> {
    let n = 1000u32;
    let data: Vec<u8> = (0..n).flat_map(|i| (i * 3).to_le_bytes()).collect();
    let mut buffers = vec![data, vec![0u8; 4]];
    driver
        .launch(kernel, &mut buffers, [4, 1, 1], [256, 1, 1], 0)
        .unwrap();
    for i in 0..n as usize {
        let v = u32::from_le_bytes(buffers[0][4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!(v, 3 * i as u32 + 1, "element {i}");
    }
    assert_eq!(buffers[1], 1024u32.to_le_bytes());
    buffers
}

/// Times `kernel` on `buffers` from [`launch_add_one`] with 2 warm-up and 5
/// timed launches, checks that the buffers saw every one of them, and
/// returns the 5 times.
pub(crate) fn time_add_one<D: Driver>(
    driver: &D,
    kernel: &Kernel<D>,
    buffers: &mut [Vec<u8>],
) -> Vec<f32> {
    let times = driver
        .time(kernel, buffers, [4, 1, 1], [256, 1, 1], 0, 2, 5)
        .unwrap();
    assert_eq!(times.len(), 5);
    let first = u32::from_le_bytes(buffers[0][4..8].try_into().unwrap());
    assert_eq!(first, 3 + 1 + 7, "one launch, then 2 warm-up and 5 timed");
    times
}
