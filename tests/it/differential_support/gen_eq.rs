//! Programs of `==`/`!=` checks over random nested values, for the differential test of
//! structural equality: pairs of values of one type (records with fields in any order and
//! with fields outside their static type, variants, options, tuples, arrays, `Float` with
//! NaN, `Blob`, `Text`, `Char`, `Int`/`Nat`), compared at that type, at `Any`, and inside
//! arrays and options. Pairs are equal about half the time, else differ in one leaf.

use fastrand::Rng;

/// A type of the equality generator.
#[derive(Clone, Debug)]
enum T {
    Nat,
    Int,
    Float,
    Text,
    Char,
    Blob,
    Bool,
    Opt(Box<T>),
    Array(Box<T>),
    Tuple(Vec<T>),
    Record(Vec<(String, T)>),
    Variant(Vec<(String, Option<T>)>),
}

impl T {
    fn src(&self) -> String {
        match self {
            T::Nat => "Nat".into(),
            T::Int => "Int".into(),
            T::Float => "Float".into(),
            T::Text => "Text".into(),
            T::Char => "Char".into(),
            T::Blob => "Blob".into(),
            T::Bool => "Bool".into(),
            T::Opt(t) => format!("?{}", t.src()),
            T::Array(t) => format!("[{}]", t.src()),
            T::Tuple(ts) => {
                let v: Vec<String> = ts.iter().map(T::src).collect();
                format!("({})", v.join(", "))
            }
            T::Record(fs) => {
                let v: Vec<String> = fs
                    .iter()
                    .map(|(n, t)| format!("{n} : {}", t.src()))
                    .collect();
                format!("{{ {} }}", v.join("; "))
            }
            T::Variant(cs) => {
                let v: Vec<String> = cs
                    .iter()
                    .map(|(n, t)| match t {
                        Some(t) => format!("#{n} : {}", t.src()),
                        None => format!("#{n}"),
                    })
                    .collect();
                format!("{{ {} }}", v.join("; "))
            }
        }
    }
}

/// The equality generator's state for one program.
pub struct EqGen {
    rng: Rng,
}

const FIELDS: &[&str] = &["a", "b", "c", "name", "id", "tag"];
const TAGS: &[&str] = &["ok", "err", "none", "node"];

impl EqGen {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> EqGen {
        EqGen {
            rng: Rng::with_seed(seed),
        }
    }

    /// A program of `checks` comparisons, without imports (each costs moc's interpreter
    /// most of a second): its value is the text of all the answers.
    pub fn program(&mut self, checks: usize) -> Vec<String> {
        let mut out: Vec<String> = (0..checks).map(|i| self.check(i)).collect();
        let all: Vec<String> = (0..checks).map(|i| format!("c{i}")).collect();
        out.push(format!("{};", all.join(" # \"; \" # ")));
        out
    }

    fn ty(&mut self, depth: usize) -> T {
        if depth == 0 || self.rng.u32(0..10) < 4 {
            return match self.rng.u32(0..7) {
                0 => T::Nat,
                1 => T::Int,
                2 => T::Float,
                3 => T::Text,
                4 => T::Char,
                5 => T::Blob,
                _ => T::Bool,
            };
        }
        let d = depth - 1;
        match self.rng.u32(0..5) {
            0 => T::Opt(Box::new(self.ty(d))),
            1 => T::Array(Box::new(self.ty(d))),
            2 => {
                let n = self.rng.usize(2..4);
                T::Tuple((0..n).map(|_| self.ty(d)).collect())
            }
            3 => {
                let n = self.rng.usize(1..4);
                let mut names: Vec<&str> = FIELDS.to_vec();
                self.rng.shuffle(&mut names);
                T::Record(
                    names[..n]
                        .iter()
                        .map(|f| (f.to_string(), self.ty(d)))
                        .collect(),
                )
            }
            _ => {
                let n = self.rng.usize(1..4);
                let mut names: Vec<&str> = TAGS.to_vec();
                self.rng.shuffle(&mut names);
                T::Variant(
                    names[..n]
                        .iter()
                        .map(|c| {
                            let payload = if self.rng.bool() {
                                Some(self.ty(d))
                            } else {
                                None
                            };
                            (c.to_string(), payload)
                        })
                        .collect(),
                )
            }
        }
    }

