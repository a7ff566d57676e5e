//! Which moc release built a module, and whether this build reads its heap layout.
//!
//! The module names its compiler in the `motoko:compiler` custom section: a release number
//! (`0.8.7`) for release builds, or a build id (`csid3m3s-…`) for the js builds bundled in the
//! npm package `motoko`. Build ids of the npm releases are mapped to the moc they bundle
//! ([`KNOWN_BUILDS`]); an unknown build id is placed in a layout era by probing the RTS's
//! and the compiler's functions (`region_new` from 0.10.0, `@get_actor_to_persist` from 0.13.0).
//! A layout this build does not read is refused by name ([`super::ModuleError::UnsupportedCompiler`]).

use std::fmt;

/// A moc release number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MocVersion {
    /// Major version.
    pub major: u16,
    /// Minor version.
    pub minor: u16,
    /// Patch version.
    pub patch: u16,
}

impl MocVersion {
    /// The release `major.minor.patch`.
    pub const fn new(major: u16, minor: u16, patch: u16) -> MocVersion {
        MocVersion {
            major,
            minor,
            patch,
        }
    }

    /// Parses a release text: `0.8.7`, optionally followed by a suffix (`0.16.3-caffeine-3`).
    pub fn parse(text: &str) -> Option<MocVersion> {
        let text = text.trim();
        let end = text
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(text.len());
        let (nums, rest) = text.split_at(end);
        if !(rest.is_empty() || rest.starts_with('-') || rest.starts_with('+')) {
            return None;
        }
        let mut it = nums.split('.').map(|p| p.parse::<u16>().ok());
        let v = MocVersion::new(it.next()??, it.next()??, it.next()??);
        it.next().is_none().then_some(v)
    }
}

impl fmt::Display for MocVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// The heap-layout era of a moc release (spec section 8; `docs/formats.md`, compatibility).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LayoutEra {
    /// moc before 0.6.10: dense tag numbering (OBJECT 1, OBJ_IND 2, ARRAY 3, ...).
    DenseTags,
    /// moc 0.6.10 - 0.9.8: odd tags with OBJ_IND 3, one ARRAY/BITS64/BLOB tag, NULL 27.
    OddTagsObjInd,
    /// moc 0.10.0 - 0.11.2: as before plus REGION 27 (NULL 29, FILLER 31, FREE 33).
    RegionTag,
    /// moc 0.11.3 - 0.12.1: OBJ_IND removed (ARRAY 3 ... REGION 25, NULL 27).
    NoObjInd,
    /// moc 0.13.0 and later: array, bits and blob sorts in the tag (the layout mo-mem reads).
    SortedTags,
}

impl LayoutEra {
    /// The era of release `v`.
    pub fn of(v: MocVersion) -> LayoutEra {
        let at = |a, b, c| v >= MocVersion::new(a, b, c);
        if at(0, 13, 0) {
            LayoutEra::SortedTags
        } else if at(0, 11, 3) {
            LayoutEra::NoObjInd
        } else if at(0, 10, 0) {
            LayoutEra::RegionTag
        } else if at(0, 6, 10) {
            LayoutEra::OddTagsObjInd
        } else {
            LayoutEra::DenseTags
        }
    }

    /// The releases of this era and what sets its layout apart.
    pub fn describe(self) -> &'static str {
        match self {
            LayoutEra::DenseTags => "the classical layout of moc < 0.6.10 (dense tag numbering)",
            LayoutEra::OddTagsObjInd => {
                "the classical layout of moc 0.6.10-0.9.8 (odd tag numbering, OBJ_IND)"
            }
            LayoutEra::RegionTag => {
                "the classical layout of moc 0.10.0-0.11.2 (odd tag numbering, OBJ_IND, REGION 27)"
            }
            LayoutEra::NoObjInd => {
                "the classical layout of moc 0.11.3-0.12.1 (no OBJ_IND; one tag for every array, Bits64 and blob sort)"
            }
            LayoutEra::SortedTags => "the layout of moc >= 0.13.0 (sorted array, bits and blob tags)",
        }
    }

    /// Whether this build decodes heaps of this era (the incremental GC before 0.13 only of
    /// the builds in [`LEGACY_INCREMENTAL_VERIFIED`]).
    pub fn is_read(self) -> bool {
        !matches!(self, LayoutEra::DenseTags)
    }
}

