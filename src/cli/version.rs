//! `mo-mem version`: this build's version, the compiler releases and modes it reads, and the
//! ones it refuses by name.

use std::fmt::Write;

use mo_mem::module::{
    Compiler, EraProbes, LayoutEra, KNOWN_BUILDS, LEGACY_INCREMENTAL_VERIFIED, NEWEST_KNOWN,
    REFUSED_BUILDS,
};

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
    // The verified incremental builds of each era, from the list the partition-table code checks.
    let verified = |era: LayoutEra| {
        KNOWN_BUILDS
            .iter()
            .filter(|b| LayoutEra::of(b.moc) == era && LEGACY_INCREMENTAL_VERIFIED.contains(&b.npm))
            .map(|b| b.npm)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let newer: Vec<String> = [LayoutEra::RegionTag, LayoutEra::NoObjInd]
        .into_iter()
        .map(verified)
        .filter(|v| !v.is_empty())
        .collect();
    let _ = writeln!(
        out,
        "reads: moc 0.11.0 to 0.12.1: classical with the copying, compacting and generational GCs; the incremental GC of the verified RTS builds (npm motoko {}; any other is refused by name)",
        newer.join(", ")
    );
    let _ = writeln!(
        out,
        "reads: moc 0.6.16 to 0.9.8: classical with the copying, compacting and generational GCs; the incremental GC of the verified RTS builds (npm motoko {}; any other is refused by name); 0.6.10-0.6.15 is refused (its heap start is not proven)",
        verified(LayoutEra::OddTagsObjInd)
    );
    let _ = writeln!(out, "layouts:");
    for era in ERAS {
        let _ = writeln!(
            out,
            "  {:<8} {}",
            if era.is_read() { "read" } else { "refused" },
            era_note(era)
        );
    }
    let _ = writeln!(
        out,
        "  refused  moc >= {}.{}.0 and any newer release (its layout was never checked)",
        NEWEST_KNOWN.major,
        NEWEST_KNOWN.minor + 1
    );
    let _ = writeln!(
        out,
        "npm motoko releases known by build id (checked: every variable of the legacy canister decoded to the canister's own debug_show, in the committed fixture named, in every mode listed):"
    );
    for b in KNOWN_BUILDS {
        let compiler = Compiler::detect(Some(b.build_id), EraProbes::default());
        let read = compiler.refusal().is_none();
        let incremental =
            compiler.era == LayoutEra::SortedTags || LEGACY_INCREMENTAL_VERIFIED.contains(&b.npm);
        let _ = writeln!(
            out,
            "  {:<7} moc {:<8} {:<8} {}{}{}; {}",
            b.npm,
            format!("{}{}", b.moc, if b.after { "+" } else { "" }),
            if read { "read" } else { "refused" },
            b.modes,
            if read && !incremental && b.modes.contains("incremental") {
                " (incremental refused)"
            } else {
                ""
            },
            if b.also_npm.is_empty() {
                String::new()
            } else {
                format!(" (the same build: npm {})", b.also_npm.join(", "))
            },
            b.evidence
        );
    }
    let _ = writeln!(
        out,
        "npm motoko releases refused by name (older than moc 0.7):"
    );
    for b in REFUSED_BUILDS {
        let _ = writeln!(
            out,
            "  {:<7} moc {:<8} refused  (build {})",
            b.npm,
            format!("{}+", b.moc),
            b.build_id
        );
    }
    out
}

/// An era's description, with what of it this build reads.
fn era_note(era: LayoutEra) -> String {
    match era {
        LayoutEra::RegionTag => format!(
            "{} - from 0.11.0 (0.10.x scalars are refused); copying, compacting, generational GCs; incremental of verified RTS builds",
            era.describe()
        ),
        LayoutEra::OddTagsObjInd => format!(
            "{} - from 0.6.16 (0.6.10-0.6.15 are refused); copying, compacting, generational GCs; incremental of verified RTS builds",
            era.describe()
        ),
        LayoutEra::NoObjInd => format!(
            "{} - copying, compacting, generational GCs; incremental of verified RTS builds",
            era.describe()
        ),
        _ => era.describe().to_string(),
    }
}
