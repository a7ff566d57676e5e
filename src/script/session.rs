//! Sessions: definitions kept across evaluations (REPL semantics), limits, output.

use super::check::{check_program, env::TypeGlobals, env::Typing, error::TypeError};
use super::compile::ir::Hint;
use super::compile::{compile_program, GlobalVar, Globals};
use super::eval::show_at::debug_show_at;
use super::eval::{Ctrl, Interp, Trap, TrapKind};
use super::host::{HostErrorKind, HostObject};
use super::limits::Limits;
use super::syntax::{parse_program, SyntaxError};
use super::value::{show::debug_show, show::debug_show_as, Value};
use crate::heap::render::FloatStyle;
use std::rc::Rc;

/// Why an evaluation failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    /// The script does not parse, or uses something outside the subset.
    #[error("{source_name}:{error}")]
    Syntax {
        /// The script's name in messages.
        source_name: String,
        /// The error.
        error: SyntaxError,
    },
    /// The script does not type-check (moc rejects it with this error).
    #[error("{source_name}:{error}")]
    Type {
        /// The script's name in messages.
        source_name: String,
        /// The error.
        error: TypeError,
    },
    /// The script trapped or ran out of a limit; `output` is what it printed before.
    #[error("{}", trap.render(source_name))]
    Trap {
        /// The script's name in messages.
        source_name: String,
        /// The trap.
        trap: Trap,
        /// What `Debug.print` printed before the trap.
        output: String,
    },
}

impl ScriptError {
    /// True when a resource limit (not a Motoko trap) stopped the script.
    pub fn is_limit(&self) -> bool {
        matches!(self, ScriptError::Trap { trap, .. } if trap.kind == TrapKind::Limit)
    }

    /// The kind of host failure that stopped the script, if a host value (`image`, `heap`,
    /// `vars`) did.
    pub fn host_kind(&self) -> Option<HostErrorKind> {
        match self {
            ScriptError::Trap {
                trap:
                    Trap {
                        kind: TrapKind::Host(kind),
                        ..
                    },
                ..
            } => Some(*kind),
            _ => None,
        }
    }
}

/// The result of one successful evaluation.
#[derive(Debug)]
pub struct Evaluation {
    /// What `Debug.print` printed (one line per call).
    pub output: String,
    /// The script's value: the value of its last expression or declaration.
    pub value: Value,
    /// Steps the evaluation used.
    pub steps: u64,
    /// `(G, F)` when the script's last expression is exactly the field read `G.F` of a
    /// global (`vars.list`): its JSON may then be the field's own ([`Session::json_of`]).
    pub origin: Option<(String, String)>,
    /// How the session prints `Float`s ([`Session::set_floats`]): a snapshot session as the
    /// snapshot's canister does.
    pub floats: FloatStyle,
    /// The static type the value shows at, as moc prints a script's value (a `Nat` where
    /// the type says `Int` as `+5`); `None` where the value shows as itself.
    pub shown_at: Option<Rc<Hint>>,
    /// The value with each collection the script built (by its static type) as its natural
    /// view, the array of its items (see [`super::natural`]); `None` when it holds none, or
    /// when the session shows collections raw.
    pub natural: Option<Value>,
}

impl Drop for Evaluation {
    fn drop(&mut self) {
        super::value::dispose(std::mem::take(&mut self.value));
        if let Some(v) = self.natural.take() {
            super::value::dispose(v);
        }
    }
}

impl Evaluation {
    /// The printed output, then the value's `debug_show` on its own line unless it is `()`.
    pub fn render(&self) -> String {
        let mut s = self.output.clone();
        if !matches!(self.value, Value::Unit) {
            s.push_str(&self.show());
            s.push('\n');
        }
        s
    }

    /// The value's `debug_show`, at its static type where the checker knows it.
    pub fn show(&self) -> String {
        self.show_as(FloatStyle::Interpreted)
    }

    /// [`Evaluation::show`] with `Float`s in `floats` style.
    pub fn show_as(&self, floats: FloatStyle) -> String {
        match &self.shown_at {
            Some(ty) => debug_show_at(&self.value, ty, floats),
            None => debug_show_as(&self.value, floats),
        }
    }

