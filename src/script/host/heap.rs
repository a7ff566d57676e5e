//! The host value `heap`: layout facts, the objects (all, by address, by tag), per-tag
//! statistics, and the object behind any value taken from `vars`.
//!
//! Objects are shown as records `ObjectInfo = {address : Nat; tag : Text; size : Nat;
//! references : [Nat]; forwardedTo : ?Nat}`: the header address, the tag name as in
//! `stats.json` (`"Object"`, `"Array M"`, `"Blob T"`, ...), the size in bytes, the
//! addresses of the objects its pointer fields refer to (forwarding followed), and for a
//! stale copy left by evacuation the address of the live copy.

use super::args::{arg_text, arg_u64, check_arity};
use super::context::SnapshotContext;
use super::vars::VarsHost;
use super::{value_bytes, HostError, HostObject};
use crate::analysis::doctor::DoctorReport;
use crate::analysis::dominators::Dominator;
use crate::analysis::stats::heap_stats;
use crate::analysis::HeapAnalysis;
use crate::heap::{BlockKind, Heap, Object};
use crate::module::Persistence;
use crate::script::eval::{Ctrl, Interp};
use crate::script::value::{NativeIter, Value};
use std::cell::{Cell, RefCell};
use std::collections::{HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

/// The `heap` host object of one session.
pub struct HeapHost {
    ctx: Arc<SnapshotContext>,
    vars: Rc<VarsHost>,
    /// Objects and blocks visited by calls, charged as steps ([`HostObject::take_work`]).
    work: Cell<u64>,
    /// Bytes of the values calls returned, charged as memory ([`HostObject::take_bytes`]).
    bytes: Cell<u64>,
    /// Whether this session has paid for the heap analysis (see [`HeapHost::analysis`]).
    analysis_charged: Cell<bool>,
}

impl HeapHost {
    /// `heap` over `ctx`; `vars` is the session's `vars` (for `objectOf` and `varObject`).
    pub fn new(ctx: Arc<SnapshotContext>, vars: Rc<VarsHost>) -> HeapHost {
        HeapHost {
            ctx,
            vars,
            work: Cell::new(0),
            bytes: Cell::new(0),
            analysis_charged: Cell::new(false),
        }
    }

    fn charge(&self, n: u64) {
        self.work.set(self.work.get().saturating_add(n));
    }
}

/// The record describing the object at `addr` (as stored there, no forwarding followed).
pub fn object_info(heap: &Heap, obj: &Object<'_>) -> Value {
    let references: Vec<Value> = obj
        .references()
        .filter_map(|w| heap.pointer(w))
        .map(|a| Value::Nat(heap.resolve(a).unwrap_or(a)))
        .collect();
    let fwd = match obj.forwarded_to() {
        Some(a) => Value::some(Value::Nat(a)),
        None => Value::Null,
    };
    Value::record(vec![
        (Rc::from("address"), false, Value::Nat(obj.addr)),
        (Rc::from("tag"), false, Value::text(obj.tag.name())),
        (Rc::from("size"), false, Value::Nat(obj.size)),
        (
            Rc::from("references"),
            false,
            Value::Array(references.into()),
        ),
        (Rc::from("forwardedTo"), false, fwd),
    ])
}

/// Whether `name` selects `tag`: its full name (`"Blob T"`) or its first word (`"Blob"`).
fn tag_matches(tag: &str, name: &str) -> bool {
    tag == name || tag.split(' ').next() == Some(name)
}

/// The live object at `addr` (forwarding followed), an address read from the heap: when it
/// holds no object, the heap is corrupt (or over a reader limit).
fn live(heap: &Heap, addr: u64) -> Result<Object<'_>, HostError> {
    let context = || format!("heap: no object at {addr:#x}: ");
    let a = heap
        .resolve(addr)
        .map_err(|e| HostError::data(context(), e))?;
    heap.object(a).map_err(|e| HostError::data(context(), e))
}

