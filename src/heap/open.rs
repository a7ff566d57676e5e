//! [`Heap`]: an opened snapshot with its module facts, layout and heap ranges.

use crate::image::{Budget, Image, ReaderLimits};
use crate::module::{ModuleFacts, Persistence};
use crate::snapshot::Snapshot;

use super::object::{decode, eop_sorted_blob, is_pointer_word, resolve};
use super::walk_quick::QuickSizer;
use super::{
    BlobSort, HeapError, HeapRange, Layout, Object, ObjectError, Root, ScalarCoding, StableVarRoot,
    Walk, EOP_NULL,
};

/// A decoded Motoko heap: the snapshot, the module facts, the layout and its walkable ranges.
#[derive(Debug)]
pub struct Heap {
    pub(crate) snapshot: Snapshot,
    pub(crate) module: Option<ModuleFacts>,
    pub(crate) layout: Layout,
    pub(crate) ranges: Vec<HeapRange>,
    pub(crate) limits: ReaderLimits,
    /// EOP: the GC phase from the metadata; classical incremental: from `State`.
    pub(crate) gc_phase: Option<u32>,
    /// The walk's block-sizing table for `layout`.
    pub(crate) quick: QuickSizer,
}

impl Heap {
    /// Opens the heap of `snapshot`: parses the module, detects and validates the layout.
    /// A classical image needs its module; an EOP image can be read without one (no names).
    pub fn open(snapshot: Snapshot, limits: ReaderLimits) -> Result<Heap, HeapError> {
        let module = match snapshot.module() {
            Some(bytes) => Some(ModuleFacts::parse(bytes)?),
            None => None,
        };
        Heap::open_with_module(snapshot, module, limits)
    }

    /// Opens the heap of `snapshot` with already parsed module facts (the snapshot's own
    /// module bytes are not parsed again).
    pub fn open_with_module(
        mut snapshot: Snapshot,
        module: Option<ModuleFacts>,
        limits: ReaderLimits,
    ) -> Result<Heap, HeapError> {
        let persistence = match &module {
            Some(m) => m.persistence,
            None if super::eop::has_fingerprint(snapshot.memory()) => Persistence::Enhanced,
            None => {
                return Err(HeapError::Missing(
                    "no Wasm module and no EOP metadata in the image: a classical image needs its module (--wasm)".into(),
                ))
            }
        };
        snapshot.memory_mut().set_word_size(persistence.word_size());
        let (layout, ranges, gc_phase) = match persistence {
            Persistence::Enhanced => super::eop::detect(&snapshot, module.as_ref())?,
            Persistence::Classical => {
                let m = module.as_ref().ok_or_else(|| {
                    HeapError::Missing("a classical image needs its module".into())
                })?;
                super::classical::detect(&snapshot, m)?
            }
        };
        Ok(Heap {
            snapshot,
            module,
            quick: QuickSizer::new(&layout),
            layout,
            ranges,
            limits,
            gc_phase,
        })
    }

    /// Gives the snapshot back.
    pub fn into_snapshot(self) -> Snapshot {
        self.snapshot
    }

    /// The snapshot.
    pub fn snapshot(&self) -> &Snapshot {
        &self.snapshot
    }

    /// The main memory image (word size set to the layout's).
    #[inline]
    pub fn image(&self) -> &Image {
        self.snapshot.memory()
    }

    /// The module facts, if a module was given.
    pub fn module(&self) -> Option<&ModuleFacts> {
        self.module.as_ref()
    }

    /// How the canister prints a `Float` in `debug_show` (its RTS's formatting; without a
    /// module, an EOP heap: Rust's).
    pub fn float_style(&self) -> crate::heap::render::FloatStyle {
        self.module.as_ref().map_or(
            crate::heap::render::FloatStyle::Compiled,
            crate::heap::render::FloatStyle::compiled_by,
        )
    }

    /// The layout.
    #[inline]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The walkable ranges, in address order.
    #[inline]
    pub fn ranges(&self) -> &[HeapRange] {
        &self.ranges
    }

    /// The reader limits.
    pub fn limits(&self) -> &ReaderLimits {
        &self.limits
    }

    /// The incremental GC phase (0 Stop, 1 Pause, 2 Mark, 3 Evacuate, 4 Update), if known.
    pub fn gc_phase(&self) -> Option<u32> {
        self.gc_phase
    }

