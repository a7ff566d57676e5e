//! File names: what a valid name is, and how arbitrary labels become unique valid names.

use std::collections::HashSet;

/// The longest file name, in bytes (Linux `NAME_MAX`).
pub const NAME_MAX: usize = 255;

/// Whether `name` can be a file name: non-empty, not `.`/`..`, no `/` or NUL, short enough.
pub fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name.len() <= NAME_MAX
        && !name.contains(['/', '\0'])
}

/// Turns an arbitrary label into a valid file name: `/` and control characters become
/// `_`, `.`/`..`/empty get a `_` prefix, and an over-long name is cut (at a character
/// boundary) and ends with a short hash of the whole label.
pub fn sanitize(label: &str) -> String {
    let mut name: String = label
        .chars()
        .map(|c| if c == '/' || c.is_control() { '_' } else { c })
        .collect();
    if name.is_empty() || name == "." || name == ".." {
        name.insert(0, '_');
    }
    if name.len() > NAME_MAX {
        let hash = fnv1a(label.as_bytes());
        let suffix = format!("~{hash:016x}");
        let mut cut = NAME_MAX - suffix.len();
        while !name.is_char_boundary(cut) {
            cut -= 1;
        }
        name.truncate(cut);
        name.push_str(&suffix);
    }
    name
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Hands out unique names: a name already given gets a `~2`, `~3`, ... suffix.
#[derive(Default)]
pub struct UniqueNames {
    taken: HashSet<String>,
}

impl UniqueNames {
    /// Reserves a name so that [`UniqueNames::claim`] never returns it.
    pub fn reserve(&mut self, name: &str) {
        self.taken.insert(name.to_string());
    }

    /// A unique valid name for `label`.
    pub fn claim(&mut self, label: &str) -> String {
        let base = sanitize(label);
        if self.taken.insert(base.clone()) {
            return base;
        }
        for n in 2u64.. {
            let suffix = format!("~{n}");
            let mut cut = base.len().min(NAME_MAX - suffix.len());
            while !base.is_char_boundary(cut) {
                cut -= 1;
            }
            let candidate = format!("{}{suffix}", &base[..cut]);
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
        }
        unreachable!("u64 suffixes are not exhausted")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizes_labels_into_valid_names() {
        assert_eq!(sanitize("a/b"), "a_b");
        assert_eq!(sanitize(".."), "_..");
        assert_eq!(sanitize(""), "_");
        assert_eq!(sanitize("x\ny"), "x_y");
        let long = "é".repeat(300);
        let name = sanitize(&long);
        assert!(is_valid_name(&name), "{}", name.len());
        assert_ne!(sanitize(&"a".repeat(300)), sanitize(&"a".repeat(301)));
    }

    #[test]
    fn unique_names_get_suffixes() {
        let mut names = UniqueNames::default();
        names.reserve("README");
        assert_eq!(names.claim("README"), "README~2");
        assert_eq!(names.claim("a"), "a");
        assert_eq!(names.claim("a"), "a~2");
        assert_eq!(names.claim("a/"), "a_");
    }
}
