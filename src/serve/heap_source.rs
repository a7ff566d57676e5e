//! The vfs's [`DecodedSnapshot`] over the heap decoder (`crate::heap`): stable variables
//! walked one level at a time, statistics, objects by address (the adapter lives here, in
//! the composition layer, so the vfs sees only its own traits).

use crate::analysis::info::snapshot_info;
use crate::analysis::opened::OBJECT_BLOCK_BITS;
use crate::analysis::OpenedHeap;
use crate::heap::collections::{compare_keys, lookup, CollectionKind, EntryWalk, Item};
use crate::heap::render::object::{ObjectReader, ObjectView};
use crate::heap::render::{
    principal_from_text, principal_text, stream_debug_show, stream_json, write_debug_show_as,
    write_json, StreamError,
};
use crate::heap::types::StableSignature;
use crate::heap::value::{stable_variables, DecodeError, LazyValue, Value};
use crate::heap::{BlockKind, Heap};
use crate::vfs::decoded::{NamedValues, ObjectSource, ValueNode};
use crate::vfs::{DecodeFailure, DecodedSnapshot, VfsError};
use std::sync::{Arc, OnceLock};

/// The vfs view of heaps: what a snapshot directory serves for an opened heap.
pub struct HeapDecoder;

impl HeapDecoder {
    /// The decoded view of a heap opened by the caller (an in-memory snapshot, a test, a
    /// fuzzer), under the limits the heap was opened with.
    pub fn decoded_heap(heap: Heap) -> Arc<dyn DecodedSnapshot> {
        HeapDecoder::decoded(Arc::new(OpenedHeap::new(heap)))
    }

    /// The decoded view of an opened heap, shared with its other readers.
    pub fn decoded(opened: Arc<OpenedHeap>) -> Arc<dyn DecodedSnapshot> {
        Arc::new(HeapSnapshot {
            context: opened,
            analysis: crate::serve::analysis_dir::AnalysisFiles::default(),
        })
    }
}

/// One opened snapshot.
struct HeapSnapshot {
    context: Arc<OpenedHeap>,
    /// `analysis/`'s files (the analysis itself is not kept).
    analysis: crate::serve::analysis_dir::AnalysisFiles,
}

/// The stable signature, or why there is none, as a vfs error.
fn signature(context: &OpenedHeap) -> Result<&StableSignature, VfsError> {
    context
        .signature()
        .map_err(|e| VfsError::decode("the stable signature", e.clone()))
}

/// A decoder over the signature, sharing the label map (cheap: one per listed value);
/// `natural`: collections decode as their natural views.
fn decoder(
    context: &OpenedHeap,
    natural: bool,
) -> Result<crate::heap::value::Decoder<'_>, VfsError> {
    let mut d = context
        .decoder()
        .map_err(|e| VfsError::decode("the stable signature", e.clone()))?;
    d.set_natural(natural);
    Ok(d)
}

fn to_json(what: &str, value: &impl serde::Serialize) -> Result<Vec<u8>, VfsError> {
    serde_json::to_vec_pretty(value).map_err(|e| VfsError::decode(what, DecodeFailure::render(e)))
}

impl DecodedSnapshot for HeapSnapshot {
    fn incomplete(&self) -> Option<String> {
        self.context
            .heap()
            .snapshot()
            .unfinished()
            .map(|u| u.to_string())
    }

    fn info_json(&self) -> Result<Vec<u8>, VfsError> {
        to_json("info.json", &snapshot_info(&self.context))
    }

    fn stats_json(&self) -> Result<Vec<u8>, VfsError> {
        to_json("stats.json", self.context.stats())
    }

    fn vars(&self) -> Result<NamedValues, VfsError> {
        let heap = self.context.heap();
        let vars = stable_variables(heap, signature(&self.context)?)
            .map_err(|e| VfsError::decode("the stable variables", e))?;
        Ok(vars
            .into_iter()
            .map(|var| {
                let node = HeapValue::new(self.context.clone(), Value::Lazy(var.value));
                (var.name.to_string(), Arc::new(node) as Arc<dyn ValueNode>)
            })
            .collect())
    }

    fn objects(&self) -> Result<Arc<dyn ObjectSource>, VfsError> {
        Ok(Arc::new(HeapObjects {
            context: self.context.clone(),
        }))
    }

