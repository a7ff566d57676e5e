//! `vars/`: stable variables as files (scalars) and walkable directories (compounds).

use super::decoded::{DecodedSnapshot, ValueNode};

/// A shared list of named values and the range of it a directory shows.
type ValueSlice = (Arc<[(String, Arc<dyn ValueNode>)]>, usize, usize);
use super::entry::{DirSource, Entry, FnFile, StreamFile};
use super::error::VfsError;
use super::names::UniqueNames;
use super::snapshot_dir::with_newline;
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
    let count = end.saturating_sub(start);
    if count > MAX_CHILDREN_PER_DIR {
        let mut group = MAX_CHILDREN_PER_DIR;
        while count.div_ceil(group) > MAX_CHILDREN_PER_DIR {
            group = group.saturating_mul(MAX_CHILDREN_PER_DIR);
        }
        return (start..end)
            .step_by(group)
            .map(|first| {
                let last = first.saturating_add(group).min(end);
                (
                    format!("{first}-{}", last - 1),
                    Entry::Dir(Arc::new(ValueDir {
                        children: ChildSource::Slice(children.clone(), first, last),
                    })),
                )
            })
            .collect();
    }
    let mut names = UniqueNames::default();
    let mut entries = Vec::with_capacity(count);
    for (label, value) in children.get(start..end).unwrap_or(&[]) {
        let name = names.claim(label);
        if value.is_compound() {
            let json = rendering(value, Rendering::Json);
            let mo = rendering(value, Rendering::DebugShow);
            entries.push((names.claim(&format!("{name}.json")), json));
            if value.is_collection() {
                let raw = rendering(value, Rendering::RawJson);
                entries.push((names.claim(&format!("{name}.raw.json")), raw));
            }
            entries.push((names.claim(&format!("{name}.mo")), mo));
            entries.push((name, Entry::Dir(Arc::new(ValueDir::value(value.clone())))));
        } else {
            let value = value.clone();
            entries.push((
                name,
                Entry::File(Arc::new(FnFile(move || value.json().map(with_newline)))),
            ));
        }
    }
    entries
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
                let children: Arc<[_]> = value.children()?.into();
                let len = children.len();
                (children, 0, len)
            }
            ChildSource::Slice(children, start, end) => (children.clone(), *start, *end),
        };
        Ok(value_entries(children, start, end))
    }
}
