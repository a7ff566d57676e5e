//! `vars/`: stable variables as files (scalars) and walkable directories (compounds).

use super::decoded::{DecodedSnapshot, ValueNode};

/// A shared list of named values and the range of it a directory shows.
type ValueSlice = (Arc<[(String, Arc<dyn ValueNode>)]>, usize, usize);
use super::decoded::with_newline;
use super::entry::{DirSource, Entry, FnFile, StreamFile};
use super::error::VfsError;
use super::names::UniqueNames;
use std::sync::Arc;

/// A compound's children are grouped into subdirectories of at most this many entries.
pub const MAX_CHILDREN_PER_DIR: usize = 1000;

/// The directory of a compound value (or of all stable variables, for `vars/`).
pub struct ValueDir {
    children: ChildSource,
}

enum ChildSource {
    Vars(Arc<dyn DecodedSnapshot>),
    Value(Arc<dyn ValueNode>),
    Slice(Arc<[(String, Arc<dyn ValueNode>)]>, usize, usize),
    /// Parts `start..end` of a value that lists its parts a range at a time.
    Parts(Arc<dyn ValueNode>, usize, usize),
}

impl ValueDir {
    /// `vars/` of a decoded snapshot.
    pub fn vars(decoded: Arc<dyn DecodedSnapshot>) -> ValueDir {
        ValueDir {
            children: ChildSource::Vars(decoded),
        }
    }

    /// The directory of one compound value.
    pub fn value(value: Arc<dyn ValueNode>) -> ValueDir {
        ValueDir {
            children: ChildSource::Value(value),
        }
    }
}

/// The entries showing the values `children`: `NAME` for a scalar, `NAME/` + `NAME.json`
/// and `NAME.mo` for a compound (and `NAME.raw.json`, its structure, for a collection); more than [`MAX_CHILDREN_PER_DIR`] are grouped into
/// `FIRST-LAST/` subdirectories by position.
fn value_entries(
    children: Arc<[(String, Arc<dyn ValueNode>)]>,
    start: usize,
    end: usize,
) -> Vec<(String, Entry)> {
    if let Some(groups) = groups(start, end) {
        return groups
            .map(|(first, last)| {
                let children = ChildSource::Slice(children.clone(), first, last);
                (
                    group_name(first, last),
                    Entry::Dir(Arc::new(ValueDir { children })),
                )
            })
            .collect();
    }
    let mut names = UniqueNames::default();
    let mut entries = Vec::with_capacity(end.saturating_sub(start));
    for (label, value) in children.get(start..end).unwrap_or(&[]) {
        let name = names.claim(label);
        if value.is_compound() {
            entries.push((
                names.claim(&format!("{name}.json")),
                rendering(value, Rendering::Json),
            ));
            if value.is_collection() {
                let raw = rendering(value, Rendering::RawJson);
                entries.push((names.claim(&format!("{name}.raw.json")), raw));
            }
            let mo = rendering(value, Rendering::DebugShow);
            entries.push((names.claim(&format!("{name}.mo")), mo));
            entries.push((name, Entry::Dir(Arc::new(ValueDir::value(value.clone())))));
        } else {
            entries.push((name, scalar_file(value)));
        }
    }
    entries
}

/// The file showing a scalar value: its JSON.
fn scalar_file(value: &Arc<dyn ValueNode>) -> Entry {
    let value = value.scalar_file_value().unwrap_or_else(|| value.clone());
    Entry::File(Arc::new(FnFile(move || value.json().map(with_newline))))
}

/// The positions `start..end` grouped into `FIRST-LAST/` directories of at most
/// [`MAX_CHILDREN_PER_DIR`] entries each (each group of a power of it), when there are more.
fn groups(start: usize, end: usize) -> Option<impl Iterator<Item = (usize, usize)>> {
    let count = end.saturating_sub(start);
    if count <= MAX_CHILDREN_PER_DIR {
        return None;
    }
    let mut group = MAX_CHILDREN_PER_DIR;
    while count.div_ceil(group) > MAX_CHILDREN_PER_DIR {
        group = group.saturating_mul(MAX_CHILDREN_PER_DIR);
    }
    Some(
        (start..end)
            .step_by(group)
            .map(move |first| (first, first.saturating_add(group).min(end))),
    )
}

