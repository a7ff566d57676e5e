//! The page around the sections: the document head (title, inline style, and a Content
//! Security Policy that lets nothing be fetched and nothing run but the page's own script
//! and the flame graph's, named by their SHA-256 digests), the sections in order, the
//! sorting script at the end.

use sha2::{Digest, Sha256};

use super::escape::{base64, escape};
use super::inline::InlineSvg;
use super::{HtmlError, MAX_HTML_BYTES};

/// The page's stylesheet.
const STYLE: &str = include_str!("page.css");

/// The page's script: sorting the tables.
const SORT_SCRIPT: &str = include_str!("sort.js");

/// A page being built: its title, the sections' HTML, what its policy allows to run.
pub struct Page {
    title: String,
    subtitle: String,
    body: String,
    scripts: Vec<String>,
    handlers: Vec<String>,
}

impl Page {
    /// An empty page titled `title` (a line `subtitle` under it).
    pub fn new(title: &str, subtitle: &str) -> Page {
        Page {
            title: title.to_string(),
            subtitle: subtitle.to_string(),
            body: String::new(),
            scripts: vec![SORT_SCRIPT.to_string()],
            handlers: Vec::new(),
        }
    }

    /// Opens section `id` titled `title`; the section's HTML follows through [`Page::html`].
    pub fn section(&mut self, id: &str, title: &str) -> &mut String {
        self.body.push_str(&format!(
            "<section id=\"{}\">\n<h2>{}</h2>\n",
            escape(id),
            escape(title)
        ));
        &mut self.body
    }

    /// Closes the open section.
    pub fn end_section(&mut self) {
        self.body.push_str("</section>\n");
    }

    /// Adds a flame graph (an inferno picture made an element) to the open section, and its
    /// script and handler to what the page allows to run.
    pub fn flame(&mut self, svg: InlineSvg) {
        self.body.push_str("<div class=\"mm-flame\">\n");
        self.body.push_str(&svg.markup);
        self.body.push_str("\n</div>\n");
        self.scripts.extend(svg.scripts);
        self.handlers.extend(svg.handlers);
    }

    /// The whole document (refused if larger than [`MAX_HTML_BYTES`], which the tables' and
    /// the flame graph's limits keep it under).
    pub fn finish(self, toc: &[(&str, &str)]) -> Result<Vec<u8>, HtmlError> {
        let mut policy = String::from("default-src 'none'; style-src 'unsafe-inline'; script-src");
        for s in &self.scripts {
            policy.push_str(&format!(" 'sha256-{}'", digest(s)));
        }
        if !self.handlers.is_empty() {
            policy.push_str(" 'unsafe-hashes'");
            for h in &self.handlers {
                policy.push_str(&format!(" 'sha256-{}'", digest(h)));
            }
        }
        policy.push_str("; base-uri 'none'; form-action 'none'");
        let mut out = String::with_capacity(self.body.len() + 16 * 1024);
        out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        out.push_str(&format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">\n"
        ));
        out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        out.push_str("<meta name=\"generator\" content=\"mo-mem\">\n");
        out.push_str(&format!("<title>{}</title>\n", escape(&self.title)));
        out.push_str(&format!("<style>\n{STYLE}</style>\n</head>\n<body>\n"));
        out.push_str(&format!(
            "<header>\n<h1>{}</h1>\n<p class=\"mm-sub\">{}</p>\n<nav class=\"mm-toc\">",
            escape(&self.title),
            escape(&self.subtitle)
        ));
        for (id, name) in toc {
            out.push_str(&format!("<a href=\"#{}\">{}</a>", escape(id), escape(name)));
        }
        out.push_str("</nav>\n</header>\n<main>\n");
        out.push_str(&self.body);
        out.push_str(
            "</main>\n<footer>Made by mo-mem; one self-contained file: it fetches nothing. \
             Click a column's header to sort its table; click a frame of the flame graph to \
             zoom into it; Ctrl-F searches the flame graph's frames (inferno's script takes \
             it on this page).</footer>\n",
        );
        out.push_str(&format!(
            "<script>{SORT_SCRIPT}</script>\n</body>\n</html>\n"
        ));
        match out.len() {
            bytes if bytes > MAX_HTML_BYTES => Err(HtmlError::TooLarge { bytes }),
            _ => Ok(out.into_bytes()),
        }
    }
}

/// The base64 SHA-256 of `text` (a CSP source's digest).
fn digest(text: &str) -> String {
    base64(&Sha256::digest(text.as_bytes()))
}
