//! The report's plots, each drawn once for PNG and once for SVG by the same code (plotters,
//! with a bundled font: no system font libraries).

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::data::RunData;
use crate::exercise::spec::GoalKind;

/// The bundled font (DejaVu Sans; its licence is beside it in `assets/fonts/`).
const FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
/// Plot size, pixels.
pub const SIZE: (u32, u32) = (960, 600);

/// A plot that could not be drawn or written.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("plot {file}: {message}")]
pub struct PlotError {
    /// The file being written.
    pub file: String,
    /// What went wrong.
    pub message: String,
}

/// Registers the bundled font once.
fn fonts() -> Result<(), PlotError> {
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| {
        if plotters::style::register_font("sans-serif", FontStyle::Normal, FONT).is_err() {
            result = Err(PlotError {
                file: "DejaVuSans.ttf".into(),
                message: "the bundled font does not load".into(),
            });
        }
    });
    result
}

/// Colours of tracks and series, in order.
const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
];

type DrawResult = Result<(), String>;

/// One of the report's figures.
pub enum Figure<'a> {
    /// [`trajectory`].
    Trajectory(&'a RunData),
    /// [`attitude`].
    Attitude(&'a RunData),
    /// [`belts`].
    Belts(&'a RunData),
    /// [`progress`]: an exercise's title, scores and repetitions per minute per attempt.
    Progress(&'a str, &'a [f64], &'a [f64]),
}

impl Figure<'_> {
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> DrawResult {
        match self {
            Figure::Trajectory(run) => trajectory(area, run),
            Figure::Attitude(run) => attitude(area, run),
            Figure::Belts(run) => belts(area, run),
            Figure::Progress(title, scores, per_minute) => {
                progress(area, title, scores, per_minute)
            }
        }
    }

    /// Draws the figure into `<dir>/<stem>.png` and `<dir>/<stem>.svg`.
    pub fn write(&self, dir: &Path, stem: &str) -> Result<(), PlotError> {
        fonts()?;
        let fail = |file: &Path, message: String| PlotError {
            file: file.display().to_string(),
            message,
        };
        let png = dir.join(format!("{stem}.png"));
        {
            let area = BitMapBackend::new(&png, SIZE).into_drawing_area();
            self.draw(&area).map_err(|m| fail(&png, m))?;
            area.present().map_err(|e| fail(&png, e.to_string()))?;
        }
        let svg = dir.join(format!("{stem}.svg"));
        {
            let area = SVGBackend::new(&svg, SIZE).into_drawing_area();
            self.draw(&area).map_err(|m| fail(&svg, m))?;
            area.present().map_err(|e| fail(&svg, e.to_string()))?;
        }
        Ok(())
    }
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Range of finite values with a margin; `fallback` if there are none.
fn range<'a>(values: impl IntoIterator<Item = &'a f64>, fallback: (f64, f64)) -> (f64, f64) {
    let (lo, hi) = values
        .into_iter()
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(*v), hi.max(*v))
        });
    if !lo.is_finite() {
        return fallback;
    }
    let pad = ((hi - lo) * 0.05).max(1e-3);
    (lo - pad, hi + pad)
}

/// The trajectory from above over the scene's plan (terrain shaded by height, the bounds),
/// with the goals, the start, faults and penalties.
pub fn trajectory<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, run: &RunData) -> DrawResult {
    area.fill(&WHITE).map_err(err)?;
    let s = &run.series;
    let (x0, x1, y0, y1) = plan_extent(run);
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("{}: path from above", run.title()),
            ("sans-serif", 22),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("world x, m")
        .y_desc("world y, m")
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(err)?;
    if let Some(scene) = &run.scene {
        draw_plan(&mut chart, scene)?;
    }
    draw_goals(&mut chart, run)?;
    let path = PALETTE[0];
    for (i, piece) in path_pieces(&s.x, &s.y).into_iter().enumerate() {
        let series = chart
            .draw_series(LineSeries::new(piece, path.stroke_width(1)))
            .map_err(err)?;
        if i == 0 {
            series
                .label("path")
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], path));
        }
    }
    if let (Some(x), Some(y)) = (s.x.first(), s.y.first()) {
        chart
            .draw_series(std::iter::once(Circle::new((*x, *y), 6, BLACK.filled())))
            .map_err(err)?
            .label("start")
            .legend(|(x, y)| Circle::new((x + 10, y), 5, BLACK.filled()));
    }
    draw_event_marks(&mut chart, run)?;
    legend(&mut chart)
}

