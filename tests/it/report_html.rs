//! The HTML pages (`mo-mem report --html`, `mo-mem diff --html`): on every committed fixture
//! a page is bounded, has no URL but XML namespaces, and is the library's page; opened from a
//! `file://` URL in headless Chromium with the network off, a page requests nothing but
//! itself, throws and logs no error (its Content Security Policy lets its two scripts run),
//! its tables hold the analysis's rows and paths (read back from the DOM), a click on a
//! column's header sorts the table (done by the page's script), the flame graph is laid out
//! and zooms on a click; hostile text from the heap (`</script><img onerror=...>` as a map
//! key) renders as text. Screenshots go to `target/report-html/`.

use crate::common;

#[path = "report_html_support/cdp.rs"]
mod cdp;

use std::path::{Path, PathBuf};

use mo_mem::analysis::diff::SnapshotDiff;
use mo_mem::analysis::html::report::TOP_OBJECTS;
use mo_mem::analysis::html::{diff_html, report_html, MAX_HTML_BYTES};
use mo_mem::analysis::progress::NoProgress;
use mo_mem::analysis::OpenedHeap;
use serde_json::{json, Value as Json};

use cdp::{artifacts, Browser, Page};

fn open(dir: &Path) -> OpenedHeap {
    OpenedHeap::open(dir).unwrap_or_else(|e| panic!("{dir:?}: {e}"))
}

/// Every `http://` or `https://` in `page` that is not the value of an XML namespace
/// declaration (`xmlns="http://..."`, `xmlns:fg="http://..."`), with what precedes it.
fn urls_outside_namespaces(page: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in page.match_indices("://") {
        let before = &page[at.saturating_sub(40)..at];
        let scheme_ok = before.ends_with("http") || before.ends_with("https");
        if !scheme_ok {
            continue;
        }
        let declared = before.rfind(" xmlns").is_some_and(|x| {
            let decl = &before[x + " xmlns".len()..];
            let (prefix, value) = decl.split_once("=\"").unwrap_or(("!", ""));
            let prefix_ok = prefix.is_empty()
                || prefix
                    .strip_prefix(':')
                    .is_some_and(|p| p.chars().all(|c| c.is_ascii_alphanumeric()));
            prefix_ok && (value == "http" || value == "https")
        });
        if !declared {
            found.push(page[at.saturating_sub(60)..(at + 40).min(page.len())].to_string());
        }
    }
    found
}

/// What every page is: an HTML document within the size limit, with its policy, naming no URL
/// but XML namespaces and no element that loads (`<img>`, `<link>`, `<iframe>`...) or CSS
/// `url(`.
fn check_static(page: &[u8], what: &str) {
    assert!(page.len() <= MAX_HTML_BYTES, "{what}: {} bytes", page.len());
    let text = std::str::from_utf8(page).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(text.starts_with("<!DOCTYPE html>\n"), "{what}");
    assert!(
        text.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"),
        "{what}: no policy"
    );
    assert_eq!(
        urls_outside_namespaces(text),
        Vec::<String>::new(),
        "{what}"
    );
    for loads in [
        "<link", "<iframe", "<img", "<object", "<embed", "<audio", "<video", "<source", "<image",
        "<use", "@import",
    ] {
        assert!(!text.contains(loads), "{what}: {loads}");
    }
    // inferno fills its background with its own gradient: `url(#background)`.
    for (at, _) in text.match_indices("url(") {
        assert!(
            text[at..].starts_with("url(#"),
            "{what}: a CSS url( out of the page"
        );
    }
    for (at, _) in text.match_indices("<a ") {
        assert!(
            text[at..].starts_with("<a href=\"#"),
            "{what}: a link out of the page"
        );
    }
    assert_eq!(text.matches("<script").count(), 2, "{what}: scripts");
}

#[test]
fn the_url_check_finds_urls_outside_namespaces() {
    let page = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:fg=\"http://x.org/i\">\
                <text>see https://evil.org/</text></svg><p>http://a</p>";
    assert_eq!(urls_outside_namespaces(page).len(), 2);
    assert!(urls_outside_namespaces("<svg xmlns=\"http://a\">").is_empty());
    assert!(urls_outside_namespaces("https:&#47;/a :/\\/b").is_empty());
}