/// The npm `motoko` releases before moc 0.13 whose classical incremental GC this build reads:
/// their RTS's partition-table code was verified ([`super::LegacyPartitionTable`]). A module of
/// any other build of moc < 0.13 with the incremental GC is read only if its RTS code is the
/// same, instruction for instruction; else it is refused by name.
pub const LEGACY_INCREMENTAL_VERIFIED: &[&str] = &[
    "3.6.0", "3.6.1", "3.6.4", "3.6.13", "3.6.14", "3.6.16", "3.8.1",
];

/// An npm `motoko` release and the moc build it bundles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownBuild {
    /// The npm package version (the first release bundling the build).
    pub npm: &'static str,
    /// Later npm releases bundling the same build (its build id does not tell them apart).
    pub also_npm: &'static [&'static str],
    /// The moc release the build is, or is a later build of master of (`after`).
    pub moc: MocVersion,
    /// Whether the build is of moc master after the release `moc` ("0.7.3+").
    pub after: bool,
    /// The build id in the module's `motoko:compiler` section.
    pub build_id: &'static str,
    /// The persistence modes and GCs its JS API can select.
    pub modes: &'static str,
    /// What shows that mo-mem reads the heaps of this build exactly.
    pub evidence: Evidence,
}

/// What shows that mo-mem reads the heaps of a known build: in every mode of its `modes`,
/// every variable of the `legacy` canister (`motoko/fixtures/legacy`) decoded to the
/// canister's own `debug_show`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    /// Committed snapshots under `fixtures/` (`compilers/legacy-0-7`; a release's pack of every
    /// mode, `compilers/npm-3.6.0.pack`; `snapshots` for the pinned compiler), checked by the
    /// tests on every run. Every known build has one.
    Fixture(&'static str),
    /// Checked by `scripts/check-releases` on the date (`2026-12-03`), in the modes named, with
    /// no committed fixture (no known build is only so checked since every release has its pack).
    CheckReleases {
        /// The day of the check (UTC).
        date: &'static str,
        /// The modes compiled and checked.
        modes: &'static str,
    },
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evidence::Fixture(dir) => write!(f, "checked: fixtures/{dir}"),
            Evidence::CheckReleases { date, modes } => {
                write!(f, "checked by scripts/check-releases on {date}: {modes}")
            }
        }
    }
}

const CLASSICAL3: &str = "classical: copying, compacting, generational";
const CLASSICAL4: &str = "classical: copying, compacting, generational, incremental";
const COPYING_ONLY: &str = "classical: copying (the JS API selects no GC)";
const EOP_BETA: &str = "classical (four GCs); enhanced orthogonal persistence (beta)";
const EOP_DEFAULT: &str = "enhanced orthogonal persistence; classical (four GCs)";

