//! The `README` file of a snapshot directory.

/// The README text of the snapshot served as `name`; `error` says why the decoded entries
/// are absent, `incomplete` what an unfinished download served anyway is missing.
pub fn snapshot_readme(name: &str, error: Option<&str>, incomplete: Option<&str>) -> Vec<u8> {
    let mut text = String::new();
    if let Some(incomplete) = incomplete {
        text.push_str(&format!(
            "INCOMPLETE: this download did not finish; it is served because the mount was \
             started with --force, and its values may be wrong where bytes are missing.\n\
             {incomplete}\n\n"
        ));
    }
    text += &format!(
        "mo-mem snapshot {name}\n\
         \n\
         wasm_memory.bin     the canister's main memory, byte for byte\n\
         stable_memory.bin   its stable memory (when not empty)\n\
         wasm_module.bin     the installed Wasm module\n\
         metadata.json       the snapshot's metadata (icp-cli format)\n\
         info.json           layout, compiler, GC, sizes, object counts\n\
         stats.json          objects and bytes per heap tag\n\
         vars/               the stable variables: a scalar is a file holding its JSON value;\n\
         \x20                   a compound value is a directory (fields by name, elements by\n\
         \x20                   index) with NAME.json (the whole value) and NAME.mo (debug_show)\n\
         objects/            every heap object as JSON, objects/REGION/BLOCK/ADDRESS.json\n\
         analysis/           what holds the memory: report.txt (mo-mem report), retained.json\n\
         \x20                   (mo-mem retained --json), types.json, top.json, garbage.json,\n\
         \x20                   retained.svg (the flame graph of retained memory, for a browser),\n\
         \x20                   report.html (mo-mem report --html: tables and the flame graph)\n\
         \x20                   doctor.txt, doctor.json (mo-mem doctor: waste and what to change)\n\
         eval                write a Motoko script into it, then read the answer from it\n\
         methods/            the canister's own queries, run offline on this snapshot: a file\n\
         \x20                   per query without arguments (its reply), a control file per\n\
         \x20                   query with arguments (write them, read the reply)\n\
         \n\
         Everything is read-only except eval and the methods' control files. See docs/mount.md.\n\
         \n\
         The .json files' shapes are JSON Schemas (draft 2020-12, version v1) in docs/schemas/:\n\
         info.json info.schema.json, stats.json stats.schema.json, vars/*.json value.schema.json,\n\
         objects/*.json object.schema.json, analysis/retained.json retained.schema.json,\n\
         analysis/types.json types.schema.json, analysis/top.json top.schema.json,\n\
         analysis/garbage.json garbage.schema.json, analysis/doctor.json doctor.schema.json,\n\
         errors.json errors.schema.json. Numbers:\n\
         a JSON number when |x| <= 2^53, a decimal string beyond (docs/formats.md).\n"
    );
    if let Some(error) = error {
        text.push_str(&format!(
            "\nThe heap could not be decoded, so only the raw files are shown:\n  {error}\n"
        ));
    }
    text.into_bytes()
}