    fn leaf(&mut self, t: &T) -> String {
        match t {
            T::Nat => self.rng.u32(0..3).to_string(),
            T::Int => ["-1", "0", "+2", "3"][self.rng.usize(0..4)].into(),
            T::Float => ["0.5", "-0.0", "0.0", "(0.0 / 0.0)", "1e10"][self.rng.usize(0..5)].into(),
            T::Text => ["\"\"", "\"a\"", "\"b\"", "\"\\u{e9}\""][self.rng.usize(0..4)].into(),
            T::Char => ["'a'", "'b'", "'\\u{e9}'"][self.rng.usize(0..3)].into(),
            T::Blob => ["\"\"", "\"\\00\"", "\"\\ff\\00\"", "\"ab\""][self.rng.usize(0..4)].into(),
            T::Bool => ["true", "false"][self.rng.usize(0..2)].into(),
            _ => unreachable!("not a leaf"),
        }
    }

    /// Two values of `t`: equal in structure, each leaf the same with high probability;
    /// records written with their fields shuffled and, when `extra`, a field outside `t`.
    fn pair(&mut self, t: &T, extra: bool) -> (String, String) {
        match t {
            T::Opt(u) => match self.rng.u32(0..4) {
                0 => ("null".into(), "null".into()),
                1 => {
                    let (a, _) = self.pair(u, extra);
                    (format!("?{a}"), "null".into())
                }
                _ => {
                    let (a, b) = self.pair(u, extra);
                    (format!("?{a}"), format!("?{b}"))
                }
            },
            T::Array(u) => {
                let n = self.rng.usize(0..3);
                let m = if self.rng.u32(0..6) == 0 {
                    self.rng.usize(0..3)
                } else {
                    n
                };
                let mut xs = Vec::new();
                let mut ys = Vec::new();
                for _ in 0..n.max(m) {
                    let (a, b) = self.pair(u, extra);
                    xs.push(a);
                    ys.push(b);
                }
                xs.truncate(n);
                ys.truncate(m);
                (
                    format!("[{}]", xs.join(", ")),
                    format!("[{}]", ys.join(", ")),
                )
            }
            T::Tuple(us) => {
                let (xs, ys): (Vec<String>, Vec<String>) =
                    us.iter().map(|u| self.pair(u, extra)).unzip();
                (
                    format!("({})", xs.join(", ")),
                    format!("({})", ys.join(", ")),
                )
            }
            T::Record(fs) => {
                let mut xs: Vec<String> = Vec::new();
                let mut ys: Vec<String> = Vec::new();
                for (n, u) in fs {
                    let (a, b) = self.pair(u, extra);
                    xs.push(format!("{n} = {a}"));
                    ys.push(format!("{n} = {b}"));
                }
                if extra && self.rng.bool() {
                    xs.push(format!("hidden = {}", self.rng.u32(0..3)));
                    ys.push(format!("hidden = {}", self.rng.u32(0..3)));
                }
                self.rng.shuffle(&mut xs);
                self.rng.shuffle(&mut ys);
                (
                    format!("{{ {} }}", xs.join("; ")),
                    format!("{{ {} }}", ys.join("; ")),
                )
            }
            T::Variant(cs) => {
                let i = self.rng.usize(0..cs.len());
                let j = if self.rng.u32(0..4) == 0 {
                    self.rng.usize(0..cs.len())
                } else {
                    i
                };
                let one = |g: &mut EqGen, k: usize, v: Option<String>| match (&cs[k].1, v) {
                    (Some(_), Some(v)) => format!("#{} ({v})", cs[k].0),
                    (Some(u), None) => {
                        let (a, _) = g.pair(u, extra);
                        format!("#{} ({a})", cs[k].0)
                    }
                    (None, _) => format!("#{}", cs[k].0),
                };
                let (a, b) = match &cs[i].1 {
                    Some(u) => {
                        let (a, b) = self.pair(u, extra);
                        (Some(a), Some(b))
                    }
                    None => (None, None),
                };
                let x = one(self, i, a);
                let y = if i == j {
                    one(self, j, b)
                } else {
                    one(self, j, None)
                };
                (x, y)
            }
            leaf => {
                let a = self.leaf(leaf);
                let b = if self.rng.u32(0..5) == 0 {
                    self.leaf(leaf)
                } else {
                    a.clone()
                };
                (a, b)
            }
        }
    }

    /// One statement: two declared values of a random type, compared several ways.
    fn check(&mut self, i: usize) -> String {
        let t = self.ty(3);
        let ts = t.src();
        let (a, b) = self.pair(&t, true);
        let (x, y) = (format!("x{i}"), format!("y{i}"));
        let cmp = match self.rng.u32(0..4) {
            0 => format!("({x} == {y}, {x} != {y})"),
            1 => format!("([{x}] == [{y}], ?{x} != ?{y})"),
            2 => format!("(({x} : Any) == ({y} : Any), ({x}, 1) == ({y}, 1))"),
            _ => format!("({y} == {x}, not ({x} != {y}))"),
        };
        format!("let {x} : {ts} = {a}; let {y} : {ts} = {b}; let c{i} = debug_show {cmp};")
    }
}