    fn analysis_files(&self) -> &'static [&'static str] {
        &crate::serve::analysis_dir::ANALYSIS_FILES
    }

    fn analysis_file(&self, name: &str) -> Result<Vec<u8>, VfsError> {
        self.analysis.file(&self.context, name)
    }
}

/// The heap objects on the path from a stable variable down to a value (innermost first).
struct Ancestors {
    addr: u64,
    parent: Option<Arc<Ancestors>>,
}

/// Whether `addr` is one of `path`'s objects.
fn on_path(mut path: Option<&Arc<Ancestors>>, addr: u64) -> bool {
    while let Some(a) = path {
        if a.addr == addr {
            return true;
        }
        path = a.parent.as_ref();
    }
    false
}

/// A value of a stable variable: decoded one level on first use, completely when its
/// JSON or `debug_show` text is asked for. A value whose object is already on its path
/// (a cyclic structure such as a doubly linked `mo:core/Queue`) is a leaf showing the
/// back-reference `{"cycle": "0x…"}`, as `vars` prints it, so the tree stays finite.
/// A value of a stable variable, deeper than [`MAX_TREE_DEPTH`] directories below `vars/` or
/// with a path longer than [`MAX_TREE_PATH`] bytes, is a file holding `{"deep": "0x…"}` (as
/// the JSON renderings cut deep values), so every path stays far below `PATH_MAX` (a long
/// linked list would otherwise nest thousands of directories).
pub const MAX_TREE_DEPTH: usize = 64;
/// See [`MAX_TREE_DEPTH`]: the most bytes of path below `vars/` a directory may have.
pub const MAX_TREE_PATH: usize = 1024;

struct HeapValue {
    context: Arc<OpenedHeap>,
    value: Value,
    path: Option<Arc<Ancestors>>,
    /// Directories between `vars/` and this value, and the bytes of that path.
    depth: (usize, usize),
    shallow: OnceLock<Result<Value, DecodeError>>,
    collection: OnceLock<Option<CollectionKind>>,
    /// A collection's items counted, with walks saved to resume from (see [`PartIndex`]).
    parts: OnceLock<Result<PartIndex, DecodeError>>,
}

impl HeapValue {
    fn new(context: Arc<OpenedHeap>, value: Value) -> HeapValue {
        HeapValue::below(context, value, None, (0, 0))
    }

    fn below(
        context: Arc<OpenedHeap>,
        value: Value,
        path: Option<Arc<Ancestors>>,
        depth: (usize, usize),
    ) -> HeapValue {
        HeapValue {
            context,
            value,
            path,
            depth,
            shallow: OnceLock::new(),
            collection: OnceLock::new(),
            parts: OnceLock::new(),
        }
    }

    /// Whether this value is too deep in the tree to be a directory.
    fn too_deep(&self) -> bool {
        self.depth.0 > MAX_TREE_DEPTH || self.depth.1 > MAX_TREE_PATH
    }

    /// The back-reference this value is, when its object is already on its path.
    fn cycle(&self) -> Option<Value> {
        let addr = self.own_addr().ok()??;
        on_path(self.path.as_ref(), addr).then_some(Value::Cycle { addr })
    }

    fn decode_error(e: DecodeError) -> VfsError {
        VfsError::decode("a stable variable", e)
    }

    /// The collection this value is (by its type), if any.
    fn collection(&self) -> Option<CollectionKind> {
        *self.collection.get_or_init(|| match &self.value {
            Value::Lazy(lazy) => self.context.decoder().ok()?.collection_kind(lazy),
            _ => None,
        })
    }

    /// The address of the value's own object (a collection's, without decoding its view).
    fn own_addr(&self) -> Result<Option<u64>, VfsError> {
        match (&self.value, self.collection()) {
            (Value::Lazy(lazy), Some(_)) => {
                Ok(Some(self.context.heap().pointer(lazy.word).unwrap_or(0)))
            }
            (Value::Lazy(lazy), None) if self.shallow.get().is_none() => {
                match self.array_len(lazy) {
                    // An array's object, from its header (its elements not listed).
                    Some(_) => Ok(self
                        .context
                        .heap()
                        .object_of(lazy.word)
                        .ok()
                        .map(|o| o.addr)),
                    None => Ok(self.shallow()?.addr()),
                }
            }
            _ => Ok(self.shallow()?.addr()),
        }
    }

