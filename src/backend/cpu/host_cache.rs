//! A cache of large host blocks in front of the system allocator.
//!
//! A training step frees and allocates the same large buffers every step (activations,
//! gradients, im2col columns). glibc serves blocks of 128 KiB and more from fresh `mmap`s, or
//! trims the heap top when they are freed, so every step faults the same pages in again and
//! the kernel zeroes them: measured on a small CNN step, ~650 page faults per step and a third
//! of its time. This allocator keeps freed blocks of at least [`MIN_BLOCK`] bytes (up to
//! [`DEFAULT_CAPACITY`] bytes in all, blocks of at most half that, [`SLOTS`] blocks) and hands one back for an allocation of the
//! same size and alignment; the oldest blocks go back to the system when room is needed.
//! Smaller blocks go straight to the system allocator, whose own free lists already serve
//! them without faults.
//!
//! It is the global allocator of the Python extension only (`python` feature), so the Rust
//! crate used as a library keeps its embedder's allocator. [`empty`] gives the blocks back.
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Blocks below this size are not cached (glibc's default mmap threshold).
pub const MIN_BLOCK: usize = 128 * 1024;
/// Bytes kept at most, unless [`set_capacity`] (the `LEAFGRAD_HOST_CACHE_MB` environment
/// variable, read when the extension loads) says otherwise.
pub const DEFAULT_CAPACITY: usize = 256 * 1024 * 1024;
/// Blocks kept at most.
pub const SLOTS: usize = 64;

#[derive(Clone, Copy)]
struct Slot {
    ptr: *mut u8,
    size: usize,
    align: usize,
    /// Insertion order: the smallest is evicted first.
    stamp: u64,
}

const EMPTY: Slot = Slot {
    ptr: std::ptr::null_mut(),
    size: 0,
    align: 0,
    stamp: 0,
};

struct Table {
    slots: [Slot; SLOTS],
    bytes: usize,
    clock: u64,
}

// SAFETY: the pointers are plain memory owned by the table while cached.
unsafe impl Send for Table {}

static TABLE: Mutex<Table> = Mutex::new(Table {
    slots: [EMPTY; SLOTS],
    bytes: 0,
    clock: 0,
});
static CAPACITY: AtomicUsize = AtomicUsize::new(DEFAULT_CAPACITY);
static HITS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);

fn table() -> std::sync::MutexGuard<'static, Table> {
    // nothing panics while the lock is held; a poisoned table is still consistent
    TABLE.lock().unwrap_or_else(|e| e.into_inner())
}

/// A cached block of exactly this layout, taken out of the cache.
fn take(layout: Layout) -> Option<*mut u8> {
    let mut t = table();
    let i = t
        .slots
        .iter()
        .position(|s| !s.ptr.is_null() && s.size == layout.size() && s.align == layout.align())?;
    let s = std::mem::replace(&mut t.slots[i], EMPTY);
    t.bytes -= s.size;
    Some(s.ptr)
}

/// Keeps `ptr` (a block of `layout` from the system allocator) unless it is larger than the
/// cache may hold; the oldest blocks are freed to make room. False: the caller frees it.
fn keep(ptr: *mut u8, layout: Layout) -> bool {
    let size = layout.size();
    let cap = CAPACITY.load(Ordering::Relaxed);
    if size > cap / 2 {
        return false;
    }
    let mut evicted: [Slot; SLOTS] = [EMPTY; SLOTS];
    let mut n_evicted = 0;
    {
        let mut t = table();
        loop {
            let full = t.slots.iter().all(|s| !s.ptr.is_null());
            if !full && t.bytes + size <= cap {
                break;
            }
            let Some(i) = (0..SLOTS)
                .filter(|&i| !t.slots[i].ptr.is_null())
                .min_by_key(|&i| t.slots[i].stamp)
            else {
                break;
            };
            let s = std::mem::replace(&mut t.slots[i], EMPTY);
            t.bytes -= s.size;
            evicted[n_evicted] = s;
            n_evicted += 1;
        }
        t.clock += 1;
        let stamp = t.clock;
        let i = t
            .slots
            .iter()
            .position(|s| s.ptr.is_null())
            .expect("a slot was freed above");
        t.slots[i] = Slot {
            ptr,
            size,
            align: layout.align(),
            stamp,
        };
        t.bytes += size;
    }
    for s in &evicted[..n_evicted] {
        // SAFETY: each block came from System with this size and alignment.
        unsafe { System.dealloc(s.ptr, Layout::from_size_align_unchecked(s.size, s.align)) };
    }
    true
}