/// The npm `motoko` releases whose build ids this build knows (installed and read from each
/// package's `mo.version`; the moc each bundles from node-motoko's history).
pub const KNOWN_BUILDS: &[KnownBuild] = &[
    // node-motoko d8b16fb (2022-10-13): moc.min.js built from master between moc 0.7.0
    // (2022-08-25) and 0.7.1 (2022-10-24); the RTS sources did not change from 0.7.0 to 0.7.3.
    KnownBuild {
        npm: "3.0.0",
        moc: MocVersion::new(0, 7, 0),
        after: true,
        build_id: "8r4kv80q-6df2m4g0-6yyw2qpy-3z65r2fh",
        also_npm: &[],
        modes: "classical: copying, compacting (its moc.js has no generational GC)",
        evidence: Evidence::Fixture("compilers/npm-3.0.0.pack"),
    },
    // node-motoko de36992 (2022-11-21): master after moc 0.7.3 (2022-11-01), before 0.7.4.
    KnownBuild {
        npm: "3.0.1",
        moc: MocVersion::new(0, 7, 3),
        after: true,
        build_id: "a1mp3981-ns3g6amw-q37qkakq-cwjc7qi5",
        also_npm: &[],
        modes: "classical: copying, compacting (its moc.js has no generational GC)",
        evidence: Evidence::Fixture("compilers/npm-3.0.1.pack"),
    },
    // node-motoko 0cf62ad (2022-11-27), between moc 0.7.3 and 0.7.4.
    KnownBuild {
        npm: "3.1.0",
        moc: MocVersion::new(0, 7, 3),
        after: true,
        build_id: "3w3l4cn6-prp74bzx-fclnmsa3-gcpm610g",
        also_npm: &[],
        modes: "classical: copying, compacting (its moc.js has no generational GC)",
        evidence: Evidence::Fixture("compilers/npm-3.1.0.pack"),
    },
    KnownBuild {
        npm: "3.1.1",
        moc: MocVersion::new(0, 7, 3),
        after: true,
        build_id: "csid3m3s-a93lcj51-ip98pbqz-2wdfwxmz",
        also_npm: &[],
        modes: CLASSICAL3,
        evidence: Evidence::Fixture("compilers/legacy-0-7"),
    },
    KnownBuild {
        npm: "3.5.4",
        moc: MocVersion::new(0, 8, 4),
        after: false,
        build_id: "70hv6h5y-qr51x7w2-hv6lpzjm-9mfyjlwb",
        also_npm: &[],
        modes: CLASSICAL3,
        evidence: Evidence::Fixture("compilers/npm-3.5.4.pack"),
    },
    KnownBuild {
        npm: "3.5.6",
        moc: MocVersion::new(0, 8, 7),
        after: false,
        build_id: "r24p13s3-k2qqapi1-lxrlansx-1v6kah7n",
        also_npm: &[],
        modes: CLASSICAL3,
        evidence: Evidence::Fixture("compilers/legacy-0-8"),
    },
    // node-motoko bb344b8 (2023-05-19): moc.js with error codes, after moc 0.9.1.
    KnownBuild {
        npm: "3.6.0",
        moc: MocVersion::new(0, 9, 1),
        after: true,
        build_id: "jp7hq652-p2ziq3qv-q9ijdfbm-ba8r8mc0",
        also_npm: &[],
        modes: CLASSICAL4,
        evidence: Evidence::Fixture("compilers/npm-3.6.0.pack"),
    },
    KnownBuild {
        npm: "3.6.1",
        moc: MocVersion::new(0, 9, 2),
        after: false,
        build_id: "a5wxp71j-as4fadcg-lmmnxrvn-13l077z7",
        also_npm: &[],
        modes: CLASSICAL4,
        evidence: Evidence::Fixture("compilers/npm-3.6.1.pack"),
    },
    KnownBuild {
        npm: "3.6.4",
        moc: MocVersion::new(0, 9, 6),
        after: false,
        build_id: "1x84k71d-7bjj7zv7-ln6g0s34-zwphjydx",
        also_npm: &[],
        modes: CLASSICAL4,
        evidence: Evidence::Fixture("compilers/legacy-0-9"),
    },
    KnownBuild {
        npm: "3.6.13",
        moc: MocVersion::new(0, 11, 0),
        after: false,
        build_id: "9cwkwxpa-dif6f7hn-ivkg7m6v-qlsyhch9",
        also_npm: &[],
        modes: CLASSICAL4,
        evidence: Evidence::Fixture("compilers/npm-3.6.13.pack"),
    },
    KnownBuild {
        npm: "3.6.14",
        moc: MocVersion::new(0, 11, 1),
        after: false,
        build_id: "076612vv-9m9zwjbl-wx9hwij9-6f7yycpf",
        also_npm: &[],
        modes: CLASSICAL4,
        evidence: Evidence::Fixture("compilers/npm-3.6.14.pack"),
    },
    // A build of master after 0.11.1 and before 0.11.3: its RTS's `alloc_region` writes
    // TAG_REGION 27, the 0.10.0-0.11.2 numbering.
    KnownBuild {
        npm: "3.6.16",
        moc: MocVersion::new(0, 11, 1),
        after: true,
        build_id: "7ra5fjay-1viyqi4f-nl0y8jc2-r1qml17f",
        also_npm: &[],
        modes: CLASSICAL4,
        evidence: Evidence::Fixture("compilers/legacy-0-11"),
    },
    KnownBuild {
        npm: "3.8.1",
        moc: MocVersion::new(0, 12, 1),
        after: false,
        build_id: "kpynwl5w-kdsn43c3-5q9zkg9p-wyy89ifa",
        also_npm: &[],
        modes: CLASSICAL4,
        evidence: Evidence::Fixture("compilers/legacy-0-12"),
    },
    KnownBuild {
        npm: "3.8.2",
        moc: MocVersion::new(0, 13, 0),
        after: false,
        build_id: "0bmax5kk-y5f6xzrw-xmfi33nz-8k480wwr",
        also_npm: &[],
        modes: COPYING_ONLY,
        evidence: Evidence::Fixture("compilers/npm-3.8.2.pack"),
    },
    KnownBuild {
        npm: "3.8.4",
        moc: MocVersion::new(0, 13, 2),
        after: false,
        build_id: "drmdjj1k-varm6f3c-v17kjgpk-0w8fl12f",
        also_npm: &[],
        modes: COPYING_ONLY,
        evidence: Evidence::Fixture("compilers/legacy-0-13"),
    },
    KnownBuild {
        npm: "3.9.1",
        moc: MocVersion::new(0, 13, 3),
        after: false,
        build_id: "6xq5pz56-qb0p12fj-js55v68w-a5j7jajc",
        also_npm: &["3.9.3"],
        modes: COPYING_ONLY,
        evidence: Evidence::Fixture("compilers/npm-3.9.1.pack"),
    },
    KnownBuild {
        npm: "3.9.6",
        moc: MocVersion::new(0, 13, 5),
        after: false,
        build_id: "0fkds9cl-qrcamh1w-jsm1nv97-3c02hrq4",
        also_npm: &[],
        modes: COPYING_ONLY,
        evidence: Evidence::Fixture("compilers/npm-3.9.6.pack"),
    },
    KnownBuild {
        npm: "3.9.7",
        moc: MocVersion::new(0, 13, 6),
        after: false,
        build_id: "4297aam4-zx4jrfbs-d9i3sdjz-1ik1zpgf",
        also_npm: &[],
        modes: COPYING_ONLY,
        evidence: Evidence::Fixture("compilers/npm-3.9.7.pack"),
    },
    KnownBuild {
        npm: "3.11.1",
        moc: MocVersion::new(0, 14, 1),
        after: false,
        build_id: "1bfx8809-pnvkwdip-bnk4qiqg-z9g3b4lx",
        also_npm: &[],
        modes: EOP_BETA,
        evidence: Evidence::Fixture("compilers/npm-3.11.1.pack"),
    },
    KnownBuild {
        npm: "3.11.2",
        moc: MocVersion::new(0, 14, 2),
        after: false,
        build_id: "ayai0ms6-zmzc7n40-7ly2n436-i0jgqary",
        also_npm: &[],
        modes: EOP_BETA,
        evidence: Evidence::Fixture("compilers/npm-3.11.2.pack"),
    },
    KnownBuild {
        npm: "3.11.3",
        moc: MocVersion::new(0, 14, 3),
        after: false,
        build_id: "a9idzgnc-mw31sz16-lb8jw7b9-n7bclpds",
        also_npm: &[],
        modes: EOP_BETA,
        evidence: Evidence::Fixture("compilers/npm-3.11.3.pack"),
    },
    // node-motoko c6b7c6d "Update moc to 0.14.7".
    KnownBuild {
        npm: "3.12.0",
        moc: MocVersion::new(0, 14, 7),
        after: false,
        build_id: "4y96xrda-vc65xcxi-d4cfd35s-7bkirjdb",
        also_npm: &[],
        modes: EOP_BETA,
        evidence: Evidence::Fixture("compilers/npm-3.12.0.pack"),
    },
    // node-motoko 6ebe75b (2025-04-14): moc master after #5055, after 0.14.7.
    KnownBuild {
        npm: "3.12.1",
        moc: MocVersion::new(0, 14, 7),
        after: true,
        build_id: "8lnjifw2-88djddcw-v69l3rh3-mcg3z457",
        also_npm: &[],
        modes: EOP_BETA,
        evidence: Evidence::Fixture("compilers/npm-3.12.1.pack"),
    },
    // Its moc.min.js is node-motoko #128's ("Use compiler with typerep and regions"), built on
    // the day of 0.14.11 from master after 0.14.10; the "Update moc to 0.14.11" commit that
    // made 3.13.0 did not change it.
    KnownBuild {
        npm: "3.13.0",
        moc: MocVersion::new(0, 14, 10),
        after: true,
        build_id: "fjsknwg3-3r2l6qvz-gs5iyqbc-ka22ysfy",
        also_npm: &[],
        modes: EOP_BETA,
        evidence: Evidence::Fixture("compilers/legacy-0-14"),
    },
    KnownBuild {
        npm: "3.14.0",
        moc: MocVersion::new(0, 15, 1),
        after: false,
        build_id: "5y0ykh2b-43whjhl3-qin3zj0c-94zb428g",
        also_npm: &[],
        modes: EOP_DEFAULT,
        evidence: Evidence::Fixture("compilers/legacy-0-15"),
    },
    // The first release with weak references (`weak T`, EOP): WeakRef 45, slices from 46.
    KnownBuild {
        npm: "3.14.3",
        moc: MocVersion::new(0, 16, 1),
        after: false,
        build_id: "w5yjzr5v-0rx34pcf-l552h4a7-7n2wcrmv",
        also_npm: &[],
        modes: EOP_DEFAULT,
        evidence: Evidence::Fixture("compilers/legacy-0-16"),
    },
    KnownBuild {
        npm: "3.14.6",
        moc: MocVersion::new(0, 16, 3),
        after: false,
        build_id: "jsdvhnza-54v98p7n-453715ki-a29cgr7a",
        also_npm: &[],
        modes: EOP_DEFAULT,
        evidence: Evidence::Fixture("compilers/npm-3.14.6.pack"),
    },
    // Names itself by `git describe`: motoko commit 96f17fc61 (the `blob:` import placeholder
    // flag), on a branch from 0.16.3.
    KnownBuild {
        npm: "3.15.0",
        moc: MocVersion::new(0, 16, 3),
        after: true,
        build_id: "0.16.3-37-g96f17fc61-dirty",
        also_npm: &[],
        modes: EOP_DEFAULT,
        evidence: Evidence::Fixture("compilers/npm-3.15.0.pack"),
    },
    // Names itself by `git describe` from an old tag: motoko commit 97b9c0869 (2026-01-05),
    // on master after 1.0.0, before 1.1.0.
    KnownBuild {
        npm: "3.17.1",
        moc: MocVersion::new(1, 0, 0),
        after: true,
        build_id: "0.10.4-717-g97b9c0869-dirty",
        also_npm: &[],
        modes: EOP_DEFAULT,
        evidence: Evidence::Fixture("compilers/npm-3.17.1.pack"),
    },
    KnownBuild {
        npm: "3.20.0",
        moc: MocVersion::new(1, 3, 0),
        after: false,
        build_id: "xddq7rjv-y8vabchk-yj53pv2j-shfimzb2",
        also_npm: &["4.0.0"],
        modes: EOP_DEFAULT,
        evidence: Evidence::Fixture("compilers/legacy-1-3"),
    },
    KnownBuild {
        npm: "4.10.0",
        moc: MocVersion::new(1, 10, 1),
        after: false,
        build_id: "ifw0ilrx-4948ab0m-qqywmmsi-y0xqcjns",
        also_npm: &[],
        modes: EOP_DEFAULT,
        evidence: Evidence::Fixture("snapshots"),
    },
];