    /// The length of an array value, read from its header (`None` for any other value):
    /// deciding whether a listed element is a directory does not decode (and keep) its
    /// elements.
    fn array_len(&self, lazy: &LazyValue) -> Option<u64> {
        let mut d = self.context.decoder().ok()?;
        let ty = d.type_of(lazy).ok()??;
        if !matches!(&*ty, crate::heap::types::Type::Array { .. }) {
            return None;
        }
        d.len(lazy).ok()
    }

    /// The collection this value is, with its lazy value, when its parts are listed a range
    /// at a time (never for a cycle's back-reference or a value too deep for a directory).
    fn listed_collection(&self) -> Option<(&LazyValue, CollectionKind)> {
        let Value::Lazy(lazy) = &self.value else {
            return None;
        };
        let kind = self.collection()?;
        (!self.too_deep() && self.cycle().is_none()).then_some((lazy, kind))
    }

    /// A plain array (no collection) listed a range of elements at a time, with its length
    /// read from its header: its elements are never decoded all at once for a listing (an
    /// array of millions would hold a node per element).
    fn listed_array(&self) -> Option<(&LazyValue, usize)> {
        let Value::Lazy(lazy) = &self.value else {
            return None;
        };
        if self.collection().is_some() || self.too_deep() || self.cycle().is_some() {
            return None;
        }
        let len = usize::try_from(self.array_len(lazy)?).ok()?;
        Some((lazy, len))
    }

    /// The walk over a collection's items (its natural view, read one item at a time).
    fn walk(&self, lazy: &LazyValue, kind: CollectionKind) -> Result<EntryWalk, VfsError> {
        let d = decoder(&self.context, false)?;
        let ty = d.type_of(lazy).map_err(Self::decode_error)?;
        let typed = LazyValue {
            word: lazy.word,
            ty,
        };
        Ok(EntryWalk::new(typed, kind))
    }

    /// The collection's [`PartIndex`], made by one walk on first use.
    fn part_index(&self, lazy: &LazyValue, kind: CollectionKind) -> Result<&PartIndex, VfsError> {
        let walk = self.walk(lazy, kind)?;
        self.parts
            .get_or_init(|| {
                let mut d = self.context.decoder().map_err(Clone::clone)?;
                PartIndex::build(&mut d, walk)
            })
            .as_ref()
            .map_err(|e| Self::decode_error(e.clone()))
    }

    /// The path and depth of this value's parts.
    fn part_place(&self, addr: Option<u64>) -> Option<Arc<Ancestors>> {
        match addr {
            Some(addr) => Some(Arc::new(Ancestors {
                addr,
                parent: self.path.clone(),
            })),
            None => self.path.clone(),
        }
    }

    /// The value with its top level decoded (a collection as its natural view).
    fn shallow(&self) -> Result<&Value, VfsError> {
        let Value::Lazy(lazy) = &self.value else {
            return Ok(&self.value);
        };
        self.shallow
            .get_or_init(|| {
                let mut decoder = self.context.decoder().map_err(Clone::clone)?;
                decoder.set_natural(true);
                decoder.shallow(lazy)
            })
            .as_ref()
            .map_err(|e| Self::decode_error(e.clone()))
    }

    /// Whether `value` (a part of this value) is `()`: a variant tag without payload is
    /// shown as a file, like a scalar.
    fn is_unit(&self, value: &Value) -> bool {
        let shallow;
        let value = match value {
            Value::Lazy(lazy) => {
                let Ok(mut decoder) = self.context.decoder() else {
                    return false;
                };
                match decoder.shallow(lazy) {
                    Ok(v) => {
                        shallow = v;
                        &shallow
                    }
                    Err(_) => return false,
                }
            }
            other => other,
        };
        match value {
            Value::Unit => true,
            Value::Tuple { items, .. } => items.is_empty(),
            _ => false,
        }
    }

    /// The value decoded completely (every lazy part filled in); `natural`: collections as
    /// their natural views.
    fn deep(&self, natural: bool) -> Result<Value, VfsError> {
        let mut decoder = decoder(&self.context, natural)?;
        let mut value = self.value.clone();
        complete(&mut decoder, &mut value, 0)?;
        Ok(value)
    }
}

