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
    write_plot_of(path, &describe_rule(rule), values, p)
}

/// [`write_plot`] for any sequence: `name` is what the title says it is G(n) of (`grundy
/// script --plot` names the script's game).
pub fn write_plot_of(
    path: &Path,
    name: &str,
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
            let svg = add_svg_labels(svg, &labels(&f, name, p));
            std::fs::write(path, svg).map_err(|e| fail(e.to_string()))
        }
        Some("png") => {
            // Drawn in memory first: a missing directory is reported by `image`, in words.
            let mut pixels = vec![0u8; size.0 as usize * size.1 as usize * 3];
            {
                let area = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
                draw_plot(area.clone(), &f, values, p).map_err(fail)?;
                draw_png_labels(&area, &labels(&f, name, p)).map_err(fail)?;
                area.present().map_err(|e| fail(e.to_string()))?;
            }
            let img = image::RgbImage::from_raw(size.0, size.1, pixels)
                .ok_or_else(|| fail("bad image buffer".into()))?;
            img.save_with_format(path, image::ImageFormat::Png)
                .map_err(|e| fail(io_words(e)))
        }
        _ => Err(CliError::usage(format!(
            "--plot {}: the file name must end in .svg or .png",
            grundy::text::quote(&path.to_string_lossy())
        ))),
    }
}

/// Where a label's x coordinate anchors it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Anchor {
    Start,
    Middle,
    End,
}

/// One piece of text on the plot: position (pixels), size, anchor, text.
struct Label {
    x: i32,
    y: i32,
    size: u32,
    anchor: Anchor,
    text: String,
}

/// The title, tick numbers and axis names, the same for SVG and PNG.
fn labels(f: &Frame, name: &str, p: Option<&Periodicity>) -> Vec<Label> {
    let title = match p {
        Some(p) => format!(
            "G(n) of {}: period {}, preperiod {}{} ({})",
            name,
            p.period,
            p.preperiod,
            if p.saltus != 0 {
                format!(", saltus {}", p.saltus)
            } else {
                String::new()
            },
            p.status.as_str()
        ),
        None => format!("G(n) of {name}"),
    };
    let label = |x, y, size, anchor, text: String| Label {
        x,
        y,
        size,
        anchor,
        text,
    };
    let mut out = vec![label(f.left, 24, 16, Anchor::Start, title)];
    for t in ticks(f.n as u64) {
        out.push(label(
            f.x(t as f64),
            f.h - f.bottom + 20,
            12,
            Anchor::Middle,
            t.to_string(),
        ));
    }
    for t in ticks(f.vmax as u64) {
        out.push(label(
            f.left - 10,
            f.y(t as f64) + 4,
            12,
            Anchor::End,
            t.to_string(),
        ));
    }
    out.push(label(
        (f.w + f.left) / 2,
        f.h - 10,
        14,
        Anchor::Middle,
        "heap size n".into(),
    ));
    out.push(label(16, f.h / 2, 14, Anchor::Start, "G(n)".into()));
    out
}

/// Adds the labels as SVG `<text>` elements (no font file needed: the viewer draws them).
fn add_svg_labels(svg: String, labels: &[Label]) -> String {
    let mut text = String::new();
    for l in labels {
        let anchor = match l.anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let _ = write!(
            text,
            r#"<text x="{}" y="{}" font-family="sans-serif" font-size="{}" text-anchor="{anchor}">{}</text>"#,
            l.x,
            l.y,
            l.size,
            escape(&l.text)
        );
    }
    match svg.rfind("</svg>") {
        Some(at) => format!("{}{text}{}", &svg[..at], &svg[at..]),
        None => svg,
    }
}

/// The font the PNG labels are drawn with, shipped in the binary (DejaVu Sans Mono; its
/// license is in `assets/DejaVu-LICENSE.txt`): a PNG needs glyphs, and no system font is assumed.
static FONT: &[u8] = include_bytes!("../../../assets/DejaVuSansMono.ttf");

/// Draws the labels onto a bitmap with the shipped font.
fn draw_png_labels<DB: plotters::prelude::DrawingBackend>(
    area: &plotters::prelude::DrawingArea<DB, plotters::coord::Shift>,
    labels: &[Label],
) -> Result<(), String> {
    use plotters::prelude::*;
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    REGISTERED.call_once(|| {
        let _ = plotters::style::register_font("grundy-mono", FontStyle::Normal, FONT);
    });
    for l in labels {
        let h = match l.anchor {
            Anchor::Start => HPos::Left,
            Anchor::Middle => HPos::Center,
            Anchor::End => HPos::Right,
        };
        let style = TextStyle::from(("grundy-mono", l.size as f64).into_font())
            .color(&BLACK)
            .pos(Pos::new(h, VPos::Bottom));
        area.draw(&Text::new(l.text.clone(), (l.x, l.y), style))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// An image error in words: the I/O cause when there is one ("No such file or directory").
fn io_words(e: image::ImageError) -> String {
    match e {
        image::ImageError::IoError(io) => io.to_string(),
        other => other.to_string(),
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