/// An npm `motoko` release bundling a moc older than 0.7.0: known by its build text, refused by
/// name (this build reads the npm releases of moc 0.7 onward).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefusedBuild {
    /// The npm package version.
    pub npm: &'static str,
    /// The moc release the build is a later build of (`after`), as node-motoko's history dates it.
    pub moc: MocVersion,
    /// The text of the module's `motoko:compiler` section.
    pub build_id: &'static str,
}

/// The npm `motoko` releases before 3.0.0: both bundle builds of moc after 0.6.29 (node-motoko's
/// history; docs/formats.md, "npm releases before 3.1.0").
pub const REFUSED_BUILDS: &[RefusedBuild] = &[
    // lib/generated/moc.js names itself `0.6.29-31-gf4ec62edb-dirty`: motoko commit f4ec62edb
    // (2022-07-22), on a branch after 0.6.29.
    RefusedBuild {
        npm: "0.1.0",
        moc: MocVersion::new(0, 6, 29),
        build_id: "0.6.29-31-gf4ec62edb-dirty",
    },
    // versions/latest/moc.min.js, first in node-motoko 3f656d3 (2022-08-08): between moc 0.6.29
    // (2022-06-10) and 0.6.30 (2022-08-11).
    RefusedBuild {
        npm: "2.0.3",
        moc: MocVersion::new(0, 6, 29),
        build_id: "kgglklmh-dqs8bspf-wzajimga-d3hjp11p",
    },
];