    /// `{"output": [lines], "show": "<debug_show>", "value": <json>}` (one line).
    pub fn to_json(&self) -> String {
        self.to_json_with(&super::json::to_json)
    }

    /// [`Evaluation::to_json`] with the value's JSON written by `value_json`.
    pub fn to_json_with(&self, value_json: &dyn Fn(&Value) -> String) -> String {
        let output: Vec<&str> = self.output.lines().collect();
        let output = serde_json::to_string(&output).unwrap_or_else(|_| "[]".into());
        format!(
            "{{\"output\":{output},\"show\":{},\"value\":{}}}",
            crate::heap::render::json_string(&self.show()),
            value_json(self.natural.as_ref().unwrap_or(&self.value)),
        )
    }
}

/// A script session: globals and type declarations persist across [`Session::eval`] calls.
pub struct Session {
    globals: Globals,
    /// The static types of the session's globals (see [`crate::script::check`]).
    types: TypeGlobals,
    interp: Interp,
    source_name: String,
    /// Writes a value's JSON (over a snapshot: collections as their natural views).
    json: Option<JsonWriter>,
    /// Whether the JSON shows the collections the script builds as their natural views
    /// (not `--raw`).
    natural: bool,
    /// The host objects bound as globals (told when a request ends).
    hosts: Vec<Rc<dyn HostObject>>,
}

/// How a session writes a value's JSON (see [`Session::set_json`]).
pub type JsonWriter = std::rc::Rc<dyn Fn(&Value) -> String>;

impl Drop for Session {
    fn drop(&mut self) {
        self.types.release();
    }
}

impl Session {
    /// A new session with the given limits.
    pub fn new(limits: Limits) -> Self {
        Session {
            globals: Globals::default(),
            types: TypeGlobals::default(),
            interp: Interp::new(limits),
            source_name: "script".into(),
            json: None,
            natural: true,
            hosts: Vec::new(),
        }
    }

    /// Sets the name used for the script in error messages (`script` by default).
    pub fn set_source_name(&mut self, name: &str) {
        self.source_name = name.to_string();
    }

    /// Changes the limits for the following evaluations.
    pub fn set_limits(&mut self, limits: Limits) {
        self.interp.set_limits(limits);
    }

    /// Makes `debug_show` print `Float`s in `floats` style in this session (snapshot
    /// sessions: as a compiled canister does).
    pub fn set_floats(&mut self, floats: FloatStyle) {
        self.interp.floats = floats;
    }

    /// Whether JSON shows the collections the script builds as their structure (`--raw`)
    /// rather than their natural views (the default).
    pub fn set_raw_collections(&mut self, raw: bool) {
        self.natural = !raw;
    }

    /// Sets how [`Session::json_of`] writes a value's JSON (`None`: [`super::json::to_json`]).
    pub fn set_json(&mut self, f: Option<JsonWriter>) {
        self.json = f;
    }

    /// `{"output": [...], "show": "...", "value": ...}` of an evaluation of this session,
    /// the value's JSON written as [`Session::set_json`] says.
    pub fn json_of(&self, ev: &Evaluation) -> String {
        if self.json.is_some() {
            // Natural views (not `--raw`): the host may know what a `null` field is.
            if let Some(json) = self.null_field_json(ev) {
                return ev.to_json_with(&|_| json.clone());
            }
        }
        match &self.json {
            Some(f) => ev.to_json_with(&**f),
            None => ev.to_json(),
        }
    }

    /// For a script whose value is `null` read as `G.F` from a host global `G`: the JSON
    /// the host gives that field (`vars.list`, an empty `pure/List`, is `[]`).
    fn null_field_json(&self, ev: &Evaluation) -> Option<String> {
        let (g, f) = ev.origin.as_ref()?;
        if !matches!(ev.value, Value::Null) {
            return None;
        }
        let GlobalVar::Slot { idx, .. } = self.globals.names.get(g)? else {
            return None;
        };
        match self.interp.globals.get(*idx as usize)? {
            Value::Host(h) => h.null_field_json(f),
            _ => None,
        }
    }

    /// Binds a host object (`image`, `heap`, `vars`) as a global of this session.
    pub fn define_host(&mut self, name: &str, obj: Rc<dyn HostObject>) {
        self.hosts.push(obj.clone());
        self.define_value(name, Value::Host(obj));
    }