/// How deep lazy parts are searched for in a value (a shallow decode leaves them at most
/// a few levels down; deeper structure comes decoded from `Decoder::deep`).
const MAX_LAZY_DEPTH: usize = 64;

/// Replaces every lazy part of `value` with its complete decoding.
fn complete(
    decoder: &mut crate::heap::value::Decoder<'_>,
    value: &mut Value,
    depth: usize,
) -> Result<(), VfsError> {
    if let Value::Lazy(lazy) = value {
        let lazy: LazyValue = lazy.clone();
        *value = decoder.deep(&lazy).map_err(HeapValue::decode_error)?;
        return Ok(());
    }
    if depth >= MAX_LAZY_DEPTH {
        return Ok(());
    }
    for i in 0..value.child_count() {
        if let Some(child) = value.child_mut(i) {
            complete(decoder, child, depth + 1)?;
        }
    }
    Ok(())
}

impl ValueNode for HeapValue {
    fn is_compound(&self) -> bool {
        if self.cycle().is_some() || self.too_deep() {
            return false;
        }
        if let (Value::Lazy(lazy), None) = (&self.value, self.shallow.get()) {
            if let Some(len) = self.array_len(lazy) {
                return len > 0;
            }
        }
        if let Some((lazy, kind)) = self.listed_collection() {
            // A natural view is compound when it has an item.
            let Ok(mut walk) = self.walk(lazy, kind) else {
                return false;
            };
            let Ok(mut d) = self.context.decoder() else {
                return false;
            };
            return matches!(walk.next_item(&mut d), Some(Ok(_)));
        }
        match self.shallow() {
            Ok(Value::Record { fields, .. }) => !fields.is_empty(),
            Ok(Value::Tuple { items, .. } | Value::Array { items, .. }) => !items.is_empty(),
            Ok(Value::Opt { .. }) => true,
            Ok(Value::Variant { payload, .. }) => !self.is_unit(payload),
            _ => false,
        }
    }

    fn children(&self) -> Result<NamedValues, VfsError> {
        if self.cycle().is_some() || self.too_deep() {
            return Ok(Vec::new());
        }
        let shallow = self.shallow()?;
        let path = match shallow.addr() {
            Some(addr) => Some(Arc::new(Ancestors {
                addr,
                parent: self.path.clone(),
            })),
            None => self.path.clone(),
        };
        let (depth, bytes) = self.depth;
        let node = |name: String, v: &Value| {
            let depth = (depth + 1, bytes + name.len() + 1);
            let child = HeapValue::below(self.context.clone(), v.clone(), path.clone(), depth);
            (name, Arc::new(child) as Arc<dyn ValueNode>)
        };
        if self.collection().is_some_and(CollectionKind::is_map) {
            if let Value::Array { items, .. } = shallow {
                return self.entries_by_key(items, &node);
            }
        }
        Ok(match shallow {
            Value::Record { fields, .. } => fields
                .iter()
                .map(|f| node(f.label.to_string(), &f.value))
                .collect(),
            Value::Tuple { items, .. } | Value::Array { items, .. } => items
                .iter()
                .enumerate()
                .map(|(i, v)| node(i.to_string(), v))
                .collect(),
            Value::Opt { value, .. } => vec![node("some".to_string(), value)],
            Value::Variant { tag, payload, .. } => vec![node(tag.to_string(), payload)],
            _ => Vec::new(),
        })
    }

    fn json(&self) -> Result<Vec<u8>, VfsError> {
        self.json_as(true)
    }

    fn part_count(&self) -> Result<Option<usize>, VfsError> {
        match self.listed_collection() {
            Some((lazy, kind)) => Ok(Some(self.part_index(lazy, kind)?.len)),
            None => Ok(self.listed_array().map(|(_, len)| len)),
        }
    }

