//! Penetration areas in the track plane: the `S` of seed 004's force law `F = κ·S`.
//!
//! A terrain segment is the boundary of a solid on its right (walking `a → b`); the solid under
//! it is the half-strip between the perpendiculars at `a` and `b`. A wheel's penetration area
//! for that segment is the area of its disk inside that half-strip (closed form below); the
//! area of a convex polygon (a belt run's region) is found by clipping. Summing over segments
//! follows the paper: each segment pushes along its own normal with its own area.

use nalgebra::{Point2, Vector2};

/// Exact area of a circular segment of depth `delta` cut from a circle of radius `r`, m².
/// 0 for `delta ≤ 0`, πr² for `delta ≥ 2r`.
pub fn circular_segment_area(r: f64, delta: f64) -> f64 {
    if delta <= 0.0 {
        return 0.0;
    }
    if delta >= 2.0 * r {
        return std::f64::consts::PI * r * r;
    }
    let d = r - delta;
    r * r * (d / r).clamp(-1.0, 1.0).acos() - d * (2.0 * r * delta - delta * delta).max(0.0).sqrt()
}

/// ∫₀^δ S(x) dx for the circular segment area S of a circle of radius `r`, m³: the elastic
/// energy per unit stiffness of a wheel pressed in by `delta` under `F = κ·S`.
pub fn circular_segment_area_integral(r: f64, delta: f64) -> f64 {
    if delta <= 0.0 {
        return 0.0;
    }
    let delta = delta.min(2.0 * r);
    // With u = r − x the distance from the centre to the chord, an antiderivative of S in u is
    // F(u) = r²(u·acos(u/r) − √(r² − u²)) + (r² − u²)^{3/2}/3, F(r) = 0.
    let u = r - delta;
    let w = (r * r - u * u).max(0.0);
    -(r * r * (u * (u / r).clamp(-1.0, 1.0).acos() - w.sqrt()) + w.powf(1.5) / 3.0)
}

/// Seed 004 eq. (2): the small-penetration approximation S = 2/3·R²·φ³ with φ = √(2δ/R), m².
pub fn paper_segment_area(r: f64, delta: f64) -> f64 {
    if delta <= 0.0 {
        return 0.0;
    }
    let phi = (2.0 * delta / r).sqrt();
    2.0 / 3.0 * r * r * phi.powi(3)
}

/// The area of a disk inside the solid half-strip under one terrain segment, and where along
/// the segment it sits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StripArea {
    /// Penetration area, m².
    pub area: f64,
    /// Distance along the segment from `a` to the area's centroid, m.
    pub along: f64,
    /// Depth of the disk's lowest point below the segment's line, m (> 0 when penetrating).
    pub depth: f64,
}

/// Area of the disk (centre `c`, radius `r`) that lies on the solid side of segment `a → b`
/// (solid on the right) and between the perpendiculars at `a` and `b`. `None` if zero.
pub fn disk_strip_area(
    c: Point2<f64>,
    r: f64,
    a: Point2<f64>,
    b: Point2<f64>,
) -> Option<StripArea> {
    let ab = b - a;
    let len = ab.norm();
    if len <= 0.0 {
        return None;
    }
    let d = ab / len;
    let n = Vector2::new(-d.y, d.x); // outward (left) normal
    let ac = c - a;
    let v = ac.dot(&n); // centre height above the line
    if v >= r {
        return None;
    }
    let u = ac.dot(&d);
    // Integrate over ξ = position along the segment relative to the centre.
    let lo = (-u).max(-r);
    let hi = (len - u).min(r);
    if hi <= lo {
        return None;
    }
    let r2 = r * r;
    let h = |x: f64| (r2 - x * x).max(0.0).sqrt();
    // ∫ h dξ and ∫ ξ·h dξ
    let g = |x: f64| 0.5 * (x * h(x) + r2 * (x / r).clamp(-1.0, 1.0).asin());
    let k = |x: f64| -(r2 - x * x).max(0.0).powf(1.5) / 3.0;
    // Where the chord crosses the line: |ξ| < w has the chord straddling it.
    let w = (r2 - v * v).max(0.0).sqrt();
    let (mut area, mut moment) = (0.0, 0.0);
    // Straddling part: chord below the line has length h − v.
    let (p, q) = (lo.max(-w), hi.min(w));
    if q > p {
        area += g(q) - g(p) - v * (q - p);
        moment += k(q) - k(p) - v * 0.5 * (q * q - p * p);
    }
    // Centre below the line: outside |ξ| < w the whole chord (2h) is in the solid.
    if v < 0.0 {
        for (p, q) in [(lo, hi.min(-w)), (lo.max(w), hi)] {
            if q > p {
                area += 2.0 * (g(q) - g(p));
                moment += 2.0 * (k(q) - k(p));
            }
        }
    }
    (area > 0.0).then(|| StripArea {
        area,
        along: u + moment / area,
        depth: r - v,
    })
}

