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

/// Largest depth, as a fraction ε = δ/r of the radius, at which [`CircularSegment::new`] sums
/// the series ([`AREA_SERIES`]) instead of the closed form: there its first 12 terms are
/// exact to 3e-17 (relative) for the area and 5e-18 for its integral, below the rounding of
/// the result.
const SERIES_MAX_DEPTH: f64 = 0.15;

/// S/r² = √(2ε)·ε·Σ aₙ·εⁿ for a circle pressed in by ε = δ/r: integrating the chord/r,
/// dS/dε / r² = 2√(ε(2 − ε)) = 2√(2ε)·√(1 − ε/2), term by term, aₙ = 2·C(½, n)·(−½)ⁿ/(n + 3/2).
/// Near the surface (δ ≪ r, every wheel on firm ground) the closed form r²·acos(1 − ε) −
/// (r − δ)·√(2rδ − δ²) subtracts two nearly equal terms, after `acos` has magnified the
/// rounding of 1 − ε, and loses about 2·log₁₀(1/ε) digits (5e-6 relative at ε = 1e-6); the
/// series loses none and needs no `acos`.
const AREA_SERIES: [f64; 12] = [
    4.0 / 3.0,
    -1.0 / 5.0,
    -1.0 / 56.0,
    -1.0 / 288.0,
    -5.0 / 5632.0,
    -7.0 / 26624.0,
    -7.0 / 81920.0,
    -33.0 / 1114112.0,
    -429.0 / 39845888.0,
    -715.0 / 176160768.0,
    -2431.0 / 1543503872.0,
    -4199.0 / 6710886400.0,
];

/// ∫₀^ε S/r² dε' = √(2ε)·ε²·Σ bₙ·εⁿ, bₙ = aₙ/(n + 5/2) ([`AREA_SERIES`] integrated term by term).
const AREA_INTEGRAL_SERIES: [f64; 12] = [
    8.0 / 15.0,
    -2.0 / 35.0,
    -1.0 / 252.0,
    -1.0 / 1584.0,
    -5.0 / 36608.0,
    -7.0 / 199680.0,
    -7.0 / 696320.0,
    -33.0 / 10584064.0,
    -143.0 / 139460608.0,
    -715.0 / 2025848832.0,
    -2431.0 / 19293798400.0,
    -4199.0 / 90596966400.0,
];

/// Σ cₙ·xⁿ over 12 coefficients, by Estrin's scheme: four levels of multiply-adds instead of
/// Horner's twelve in a row, so the contact law waits less for it.
#[inline]
fn polynomial_12(c: &[f64; 12], x: f64) -> f64 {
    let x2 = x * x;
    let x4 = x2 * x2;
    let x8 = x4 * x4;
    let pair = |k: usize| c[k] + c[k + 1] * x;
    let low = (pair(0) + pair(2) * x2) + (pair(4) + pair(6) * x2) * x4;
    let high = pair(8) + pair(10) * x2;
    low + high * x8
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
        if delta <= SERIES_MAX_DEPTH * r {
            let depth = delta / r;
            let scale = (2.0 * depth).sqrt() * depth * r * r;
            return Self {
                area: scale * polynomial_12(&AREA_SERIES, depth),
                // 2·√(2rδ − δ²), with 2rδ − δ² formed without cancellation.
                chord: 2.0 * (delta * (2.0 * r - delta)).sqrt(),
                area_integral: scale * delta * polynomial_12(&AREA_INTEGRAL_SERIES, depth),
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

    /// Against the area, its integral and the chord worked out to 40 digits (mpmath: acos for
    /// the area, quadrature of it for the integral) at depths from 1e-6 r to 1.2 r, on both
    /// sides of the switch from the series to the closed form: the series within three
    /// rounding errors (6.7e-16 relative), where the closed form loses digits to
    /// cancellation; the closed form beyond the switch within 1e-13.
    #[test]
    fn segment_matches_high_precision_references() {
        // ε = δ/r; S/r², ∫S dδ / r³, chord/r.
        let references = [
            (
                1e-6,
                1.885_617_800_321_389e-9,
                7.542_471_524_534_415e-16,
                0.002_828_426_417_639_320_5,
            ),
            (
                1e-3,
                5.961_953_432_933_336e-5,
                2.384_883_607_624_380_5e-8,
                0.089_420_355_624_432_63,
            ),
            (
                0.017,
                0.004_168_852_796_531_379,
                2.836_895_467_626_377_8e-5,
                0.367_211_110_943_010_55,
            ),
            (
                0.1,
                0.058_725_906_877_601_81,
                0.002_359_403_761_673_566_8,
                0.871_779_788_708_134_7,
            ),
            (
                0.15,
                0.107_045_748_483_830_09,
                0.006_465_911_002_632_26,
                1.053_565_375_285_273_9,
            ),
            (
                0.3,
                0.295_498_840_186_144,
                0.035_959_378_440_156_06,
                1.428_285_685_708_57,
            ),
            (
                1.2,
                1.968_113_427_007_881_7,
                1.020_692_059_554_07,
                1.959_591_794_226_542_5,
            ),
        ];
        for r in [0.035, 0.055, 1.0] {
            for (depth, area, integral, chord) in references {
                let s = CircularSegment::new(r, depth * r);
                let tolerance = if depth <= SERIES_MAX_DEPTH {
                    6.7e-16
                } else {
                    1e-13
                };
                let relative = |got: f64, want: f64| (got / want - 1.0).abs();
                assert!(
                    relative(s.area, area * r * r) <= tolerance,
                    "{r} {depth} area"
                );
                assert!(
                    relative(s.area_integral, integral * r * r * r) <= tolerance,
                    "{r} {depth} integral"
                );
                assert!(
                    relative(s.chord, chord * r) <= tolerance,
                    "{r} {depth} chord"
                );
            }
        }
    }

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
