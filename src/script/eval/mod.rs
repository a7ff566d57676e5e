//! The evaluator: runs compiled code over a value stack with slot-addressed frames.

mod adopt;
pub use adopt::adopt_int;
mod assign;
mod coerce;
mod cond;
mod dot;
mod exec;
mod fast;
mod pattern;
pub mod show_at;

use crate::heap::render::FloatStyle;
use crate::script::compile::ir::{Code, Slot};
use crate::script::host::{HostError, HostErrorKind};
use crate::script::limits::Limits;
use crate::script::syntax::Span;
use crate::script::value::{discard, dispose, dup, Closure, Value};
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;
use std::time::Instant;

/// Why an evaluation stopped abnormally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrapKind {
    /// A Motoko trap (overflow, assertion, index out of bounds, explicit trap, ...).
    Trap,
    /// A resource limit ran out.
    Limit,
    /// A host value (`image`, `heap`, `vars`) failed: the kind says whether the script
    /// misused it, a limit was reached, or the snapshot's data is corrupt.
    Host(HostErrorKind),
}

/// A trap: the script stopped with an error message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trap {
    /// Trap or limit.
    pub kind: TrapKind,
    /// What happened.
    pub message: String,
    /// Where in the script, when known.
    pub span: Option<Span>,
    /// A location to print instead of the script's (moc prints `prim:...` for some traps).
    pub location: Option<String>,
}

impl Trap {
    /// Renders the trap the way moc prints it: `file:line.col-line.col: execution error, msg`.
    pub fn render(&self, source_name: &str) -> String {
        let what = match self.kind {
            TrapKind::Trap | TrapKind::Host(_) => "execution error",
            TrapKind::Limit => "limit exceeded",
        };
        match (&self.location, self.span) {
            (Some(l), _) => format!("{l}: {what}, {}", self.message),
            (None, Some(s)) => format!("{source_name}:{s}: {what}, {}", self.message),
            (None, None) => format!("{source_name}: {what}, {}", self.message),
        }
    }
}

impl fmt::Display for Trap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render("script"))
    }
}

/// Non-local control flow and traps.
pub enum Ctrl {
    /// `break` to a label id with a value.
    Break(u32, Value),
    /// `continue` a loop label id.
    Continue(u32),
    /// `return` from the current function.
    Return(Value),
    /// A trap or exhausted limit.
    Trap(Box<Trap>),
}

/// Result of evaluating code.
pub type EResult<T = Value> = Result<T, Ctrl>;

/// A trap without a position (the caller adds the span).
pub fn trap(msg: impl Into<String>) -> Ctrl {
    Ctrl::Trap(Box::new(Trap {
        kind: TrapKind::Trap,
        message: msg.into(),
        span: None,
        location: None,
    }))
}

/// A trap raised inside moc's prelude: `moc run` prints `location` (`prim:LINE.COL-LINE.COL`)
/// instead of the script's position.
pub fn trap_in_prim(location: &str, msg: impl Into<String>) -> Ctrl {
    Ctrl::Trap(Box::new(Trap {
        kind: TrapKind::Trap,
        message: msg.into(),
        span: None,
        location: Some(location.into()),
    }))
}

/// A trap at `span`.
pub fn trap_at(span: Span, msg: impl Into<String>) -> Ctrl {
    Ctrl::Trap(Box::new(Trap {
        kind: TrapKind::Trap,
        message: msg.into(),
        span: Some(span),
        location: None,
    }))
}

/// The trap of a failed host value, its kind kept (the caller adds the span).
pub fn host_trap(e: HostError) -> Ctrl {
    Ctrl::Trap(Box::new(Trap {
        kind: TrapKind::Host(e.kind()),
        message: e.to_string(),
        span: None,
        location: None,
    }))
}

/// [`host_trap`] at `span`.
pub fn host_trap_at(span: Span, e: HostError) -> Ctrl {
    let Ctrl::Trap(mut t) = host_trap(e) else {
        unreachable!("host_trap makes a trap")
    };
    t.span = Some(span);
    Ctrl::Trap(t)
}

fn limit(msg: String) -> Ctrl {
    Ctrl::Trap(Box::new(Trap {
        kind: TrapKind::Limit,
        message: msg,
        span: None,
        location: None,
    }))
}

/// Adds `span` to a trap that has no position yet.
pub fn with_span(c: Ctrl, span: Span) -> Ctrl {
    match c {
        Ctrl::Trap(mut t) if t.span.is_none() => {
            t.span = Some(span);
            Ctrl::Trap(t)
        }
        other => other,
    }
}

const CHECK_EVERY: u64 = 1024;