/// Largest number of vertices of a clipped convex polygon we keep (a quad clipped by three
/// half-planes has at most 7).
pub const MAX_POLY: usize = 12;

/// A small convex polygon on the stack, counter-clockwise.
#[derive(Debug, Clone, Copy)]
pub struct ConvexPolygon {
    points: [Point2<f64>; MAX_POLY],
    len: usize,
}

impl ConvexPolygon {
    /// A polygon from counter-clockwise vertices (at most [`MAX_POLY`]; extra ones are dropped).
    pub fn new(vertices: &[Point2<f64>]) -> Self {
        let mut p = Self {
            points: [Point2::origin(); MAX_POLY],
            len: vertices.len().min(MAX_POLY),
        };
        p.points[..p.len].copy_from_slice(&vertices[..p.len]);
        p
    }

    /// The vertices.
    pub fn vertices(&self) -> &[Point2<f64>] {
        &self.points[..self.len]
    }

    /// Keeps the part where `(p − origin)·normal ≤ 0` (Sutherland–Hodgman).
    pub fn clip(&self, origin: Point2<f64>, normal: Vector2<f64>) -> Self {
        let mut out = Self {
            points: [Point2::origin(); MAX_POLY],
            len: 0,
        };
        let n = self.len;
        for i in 0..n {
            let (p, q) = (self.points[i], self.points[(i + 1) % n]);
            let (dp, dq) = ((p - origin).dot(&normal), (q - origin).dot(&normal));
            if dp <= 0.0 && out.len < MAX_POLY {
                out.points[out.len] = p;
                out.len += 1;
            }
            if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
                let t = dp / (dp - dq);
                if out.len < MAX_POLY {
                    out.points[out.len] = p + (q - p) * t;
                    out.len += 1;
                }
            }
        }
        out
    }

    /// Signed area (positive when counter-clockwise), m², and centroid.
    pub fn area_centroid(&self) -> (f64, Point2<f64>) {
        let n = self.len;
        if n < 3 {
            return (0.0, Point2::origin());
        }
        let o = self.points[0];
        let (mut a2, mut cx, mut cy) = (0.0, 0.0, 0.0);
        for i in 1..n - 1 {
            let (p, q) = (self.points[i] - o, self.points[i + 1] - o);
            let cr = p.x * q.y - p.y * q.x;
            a2 += cr;
            cx += cr * (p.x + q.x);
            cy += cr * (p.y + q.y);
        }
        if a2.abs() < 1e-300 {
            return (0.0, o);
        }
        (
            0.5 * a2,
            Point2::new(o.x + cx / (3.0 * a2), o.y + cy / (3.0 * a2)),
        )
    }

    /// Moments of the polygon's area along an axis: `(∫dA, ∫x dA, ∫x² dA)` with
    /// `x = (p − origin)·axis` (`axis` a unit vector), in m², m³, m⁴.
    pub fn moments_along(&self, origin: Point2<f64>, axis: Vector2<f64>) -> (f64, f64, f64) {
        let n = self.len;
        if n < 3 {
            return (0.0, 0.0, 0.0);
        }
        let perp = Vector2::new(-axis.y, axis.x);
        let local = |p: Point2<f64>| ((p - origin).dot(&axis), (p - origin).dot(&perp));
        let (mut a, mut m1, mut m2) = (0.0, 0.0, 0.0);
        for i in 0..n {
            let (x0, y0) = local(self.points[i]);
            let (x1, y1) = local(self.points[(i + 1) % n]);
            let c = x0 * y1 - x1 * y0;
            a += c;
            m1 += (x0 + x1) * c;
            m2 += (x0 * x0 + x0 * x1 + x1 * x1) * c;
        }
        (a / 2.0, m1 / 6.0, m2 / 12.0)
    }

    /// Area of the intersection of this polygon with the disk (centre `c`, radius `r`), m².
    pub fn disk_intersection_area(&self, c: Point2<f64>, r: f64) -> f64 {
        let n = self.len;
        if n < 3 {
            return 0.0;
        }
        let mut area = 0.0;
        for i in 0..n {
            area += disk_triangle_area(r, self.points[i] - c, self.points[(i + 1) % n] - c);
        }
        area
    }
}