    fn parts(&self, start: usize, end: usize) -> Result<NamedValues, VfsError> {
        if let Some((lazy, len)) = self.listed_array() {
            let mut d = decoder(&self.context, false)?;
            let path = self.part_place(self.own_addr()?);
            let (depth, bytes) = self.depth;
            let end = end.min(len);
            let mut out = Vec::with_capacity(end.saturating_sub(start));
            for i in start..end {
                let element = d.element(lazy, i as u64).map_err(Self::decode_error)?;
                let name = i.to_string();
                let place = (depth + 1, bytes + name.len() + 1);
                let child = HeapValue::below(
                    self.context.clone(),
                    Value::Lazy(element),
                    path.clone(),
                    place,
                );
                out.push((name, Arc::new(child) as Arc<dyn ValueNode>));
            }
            return Ok(out);
        }
        let Some((lazy, kind)) = self.listed_collection() else {
            let mut all = self.children()?;
            all.truncate(end);
            return Ok(all.split_off(start.min(all.len())));
        };
        let index = self.part_index(lazy, kind)?;
        let mut d = decoder(&self.context, false)?;
        let items = index
            .items(&mut d, start, end)
            .map_err(Self::decode_error)?;
        let path = self.part_place(Some(self.context.heap().pointer(lazy.word).unwrap_or(0)));
        let (depth, bytes) = self.depth;
        let mut keys = decoder(&self.context, false)?;
        keys.set_max_nodes(MAX_KEY_NODES);
        let mut out = Vec::with_capacity(items.len());
        for (position, item) in (start..).zip(items) {
            let (name, value) = match item {
                Item::Entry { key, value, .. } => {
                    let key = keys.deep(&key).map_err(Self::decode_error)?;
                    (key_name(&key), value)
                }
                Item::Element(x) => (position.to_string(), x),
            };
            let place = (depth + 1, bytes + name.len() + 1);
            let child = HeapValue::below(
                self.context.clone(),
                Value::Lazy(value),
                path.clone(),
                place,
            );
            out.push((name, Arc::new(child) as Arc<dyn ValueNode>));
        }
        Ok(out)
    }

    fn find_part(
        &self,
        name: &str,
        start: usize,
        end: usize,
    ) -> Result<Option<Arc<dyn ValueNode>>, VfsError> {
        let Some((lazy, kind)) = self.listed_collection() else {
            return Ok(None);
        };
        // Only maps ordered by their keys are searched (a `mo:base` Trie is by hash).
        let ordered = matches!(
            kind,
            CollectionKind::Map | CollectionKind::PureMap | CollectionKind::BaseRBTree
        );
        if !ordered || start >= end {
            return Ok(None);
        }
        let index = self.part_index(lazy, kind)?;
        let mut d = decoder(&self.context, false)?;
        d.set_max_nodes(MAX_KEY_NODES);
        // The keys at both ends of the range: the key must sort between them (the map's
        // order is its keys' order) and be named exactly `name`.
        let ends = [
            index.items(&mut d, start, start + 1),
            index.items(&mut d, end - 1, end),
        ];
        let mut bounds = Vec::with_capacity(2);
        for items in ends {
            let items = items.map_err(Self::decode_error)?;
            let Some(Item::Entry { key, .. }) = items.into_iter().next() else {
                return Ok(None);
            };
            bounds.push(d.deep(&key).map_err(Self::decode_error)?);
        }
        let Some(key) = key_from_name(name, &bounds[0]) else {
            return Ok(None);
        };
        let inside = compare_keys(&bounds[0], &key).is_some_and(|o| o.is_le())
            && compare_keys(&key, &bounds[1]).is_some_and(|o| o.is_le());
        if !inside {
            return Ok(None);
        }
        let mut search = decoder(&self.context, false)?;
        let Some(value) = lookup(&mut search, lazy, kind, &key).map_err(Self::decode_error)? else {
            return Ok(None);
        };
        let path = self.part_place(Some(self.context.heap().pointer(lazy.word).unwrap_or(0)));
        let (depth, bytes) = self.depth;
        let place = (depth + 1, bytes + name.len() + 1);
        let child = HeapValue::below(self.context.clone(), Value::Lazy(value), path, place);
        Ok(Some(Arc::new(child)))
    }

    fn is_collection(&self) -> bool {
        self.collection().is_some()
    }

    fn raw_json(&self) -> Result<Vec<u8>, VfsError> {
        self.json_as(false)
    }

