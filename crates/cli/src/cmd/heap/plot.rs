//! `grundy heap --plot`: G(n) against n as SVG (with labels) or PNG.

use std::fmt::Write as _;
use std::path::Path;

use crate::common::{CliError, CliResult};
use grundy::heap::{describe_rule, Periodicity, Rule, Status};

/// Plot geometry: pixel size, margins, and the data ranges.
struct Frame {
    w: i32,
    h: i32,
    left: i32,
    right: i32,
    top: i32,
    bottom: i32,
    n: f64,
    vmax: f64,
}

impl Frame {
    fn x(&self, i: f64) -> i32 {
        self.left + ((self.w - self.left - self.right) as f64 * i / self.n) as i32
    }
    fn y(&self, v: f64) -> i32 {
        (self.h - self.bottom) - ((self.h - self.top - self.bottom) as f64 * v / self.vmax) as i32
    }
}

/// Draws the points, axes, ticks and the shaded periodic part (no text).
fn draw_plot<DB: plotters::prelude::DrawingBackend>(
    area: plotters::prelude::DrawingArea<DB, plotters::coord::Shift>,
    f: &Frame,
    values: &[u32],
    p: Option<&Periodicity>,
) -> Result<(), String> {
    use plotters::prelude::*;
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    area.fill(&WHITE).map_err(e)?;
    let base = f.h - f.bottom;
    if let Some(p) = p {
        let color = if p.status == Status::Proven {
            RGBColor(220, 245, 220)
        } else {
            RGBColor(235, 235, 235)
        };
        area.draw(&Rectangle::new(
            [(f.x(p.preperiod as f64), f.top), (f.x(f.n), base)],
            color.filled(),
        ))
        .map_err(e)?;
    }
    let axis = BLACK.stroke_width(1);
    area.draw(&PathElement::new(
        vec![(f.left, f.top), (f.left, base), (f.w - f.right, base)],
        axis,
    ))
    .map_err(e)?;
    for t in ticks(f.n as u64) {
        let tx = f.x(t as f64);
        area.draw(&PathElement::new(vec![(tx, base), (tx, base + 6)], axis))
            .map_err(e)?;
    }
    for t in ticks(f.vmax as u64) {
        let ty = f.y(t as f64);
        area.draw(&PathElement::new(
            vec![(f.left - 6, ty), (f.left, ty)],
            axis,
        ))
        .map_err(e)?;
    }
    let radius = if values.len() > 2000 { 1 } else { 2 };
    for (i, &v) in values.iter().enumerate() {
        area.draw(&Circle::new(
            (f.x(i as f64), f.y(v as f64)),
            radius,
            BLUE.filled(),
        ))
        .map_err(e)?;
    }
    area.present().map_err(e)
}

/// Draws G(n) against n to an SVG (with labels, written as plain SVG text: no fonts needed)
/// or a PNG (no text at all: the bitmap backend needs a font file to draw any, and we ship
/// none). The periodic part, when a period was found, is shaded: green when proven, grey when
/// observed.
pub(crate) fn write_plot(
    path: &Path,
    rule: &Rule,
    values: &[u32],
    p: Option<&Periodicity>,
) -> CliResult {
    use plotters::prelude::*;
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let f = Frame {
        w: 1000,
        h: 500,
        left: 70,
        right: 20,
        top: 40,
        bottom: 50,
        n: values.len().max(2) as f64 - 1.0,
        vmax: values.iter().copied().max().unwrap_or(0).max(1) as f64,
    };
    let size = (f.w as u32, f.h as u32);
    let fail = |e: String| CliError::failure(format!("cannot write plot {}: {e}", path.display()));
    match ext.as_deref() {
        Some("svg") => {
            let mut svg = String::new();
            draw_plot(
                SVGBackend::with_string(&mut svg, size).into_drawing_area(),
                &f,
                values,
                p,
            )
            .map_err(fail)?;
            let svg = add_svg_labels(svg, &f, rule, p);
            std::fs::write(path, svg).map_err(|e| fail(e.to_string()))
        }
        Some("png") => draw_plot(
            BitMapBackend::new(path, size).into_drawing_area(),
            &f,
            values,
            p,
        )
        .map_err(fail),
        _ => Err(CliError::usage(format!(
            "--plot '{}': the file name must end in .svg or .png",
            path.display()
        ))),
    }
}

/// Adds the title, tick numbers and axis names as SVG `<text>` elements.
fn add_svg_labels(svg: String, f: &Frame, rule: &Rule, p: Option<&Periodicity>) -> String {
    let title = match p {
        Some(p) => format!(
            "G(n) of {}: period {}, preperiod {}{} ({})",
            describe_rule(rule),
            p.period,
            p.preperiod,
            if p.saltus != 0 {
                format!(", saltus {}", p.saltus)
            } else {
                String::new()
            },
            p.status.as_str()
        ),
        None => format!("G(n) of {}", describe_rule(rule)),
    };
    let font = r#"font-family="sans-serif""#;
    let mut labels = format!(
        r#"<text x="{}" y="24" {font} font-size="16">{}</text>"#,
        f.left,
        escape(&title)
    );
    for t in ticks(f.n as u64) {
        let _ = write!(
            labels,
            r#"<text x="{}" y="{}" {font} font-size="12" text-anchor="middle">{t}</text>"#,
            f.x(t as f64),
            f.h - f.bottom + 20
        );
    }
    for t in ticks(f.vmax as u64) {
        let _ = write!(
            labels,
            r#"<text x="{}" y="{}" {font} font-size="12" text-anchor="end">{t}</text>"#,
            f.left - 10,
            f.y(t as f64) + 4
        );
    }
    let _ = write!(
        labels,
        r#"<text x="{}" y="{}" {font} font-size="14" text-anchor="middle">n</text><text x="16" y="{}" {font} font-size="14">G</text>"#,
        (f.w + f.left) / 2,
        f.h - 10,
        f.h / 2
    );
    match svg.rfind("</svg>") {
        Some(at) => format!("{}{labels}{}", &svg[..at], &svg[at..]),
        None => svg,
    }
}

/// About five round tick positions in 0..=max.
fn ticks(max: u64) -> Vec<u64> {
    let raw = (max / 5).max(1);
    let mag = 10u64.pow(raw.ilog10());
    let step = [1, 2, 5, 10]
        .iter()
        .map(|m| m * mag)
        .find(|&s| s >= raw)
        .unwrap_or(raw);
    (0..=max).step_by(step as usize).collect()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