/// Signed area of the disk of radius `r` at the origin intersected with the triangle
/// (origin, `p`, `q`).
fn disk_triangle_area(r: f64, p: Vector2<f64>, q: Vector2<f64>) -> f64 {
    let cross = |a: Vector2<f64>, b: Vector2<f64>| a.x * b.y - a.y * b.x;
    let sector = |a: Vector2<f64>, b: Vector2<f64>| 0.5 * r * r * cross(a, b).atan2(a.dot(&b));
    let tri = |a: Vector2<f64>, b: Vector2<f64>| 0.5 * cross(a, b);
    let r2 = r * r;
    let (pin, qin) = (p.norm_squared() <= r2, q.norm_squared() <= r2);
    if pin && qin {
        return tri(p, q);
    }
    let d = q - p;
    let (a, b, cc) = (d.norm_squared(), p.dot(&d), p.norm_squared() - r2);
    if a <= 0.0 {
        return 0.0;
    }
    let disc = b * b - a * cc;
    if disc <= 0.0 {
        return sector(p, q);
    }
    let s = disc.sqrt();
    let (t0, t1) = ((-b - s) / a, (-b + s) / a);
    match (pin, qin) {
        (true, false) => {
            let x = p + d * t1;
            tri(p, x) + sector(x, q)
        }
        (false, true) => {
            let x = p + d * t0;
            sector(p, x) + tri(x, q)
        }
        _ => {
            if t0 >= 1.0 || t1 <= 0.0 || t0 < 0.0 && t1 > 1.0 {
                sector(p, q)
            } else {
                let (x0, x1) = (p + d * t0, p + d * t1);
                sector(p, x0) + tri(x0, x1) + sector(x1, q)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    #[test]
    fn circular_segment_matches_closed_forms() {
        let r = 0.05;
        assert_eq!(circular_segment_area(r, 0.0), 0.0);
        assert!((circular_segment_area(r, r) - PI * r * r / 2.0).abs() < 1e-15);
        assert!((circular_segment_area(r, 2.0 * r) - PI * r * r).abs() < 1e-15);
        // The paper's formula is the small-δ limit; the next series term makes it larger by
        // 3δ/(20R) relative (0.15 % at δ/R = 0.01).
        for rel in [1e-3, 1e-2, 0.1] {
            let d = rel * r;
            let (exact, paper) = (circular_segment_area(r, d), paper_segment_area(r, d));
            let excess = paper / exact - 1.0;
            assert!(
                (excess / (0.15 * rel) - 1.0).abs() < 0.03,
                "δ/R={rel}: {excess}"
            );
            // Force law, eq. (3): F/κ = 4/3·√(2R)·δ^1.5.
            let f = 4.0 / 3.0 * (2.0 * r).sqrt() * d.powf(1.5);
            assert!(((paper - f) / f).abs() < 1e-12);
        }
    }

    #[test]
    fn segment_area_integral_matches_quadrature() {
        let r = 0.05;
        for delta in [1e-4, 1e-3, 0.01, 0.05, 0.09] {
            let n = 20_000;
            let h = delta / n as f64;
            let num: f64 = (0..n)
                .map(|i| circular_segment_area(r, (i as f64 + 0.5) * h) * h)
                .sum();
            let exact = circular_segment_area_integral(r, delta);
            assert!(
                (exact - num).abs() < 1e-6 * num,
                "δ={delta}: {exact} vs {num}"
            );
        }
        // Small δ: 8/15·√(2R)·δ^2.5, the integral of the paper's law.
        let d: f64 = 1e-4;
        let paper = 8.0 / 15.0 * (2.0 * r).sqrt() * d.powf(2.5);
        assert!((circular_segment_area_integral(r, d) / paper - 1.0).abs() < 1e-3);
    }

    #[test]
    fn disk_on_a_long_flat_segment_is_a_circular_segment() {
        let (a, b) = (Point2::new(-1.0, 0.0), Point2::new(1.0, 0.0));
        let r = 0.04;
        for delta in [1e-4, 1e-3, 0.01, 0.04, 0.06, 0.079] {
            let c = Point2::new(0.1, r - delta);
            let s = disk_strip_area(c, r, a, b).unwrap();
            assert!(
                (s.area - circular_segment_area(r, delta)).abs() < 1e-15,
                "δ={delta}"
            );
            assert!((s.along - 1.1).abs() < 1e-9, "centroid under the centre");
            assert!((s.depth - delta).abs() < 1e-15);
        }
        // Fully buried: the whole disk.
        let s = disk_strip_area(Point2::new(0.0, -0.5), r, a, b).unwrap();
        assert!((s.area - PI * r * r).abs() < 1e-15);
        assert!(disk_strip_area(Point2::new(0.0, r + 1e-9), r, a, b).is_none());
    }

    #[test]
    fn strip_area_splits_exactly_at_segment_ends() {
        // Two collinear segments meeting under the disk give the same total as one.
        let r = 0.05;
        let c = Point2::new(0.013, 0.03);
        let whole = disk_strip_area(c, r, Point2::new(-1.0, 0.0), Point2::new(1.0, 0.0)).unwrap();
        let left = disk_strip_area(c, r, Point2::new(-1.0, 0.0), Point2::new(0.0, 0.0)).unwrap();
        let right = disk_strip_area(c, r, Point2::new(0.0, 0.0), Point2::new(1.0, 0.0)).unwrap();
        assert!((left.area + right.area - whole.area).abs() < 1e-16);
        // Moments add up too: centroids are consistent.
        let m = left.area * left.along + right.area * (1.0 + right.along);
        assert!((m / whole.area - whole.along).abs() < 1e-12);
    }

    #[test]
    fn strip_area_matches_numerical_integration_on_a_slanted_segment() {
        let (a, b) = (Point2::new(0.0, 0.0), Point2::new(0.3, 0.2));
        let r = 0.07;
        let d = (b - a).normalize();
        let n = Vector2::new(-d.y, d.x);
        for (s, h) in [
            (0.05, 0.02),
            (0.15, -0.03),
            (-0.02, 0.01),
            (0.34, 0.0),
            (0.2, -0.09),
        ] {
            let c = a + d * s + n * h;
            let exact = disk_strip_area(c, r, a, b).map_or(0.0, |x| x.area);
            // Midpoint rule on a fine grid in segment coordinates.
            let m = 2000;
            let mut num = 0.0;
            let len = (b - a).norm();
            for i in 0..m {
                for j in 0..m {
                    let uu = -r + (i as f64 + 0.5) * 2.0 * r / m as f64 + s;
                    let vv = -r + (j as f64 + 0.5) * 2.0 * r / m as f64 + h;
                    if (0.0..=len).contains(&uu) && vv < 0.0 && (uu - s).hypot(vv - h) < r {
                        num += (2.0 * r / m as f64).powi(2);
                    }
                }
            }
            assert!(
                (exact - num).abs() < 2e-3 * PI * r * r,
                "s={s} h={h}: {exact} vs {num}"
            );
        }
    }

    #[test]
    fn polygon_clip_area_and_disk_intersection() {
        let sq = ConvexPolygon::new(&[
            Point2::new(0.0, 0.0),
            Point2::new(1.0, 0.0),
            Point2::new(1.0, 1.0),
            Point2::new(0.0, 1.0),
        ]);
        let (a, c) = sq.area_centroid();
        assert!((a - 1.0).abs() < 1e-15 && (c - Point2::new(0.5, 0.5)).norm() < 1e-15);
        // Keep x ≤ 0.25.
        let half = sq.clip(Point2::new(0.25, 0.0), Vector2::new(1.0, 0.0));
        assert!((half.area_centroid().0 - 0.25).abs() < 1e-15);
        // Disk fully inside, disk centred on a corner (quarter), disk containing the square.
        assert!((sq.disk_intersection_area(Point2::new(0.5, 0.5), 0.2) - PI * 0.04).abs() < 1e-14);
        assert!(
            (sq.disk_intersection_area(Point2::new(0.0, 0.0), 0.3) - PI * 0.09 / 4.0).abs() < 1e-14
        );
        assert!((sq.disk_intersection_area(Point2::new(0.5, 0.5), 2.0) - 1.0).abs() < 1e-14);
        // Disk centred on an edge's midpoint: half disk.
        assert!(
            (sq.disk_intersection_area(Point2::new(0.5, 0.0), 0.3) - PI * 0.09 / 2.0).abs() < 1e-14
        );
        // Moments of the unit square along x: 1, 1/2, 1/3.
        let (a, m1, m2) = sq.moments_along(Point2::origin(), Vector2::x());
        assert!(
            (a - 1.0).abs() < 1e-15 && (m1 - 0.5).abs() < 1e-15 && (m2 - 1.0 / 3.0).abs() < 1e-15
        );
        // Chord through the square: compare with the circular segment.
        let d = 0.1;
        let r = 0.4;
        let got = sq.disk_intersection_area(Point2::new(0.5, -r + d), r);
        assert!((got - circular_segment_area(r, d)).abs() < 1e-14);
    }
}
