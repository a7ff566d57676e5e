//! Decoder tests on small synthetic heaps (EOP and classical copying layouts), built object
//! by object with the layouts of docs/motoko-heap-layout.md. Real heaps are covered by the
//! fixture tests (tests/vars_fixtures.rs).

use std::sync::Arc;

use crate::heap::render::debug_show;
use crate::heap::types::{label_hash, parse_signature, StableSignature};
use crate::heap::value::{DecodeError, Decoder, LazyValue};
use crate::heap::{Heap, Layout, TagScheme, EOP_NULL};
use crate::image::{ImageError, LimitKind, ReaderLimits, WordSize};
use crate::module::{GcKind, Persistence};
use crate::snapshot::Snapshot;

/// Builds a heap image object by object.
struct Builder {
    mem: Vec<u8>,
    next: u64,
    eop: bool,
    null: u64,
}

impl Builder {
    fn new(eop: bool) -> Builder {
        let mut b = Builder {
            mem: vec![0; 1 << 20],
            next: 0x1000,
            eop,
            null: EOP_NULL,
        };
        if !eop {
            b.null = b.alloc(47, &[]);
        }
        b
    }
    fn w(&self) -> u64 {
        if self.eop {
            8
        } else {
            4
        }
    }
    fn put(&mut self, addr: u64, v: u64) {
        let a = addr as usize;
        if self.eop {
            self.mem[a..a + 8].copy_from_slice(&v.to_le_bytes());
        } else {
            self.mem[a..a + 4].copy_from_slice(&(v as u32).to_le_bytes());
        }
    }
    /// Allocates an object with `tag` and body words; returns the skewed pointer.
    fn alloc(&mut self, tag: u64, body: &[u64]) -> u64 {
        let addr = self.next;
        self.put(addr, tag);
        let mut at = addr + self.w();
        if self.eop {
            self.put(at, addr - 1);
            at += 8;
        }
        for &v in body {
            self.put(at, v);
            at += self.w();
        }
        self.next = at;
        addr - 1
    }
    fn blob(&mut self, tag: u64, bytes: &[u8]) -> u64 {
        let w = self.w() as usize;
        let mut words = vec![bytes.len() as u64];
        for chunk in bytes.chunks(w) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            words.push(u64::from_le_bytes(buf));
        }
        self.alloc(tag, &words)
    }
    fn text(&mut self, s: &str) -> u64 {
        self.blob(27, s.as_bytes())
    }
    fn nat(&self, n: i64) -> u64 {
        if self.eop {
            ((n << 2) | 2) as u64
        } else {
            (n << 1) as u32 as u64
        }
    }
    fn nat8(&self, n: u8) -> u64 {
        if self.eop {
            (u64::from(n) << 56) | (1 << 54)
        } else {
            u64::from(n) << 24
        }
    }
    fn float(&mut self, f: f64) -> u64 {
        let bits = f.to_bits();
        if self.eop {
            self.alloc(15, &[bits])
        } else {
            self.alloc(15, &[bits & 0xFFFF_FFFF, bits >> 32])
        }
    }
    /// A record with `(label, value word)` fields.
    fn object(&mut self, fields: &[(&str, u64)]) -> u64 {
        let mut fs: Vec<(u32, u64)> = fields.iter().map(|(l, v)| (label_hash(l), *v)).collect();
        fs.sort();
        let values: Vec<u64> = fs.iter().map(|f| f.1).collect();
        if self.eop {
            let hashes: Vec<u8> = fs
                .iter()
                .flat_map(|f| u64::from(f.0).to_le_bytes())
                .collect();
            let blob = self.blob(25, &hashes);
            let mut body = vec![blob];
            body.extend(values);
            self.alloc(1, &body)
        } else {
            // Raw, headerless hash array (as in static data).
            let at = self.next;
            for (i, f) in fs.iter().enumerate() {
                self.put(at + 4 * i as u64, u64::from(f.0));
            }
            self.next += 4 * fs.len() as u64;
            let mut body = vec![fs.len() as u64, at - 1];
            body.extend(values);
            self.alloc(1, &body)
        }
    }
    fn heap(self) -> Heap {
        let (persistence, word, header, tags, gc) = if self.eop {
            (
                Persistence::Enhanced,
                WordSize::W64,
                16,
                TagScheme::Eop016,
                GcKind::Incremental,
            )
        } else {
            (
                Persistence::Classical,
                WordSize::W32,
                4,
                TagScheme::Classical,
                GcKind::Copying,
            )
        };
        let mut snapshot = Snapshot::from_parts(None, None, self.mem, None).unwrap();
        snapshot.memory_mut().set_word_size(word);
        let layout = Layout {
            persistence,
            gc,
            word,
            header,
            tags,
            rtti: false,
            heap_base: 0x1000,
            partition_size: 0,
        };
        Heap {
            snapshot,
            module: None,
            quick: crate::heap::walk_quick::QuickSizer::new(&layout),
            layout,
            ranges: Vec::new(),
            limits: ReaderLimits::default(),
            gc_phase: None,
        }
    }
}