    /// Tells the host objects that a request of this session ended and its answer is
    /// written ([`HostObject::end_request`]): a session kept between requests then holds
    /// what its definitions hold.
    pub fn end_request(&mut self) {
        self.interp.release_transients();
        for host in &self.hosts {
            host.end_request();
        }
    }

    /// Binds any value as an immutable global of this session.
    pub fn define_value(&mut self, name: &str, v: Value) {
        let idx = self.globals.count;
        self.globals.count += 1;
        self.globals.names.insert(
            name.to_string(),
            GlobalVar::Slot {
                idx,
                mutable: false,
                hint: None,
                ty: None,
            },
        );
        let i = idx as usize;
        if self.interp.globals.len() <= i {
            self.interp.globals.resize(i + 1, Value::Unit);
        }
        self.interp.globals[i] = v;
    }

    /// The names defined so far (for completion and listings).
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.globals.names.keys().cloned().collect();
        v.sort();
        v
    }

    /// Checks that `src` parses and is inside the subset, without running it.
    pub fn check(&self, src: &str) -> Result<(), ScriptError> {
        self.check_source_size(src)?;
        let prog = parse_program(src).map_err(|e| self.syntax(e))?;
        let mut types = self.types.clone();
        let typing = self.type_check(&prog, &mut types, src.len())?;
        let mut g = self.globals.clone();
        let r = compile_program(&prog, &mut g, &typing).map_err(|e| self.syntax(e));
        self.release_new_types(&mut types);
        r.map(|_| ())
    }

    /// Frees the type declarations `types` has beyond the session's (a check that is not
    /// kept).
    fn release_new_types(&self, types: &mut TypeGlobals) {
        let keep = self.types.declared.len().min(types.declared.len());
        for c in types.declared.drain(keep..) {
            c.release();
        }
    }

    /// Type-checks a parsed program against the session's globals (`types` is extended).
    fn type_check(
        &self,
        prog: &crate::script::syntax::ast::Program,
        types: &mut TypeGlobals,
        len: usize,
    ) -> Result<Typing, ScriptError> {
        let names = &self.globals.names;
        check_program(prog, types, &|n| names.contains_key(n), len).map_err(|error| {
            ScriptError::Type {
                source_name: self.source_name.clone(),
                error,
            }
        })
    }

    fn check_source_size(&self, src: &str) -> Result<(), ScriptError> {
        let max = self.interp.limits().max_source;
        if src.len() > max {
            return Err(self.limit(format!(
                "the script has {} bytes, more than the limit of {max} bytes",
                src.len()
            )));
        }
        Ok(())
    }

    fn limit(&self, message: String) -> ScriptError {
        ScriptError::Trap {
            source_name: self.source_name.clone(),
            trap: Trap {
                kind: TrapKind::Limit,
                message,
                span: None,
                location: None,
            },
            output: String::new(),
        }
    }

    fn syntax(&self, error: SyntaxError) -> ScriptError {
        ScriptError::Syntax {
            source_name: self.source_name.clone(),
            error,
        }
    }

    /// Parses, compiles and runs `src`; its top-level definitions stay in the session.
    ///
    /// Every phase runs under the session's limits: the script's size is checked first,
    /// parsing and compiling (linear in that size) count against the deadline, then the
    /// run is metered by steps, memory, output and depth, and the value's rendering by the
    /// output budget.
    pub fn eval(&mut self, src: &str) -> Result<Evaluation, ScriptError> {
        self.interp.reset_budgets();
        self.check_source_size(src)?;
        let prog = parse_program(src).map_err(|e| self.syntax(e))?;
        let mut types = self.types.clone();
        let typing = self.type_check(&prog, &mut types, src.len())?;
        let view = match &typing.result {
            Some(t) if self.natural => super::natural::view_of(t),
            _ => None,
        };
        let mut g = self.globals.clone();
        let compiled = match compile_program(&prog, &mut g, &typing) {
            Ok(c) => c,
            Err(e) => {
                self.release_new_types(&mut types);
                return Err(self.syntax(e));
            }
        };
        if let Err(Ctrl::Trap(t)) = self.interp.check_deadline() {
            self.release_new_types(&mut types);
            return Err(ScriptError::Trap {
                source_name: self.source_name.clone(),
                trap: *t,
                output: String::new(),
            });
        }
        self.globals = g;
        self.types = types;
        let r = self
            .interp
            .run_main(&compiled.main, compiled.nslots, compiled.globals)
            .and_then(|v| match self.interp.check_result(&v) {
                Ok(()) => Ok(v),
                Err(e) => {
                    super::value::dispose(v);
                    Err(e)
                }
            });
        // the collections the script built, as their natural views (under the same
        // budgets; the value as it is if they run out)
        let natural = match (&r, &view) {
            (Ok(value), Some(view)) => {
                super::natural::natural_value(&mut self.interp, value, view).ok()
            }
            _ => None,
        };
        let output = std::mem::take(&mut self.interp.output);
        let steps = self.interp.steps_used();
        match r {
            Ok(value) => Ok(Evaluation {
                output,
                value,
                steps,
                origin: field_origin(&prog),
                floats: self.interp.floats,
                shown_at: compiled.result.clone(),
                natural,
            }),
            Err(Ctrl::Trap(t)) => Err(ScriptError::Trap {
                source_name: self.source_name.clone(),
                trap: *t,
                output,
            }),
            Err(_) => Err(ScriptError::Trap {
                source_name: self.source_name.clone(),
                trap: Trap {
                    kind: TrapKind::Trap,
                    message: "control flow escaped the script".into(),
                    span: None,
                    location: None,
                },
                output,
            }),
        }
    }
}

