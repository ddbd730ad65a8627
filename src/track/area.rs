//! Penetration areas in the track plane: the `S` of seed 004's force law `F = κ·S`, as the
//! exact circular segment of a wheel pressed in by δ, the paper's small-δ approximation, and
//! the integral of S over δ (the contact's elastic energy per unit stiffness).

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

/// dS/dδ of the circular segment area S of a circle of radius `r` pressed in by `delta`: the
/// chord length 2·√(2rδ − δ²), m. 0 outside `0 < delta < 2r`.
pub fn circular_segment_chord(r: f64, delta: f64) -> f64 {
    if delta <= 0.0 || delta >= 2.0 * r {
        return 0.0;
    }
    2.0 * (2.0 * r * delta - delta * delta).max(0.0).sqrt()
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

/// A circle of radius `r` pressed in by `delta`: its circular segment's area, the area's
/// derivative (the chord) and its integral over the depth, from one `acos` and one `sqrt`
/// (the contact loop needs all three for every wheel in contact).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CircularSegment {
    /// [`circular_segment_area`], m².
    pub area: f64,
    /// [`circular_segment_chord`], m.
    pub chord: f64,
    /// [`circular_segment_area_integral`], m³.
    pub area_integral: f64,
}

impl CircularSegment {
    /// The segment of depth `delta` m cut from a circle of radius `r` m.
    pub fn new(r: f64, delta: f64) -> Self {
        if delta <= 0.0 {
            return Self {
                area: 0.0,
                chord: 0.0,
                area_integral: 0.0,
            };
        }
        let full = delta >= 2.0 * r;
        // u: distance from the centre to the chord; w = r² − u² = 2rδ − δ², half chord².
        let u = r - delta.min(2.0 * r);
        let w = (r * r - u * u).max(0.0);
        let root = w.sqrt();
        let angle = (u / r).clamp(-1.0, 1.0).acos();
        Self {
            area: if full {
                std::f64::consts::PI * r * r
            } else {
                r * r * angle - u * root
            },
            chord: if full { 0.0 } else { 2.0 * root },
            area_integral: -(r * r * (u * angle - root) + w * root / 3.0),
        }
    }
}

/// Seed 004 eq. (2): the small-penetration approximation S = 2/3·R²·φ³ with φ = √(2δ/R), m².
pub fn paper_segment_area(r: f64, delta: f64) -> f64 {
    if delta <= 0.0 {
        return 0.0;
    }
    let phi = (2.0 * delta / r).sqrt();
    2.0 / 3.0 * r * r * phi.powi(3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    /// The combined evaluation agrees with the three separate formulas over the whole range.
    #[test]
    fn combined_segment_matches_the_separate_formulas() {
        for r in [0.03, 0.055, 0.2] {
            for k in 0..=220 {
                let delta = r * (k as f64 / 100.0 - 0.1);
                let s = CircularSegment::new(r, delta);
                let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * (r * r * r + b.abs());
                assert!(
                    close(s.area, circular_segment_area(r, delta)),
                    "{r} {delta}"
                );
                assert!(
                    close(s.chord, circular_segment_chord(r, delta)),
                    "{r} {delta}"
                );
                assert!(
                    close(s.area_integral, circular_segment_area_integral(r, delta)),
                    "{r} {delta}"
                );
            }
        }
    }

    #[test]
    fn chord_is_the_derivative_of_the_segment_area() {
        let r = 0.05;
        for delta in [1e-4, 2e-3, 0.03, 0.09] {
            let h = 1e-7;
            let numeric = (circular_segment_area(r, delta + h)
                - circular_segment_area(r, delta - h))
                / (2.0 * h);
            let chord = circular_segment_chord(r, delta);
            assert!(
                (chord - numeric).abs() < 1e-6 * chord,
                "{delta}: {chord} vs {numeric}"
            );
        }
        assert_eq!(circular_segment_chord(r, 0.0), 0.0);
        assert_eq!(circular_segment_chord(r, 2.0 * r), 0.0);
    }

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
}