    /// How scalars are encoded.
    pub fn scalars(&self) -> ScalarCoding {
        self.layout.scalars()
    }

    /// Whether `word` is a pointer (LSB set, not `true`, not the EOP null sentinel).
    #[inline]
    pub fn is_pointer(&self, word: u64) -> bool {
        is_pointer_word(word)
    }

    /// The address a pointer word points to (unskewed), or `None` for scalars/null sentinel.
    #[inline]
    pub fn pointer(&self, word: u64) -> Option<u64> {
        is_pointer_word(word).then_some(word.wrapping_add(1))
    }

    /// Whether `word` is Motoko `null` (EOP sentinel, or the classical Null object).
    pub fn is_null(&self, word: u64) -> Result<bool, HeapError> {
        if self.layout.persistence == Persistence::Enhanced {
            return Ok(word == EOP_NULL);
        }
        match self.pointer(word) {
            Some(addr) => Ok(self.object(self.resolve(addr)?)?.tag == super::Tag::Null),
            None => Ok(false),
        }
    }

    /// Follows the forwarding word(s) from `addr` to the current copy of the object.
    pub fn resolve(&self, addr: u64) -> Result<u64, HeapError> {
        Ok(resolve(self.image(), &self.layout, addr)?)
    }

    /// Decodes the object at `addr` as stored there (no forwarding followed).
    pub fn object(&self, addr: u64) -> Result<Object<'_>, HeapError> {
        Ok(decode(self.image(), &self.layout, addr)?)
    }

    /// Decodes the object a pointer word refers to, following forwarding.
    pub fn object_of(&self, word: u64) -> Result<Object<'_>, HeapError> {
        let addr = self.pointer(word).ok_or(ObjectError::NotPointer { word })?;
        self.object(self.resolve(addr)?)
    }

    /// The sort and bytes of the blob (or flat text) at `addr`, read narrowly when the layout
    /// allows it (an EOP heap, the object not forwarded: what [`Heap::object`] would decode
    /// there, in three words read); `None` otherwise (not a blob, or another layout: decode
    /// it with [`Heap::object`], which also says what is wrong).
    #[inline]
    pub fn narrow_blob(&self, addr: u64) -> Option<(BlobSort, &[u8])> {
        eop_sorted_blob(self.image(), &self.layout, addr.wrapping_sub(1))
            .map(|(_, sort, bytes)| (sort, bytes))
    }

    /// Whether `addr` lies inside one of the walkable ranges.
    pub fn in_heap(&self, addr: u64) -> bool {
        self.ranges.iter().any(|r| r.start <= addr && addr < r.end)
    }

    /// A linear walk over every range, with a budget from the limits.
    pub fn walk(&self) -> Walk<'_> {
        Walk::new(self, Budget::new(&self.limits))
    }

    /// A linear walk starting at `addr`, which must be a block boundary found by an earlier
    /// walk (then it yields what that walk yielded from there on); empty if `addr` lies in no
    /// range.
    pub fn walk_from(&self, addr: u64) -> Walk<'_> {
        Walk::starting_at(self, Budget::new(&self.limits), addr)
    }

    /// The GC roots (spec 3.5).
    pub fn roots(&self) -> Result<Vec<Root>, HeapError> {
        super::roots::roots(self)
    }

    /// The stable variables by name, sorted by label hash (spec 3.7).
    pub fn stable_vars(&self) -> Result<Vec<StableVarRoot>, HeapError> {
        super::stable_vars::stable_vars(self)
    }

    /// The current value word of a stable variable (the MutBox content, or the value itself).
    pub fn stable_var_value(&self, var: &StableVarRoot) -> Result<u64, HeapError> {
        super::stable_vars::value_word(self, var)
    }

    /// The `motoko:stable-types` signature, if the module has one.
    pub fn stable_signature(&self) -> Option<&str> {
        self.module.as_ref()?.stable_types.as_deref()
    }

    /// The name of the closure function with table index `funid`.
    pub fn function_name(&self, funid: u64) -> Option<&str> {
        self.module.as_ref()?.function_name(funid)
    }

    /// The lifecycle state word (spec 3.6), if readable.
    pub fn lifecycle(&self) -> Option<u64> {
        let addr = match self.layout.persistence {
            Persistence::Enhanced => 0x40_0000,
            Persistence::Classical => self.module.as_ref()?.stack_top?,
        };
        self.image().read_word(addr).ok()
    }
}