    fn write_json(&self, natural: bool, out: &mut dyn std::io::Write) -> Result<(), VfsError> {
        let lazy = match &self.value {
            Value::Lazy(lazy) if !self.too_deep() && self.cycle().is_none() => lazy,
            _ => return write_all(out, &self.json_as(natural)?),
        };
        let mut decoder = decoder(&self.context, natural)?;
        stream_json(&mut decoder, lazy, out).map_err(stream_error)
    }

    fn write_debug_show(&self, out: &mut dyn std::io::Write) -> Result<(), VfsError> {
        let lazy = match &self.value {
            Value::Lazy(lazy) if self.cycle().is_none() => lazy,
            _ => return write_all(out, &self.debug_show()?),
        };
        let mut decoder = decoder(&self.context, false)?;
        let floats = self.context.heap().float_style();
        stream_debug_show(&mut decoder, lazy, floats, out).map_err(stream_error)
    }

    fn scalar_file_value(&self) -> Option<Arc<dyn ValueNode>> {
        let Value::Lazy(lazy) = &self.value else {
            return None;
        };
        // `json` and `debug_show` of a value that is neither cut as too deep nor a cycle are
        // those of its complete decoding: all a scalar needs is its word and type.
        if self.too_deep() || self.cycle().is_some() || self.is_compound() {
            return None;
        }
        Some(Arc::new(ScalarValue {
            context: self.context.clone(),
            value: lazy.clone(),
        }))
    }

    fn debug_show(&self) -> Result<Vec<u8>, VfsError> {
        let value = match self.cycle() {
            Some(cycle) => cycle,
            None => self.deep(false)?,
        };
        let mut out = String::new();
        write_debug_show_as(&value, self.context.heap().float_style(), &mut out);
        Ok(out.into_bytes())
    }
}

/// A scalar value as the file showing it keeps it (see [`ValueNode::scalar_file_value`]):
/// 24 bytes where a [`HeapValue`] takes about 270, its caches included.
struct ScalarValue {
    context: Arc<OpenedHeap>,
    value: LazyValue,
}

impl ScalarValue {
    /// The value decoded completely (`natural`: collections as their natural views).
    fn deep(&self, natural: bool) -> Result<Value, VfsError> {
        let mut decoder = decoder(&self.context, natural)?;
        decoder.deep(&self.value).map_err(HeapValue::decode_error)
    }
}

impl ValueNode for ScalarValue {
    fn is_compound(&self) -> bool {
        false
    }

    fn children(&self) -> Result<NamedValues, VfsError> {
        Ok(Vec::new())
    }

    fn json(&self) -> Result<Vec<u8>, VfsError> {
        let mut out = String::new();
        write_json(&self.deep(true)?, &mut out);
        Ok(out.into_bytes())
    }

    fn debug_show(&self) -> Result<Vec<u8>, VfsError> {
        let mut out = String::new();
        write_debug_show_as(
            &self.deep(false)?,
            self.context.heap().float_style(),
            &mut out,
        );
        Ok(out.into_bytes())
    }
}

impl HeapValue {
    /// The JSON of the value, collections as their natural views or (`natural == false`) as
    /// their structure.
    fn json_as(&self, natural: bool) -> Result<Vec<u8>, VfsError> {
        if self.too_deep() && self.cycle().is_none() {
            if let Some(addr) = self.shallow()?.addr() {
                return Ok(format!("{{\"deep\":\"{addr:#x}\"}}").into_bytes());
            }
        }
        let value = match self.cycle() {
            Some(cycle) => cycle,
            None => self.deep(natural)?,
        };
        let mut out = String::new();
        write_json(&value, &mut out);
        Ok(out.into_bytes())
    }

    /// A map's entries (its natural view's `(key, value)` tuples) named by their keys, each
    /// holding its value.
    fn entries_by_key(
        &self,
        entries: &[Value],
        node: &NamedChild<'_>,
    ) -> Result<NamedValues, VfsError> {
        let mut decoder = decoder(&self.context, false)?;
        decoder.set_max_nodes(MAX_KEY_NODES);
        let mut out = Vec::with_capacity(entries.len());
        for entry in entries {
            let Value::Tuple { items, .. } = entry else {
                continue;
            };
            let [key, value] = &items[..] else { continue };
            let key = match key {
                Value::Lazy(k) => decoder.deep(k).map_err(Self::decode_error)?,
                other => other.clone(),
            };
            out.push(node(key_name(&key), value));
        }
        Ok(out)
    }
}