/// The plan's extent, world x and y, m: the path, the goals and the start with a margin,
/// within the scene's bounds, widened to the plot's aspect so both axes share a scale.
fn plan_extent(run: &RunData) -> (f64, f64, f64, f64) {
    let s = &run.series;
    let mut xs: Vec<f64> = s.x.clone();
    let mut ys: Vec<f64> = s.y.clone();
    if let Some(exercise) = &run.exercise {
        for goal in &exercise.spec.goals {
            let points = match &goal.kind {
                GoalKind::Zone(z) => vec![(z.position.x, z.position.y)],
                GoalKind::Gate { a, b, .. } => vec![(a.x, a.y), (b.x, b.y)],
                GoalKind::Observe { target, .. } => vec![(target.x, target.y)],
                GoalKind::Object(_) | GoalKind::Valve(_) | GoalKind::Door(_) => {
                    let p = goal.kind.scene_point(&exercise.scene).unwrap_or_default();
                    vec![(p.x, p.y)]
                }
            };
            for (x, y) in points {
                xs.push(x);
                ys.push(y);
            }
        }
    }
    let (px0, px1) = range(&xs, (-1.0, 1.0));
    let (py0, py1) = range(&ys, (-1.0, 1.0));
    let margin = (0.2 * (px1 - px0).max(py1 - py0)).max(1.5);
    let (mut x0, mut x1, mut y0, mut y1) = (px0 - margin, px1 + margin, py0 - margin, py1 + margin);
    if let Some(scene) = &run.scene {
        let b = &scene.bounds;
        (x0, x1) = (x0.max(b.min[0]), x1.min(b.max[0]));
        (y0, y1) = (y0.max(b.min[1]), y1.min(b.max[1]));
        if x0 >= x1 || y0 >= y1 {
            (x0, x1, y0, y1) = (b.min[0], b.max[0], b.min[1], b.max[1]);
        }
    }
    let (pw, ph) = (SIZE.0 as f64 - 90.0, SIZE.1 as f64 - 110.0);
    let scale = ((x1 - x0) / pw).max((y1 - y0) / ph);
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    (
        cx - scale * pw / 2.0,
        cx + scale * pw / 2.0,
        cy - scale * ph / 2.0,
        cy + scale * ph / 2.0,
    )
}

/// The scene from above: faces that face up, shaded by height (lowest drawn first so higher
/// ones cover them), and the robot's bounds.
fn draw_plan<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    scene: &crate::scene::Scene,
) -> DrawResult {
    let t = &scene.terrain;
    let (lo, hi) = t.bounds();
    let span = (hi.z - lo.z).max(1e-6);
    let mut faces: Vec<(f64, [(f64, f64); 3])> = (0..t.num_triangles())
        .filter(|i| t.normals()[*i].z > 0.2)
        .map(|i| {
            let p = t.triangle_points(i);
            let z = (p[0].z + p[1].z + p[2].z) / 3.0;
            (z, [(p[0].x, p[0].y), (p[1].x, p[1].y), (p[2].x, p[2].y)])
        })
        .collect();
    faces.sort_by(|a, b| a.0.total_cmp(&b.0));
    chart
        .draw_series(faces.iter().map(|(z, p)| {
            let shade = 235.0 - 120.0 * ((z - lo.z) / span).clamp(0.0, 1.0);
            let c = shade as u8;
            Polygon::new(p.to_vec(), RGBColor(c, c, c.saturating_add(8)).filled())
        }))
        .map_err(err)?;
    let b = &scene.bounds;
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![
                (b.min[0], b.min[1]),
                (b.max[0], b.min[1]),
                (b.max[0], b.max[1]),
                (b.min[0], b.max[1]),
                (b.min[0], b.min[1]),
            ],
            BLACK.stroke_width(1),
        )))
        .map_err(err)?;
    Ok(())
}

/// The path as pieces, broken where the robot was put back (a jump of more than 0.3 m in a
/// sample); points closer than 2 cm to the last add nothing at the plot's scale, and many
/// tiny segments draw as a broken wide line.
fn path_pieces(xs: &[f64], ys: &[f64]) -> Vec<Vec<(f64, f64)>> {
    let mut pieces: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
    for (x, y) in xs.iter().zip(ys) {
        if let Some(last) = pieces.last().and_then(|p| p.last()) {
            if (last.0 - x).hypot(last.1 - y) > 0.3 {
                pieces.push(Vec::new());
            }
        }
        if let Some(p) = pieces.last_mut() {
            if p.last().is_none_or(|l| (l.0 - x).hypot(l.1 - y) >= 0.02) {
                p.push((*x, *y));
            }
        }
    }
    pieces
}

