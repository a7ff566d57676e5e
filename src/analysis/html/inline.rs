//! inferno's flame graph SVG made an element of the page: the XML prologue (declaration,
//! doctype) and comments dropped, and no `://` left outside the XML namespace declarations
//! (in the script `:/\/`, the same string to JavaScript; elsewhere `:&#47;/`, the same text to
//! the parser), so the file names no URL a reader could follow or a browser could fetch. The
//! script's text and its `onload` handler are kept exactly, and returned for the page's
//! Content Security Policy (which allows those and nothing else to run).

use super::HtmlError;

/// The SVG as page markup, and what the page's policy must allow of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlineSvg {
    /// The `<svg>` element.
    pub markup: String,
    /// The text of each `<script>` element in it (the concatenation of its CDATA sections).
    pub scripts: Vec<String>,
    /// The event handler attributes' values (inferno's `init(evt)`).
    pub handlers: Vec<String>,
}

/// The only event handler inferno's picture carries (on its root).
const INIT_HANDLER: &str = "init(evt)";

/// `svg` (written by inferno) as an element of the page.
pub fn inline_svg(svg: &[u8]) -> Result<InlineSvg, HtmlError> {
    let svg = std::str::from_utf8(svg).map_err(|_| HtmlError::Svg("not UTF-8"))?;
    let start = svg.find("<svg").ok_or(HtmlError::Svg("no <svg> element"))?;
    let mut rest = &svg[start..];
    let mut out = InlineSvg {
        markup: String::with_capacity(rest.len()),
        scripts: Vec::new(),
        handlers: Vec::new(),
    };
    let mut script: Option<String> = None;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("<!--") {
            let end = after
                .find("-->")
                .ok_or(HtmlError::Svg("unclosed comment"))?;
            rest = &after[end + 3..];
        } else if let Some(after) = rest.strip_prefix("<![CDATA[") {
            let end = after.find("]]>").ok_or(HtmlError::Svg("unclosed CDATA"))?;
            let text = after[..end].replace("://", r":/\/");
            out.markup.push_str("<![CDATA[");
            out.markup.push_str(&text);
            out.markup.push_str("]]>");
            if let Some(s) = &mut script {
                s.push_str(&text);
            }
            rest = &after[end + 3..];
        } else if rest.starts_with("<script") {
            script = Some(String::new());
            out.markup.push_str("<script");
            rest = &rest["<script".len()..];
        } else if rest.starts_with("</script>") {
            out.scripts.extend(script.take());
            out.markup.push_str("</script>");
            rest = &rest["</script>".len()..];
        } else if rest.starts_with("://") {
            match in_namespace_declaration(&out.markup) {
                true => out.markup.push_str("://"),
                false => out.markup.push_str(":&#47;/"),
            }
            rest = &rest[3..];
        } else {
            let c = rest.chars().next().unwrap_or('\0');
            out.markup.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    if out.markup.contains(&format!("onload=\"{INIT_HANDLER}\"")) {
        out.handlers.push(INIT_HANDLER.to_string());
    }
    Ok(out)
}

/// Whether `markup` ends inside an XML namespace declaration's value, just after its scheme
/// (`xmlns="http`, `xmlns:fg="https`).
fn in_namespace_declaration(markup: &str) -> bool {
    let Some(at) = markup.rfind(" xmlns") else {
        return false;
    };
    let tail = &markup[at + " xmlns".len()..];
    let Some(value) = tail.find("=\"").map(|i| (&tail[..i], &tail[i + 2..])) else {
        return false;
    };
    let (prefix, scheme) = value;
    let prefix_ok = prefix.is_empty()
        || prefix
            .strip_prefix(':')
            .is_some_and(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric()));
    prefix_ok && matches!(scheme, "http" | "https")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prologue_comments_and_urls_go_the_script_stays() {
        let svg = concat!(
            "<?xml version=\"1.0\"?><!DOCTYPE svg PUBLIC \"x\" \"http://w3.org/svg.dtd\">",
            "<svg onload=\"init(evt)\" xmlns=\"http://www.w3.org/2000/svg\" ",
            "xmlns:fg=\"http://github.com/jonhoo/inferno\"><!--See https://x.org/ for more-->",
            "<script type=\"text/ecmascript\"><![CDATA[var a = 1;]]><![CDATA[",
            "// https://web.dev/\nvar b = \"http://x\";]]></script>",
            "<title>vars.m.get(&quot;https://evil&quot;)</title></svg>"
        );
        let inline = inline_svg(svg.as_bytes()).unwrap();
        assert_eq!(
            inline.markup,
            concat!(
                "<svg onload=\"init(evt)\" xmlns=\"http://www.w3.org/2000/svg\" ",
                "xmlns:fg=\"http://github.com/jonhoo/inferno\">",
                "<script type=\"text/ecmascript\"><![CDATA[var a = 1;]]><![CDATA[",
                "// https:/\\/web.dev/\nvar b = \"http:/\\/x\";]]></script>",
                "<title>vars.m.get(&quot;https:&#47;/evil&quot;)</title></svg>"
            )
        );
        assert_eq!(
            inline.scripts,
            ["var a = 1;// https:/\\/web.dev/\nvar b = \"http:/\\/x\";"]
        );
        assert_eq!(inline.handlers, ["init(evt)"]);
    }

    #[test]
    fn broken_pictures_are_refused() {
        assert!(inline_svg(b"<g/>").is_err());
        assert!(inline_svg(b"<svg><!-- open").is_err());
        assert!(inline_svg(b"<svg><script><![CDATA[x").is_err());
        assert!(inline_svg(&[0xff, 0xfe]).is_err());
    }

    #[test]
    fn only_namespace_declarations_keep_their_scheme() {
        assert!(in_namespace_declaration("<svg xmlns=\"http"));
        assert!(in_namespace_declaration("<svg a=\"b\" xmlns:xlink=\"http"));
        assert!(!in_namespace_declaration("<svg xmlns=\"x\"><text>http"));
        assert!(!in_namespace_declaration("<svg xmlns:a b=\"http"));
        assert!(!in_namespace_declaration("<text>http"));
    }
}
