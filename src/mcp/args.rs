//! A tool's arguments as the client sent them, checked against what the tool takes: an
//! unknown argument, a missing one or one of the wrong type is a [`ToolError::BadArgument`]
//! naming it, never a guess.

use super::error::ToolError;
use serde_json::{Map, Value};

/// The arguments of one call.
pub struct Args<'a> {
    tool: &'a str,
    map: &'a Map<String, Value>,
}

impl<'a> Args<'a> {
    /// The arguments `map` of `tool`, which takes exactly `known`.
    pub fn new(
        tool: &'a str,
        map: &'a Map<String, Value>,
        known: &[&str],
    ) -> Result<Args<'a>, ToolError> {
        if let Some(extra) = map.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(ToolError::BadArgument(format!(
                "{tool} takes no argument {extra:?} (it takes: {})",
                known.join(", ")
            )));
        }
        Ok(Args { tool, map })
    }

    fn bad(&self, name: &str, what: &str) -> ToolError {
        ToolError::BadArgument(format!(
            "{}: the argument {name:?} must be {what}",
            self.tool
        ))
    }

    /// The text argument `name`, if given.
    pub fn opt_text(&self, name: &str) -> Result<Option<&'a str>, ToolError> {
        match self.map.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(_) => Err(self.bad(name, "a string")),
        }
    }

    /// The text argument `name`, which is required.
    pub fn text(&self, name: &str) -> Result<&'a str, ToolError> {
        self.opt_text(name)?.ok_or_else(|| {
            ToolError::BadArgument(format!("{}: the argument {name:?} is required", self.tool))
        })
    }

    /// The boolean argument `name` (`false` if not given).
    pub fn flag(&self, name: &str) -> Result<bool, ToolError> {
        match self.map.get(name) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.bad(name, "true or false")),
        }
    }

    /// The whole-number argument `name` from 1 to `max` (`default` if not given).
    pub fn count(&self, name: &str, default: u64, max: u64) -> Result<u64, ToolError> {
        match self.map.get(name) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Number(n)) => match n.as_u64() {
                Some(v) if (1..=max).contains(&v) => Ok(v),
                _ => Err(self.bad(name, &format!("a whole number from 1 to {max}"))),
            },
            Some(_) => Err(self.bad(name, &format!("a whole number from 1 to {max}"))),
        }
    }

    /// The text argument `name` if it is one of `choices`.
    pub fn choice(
        &self,
        name: &str,
        choices: &[&'static str],
    ) -> Result<Option<&'static str>, ToolError> {
        let Some(text) = self.opt_text(name)? else {
            return Ok(None);
        };
        match choices.iter().find(|c| **c == text) {
            Some(c) => Ok(Some(*c)),
            None => Err(self.bad(name, &format!("one of {}", choices.join(", ")))),
        }
    }
}
