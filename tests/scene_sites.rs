//! The seed's sites in `scenes/` (issue 39): the urban street, the subway station and the
//! nuclear plant have the dimensions `scenes/README.md` gives them from their sources —
//! kerb upstands and the 1:12 dropped kerbs (ADA Standards §405.2, §406.1), the escalator's
//! 0.2 m rise at 30°, the platform's 1.1 m drop and the train's gap, the gates' clear widths,
//! the airlock's sills, the aisle's width and the cable tray's clearance, the grating stair —
//! and their exercises' hazards are where they say: the bag hidden from the road, the
//! mezzanine's open hatch. Measured on the loaded terrain by vertical and horizontal rays.

mod common;

use common::{scene_element, scene_file};
use nalgebra::{Point3, Vector3};
use treadsim::scene::Scene;

/// Heights and distances are built to the millimetre or better.
const TOL: f64 = 1e-6;

/// World z of the highest surface under `(x, y)` below `from_z`, m.
fn ground(scene: &Scene, x: f64, y: f64, from_z: f64) -> f64 {
    scene
        .terrain
        .ground_below(&Point3::new(x, y, from_z), 50.0)
        .unwrap_or_else(|| panic!("no ground under ({x}, {y}) from z {from_z}"))
}

/// Distance from `from` along `dir` to the first surface, m (`f64::INFINITY` within 20 m: none).
fn ray(scene: &Scene, from: [f64; 3], dir: [f64; 3]) -> f64 {
    let dir = Vector3::from(dir).normalize();
    scene
        .terrain
        .ray_distance(&Point3::from(from), &dir, 20.0)
        .unwrap_or(f64::INFINITY)
}

/// Each flight's nosings are `count` steps of `rise` over `run` (horizontal), and its angle is
/// `angle_deg` within 0.01°.
fn assert_flight(scene: &Scene, name: &str, count: usize, rise: f64, run: f64, angle_deg: f64) {
    let flight = scene_element(scene, name);
    assert_eq!(flight.nosings.len(), count, "{name}: steps");
    for w in flight.nosings.windows(2) {
        let d = w[1] - w[0];
        let (horizontal, vertical) = (d.x.hypot(d.y), d.z.abs());
        assert!(
            (horizontal - run).abs() < 1e-4 && (vertical - rise).abs() < 1e-9,
            "{name}: nosings {horizontal} × {vertical} m apart, expected {run} × {rise}"
        );
        let angle = vertical.atan2(horizontal).to_degrees();
        assert!(
            (angle - angle_deg).abs() < 0.01,
            "{name}: {angle}°, expected {angle_deg}°"
        );
    }
}

#[test]
fn street_kerbs_are_150_mm_and_the_dropped_kerbs_1_in_12_and_flush() {
    let s = scene_file("street");
    // Road at 0, pavements 0.15 above it, the kerb a vertical step at y = ±3.5.
    for (x, y) in [(5.0, -1.0), (20.0, 2.0), (40.0, -2.0)] {
        assert!(ground(&s, x, y, 1.0).abs() < TOL, "road at ({x}, {y})");
    }
    for (x, y_pavement, y_road) in [(5.0, -3.51, -3.49), (20.0, 3.51, 3.49)] {
        assert!((ground(&s, x, y_pavement, 1.0) - 0.15).abs() < TOL);
        assert!(ground(&s, x, y_road, 1.0).abs() < TOL);
    }
    // The dropped kerbs: flush with the road (no upstand) and rising at 1:12 across 1.8 m to
    // the 1.2 m level landing at pavement height.
    for side in [-1.0, 1.0] {
        let at = |d: f64| ground(&s, 33.0, side * (3.5 + d), 1.0);
        assert!(at(0.001).abs() < 1e-3, "dropped kerb upstand {}", at(0.001));
        for i in 0..8 {
            let (a, b) = (0.1 + 0.2 * f64::from(i), 0.3 + 0.2 * f64::from(i));
            let slope = (at(b) - at(a)) / (b - a);
            assert!(
                (slope - 1.0 / 12.0).abs() < 1e-6,
                "dropped kerb slope {slope} between {a} and {b} m from the kerb line"
            );
        }
        for d in [1.85, 2.4, 2.95] {
            assert!(
                (at(d) - 0.15).abs() < TOL,
                "landing {d} m from the kerb line"
            );
        }
    }
    // The pothole: 0.10 m deep under the road's surface.
    assert!((ground(&s, 9.4, -0.85, 1.0) + 0.1).abs() < TOL);
    // The shop's entrance: three steps of 150/300 mm up to its floor, 0.45 m above the pavement.
    assert_flight(&s, "shop_steps", 3, 0.15, 0.30, 26.565);
    assert!((ground(&s, 39.0, 8.2, 2.0) - 0.60).abs() < TOL);
}