/// Every object reachable from `start` (included), forwarding followed: (count, bytes).
fn reachable(heap: &Heap, start: u64, stop_at: Option<u64>) -> Result<(u64, u64, bool), HostError> {
    let max = heap.limits().max_objects;
    let mut seen: HashSet<u64> = HashSet::new();
    let mut queue: VecDeque<u64> = VecDeque::new();
    let (mut count, mut bytes) = (0u64, 0u64);
    if let Ok(a) = heap.resolve(start) {
        seen.insert(a);
        queue.push_back(a);
    }
    while let Some(addr) = queue.pop_front() {
        if Some(addr) == stop_at {
            return Ok((count, bytes, true));
        }
        let Ok(obj) = heap.object(addr) else {
            continue;
        };
        count += 1;
        bytes = bytes.saturating_add(obj.size);
        if count > max {
            return Err(HostError::Limit(format!(
                "heap: more than {max} reachable objects (the reader's object limit)"
            )));
        }
        for w in obj.references() {
            let Some(a) = heap.pointer(w) else { continue };
            let Ok(a) = heap.resolve(a) else { continue };
            if seen.insert(a) {
                queue.push_back(a);
            }
        }
    }
    Ok((count, bytes, false))
}

fn nat_list(xs: impl IntoIterator<Item = u64>) -> Value {
    Value::Array(xs.into_iter().map(Value::Nat).collect())
}

impl HostObject for HeapHost {
    fn describe(&self) -> String {
        "heap".into()
    }

    fn field(&self, name: &str) -> Result<Option<Value>, HostError> {
        let heap = self.ctx.heap();
        let layout = heap.layout();
        Ok(Some(match name {
            "persistence" => Value::text(match layout.persistence {
                Persistence::Enhanced => "enhanced",
                Persistence::Classical => "classical",
            }),
            "gc" => Value::text(layout.gc.name()),
            "wordSize" => Value::Nat(layout.word.bytes()),
            "headerSize" => Value::Nat(layout.header),
            "heapBase" => Value::Nat(layout.heap_base),
            "partitionSize" => Value::Nat(layout.partition_size),
            "imageSize" => Value::Nat(heap.image().len()),
            "ranges" => Value::Array(
                heap.ranges()
                    .iter()
                    .map(|r| Value::Tuple(Rc::from([Value::Nat(r.start), Value::Nat(r.end)])))
                    .collect(),
            ),
            "varNames" => Value::Array(self.vars.names()?.iter().map(|n| Value::text(n)).collect()),
            _ => return Ok(None),
        }))
    }

    fn call(&self, name: &str, args: &[Value]) -> Result<Option<Value>, HostError> {
        let heap = self.ctx.heap();
        let v = match name {
            "objects" => {
                check_arity(name, args, 0)?;
                objects_iter(self.ctx.clone(), None)
            }
            "objectsWithTag" => {
                check_arity(name, args, 1)?;
                objects_iter(self.ctx.clone(), Some(arg_text(name, args, 0)?.to_string()))
            }
            "object" => {
                check_arity(name, args, 1)?;
                match live(heap, arg_u64(name, args, 0)?) {
                    Ok(obj) => Value::some(object_info(heap, &obj)),
                    Err(_) => Value::Null,
                }
            }
            "objectOf" => {
                check_arity(name, args, 1)?;
                match self.vars.book.address_of(&args[0]) {
                    Some(addr) => Value::some(object_info(heap, &live(heap, addr)?)),
                    None => Value::Null,
                }
            }
            "varObject" => {
                check_arity(name, args, 1)?;
                let var = arg_text(name, args, 0)?;
                let word = self.vars.word(var)?.ok_or_else(|| {
                    HostError::Misuse(format!("heap.varObject: no stable variable `{var}`"))
                })?;
                match heap.pointer(word) {
                    Some(addr) => Value::some(object_info(heap, &live(heap, addr)?)),
                    None => Value::Null,
                }
            }
            "reachable" => {
                check_arity(name, args, 1)?;
                let (count, bytes, _) = reachable(heap, arg_u64(name, args, 0)?, None)?;
                self.charge(count);
                count_record(count, bytes)
            }
            "referrers" => {
                check_arity(name, args, 1)?;
                self.referrers(arg_u64(name, args, 0)?)
            }
            "varsReaching" => {
                check_arity(name, args, 1)?;
                self.vars_reaching(arg_u64(name, args, 0)?)?
            }
            "stats" => {
                check_arity(name, args, 0)?;
                self.stats()
            }
            "typeOf" => {
                check_arity(name, args, 1)?;
                self.type_of(name, arg_u64(name, args, 0)?)?
            }
            _ => match self.analysis_call(name, args)? {
                Some(v) => v,
                None => return Ok(None),
            },
        };
        self.bytes
            .set(self.bytes.get().saturating_add(value_bytes(&v)));
        Ok(Some(v))
    }