/// The newest moc release line this build knows: a release number beyond `1.10.x` is refused
/// (its layout was never read).
pub const NEWEST_KNOWN: MocVersion = MocVersion::new(1, 10, 1);

/// The first release tagging scalars as today (`ubits`: 31-bit unsigned compact ranges,
/// Char `<<11`); before it, compact ranges are 30 bits and Char is `<<8`.
pub const SCALARS_UBITS: MocVersion = MocVersion::new(0, 11, 0);

/// What the module's functions say about its compiler's era.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EraProbes {
    /// The compiled `@get_actor_to_persist` (moc >= 0.13.0).
    pub get_actor_to_persist: bool,
    /// The RTS's `region_new` (moc >= 0.10.0).
    pub region_new: bool,
}

/// The compiler that built a module, as precisely as the module tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiler {
    /// The `motoko:compiler` section's text, if any.
    pub text: Option<String>,
    /// The moc release, when the text is one or names a known npm build.
    pub release: Option<MocVersion>,
    /// Whether the build is of moc master after `release` (shown as `0.7.3+`).
    pub after_release: bool,
    /// The npm `motoko` release bundling the build, if known.
    pub npm: Option<&'static str>,
    /// The layout era (from the release, else from the probes).
    pub era: LayoutEra,
    /// Whether the era came from probes only (an unknown build): then only a lower bound.
    pub era_from_probes: bool,
    /// Whether the build is an npm release below moc 0.7 ([`REFUSED_BUILDS`]).
    pub below_scope: bool,
}