#[test]
fn street_bag_is_hidden_from_the_road_and_seen_from_the_shelter_side() {
    let s = scene_file("street");
    // The exercise's target, the middle of the bag's face towards the shops.
    let bag = Point3::new(19.9, -4.75, 0.33);
    // A camera 0.36 m up, on the road beside the shelter and in the lane, sees the back panel.
    for (x, y) in [(19.9, -1.0), (19.9, -3.0), (18.0, -2.0)] {
        let eye = Point3::new(x, y, 0.36);
        assert!(!s.terrain.line_of_sight(&eye, &bag), "seen from ({x}, {y})");
    }
    // From the pavement behind the shelter (its open side) it is in plain view.
    let eye = Point3::new(19.9, -5.6, 0.51);
    assert!(s.terrain.line_of_sight(&eye, &bag));
}

#[test]
fn subway_levels_escalator_and_platform_edge_are_as_designed() {
    let s = scene_file("subway");
    for (x, y, z, what) in [
        (-4.0, 0.0, 7.3, "street plaza"),
        (3.9, 0.0, 5.65, "entrance stairs' mid landing"),
        (10.5, 0.0, 4.0, "concourse"),
        (30.0, 1.2, 0.0, "platform"),
        (35.0, 6.0, -1.1, "track bed"),
    ] {
        let g = ground(&s, x, y, z + 0.5);
        assert!((g - z).abs() < TOL, "{what}: ground {g}, expected {z}");
    }
    // Two flights of 10 risers 165/300 mm; the escalator 20 steps of 0.2 m at 30°.
    assert_flight(&s, "entrance_upper_flight", 10, 0.165, 0.30, 28.811);
    assert_flight(&s, "entrance_lower_flight", 10, 0.165, 0.30, 28.811);
    assert_flight(&s, "escalator", 20, 0.2, 0.34641, 30.0);
    // The platform edge: 1.1 m straight down to the track bed where no train stands.
    assert!(ground(&s, 35.0, 2.999, 0.5).abs() < TOL);
    assert!((ground(&s, 35.0, 3.001, 0.5) + 1.1).abs() < TOL);
    // At the train: a 0.1 m gap down to the track bed, then the car floor 50 mm up.
    assert!((ground(&s, 49.0, 3.05, 0.5) + 1.1).abs() < TOL);
    assert!((ground(&s, 49.0, 3.5, 0.5) - 0.05).abs() < TOL);
    // The middle door is 1.3 m clear and 1.9 m high.
    let half = [
        ray(&s, [49.0, 3.15, 1.0], [1.0, 0.0, 0.0]),
        ray(&s, [49.0, 3.15, 1.0], [-1.0, 0.0, 0.0]),
    ];
    assert!(
        half.iter().all(|d| (d - 0.65).abs() < TOL),
        "door: {half:?}"
    );
    assert!((ray(&s, [49.0, 3.15, 0.5], [0.0, 0.0, 1.0]) - 1.45).abs() < TOL);
}

#[test]
fn subway_gate_line_passes_only_through_the_wide_gate() {
    let s = scene_file("subway");
    // The wide gate: 0.9 m clear between its cabinets, nothing across it.
    let (north, south) = (
        ray(&s, [14.0, 1.15, 4.3], [0.0, 1.0, 0.0]),
        ray(&s, [14.0, 1.15, 4.3], [0.0, -1.0, 0.0]),
    );
    assert!(
        (north + south - 0.9).abs() < TOL,
        "wide gate {north} + {south}"
    );
    assert!(s
        .terrain
        .line_of_sight(&Point3::new(12.0, 1.15, 4.3), &Point3::new(16.0, 1.15, 4.3)));
    // The standard passages: 0.55 m between cabinets, shut by their paddles from 0.1 to 0.9 m.
    for y in [-2.425, -1.575, -0.725, 0.125] {
        let width =
            ray(&s, [13.5, y, 4.3], [0.0, 1.0, 0.0]) + ray(&s, [13.5, y, 4.3], [0.0, -1.0, 0.0]);
        assert!((width - 0.55).abs() < TOL, "passage at y {y}: {width} m");
        for z in [4.15, 4.5, 4.85] {
            let d = ray(&s, [12.0, y, z], [1.0, 0.0, 0.0]);
            assert!((d - 1.98).abs() < TOL, "paddle at y {y}, z {z}: {d}");
        }
    }
}

