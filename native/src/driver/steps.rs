//! What a single launch and a program of steps share: checking a launch,
//! building its argument block, queueing steps, timing them with event
//! pairs, and waiting for the device.

use std::fmt::Display;
use std::time::{Duration, Instant};

use super::{Buffer, Driver, Kernel};
use crate::abi::KernelArgs;
use crate::error::NativeError;

/// A step with its launch's argument block built, ready to queue.
pub(super) enum Prepared<'a, D: Driver> {
    /// A kernel launch.
    Launch(PreparedLaunch<'a, D>),
    /// Zeroes a buffer.
    Zero(&'a Buffer<D>),
    /// Copies `src` into `dst`, as many bytes as the shorter holds.
    Copy {
        src: &'a Buffer<D>,
        dst: &'a Buffer<D>,
    },
    /// The caller's own work.
    Call(&'a Call<'a>),
}

/// The (start, end) event pair of each timed run.
pub(super) type EventPairs<D> = Vec<(<D as Driver>::Event, <D as Driver>::Event)>;

/// A launch and its argument block.
pub(super) struct PreparedLaunch<'a, D: Driver> {
    kernel: &'a Kernel<D>,
    args: KernelArgs,
    grid: [u32; 3],
    block: [u32; 3],
    shared_bytes: u32,
}

/// Rejects what the runtime would reject with a less helpful message, then
/// lets the kernel use `shared_bytes` of dynamic shared memory on top of
/// its own. `lengths`
/// are the bytes of the launch's buffers (host buffers to be staged, or a
/// program's resident ones, which may be longer than a launch binds).
pub(super) fn check_launch<D: Driver>(
    driver: &D,
    kernel: &Kernel<D>,
    lengths: impl IntoIterator<Item = usize>,
    grid: [u32; 3],
    block: [u32; 3],
    shared_bytes: u32,
) -> Result<(), NativeError> {
    let name = kernel.name();
    if let Some(place) = driver.loaded_elsewhere(kernel.module()) {
        return Err(driver.refuse(format!("kernel `{name}` was loaded on {place}")));
    }
    let refuse_dimensions = |why: &str| {
        driver.refuse(format!(
            "launching kernel `{name}` with grid {grid:?} and block {block:?}: {why}"
        ))
    };
    if grid.contains(&0) || block.contains(&0) {
        return Err(refuse_dimensions("every dimension must be at least 1"));
    }
    driver
        .check_dimensions(grid, block)
        .map_err(|why| refuse_dimensions(&why))?;
    for (i, len) in lengths.into_iter().enumerate() {
        if u32::try_from(len).is_err() {
            return Err(NativeError::Binding(format!(
                "buffer {i} of kernel `{name}` is {len} bytes; the kernel ABI passes lengths \
                 as u32, so at most {} bytes",
                u32::MAX
            )));
        }
    }
    // The kernel's own dynamic shared memory was allowed when it was
    // loaded (`Launch::load_with_workgroup`): only a launch that adds to
    // it asks again.
    if shared_bytes == 0 {
        return Ok(());
    }
    driver.allow_shared(
        kernel.module(),
        name,
        kernel.workgroup_bytes() + shared_bytes,
    )
}

impl<'a, D: Driver> Prepared<'a, D> {
    /// A launch of `kernel` on `buffers`, in the kernel ABI's order, whose
    /// lengths fit in a `u32` (checked by [`check_launch`]).
    pub(super) fn launch(
        driver: &D,
        kernel: &'a Kernel<D>,
        buffers: impl IntoIterator<Item = &'a Buffer<D>>,
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
    ) -> Self {
        let mut args = KernelArgs {
            addresses: Vec::new(),
            lengths: Vec::new(),
        };
        for buffer in buffers {
            args.addresses.push(driver.address(&buffer.memory));
            args.lengths.push(buffer.len as u32);
        }
        Prepared::Launch(PreparedLaunch {
            kernel,
            args,
            grid,
            block,
            shared_bytes: kernel.workgroup_bytes() + shared_bytes,
        })
    }

    /// Queues the step; does not wait for it.
    pub(super) fn enqueue(&mut self, driver: &D) -> Result<(), NativeError> {
        match self {
            Prepared::Launch(launch) => launch.enqueue(driver),
            Prepared::Zero(buffer) => driver
                .zero(&buffer.memory, buffer.len)
                .map_err(|e| driver.fail("clearing a buffer", e)),
            Prepared::Copy { src, dst } => driver
                .copy_on_device(&src.memory, &dst.memory, src.len.min(dst.len))
                .map_err(|e| driver.fail("copying between buffers", e)),
            Prepared::Call(call) => (call.0)(),
        }
    }
}

impl<D: Driver> PreparedLaunch<'_, D> {
    /// Queues the launch; does not wait for it.
    fn enqueue(&mut self, driver: &D) -> Result<(), NativeError> {
        let mut params = self.args.pointers();
        // SAFETY: `params` points into `args`, one value per kernel
        // parameter in the ABI's order and types (the kernel was lowered to
        // that ABI), read by the runtime before this returns; the device
        // addresses in it belong to buffers the caller holds until after its
        // final synchronisation.
        unsafe {
            driver.launch_kernel(
                self.kernel.module(),
                self.grid,
                self.block,
                self.shared_bytes,
                &mut params,
            )
        }
        .map_err(|e| {
            driver.fail(
                format_args!(
                    "launching kernel `{}` with grid {:?}, block {:?} and {} bytes of dynamic \
                     shared memory",
                    self.kernel.name(),
                    self.grid,
                    self.block,
                    self.shared_bytes
                ),
                e,
            )
        })
    }
}