impl Compiler {
    /// Identifies the compiler from the section text and the probes.
    pub fn detect(text: Option<&str>, probes: EraProbes) -> Compiler {
        let text = text.map(|t| t.trim().to_string());
        let by_probes = if probes.get_actor_to_persist {
            LayoutEra::SortedTags
        } else if probes.region_new {
            LayoutEra::RegionTag
        } else {
            LayoutEra::OddTagsObjInd
        };
        if let Some(b) = text
            .as_deref()
            .and_then(|t| REFUSED_BUILDS.iter().find(|b| b.build_id == t))
        {
            return Compiler {
                release: Some(b.moc),
                after_release: true,
                npm: Some(b.npm),
                era: LayoutEra::of(b.moc),
                era_from_probes: false,
                below_scope: true,
                text,
            };
        }
        // A known build first: some npm builds name themselves by `git describe`
        // (`0.10.4-717-g97b9c0869-dirty` is a build of moc 1.0.0+), which is no release.
        if let Some(b) = text
            .as_deref()
            .and_then(|t| KNOWN_BUILDS.iter().find(|b| b.build_id == t))
        {
            return Compiler {
                release: Some(b.moc),
                after_release: b.after,
                npm: Some(b.npm),
                era: LayoutEra::of(b.moc),
                era_from_probes: false,
                below_scope: false,
                text,
            };
        }
        if let Some(v) = text
            .as_deref()
            .filter(|t| !is_describe(t))
            .and_then(MocVersion::parse)
        {
            return Compiler {
                release: Some(v),
                after_release: false,
                npm: None,
                era: LayoutEra::of(v),
                era_from_probes: false,
                below_scope: false,
                text,
            };
        }
        Compiler {
            release: None,
            after_release: false,
            npm: None,
            era: by_probes,
            era_from_probes: true,
            below_scope: false,
            text,
        }
    }

    /// The compiler's name: `moc 0.7.3+ (npm motoko 3.1.1)`, `moc 0.8.7`, or
    /// `moc build 1234abcd-… (not a known release)`.
    pub fn name(&self) -> String {
        match (self.release, self.npm) {
            (Some(v), Some(npm)) => format!(
                "moc {v}{} (npm motoko {npm}{})",
                if self.after_release { "+" } else { "" },
                KNOWN_BUILDS
                    .iter()
                    .find(|b| b.npm == npm)
                    .map(|b| b
                        .also_npm
                        .iter()
                        .map(|a| format!(", {a}"))
                        .collect::<String>())
                    .unwrap_or_default()
            ),
            (Some(v), None) => format!("moc {v}"),
            (None, _) => match &self.text {
                Some(t) if !t.is_empty() => format!(
                    "moc build {} (not a known release)",
                    t.chars().take(64).collect::<String>()
                ),
                _ => "moc (no motoko:compiler section)".to_string(),
            },
        }
    }

    /// Why this build cannot read the module's heap, if it cannot.
    pub fn refusal(&self) -> Option<String> {
        if self.below_scope {
            return Some(
                "an npm `motoko` release before 3.0.0, bundling a moc older than 0.7.0: this build reads the npm releases of moc 0.7 onward (3.0.0 and later); the layout of this one was never checked".to_string(),
            );
        }
        if let Some(v) = self.release {
            if (v.major, v.minor) > (NEWEST_KNOWN.major, NEWEST_KNOWN.minor) {
                return Some(format!(
                    "newer than the newest release this build knows (moc {}.{}.x); its layout was never checked",
                    NEWEST_KNOWN.major, NEWEST_KNOWN.minor
                ));
            }
        }
        // moc 0.11.0 changed how scalars are tagged (`ubits`); before, compact ranges are 30
        // bits and Char is shifted by 8. The layout knows that from the tag numbering of
        // 0.6.10-0.9.8 only: 0.10.x shares its numbering with 0.11.0-0.11.2, not read.
        if let Some(v) = self.release {
            if v < SCALARS_UBITS && self.era == LayoutEra::RegionTag {
                return Some(format!(
                    "the classical layout of moc {}.{}.x before 0.11.0 (scalars with 30-bit compact ranges, Char <<8) is not supported by this build",
                    v.major, v.minor
                ));
            }
        }
        // A build id or `git describe` text of no known npm release: its layout was never
        // checked, and newer builds than this one knows carry such ids too.
        if let Some(t) = self.text.as_deref().filter(|t| !t.is_empty()) {
            if self.release.is_none() {
                return Some(if is_describe(t) {
                    "a development build of moc (its `git describe` names no release) that is no npm `motoko` release this build knows; its layout was never checked".to_string()
                } else {
                    "a moc.js build that is no npm `motoko` release this build knows; its layout was never checked (scripts/check-releases checks a release)".to_string()
                });
            }
        }
        // A module without the section is placed only roughly by its probes: below 0.13
        // the tag numbering differs from release to release, so it is never guessed.
        if self.era.is_read() && !(self.era_from_probes && self.era != LayoutEra::SortedTags) {
            return None;
        }
        let what = match (self.era_from_probes, self.era) {
            (true, LayoutEra::RegionTag) => {
                "a classical layout of moc 0.10.0-0.12.1 (the module has regions but no @get_actor_to_persist; which tag numbering it uses is not known for an unknown build)"
            }
            (true, _) => {
                "a classical layout of moc < 0.10 (the module has no regions and no @get_actor_to_persist)"
            }
            (false, era) => era.describe(),
        };
        Some(format!("{what} is not supported by this build"))
    }
}

