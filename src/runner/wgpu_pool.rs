//! A caching pool of the wgpu back end's resident buffers: a dropped
//! [`Buffer`](super::Buffer) goes back to the pool and a later one of the
//! same size class reuses it, as CUB's `CachingDeviceAllocator` does for
//! `cudaMalloc`.
//!
//! **Why.** On NVIDIA's Vulkan driver (H100, driver 580), freeing large
//! dedicated allocations makes later streaming kernels up to 1.8× slower,
//! at random, both on buffers made after the frees and on buffers alive
//! while they happen; a process that never frees a large buffer never
//! shows it (`wavekit-alloc-probe`, patterns `arena` and `churn-keep`,
//! docs/benchmarks/2026-11-25b-h100-vulkan/). A pool turns the free of a
//! run and the allocation of the next into a reuse.
//!
//! **Size classes.** Sizes from [`CLASS_FROM`] up round to the next power of
//! two (at most twice the bytes asked for, never above the device's
//! `max_buffer_size`), so that the sizes of a benchmark sweep share a class;
//! smaller sizes are their own class. A reused buffer is cleared before it
//! is handed out, so a pooled buffer is as zeroed as a new one.
//!
//! **Memory.** The pool keeps at most [`DEFAULT_LIMIT`] bytes of idle
//! buffers ([`Gpu::set_buffer_cache_limit`](super::Gpu::set_buffer_cache_limit));
//! beyond it the oldest idle buffers are freed.
//! [`Gpu::release_cached_buffers`](super::Gpu::release_cached_buffers) frees
//! all idle ones.

use std::sync::{Arc, Mutex, MutexGuard};

/// Sizes from here (1 MiB) up round to a power of two.
pub const CLASS_FROM: u64 = 1 << 20;
/// Idle bytes the pool keeps by default (8 GiB).
pub const DEFAULT_LIMIT: u64 = 8 << 30;

/// The pool of one device.
pub(super) struct BufferPool {
    state: Mutex<State>,
}

struct State {
    /// Idle buffers, oldest first.
    idle: Vec<wgpu::Buffer>,
    /// The most idle bytes kept.
    limit: u64,
}

impl State {
    fn idle_bytes(&self) -> u64 {
        self.idle.iter().map(wgpu::Buffer::size).sum()
    }

    /// Frees the oldest idle buffers until at most `limit` bytes are idle.
    fn trim(&mut self) {
        let mut bytes = self.idle_bytes();
        let mut drop_count = 0;
        for buffer in &self.idle {
            if bytes <= self.limit {
                break;
            }
            bytes -= buffer.size();
            drop_count += 1;
        }
        self.idle.drain(..drop_count);
    }
}

/// A buffer on loan from the pool: it goes back when dropped.
pub(super) struct Pooled {
    buffer: wgpu::Buffer,
    pool: Arc<BufferPool>,
}

impl Pooled {
    /// The wgpu buffer (its size is the class, at least the size asked for).
    pub(super) fn buffer(&self) -> &wgpu::Buffer {
        &self.buffer
    }
}

impl Drop for Pooled {
    fn drop(&mut self) {
        self.pool.give(self.buffer.clone());
    }
}

impl BufferPool {
    /// An empty pool that keeps at most [`DEFAULT_LIMIT`] idle bytes.
    pub(super) fn new() -> Arc<BufferPool> {
        Arc::new(BufferPool {
            state: Mutex::new(State {
                idle: Vec::new(),
                limit: DEFAULT_LIMIT,
            }),
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held leaves a consistent list.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The size class of `size` bytes on a device whose buffers hold at
    /// most `max` bytes: a non-zero multiple of 4 below [`CLASS_FROM`], the
    /// next power of two from there (`size` itself where that exceeds `max`).
    pub(super) fn class(size: u64, max: u64) -> u64 {
        let padded = size.max(4).next_multiple_of(4);
        if padded < CLASS_FROM {
            return padded;
        }
        let class = padded.next_power_of_two();
        if class <= max { class } else { padded }
    }

    /// An idle buffer of exactly `bytes` and `usage`, if the pool has one;
    /// the caller clears it where it must be zeroed.
    pub(super) fn take(self: &Arc<Self>, bytes: u64, usage: wgpu::BufferUsages) -> Option<Pooled> {
        let mut state = self.state();
        // The newest first: the most recently used is the likeliest warm.
        let at = state
            .idle
            .iter()
            .rposition(|b| b.size() == bytes && b.usage() == usage)?;
        let buffer = state.idle.remove(at);
        Some(Pooled {
            buffer,
            pool: self.clone(),
        })
    }

    /// Lends out `buffer`, made by the caller: it comes back on drop.
    pub(super) fn lend(self: &Arc<Self>, buffer: wgpu::Buffer) -> Pooled {
        Pooled {
            buffer,
            pool: self.clone(),
        }
    }

    fn give(&self, buffer: wgpu::Buffer) {
        let mut state = self.state();
        state.idle.push(buffer);
        state.trim();
    }

    /// Sets the most idle bytes kept, freeing the oldest beyond it.
    pub(super) fn set_limit(&self, bytes: u64) {
        let mut state = self.state();
        state.limit = bytes;
        state.trim();
    }

    /// Frees every idle buffer; returns the bytes freed.
    pub(super) fn release(&self) -> u64 {
        let mut state = self.state();
        let bytes = state.idle_bytes();
        state.idle.clear();
        bytes
    }

    /// Bytes held by idle buffers.
    pub(super) fn idle_bytes(&self) -> u64 {
        self.state().idle_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_round_large_sizes_to_powers_of_two_within_the_limit() {
        let max = 1 << 30;
        assert_eq!(BufferPool::class(0, max), 4);
        assert_eq!(BufferPool::class(5, max), 8);
        assert_eq!(BufferPool::class(CLASS_FROM - 4, max), CLASS_FROM - 4);
        assert_eq!(BufferPool::class(CLASS_FROM + 4, max), 2 * CLASS_FROM);
        assert_eq!(BufferPool::class(3 << 20, max), 4 << 20);
        assert_eq!(BufferPool::class(1 << 30, max), 1 << 30);
        // Above the device's limit the size stays as asked (padded).
        assert_eq!(BufferPool::class((1 << 29) + 4, max - 8), (1 << 29) + 4);
    }
}