/// Queues `steps` `warmup` times untimed, then `runs` times, each timed run
/// between a pair of events: from before step `from` (after set-up steps
/// that are not to be timed) to the end of the run. Every event is created
/// before the first step is queued, so that nothing but steps and records
/// sits between timed runs. The timed runs are queued behind the driver's
/// [`hold`](Driver::hold), long enough for the host to queue them all
/// ([`hold_for`]), so their events time the device's work and not the
/// host's calls. Returns the pairs, to be read with [`elapsed`] once the
/// device has finished.
pub(super) fn queue_timed<D: Driver>(
    driver: &D,
    steps: &mut [Prepared<'_, D>],
    from: usize,
    warmup: usize,
    runs: usize,
) -> Result<EventPairs<D>, NativeError> {
    let event = || {
        driver
            .event()
            .map_err(|e| driver.fail("creating a timing event", e))
    };
    let pairs = (0..runs)
        .map(|_| Ok((event()?, event()?)))
        .collect::<Result<Vec<_>, NativeError>>()?;
    let record = |event: &D::Event| {
        driver
            .record(event)
            .map_err(|e| driver.fail("recording a timing event", e))
    };
    let queueing = Instant::now();
    for _ in 0..warmup {
        for step in steps.iter_mut() {
            step.enqueue(driver)?;
        }
    }
    if runs > 0 {
        let per_run =
            (warmup > 0).then(|| queueing.elapsed() / u32::try_from(warmup).unwrap_or(u32::MAX));
        driver.hold(hold_for(per_run, runs, driver.wait_limit().get()))?;
    }
    for (start, end) in &pairs {
        for (i, step) in steps.iter_mut().enumerate() {
            if i == from {
                record(start)?;
            }
            step.enqueue(driver)?;
        }
        if from == steps.len() {
            record(start)?;
        }
        record(end)?;
    }
    Ok(pairs)
}

/// How long to [`hold`](Driver::hold) the device before `runs` timed runs,
/// given how long the host took to queue one (`per_run`, from the warm-up;
/// `None` without one): 1 ms, then twice the host's time a run or 50 µs,
/// whichever is more, a run. At most 2 s, and at most half the wait limit
/// where there is one, so that a hold never makes a wait time out.
pub(super) fn hold_for(
    per_run: Option<Duration>,
    runs: usize,
    limit: Option<Duration>,
) -> Duration {
    let per_run = per_run
        .map_or(Duration::ZERO, |t| t.saturating_mul(2))
        .max(Duration::from_micros(50));
    let hold = Duration::from_millis(1)
        .saturating_add(per_run.saturating_mul(u32::try_from(runs).unwrap_or(u32::MAX)));
    let most = limit.map_or(Duration::from_secs(2), |l| {
        (l / 2).min(Duration::from_secs(2))
    });
    hold.min(most)
}

/// Milliseconds between each pair's events, once the device has finished.
pub(super) fn elapsed<D: Driver>(
    driver: &D,
    pairs: &[(D::Event, D::Event)],
) -> Result<Vec<f32>, NativeError> {
    pairs
        .iter()
        .map(|(start, end)| {
            driver
                .elapsed_ms(start, end)
                .map_err(|e| driver.fail("reading a timing event", e))
        })
        .collect()
}

/// Waits for everything queued; `what` is what failed if that fails (a
/// faulting kernel reports here), or what did not finish within the
/// driver's [`WaitLimit`](super::WaitLimit): with a limit the device is
/// polled, from every 20 µs up to every millisecond.
pub(super) fn wait<D: Driver>(driver: &D, what: impl Display) -> Result<(), NativeError> {
    let Some(limit) = driver.wait_limit().get() else {
        return driver.synchronize().map_err(|e| driver.fail(what, e));
    };
    if finished_within(driver, limit).map_err(|e| driver.fail(&what, e))? {
        return driver.synchronize().map_err(|e| driver.fail(what, e));
    }
    driver.wait_limit().time_out();
    Err(NativeError::Timeout {
        what: what.to_string(),
        limit,
    })
}

/// Polls until everything queued has finished (`true`) or `limit` has
/// passed (`false`); a runtime that cannot poll says `true` at once (the
/// synchronisation after it then waits).
fn finished_within<D: Driver>(driver: &D, limit: Duration) -> Result<bool, D::Error> {
    let start = Instant::now();
    let mut pause = Duration::from_micros(20);
    loop {
        match driver.finished()? {
            Some(true) | None => return Ok(true),
            Some(false) if start.elapsed() >= limit => return Ok(false),
            Some(false) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(1));
            }
        }
    }
}

/// What a [`Step::Call`](super::Step::Call) runs: it queues work and returns without
/// waiting.
pub struct Call<'a>(pub Box<dyn Fn() -> Result<(), NativeError> + 'a>);

impl std::fmt::Debug for Call<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Call")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hold_covers_twice_the_host_time_of_the_runs() {
        let us = Duration::from_micros;
        // 1 ms, then the larger of 50 µs and twice the host's time a run.
        assert_eq!(hold_for(None, 20, None), us(1000 + 20 * 50));
        assert_eq!(hold_for(Some(us(10)), 20, None), us(1000 + 20 * 50));
        assert_eq!(hold_for(Some(us(40)), 10, None), us(1000 + 10 * 80));
        assert_eq!(hold_for(Some(us(40)), 0, None), us(1000));
        // Never more than 2 s, nor half a wait limit.
        assert_eq!(
            hold_for(Some(Duration::from_secs(1)), 9, None),
            Duration::from_secs(2)
        );
        assert_eq!(hold_for(None, 100, Some(us(1200))), us(600));
        assert_eq!(
            hold_for(Some(Duration::MAX), usize::MAX, None),
            Duration::from_secs(2)
        );
    }
}