/// A group directory's name: its first and last positions.
fn group_name(first: usize, last: usize) -> String {
    format!("{first}-{}", last - 1)
}

/// The entries of parts `start..end` of `value`, listed a range at a time.
fn part_entries(
    value: &Arc<dyn ValueNode>,
    start: usize,
    end: usize,
) -> Result<Vec<(String, Entry)>, VfsError> {
    if let Some(groups) = groups(start, end) {
        return Ok(groups
            .map(|(first, last)| {
                let children = ChildSource::Parts(value.clone(), first, last);
                (
                    group_name(first, last),
                    Entry::Dir(Arc::new(ValueDir { children })),
                )
            })
            .collect());
    }
    let parts: Arc<[_]> = value.parts(start, end)?.into();
    let len = parts.len();
    Ok(value_entries(parts, 0, len))
}

/// The entry named `name` among parts `start..end` of `value`, found by its key without
/// listing them (a map's entry `KEY`, or its `KEY.json`, `KEY.raw.json`, `KEY.mo`).
fn find_part_entry(
    value: &Arc<dyn ValueNode>,
    name: &str,
    start: usize,
    end: usize,
) -> Result<Option<Entry>, VfsError> {
    for (suffix, which) in [
        (".raw.json", Some(Rendering::RawJson)),
        (".json", Some(Rendering::Json)),
        (".mo", Some(Rendering::DebugShow)),
        ("", None),
    ] {
        let Some(key) = name.strip_suffix(suffix) else {
            continue;
        };
        let Some(part) = value.find_part(key, start, end)? else {
            continue;
        };
        let compound = part.is_compound();
        return Ok(match which {
            None if compound => Some(Entry::Dir(Arc::new(ValueDir::value(part)))),
            None => Some(scalar_file(&part)),
            Some(Rendering::RawJson) if compound && part.is_collection() => {
                Some(rendering(&part, Rendering::RawJson))
            }
            Some(Rendering::RawJson) => None,
            Some(which) if compound => Some(rendering(&part, which)),
            Some(_) => None,
        });
    }
    Ok(None)
}

/// Which text of a compound value a file holds.
#[derive(Clone, Copy)]
enum Rendering {
    /// `NAME.json`: collections as their natural views.
    Json,
    /// `NAME.raw.json`: a collection's structure.
    RawJson,
    /// `NAME.mo`: the `debug_show` text.
    DebugShow,
}

/// The file holding one rendering of `value` (with a final newline), streamed from the heap
/// as it is read (a huge value is never held whole in memory).
fn rendering(value: &Arc<dyn ValueNode>, which: Rendering) -> Entry {
    let value = value.clone();
    Entry::File(Arc::new(StreamFile(move |out: &mut dyn std::io::Write| {
        match which {
            Rendering::Json => value.write_json(true, out)?,
            Rendering::RawJson => value.write_json(false, out)?,
            Rendering::DebugShow => value.write_debug_show(out)?,
        }
        out.write_all(b"\n")
            .map_err(|e| VfsError::io("a value's rendering", e))
    })))
}

impl DirSource for ValueDir {
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError> {
        let (children, start, end): ValueSlice = match &self.children {
            ChildSource::Vars(decoded) => {
                let vars: Arc<[_]> = decoded.vars()?.into();
                let len = vars.len();
                (vars, 0, len)
            }
            ChildSource::Value(value) => {
                if let Some(count) = value.part_count()? {
                    return part_entries(value, 0, count);
                }
                let children: Arc<[_]> = value.children()?.into();
                let len = children.len();
                (children, 0, len)
            }
            ChildSource::Slice(children, start, end) => (children.clone(), *start, *end),
            ChildSource::Parts(value, start, end) => return part_entries(value, *start, *end),
        };
        Ok(value_entries(children, start, end))
    }

    fn find(&self, name: &str) -> Result<Option<Entry>, VfsError> {
        match &self.children {
            ChildSource::Parts(value, start, end) if groups(*start, *end).is_none() => {
                find_part_entry(value, name, *start, *end)
            }
            ChildSource::Value(value) => match value.part_count()? {
                Some(count) if groups(0, count).is_none() => find_part_entry(value, name, 0, count),
                _ => Ok(None),
            },
            _ => Ok(None),
        }
    }
}