/// Writes a rendering held whole (a value that does not stream) to `out`.
fn write_all(out: &mut dyn std::io::Write, bytes: &[u8]) -> Result<(), VfsError> {
    out.write_all(bytes)
        .map_err(|e| VfsError::io("a value's rendering", e))
}

/// A streamed rendering's failure as a vfs error.
fn stream_error(e: StreamError) -> VfsError {
    match e {
        StreamError::Decode(e) => HeapValue::decode_error(e),
        StreamError::Write(e) => VfsError::io("a value's rendering", e),
    }
}

/// A map key of the same type as `like` whose entry name is exactly `name`: a number (its
/// decimal text), a principal (its textual form), or a text whose name no other entry of
/// the directory can take (see [`text_is_its_own_name`]); other keys are found by listing.
fn key_from_name(name: &str, like: &Value) -> Option<Value> {
    use num_bigint::{BigInt, BigUint};
    let key = match like {
        Value::Text(_) if text_is_its_own_name(name) => Value::Text(name.to_string()),
        Value::Principal(_) => Value::Principal(principal_from_text(name)?),
        Value::Nat(_) => Value::Nat(name.parse::<BigUint>().ok()?),
        Value::Int(_) => Value::Int(name.parse::<BigInt>().ok()?),
        Value::Nat8(_) => Value::Nat8(name.parse().ok()?),
        Value::Nat16(_) => Value::Nat16(name.parse().ok()?),
        Value::Nat32(_) => Value::Nat32(name.parse().ok()?),
        Value::Nat64(_) => Value::Nat64(name.parse().ok()?),
        Value::Int8(_) => Value::Int8(name.parse().ok()?),
        Value::Int16(_) => Value::Int16(name.parse().ok()?),
        Value::Int32(_) => Value::Int32(name.parse().ok()?),
        Value::Int64(_) => Value::Int64(name.parse().ok()?),
        _ => return None,
    };
    // Only the canonical text (no sign, zeros or spaces the listing would not show).
    (key_name(&key) == name).then_some(key)
}

/// Whether a Text key `name` is listed under exactly that name whatever the other keys
/// are: the directory names an entry by its key sanitized, then made unique in listing
/// order (`~2`, …), beside `KEY.json`, `KEY.raw.json` and `KEY.mo` for a compound value.
/// Another entry can take the name `name` only when `name` has a `_` (a sanitized `/` or
/// control character, or `_`, `_.`, `_..`), a `~` (a unique or shortened name), or ends
/// in `.json` or `.mo` (another key's rendering); and `name` must be a name as it is.
fn text_is_its_own_name(name: &str) -> bool {
    !name.contains(['_', '~'])
        && !name.ends_with(".json")
        && !name.ends_with(".mo")
        && crate::vfs::names::sanitize(name) == name
}

/// Most saved walks of one collection (see [`PartIndex`]).
const MAX_SAVED_WALKS: usize = 2048;

/// A collection's items counted by one walk, with the walk saved every `interval` items so
/// a range is listed from the nearest saved point (at most [`MAX_SAVED_WALKS`] kept: the
/// interval doubles when they would be more).
struct PartIndex {
    len: usize,
    interval: usize,
    saved: Vec<EntryWalk>,
}

impl PartIndex {
    fn build(
        decoder: &mut crate::heap::value::Decoder<'_>,
        mut walk: EntryWalk,
    ) -> Result<PartIndex, DecodeError> {
        let mut index = PartIndex {
            len: 0,
            interval: crate::vfs::vars_dir::MAX_CHILDREN_PER_DIR,
            saved: Vec::new(),
        };
        loop {
            if index.len.is_multiple_of(index.interval) {
                if index.saved.len() == MAX_SAVED_WALKS {
                    let kept = index.saved.drain(..).step_by(2).collect();
                    index.saved = kept;
                    index.interval *= 2;
                }
                if index.len.is_multiple_of(index.interval) {
                    index.saved.push(walk.clone());
                }
            }
            // Queued slots are counted without being read, up to the next saved point.
            let passed = walk.skip_queued(decoder, index.interval - index.len % index.interval);
            if passed > 0 {
                index.len += passed;
                continue;
            }
            match walk.next_item(decoder) {
                None => return Ok(index),
                Some(Err(e)) => return Err(e),
                Some(Ok(_)) => index.len += 1,
            }
        }
    }

