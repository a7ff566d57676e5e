//! The heap doctor's findings in the report page (`mo-mem doctor`, `docs/doctor.md`): one
//! more sortable table, between the suspects and the variables, each row a finding with its
//! saving, where it sits, what was found and the advice.

use super::page::Page;
use super::table::{Cell, Sort, Table};

/// One finding of the heap doctor: a check that matched, what it covers, what fixing it
/// would save, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The check's name.
    pub check: String,
    /// Objects it covers.
    pub objects: u64,
    /// Bytes it covers.
    pub bytes: u64,
    /// Bytes fixing it would save.
    pub saving_bytes: u64,
    /// Paths from a root to where it is.
    pub where_: Vec<String>,
    /// What it found, in words.
    pub detail: String,
}

impl From<&crate::analysis::doctor::Finding> for Finding {
    /// The page's row of one of the heap doctor's findings.
    fn from(f: &crate::analysis::doctor::Finding) -> Finding {
        Finding {
            check: f.check.to_string(),
            objects: f.objects,
            bytes: f.bytes,
            saving_bytes: f.saving_bytes,
            where_: f.where_.clone(),
            detail: format!("{} {}", f.detail, f.advice).trim().to_string(),
        }
    }
}

/// How many paths of one finding the table shows.
const MAX_WHERE: usize = 5;

/// Adds the findings section to `page` if there are findings to show (`None`: the doctor
/// did not run); whether it did.
pub fn findings_section(page: &mut Page, findings: Option<&[Finding]>) -> bool {
    let Some(findings) = findings else {
        return false;
    };
    let out = page.section("findings", "Findings of the heap doctor");
    let mut t = Table::new(
        "findings-table",
        "largest saving first",
        &[
            ("check", Sort::Text),
            ("objects", Sort::Num),
            ("bytes", Sort::Num),
            ("saving bytes", Sort::Num),
            ("where", Sort::Text),
            ("detail", Sort::Text),
        ],
    )
    .of_total(findings.len());
    for f in findings {
        let mut places: Vec<String> = f.where_.iter().take(MAX_WHERE).cloned().collect();
        if f.where_.len() > MAX_WHERE {
            places.push(format!("(and {} more)", f.where_.len() - MAX_WHERE));
        }
        t.push(vec![
            Cell::Text(f.check.clone()),
            Cell::Int(i128::from(f.objects)),
            Cell::Int(i128::from(f.bytes)),
            Cell::Int(i128::from(f.saving_bytes)),
            Cell::Path((!places.is_empty()).then(|| places.join("\n"))),
            Cell::Text(f.detail.clone()),
        ]);
    }
    if t.is_empty() {
        out.push_str("<p>The doctor found nothing.</p>\n");
    } else {
        t.html(out);
    }
    page.end_section();
    true
}