type Chart2d<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// The series' legend in the upper right corner of a chart.
fn legend<'a, DB: DrawingBackend + 'a>(chart: &mut Chart2d<'a, DB>) -> DrawResult {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(err)
}

fn draw_goals<DB: DrawingBackend>(chart: &mut Chart2d<'_, DB>, run: &RunData) -> DrawResult {
    let Some(exercise) = &run.exercise else {
        return Ok(());
    };
    let green = RGBColor(0, 140, 60);
    for (i, goal) in exercise.spec.goals.iter().enumerate() {
        let label = format!("{} {}", i + 1, goal.name);
        let at = match &goal.kind {
            GoalKind::Zone(z) => {
                let ring: Vec<(f64, f64)> = (0..=48)
                    .map(|k| {
                        let a = k as f64 / 48.0 * std::f64::consts::TAU;
                        (
                            z.position.x + z.radius * a.cos(),
                            z.position.y + z.radius * a.sin(),
                        )
                    })
                    .collect();
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        ring,
                        green.stroke_width(2),
                    )))
                    .map_err(err)?;
                // Above the ring, where the path's marks inside the zone do not reach.
                (z.position.x - z.radius, z.position.y + z.radius)
            }
            GoalKind::Gate { a, b, .. } => {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(a.x, a.y), (b.x, b.y)],
                        green.stroke_width(3),
                    )))
                    .map_err(err)?;
                // Beside the post further up the plan.
                if a.y >= b.y {
                    (a.x, a.y)
                } else {
                    (b.x, b.y)
                }
            }
            GoalKind::Observe { target, .. } => {
                chart
                    .draw_series(std::iter::once(Cross::new(
                        (target.x, target.y),
                        8,
                        green.stroke_width(2),
                    )))
                    .map_err(err)?;
                (target.x, target.y)
            }
            GoalKind::Object(_) | GoalKind::Valve(_) | GoalKind::Door(_) => {
                let p = goal.kind.scene_point(&exercise.scene).unwrap_or_default();
                chart
                    .draw_series(std::iter::once(Circle::new(
                        (p.x, p.y),
                        6,
                        green.stroke_width(2),
                    )))
                    .map_err(err)?;
                (p.x, p.y)
            }
        };
        // The label's top left 18 px above its anchor, in pixels, whatever the plan's scale.
        chart
            .draw_series(std::iter::once(
                EmptyElement::at(at)
                    + Text::new(
                        label,
                        (4, -18),
                        ("sans-serif", 14).into_font().color(&green),
                    ),
            ))
            .map_err(err)?;
    }
    Ok(())
}

/// Faults (red crosses) and penalties (orange triangles) where the robot was when they
/// happened.
fn draw_event_marks<DB: DrawingBackend>(chart: &mut Chart2d<'_, DB>, run: &RunData) -> DrawResult {
    let (mut faults, mut penalties) = (Vec::new(), Vec::new());
    for e in run.events() {
        let kind = e.detail.get("type").and_then(|t| t.as_str()).unwrap_or("");
        // A fault puts the robot back at the start in its step: mark where it was just before.
        let Some(at) = run.series.position_at(e.time - 0.011) else {
            continue;
        };
        match kind {
            "fault" => faults.push(at),
            "penalty" => penalties.push(at),
            _ if e.source == "sim" => faults.push(at),
            _ => {}
        }
    }
    let red = RGBColor(200, 0, 0);
    let orange = RGBColor(240, 140, 0);
    if !faults.is_empty() {
        chart
            .draw_series(
                faults
                    .into_iter()
                    .map(|p| Cross::new(p, 9, red.stroke_width(3))),
            )
            .map_err(err)?
            .label("fault")
            .legend(move |(x, y)| Cross::new((x + 10, y), 6, red.stroke_width(2)));
    }
    if !penalties.is_empty() {
        chart
            .draw_series(
                penalties
                    .into_iter()
                    .map(|p| TriangleMarker::new(p, 8, orange.filled())),
            )
            .map_err(err)?
            .label("penalty")
            .legend(move |(x, y)| TriangleMarker::new((x + 10, y), 6, orange.filled()));
    }
    Ok(())
}