/// The interpreter state of one session.
pub struct Interp {
    stack: Vec<Value>,
    bp: usize,
    env: Option<Rc<Closure>>,
    /// The session's global variables.
    pub globals: Vec<Value>,
    limits: Limits,
    steps_left: u64,
    chunk_left: u64,
    started: Instant,
    depth: u32,
    allocated: u64,
    stack_base: usize,
    /// What `Debug.print` printed.
    pub output: String,
    /// How `debug_show` prints `Float`s: as moc's interpreter (the default) or, in
    /// snapshot sessions, as a compiled canister does.
    pub floats: FloatStyle,
}

impl Interp {
    /// A fresh interpreter with the given limits.
    pub fn new(limits: Limits) -> Self {
        Interp {
            stack: Vec::with_capacity(1024),
            bp: 0,
            env: None,
            globals: Vec::new(),
            steps_left: limits.max_steps,
            chunk_left: CHECK_EVERY,
            limits,
            started: Instant::now(),
            depth: 0,
            allocated: 0,
            stack_base: 0,
            output: String::new(),
            floats: FloatStyle::Interpreted,
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Replaces the limits (for the next evaluation).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Steps used by the current evaluation so far.
    pub fn steps_used(&self) -> u64 {
        self.limits
            .max_steps
            .saturating_sub(self.steps_left + self.chunk_left)
    }

    /// Lets go of the values the last evaluation left on the operand stack and in its
    /// environment (a session kept between requests holds its globals only).
    pub fn release_transients(&mut self) {
        self.stack.clear();
        self.bp = 0;
        self.env = None;
        self.output.clear();
    }

    /// Resets the per-evaluation budgets and output.
    pub fn reset_budgets(&mut self) {
        self.steps_left = self.limits.max_steps;
        self.chunk_left = CHECK_EVERY.min(self.steps_left);
        self.steps_left -= self.chunk_left;
        self.started = Instant::now();
        self.depth = 0;
        self.allocated = 0;
        self.output.clear();
        self.stack.clear();
        self.bp = 0;
        self.env = None;
    }

    /// Charges one step; checks the step budget and, every 1024 steps, the deadline.
    #[inline]
    pub fn tick(&mut self) -> EResult<()> {
        if self.chunk_left > 0 {
            self.chunk_left -= 1;
            return Ok(());
        }
        self.refill()
    }

    #[cold]
    fn refill(&mut self) -> EResult<()> {
        if self.steps_left == 0 {
            return Err(limit(format!(
                "step budget exhausted ({} steps; raise it with --max-steps)",
                self.limits.max_steps
            )));
        }
        self.check_deadline()?;
        let n = CHECK_EVERY.min(self.steps_left);
        self.steps_left -= n;
        self.chunk_left = n - 1;
        Ok(())
    }

    /// Stops with the deadline's limit error if the evaluation's time is up (for phases
    /// that take no steps: parsing and compiling).
    pub fn check_deadline(&self) -> EResult<()> {
        if self.started.elapsed() > self.limits.deadline {
            return Err(limit(format!(
                "deadline exceeded ({:?}; raise it with --timeout)",
                self.limits.deadline
            )));
        }
        Ok(())
    }

    /// Charges `n` steps at once (built-ins processing many elements).
    pub fn ticks(&mut self, n: u64) -> EResult<()> {
        for _ in 0..n.min(1 << 20) {
            self.tick()?;
        }
        if n > 1 << 20 {
            let rest = n - (1 << 20);
            if rest > self.steps_left {
                self.steps_left = 0;
                self.chunk_left = 0;
                return self.refill();
            }
            self.steps_left -= rest;
        }
        Ok(())
    }

    /// Accounts for `bytes` of newly created values against the memory budget.
    pub fn alloc(&mut self, bytes: u64) -> EResult<()> {
        self.allocated = self.allocated.saturating_add(bytes);
        if self.allocated > self.limits.max_memory {
            return Err(limit(format!(
                "memory budget exhausted ({} bytes; raise it with --max-memory)",
                self.limits.max_memory
            )));
        }
        Ok(())
    }

    /// Checks that a value of `bytes` may be created, before building it.
    pub fn check_size(&mut self, bytes: u64) -> EResult<()> {
        if bytes > self.limits.max_memory {
            return Err(limit(format!(
                "memory budget exhausted (a value of {bytes} bytes; the budget is {} bytes)",
                self.limits.max_memory
            )));
        }
        Ok(())
    }

    /// Charges what a host object did since the last charge: its work against the step
    /// budget and the bytes of the values it decoded against the memory budget.
    pub fn charge_host(&mut self, h: &dyn crate::script::host::HostObject) -> EResult<()> {
        let work = h.take_work();
        if work > 0 {
            self.ticks(work)?;
        }
        let bytes = h.take_bytes();
        if bytes > 0 {
            self.alloc(bytes)?;
        }
        Ok(())
    }

    /// Checks that `debug_show v` fits in what is left of the memory budget, before
    /// rendering it (a value sharing its parts can render to an exponentially long text).
    pub fn check_show(&mut self, v: &Value) -> EResult<()> {
        let room = self.limits.max_memory.saturating_sub(self.allocated);
        match crate::script::value::show::show_size_within(v, room) {
            Some(_) => Ok(()),
            None => Err(limit(format!(
                "memory budget exhausted (debug_show of a value longer than the {room} bytes left of the budget of {} bytes)",
                self.limits.max_memory
            ))),
        }
    }

    /// Checks that the script's value renders (as text or JSON) within the output budget.
    pub fn check_result(&self, v: &Value) -> EResult<()> {
        let cap = self.limits.max_output;
        match crate::script::value::show::show_size_within(v, cap) {
            Some(_) => Ok(()),
            None => Err(limit(format!(
                "output budget exhausted (the script's value renders to more than {cap} bytes; raise it with --max-output)"
            ))),
        }
    }

    /// Appends a line to the output (`Debug.print`).
    pub fn print(&mut self, text: &str) -> EResult<()> {
        if (self.output.len() + text.len() + 1) as u64 > self.limits.max_output {
            return Err(limit(format!(
                "output budget exhausted ({} bytes; raise it with --max-output)",
                self.limits.max_output
            )));
        }
        self.output.push_str(text);
        self.output.push('\n');
        Ok(())
    }

    /// Runs top-level code with a frame of `nslots` and `nglobals` globals.
    pub fn run_main(&mut self, code: &Code, nslots: u32, nglobals: u32) -> EResult {
        if self.globals.len() < nglobals as usize {
            self.globals.resize(nglobals as usize, Value::Unit);
        }
        self.stack.clear();
        self.stack.resize(nslots as usize, Value::Unit);
        self.bp = 0;
        self.env = None;
        let marker = 0u8;
        self.stack_base = std::ptr::addr_of!(marker) as usize;
        let r = self.eval(code);
        self.pop_frame(0);
        match r {
            Err(Ctrl::Break(..)) | Err(Ctrl::Continue(_)) => Err(trap("break outside its label")),
            Err(Ctrl::Return(v)) => Ok(v),
            other => other,
        }
    }

    /// Removes the stack above `base`, dropping deep values without recursion.
    fn pop_frame(&mut self, base: usize) {
        while self.stack.len() > base {
            if let Some(v) = self.stack.pop() {
                dispose(v);
            }
        }
    }

    #[inline(always)]
    fn read(&self, slot: Slot) -> Value {
        match slot {
            Slot::Local(i) => self
                .stack
                .get(self.bp + i as usize)
                .map(dup)
                .unwrap_or_default(),
            Slot::LocalCell(i) => match self.stack.get(self.bp + i as usize) {
                Some(Value::Cell(c)) => dup(&c.borrow()),
                Some(v) => dup(v),
                None => Value::Unit,
            },
            Slot::Env(i) => match self.env.as_ref().and_then(|e| e.env.get(i as usize)) {
                Some(Value::Cell(c)) => dup(&c.borrow()),
                Some(v) => dup(v),
                None => Value::Unit,
            },
            Slot::Global(i) => self.globals.get(i as usize).map(dup).unwrap_or_default(),
        }
    }

    /// The cell of a captured variable in frame slot `i`, itself (an object's `public var`
    /// field shares it).
    fn cell_of(&mut self, i: u32) -> EResult {
        match self.stack.get(self.bp + i as usize) {
            Some(Value::Cell(c)) => Ok(Value::Cell(c.clone())),
            _ => Err(trap("a `public var` field without its variable")),
        }
    }

    /// The storage of a plain (uncaptured) variable, to update it in place.
    #[inline]
    fn slot_mut(&mut self, slot: Slot) -> Option<&mut Value> {
        match slot {
            Slot::Local(i) => self.stack.get_mut(self.bp + i as usize),
            Slot::Global(i) => self.globals.get_mut(i as usize),
            Slot::LocalCell(_) | Slot::Env(_) => None,
        }
    }

    #[inline]
    fn write(&mut self, slot: Slot, v: Value) {
        match slot {
            Slot::Local(i) => {
                if let Some(s) = self.stack.get_mut(self.bp + i as usize) {
                    discard(std::mem::replace(s, v));
                }
            }
            Slot::LocalCell(i) => {
                if let Some(s) = self.stack.get_mut(self.bp + i as usize) {
                    match s {
                        Value::Cell(c) => dispose(std::mem::replace(&mut *c.borrow_mut(), v)),
                        other => *other = Value::Cell(Rc::new(RefCell::new(v))),
                    }
                }
            }
            Slot::Env(i) => {
                if let Some(Value::Cell(c)) = self.env.as_ref().and_then(|e| e.env.get(i as usize))
                {
                    dispose(std::mem::replace(&mut *c.borrow_mut(), v));
                }
            }
            Slot::Global(i) => {
                let i = i as usize;
                if i >= self.globals.len() {
                    self.globals.resize(i + 1, Value::Unit);
                }
                discard(std::mem::replace(&mut self.globals[i], v));
            }
        }
    }

    fn bind_fresh(&mut self, slot: Slot, v: Value) {
        match slot {
            Slot::LocalCell(i) => {
                if let Some(s) = self.stack.get_mut(self.bp + i as usize) {
                    *s = Value::Cell(Rc::new(RefCell::new(v)));
                }
            }
            _ => self.write(slot, v),
        }
    }

    /// Calls a function value with arguments (used by built-ins like `Array.map`).
    pub fn call_value(&mut self, f: &Value, args: &[Value]) -> EResult {
        match f {
            Value::Func(clo) => {
                let base = self.stack.len();
                self.stack.extend_from_slice(args);
                self.enter(clo, base, args.len())
            }
            Value::Builtin(b) => (b.f.f)(self, b.this.as_ref(), args),
            other => Err(trap(format!("cannot call a {}", other.kind_name()))),
        }
    }

    /// Runs a closure whose `nargs` arguments are on the stack from `base`.
    fn enter(&mut self, clo: &Rc<Closure>, base: usize, nargs: usize) -> EResult {
        let proto = &clo.proto;
        if nargs != proto.arity {
            if proto.arity == 1 {
                let t: Vec<Value> = self.stack.drain(base..).collect();
                self.stack.push(if t.is_empty() {
                    Value::Unit
                } else {
                    Value::Tuple(Rc::from(t))
                });
            } else if nargs == 1 {
                match self.stack.pop() {
                    Some(Value::Tuple(t)) if t.len() == proto.arity => {
                        self.stack.extend_from_slice(&t)
                    }
                    Some(Value::Unit) if proto.arity == 0 => {}
                    _ => {
                        self.stack.truncate(base);
                        return Err(trap(format!("wrong number of arguments to {}", proto.name)));
                    }
                }
            } else {
                self.stack.truncate(base);
                return Err(trap(format!(
                    "{} expects {} arguments, got {nargs}",
                    proto.name, proto.arity
                )));
            }
        }
        if let Err(e) = self.check_native_stack() {
            self.stack.truncate(base);
            return Err(e);
        }
        if self.depth >= self.limits.max_call_depth {
            self.stack.truncate(base);
            return Err(limit(format!(
                "call depth budget exhausted ({} nested calls; raise it with --max-depth)",
                self.limits.max_call_depth
            )));
        }
        if let Err(e) = self.tick() {
            self.stack.truncate(base);
            return Err(e);
        }
        self.stack.resize(base + proto.nslots as usize, Value::Unit);
        let saved_bp = self.bp;
        let saved_env = self.env.replace(clo.clone());
        self.bp = base;
        self.depth += 1;
        let mut r = Ok(Value::Unit);
        if let Some(pats) = &proto.params {
            for (i, p) in pats.iter().enumerate() {
                let v = std::mem::take(&mut self.stack[base + i]);
                match self.bind(p, v) {
                    Ok(true) => {}
                    Ok(false) => {
                        r = Err(trap("pattern failed"));
                        break;
                    }
                    Err(e) => {
                        r = Err(e);
                        break;
                    }
                }
            }
        }
        // after the parameters' patterns, which bind captured variables in cells already
        // (wrapping those again made `==` meet a cell)
        for &i in &proto.param_cells {
            let s = &mut self.stack[base + i as usize];
            if !matches!(s, Value::Cell(_)) {
                let v = std::mem::take(s);
                *s = Value::Cell(Rc::new(RefCell::new(v)));
            }
        }
        if r.is_ok() {
            r = self.eval(&proto.body);
        }
        self.depth -= 1;
        self.bp = saved_bp;
        self.env = saved_env;
        self.pop_frame(base);
        match r {
            Err(Ctrl::Return(v)) => match &proto.result {
                Some(h) => self.coerce(v, h),
                None => Ok(v),
            },
            Err(Ctrl::Break(..)) | Err(Ctrl::Continue(_)) => Err(trap("break outside its label")),
            other => other,
        }
    }
}

impl Drop for Interp {
    fn drop(&mut self) {
        self.pop_frame(0);
        for g in std::mem::take(&mut self.globals) {
            dispose(g);
        }
    }
}
