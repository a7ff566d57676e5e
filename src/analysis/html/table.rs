//! Sortable tables: a header of columns (numeric or text), rows of cells, each cell's text
//! escaped and its sort key in `data-v`; the page's script sorts a table when a header is
//! clicked. At most [`MAX_ROWS`] rows (a longer table says how many rows it leaves out), each
//! cell's text at most [`MAX_CELL_CHARS`] characters (a longer one is cut in the middle, at
//! `…`), so a table's size is bounded whatever the heap holds.

use super::escape::escape;

/// The most rows a table shows (the page's size stays bounded on any heap).
pub const MAX_ROWS: usize = 300;

/// The most characters a cell shows (a path's first and last steps are kept).
pub const MAX_CELL_CHARS: usize = 300;

/// How a column sorts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    /// By number (largest first on the first click).
    Num,
    /// By text (in order on the first click).
    Text,
}

/// One cell: its text and, for a numeric column, its number.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Text.
    Text(String),
    /// A path from a root (monospace; `-` when there is none).
    Path(Option<String>),
    /// A whole number (written with thin-space thousands separators, sorted by value).
    Int(i128),
    /// A number and the text shown for it (`12.5%`).
    Shown(f64, String),
    /// Empty (sorted first in ascending order).
    Empty,
}

/// A table being built.
pub struct Table {
    id: String,
    caption: String,
    columns: Vec<(String, Sort)>,
    rows: Vec<Vec<Cell>>,
    pushed: usize,
    total: usize,
}

impl Table {
    /// An empty table `id` with `caption` and `columns`.
    pub fn new(id: &str, caption: &str, columns: &[(&str, Sort)]) -> Table {
        Table {
            id: id.to_string(),
            caption: caption.to_string(),
            columns: columns
                .iter()
                .map(|&(name, sort)| (name.to_string(), sort))
                .collect(),
            rows: Vec::new(),
            pushed: 0,
            total: 0,
        }
    }

    /// Sets how many rows there are in all (when only the first are pushed).
    pub fn of_total(mut self, total: usize) -> Table {
        self.total = total;
        self
    }

    /// Adds a row (dropped past [`MAX_ROWS`], counted in the total).
    pub fn push(&mut self, row: Vec<Cell>) {
        debug_assert_eq!(row.len(), self.columns.len());
        if self.rows.len() < MAX_ROWS {
            self.rows.push(row);
        }
        self.pushed += 1;
        self.total = self.total.max(self.pushed);
    }

    /// Whether the table shows no row.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The table as HTML (a note under it when rows are left out).
    pub fn html(&self, out: &mut String) {
        out.push_str(&format!(
            "<table class=\"mm-sortable\" id=\"{}\">\n<caption>{}</caption>\n<thead><tr>",
            escape(&self.id),
            escape(&self.caption)
        ));
        for (name, sort) in &self.columns {
            let kind = match sort {
                Sort::Num => "num",
                Sort::Text => "text",
            };
            out.push_str(&format!(
                "<th data-type=\"{kind}\" tabindex=\"0\" title=\"sort by {0}\">{0}</th>",
                escape(name)
            ));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for row in &self.rows {
            out.push_str("<tr>");
            for cell in row {
                cell_html(out, cell);
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
        if self.total > self.rows.len() {
            out.push_str(&format!(
                "<p class=\"mm-capped\">Showing the first {} of {} rows (the page keeps at \
                 most {MAX_ROWS} per table; the CLI's <code>--json</code> has them all).</p>\n",
                self.rows.len(),
                self.total
            ));
        }
    }
}

/// One `<td>`.
fn cell_html(out: &mut String, cell: &Cell) {
    match cell {
        Cell::Text(t) => out.push_str(&format!("<td>{}</td>", escape(&cut(t)))),
        Cell::Path(Some(p)) => {
            out.push_str(&format!("<td class=\"mm-path\">{}</td>", escape(&cut(p))))
        }
        Cell::Path(None) => out.push_str("<td class=\"mm-path\" data-v=\"\">-</td>"),
        Cell::Int(n) => out.push_str(&format!(
            "<td class=\"mm-num\" data-v=\"{n}\">{}</td>",
            grouped(*n)
        )),
        Cell::Shown(v, text) => out.push_str(&format!(
            "<td class=\"mm-num\" data-v=\"{}\">{}</td>",
            finite(*v),
            escape(&cut(text))
        )),
        Cell::Empty => out.push_str("<td data-v=\"\"></td>"),
    }
}

/// `text` if it has at most [`MAX_CELL_CHARS`] characters, else its start and end around `…`.
pub fn cut(text: &str) -> std::borrow::Cow<'_, str> {
    let n = text.chars().count();
    if n <= MAX_CELL_CHARS {
        return text.into();
    }
    let head = MAX_CELL_CHARS / 2;
    let tail = MAX_CELL_CHARS - head - 1;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(n - tail).collect();
    format!("{start}…{end}").into()
}

/// `v` as a number JavaScript reads (`0` for NaN and the infinities).
fn finite(v: f64) -> String {
    match v.is_finite() {
        true => format!("{v}"),
        false => "0".to_string(),
    }
}

/// `1234567` as `1 234 567` (thin spaces), `-1234` as `−1 234`.
pub fn grouped(n: i128) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() * 2);
    if n < 0 {
        out.push('\u{2212}');
    }
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{2009}');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_and_text_escaped() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1\u{2009}000");
        assert_eq!(grouped(-1_234_567), "\u{2212}1\u{2009}234\u{2009}567");
        let mut t = Table::new("t", "a <b>", &[("name", Sort::Text), ("bytes", Sort::Num)]);
        t.push(vec![Cell::Text("<i>".into()), Cell::Int(5)]);
        let mut out = String::new();
        t.html(&mut out);
        assert!(out.contains("<caption>a &lt;b&gt;</caption>"), "{out}");
        assert!(out.contains("<td>&lt;i&gt;</td><td class=\"mm-num\" data-v=\"5\">5</td>"));
        assert!(!out.contains("mm-capped"));
    }

    #[test]
    fn long_cells_keep_their_start_and_end() {
        assert_eq!(cut("vars.a.b"), "vars.a.b");
        let long = format!("vars.{}.end", "x".repeat(1000));
        let shown = cut(&long);
        assert_eq!(shown.chars().count(), MAX_CELL_CHARS);
        assert!(
            shown.starts_with("vars.xx") && shown.ends_with("xx.end"),
            "{shown}"
        );
        assert!(shown.contains('…'));
        let exact = "é".repeat(MAX_CELL_CHARS);
        assert_eq!(cut(&exact), exact);
    }

    #[test]
    fn long_tables_are_capped_and_say_so() {
        let mut t = Table::new("t", "c", &[("n", Sort::Num)]);
        for i in 0..MAX_ROWS + 7 {
            t.push(vec![Cell::Int(i as i128)]);
        }
        let mut out = String::new();
        t.html(&mut out);
        assert_eq!(out.matches("<tr>").count(), MAX_ROWS + 1);
        assert!(out.contains(&format!(
            "Showing the first {MAX_ROWS} of {} rows",
            MAX_ROWS + 7
        )));
    }
}