/// A time axis chart with series `(name, values, colour, underlay)` (an underlay is drawn
/// wide, for a command under its response) and dashed horizontal limit lines `(name, value)`.
fn time_chart<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    caption: &str,
    y_desc: &str,
    time: &[f64],
    series: &[(String, &[f64], RGBColor, bool)],
    limits: &[(String, f64)],
) -> DrawResult {
    let t1 = time.last().copied().unwrap_or(1.0).max(1e-3);
    let (mut y0, mut y1) = range(series.iter().flat_map(|s| s.1.iter()), (-1.0, 1.0));
    for (_, v) in limits {
        y0 = y0.min(*v);
        y1 = y1.max(*v);
    }
    let pad = (y1 - y0) * 0.05;
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..t1, (y0 - pad)..(y1 + pad))
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("time, s")
        .y_desc(y_desc)
        .draw()
        .map_err(err)?;
    // Pixels per unit of time and of value, to widen a line by whole pixels.
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let per_px = (
        t1 / f64::from((xs.end - xs.start).max(1)),
        (y1 - y0 + 2.0 * pad) / f64::from((ys.end - ys.start).max(1)),
    );
    for (name, values, color, underlay) in series {
        let points: Vec<(f64, f64)> = time
            .iter()
            .zip(values.iter())
            .filter(|(_, v)| v.is_finite())
            .map(|(t, v)| (*t, *v))
            .collect();
        let color = *color;
        // Lines are drawn one pixel wide: plotters joins a wider polyline with mitres, and
        // where the data turn back on themselves (a motor's noisy load, a command that pulses
        // for one sample) a mitre spikes far out of the plot, through the axis (plotters issue
        // #549). An underlay is widened by drawing it again a pixel off on every side.
        let offsets: &[(f64, f64)] = if *underlay {
            &[(0.0, 0.0), (-1.0, 0.0), (1.0, 0.0), (0.0, -1.0), (0.0, 1.0)]
        } else {
            &[(0.0, 0.0)]
        };
        for &(dx, dy) in &offsets[1..] {
            let shifted = points
                .iter()
                .map(|&(t, v)| (t + dx * per_px.0, v + dy * per_px.1));
            chart
                .draw_series(LineSeries::new(shifted, color.stroke_width(1)))
                .map_err(err)?;
        }
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(1)))
            .map_err(err)?
            .label(name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
    }
    for (name, value) in limits {
        let grey = RGBColor(120, 120, 120);
        chart
            .draw_series(DashedLineSeries::new(
                [(0.0, *value), (t1, *value)],
                6,
                4,
                grey.stroke_width(1),
            ))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Text::new(
                name.clone(),
                (t1 * 0.01, *value),
                ("sans-serif", 13).into_font().color(&grey),
            )))
            .map_err(err)?;
    }
    legend(&mut chart)
}

/// Pitch and roll against gravity over time, with the static tip-over limits.
pub fn attitude<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, run: &RunData) -> DrawResult {
    area.fill(&WHITE).map_err(err)?;
    let s = &run.series;
    let deg = |v: &[f64]| v.iter().map(|a| a.to_degrees()).collect::<Vec<f64>>();
    let (pitch, roll) = (deg(&s.nose_up), deg(&s.left_up));
    let (top, bottom) = area.split_vertically(SIZE.1 / 2);
    let (pitch_limits, roll_limits) = match &run.tip {
        Some(t) => (
            vec![
                ("tips over backwards".to_owned(), t.backward.to_degrees()),
                ("tips nose over".to_owned(), -t.forward.to_degrees()),
            ],
            vec![
                ("rolls onto the right side".to_owned(), t.right.to_degrees()),
                ("rolls onto the left side".to_owned(), -t.left.to_degrees()),
            ],
        ),
        None => (Vec::new(), Vec::new()),
    };
    time_chart(
        &top,
        "pitch (nose up) against gravity",
        "deg",
        &s.time,
        &[("nose up".into(), &pitch, PALETTE[0], false)],
        &pitch_limits,
    )?;
    time_chart(
        &bottom,
        "roll (left side up) against gravity",
        "deg",
        &s.time,
        &[("left side up".into(), &roll, PALETTE[1], false)],
        &roll_limits,
    )
}