impl fmt::Display for Compiler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Whether a compiler text is `git describe` output: a release, the commits since it and the
/// commit (`0.16.3-37-g96f17fc61`, optionally `-dirty`). Its release part may name an old tag
/// of another branch, so it is no release.
fn is_describe(text: &str) -> bool {
    let text = text.strip_suffix("-dirty").unwrap_or(text);
    let parts: Vec<&str> = text.rsplitn(3, '-').collect();
    matches!(parts.as_slice(), [hash, count, _]
        if hash.len() > 1
            && hash.starts_with('g')
            && hash[1..].bytes().all(|b| b.is_ascii_hexdigit())
            && !count.is_empty()
            && count.bytes().all(|b| b.is_ascii_digit()))
}

/// `NAME, MODE, GC GC` for a compiler and what is known of the module's mode.
pub(crate) fn mode_summary(
    moc: &Compiler,
    persistence: Option<super::Persistence>,
    gc: Option<super::GcKind>,
) -> String {
    let mut out = moc.name();
    match persistence {
        Some(super::Persistence::Enhanced) => out.push_str(", enhanced orthogonal persistence"),
        Some(super::Persistence::Classical) => out.push_str(", classical"),
        None => {}
    }
    if let Some(gc) = gc {
        out.push_str(&format!(", {} GC", gc.name()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn release_texts_parse() {
        assert_eq!(MocVersion::parse("0.8.7"), Some(MocVersion::new(0, 8, 7)));
        assert_eq!(
            MocVersion::parse("0.16.3-caffeine-3"),
            Some(MocVersion::new(0, 16, 3))
        );
        assert_eq!(MocVersion::parse("csid3m3s-a93lcj51"), None);
        assert_eq!(MocVersion::parse("1.2"), None);
        assert_eq!(MocVersion::parse("1.2.3.4"), None);
        assert_eq!(MocVersion::parse("99999999.1.1"), None);
    }

    #[test]
    fn eras_follow_the_release_boundaries() {
        let era = |a, b, c| LayoutEra::of(MocVersion::new(a, b, c));
        assert_eq!(era(0, 6, 9), LayoutEra::DenseTags);
        assert_eq!(era(0, 6, 10), LayoutEra::OddTagsObjInd);
        assert_eq!(era(0, 9, 8), LayoutEra::OddTagsObjInd);
        assert_eq!(era(0, 10, 0), LayoutEra::RegionTag);
        assert_eq!(era(0, 11, 2), LayoutEra::RegionTag);
        assert_eq!(era(0, 11, 3), LayoutEra::NoObjInd);
        assert_eq!(era(0, 12, 1), LayoutEra::NoObjInd);
        assert_eq!(era(0, 13, 0), LayoutEra::SortedTags);
    }

    #[test]
    fn known_builds_and_releases_are_named_and_refused_by_name() {
        let c = Compiler::detect(
            Some("csid3m3s-a93lcj51-ip98pbqz-2wdfwxmz"),
            EraProbes::default(),
        );
        assert_eq!(c.name(), "moc 0.7.3+ (npm motoko 3.1.1)");
        assert_eq!((c.refusal(), c.era), (None, LayoutEra::OddTagsObjInd));
        let c = Compiler::detect(Some("0.6.9"), EraProbes::default());
        assert_eq!(
            c.refusal().unwrap(),
            "the classical layout of moc < 0.6.10 (dense tag numbering) is not supported by this build"
        );
        // npm releases before moc 0.7 are named and refused, whatever their era.
        let c = Compiler::detect(Some("0.6.29-31-gf4ec62edb-dirty"), EraProbes::default());
        assert_eq!(c.name(), "moc 0.6.29+ (npm motoko 0.1.0)");
        assert!(c
            .refusal()
            .unwrap()
            .starts_with("an npm `motoko` release before 3.0.0, bundling a moc older than 0.7.0"));
        let c = Compiler::detect(Some("0.11.2"), EraProbes::default());
        assert_eq!(c.name(), "moc 0.11.2");
        assert_eq!(c.refusal(), None);
        assert_eq!(c.era, LayoutEra::RegionTag);
        let c = Compiler::detect(Some("0.12.1"), EraProbes::default());
        assert_eq!((c.refusal(), c.era), (None, LayoutEra::NoObjInd));
        // 0.10.x has the Region tags but the scalars of before 0.11.0.
        let c = Compiler::detect(Some("0.10.4"), EraProbes::default());
        assert_eq!(
            c.refusal().unwrap(),
            "the classical layout of moc 0.10.x before 0.11.0 (scalars with 30-bit compact ranges, Char <<8) is not supported by this build"
        );
        // npm 4.0.0 bundles 3.20.0's build (node-motoko: no moc.min.js change between them).
        let c = Compiler::detect(
            Some("xddq7rjv-y8vabchk-yj53pv2j-shfimzb2"),
            EraProbes::default(),
        );
        assert_eq!(c.name(), "moc 1.3.0 (npm motoko 3.20.0, 4.0.0)");
        let c = Compiler::detect(Some("1.10.1"), EraProbes::default());
        assert_eq!(c.refusal(), None);
        let c = Compiler::detect(Some("2.0.0"), EraProbes::default());
        assert!(c.refusal().unwrap().starts_with("newer than"));
        let c = Compiler::detect(
            Some("ifw0ilrx-4948ab0m-qqywmmsi-y0xqcjns"),
            EraProbes::default(),
        );
        assert_eq!(c.name(), "moc 1.10.1 (npm motoko 4.10.0)");
        assert_eq!(c.refusal(), None);
        for (id, name) in [
            (
                "fjsknwg3-3r2l6qvz-gs5iyqbc-ka22ysfy",
                "moc 0.14.10+ (npm motoko 3.13.0)",
            ),
            (
                "w5yjzr5v-0rx34pcf-l552h4a7-7n2wcrmv",
                "moc 0.16.1 (npm motoko 3.14.3)",
            ),
        ] {
            let c = Compiler::detect(Some(id), EraProbes::default());
            assert_eq!(c.name(), name);
            assert_eq!((c.refusal(), c.era), (None, LayoutEra::SortedTags));
        }
    }

    #[test]
    fn known_builds_are_listed_once_oldest_first() {
        let npm = |b: &KnownBuild| MocVersion::parse(b.npm).unwrap();
        for w in KNOWN_BUILDS.windows(2) {
            assert!(
                (w[0].moc, w[0].after) <= (w[1].moc, w[1].after) && npm(&w[0]) < npm(&w[1]),
                "{} before {}",
                w[0].npm,
                w[1].npm
            );
        }
        let mut ids: Vec<&str> = KNOWN_BUILDS.iter().map(|b| b.build_id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), KNOWN_BUILDS.len());
    }

    #[test]
    fn unknown_builds_are_placed_by_probes() {
        let modern = EraProbes {
            get_actor_to_persist: true,
            region_new: true,
        };
        // An unknown build id is refused whatever its probes say: its layout was never
        // checked (a newer npm release's build has one too).
        let c = Compiler::detect(Some("zzzzzzzz-build"), modern);
        assert!(c.name().contains("not a known release"));
        assert!(c
            .refusal()
            .unwrap()
            .contains("no npm `motoko` release this build knows"));
        let c = Compiler::detect(None, modern);
        assert_eq!(c.refusal(), None);
        let c = Compiler::detect(Some("0.10.4-999-gabc123-dirty"), modern);
        assert_eq!(c.release, None);
        assert!(c
            .refusal()
            .unwrap()
            .starts_with("a development build of moc"));
        let regions = EraProbes {
            get_actor_to_persist: false,
            region_new: true,
        };
        let c = Compiler::detect(None, regions);
        assert!(c.refusal().unwrap().contains("0.10.0-0.12.1"));
        let c = Compiler::detect(None, EraProbes::default());
        assert!(c.refusal().unwrap().contains("moc < 0.10"));
    }
}
