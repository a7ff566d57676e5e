//! A small SVG line chart of a [`Trend`]: retained bytes of each variable over the
//! snapshots, one polyline per variable with a legend (hand-written: a few hundred bytes
//! per line, bounded by [`MAX_LINES`]).

use std::fmt::Write;

use super::trend::{Series, Trend};

/// The most lines a chart draws (the variables largest in any snapshot).
pub const MAX_LINES: usize = 12;

const W: f64 = 640.0;
const H: f64 = 360.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 180.0;
const TOP: f64 = 20.0;
const BOTTOM: f64 = 40.0;
const COLORS: [&str; MAX_LINES] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#393b79", "#637939",
];

/// `s` with XML's special characters escaped.
fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The chart of `trend`'s variables (or its types if it has no variables).
pub fn trend_svg(trend: &Trend) -> String {
    let mut lines: Vec<&Series> = if trend.vars.is_empty() {
        trend.types.iter().collect()
    } else {
        trend.vars.iter().collect()
    };
    lines.sort_by(|a, b| b.max().cmp(&a.max()).then_with(|| a.name.cmp(&b.name)));
    lines.truncate(MAX_LINES);
    let n = trend.snapshots.len();
    let top = lines.iter().map(|s| s.max()).max().unwrap_or(0).max(1);
    let (pw, ph) = (W - LEFT - RIGHT, H - TOP - BOTTOM);
    let x = |i: usize| {
        LEFT + if n > 1 {
            pw * i as f64 / (n - 1) as f64
        } else {
            pw / 2.0
        }
    };
    let y = |b: u64| TOP + ph - ph * b as f64 / top as f64;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<path d="M{LEFT} {TOP}V{}H{}" fill="none" stroke="black"/>"#,
        TOP + ph,
        LEFT + pw
    );
    for k in 0..=4u64 {
        let b = top * k / 4;
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{:.1}" text-anchor="end">{b}</text>"#,
            LEFT - 4.0,
            y(b) + 4.0
        );
    }
    for (i, name) in trend.snapshots.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">#{}<title>{}</title></text>"#,
            x(i),
            TOP + ph + 16.0,
            i + 1,
            xml(name)
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">snapshot (retained bytes)</text>"#,
        LEFT + pw / 2.0,
        H - 6.0
    );
    for (k, line) in lines.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        let points: Vec<String> = line
            .retained_bytes
            .iter()
            .enumerate()
            .filter_map(|(i, b)| b.map(|b| format!("{:.1},{:.1}", x(i), y(b))))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="2"><title>{}</title></polyline>"#,
            points.join(" "),
            xml(&line.name)
        );
        let ly = TOP + 14.0 * k as f64 + 6.0;
        let _ = writeln!(
            s,
            r#"<rect x="{}" y="{:.1}" width="10" height="3" fill="{color}"/><text x="{}" y="{:.1}">{}</text>"#,
            W - RIGHT + 10.0,
            ly,
            W - RIGHT + 24.0,
            ly + 4.0,
            xml(&line.name)
        );
    }
    s.push_str("</svg>\n");
    s
}