    fn take_work(&self) -> u64 {
        self.work.replace(0)
    }

    fn take_bytes(&self) -> u64 {
        self.bytes.replace(0)
    }

    fn field_names(&self) -> Vec<String> {
        [
            "persistence",
            "gc",
            "wordSize",
            "headerSize",
            "heapBase",
            "partitionSize",
            "imageSize",
            "ranges",
            "varNames",
            "objects",
            "objectsWithTag",
            "object",
            "objectOf",
            "varObject",
            "reachable",
            "referrers",
            "varsReaching",
            "stats",
            "retained",
            "dominator",
            "path",
            "garbage",
            "typeOf",
            "doctor",
        ]
        .map(String::from)
        .to_vec()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The queries of `heap` that walk it: who refers to an object, which variables reach it,
/// the counts by tag, an object's type.
impl HeapHost {
    /// `heap.referrers(a)`: the live objects holding a pointer to the object at `a`.
    fn referrers(&self, target: u64) -> Value {
        let heap = self.ctx.heap();
        let target = heap.resolve(target).unwrap_or(target);
        let mut out = Vec::new();
        for b in heap.walk().flatten() {
            self.charge(1);
            let BlockKind::Object(tag) = b.kind else {
                continue;
            };
            if !tag.is_object() || b.forwarded_to.is_some() {
                continue;
            }
            let Ok(obj) = heap.object(b.addr) else {
                continue;
            };
            if obj.references().any(|w| {
                heap.pointer(w)
                    .is_some_and(|a| heap.resolve(a).unwrap_or(a) == target)
            }) {
                out.push(b.addr);
            }
        }
        nat_list(out)
    }

    /// `heap.varsReaching(a)`: the stable variables from which the object at `a` is reachable.
    fn vars_reaching(&self, target: u64) -> Result<Value, HostError> {
        let heap = self.ctx.heap();
        let target = heap.resolve(target).unwrap_or(target);
        let mut out = Vec::new();
        for var in self.vars.variables()? {
            let Some(start) = heap.pointer(var.value.word) else {
                continue;
            };
            let (count, _, found) = reachable(heap, start, Some(target))?;
            self.charge(count);
            if found {
                out.push(Value::text(&var.name));
            }
        }
        Ok(Value::Array(out.into()))
    }

    /// `heap.stats()`: objects and bytes by tag.
    fn stats(&self) -> Value {
        let stats = heap_stats(self.ctx.heap());
        self.charge(stats.objects.objects + stats.free.objects);
        Value::Array(
            stats
                .by_tag
                .iter()
                .map(|(tag, c)| {
                    Value::record(vec![
                        (Rc::from("tag"), false, Value::text(tag)),
                        (Rc::from("objects"), false, Value::Nat(c.objects)),
                        (Rc::from("bytes"), false, Value::Nat(c.bytes)),
                    ])
                })
                .collect(),
        )
    }

    /// `heap.typeOf(a)` (called as `name`): the type of the object at `a`, if it is one.
    fn type_of(&self, name: &str, addr: u64) -> Result<Value, HostError> {
        let a = self.analysis(name)?;
        let heap = self.ctx.heap();
        let addr = heap.resolve(addr).unwrap_or(addr);
        Ok(match a.graph().node_at(addr) {
            Some(n) => Value::some(Value::text(&a.type_of(&self.ctx, n))),
            None => match heap.object(addr) {
                Ok(o) if o.tag.is_object() => Value::some(Value::text(o.tag.name())),
                _ => Value::Null,
            },
        })
    }
}

// What holds the memory: `heap.retained`, `heap.dominator`, `heap.path`, `heap.garbage`,
// over the heap analysis cached with the opened snapshot.

/// `{objects : Nat; bytes : Nat}`.
fn count_record(objects: u64, bytes: u64) -> Value {
    Value::record(vec![
        (Rc::from("objects"), false, Value::Nat(objects)),
        (Rc::from("bytes"), false, Value::Nat(bytes)),
    ])
}

impl HeapHost {
    /// The heap analysis (computed on its first use by any reader of the snapshot). Each
    /// session pays for it once, one step per object of the heap graph, whether or not
    /// another reader computed it already, so a script's step count does not depend on
    /// what ran before it.
    fn analysis(&self, name: &str) -> Result<Arc<HeapAnalysis>, HostError> {
        let a = self
            .ctx
            .analysis()
            .map_err(|e| HostError::Limit(format!("heap.{name}: cannot analyse the heap: {e}")))?;
        if !self.analysis_charged.replace(true) {
            self.charge(a.graph().nodes() as u64);
        }
        Ok(a)
    }

    /// The graph node of the object at argument 0 (forwarding followed).
    fn node_arg(&self, a: &HeapAnalysis, name: &str, args: &[Value]) -> Result<u32, HostError> {
        check_arity(name, args, 1)?;
        let addr = arg_u64(name, args, 0)?;
        let heap = self.ctx.heap();
        let resolved = heap.resolve(addr).unwrap_or(addr);
        a.graph().node_at(resolved).ok_or_else(|| {
            HostError::Misuse(format!(
                "heap.{name}: {addr:#x} is not the start of a heap object"
            ))
        })
    }

    /// `heap.retained`, `heap.dominator`, `heap.path` and `heap.garbage`, or `None` for
    /// another name.
    fn analysis_call(&self, name: &str, args: &[Value]) -> Result<Option<Value>, HostError> {
        Ok(Some(match name {
            "retained" => {
                let a = self.analysis(name)?;
                let r = a.dominators().retained(self.node_arg(&a, name, args)?);
                count_record(r.objects, r.bytes)
            }
            "dominator" => {
                let a = self.analysis(name)?;
                match a.dominators().idom(self.node_arg(&a, name, args)?) {
                    Some(Dominator::Node(d)) => Value::some(Value::Nat(a.graph().address(d))),
                    _ => Value::Null,
                }
            }
            "path" => {
                let a = self.analysis(name)?;
                let node = self.node_arg(&a, name, args)?;
                match a.path(&self.ctx, node) {
                    Some(path) => {
                        self.charge(path.steps.len() as u64 + 1);
                        Value::some(Value::text(&path.text()))
                    }
                    None => Value::Null,
                }
            }
            "garbage" => {
                check_arity(name, args, 0)?;
                let g = self.analysis(name)?.garbage();
                count_record(g.objects, g.bytes)
            }
            "doctor" => {
                check_arity(name, args, 0)?;
                let a = self.analysis(name)?;
                let report = DoctorReport::new(&self.ctx, &a);
                let rows: Vec<Value> = report.findings.iter().map(doctor_record).collect();
                // The doctor's pass decodes every node once.
                self.charge(a.graph().nodes() as u64 + rows.len() as u64);
                Value::Array(Rc::from(rows))
            }
            _ => return Ok(None),
        }))
    }
}

/// One doctor finding as `{check; objects; bytes; saving; where : [Text]; detail; advice;
/// variables; table}`: `variables` the boxes per stable variable (`boxed-numbers`), `table`
/// where main memory goes (`heap-growth`), empty for the other checks.
fn doctor_record(f: &crate::analysis::doctor::Finding) -> Value {
    let nat = |n: u64| Value::Nat(n);
    let opt = |v: Option<Value>| v.map_or(Value::Null, Value::some);
    let paths: Vec<Value> = f.where_.iter().map(|p| Value::text(p)).collect();
    let variables: Vec<Value> = f
        .boxed
        .iter()
        .map(|r| {
            let types: Vec<Value> = r
                .types
                .iter()
                .map(|t| {
                    Value::record(vec![
                        (Rc::from("name"), false, Value::text(&t.name)),
                        (Rc::from("objects"), false, nat(t.objects)),
                        (Rc::from("bytes"), false, nat(t.bytes)),
                    ])
                })
                .collect();
            Value::record(vec![
                (
                    Rc::from("variable"),
                    false,
                    opt(r.variable.as_deref().map(Value::text)),
                ),
                (Rc::from("objects"), false, nat(r.objects)),
                (Rc::from("bytes"), false, nat(r.bytes)),
                (Rc::from("retained"), false, opt(r.retained_bytes.map(nat))),
                (Rc::from("types"), false, Value::Array(Rc::from(types))),
            ])
        })
        .collect();
    let table: Vec<Value> = f
        .table
        .iter()
        .map(|row| {
            Value::record(vec![
                (Rc::from("part"), false, Value::text(&row.part)),
                (Rc::from("objects"), false, opt(row.objects.map(nat))),
                (Rc::from("bytes"), false, nat(row.bytes)),
            ])
        })
        .collect();
    Value::record(vec![
        (Rc::from("check"), false, Value::text(f.check)),
        (Rc::from("objects"), false, nat(f.objects)),
        (Rc::from("bytes"), false, nat(f.bytes)),
        (Rc::from("saving"), false, nat(f.saving_bytes)),
        (Rc::from("where"), false, Value::Array(Rc::from(paths))),
        (Rc::from("detail"), false, Value::text(&f.detail)),
        (Rc::from("advice"), false, Value::text(&f.advice)),
        (
            Rc::from("variables"),
            false,
            Value::Array(Rc::from(variables)),
        ),
        (Rc::from("table"), false, Value::Array(Rc::from(table))),
    ])
}

/// How many blocks `heap.objects()` walks at a time.
const BATCH: usize = 1024;

/// `heap.objects()`: a lazy iterator over every object block in address order (blocks
/// the walk cannot parse are skipped; `heap.stats()` reports them).
struct ObjectsIter {
    ctx: Arc<SnapshotContext>,
    tag: Option<String>,
    buf: VecDeque<Value>,
    /// The block boundary the next batch walks from, `None` once done.
    resume: Option<u64>,
}

fn objects_iter(ctx: Arc<SnapshotContext>, tag: Option<String>) -> Value {
    let resume = ctx.heap().ranges().first().map(|r| r.start);
    Value::Iter(Rc::new(RefCell::new(ObjectsIter {
        ctx,
        tag,
        buf: VecDeque::new(),
        resume,
    })))
}

impl ObjectsIter {
    /// Walks the next batch of blocks into `buf`; returns how many blocks it walked.
    fn refill(&mut self) -> u64 {
        let Some(from) = self.resume.take() else {
            return 0;
        };
        let heap = self.ctx.heap();
        let mut walked = 0u64;
        for item in heap.walk_from(from) {
            let Ok(block) = item else { continue };
            // resume only at a block a walk can start at (not a slack word)
            if walked as usize >= BATCH && block.kind != BlockKind::Slack {
                self.resume = Some(block.addr);
                break;
            }
            walked += 1;
            let BlockKind::Object(tag) = block.kind else {
                continue;
            };
            if !tag.is_object() {
                continue;
            }
            if let Some(want) = &self.tag {
                if !tag_matches(tag.name(), want) {
                    continue;
                }
            }
            if let Ok(obj) = heap.object(block.addr) {
                self.buf.push_back(object_info(heap, &obj));
            }
        }
        walked
    }
}

impl NativeIter for ObjectsIter {
    fn next(&mut self, it: &mut Interp) -> Result<Option<Value>, Ctrl> {
        loop {
            if let Some(v) = self.buf.pop_front() {
                it.tick()?;
                it.alloc(value_bytes(&v))?;
                return Ok(Some(v));
            }
            if self.resume.is_none() {
                return Ok(None);
            }
            let walked = self.refill();
            it.ticks(walked)?;
        }
    }
}
