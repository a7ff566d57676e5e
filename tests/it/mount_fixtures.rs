//! The mount over every committed fixture snapshot (real Motoko heaps, EOP and the four
//! classical GCs), for real: every file's `stat` size equals the bytes read, every `.json`
//! parses, a few variables' JSON per layout are the hand-checked goldens ([`GOLDEN_JSON`],
//! written from the canister's own `debug_show` and `docs/formats.md`), every part under
//! `vars/` is that part of its variable's JSON, every variable of the canister is listed,
//! every compound's `.mo` is the canister's own `debug_show`, `mo-mem tree/ls/cat` show exactly
//! what the mount shows, writes fail with the documented errno, 16 concurrent readers get
//! no errors, `grep -r` finishes, and SIGTERM leaves no mount behind.

use crate::common;
use crate::mount_support;
use mount_support::files_under;

use mount_support::{fuse_available, is_mounted, wait_with_deadline, Mounted, BIN, HANG};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// `(served name, snapshot dir)` of every committed fixture, as the mount names them.
/// The fixtures whose every file these tests read through FUSE: all but `collections`,
/// whose 126,000-object heaps take many minutes to read file by file in a debug build
/// (`collections_cycles_and_long_lists_are_finite` covers what only it has), and of
/// `structures` (78,000 objects, mostly garbage, in most modes) only its copying snapshot.
fn fixtures() -> Vec<(String, PathBuf)> {
    let fixtures: Vec<(String, PathBuf)> = common::all_fixtures()
        .into_iter()
        .filter(|(name, mode, _)| {
            name != "collections" && (name != "structures" || mode == "copying")
        })
        .map(|(name, mode, dir)| (format!("{name}-{mode}"), dir))
        .collect();
    assert!(!fixtures.is_empty(), "no committed fixture snapshots");
    fixtures
}

fn mount_all(fixtures: &[(String, PathBuf)]) -> Mounted {
    let dirs: Vec<&Path> = fixtures.iter().map(|(_, dir)| dir.as_path()).collect();
    let mount = Mounted::start(&dirs);
    let mut served: Vec<String> = std::fs::read_dir(&mount.mountpoint)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    served.sort();
    let mut want: Vec<String> = fixtures.iter().map(|(name, _)| name.clone()).collect();
    want.sort();
    assert_eq!(served, want, "the mount's root");
    mount
}

/// Most object files read per fixture; the others are listed (and referenced) only.
const MAX_OBJECT_READS: usize = 800;

/// `files` (under `top`) with at most [`MAX_OBJECT_READS`] of those under `objects/`, an even
/// stride of them in order; the others all.
fn sample_objects(top: &Path, files: Vec<PathBuf>) -> Vec<PathBuf> {
    let is_object = |f: &PathBuf| f.strip_prefix(top).is_ok_and(|r| r.starts_with("objects"));
    let objects = files.iter().filter(|f| is_object(f)).count();
    let stride = objects.div_ceil(MAX_OBJECT_READS).max(1);
    let mut seen = 0;
    files
        .into_iter()
        .filter(|f| {
            if !is_object(f) {
                return true;
            }
            seen += 1;
            (seen - 1) % stride == 0
        })
        .collect()
}

fn run_ok(args: &[&std::ffi::OsStr]) -> Vec<u8> {
    let out = Command::new(BIN).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "mo-mem {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Whether two JSON renderings of one value agree wherever neither is cut (`{"deep": …}`:
/// each rendering caps nesting from its own top, so a part's file cuts deeper than its
/// variable's JSON does).
fn same_up_to_cuts(a: &Json, b: &Json) -> bool {
    // a cycle's back-reference (`{"cycle": …}`) also stops a rendering where it met an
    // ancestor of its own top: a part's file, rendered from deeper, may expand it
    let is_cut = |j: &Json| {
        j.as_object()
            .is_some_and(|m| m.len() == 1 && (m.contains_key("deep") || m.contains_key("cycle")))
    };
    if is_cut(a) || is_cut(b) {
        return true;
    }
    match (a, b) {
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_up_to_cuts(x, y))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((k, x), (l, y))| k == l && same_up_to_cuts(x, y))
        }
        _ => a == b,
    }
}

/// Where a path of the mount's `vars/` tree lands in the JSON of `vars`.
enum At<'a> {
    /// The JSON value at that path.
    Value(&'a Json),
    /// Past the JSON's nesting cap (`{"deep": "0x…"}`): the JSON does not show it inline.
    Cut,
}

