//! [`FunctionNames`]: the function table (element section) and the name section, for closures.

use std::collections::HashMap;

/// Maps a closure's `funid` (table index) to a function index and its name.
#[derive(Debug, Clone, Default)]
pub struct FunctionNames {
    /// Table index -> function index (`u32::MAX` = empty slot).
    pub(crate) table: Vec<u32>,
    /// Function index -> name (from the name section).
    pub(crate) names: HashMap<u32, String>,
}

impl FunctionNames {
    /// The function index stored at table index `funid`.
    pub fn function_index(&self, funid: u64) -> Option<u32> {
        let idx = usize::try_from(funid).ok()?;
        self.table.get(idx).copied().filter(|&f| f != u32::MAX)
    }

    /// The name of the function at table index `funid`.
    pub fn name_of_funid(&self, funid: u64) -> Option<&str> {
        self.name_of_function(self.function_index(funid)?)
    }

    /// The name of function index `func`.
    pub fn name_of_function(&self, func: u32) -> Option<&str> {
        self.names.get(&func).map(String::as_str)
    }
}
