//! The allocator of the `pegsol` binary: the system's, except that an allocation the
//! system refuses ends the process with one line on stderr and exit code 2, as a refused
//! run does, instead of Rust's abort ("memory allocation of N bytes failed", SIGABRT, exit
//! code 134).
//!
//! The runs keep to their memory budget (`--max-memory`, by default 80% of what the
//! process can still get, `ulimit -v` and control groups included), and refuse with one
//! line before they outgrow it. This is the last resort for what escapes the budget's
//! accounting: a small allocation at the edge of an address-space limit, the system's
//! own share of it. Nothing is cleaned up on the way out (no destructor can run safely
//! inside the allocator): a temporary file being written stays, and the next run into the
//! same place removes it ([`crate::output::files`]); a sweep on disk resumes from its
//! last checkpoint.
//!
//! Only the binary installs it (`#[global_allocator]` in `main.rs`): a program that uses
//! the library keeps its own allocator and its own way of failing.

use std::alloc::{GlobalAlloc, Layout, System};

/// The system allocator, ending the process with one line and exit code 2 when it fails.
///
/// ```
/// use std::alloc::{GlobalAlloc, Layout};
/// let a = pegsol::allocator::OneLine;
/// let layout = Layout::from_size_align(64, 8).unwrap();
/// // SAFETY: the layout has a size; the block is freed with the layout it was taken with.
/// unsafe {
///     let p = a.alloc_zeroed(layout);
///     assert_eq!(*p.add(63), 0);
///     a.dealloc(p, layout);
/// }
/// ```
pub struct OneLine;

// SAFETY: every call is passed to `System` unchanged; a null result, which callers of
// `alloc` must otherwise handle, never returns.
unsafe impl GlobalAlloc for OneLine {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is System's.
        checked(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        checked(unsafe { System.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as in `alloc`.
        checked(unsafe { System.realloc(ptr, layout, new_size) }, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as in `alloc`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// `ptr`, unless it is null: then the one line, and exit code 2.
fn checked(ptr: *mut u8, size: usize) -> *mut u8 {
    if ptr.is_null() {
        refuse(size)
    }
    ptr
}

/// Writes the line without allocating (the allocator has just failed) and ends the
/// process at once: `_exit`, since running destructors or exit handlers could allocate.
fn refuse(size: usize) -> ! {
    let mut line = [0u8; 256];
    let mut len = 0;
    let mut put = |bytes: &[u8]| {
        let n = bytes.len().min(line.len() - len);
        line[len..len + n].copy_from_slice(&bytes[..n]);
        len += n;
    };
    put(b"pegsol: out of memory: the system refused ");
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut rest = size;
    loop {
        i -= 1;
        digits[i] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    put(&digits[i..]);
    put(
        b" bytes more (a memory limit such as ulimit -v): give a smaller --max-memory or \
          fewer --threads, or raise the limit\n",
    );
    // SAFETY: write and _exit take plain values; the buffer outlives the call.
    unsafe {
        libc::write(2, line.as_ptr().cast(), len);
        libc::_exit(2)
    }
}