#[test]
fn plant_sills_aisle_tray_stair_and_hatch_are_as_designed() {
    let s = scene_file("nuclear_plant");
    // Both airlock doors: a 0.2 m sill, 1.0 m clear between the jambs, 2.0 m clear above it.
    for x in [0.15, 3.45] {
        assert!((ground(&s, x, 0.0, 1.0) - 0.2).abs() < TOL, "sill at x {x}");
        let width =
            ray(&s, [x, 0.0, 1.0], [0.0, 1.0, 0.0]) + ray(&s, [x, 0.0, 1.0], [0.0, -1.0, 0.0]);
        assert!((width - 1.0).abs() < TOL, "door at x {x}: {width} m");
        assert!((ray(&s, [x, 0.0, 0.25], [0.0, 0.0, 1.0]) - 1.95).abs() < TOL);
    }
    // The aisle: 0.9 m between a pump skid and the tanks' faces, at each tank.
    for x in [7.0, 11.0, 15.0] {
        let width =
            ray(&s, [x, 0.0, 1.0], [0.0, 1.0, 0.0]) + ray(&s, [x, 0.0, 1.0], [0.0, -1.0, 0.0]);
        assert!((width - 0.9).abs() < TOL, "aisle at x {x}: {width} m");
    }
    // The cable tray: 0.40 m clear above the floor; the floor pipe 114 mm high.
    assert!((ray(&s, [12.5, 0.0, 0.01], [0.0, 0.0, 1.0]) - 0.39).abs() < TOL);
    assert!((ground(&s, 10.0, 0.0, 1.0) - 0.1144).abs() < 1e-3);
    // The grating stair: 12 risers of 190/270 mm (35.13°) up to the mezzanine at 2.28 m.
    assert_flight(&s, "grating_stair", 12, 0.19, 0.27, 35.134);
    assert!((ground(&s, 26.8, -4.5, 3.0) - 2.28).abs() < TOL);
    // The hatch: open to the floor 2.28 m below, the deck round it solid.
    assert!(ground(&s, 27.7, -3.0, 3.0).abs() < TOL);
    for (x, y) in [(27.7, -3.7), (27.7, -2.3), (27.0, -3.0), (28.4, -3.0)] {
        assert!(
            (ground(&s, x, y, 3.0) - 2.28).abs() < TOL,
            "deck at ({x}, {y})"
        );
    }
    // The valves (turnable handwheels) stand on the panel facing into the plant, and they and
    // the gauge are in view from where a robot stands.
    let names: Vec<&str> = s.valves.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["V-101", "V-102"]);
    for v in &s.valves {
        assert!((v.axis.into_inner() - Vector3::new(-1.0, 0.0, 0.0)).norm() < 1e-12);
        assert!(
            (2.0 * (v.radius + v.rim) - 0.364).abs() < 0.01,
            "{} across",
            v.name
        );
        assert!((v.centre.z - 0.6).abs() < TOL);
    }
    // `treadsim check` lists them.
    let listed = treadsim::scene::summary(&s, 0.0);
    assert!(
        listed.contains("valve V-101") && listed.contains("3.0 N·m, 5.00 of 5.00 turns open"),
        "{listed}"
    );
    for (eye, target) in [
        ([21.2, -1.0, 0.36], [21.92, -1.0, 0.6]),
        ([21.2, 1.0, 0.36], [21.92, 1.0, 0.6]),
        ([29.2, -1.5, 2.64], [29.97, -1.5, 2.65]),
    ] {
        assert!(s
            .terrain
            .line_of_sight(&Point3::from(eye), &Point3::from(target)));
    }
}

/// The plant's lights leave the grating stair and the mezzanine dark (no light reaches them:
/// the "area without light", where the work lights matter in `plant_mezzanine_dark`),
/// while the aisle, the valve station and the airlock each lie within a light's range.
#[test]
fn plant_lights_leave_the_mezzanine_dark() {
    let s = scene_file("nuclear_plant");
    let lit = |p: Point3<f64>| s.lights.iter().any(|l| (l.position - p).norm() < l.range);
    for (x, y, z) in [
        (1.8, 0.0, 0.3),
        (8.0, 0.0, 0.3),
        (16.0, 0.0, 0.3),
        (21.0, -1.0, 0.5),
    ] {
        assert!(lit(Point3::new(x, y, z)), "({x}, {y}, {z}) is dark");
    }
    for (x, y, z) in [
        (24.4, -4.5, 1.5),
        (26.8, -4.5, 2.5),
        (27.7, -3.0, 2.5),
        (29.0, -1.5, 2.6),
    ] {
        assert!(!lit(Point3::new(x, y, z)), "({x}, {y}, {z}) is lit");
    }
}
