//! The layer map in `src/lib.rs` is true: every `crate::FOLDER` a layer's code names (outside
//! comments and tests) is one its bullet in the map lists after "imports", and each bullet
//! lists only layers above it, so no import runs back up.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers in the map's order, each with the layers it says it imports.
fn declared_map(lib: &str) -> Vec<(String, BTreeSet<String>)> {
    let doc: Vec<&str> = lib
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .map(|l| l.trim_start_matches("//!").trim())
        .collect();
    // one bullet per layer, its continuation lines joined
    let mut bullets: Vec<String> = Vec::new();
    for line in doc {
        if let Some(rest) = line.strip_prefix("- `") {
            bullets.push(rest.to_string());
        } else if !line.is_empty() && !bullets.is_empty() && !line.starts_with("The binary") {
            let last = bullets.last_mut().unwrap();
            last.push(' ');
            last.push_str(line);
        } else if line.is_empty() || line.starts_with("The binary") {
            // a paragraph ends the list
            if !bullets.is_empty() {
                bullets.push(String::new());
            }
        }
    }
    let mut map: Vec<(String, BTreeSet<String>)> = Vec::new();
    for bullet in bullets.iter().take_while(|b| !b.is_empty()) {
        let name = bullet.split('`').next().unwrap().to_string();
        let clause = bullet
            .split("imports ")
            .nth(1)
            .unwrap_or_else(|| panic!("the map's bullet for `{name}` says no `imports`"));
        let clause = clause.split(['(', ';', '.']).next().unwrap();
        let imports: BTreeSet<String> = if clause.starts_with("all of the above") {
            map.iter().map(|(n, _)| n.clone()).collect()
        } else if clause.starts_with("nothing") {
            BTreeSet::new()
        } else {
            clause
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect()
        };
        map.push((name, imports));
    }
    map
}

