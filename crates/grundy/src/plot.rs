//! Pictures of values, as SVG text or PNG bytes: a sequence G(0), G(1), … as points against
//! n (with its period shaded when one is known), or the table G(x, y) of a game of two heaps as
//! a grid of coloured cells (P-positions black).
//!
//! The library writes no file: [`values`], [`grid`] and [`sequence`] return the picture's bytes and the front end writes
//! them (`grundy heap kayles --upto 200 --plot k.svg`, `grundy wythoff --upto 399 --plot
//! w.png`; Python's `grundy.plot(values, "png")` hands the bytes to a notebook). The format
//! comes from a file name's extension ([`Format::of_path`]).
//!
//! ```
//! use grundy::catalogue::{Ask, Detail, Play, Registry};
//! use grundy::plot::{self, Format};
//!
//! let table = Registry::new().values("wythoff", 11, &Ask::new(Play::Normal))?;
//! let svg = plot::values(&table, Format::Svg)?;
//! assert!(String::from_utf8(svg).unwrap().contains("<svg"));
//! # Ok::<(), grundy::Error>(())
//! ```

use std::fmt::Write as _;

use plotters::prelude::*;

use crate::catalogue::{Error as CatalogueError, Values};
use crate::heap::{Periodicity, Status};
use crate::text::quote;
use crate::Result;

/// The picture's file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// SVG text, with labels (drawn by the viewer: no font needed).
    Svg,
    /// PNG bytes, labels drawn with the font shipped in the library.
    Png,
}

/// `svg` or `png` (any case), as Python's `grundy.plot(values, "png")` names it.
impl std::str::FromStr for Format {
    type Err = crate::Error;

    fn from_str(name: &str) -> Result<Format> {
        match name.trim().to_ascii_lowercase().as_str() {
            "svg" => Ok(Format::Svg),
            "png" => Ok(Format::Png),
            _ => Err(
                CatalogueError::input(format!("plot format {}: say svg or png", quote(name)))
                    .into(),
            ),
        }
    }
}

impl Format {
    /// The format a file name asks for by its extension (`.svg` or `.png`, any case); any
    /// other name is an input error naming it.
    pub fn of_path(path: &str) -> Result<Format> {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".svg") {
            Ok(Format::Svg)
        } else if lower.ends_with(".png") {
            Ok(Format::Png)
        } else {
            Err(CatalogueError::input(format!(
                "plot file {}: the name must end in .svg or .png",
                quote(path)
            ))
            .into())
        }
    }
}

/// The picture of a table of values ([`crate::catalogue::Registry::values`]): the points
/// G(n) against n for a line of positions, the grid G(x, y) for a game of two heaps. Positions
/// without a finite value (misère play, ∞ of a loopy game) are drawn as 0 in a line and by
/// their outcome in a grid (P black, N grey, D white).
pub fn values(values: &Values, format: Format) -> Result<Vec<u8>> {
    let misere = if values.misere { " (misère play)" } else { "" };
    match values.side {
        Some(side) => {
            let side = usize::try_from(side).unwrap_or(usize::MAX);
            let cells: Vec<Cell> = values
                .values
                .iter()
                .map(|v| match v.grundy.as_ref().and_then(|g| g.finite()) {
                    Some(g) => Cell::Value(g),
                    None => Cell::Outcome(v.outcome),
                })
                .collect();
            let title = format!("G(x, y) of {}{misere}: row x, column y", values.game);
            grid(&title, side, &cells, format)
        }
        None => {
            let points: Vec<u32> = values
                .values
                .iter()
                .map(|v| {
                    v.grundy
                        .as_ref()
                        .and_then(|g| g.finite())
                        .map_or(0, |g| u32::try_from(g).unwrap_or(u32::MAX))
                })
                .collect();
            sequence(&format!("{}{misere}", values.game), &points, None, format)
        }
    }
}

/// One cell of a [`grid`]: a value (0 black, a hue rising with the value), or where there is
/// none an outcome (P black, N grey, D white).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// The position's value.
    Value(u64),
    /// The position's outcome, where it has no finite value.
    Outcome(crate::Outcome),
}

/// The grid of `side` × `side` cells (row-major: row x, column y), one square each, under a
/// title: at most 800 pixels a side while cells are at least a pixel. `cells` shorter than
/// the grid leaves the rest white.
pub fn grid(title: &str, side: usize, cells: &[Cell], format: Format) -> Result<Vec<u8>> {
    let side = side.max(1);
    let cell = (800 / side).max(1) as u32;
    let top = 30u32;
    let size = (cell * side as u32, cell * side as u32 + top);
    let max = cells
        .iter()
        .filter_map(|c| match c {
            Cell::Value(v) => Some(*v),
            Cell::Outcome(_) => None,
        })
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let picture = Grid {
        side,
        cell,
        top,
        max,
        cells,
    };
    let labels = [Label {
        x: 4,
        y: 20,
        size: 14,
        anchor: Anchor::Start,
        text: title.to_string(),
    }];
    render(size, format, &labels, &picture)
}

