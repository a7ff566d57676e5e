//! Which collection a type is, read from its structure (field labels, tags and shapes), so
//! whatever alias the program used (`Map.Map<K, V>`, `Types.Map<K, V>`, a local alias) the
//! same structure is the same collection.

use std::sync::Arc;

use crate::heap::types::{Field, ObjSort, Type, TypeEnv};

/// A collection recognized by its type: the one table every natural view reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CollectionKind {
    /// `mo:core/Map`: a B-tree of `[var ?(K, V)]` nodes.
    Map,
    /// `mo:core/Set`: a B-tree of `[var ?T]` nodes.
    Set,
    /// `mo:core/List`: blocks of `[var ?T]`.
    List,
    /// `mo:core/Queue`: a doubly linked list of `var` nodes, front to back.
    Queue,
    /// `mo:core/Stack`: a pure list, top to bottom.
    Stack,
    /// `mo:core/PriorityQueue`: a binary heap in a `List` (shown in pop order, as
    /// `PriorityQueue.values` gives it, see `pop_order`).
    PriorityQueue,
    /// `mo:core/pure/Map`: a red-black tree of `(K, V)` nodes.
    PureMap,
    /// `mo:core/pure/Set`: a red-black tree of `T` nodes.
    PureSet,
    /// `mo:core/pure/List`, `mo:base/List` and `mo:base/AssocList` (a list of pairs):
    /// `?(T, List<T>)`.
    PureList,
    /// `mo:core/pure/Queue`: `(front, size, back)`, the back list reversed.
    PureQueue,
    /// `mo:core/pure/RealTimeQueue`: `#empty`, `#one`, `#two`, `#three`, `#idles` or
    /// `#rebal` (two stacks rebalanced a few steps per operation), front to back.
    RealTimeQueue,
    /// `mo:base/Trie`: a hash trie of association lists of `(Key<K>, V)`.
    BaseTrie,
    /// `mo:base/RBTree`'s tree: `#node(Color, l, (K, ?V), r)` (a `null` value is removed).
    BaseRBTree,
}

impl CollectionKind {
    /// Whether the collection maps keys to values (its natural view is `[key, value]` pairs).
    pub fn is_map(self) -> bool {
        matches!(
            self,
            CollectionKind::Map
                | CollectionKind::PureMap
                | CollectionKind::BaseTrie
                | CollectionKind::BaseRBTree
        )
    }

    /// The collection's name as the user knows it.
    pub fn name(self) -> &'static str {
        match self {
            CollectionKind::Map => "Map",
            CollectionKind::Set => "Set",
            CollectionKind::List => "List",
            CollectionKind::Queue => "Queue",
            CollectionKind::Stack => "Stack",
            CollectionKind::PriorityQueue => "PriorityQueue",
            CollectionKind::PureMap => "pure/Map",
            CollectionKind::PureSet => "pure/Set",
            CollectionKind::PureList => "pure/List",
            CollectionKind::PureQueue => "pure/Queue",
            CollectionKind::RealTimeQueue => "pure/RealTimeQueue",
            CollectionKind::BaseTrie => "Trie",
            CollectionKind::BaseRBTree => "RBTree",
        }
    }
}

/// The collection `ty` (already normalized) is, if any.
pub fn recognize(env: &TypeEnv, ty: &Type) -> Option<CollectionKind> {
    let r = Recognizer { env };
    match ty {
        Type::Object {
            sort: ObjSort::Object,
            fields,
        } => r.object(fields),
        Type::Opt(_) => r.is_pure_list(ty).then_some(CollectionKind::PureList),
        Type::Tuple(ts) => r.pure_queue(ts),
        Type::Variant(_) => r.variant_tree(ty),
        _ => None,
    }
}

struct Recognizer<'e> {
    env: &'e TypeEnv,
}

/// The field `label` among `fields`.
fn field<'f>(fields: &'f [Field], label: &str) -> Option<&'f Field> {
    fields.iter().find(|f| &*f.label == label)
}

