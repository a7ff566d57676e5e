//! The published JSON Schemas (`docs/schemas/NAME.schema.json`, draft 2020-12), compiled with
//! the `jsonschema` crate, and a checker the tests validate mo-mem's JSON documents with.

use serde_json::Value as Json;
use std::collections::BTreeMap;

/// The schema `name`, compiled (and its `$id` checked to be versioned).
pub fn validator(name: &str) -> jsonschema::Validator {
    let path = super::repo_root()
        .join("docs/schemas")
        .join(format!("{name}.schema.json"));
    let schema: Json = serde_json::from_slice(&std::fs::read(&path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
        "{name}"
    );
    let id = schema["$id"].as_str().expect("$id");
    assert!(
        id.ends_with(&format!("/v1/{name}.schema.json")),
        "{name}: a versioned $id: {id}"
    );
    jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The first few errors of `doc` against `v`, each cut to 300 characters.
pub fn errors_of(v: &jsonschema::Validator, doc: &Json) -> Vec<String> {
    v.iter_errors(doc)
        .map(|e| {
            let mut text = e.to_string();
            if text.len() > 300 {
                let mut end = 300;
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.truncate(end);
                text.push('…');
            }
            format!("{text} at {}", e.instance_path())
        })
        .take(5)
        .collect()
}

/// Asserts `doc` (said to be `what`) follows the schema `name`.
pub fn assert_follows(name: &str, doc: &Json, what: &str) {
    let errors = errors_of(&validator(name), doc);
    assert!(
        errors.is_empty(),
        "{what} does not follow {name}.schema.json: {errors:#?}\n{doc}"
    );
}

/// Validates documents against their schemas, compiling each schema once.
#[derive(Default)]
pub struct Checker {
    validators: BTreeMap<String, jsonschema::Validator>,
    /// How many documents were checked against each schema.
    pub checked: BTreeMap<String, usize>,
}

impl Checker {
    /// Asserts `doc` (said to be `what`) follows the schema `schema`.
    pub fn check(&mut self, schema: &str, doc: &Json, what: &str) {
        let v = self
            .validators
            .entry(schema.to_string())
            .or_insert_with(|| validator(schema));
        let errors = errors_of(v, doc);
        assert!(
            errors.is_empty(),
            "{what} does not follow {schema}.schema.json: {errors:#?}"
        );
        *self.checked.entry(schema.to_string()).or_default() += 1;
    }

    /// [`Checker::check`] of the JSON text `bytes`.
    pub fn check_bytes(&mut self, schema: &str, bytes: &[u8], what: &str) {
        let doc: Json =
            serde_json::from_slice(bytes).unwrap_or_else(|e| panic!("{what}: not JSON: {e}"));
        self.check(schema, &doc, what);
    }

    /// `mo-mem ARGS`'s standard output, validated against `schema`; the document.
    pub fn command(&mut self, schema: &str, args: &[&str]) -> Json {
        let out = super::mo_mem_ok(args);
        let doc: Json = serde_json::from_slice(&out)
            .unwrap_or_else(|e| panic!("mo-mem {args:?}: not JSON: {e}"));
        self.check(schema, &doc, &format!("mo-mem {args:?}"));
        doc
    }
}
