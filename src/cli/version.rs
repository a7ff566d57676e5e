//! `mo-mem version`: this build's version, the compiler releases and modes it reads, and the
//! ones it refuses by name.

use std::fmt::Write;

use mo_mem::module::{LayoutEra, KNOWN_BUILDS, NEWEST_KNOWN};

/// The layout eras, oldest first.
const ERAS: [LayoutEra; 5] = [
    LayoutEra::DenseTags,
    LayoutEra::OddTagsObjInd,
    LayoutEra::RegionTag,
    LayoutEra::NoObjInd,
    LayoutEra::SortedTags,
];

/// The text `mo-mem version` prints.
pub fn text() -> String {
    let mut out = String::new();
    let _ = writeln!(out, "mo-mem {}", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(
        out,
        "reads: moc 0.13.0 to {}.{}.x: enhanced orthogonal persistence (incremental GC); classical with the copying, compacting, generational and incremental GCs",
        NEWEST_KNOWN.major, NEWEST_KNOWN.minor
    );
    let _ = writeln!(out, "layouts:");
    for era in ERAS {
        let _ = writeln!(
            out,
            "  {:<8} {}",
            if era.is_read() { "read" } else { "refused" },
            era.describe()
        );
    }
    let _ = writeln!(
        out,
        "  refused  moc >= {}.{}.0 and any newer release (its layout was never checked)",
        NEWEST_KNOWN.major,
        NEWEST_KNOWN.minor + 1
    );
    let _ = writeln!(out, "npm motoko releases known by build id:");
    for b in KNOWN_BUILDS {
        let era = LayoutEra::of(b.moc);
        let _ = writeln!(
            out,
            "  {:<7} moc {:<8} {:<8} {}",
            b.npm,
            format!("{}{}", b.moc, if b.after { "+" } else { "" }),
            if era.is_read() { "read" } else { "refused" },
            b.modes
        );
    }
    out
}