/// The points G(n) against n, n = 0 … values.len() − 1, titled with `name` (a rule, a game),
/// axes with round ticks; `period`, when one is known, shades the periodic part (green when
/// proven, grey when observed) and goes into the title.
pub fn sequence(
    name: &str,
    values: &[u32],
    period: Option<&Periodicity>,
    format: Format,
) -> Result<Vec<u8>> {
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
    let picture = Points {
        frame: &f,
        values,
        period,
    };
    render(size, format, &labels(&f, name, period), &picture)
}

/// Something drawn the same way on either backend.
trait Picture {
    /// Draws the picture (without its labels) on `area`.
    fn draw<DB: DrawingBackend>(
        &self,
        area: DrawingArea<DB, plotters::coord::Shift>,
    ) -> std::result::Result<(), String>;
}

/// Draws `picture` on a canvas of `size` pixels, adds `labels` and encodes the result.
fn render(
    size: (u32, u32),
    format: Format,
    labels: &[Label],
    picture: &impl Picture,
) -> Result<Vec<u8>> {
    let fail = |e: String| crate::Error::from(CatalogueError::failure(format!("plot: {e}")));
    match format {
        Format::Svg => {
            let mut svg = String::new();
            picture
                .draw(SVGBackend::with_string(&mut svg, size).into_drawing_area())
                .map_err(fail)?;
            Ok(add_svg_labels(svg, labels).into_bytes())
        }
        Format::Png => {
            let mut pixels = vec![0u8; size.0 as usize * size.1 as usize * 3];
            {
                let area = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
                picture.draw(area.clone()).map_err(fail)?;
                draw_png_labels(&area, labels).map_err(fail)?;
                area.present().map_err(|e| fail(e.to_string()))?;
            }
            let mut out = Vec::new();
            image::ImageEncoder::write_image(
                image::codecs::png::PngEncoder::new(&mut out),
                &pixels,
                size.0,
                size.1,
                image::ColorType::Rgb8,
            )
            .map_err(|e| fail(e.to_string()))?;
            Ok(out)
        }
    }
}

/// A grid of cells under a title band.
struct Grid<'a> {
    side: usize,
    cell: u32,
    top: u32,
    max: f64,
    cells: &'a [Cell],
}

impl Picture for Grid<'_> {
    fn draw<DB: DrawingBackend>(
        &self,
        area: DrawingArea<DB, plotters::coord::Shift>,
    ) -> std::result::Result<(), String> {
        let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        area.fill(&WHITE).map_err(e)?;
        let (side, cell) = (self.side, self.cell);
        for (i, c) in self.cells.iter().enumerate().take(side * side) {
            let (x, y) = (i / side, i % side);
            let color = match *c {
                Cell::Value(0) | Cell::Outcome(crate::Outcome::P) => BLACK.to_rgba(),
                Cell::Value(g) => HSLColor(0.8 * g as f64 / self.max, 0.8, 0.55).to_rgba(),
                Cell::Outcome(crate::Outcome::N) => RGBColor(170, 170, 170).to_rgba(),
                Cell::Outcome(crate::Outcome::D) => WHITE.to_rgba(),
            };
            let (px, py) = (
                (y as u32 * cell) as i32,
                (x as u32 * cell + self.top) as i32,
            );
            area.draw(&Rectangle::new(
                [(px, py), (px + cell as i32, py + cell as i32)],
                color.filled(),
            ))
            .map_err(e)?;
        }
        Ok(())
    }
}

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

/// The points of a sequence, its axes and ticks and the shaded periodic part (no text).
struct Points<'a> {
    frame: &'a Frame,
    values: &'a [u32],
    period: Option<&'a Periodicity>,
}

impl Picture for Points<'_> {
    fn draw<DB: DrawingBackend>(
        &self,
        area: DrawingArea<DB, plotters::coord::Shift>,
    ) -> std::result::Result<(), String> {
        let f = self.frame;
        let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        area.fill(&WHITE).map_err(e)?;
        let base = f.h - f.bottom;
        if let Some(p) = self.period {
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
        let radius = if self.values.len() > 2000 { 1 } else { 2 };
        for (i, &v) in self.values.iter().enumerate() {
            area.draw(&Circle::new(
                (f.x(i as f64), f.y(v as f64)),
                radius,
                BLUE.filled(),
            ))
            .map_err(e)?;
        }
        Ok(())
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

/// The title, tick numbers and axis names of a sequence, the same for SVG and PNG.
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
        "n".into(),
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

/// The font the PNG labels are drawn with, shipped in the library (DejaVu Sans Mono; its
/// license is in `assets/DejaVu-LICENSE.txt`): a PNG needs glyphs, and no system font is
/// assumed. Registered with plotters once, the first time a PNG is drawn (set once, never
/// changed: no result depends on it).
static FONT: &[u8] = include_bytes!("../assets/DejaVuSansMono.ttf");

/// Draws the labels onto a bitmap with the shipped font.
fn draw_png_labels<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    labels: &[Label],
) -> std::result::Result<(), String> {
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