/// Whether `fields` has exactly the labels `labels` (in any order).
fn has_exactly(fields: &[Field], labels: &[&str]) -> bool {
    fields.len() == labels.len() && labels.iter().all(|l| field(fields, l).is_some())
}

/// The payload type of tag `label` of a variant type.
fn tag<'t>(ty: &'t Type, label: &str) -> Option<&'t Arc<Type>> {
    match ty {
        Type::Variant(tags) => tags.iter().find(|t| &*t.label == label).map(|t| &t.ty),
        _ => None,
    }
}

/// The tag labels of a variant type, sorted.
fn tag_labels(ty: &Type) -> Vec<&str> {
    let mut labels: Vec<&str> = match ty {
        Type::Variant(tags) => tags.iter().map(|t| &*t.label).collect(),
        _ => Vec::new(),
    };
    labels.sort_unstable();
    labels
}

impl Recognizer<'_> {
    fn norm(&self, ty: &Arc<Type>) -> Option<Arc<Type>> {
        self.env.normalize(ty).ok()
    }

    /// The fields of the record `ty` normalizes to.
    fn record(&self, ty: &Arc<Type>) -> Option<Arc<[Field]>> {
        match &*self.norm(ty)? {
            Type::Object {
                sort: ObjSort::Object,
                fields,
            } => Some(fields.clone()),
            _ => None,
        }
    }

    fn object(&self, fields: &[Field]) -> Option<CollectionKind> {
        if has_exactly(fields, &["root", "size"]) {
            let root = self.norm(&field(fields, "root")?.ty)?;
            return if field(fields, "root")?.mutable {
                self.btree(&root)
            } else {
                self.rb_tree(&root)
            };
        }
        if has_exactly(fields, &["blockIndex", "blocks", "elementIndex"]) {
            return self.core_list(fields).then_some(CollectionKind::List);
        }
        if has_exactly(fields, &["heap"]) {
            let heap = self.record(&field(fields, "heap")?.ty)?;
            return (has_exactly(&heap, &["blockIndex", "blocks", "elementIndex"])
                && self.core_list(&heap))
            .then_some(CollectionKind::PriorityQueue);
        }
        if has_exactly(fields, &["back", "front", "size"]) {
            let front = self.norm(&field(fields, "front")?.ty)?;
            let Type::Opt(node) = &*front else {
                return None;
            };
            let node = self.record(node)?;
            return has_exactly(&node, &["next", "previous", "value"])
                .then_some(CollectionKind::Queue);
        }
        if has_exactly(fields, &["size", "top"]) {
            let top = self.norm(&field(fields, "top")?.ty)?;
            return self.is_pure_list(&top).then_some(CollectionKind::Stack);
        }
        None
    }

    /// A `mo:core` B-tree root: `{#internal : {data; children}; #leaf : {data}}` whose data
    /// holds `kvs : [var ?(K, V)]` (a Map) or `elements : [var ?T]` (a Set).
    fn btree(&self, root: &Type) -> Option<CollectionKind> {
        if tag_labels(root) != ["internal", "leaf"] {
            return None;
        }
        let leaf = self.record(tag(root, "leaf")?)?;
        let data = self.record(&field(&leaf, "data")?.ty)?;
        if !has_exactly(&data, &["count", "kvs"]) && !has_exactly(&data, &["count", "elements"]) {
            return None;
        }
        let (slots, kind) = match field(&data, "kvs") {
            Some(kvs) => (kvs, CollectionKind::Map),
            None => (field(&data, "elements")?, CollectionKind::Set),
        };
        let Type::Array { elem, .. } = &*self.norm(&slots.ty)? else {
            return None;
        };
        let Type::Opt(payload) = &*self.norm(elem)? else {
            return None;
        };
        match (&*self.norm(payload)?, kind) {
            (Type::Tuple(kv), CollectionKind::Map) if kv.len() == 2 => Some(kind),
            (_, CollectionKind::Set) => Some(kind),
            _ => None,
        }
    }

    /// A `mo:core/pure` red-black tree: `{#red : (t, K, V, t); #black : (t, K, V, t); #leaf}`
    /// (a Map) or with `(t, T, t)` (a Set).
    fn rb_tree(&self, root: &Type) -> Option<CollectionKind> {
        if tag_labels(root) != ["black", "leaf", "red"] {
            return None;
        }
        let node = self.norm(tag(root, "red")?)?;
        let Type::Tuple(parts) = &*node else {
            return None;
        };
        let kind = match parts.len() {
            4 => CollectionKind::PureMap,
            3 => CollectionKind::PureSet,
            _ => return None,
        };
        let (first, last) = (parts.first()?, parts.last()?);
        (*self.norm(first)? == *root && *self.norm(last)? == *root).then_some(kind)
    }

    /// `blocks : [var [var ?T]]` with its two indices.
    fn core_list(&self, fields: &[Field]) -> bool {
        let Some(blocks) = field(fields, "blocks").and_then(|f| self.norm(&f.ty)) else {
            return false;
        };
        let Type::Array { elem, .. } = &*blocks else {
            return false;
        };
        let Some(block) = self.norm(elem) else {
            return false;
        };
        let Type::Array { elem, .. } = &*block else {
            return false;
        };
        self.norm(elem)
            .is_some_and(|slot| matches!(&*slot, Type::Opt(_)))
    }

    /// `?(T, L)` where `L` is this same type again.
    fn is_pure_list(&self, ty: &Type) -> bool {
        let Type::Opt(cell) = ty else {
            return false;
        };
        let Some(cell) = self.norm(cell) else {
            return false;
        };
        match &*cell {
            Type::Tuple(parts) if parts.len() == 2 => {
                self.norm(&parts[1]).is_some_and(|rest| *rest == *ty)
            }
            _ => false,
        }
    }

    /// `(List<T>, Nat, List<T>)`: a `mo:core/pure/Queue`.
    fn pure_queue(&self, parts: &[Arc<Type>]) -> Option<CollectionKind> {
        let [front, size, back] = parts else {
            return None;
        };
        let (front, size, back) = (self.norm(front)?, self.norm(size)?, self.norm(back)?);
        (matches!(&*size, Type::Prim(crate::heap::types::Prim::Nat))
            && self.is_pure_list(&front)
            && *front == *back)
            .then_some(CollectionKind::PureQueue)
    }

    /// `mo:base`'s `RBTree.Tree` or `Trie`, or `mo:core`'s `pure/RealTimeQueue`.
    fn variant_tree(&self, ty: &Type) -> Option<CollectionKind> {
        match tag_labels(ty)[..] {
            ["leaf", "node"] => {
                let node = self.norm(tag(ty, "node")?)?;
                let Type::Tuple(parts) = &*node else {
                    return None;
                };
                let [_, left, kv, right] = &parts[..] else {
                    return None;
                };
                let kv = self.norm(kv)?;
                let Type::Tuple(kv) = &*kv else { return None };
                let is_entry = kv.len() == 2
                    && self
                        .norm(&kv[1])
                        .is_some_and(|v| matches!(&*v, Type::Opt(_)));
                (is_entry && *self.norm(left)? == *ty && *self.norm(right)? == *ty)
                    .then_some(CollectionKind::BaseRBTree)
            }
            ["branch", "empty", "leaf"] => {
                let leaf = self.record(tag(ty, "leaf")?)?;
                let branch = self.record(tag(ty, "branch")?)?;
                let ok = has_exactly(&leaf, &["keyvals", "size"])
                    && has_exactly(&branch, &["left", "right", "size"])
                    && *self.norm(&field(&branch, "left")?.ty)? == *ty;
                ok.then_some(CollectionKind::BaseTrie)
            }
            ["empty", "idles", "one", "rebal", "three", "two"] => {
                let idles = self.norm(tag(ty, "idles")?)?;
                let three = self.norm(tag(ty, "three")?)?;
                let pairs = |t: &Type, n: usize| matches!(t, Type::Tuple(ts) if ts.len() == n);
                (pairs(&idles, 2) && pairs(&three, 3)).then_some(CollectionKind::RealTimeQueue)
            }
            _ => None,
        }
    }
}