    /// Items `start..end` (fewer past the end), read from the nearest saved walk.
    fn items(
        &self,
        decoder: &mut crate::heap::value::Decoder<'_>,
        start: usize,
        end: usize,
    ) -> Result<Vec<Item>, DecodeError> {
        let end = end.min(self.len);
        let slot = (start / self.interval).min(self.saved.len().saturating_sub(1));
        let Some(saved) = self.saved.get(slot) else {
            return Ok(Vec::new());
        };
        let mut walk = saved.clone();
        let mut position = slot * self.interval;
        let mut out = Vec::with_capacity(end.saturating_sub(start));
        while position < start {
            let passed = walk.skip_queued(decoder, start - position);
            if passed == 0 {
                break;
            }
            position += passed;
        }
        while position < end {
            match walk.next_item(decoder) {
                None => break,
                Some(item) => {
                    let item = item?;
                    if position >= start {
                        out.push(item);
                    }
                }
            }
            position += 1;
        }
        Ok(out)
    }
}

/// Makes a named child value of a directory.
type NamedChild<'a> = dyn Fn(String, &Value) -> (String, Arc<dyn ValueNode>) + 'a;

/// The most value nodes a map key is decoded to (to name its entry).
const MAX_KEY_NODES: u64 = 4096;

/// A map entry's name from its key: a Text as is, a number or principal as its text, any
/// other key as its `debug_show` (the directory sanitizes it as every name).
fn key_name(key: &Value) -> String {
    match key {
        Value::Text(t) => t.clone(),
        Value::Nat(n) => n.to_string(),
        Value::Int(n) => n.to_string(),
        Value::Nat8(n) => n.to_string(),
        Value::Nat16(n) => n.to_string(),
        Value::Nat32(n) => n.to_string(),
        Value::Nat64(n) => n.to_string(),
        Value::Int8(n) => n.to_string(),
        Value::Int16(n) => n.to_string(),
        Value::Int32(n) => n.to_string(),
        Value::Int64(n) => n.to_string(),
        Value::Principal(p) => principal_text(p),
        other => crate::heap::render::debug_show(other),
    }
}

/// The object at `addr` of an opened heap, as the mount's `objects/` and `mo-mem object`
/// show it (fields named by the program's labels).
pub fn object_view(context: &OpenedHeap, addr: u64) -> Result<ObjectView, VfsError> {
    let what = format!("object {addr:#x}");
    let object = context
        .heap()
        .object(addr)
        .map_err(|e| VfsError::decode(&what, e))?;
    let mut decoder = context.any_decoder();
    Ok(ObjectReader::new(context.heap(), &mut decoder, context.labels().as_ref()).read(&object))
}

/// The heap's objects, found by the linear walk.
struct HeapObjects {
    context: Arc<OpenedHeap>,
}

impl ObjectSource for HeapObjects {
    fn visit_from(&self, from: u64, visit: &mut dyn FnMut(u64) -> bool) -> Result<(), VfsError> {
        let heap = self.context.heap();
        let walk = if from == 0 {
            heap.walk()
        } else {
            heap.walk_from(from)
        };
        for block in walk {
            let Ok(block) = block else { continue };
            let BlockKind::Object(tag) = block.kind else {
                continue;
            };
            if block.addr < from || !tag.is_object() {
                continue;
            }
            if !visit(block.addr) {
                break;
            }
        }
        Ok(())
    }

    fn object_json(&self, addr: u64) -> Result<Vec<u8>, VfsError> {
        let view = object_view(&self.context, addr)?;
        to_json(&format!("object {addr:#x}"), &view.to_json())
    }

    fn block_starts(&self, block_bits: u32) -> Option<Arc<[u64]>> {
        (block_bits == OBJECT_BLOCK_BITS).then(|| self.context.object_blocks().clone())
    }

    fn address_digits(&self) -> usize {
        if self.context.heap().layout().word.bytes() == 8 {
            16
        } else {
            8
        }
    }
}