#[test]
fn pages_are_bounded_and_name_no_url_but_xml_namespaces() {
    for (name, mode, dir) in common::all_fixtures() {
        let what = format!("{name}/{mode}");
        let opened = open(&dir);
        let a = opened.analysis().expect("analysis");
        let a = &*a;
        let page = report_html(&opened, a).unwrap_or_else(|e| panic!("{what}: {e}"));
        check_static(&page, &what);
        assert!(
            String::from_utf8_lossy(&page).contains("id=\"frames\""),
            "{what}: no flame graph"
        );
    }
    let (old, new) = (
        open(&common::fixture("growth1", "eop")),
        open(&common::fixture("growth3", "eop")),
    );
    let d = SnapshotDiff::compute(&old, &new, &NoProgress).unwrap();
    check_static(&diff_html(&old, &new, &d).unwrap(), "growth1..growth3");
}

/// Skips (fails under `MO_MEM_STRICT=1`) without Chromium.
fn chromium_ready() -> bool {
    common::machine::require(common::machine::chromium())
}

/// The text of every cell of column `col` of table `id`, top to bottom.
fn column(b: &mut Browser, page: &Page, id: &str, col: usize) -> Vec<String> {
    let v = b.eval(
        page,
        &format!(
            "Array.from(document.getElementById({}).tBodies[0].rows, r => r.cells[{col}].textContent)",
            json!(id)
        ),
    );
    serde_json::from_value(v).unwrap()
}

/// The sort keys (`data-v`) of column `col` of table `id`, as numbers.
fn keys(b: &mut Browser, page: &Page, id: &str, col: usize) -> Vec<f64> {
    let v = b.eval(
        page,
        &format!(
            "Array.from(document.getElementById({}).tBodies[0].rows, r => Number(r.cells[{col}].getAttribute('data-v')))",
            json!(id)
        ),
    );
    serde_json::from_value(v).unwrap()
}

/// Clicks the header of column `col` of table `id`; the header's `aria-sort` after it.
fn click_header(b: &mut Browser, page: &Page, id: &str, col: usize) -> Json {
    let th = format!("#{id} thead th:nth-child({})", col + 1);
    b.click_on(page, &th);
    b.eval(
        page,
        &format!(
            "document.querySelector({}).getAttribute('aria-sort')",
            json!(th)
        ),
    )
}

/// `names` in the order JavaScript's `<` puts them (UTF-16 code units).
fn js_sorted(names: &[String]) -> Vec<String> {
    let mut sorted = names.to_vec();
    sorted.sort_by(|x, y| x.encode_utf16().cmp(y.encode_utf16()));
    sorted
}

/// What every opened page must show: it requested only itself, nothing threw or was
/// logged as an error, the flame graph is laid out (its frames have widths) and zooms on a
/// click (inferno's script ran: its policy digest is right).
fn check_live(b: &mut Browser, page: &Page, what: &str) {
    let frames = b.eval(page, "document.querySelectorAll('#frames > g').length");
    assert!(frames.as_u64().unwrap() >= 2, "{what}: frames {frames}");
    let width = b.eval(
        page,
        "document.getElementById('frames').getBoundingClientRect().width",
    );
    assert!(
        width.as_f64().unwrap() > 500.0,
        "{what}: flame graph width {width}"
    );
    // The widest frame below the root, clicked: inferno zooms (its unzoom button shows).
    let hidden = "document.getElementById('unzoom').classList.contains('hide')";
    assert_eq!(b.eval(page, hidden), json!(true), "{what}");
    b.eval(
        page,
        "(() => { const gs = Array.from(document.querySelectorAll('#frames > g')); \
          const w = g => Number(g.querySelector('rect').getAttribute('fg:w')); \
          const top = Math.max(...gs.map(g => Number(g.querySelector('rect').getAttribute('y')))); \
          const below = gs.filter(g => Number(g.querySelector('rect').getAttribute('y')) != top); \
          const pick = below.sort((x, y) => w(y) - w(x))[0] || gs[0]; \
          pick.id = 'mm-test-frame'; return true; })()",
    );
    b.click_on(page, "#mm-test-frame rect");
    assert_eq!(
        b.eval(page, hidden),
        json!(false),
        "{what}: a click did not zoom"
    );
    let requests = b.requests(page);
    assert!(
        !requests.is_empty(),
        "{what}: the page itself was not requested?"
    );
    assert!(
        requests.iter().all(|r| r == &page.url),
        "{what}: requests beyond the page: {requests:?}"
    );
    assert_eq!(b.errors(page), Vec::<String>::new(), "{what}: errors");
}

