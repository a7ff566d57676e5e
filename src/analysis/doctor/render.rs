//! The doctor's report as text (`mo-mem doctor`, the mount's `analysis/doctor.txt`): plain
//! ASCII, at most 80 columns, the same bytes every run; and as JSON (`--json`,
//! `analysis/doctor.json`; schema: docs/schemas/doctor.schema.json).

use super::{DoctorReport, Finding};
use crate::analysis::report::{fit, human, percent, plural};

/// The text's width in columns.
const WIDTH: usize = 80;

impl DoctorReport {
    /// The report as text.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let saving: u64 = self.savings().map(|f| f.saving_bytes).sum();
        out.push_str(&format!(
            "heap doctor: {}, {} bytes to save ({}) of {} bytes live\n",
            plural(self.findings.len() as u64, "finding"),
            saving,
            human(saving),
            self.live_bytes
        ));
        for (i, f) in self.findings.iter().enumerate() {
            out.push('\n');
            finding(&mut out, i + 1, f, self.main_memory);
        }
        for s in &self.skipped {
            out.push('\n');
            wrap(&mut out, "", &format!("skipped {}: {}", s.check, s.reason));
        }
        if self.undecoded > 0 {
            out.push_str(&format!(
                "\n{} live objects did not decode: the figures cover the others\n",
                self.undecoded
            ));
        }
        out
    }

    /// The report as pretty JSON (a trailing newline).
    pub fn json(&self) -> Result<Vec<u8>, serde_json::Error> {
        crate::analysis::json::pretty(self)
    }

    /// The top `n` findings that save bytes, one line each (`mo-mem report`'s suspects).
    pub fn summary_lines(&self, n: usize) -> Vec<String> {
        self.savings()
            .take(n)
            .map(|f| {
                fit(
                    &format!(
                        "doctor {}: {} objects, saving {} bytes",
                        f.check, f.objects, f.saving_bytes
                    ),
                    WIDTH,
                )
            })
            .collect()
    }
}

/// One finding: its line of figures, detail, table, paths and advice.
fn finding(out: &mut String, i: usize, f: &Finding, main_memory: u64) {
    out.push_str(&fit(
        &format!(
            "{i}. {}: {}, {} bytes, saving {} bytes",
            f.check,
            plural(f.objects, "object"),
            f.bytes,
            f.saving_bytes
        ),
        WIDTH,
    ));
    out.push('\n');
    wrap(out, "   ", &f.detail);
    if !f.table.is_empty() {
        out.push_str(&format!(
            "   {:<34} {:>10} {:>14} {:>7}\n",
            "main memory", "objects", "bytes", "memory"
        ));
        for r in &f.table {
            let objects = r.objects.map_or(String::new(), |o| o.to_string());
            out.push_str(&format!(
                "   {:<34} {:>10} {:>14} {:>7}\n",
                fit(&r.part, 34),
                objects,
                r.bytes,
                percent(r.bytes, main_memory)
            ));
        }
        let total: u64 = f.table.iter().map(|r| r.bytes).sum();
        out.push_str(&format!(
            "   {:<34} {:>10} {:>14} {:>7}\n",
            "total",
            "",
            total,
            percent(total, main_memory)
        ));
    }
    for w in &f.where_ {
        out.push_str("   at ");
        out.push_str(&fit(w, WIDTH - 6));
        out.push('\n');
    }
    wrap(out, "   advice: ", &f.advice);
}

/// `text` after `first`, wrapped at word boundaries to the width, continuation lines
/// indented as deep as `first`, in ASCII.
fn wrap(out: &mut String, first: &str, text: &str) {
    let indent = " ".repeat(first.len());
    let mut line = first.to_string();
    let mut empty = true;
    for word in fit(text, usize::MAX).split(' ') {
        if !empty && line.len() + 1 + word.len() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = indent.clone();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(&fit(word, WIDTH - indent.len()));
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapped_lines_fit() {
        let mut out = String::new();
        let long = "word ".repeat(40) + &"x".repeat(200);
        wrap(&mut out, "   advice: ", &long);
        assert!(out.lines().all(|l| l.len() <= WIDTH), "{out}");
        assert!(out.lines().skip(1).all(|l| l.starts_with("           ")));
    }
}
