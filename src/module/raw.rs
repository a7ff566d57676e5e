//! The raw pieces of a moc module, read once with wasmparser (every count bounded): the
//! functions' bodies and names, globals, the table, and the custom sections the facts are
//! derived from (`parse`).

use std::collections::HashMap;

use wasmparser::{
    ElementItems, ElementKind, FunctionBody, KnownCustom, Name, Operator, Parser, Payload, TypeRef,
};

use super::ModuleError;

/// Most functions, globals or table entries accepted (moc modules have a few thousand).
const MAX_ENTITIES: u32 = 1 << 20;

/// The raw pieces of a module that the facts are derived from.
pub(crate) struct RawModule<'a> {
    pub(crate) imported_funcs: u32,
    pub(crate) imported_globals: u32,
    pub(crate) memory64: bool,
    /// Defined globals: (mutable, constant init value).
    pub(crate) globals: Vec<(bool, Option<u64>)>,
    pub(crate) bodies: Vec<FunctionBody<'a>>,
    pub(crate) names: HashMap<u32, String>,
    pub(crate) table: Vec<u32>,
    pub(crate) stable_types: Option<String>,
    pub(crate) compiler: Option<String>,
    pub(crate) eop_section: bool,
    pub(crate) motoko_section: bool,
}

impl<'a> RawModule<'a> {
    /// The body of the function with global index `func`.
    pub(crate) fn body(&self, func: u32) -> Option<&FunctionBody<'a>> {
        let i = func.checked_sub(self.imported_funcs)?;
        self.bodies.get(i as usize)
    }

    /// The function index named `name`.
    pub(crate) fn func_named(&self, name: &str) -> Option<u32> {
        self.names
            .iter()
            .find_map(|(&i, n)| (n == name).then_some(i))
    }

    /// The body of the function named `name`.
    pub(crate) fn body_named(&self, name: &str) -> Option<&FunctionBody<'a>> {
        self.body(self.func_named(name)?)
    }
}

fn bounded(count: u32, what: &str) -> Result<(), ModuleError> {
    if count > MAX_ENTITIES {
        return Err(ModuleError::NotMotoko {
            missing: format!("too many {what} ({count})"),
        });
    }
    Ok(())
}

fn const_value(expr: &wasmparser::ConstExpr<'_>) -> Option<u64> {
    let mut reader = expr.get_operators_reader();
    match reader.read().ok()? {
        Operator::I32Const { value } => Some(u64::from(value as u32)),
        Operator::I64Const { value } => Some(value as u64),
        _ => None,
    }
}

/// Reads the raw pieces of a (decompressed) module.
pub(crate) fn read_raw(wasm: &[u8]) -> Result<RawModule<'_>, ModuleError> {
    if !wasm.starts_with(b"\0asm") {
        return Err(ModuleError::NotWasm);
    }
    let mut raw = RawModule {
        imported_funcs: 0,
        imported_globals: 0,
        memory64: false,
        globals: Vec::new(),
        bodies: Vec::new(),
        names: HashMap::new(),
        table: Vec::new(),
        stable_types: None,
        compiler: None,
        eop_section: false,
        motoko_section: false,
    };
    let m = ModuleError::malformed;
    for payload in Parser::new(0).parse_all(wasm) {
        match payload.map_err(m)? {
            Payload::ImportSection(reader) => {
                bounded(reader.count(), "imports")?;
                for imp in reader {
                    match imp.map_err(m)?.ty {
                        TypeRef::Func(_) => raw.imported_funcs += 1,
                        TypeRef::Global(_) => raw.imported_globals += 1,
                        _ => {}
                    }
                }
            }
            Payload::MemorySection(reader) => {
                for mem in reader {
                    raw.memory64 |= mem.map_err(m)?.memory64;
                }
            }
            Payload::GlobalSection(reader) => {
                bounded(reader.count(), "globals")?;
                for g in reader {
                    let g = g.map_err(m)?;
                    raw.globals.push((g.ty.mutable, const_value(&g.init_expr)));
                }
            }
            Payload::ElementSection(reader) => {
                bounded(reader.count(), "element segments")?;
                for el in reader {
                    let el = el.map_err(m)?;
                    let ElementKind::Active {
                        table_index,
                        offset_expr,
                    } = el.kind
                    else {
                        continue;
                    };
                    if table_index.unwrap_or(0) != 0 {
                        continue;
                    }
                    let Some(offset) = const_value(&offset_expr) else {
                        continue;
                    };
                    let ElementItems::Functions(funcs) = el.items else {
                        continue;
                    };
                    bounded(funcs.count(), "table entries")?;
                    let end = offset.saturating_add(u64::from(funcs.count()));
                    if end > u64::from(MAX_ENTITIES) {
                        return Err(ModuleError::NotMotoko {
                            missing: format!("function table too large ({end} entries)"),
                        });
                    }
                    if raw.table.len() < end as usize {
                        raw.table.resize(end as usize, u32::MAX);
                    }
                    for (i, f) in funcs.into_iter().enumerate() {
                        raw.table[offset as usize + i] = f.map_err(m)?;
                    }
                }
            }
            Payload::CodeSectionStart { count, .. } => bounded(count, "functions")?,
            Payload::CodeSectionEntry(body) => raw.bodies.push(body),
            Payload::CustomSection(reader) => {
                let name = reader.name();
                let text = || Some(String::from_utf8_lossy(reader.data()).into_owned());
                match name
                    .strip_prefix("icp:private ")
                    .or(name.strip_prefix("icp:public "))
                {
                    Some("motoko:stable-types") => raw.stable_types = text(),
                    Some("motoko:compiler") => raw.compiler = text(),
                    Some("enhanced-orthogonal-persistence") => raw.eop_section = true,
                    _ => {}
                }
                if name == "motoko" {
                    raw.motoko_section = true;
                }
                if let KnownCustom::Name(names) = reader.as_known() {
                    for sub in names {
                        // A malformed name section only costs the names.
                        let Ok(Name::Function(map)) = sub else {
                            continue;
                        };
                        for naming in map.into_iter().flatten() {
                            raw.names.insert(naming.index, naming.name.to_string());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(raw)
}