const SIG: &str = "// Version: 1.0.0
type Color = {#blue; #maybe : ?Color; #rgb : (Nat8, Nat8, Nat8)};
type List<T> = ?(T, List<T>);
actor {
  stable var big : Int;
  stable var color : Color;
  stable var list : List<Nat>;
  stable var opts : (?Nat, ??Nat, ??Nat, ?Text);
  stable var person : {name : Text; var age : Nat; score : ?Float; tags : [Text]};
  stable var princ : Principal;
  stable var rope : Text
};
";

/// Builds the variables of `SIG` in a heap of the given mode; returns (heap, var words).
fn build(eop: bool) -> (Heap, Vec<(&'static str, u64)>) {
    let mut b = Builder::new(eop);
    // big = -123456789012345678901234567890
    let big = if eop {
        b.alloc(
            35,
            &[2 | (2 << 32), 1, 0, 0x0373_E0EE_4E3F_0AD2, 0x18_EE90_FF6C],
        )
    } else {
        // 28-bit digits.
        let n: u128 = 123456789012345678901234567890;
        let digits: Vec<u64> = (0..4)
            .map(|i| ((n >> (28 * i)) & 0xFFF_FFFF) as u64)
            .collect();
        let mut body = vec![4, 4, 1, 0];
        body.extend(digits);
        b.alloc(35, &body)
    };
    // color = #maybe(?#rgb(255, 128, 0))
    let rgb_t = [b.nat8(255), b.nat8(128), b.nat8(0)];
    let tuple = b.alloc(7, &[3, rgb_t[0], rgb_t[1], rgb_t[2]]);
    let rgb = b.alloc(23, &[u64::from(label_hash("rgb")), tuple]);
    let color = b.alloc(23, &[u64::from(label_hash("maybe")), rgb]);
    // list = ?(2, ?(1, null))
    let mut list = b.null;
    for i in 1..=2 {
        let n = b.nat(i);
        list = b.alloc(7, &[2, n, list]);
    }
    // opts = (null, ?null, ??6, ?"x")
    let some_null = b.alloc(21, &[b.null]);
    let x = b.text("x");
    let six = b.nat(6);
    let opts = b.alloc(7, &[4, b.null, some_null, six, x]);
    // person
    let name = b.text("Ada");
    let age_v = b.nat(36);
    let age = b.alloc(17, &[age_v]);
    let score = b.float(9.5);
    let t1 = b.text("math");
    let t2 = b.text("engines");
    let tags = b.alloc(3, &[2, t1, t2]);
    let person = b.object(&[
        ("name", name),
        ("age", age),
        ("score", score),
        ("tags", tags),
    ]);
    let princ = b.blob(29, &[4]);
    // rope = ("héllo " # "wörld ") # "and more"
    let l = b.text("héllo ");
    let r = b.text("wörld ");
    let lr = b.alloc(37, &[14, l, r]);
    let m = b.text("and more");
    let rope = b.alloc(37, &[22, lr, m]);
    let vars = vec![
        ("big", big),
        ("color", color),
        ("list", list),
        ("opts", opts),
        ("person", person),
        ("princ", princ),
        ("rope", rope),
    ];
    (b.heap(), vars)
}

fn show_all(heap: &Heap, sig: &StableSignature, vars: &[(&str, u64)]) -> Vec<String> {
    let mut d = Decoder::new(heap, &sig.env);
    vars.iter()
        .map(|(name, word)| {
            let ty = sig.var(name).unwrap().ty.clone();
            let v = d
                .deep(&LazyValue {
                    word: *word,
                    ty: Some(ty),
                })
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            format!("{name} = {}", debug_show(&v))
        })
        .collect()
}

#[test]
fn decodes_both_layouts() {
    let sig = parse_signature(SIG).unwrap();
    let want = [
        "big = -123_456_789_012_345_678_901_234_567_890",
        "color = #maybe(?(#rgb(255, 128, 0)))",
        "list = ?(2, ?(1, null))",
        "opts = (null, ?null, ?(?6), ?\"x\")",
        "person = {name = \"Ada\"; age = 36; score = ?9.500000; tags = [\"math\", \"engines\"]}",
        "princ = 2vxsx-fae",
        "rope = \"héllo wörld and more\"",
    ];
    for eop in [true, false] {
        let (heap, vars) = build(eop);
        assert_eq!(show_all(&heap, &sig, &vars), want, "eop = {eop}");
    }
}

#[test]
fn piecemeal_access() {
    let sig = parse_signature(SIG).unwrap();
    for eop in [true, false] {
        let (heap, vars) = build(eop);
        let mut d = Decoder::new(&heap, &sig.env);
        let person = LazyValue {
            word: vars[4].1,
            ty: Some(sig.var("person").unwrap().ty.clone()),
        };
        let tags = d.field(&person, "tags").unwrap();
        assert_eq!(d.len(&tags).unwrap(), 2);
        let t = d.element(&tags, 1).unwrap();
        assert_eq!(debug_show(&d.deep(&t).unwrap()), "\"engines\"");
        let age = d.field(&person, "age").unwrap();
        assert_eq!(debug_show(&d.deep(&age).unwrap()), "36");
        assert!(d.element(&tags, 2).is_err());
        assert!(d.field(&person, "nope").is_err());
        // Untyped decoding of the same record (labels recovered from the signature).
        let mut d = crate::heap::value::signature_decoder(&heap, &sig);
        let untyped = d
            .deep(&LazyValue {
                word: vars[4].1,
                ty: None,
            })
            .unwrap();
        let s = debug_show(&untyped);
        assert!(s.contains("name = \"Ada\""), "{s}");
        assert!(s.contains("score = 9.500000"), "{s}");
    }
}

#[test]
fn type_mismatches_and_limits_are_errors() {
    let sig = parse_signature(SIG).unwrap();
    let (heap, vars) = build(true);
    let mut d = Decoder::new(&heap, &sig.env);
    // The person record decoded as a Color variant.
    let e = d
        .deep(&LazyValue {
            word: vars[4].1,
            ty: Some(sig.var("color").unwrap().ty.clone()),
        })
        .unwrap_err();
    assert!(matches!(e, DecodeError::Mismatch { .. }), "{e}");
    assert!(e.to_string().contains("found Object"), "{e}");
    // A wild pointer.
    let e = d
        .deep(&LazyValue {
            word: 0x7fff_fff1,
            ty: Some(Arc::new(crate::heap::types::parse_type("Text").unwrap())),
        })
        .unwrap_err();
    assert!(e.to_string().contains("0x7ffffff"), "{e}");
    // Depth limit.
    let limits = ReaderLimits {
        max_depth: 2,
        ..ReaderLimits::default()
    };
    let mut d = Decoder::with_limits(&heap, &sig.env, limits);
    let e = d
        .deep(&LazyValue {
            word: vars[2].1,
            ty: Some(sig.var("list").unwrap().ty.clone()),
        })
        .unwrap_err();
    assert!(
        matches!(
            e,
            DecodeError::Image(ImageError::Limit {
                kind: LimitKind::Depth,
                ..
            })
        ),
        "{e}"
    );
}

#[test]
fn long_lists_decode_without_recursion() {
    let sig = parse_signature(SIG).unwrap();
    let mut b = Builder::new(true);
    let mut list = b.null;
    for i in 0..5_000 {
        let n = b.nat(i);
        list = b.alloc(7, &[2, n, list]);
    }
    let heap = b.heap();
    let mut d = Decoder::new(&heap, &sig.env);
    let v = d
        .deep(&LazyValue {
            word: list,
            ty: Some(sig.var("list").unwrap().ty.clone()),
        })
        .unwrap();
    let s = debug_show(&v);
    assert!(s.starts_with("?(4_999, ?(4_998, "), "{}", &s[..40]);
}

#[test]
fn mutated_heaps_never_panic_or_hang() {
    let sig = parse_signature(SIG).unwrap();
    let limits = ReaderLimits {
        max_work: 200_000,
        max_text_bytes: 1 << 16,
        max_depth: 500,
        max_rope_depth: 500,
        ..ReaderLimits::default()
    };
    for eop in [true, false] {
        let (heap, vars) = build(eop);
        let clean = heap.image().as_slice()[..0x3000].to_vec();
        let mut rng = fastrand::Rng::with_seed(if eop { 7 } else { 11 });
        for _ in 0..400 {
            let mut mem = clean.clone();
            mem.resize(1 << 16, 0);
            for _ in 0..rng.usize(1..8) {
                let i = rng.usize(0x1000..0x3000);
                mem[i] = match rng.u8(0..4) {
                    0 => 0xFF,
                    1 => 0,
                    2 => mem[i] ^ (1 << rng.u8(0..8)),
                    _ => rng.u8(..),
                };
            }
            let mut b = Builder::new(eop);
            b.mem = mem;
            let heap = b.heap();
            let mut d = Decoder::with_limits(&heap, &sig.env, limits);
            for (name, word) in &vars {
                let ty = sig.var(name).unwrap().ty.clone();
                if let Ok(v) = d.deep(&LazyValue {
                    word: *word,
                    ty: Some(ty),
                }) {
                    let _ = debug_show(&v);
                    let _ = crate::heap::render::to_json(&v);
                }
                let _ = d.deep(&LazyValue {
                    word: *word,
                    ty: None,
                });
            }
        }
    }
}

#[test]
fn shared_subvalues_cannot_unfold_without_bound() {
    // A 40-deep chain of tuples whose two components are the same object: 2^40 leaves.
    let sig =
        parse_signature("type T = {#leaf; #node : (T, T)};\nactor { stable var t : T }").unwrap();
    let mut b = Builder::new(true);
    let mut t = b.alloc(23, &[u64::from(label_hash("leaf")), 0]);
    for _ in 0..40 {
        let pair = b.alloc(7, &[2, t, t]);
        t = b.alloc(23, &[u64::from(label_hash("node")), pair]);
    }
    let heap = b.heap();
    let mut d = Decoder::new(&heap, &sig.env);
    d.set_max_nodes(100_000);
    let e = d
        .deep(&LazyValue {
            word: t,
            ty: Some(sig.vars[0].ty.clone()),
        })
        .unwrap_err();
    assert!(
        matches!(
            e,
            DecodeError::Image(ImageError::Limit {
                kind: LimitKind::Objects,
                ..
            })
        ),
        "{e}"
    );
}

#[test]
fn cycles_through_var_fields_become_back_references() {
    // A doubly linked pair: a.next = b, b.next = a (through MutBoxes).
    let sig = parse_signature(
        "type Node = {var next : ?Node; value : Nat};\nactor { stable var n : Node }",
    )
    .unwrap();
    for eop in [true, false] {
        let mut b = Builder::new(eop);
        let box_a = b.alloc(17, &[b.null]);
        let one = b.nat(1);
        let a = b.object(&[("next", box_a), ("value", one)]);
        let box_b = b.alloc(17, &[a]);
        let two = b.nat(2);
        let node_b = b.object(&[("next", box_b), ("value", two)]);
        // Close the cycle: a.next := ?b (an option of a record is the record itself).
        let w = b.w();
        b.put(box_a + 1 + if eop { 16 } else { w }, node_b);
        let heap = b.heap();
        let mut d = Decoder::new(&heap, &sig.env);
        let v = d
            .deep(&LazyValue {
                word: a,
                ty: Some(sig.vars[0].ty.clone()),
            })
            .unwrap();
        assert_eq!(
            debug_show(&v),
            format!(
                "{{next = ?{{next = ?<cycle {:#x}>; value = 2}}; value = 1}}",
                a + 1
            ),
            "eop = {eop}"
        );
    }
}
