//! A counting global allocator: bytes allocated by the current thread, with a peak per run,
//! and a hard ceiling that stops a runaway run (naming it) before it takes the machine down.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Write;

/// Wraps the system allocator, counting the bytes each thread holds.
pub struct CountingAlloc;

thread_local! {
    /// Bytes allocated minus bytes freed by this thread (frees of memory another thread
    /// allocated make it drift, which only affects runs that share data across threads).
    static CURRENT: Cell<isize> = const { Cell::new(0) };
    /// The highest `CURRENT` since the run started.
    static PEAK: Cell<isize> = const { Cell::new(0) };
    /// While a run is armed: `CURRENT` beyond which allocations fail (and the run is named).
    static CEILING: Cell<isize> = const { Cell::new(isize::MAX) };
    /// The label of the armed run (a `&str` valid while armed).
    static LABEL: Cell<(*const u8, usize)> = const { Cell::new((std::ptr::null(), 0)) };
}

fn over_ceiling(size: usize) -> bool {
    let now = CURRENT.try_with(Cell::get).unwrap_or(0);
    let ceiling = CEILING.try_with(Cell::get).unwrap_or(isize::MAX);
    let size = isize::try_from(size).unwrap_or(isize::MAX);
    if now.saturating_add(size) <= ceiling {
        return false;
    }
    // Name the run before the allocation failure aborts the process. No allocation here.
    if let Ok((ptr, len)) = LABEL.try_with(Cell::get) {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(b"\nMEMORY LIMIT: a run asked for more than its ceiling; mutation: ");
        if !ptr.is_null() {
            // SAFETY: `arm` stores a pointer to a `&str` that outlives the armed run.
            let label = unsafe { std::slice::from_raw_parts(ptr, len) };
            let _ = err.write_all(label);
        }
        let _ = err.write_all(b"\n");
    }
    true
}

fn add(delta: isize) {
    let _ = CURRENT.try_with(|c| {
        let v = c.get().saturating_add(delta);
        c.set(v);
        let _ = PEAK.try_with(|p| {
            if v > p.get() {
                p.set(v);
            }
        });
    });
}

// SAFETY: forwards to `System`, only counting sizes.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if over_ceiling(layout.size()) {
            return std::ptr::null_mut();
        }
        let p = System.alloc(layout);
        if !p.is_null() {
            add(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if over_ceiling(layout.size()) {
            return std::ptr::null_mut();
        }
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            add(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        add(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() && over_ceiling(new_size - layout.size()) {
            return std::ptr::null_mut();
        }
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            add(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// Measures one run on the current thread: the peak of bytes held above the start.
pub struct RunMeter {
    base: isize,
}

impl RunMeter {
    /// Starts measuring; allocations beyond `ceiling` bytes above now fail, printing `label`
    /// (which must outlive the meter).
    pub fn arm(label: &str, ceiling: usize) -> RunMeter {
        let base = CURRENT.with(Cell::get);
        PEAK.with(|p| p.set(base));
        CEILING
            .with(|c| c.set(base.saturating_add(isize::try_from(ceiling).unwrap_or(isize::MAX))));
        LABEL.with(|l| l.set((label.as_ptr(), label.len())));
        RunMeter { base }
    }

    /// The most bytes held at once since [`RunMeter::arm`], above the start.
    pub fn peak(&self) -> u64 {
        let peak = PEAK.with(Cell::get);
        u64::try_from(peak.saturating_sub(self.base)).unwrap_or(0)
    }
}

impl Drop for RunMeter {
    fn drop(&mut self) {
        CEILING.with(|c| c.set(isize::MAX));
        LABEL.with(|l| l.set((std::ptr::null(), 0)));
    }
}