#[test]
fn report_page_renders_sorts_and_fetches_nothing() {
    if !chromium_ready() {
        return;
    }
    let dir = common::fixture("compound", "eop");
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("report.html");
    common::mo_mem_ok(&[
        "report",
        dir.to_str().unwrap(),
        "--html",
        file.to_str().unwrap(),
    ]);
    let bytes = std::fs::read(&file).unwrap();
    let opened = open(&dir);
    let a = opened.analysis().unwrap();
    let a = &*a;
    assert!(
        bytes == report_html(&opened, a).unwrap(),
        "CLI page differs from the library's"
    );
    let mut b = Browser::launch();
    let page = b.open(&file);
    let what = "compound/eop report";
    b.screenshot(&page, &artifacts().join("report-compound-eop.png"));
    // The tables hold the analysis's rows, their text read back as it was.
    let vars: Vec<String> = a.vars().iter().map(|v| v.name.clone()).collect();
    assert_eq!(column(&mut b, &page, "vars-table", 0), vars, "{what}");
    let top = a.top(opened.heap(), TOP_OBJECTS);
    let paths: Vec<String> = top
        .iter()
        .map(|r| a.path_text(&opened, r.node).unwrap_or("-".into()))
        .collect();
    assert_eq!(column(&mut b, &page, "objects-table", 7), paths, "{what}");
    let types: Vec<String> = a
        .types(&opened)
        .iter()
        .map(|t| match t.typed {
            true => t.name.clone(),
            false => format!("<{}>", t.name),
        })
        .collect();
    assert_eq!(column(&mut b, &page, "types-table", 0), types, "{what}");
    let live = a.live().bytes;
    let total = b.eval(
        &page,
        "document.getElementById('frames').getAttribute('total_samples')",
    );
    assert_eq!(total, json!(live.to_string()), "{what}: flame graph total");
    // Sorting by name, then by retained bytes (largest first, then reversed).
    assert_eq!(
        click_header(&mut b, &page, "vars-table", 0),
        json!("ascending")
    );
    assert_eq!(
        column(&mut b, &page, "vars-table", 0),
        js_sorted(&vars),
        "{what}"
    );
    assert_eq!(
        click_header(&mut b, &page, "types-table", 0),
        json!("ascending")
    );
    assert_eq!(
        column(&mut b, &page, "types-table", 0),
        js_sorted(&types),
        "{what}"
    );
    assert_eq!(
        click_header(&mut b, &page, "vars-table", 4),
        json!("descending")
    );
    let mut retained: Vec<f64> = a.vars().iter().map(|v| v.retained.bytes as f64).collect();
    retained.sort_by(|x, y| y.total_cmp(x));
    assert_eq!(keys(&mut b, &page, "vars-table", 4), retained, "{what}");
    assert_eq!(
        click_header(&mut b, &page, "vars-table", 4),
        json!("ascending")
    );
    retained.reverse();
    assert_eq!(keys(&mut b, &page, "vars-table", 4), retained, "{what}");
    check_live(&mut b, &page, what);
    b.eval(
        &page,
        "document.getElementById('flame').scrollIntoView(); true",
    );
    b.screenshot(&page, &artifacts().join("report-compound-eop-flame.png"));
}