/// Belt speeds commanded and actual, and motor torques, per track, over time.
pub fn belts<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, run: &RunData) -> DrawResult {
    area.fill(&WHITE).map_err(err)?;
    let s = &run.series;
    let (top, bottom) = area.split_vertically(SIZE.1 / 2);
    let mut speeds: Vec<(String, &[f64], RGBColor, bool)> = Vec::new();
    let mut torques: Vec<(String, &[f64], RGBColor, bool)> = Vec::new();
    for (i, t) in s.tracks.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        // The command in a paler shade of the track's colour, under the actual speed.
        let pale = RGBColor(color.0 / 2 + 127, color.1 / 2 + 127, color.2 / 2 + 127);
        speeds.push((
            format!("{} commanded", t.name),
            &t.commanded[..],
            pale,
            true,
        ));
        speeds.push((
            format!("{} actual", t.name),
            &t.belt_speed[..],
            color,
            false,
        ));
        torques.push((format!("{} motor", t.name), &t.torque[..], color, false));
    }
    time_chart(
        &top,
        "belt speed, commanded and actual",
        "m/s",
        &s.time,
        &speeds,
        &[],
    )?;
    time_chart(&bottom, "drive motor load", "N·m", &s.time, &torques, &[])
}

/// Score and repetitions per minute over several attempts of one exercise.
pub fn progress<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    scores: &[f64],
    per_minute: &[f64],
) -> DrawResult {
    area.fill(&WHITE).map_err(err)?;
    let n = scores.len().max(1) as f64;
    let (left, right) = area.split_horizontally(SIZE.0 / 2);
    for (panel, values, caption, y_desc, top) in [
        (
            &left,
            scores,
            "score per attempt",
            "score (0–100)",
            100.0f64,
        ),
        (
            &right,
            per_minute,
            "repetitions per minute",
            "rep/min",
            per_minute.iter().copied().fold(0.0, f64::max).max(0.1) * 1.2,
        ),
    ] {
        let mut chart = ChartBuilder::on(panel)
            .caption(format!("{title}: {caption}"), ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(50)
            .build_cartesian_2d(0.5..n + 0.5, 0.0..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("attempt")
            .y_desc(y_desc)
            .x_labels(values.len().clamp(2, 12))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .draw()
            .map_err(err)?;
        let points: Vec<(f64, f64)> = values
            .iter()
            .enumerate()
            .map(|(i, v)| ((i + 1) as f64, *v))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), PALETTE[0].stroke_width(2)))
            .map_err(err)?;
        chart
            .draw_series(
                points
                    .into_iter()
                    .map(|p| Circle::new(p, 5, PALETTE[0].filled())),
            )
            .map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: the motor-load plot of a stair climb drew spikes through the time axis to
    /// the image's edge (two-pixel lines on noisy data). Nothing is drawn in the margins.
    #[test]
    fn noisy_data_stays_inside_the_plot() {
        fonts().expect("the bundled font");
        let (w, h) = (SIZE.0 as usize, (SIZE.1 / 2) as usize);
        let mut pixels = vec![0u8; w * h * 3];
        {
            let area =
                BitMapBackend::with_buffer(&mut pixels, (w as u32, h as u32)).into_drawing_area();
            area.fill(&WHITE).unwrap();
            // About one sample a pixel, quiet but for sharp swings up and straight back down
            // a pixel later: each draws a long, nearly vertical turn-back.
            let time: Vec<f64> = (0..1_000).map(|k| f64::from(k) * 0.1).collect();
            let load: Vec<f64> = (0..1_000)
                .map(|k| match k % 37 {
                    0 => 8.0 + f64::from(k % 5),
                    1 => -3.0 - f64::from(k % 3),
                    _ => 0.2 * f64::from(k % 7),
                })
                .collect();
            // A command that pulses for one sample, drawn as a wide underlay.
            let command: Vec<f64> = (0..1_000)
                .map(|k| if k % 53 == 0 { 6.0 } else { 0.5 })
                .collect();
            let series = [
                ("command".to_string(), &command[..], PALETTE[0], true),
                ("motor".to_string(), &load[..], PALETTE[1], false),
            ];
            time_chart(&area, "drive motor load", "N·m", &time, &series, &[]).unwrap();
        }
        let white_rows = |rows: std::ops::Range<usize>| {
            rows.flat_map(|y| (0..w).map(move |x| (y * w + x) * 3))
                .all(|i| pixels[i..i + 3] == [255, 255, 255])
        };
        // The chart's margin is 10 px: the first and last 8 rows stay empty.
        assert!(white_rows(0..8), "ink above the chart");
        assert!(white_rows(h - 8..h), "ink below the chart");
    }
}