/// The JSON of `vars` (as `mo-mem vars --format json` prints it) at a path of the mount's
/// `vars/` tree: fields by name, elements by index, `some` for an option, the tag for a
/// variant, `FIRST-LAST` groups transparent.
fn json_at<'a>(mut json: &'a Json, path: &[&str]) -> Option<At<'a>> {
    for part in path {
        if json
            .as_object()
            .is_some_and(|m| m.len() == 1 && (m.contains_key("deep") || m.contains_key("cycle")))
        {
            return Some(At::Cut);
        }
        let is_group = part
            .split_once('-')
            .is_some_and(|(a, b)| a.parse::<u64>().is_ok() && b.parse::<u64>().is_ok());
        json = match json {
            Json::Object(map) if *part == "some" && map.len() == 1 && map.contains_key("some") => {
                &map["some"]
            }
            _ if *part == "some" => json,
            Json::Array(_) if is_group => json,
            Json::Array(items) => items.get(part.parse::<usize>().ok()?)?,
            Json::Object(map) => map.get(*part).or_else(|| map.get(&format!("#{part}")))?,
            _ => return None,
        };
    }
    Some(At::Value(json))
}

/// Hand-checked JSON of a few variables per fixture (every layout of it), written from the
/// canister's `debug_show` in `expected.json` by the rules of `docs/formats.md` ("JSON"):
/// a record by label, a variant as `{"#tag": payload}`, `?x` as `x` unless `x` is null or an
/// option, integers over 2^53 as strings, a blob as hex, a principal and an actor by text.
const GOLDEN_JSON: &[(&str, &str, &str)] = &[
    // person = {age = 39; name = "Ada"; score = ?9.500000; tags = ["math", "engines"]}
    (
        "compound",
        "person",
        r#"{"age": 39, "name": "Ada", "score": 9.5, "tags": ["math", "engines"]}"#,
    ),
    // var_rgb = #rgb(255, 128, 0)
    ("compound", "var_rgb", r##"{"#rgb": [255, 128, 0]}"##),
    // var_red = #red
    ("compound", "var_red", r##"{"#red": null}"##),
    // var_maybe_some = #maybe(?(#maybe(?(#rgb(1, 2, 3)))))
    (
        "compound",
        "var_maybe_some",
        r##"{"#maybe": {"#maybe": {"#rgb": [1, 2, 3]}}}"##,
    ),
    // opt_of_opts = [null, ?null, ?(?"deep")]
    (
        "compound",
        "opt_of_opts",
        r#"[null, {"some": null}, {"some": "deep"}]"#,
    ),
    // opt_opt_null = ?null
    ("compound", "opt_opt_null", r#"{"some": null}"#),
    // tup_with_unit = (1, (), "u")
    ("compound", "tup_with_unit", r#"[1, [], "u"]"#),
    // tup_nested = ((1, 2), ("x", (true, null)))
    ("compound", "tup_nested", r#"[[1, 2], ["x", [true, null]]]"#),
    // arr_var = [var -1, -3_000_000_000_000, +1]
    ("compound", "arr_var", "[-1, -3000000000000, 1]"),
    // pr_self = rrkah-fqaaa-aaaaa-aaaaq-cai
    (
        "compound",
        "pr_self",
        r#"{"principal": "rrkah-fqaaa-aaaaa-aaaaq-cai"}"#,
    ),
    // act_ledger = ryjl3-tyaaa-aaaaa-aaaba-cai (an actor reference)
    (
        "compound",
        "act_ledger",
        r#"{"actor": "ryjl3-tyaaa-aaaaa-aaaba-cai"}"#,
    ),
    // blob_bytes = "\00\01\7F\80\FF\22\5C\0A\01\02\03"
    (
        "compound",
        "blob_bytes",
        r#"{"blob": "00017f80ff225c0a010203"}"#,
    ),
    // i64_max = +9_223_372_036_854_775_807
    ("scalars", "i64_max", r#""9223372036854775807""#),
    // n64_max = 18_446_744_073_709_551_615
    ("scalars", "n64_max", r#""18446744073709551615""#),
    // nat_big = 340_282_366_920_938_463_463_374_607_431_768_211_457
    (
        "scalars",
        "nat_big",
        r#""340282366920938463463374607431768211457""#,
    ),
    // i32_min = -2_147_483_648
    ("scalars", "i32_min", "-2147483648"),
    // flt_neg = -2.500000; flt_inf = inf; flt_nan = NaN
    ("scalars", "flt_neg", "-2.5"),
    ("scalars", "flt_inf", r#""inf""#),
    ("scalars", "flt_nan", r#""NaN""#),
    // chr_a = 'a'; bool_true = true
    ("scalars", "chr_a", r#""a""#),
    ("scalars", "bool_true", "true"),
];

/// The mount's JSON of a variable: `NAME.json` for a compound, the file `NAME` for a scalar.
fn variable_json(vars: &Path, var: &str) -> Option<Json> {
    let compound = vars.join(format!("{var}.json"));
    let file = if compound.is_file() {
        compound
    } else {
        vars.join(var)
    };
    let bytes = std::fs::read(&file).ok()?;
    Some(serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", file.display())))
}

/// The mount's JSON of every variable, keyed by name: what a part's file is checked against.
fn mounted_vars(vars: &Path) -> Json {
    let mut all = serde_json::Map::new();
    for entry in std::fs::read_dir(vars).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let var = name.strip_suffix(".json").unwrap_or(&name);
        if name.ends_with(".mo") || all.contains_key(var) {
            continue;
        }
        if let Some(json) = variable_json(vars, var) {
            all.insert(var.to_string(), json);
        }
    }
    Json::Object(all)
}

/// The goldens of the fixture served as `name` (`<fixture>-<mode>`) hold in every layout.
fn check_goldens(name: &str, vars: &Path) {
    let fixture = name.split('-').next().unwrap_or(name);
    let goldens: Vec<_> = GOLDEN_JSON
        .iter()
        .filter(|(f, _, _)| *f == fixture)
        .collect();
    if ["compound", "scalars"].contains(&fixture) {
        assert!(goldens.len() >= 9, "{name}: {} goldens", goldens.len());
    }
    for (_, var, want) in goldens {
        let want: Json = serde_json::from_str(want).unwrap();
        let got = variable_json(vars, var).unwrap_or_else(|| panic!("{name}: no vars/{var}"));
        assert_eq!(
            got, want,
            "{name}: vars/{var}, against its hand-checked JSON"
        );
    }
}

fn expected_debug_show(dir: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(dir.join("expected.json")).unwrap();
    let json: Json = serde_json::from_str(&text).unwrap();
    json["vars"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn every_fixture_file_is_exact_and_matches_the_decoder() {
    if !fuse_available() {
        return;
    }
    let fixtures = fixtures();
    let mount = mount_all(&fixtures);
    for (name, dir) in &fixtures {
        let top = mount.path(name);
        let debug_show = expected_debug_show(dir);
        let vars_json = mounted_vars(&top.join("vars"));
        check_goldens(name, &top.join("vars"));
        let mut files = Vec::new();
        files_under(&top, &mut files);
        let (mut scalars, mut compounds, mut objects, mut deep) = (0, 0, 0, 0);
        let mut object_jsons = Vec::new();
        // Every object file is listed; big heaps have too many to read them all here.
        let object_files = files
            .iter()
            .filter(|f| f.strip_prefix(&top).is_ok_and(|r| r.starts_with("objects")))
            .count();
        let listed_objects: std::collections::HashSet<u64> = files
            .iter()
            .filter_map(|f| f.strip_prefix(&top).ok()?.to_str())
            .filter(|rel| rel.starts_with("objects/"))
            .map(file_address)
            .collect();
        // Collections (a `NAME.raw.json` beside `NAME.json`): their directory is named by key
        // or position of the natural view (tests/it/collections_natural.rs checks it), not by
        // the JSON's positions; their files are checked for size and JSON here only.
        let collections: Vec<String> = files
            .iter()
            .filter_map(|f| {
                f.strip_prefix(&top)
                    .ok()?
                    .to_str()?
                    .strip_suffix(".raw.json")
            })
            .map(|stem| format!("{stem}/"))
            .collect();
        for file in &sample_objects(&top, files.clone()) {
            let rel = file
                .strip_prefix(&top)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let size = std::fs::metadata(file).unwrap().len();
            let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{name}/{rel}: {e}"));
            assert_eq!(
                size,
                bytes.len() as u64,
                "{name}/{rel}: stat size vs bytes read"
            );
            if rel.ends_with(".json") {
                serde_json::from_slice::<Json>(&bytes)
                    .unwrap_or_else(|e| panic!("{name}/{rel} is not JSON: {e}"));
            }
            if rel.starts_with("objects/") {
                objects += 1;
                object_jsons.push((rel.clone(), serde_json::from_slice::<Json>(&bytes).unwrap()));
                continue;
            }
            let Some(var_path) = rel.strip_prefix("vars/") else {
                continue;
            };
            let in_collection = collections.iter().any(|c| rel.starts_with(c.as_str()));
            if rel.ends_with(".raw.json") || in_collection {
                continue;
            }
            let parts: Vec<&str> = var_path.split('/').collect();
            let leaf = parts[parts.len() - 1];
            let text = String::from_utf8(bytes.clone()).unwrap();
            if let Some(stem) = leaf.strip_suffix(".mo") {
                compounds += 1;
                if parts.len() == 1 {
                    let got = text.strip_suffix('\n').unwrap_or(&text);
                    let want = debug_show.get(stem).map(String::as_str).unwrap_or("<none>");
                    assert!(
                        common::debug_show_matches(want, got),
                        "{name}/{rel}: the canister's debug_show {want:?}, mounted {got:?}"
                    );
                }
                continue;
            }
            let (path, is_whole) = match leaf.strip_suffix(".json") {
                Some(stem) => {
                    let mut p = parts[..parts.len() - 1].to_vec();
                    p.push(stem);
                    (p, true)
                }
                None => (parts.clone(), false),
            };
            let got: Json = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{name}/{rel} is not JSON: {e}"));
            let cut_here = got
                .as_object()
                .is_some_and(|m| m.len() == 1 && m.contains_key("deep"));
            match json_at(&vars_json, &path) {
                _ if cut_here => deep += 1,
                Some(At::Value(want)) => assert!(
                    same_up_to_cuts(&got, want),
                    "{name}/{rel} vs its variable's JSON:\n{got}\n{want}"
                ),
                Some(At::Cut) => deep += 1,
                None => panic!("{name}/{rel}: not in its variable's JSON"),
            }
            assert!(text.ends_with('\n'), "{name}/{rel} ends with a newline");
            if !is_whole {
                scalars += 1;
            }
        }
        check_objects(name, &top, &object_jsons, &listed_objects);
        eprintln!(
            "{name}: {} files, {objects} of {object_files} object files read, {deep} past the JSON cap",
            files.len()
        );
        assert!(scalars > 0, "{name}: {scalars} scalar files");
        assert!(object_files > 20, "{name}: {object_files} object files");
        if name.starts_with("compound") {
            assert!(compounds > 10, "{name}: {compounds} compound files");
        }
        // Every variable of the canister is served.
        for var in debug_show.keys() {
            assert!(
                top.join("vars").join(var).exists(),
                "{name}: vars/{var} missing"
            );
        }
    }
}

fn addr(text: &Json) -> u64 {
    let text = text.as_str().unwrap();
    u64::from_str_radix(text.trim_start_matches("0x"), 16).unwrap()
}

/// The address an object file is named by (`objects/.../0xADDR.json`).
fn file_address(rel: &str) -> u64 {
    let name = rel.rsplit('/').next().unwrap().trim_end_matches(".json");
    u64::from_str_radix(name.trim_start_matches("0x"), 16).unwrap()
}

/// Every object file read is named by its address and says so, has the documented keys, and
/// every reference into the walked heap ranges is an object file the mount lists.
fn check_objects(
    name: &str,
    top: &Path,
    objects: &[(String, Json)],
    listed: &std::collections::HashSet<u64>,
) {
    let info: Json =
        serde_json::from_slice(&std::fs::read(top.join("info.json")).unwrap()).unwrap();
    let ranges: Vec<(u64, u64)> = info["ranges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["start"].as_u64().unwrap(), r["end"].as_u64().unwrap()))
        .collect();
    for (rel, json) in objects {
        assert_eq!(addr(&json["address"]), file_address(rel), "{name}/{rel}");
        for key in ["tag", "raw_tag", "size", "forwarded_to", "references"] {
            assert!(json.get(key).is_some(), "{name}/{rel} has no {key}");
        }
    }
    let mut checked = 0;
    for (rel, json) in objects {
        for reference in json["references"].as_array().unwrap() {
            let target = addr(reference);
            if ranges
                .iter()
                .any(|(start, end)| (*start..*end).contains(&target))
            {
                assert!(
                    listed.contains(&target),
                    "{name}/{rel}: reference {target:#x} is not an object file"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "{name}: {checked} references checked");
}

/// The mount's tree below `dir`, drawn the way `mo-mem tree` draws it.
fn draw(dir: &Path, prefix: &str, depth: usize, out: &mut String) {
    if depth == 0 {
        return;
    }
    let children: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .collect();
    let count = children.len();
    for (i, child) in children.into_iter().enumerate() {
        let last = i + 1 == count;
        let is_dir = child.file_type().unwrap().is_dir();
        let branch = if last { "└── " } else { "├── " };
        let slash = if is_dir { "/" } else { "" };
        out.push_str(&format!(
            "{prefix}{branch}{}{slash}\n",
            child.file_name().to_string_lossy()
        ));
        if is_dir {
            let deeper = format!("{prefix}{}", if last { "    " } else { "│   " });
            draw(&child.path(), &deeper, depth - 1, out);
        }
    }
}

#[test]
fn tree_ls_and_cat_print_what_the_mount_shows() {
    if !fuse_available() {
        return;
    }
    for (name, dir) in &fixtures() {
        // Mounted alone, a snapshot is served under its directory's name, as `ls/cat` name it.
        let mount = Mounted::start(&[dir.as_path()]);
        let top = mount.path(&dir.file_name().unwrap().to_string_lossy());
        let mut want = String::from(".\n");
        draw(&top, "", 64, &mut want);
        let tree = run_ok(&[
            "tree".as_ref(),
            dir.as_os_str(),
            "-L".as_ref(),
            "64".as_ref(),
        ]);
        assert_eq!(String::from_utf8_lossy(&tree), want, "{name}: mo-mem tree");
        for sub in ["", "vars", "objects"] {
            let mut listing = String::new();
            for entry in std::fs::read_dir(top.join(sub)).unwrap() {
                let entry = entry.unwrap();
                listing.push_str(&entry.file_name().to_string_lossy());
                listing.push_str(if entry.file_type().unwrap().is_dir() {
                    "/\n"
                } else {
                    "\n"
                });
            }
            let ls = run_ok(&["ls".as_ref(), dir.as_os_str(), sub.as_ref()]);
            assert_eq!(
                String::from_utf8_lossy(&ls),
                listing,
                "{name}: mo-mem ls {sub}"
            );
        }
        // Every file but the object files, and of those a stride (`every_fixture_file_..`
        // reads the same stride of them through the mount).
        let mut files = Vec::new();
        files_under(&top, &mut files);
        let files = sample_objects(&top, files);
        for chunk in files.chunks(400) {
            let mut args: Vec<std::ffi::OsString> = vec!["cat".into(), dir.into()];
            let mut want = Vec::new();
            let mut ends = Vec::new();
            for file in chunk {
                args.push(file.strip_prefix(&top).unwrap().into());
                want.extend(std::fs::read(file).unwrap());
                ends.push((want.len(), file));
            }
            let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
            let got = run_ok(&args);
            if got != want {
                let at = got.iter().zip(&want).take_while(|(a, b)| a == b).count();
                let file = ends.iter().find(|(end, _)| *end > at).map(|(_, f)| f);
                panic!("{name}: mo-mem cat differs from the mount at byte {at}, in {file:?}");
            }
        }
    }
}

fn errno_of<T>(result: std::io::Result<T>) -> i32 {
    result.err().and_then(|e| e.raw_os_error()).unwrap_or(0)
}

#[test]
fn fixture_mount_rejects_writes_and_serves_concurrent_readers() {
    if !fuse_available() {
        return;
    }
    let fixtures = fixtures();
    let mut mount = mount_all(&fixtures);
    let mut files = Vec::new();
    files_under(&mount.mountpoint, &mut files);
    let (name, _) = &fixtures[0];
    let var = std::fs::read_dir(mount.path(&format!("{name}/vars")))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_file())
        .unwrap();
    let write_open = std::fs::OpenOptions::new().write(true).open(&var);
    assert_eq!(errno_of(write_open), libc::EROFS, "{}", var.display());
    assert_eq!(
        errno_of(std::fs::write(
            mount.path(&format!("{name}/vars/new")),
            b"1"
        )),
        libc::EROFS
    );
    assert_eq!(errno_of(std::fs::remove_file(&var)), libc::EROFS);
    assert_eq!(
        errno_of(std::fs::create_dir(
            mount.path(&format!("{name}/objects/x"))
        )),
        libc::EROFS
    );
    assert_eq!(
        errno_of(std::fs::read(mount.path(&format!("{name}/vars")))),
        libc::EISDIR
    );
    assert_eq!(
        errno_of(std::fs::read(
            mount.path(&format!("{name}/vars/no_such_var"))
        )),
        libc::ENOENT
    );

    // 16 readers, each reading a fixed number of files along a different stride of them
    // all (a count of reads, not a time window a loaded machine may not fill). What each
    // file holds is read first, alone, for the files the readers read.
    const READERS: usize = 16;
    const READS_PER_READER: usize = 64;
    let count = files.len();
    let picks = move |reader: usize| {
        (0..READS_PER_READER).map(move |j| (reader * 7919 + j * 104_729) % count)
    };
    let expected: std::collections::HashMap<usize, Vec<u8>> = (0..READERS)
        .flat_map(picks)
        .map(|k| (k, std::fs::read(&files[k]).unwrap()))
        .collect();
    let reads: usize = std::thread::scope(|scope| {
        let readers: Vec<_> = (0..READERS)
            .map(|reader| {
                let (files, expected) = (&files, &expected);
                scope.spawn(move || {
                    for k in picks(reader) {
                        let bytes = std::fs::read(&files[k])
                            .unwrap_or_else(|e| panic!("{}: {e}", files[k].display()));
                        assert!(bytes == expected[&k], "{}", files[k].display());
                    }
                    READS_PER_READER
                })
            })
            .collect();
        readers.into_iter().map(|r| r.join().unwrap()).sum()
    });
    assert_eq!(reads, READERS * READS_PER_READER);

    // grep -r over the whole mount finishes and finds the variables: every file of the
    // first fixture, and of the others every file but the object files (of which
    // `every_fixture_file_..` and `tree_ls_and_cat_..` read a stride). Its output is read on
    // another thread, so the ceiling (which only a hang reaches) can fire while it runs.
    let mut grep = Command::new("grep")
        .args(["-r", "-l", "--exclude=eval", "-e", "Blob T"])
        .arg(mount.path(name))
        .args(fixtures[1..].iter().flat_map(|(other, _)| {
            let top = mount.path(other);
            std::fs::read_dir(&top)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| !p.ends_with("objects"))
                .collect::<Vec<_>>()
        }))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = grep.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        stdout.read_to_string(&mut out).map(|_| out)
    });
    let status = wait_with_deadline(&mut grep, HANG);
    let out = reader.join().unwrap().unwrap();
    assert_eq!(status.code(), Some(0));
    assert!(out.lines().count() > 10, "{out}");

    let status = mount.stop();
    assert!(status.success(), "{status}");
    assert!(!is_mounted(&mount.mountpoint));
}

/// `collections`' doubly linked queue is a back-reference file where the cycle closes, and
/// its long pure list stops being directories past the tree's depth cap.
#[test]
fn collections_cycles_and_long_lists_are_finite() {
    let dir = common::fixture("collections", "eop");
    let cat = |rel: &str| {
        let out = run_ok(&["cat".as_ref(), dir.as_os_str(), rel.as_ref()]);
        serde_json::from_slice::<Json>(&out).unwrap_or_else(|e| panic!("{rel}: {e}"))
    };
    let vars: Json = serde_json::from_slice(&run_ok(&[
        "vars".as_ref(),
        dir.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]))
    .unwrap();
    // The queue's directory is its natural view (elements by position); its structure, with
    // the back-reference where the doubly linked nodes close the cycle, is `.raw.json`.
    let raw: Json = serde_json::from_slice(&run_ok(&[
        "vars".as_ref(),
        dir.as_os_str(),
        "queue_text".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        "--raw".as_ref(),
    ]))
    .unwrap();
    let back = &cat("vars/queue_text.raw.json")["front"]["next"]["previous"];
    assert_eq!(back, &raw["front"]["next"]["previous"]);
    assert!(back["cycle"].is_string(), "{back}");
    assert_eq!(cat("vars/queue_text/0"), vars["queue_text"][0]);
    assert_eq!(cat("vars/queue_text.json"), vars["queue_text"]);
    // A long linked list is flat: its elements by position, not 730 nested cells.
    let list = cat("vars/pure_list.json");
    let items = list.as_array().expect("an array");
    assert_eq!(items.len(), 730, "{list}");
    assert_eq!(cat("vars/pure_list/729"), items[729]);
}