/// Caches at most `bytes` (0: nothing), freeing what is above it.
pub fn set_capacity(bytes: usize) {
    CAPACITY.store(bytes, Ordering::Relaxed);
    empty();
}

/// Frees every cached block to the system allocator.
pub fn empty() {
    let slots = {
        let mut t = table();
        t.bytes = 0;
        std::mem::replace(&mut t.slots, [EMPTY; SLOTS])
    };
    for s in slots.iter().filter(|s| !s.ptr.is_null()) {
        // SAFETY: as in `keep`.
        unsafe { System.dealloc(s.ptr, Layout::from_size_align_unchecked(s.size, s.align)) };
    }
}

/// (bytes cached, blocks cached, allocations served from the cache, large allocations that
/// went to the system).
pub fn stats() -> (usize, usize, u64, u64) {
    let t = table();
    let blocks = t.slots.iter().filter(|s| !s.ptr.is_null()).count();
    (
        t.bytes,
        blocks,
        HITS.load(Ordering::Relaxed),
        MISSES.load(Ordering::Relaxed),
    )
}

/// The allocator: the system's, with the cache in front of it for large blocks.
pub struct HostCache;

unsafe impl GlobalAlloc for HostCache {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= MIN_BLOCK {
            if let Some(p) = take(layout) {
                HITS.fetch_add(1, Ordering::Relaxed);
                return p;
            }
            MISSES.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: forwarded with the caller's (non-zero) layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= MIN_BLOCK {
            if let Some(p) = take(layout) {
                HITS.fetch_add(1, Ordering::Relaxed);
                // SAFETY: the block holds layout.size() bytes.
                unsafe { std::ptr::write_bytes(p, 0, layout.size()) };
                return p;
            }
            MISSES.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: as in `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if layout.size() >= MIN_BLOCK && keep(ptr, layout) {
            return;
        }
        // SAFETY: ptr came from System with this layout (cached blocks are handed out whole).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.size() < MIN_BLOCK && new_size < MIN_BLOCK {
            // SAFETY: forwarded: the block is the system's and stays uncached.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        // SAFETY: the caller's contract for realloc (non-zero new size, same alignment).
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let new = unsafe { self.alloc(new_layout) };
        if !new.is_null() {
            // SAFETY: both blocks hold at least the smaller size; they do not overlap.
            unsafe {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
        }
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_freed_block_serves_the_next_allocation_of_its_layout() {
        let a = HostCache;
        let layout = Layout::from_size_align(MIN_BLOCK + 4096 * 7, 16).unwrap();
        unsafe {
            let p = a.alloc(layout);
            p.write_bytes(7, layout.size());
            a.dealloc(p, layout);
            let q = a.alloc_zeroed(layout);
            assert_eq!(p, q);
            assert!(std::slice::from_raw_parts(q, layout.size())
                .iter()
                .all(|&b| b == 0));
            // another size does not take it
            let other = Layout::from_size_align(MIN_BLOCK + 4096 * 9, 16).unwrap();
            a.dealloc(q, layout);
            let r = a.alloc(other);
            assert_ne!(r, q);
            a.dealloc(r, other);
        }
        empty();
        assert_eq!(stats().0, 0);
    }
}