#[test]
fn diff_page_renders_sorts_and_fetches_nothing() {
    if !chromium_ready() {
        return;
    }
    let (old_dir, new_dir) = (
        common::fixture("growth1", "eop"),
        common::fixture("growth3", "eop"),
    );
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("diff.html");
    common::mo_mem_ok(&[
        "diff",
        old_dir.to_str().unwrap(),
        new_dir.to_str().unwrap(),
        "--html",
        file.to_str().unwrap(),
    ]);
    let bytes = std::fs::read(&file).unwrap();
    let (old, new) = (open(&old_dir), open(&new_dir));
    let d = SnapshotDiff::compute(&old, &new, &NoProgress).unwrap();
    assert!(
        bytes == diff_html(&old, &new, &d).unwrap(),
        "CLI page differs from the library's"
    );
    let mut b = Browser::launch();
    let page = b.open(&file);
    let what = "growth1..growth3 diff";
    b.screenshot(&page, &artifacts().join("diff-growth1-growth3.png"));
    let suspects: Vec<String> = d.suspects.iter().map(|s| s.name.clone()).collect();
    assert!(!suspects.is_empty(), "{what}: the growth fixture grows");
    assert_eq!(
        column(&mut b, &page, "suspects-table", 1),
        suspects,
        "{what}"
    );
    let paths: Vec<String> = d
        .suspects
        .iter()
        .map(|s| s.path.clone().unwrap_or("-".into()))
        .collect();
    assert_eq!(column(&mut b, &page, "suspects-table", 5), paths, "{what}");
    let vars: Vec<String> = d.vars.iter().map(|v| v.name.clone()).collect();
    assert_eq!(column(&mut b, &page, "vars-table", 0), vars, "{what}");
    // The types by retained change, largest growth first.
    assert_eq!(
        click_header(&mut b, &page, "types-table", 6),
        json!("descending")
    );
    let mut grew: Vec<f64> = d.types.iter().map(|t| t.retained_delta() as f64).collect();
    grew.sort_by(|x, y| y.total_cmp(x));
    assert_eq!(keys(&mut b, &page, "types-table", 6), grew, "{what}");
    check_live(&mut b, &page, what);
}

/// The on-demand fixture whose heap holds markup and script as text.
fn hostile() -> Option<PathBuf> {
    common::generated_fixture("hostile-html").map(|root| root.join("eop"))
}

#[test]
fn hostile_text_from_the_heap_renders_as_text() {
    if !chromium_ready() {
        return;
    }
    let Some(dir) = hostile() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("report.html");
    common::mo_mem_ok(&[
        "report",
        dir.to_str().unwrap(),
        "--html",
        file.to_str().unwrap(),
    ]);
    let bytes = std::fs::read(&file).unwrap();
    check_static(&bytes, "hostile-html");
    let text = String::from_utf8(bytes).unwrap();
    assert!(
        !text.contains("<script>window.__pwned"),
        "hostile script in the page"
    );
    // The key is in the top objects' paths, as text.
    let opened = open(&dir);
    let a = opened.analysis().unwrap();
    let a = &*a;
    let payload = "</script><img src=x onerror=";
    let paths: Vec<String> = a
        .top(opened.heap(), TOP_OBJECTS)
        .iter()
        .map(|r| a.path_text(&opened, r.node).unwrap_or("-".into()))
        .collect();
    let (row, path) = paths
        .iter()
        .enumerate()
        .find(|(_, p)| p.contains(payload))
        .unwrap_or_else(|| panic!("no top object under the hostile key: {paths:?}"));
    let mut b = Browser::launch();
    let page = b.open(&file);
    let what = "hostile-html report";
    assert_eq!(
        column(&mut b, &page, "objects-table", 7)[row],
        *path,
        "{what}"
    );
    assert_eq!(
        b.eval(&page, "document.querySelectorAll('img').length"),
        json!(0)
    );
    assert_eq!(
        b.eval(&page, "document.querySelectorAll('script').length"),
        json!(2)
    );
    assert_eq!(b.eval(&page, "typeof window.__pwned"), json!("undefined"));
    let body = b.eval(&page, "document.body.textContent");
    assert!(
        body.as_str().unwrap().contains(payload),
        "{what}: the key is not shown as text"
    );
    check_live(&mut b, &page, what);
    b.eval(
        &page,
        &format!(
            "document.querySelector('#objects-table tbody tr:nth-child({})').scrollIntoView(); true",
            row + 1
        ),
    );
    b.screenshot(&page, &artifacts().join("report-hostile-html.png"));
}