/// The code of a source file without its comments and its `#[cfg(test)]` tail.
fn code_of(text: &str) -> String {
    let code = text.split("#[cfg(test)]").next().unwrap();
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The layers each layer's non-test code names as `crate::LAYER`, with a file that does.
fn actual_imports(src: &Path, layers: &[String]) -> BTreeMap<String, BTreeMap<String, PathBuf>> {
    let mut found = BTreeMap::new();
    for layer in layers {
        let mut files = Vec::new();
        rust_files(&src.join(layer), &mut files);
        let entry: &mut BTreeMap<String, PathBuf> = found.entry(layer.clone()).or_default();
        for file in files {
            let name = file.file_name().unwrap().to_string_lossy();
            if name == "tests.rs" || name.ends_with("_tests.rs") {
                continue;
            }
            let code = code_of(&std::fs::read_to_string(&file).unwrap());
            // one path per import, so that each is read here
            assert!(
                !code.contains("crate::{"),
                "{}: a grouped `crate::{{…}}` import",
                file.display()
            );
            for other in layers.iter().filter(|o| *o != layer) {
                let named = code.contains(&format!("crate::{other}::"))
                    || code.contains(&format!("crate::{other}}}"))
                    || code.contains(&format!("crate::{other};"));
                if named {
                    entry.entry(other.clone()).or_insert_with(|| file.clone());
                }
            }
        }
    }
    found
}

#[test]
fn the_layer_map_is_true_and_points_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let map = declared_map(&lib);
    let names: Vec<String> = map.iter().map(|(n, _)| n.clone()).collect();
    // the map names every layer folder of src/ exactly once
    let mut folders: Vec<String> = std::fs::read_dir(root.join("src"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().is_dir() && e.file_name() != "cli")
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(
        sorted, folders,
        "src/lib.rs's map and src/'s folders differ"
    );
    // each bullet lists only layers above it: no circle between folders
    for (i, (name, imports)) in map.iter().enumerate() {
        for import in imports {
            let above = names[..i].contains(import);
            assert!(
                above,
                "the map says `{name}` imports `{import}`, not above it"
            );
        }
    }
    // the code imports only what its bullet lists
    let actual = actual_imports(&root.join("src"), &names);
    let mut wrong = Vec::new();
    for (name, imports) in &map {
        for (import, file) in &actual[name] {
            if !imports.contains(import) {
                wrong.push(format!("{} uses crate::{import}", file.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports the map does not list:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_map_reader_reads_what_the_map_says() {
    let lib = "//! Layers:\n//!\n//! - `a`: bytes; imports nothing.\n//! - `b`: the b, \
               [`a::X`]; imports `a` (never\n//!   `c`).\n//! - `c`: all; imports all of the \
               above.\n//!\n//! The binary.\n";
    let map = declared_map(lib);
    let as_lists: Vec<(String, Vec<String>)> = map
        .into_iter()
        .map(|(n, i)| (n, i.into_iter().collect()))
        .collect();
    assert_eq!(
        as_lists,
        vec![
            ("a".to_string(), vec![]),
            ("b".to_string(), vec!["a".to_string()]),
            ("c".to_string(), vec!["a".to_string(), "b".to_string()]),
        ]
    );
    let text = "use x;\n// crate::d::\nfn f() {}\n#[cfg(test)]\nmod t { use crate::e::X; }";
    assert_eq!(code_of(text), "use x;\nfn f() {}");
}

/// The files of one folder (their stems) and which of them each names through `super::` or
/// `crate::FOLDER::` in its non-test code.
fn file_graph(folder: &Path, module_path: &str) -> BTreeMap<String, BTreeSet<String>> {
    let stems: BTreeSet<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|s| s != "mod" && s != "tests" && !s.ends_with("_tests"))
        .collect();
    let mut graph = BTreeMap::new();
    for stem in &stems {
        let code = code_of(&std::fs::read_to_string(folder.join(format!("{stem}.rs"))).unwrap());
        let names: BTreeSet<String> = stems
            .iter()
            .filter(|other| *other != stem)
            .filter(|other| {
                code.contains(&format!("super::{other}::"))
                    || code.contains(&format!("super::{other};"))
                    || code.contains(&format!("crate::{module_path}::{other}::"))
            })
            .cloned()
            .collect();
        graph.insert(stem.clone(), names);
    }
    graph
}

/// The circles of a graph: its strongly connected parts of more than one file, each sorted.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<BTreeSet<String>> {
    // reachability by a walk from each file (folders hold tens of files)
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(f) = todo.pop() {
            for g in &graph[&f] {
                if seen.insert(g.clone()) {
                    todo.push(g.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|f| (f, reach(f))).collect();
    let mut out = BTreeSet::new();
    for f in graph.keys() {
        let part: BTreeSet<String> = graph
            .keys()
            .filter(|g| *g == f || (reaches[f].contains(*g) && reaches[*g].contains(f)))
            .cloned()
            .collect();
        if part.len() > 1 {
            out.insert(part);
        }
    }
    out
}

/// No folder of `src/` holds a circle of files that name each other (#34 broke the last ones,
/// by moving the items both sides used down into a leaf file): a new one fails.
#[test]
fn no_circle_of_files_inside_a_folder() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut folders = vec![src.clone()];
    let mut found = BTreeSet::new();
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            }
        }
        let rel = folder
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for circle in circles(&file_graph(&folder, &rel.replace('/', "::"))) {
            found.insert((rel.clone(), circle.into_iter().collect::<Vec<_>>()));
        }
    }
    assert!(
        found.is_empty(),
        "circles of files (break them: move what both sides use down into a leaf file): {found:?}"
    );
}

/// The files and subfolders of one folder (`module_path` below `crate`) and which of them
/// each names in its non-test code: a subfolder names what any file under it names, through
/// `crate::FOLDER::` or as many `super::` as it is deep.
fn part_graph(folder: &Path, module_path: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut parts: BTreeMap<String, Vec<(PathBuf, usize)>> = BTreeMap::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut files = Vec::new();
            rust_files(&path, &mut files);
            let files = files.into_iter().filter(|f| {
                let stem = f.file_stem().unwrap().to_string_lossy();
                stem != "tests" && !stem.ends_with("_tests")
            });
            // `super::` steps from a file under the subfolder up to this folder
            let depth = |f: &Path| {
                let below = f.strip_prefix(folder).unwrap().components().count() - 1;
                below + usize::from(f.file_name().unwrap() != "mod.rs")
            };
            let files = files.map(|f| (f.clone(), depth(&f))).collect();
            parts.entry(name).or_default().extend::<Vec<_>>(files);
        } else if path.extension().is_some_and(|e| e == "rs")
            && name != "mod"
            && name != "tests"
            && !name.ends_with("_tests")
        {
            parts.entry(name).or_default().push((path, 1));
        }
    }
    let mut graph = BTreeMap::new();
    for (name, files) in &parts {
        let mut names = BTreeSet::new();
        for (file, depth) in files {
            let code = code_of(&std::fs::read_to_string(file).unwrap());
            let up = "super::".repeat(*depth);
            for other in parts.keys().filter(|o| *o != name) {
                let named = [
                    format!("{up}{other}::"),
                    format!("{up}{other};"),
                    format!("crate::{module_path}::{other}::"),
                    format!("crate::{module_path}::{other};"),
                ]
                .iter()
                .any(|p| code.contains(p.as_str()));
                if named {
                    names.insert(other.clone());
                }
            }
        }
        graph.insert(name.clone(), names);
    }
    graph
}

/// The circles between the subfolders and files of one folder that are known and still to
/// be broken (#34): the doctor's findings and the report that lists them; the decoder's
/// natural views and the collections read through the decoder; the interpreter's parts,
/// whose values hold host objects that call back into the evaluator. A new circle fails,
/// and a broken one must leave this list.
const KNOWN_PART_CIRCLES: &[(&str, &[&str])] = &[
    ("analysis", &["doctor", "report"]),
    ("heap", &["collections", "value"]),
    (
        "script",
        &["check", "compile", "eval", "host", "lib", "value"],
    ),
];

#[test]
fn no_new_circle_of_subfolders_inside_a_folder() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut folders = Vec::new();
    let mut todo = vec![src.clone()];
    while let Some(folder) = todo.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path.clone());
                folders.push(path);
            }
        }
    }
    // src/ itself is the layer map's (the_layer_map_is_true_and_points_one_way)
    let mut found = BTreeSet::new();
    for folder in folders {
        let rel = folder
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for circle in circles(&part_graph(&folder, &rel.replace('/', "::"))) {
            found.insert((rel.clone(), circle.into_iter().collect::<Vec<_>>()));
        }
    }
    let known: BTreeSet<(String, Vec<String>)> = KNOWN_PART_CIRCLES
        .iter()
        .map(|(f, parts)| (f.to_string(), parts.iter().map(|s| s.to_string()).collect()))
        .collect();
    let new: Vec<_> = found.difference(&known).collect();
    let gone: Vec<_> = known.difference(&found).collect();
    assert!(
        new.is_empty(),
        "new circles of subfolders and files: {new:?}"
    );
    assert!(
        gone.is_empty(),
        "circles broken: take them off KNOWN_PART_CIRCLES: {gone:?}"
    );
}

#[test]
fn the_circle_finder_finds_circles_only() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a", "d"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(f, to)| (f.to_string(), to.into_iter().map(String::from).collect()))
    .collect();
    let expect: BTreeSet<BTreeSet<String>> =
        [["a", "b", "c"].into_iter().map(String::from).collect()].into();
    assert_eq!(circles(&graph), expect);
}