/// Runs `src` in a fresh session and renders the result the way moc's interpreter
/// (`moc -r`, the npm package's `mo.run`) prints it: the output, then `() : ()` for a
/// unit result (or `value : Type` for a primitive value), or the trap line.
pub fn moc_compat(src: &str, source_name: &str, limits: Limits) -> String {
    let mut s = Session::new(limits);
    s.set_source_name(source_name);
    match s.eval(src) {
        Ok(ev) => {
            let mut out = ev.output.clone();
            // a program ending in `var` has the value `()` in moc (a session shows the
            // variable, as a REPL does)
            let ends_in_var = parse_program(src).is_ok_and(|p| {
                matches!(
                    p.decs.last(),
                    Some(crate::script::syntax::ast::Dec::Var(..))
                )
            });
            let value = if ends_in_var { &Value::Unit } else { &ev.value };
            let ty = prim_type(value);
            out.push_str(&format!("{} : {}\n", debug_show(value), ty));
            out
        }
        Err(ScriptError::Trap {
            source_name,
            trap,
            output,
        }) => format!("{output}{}\n", trap.render(&source_name)),
        Err(e) => format!("{e}\n"),
    }
}

fn prim_type(v: &Value) -> &'static str {
    match v {
        Value::Unit => "()",
        Value::Null => "Null",
        Value::Text(_) => "Text",
        Value::Char(_) => "Char",
        Value::Float(_) => "Float",
        Value::Blob(_) => "Blob",
        Value::Principal(_) => "Principal",
        other => other.kind_name(),
    }
}

/// How a script asks for its result to be shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputMode {
    /// Output lines, then the value's `debug_show`.
    Text,
    /// One JSON object (see [`Evaluation::to_json`]).
    Json,
}

/// The output mode a script asks for: a first line `// @json` selects JSON (for scripts
/// written to the mount's `eval` file, which has no flags).
pub fn output_mode(src: &str) -> OutputMode {
    match src.lines().next().map(str::trim) {
        Some("// @json") | Some("//@json") => OutputMode::Json,
        _ => OutputMode::Text,
    }
}

/// `(G, F)` when the last declaration of `prog` is the expression `G.F` (a field of a
/// global variable, possibly with a type annotation).
fn field_origin(prog: &crate::script::syntax::ast::Program) -> Option<(String, String)> {
    use crate::script::syntax::ast::{Dec, ExprKind};
    let Some(Dec::Exp(e)) = prog.decs.last() else {
        return None;
    };
    let mut e = e;
    while let ExprKind::Annot(inner, _) = &e.kind {
        e = inner;
    }
    let ExprKind::Dot(recv, field) = &e.kind else {
        return None;
    };
    let ExprKind::Var(g) = &recv.kind else {
        return None;
    };
    Some((g.clone(), field.clone()))
}
