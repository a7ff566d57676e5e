//! Surviving a snapshot file truncated under a memory mapping.
//!
//! The decoded heap reads the snapshot's images through memory mappings. If someone
//! truncates an image while the daemon is reading it, touching the mapping past the file's
//! new end raises SIGBUS, which would kill the daemon and every mount it serves. The daemon
//! installs [`install`]: on such a fault (`BUS_ADRERR`) the faulting page is replaced by a
//! private zero page and the read goes on with zeros. What was made from them is never
//! served: every listing, rendering and evaluation re-checks the image's fingerprint (size,
//! ctime) when it ends ([`crate::vfs::guard`]) and fails with `EIO` once the file changed.
//! Any other SIGBUS keeps its default action (the process dies, as it would without this).

use std::io;

/// Installs the SIGBUS handler for the whole process (the FUSE daemon calls it once).
pub fn install() -> io::Result<()> {
    // SAFETY: `action` is fully initialised (zeroed, then the fields sigaction reads are
    // set); the handler only makes async-signal-safe system calls (mmap, signal).
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigbus as *const () as usize;
        action.sa_flags = libc::SA_SIGINFO;
        libc::sigemptyset(&mut action.sa_mask);
        if libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

extern "C" fn on_sigbus(
    _signal: libc::c_int,
    info: *mut libc::siginfo_t,
    _context: *mut libc::c_void,
) {
    // SAFETY: the kernel passes a valid siginfo for a SA_SIGINFO handler. The mmap call
    // replaces exactly the one page that faulted (inside a mapping, as BUS_ADRERR says) by
    // an anonymous private page; nothing else in the address space is touched.
    unsafe {
        if !info.is_null() && (*info).si_code == libc::BUS_ADRERR {
            let address = (*info).si_addr() as usize;
            let page = usize::try_from(libc::sysconf(libc::_SC_PAGESIZE)).unwrap_or(4096);
            if address != 0 && page.is_power_of_two() {
                let start = address & !(page - 1);
                let mapped = libc::mmap(
                    start as *mut libc::c_void,
                    page,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                );
                if mapped != libc::MAP_FAILED {
                    return;
                }
            }
        }
        // Not a truncated mapping (or no page could be mapped): the default action, which
        // the faulting instruction raises again on return.
        libc::signal(libc::SIGBUS, libc::SIG_DFL);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_mapping_past_a_truncated_end_reads_zeros_instead_of_killing() {
        super::install().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("image.bin");
        std::fs::write(&path, vec![0xabu8; 3 * 4096]).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        // SAFETY: the test truncates the file on purpose; the handler keeps the process up.
        let map = unsafe { memmap2::Mmap::map(&file) }.unwrap();
        assert_eq!(map[8191], 0xab);
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(100)
            .unwrap();
        // Past the new end: SIGBUS without the handler.
        let after = std::hint::black_box(&map[..])[9000];
        assert_eq!(after, 0);
        assert_eq!(std::hint::black_box(&map[..])[50], 0xab);
    }
}
