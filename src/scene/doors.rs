//! Hinged doors in a scene (`[[door]]`): a leaf on a vertical hinge that swings one way from
//! its frame's stop, pulled shut by a door closer, held shut by a spring latch until its lever
//! handle is turned (seed 004's buildings; "open a latched door and drive through" of
//! manipulator trials). The wall and its opening are the scene's own elements; the door is the
//! leaf, its handle and what holds it.
//!
//! ```toml
//! [[door]]
//! name = "lab"
//! hinge = [4.0, 0.5, 0.0]   # the foot of the hinge line, world, m
//! toward = 90               # heading from the hinge to the latch edge, shut, degrees (0: +x)
//! width = 0.9               # the leaf, m
//! height = 2.0
//! swing = 95                # how far it opens, degrees: positive turns it anticlockwise
//!                           # seen from above, negative clockwise
//! latch = true              # a spring latch holds it shut until the handle is turned
//! closer = 18               # the closer's closing moment at the shut door, N·m (0: none)
//! ```
//!
//! **The closer.** A door closer is a spring and a hydraulic damper: its spring pulls with
//! `closer` N·m at the shut door (EN 1154 sizes it by this moment: at least 9, 13, 18, 26, 37,
//! 54, 87 N·m for sizes 1–7) and, wound further as the door opens, with twice that at 90°; its
//! damper lets the door shut from 90° in `close_time` s. The moment is `closer·(1 + θ/90°)`
//! and the damping `closer·close_time / (90°·ln 2)` N·m·s/rad, which shuts a door whose
//! inertia is small beside the damper in exactly `close_time` from 90°.
//!
//! **The latch and handle.** The lever handle turns about a spindle through the leaf, square
//! to it, `backset` m in from the latch edge at `handle_height`; levers on both faces point
//! toward the hinge, as building hardware is made, and turn down together, against a return
//! spring of `handle_torque` N·m, through `handle_travel` degrees. The latch bolt is drawn
//! while the handle is turned past [`LATCH_RELEASE`] of its travel; it snaps back in as the
//! door comes shut.

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

use super::load::{read_surface, MAX_EXTENT};
use crate::config::{ConfigError, TableReader};
use crate::terrain::SurfaceMaterial;

/// Most `[[door]]` tables in one scene.
pub const MAX_DOORS: usize = 200;
/// Share of the handle's travel past which the latch bolt is drawn.
pub const LATCH_RELEASE: f64 = 0.8;
/// Density of a solid-core flush door leaf, kg/m³: a 0.9 × 2.0 × 0.044 m leaf of 40 kg.
const LEAF_DENSITY: f64 = 500.0;
/// How far the lever stands off each face of the leaf, m (to its centre line).
pub const LEVER_STANDOFF: f64 = 0.055;
/// The lever's length from the spindle, m.
pub const LEVER_LENGTH: f64 = 0.13;
/// The lever's section radius, m.
pub const LEVER_RADIUS: f64 = 0.01;
/// Gap under the leaf, m: doors are hung clear of the floor (10–20 mm undercuts); the leaf
/// spans from this above the hinge's foot to its height.
pub const UNDERCUT: f64 = 0.01;
/// Damping of a door's hinges without a closer, N·m·s/rad: a free leaf swings on and slows.
pub const FREE_HINGE_DAMPING: f64 = 2.0;

/// One hinged door as the scene file places it.
#[derive(Debug, Clone, PartialEq)]
pub struct DoorSpec {
    /// Name, unique among the scene's doors (exercises and logs refer to it).
    pub name: String,
    /// The foot of the hinge line, m, world frame.
    pub hinge: Point3<f64>,
    /// Heading from the hinge to the latch edge with the door shut, rad (0: +x, anticlockwise).
    pub toward: f64,
    /// The leaf's width, height and thickness, m.
    pub size: [f64; 3],
    /// How far it opens from shut, rad: positive turns it anticlockwise seen from above.
    pub swing: f64,
    /// Where it starts, rad open (0: shut; in the sense of `swing`).
    pub open: f64,
    /// Whether a spring latch holds it shut until the handle is turned.
    pub latch: bool,
    /// The closer's closing moment at the shut door, N·m (0: no closer).
    pub closer: f64,
    /// Time the closer takes to shut it from 90°, s.
    pub close_time: f64,
    /// The leaf's mass, kg (default: solid-core wood, 500 kg/m³).
    pub mass: f64,
    /// The handle's spindle: height above the hinge's foot and distance in from the latch
    /// edge, m.
    pub handle_height: f64,
    /// The spindle's distance in from the latch edge, m.
    pub backset: f64,
    /// The handle's return spring, N·m.
    pub handle_torque: f64,
    /// The handle's travel from rest to fully down, rad.
    pub handle_travel: f64,
    /// Friction coefficient μ of the leaf and handle.
    pub friction: f64,
    /// Display colour, linear RGB in 0..=1.
    pub color: [f32; 3],
}

impl DoorSpec {
    /// Whether its latch holds it when the scene starts: a latched door that starts shut.
    pub fn starts_latched(&self) -> bool {
        self.latch && self.open == 0.0
    }

    /// The sense the leaf opens in about the hinge (world +z): +1 anticlockwise, −1 clockwise.
    pub fn sense(&self) -> f64 {
        self.swing.signum()
    }

    /// The leaf's pose open `angle` rad (in the sense of `swing`), world frame: origin at the
    /// hinge's foot, x toward the latch edge, y through the leaf's thickness, z up the hinge.
    pub fn leaf_pose(&self, angle: f64) -> Isometry3<f64> {
        let yaw = self.toward + self.sense() * angle;
        Isometry3::from_parts(
            Translation3::from(self.hinge.coords),
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), yaw),
        )
    }

    /// The handle's frame on the leaf (leaf frame): origin on the spindle in the leaf's
    /// mid-plane, z along the spindle (leaf y) in the sense that turns the levers down, x
    /// along the levers at rest (toward the hinge).
    pub fn handle_frame(&self) -> Isometry3<f64> {
        let spindle = Vector3::new(self.size[0] - self.backset, 0.0, self.handle_height);
        // Levers along −x (toward the hinge); turning down moves their tips along −z: the
        // spindle axis z × r with r = −x is −y.
        let rotation =
            UnitQuaternion::from_basis_unchecked(&[-Vector3::x(), -Vector3::z(), -Vector3::y()]);
        Isometry3::from_parts(Translation3::from(spindle), rotation)
    }

    /// Radius of a sphere about the leaf's centre that holds the leaf and its handles, m.
    pub fn bounding_radius(&self) -> f64 {
        let [w, h, t] = self.size;
        0.5 * (w * w + h * h + t * t).sqrt() + LEVER_STANDOFF + LEVER_RADIUS
    }

    /// The leaf's moment of inertia about the hinge, kg·m² (a plate turning about its edge).
    pub fn inertia(&self) -> f64 {
        let [w, _, t] = self.size;
        self.mass * (4.0 * w * w + t * t) / 12.0
    }

    /// The closer's spring moment with the door open `angle` rad, N·m (toward shut).
    pub fn closer_moment(&self, angle: f64) -> f64 {
        self.closer * (1.0 + angle.max(0.0) / std::f64::consts::FRAC_PI_2)
    }

    /// The closer's (or bare hinges') damping, N·m·s/rad.
    pub fn damping(&self) -> f64 {
        if self.closer > 0.0 {
            self.closer * self.close_time / (std::f64::consts::FRAC_PI_2 * std::f64::consts::LN_2)
        } else {
            FREE_HINGE_DAMPING
        }
    }
}

/// Reads the `[[door]]` tables.
pub(crate) fn read_doors(
    root: &TableReader<'_>,
    materials: &[SurfaceMaterial],
) -> Result<Vec<DoorSpec>, ConfigError> {
    root.named_tables(
        "door",
        MAX_DOORS,
        "door",
        |t| read_door(t, materials),
        |d| &d.name,
    )
}

fn read_door(t: &TableReader<'_>, materials: &[SurfaceMaterial]) -> Result<DoorSpec, ConfigError> {
    let name = t.str("name")?;
    if name.trim().is_empty() {
        return Err(t.error("name", "must not be empty"));
    }
    let hinge = Point3::from(t.array::<3>("hinge", -MAX_EXTENT, MAX_EXTENT)?);
    let toward = t.f64("toward", -360.0, 360.0)?.to_radians();
    let width = t.f64("width", 0.3, 3.0)?;
    let height = t.f64("height", 0.5, 5.0)?;
    let thickness = t.opt_f64("thickness", 0.01, 0.2)?.unwrap_or(0.044);
    let swing_deg = t.f64("swing", -180.0, 180.0)?;
    if swing_deg.abs() < 5.0 {
        return Err(t.error("swing", "a door opens at least 5 degrees either way"));
    }
    let swing = swing_deg.to_radians();
    let open = t
        .opt_f64("open", 0.0, swing_deg.abs())?
        .unwrap_or(0.0)
        .to_radians();
    let latch = t.opt_bool("latch")?.unwrap_or(false);
    let closer = t.opt_f64("closer", 0.0, 500.0)?.unwrap_or(0.0);
    let close_time = t.opt_f64("close_time", 1.0, 60.0)?.unwrap_or(5.0);
    let mass = t
        .opt_positive("mass", 2000.0)?
        .unwrap_or(LEAF_DENSITY * width * height * thickness);
    let handle_height = t
        .opt_f64("handle_height", 0.2, height - 0.1)?
        .unwrap_or(1.0);
    let backset = t
        .opt_f64("backset", 0.04, 0.5 * width)?
        .unwrap_or(0.06_f64.min(0.5 * width));
    let handle_torque = t.opt_f64("handle_torque", 0.1, 50.0)?.unwrap_or(1.5);
    let handle_travel = t
        .opt_f64("handle_travel", 10.0, 90.0)?
        .unwrap_or(40.0)
        .to_radians();
    // A painted flush door, off-white.
    let (friction, color) = read_surface(t, materials, Some([0.78, 0.76, 0.70]))?;
    t.finish()?;
    Ok(DoorSpec {
        name,
        hinge,
        toward,
        size: [width, height, thickness],
        swing,
        open,
        latch,
        closer,
        close_time,
        mass,
        handle_height,
        backset,
        handle_torque,
        handle_travel,
        friction,
        color,
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::config::SourceFile;

    fn read(text: &str) -> Result<Vec<DoorSpec>, ConfigError> {
        let file = SourceFile::from_text(Path::new("doors.toml"), text.to_string());
        let root = file.parse()?;
        read_doors(&root, &[SurfaceMaterial::default()])
    }

    const GOOD: &str = "[[door]]\nname = \"lab\"\nhinge = [4, 0.5, 0]\ntoward = 90\n\
                        width = 0.9\nheight = 2.0\nswing = -95\nlatch = true\ncloser = 18\n";

    #[test]
    fn a_door_reads_with_its_defaults() {
        let doors = read(GOOD).unwrap();
        let d = &doors[0];
        assert_eq!(d.name, "lab");
        assert_eq!(d.sense(), -1.0);
        assert!(d.latch && d.open == 0.0);
        // 0.9 × 2.0 × 0.044 m at 500 kg/m³: 39.6 kg; about its edge m·(4w² + t²)/12 = 10.7 kg·m².
        assert!((d.mass - 39.6).abs() < 1e-9, "{}", d.mass);
        assert!((d.inertia() - 10.698).abs() < 0.01, "{}", d.inertia());
        // Shut, the latch edge lies 0.9 m along +y from the hinge.
        let edge = d.leaf_pose(0.0) * Point3::new(0.9, 0.0, 0.0);
        assert!((edge - Point3::new(4.0, 1.4, 0.0)).norm() < 1e-12, "{edge}");
        // Opened clockwise by 90°, it points along +x.
        let edge = d.leaf_pose(std::f64::consts::FRAC_PI_2) * Point3::new(0.9, 0.0, 0.0);
        assert!((edge - Point3::new(4.9, 0.5, 0.0)).norm() < 1e-12, "{edge}");
        // The closer: 18 N·m shut, 36 at 90°; damping 18·5/(π/2·ln 2) = 82.7 N·m·s/rad.
        assert!((d.closer_moment(0.0) - 18.0).abs() < 1e-12);
        assert!((d.closer_moment(std::f64::consts::FRAC_PI_2) - 36.0).abs() < 1e-12);
        assert!((d.damping() - 82.66).abs() < 0.01, "{}", d.damping());
    }

    #[test]
    fn the_handle_turns_its_levers_down_toward_the_hinge() {
        let d = &read(GOOD).unwrap()[0];
        let frame = d.handle_frame();
        // The spindle 60 mm in from the latch edge, 1.0 m up.
        assert!((frame.translation.vector - Vector3::new(0.84, 0.0, 1.0)).norm() < 1e-12);
        // A lever tip at rest points toward the hinge (−x of the leaf); a positive turn about
        // the spindle (frame z) moves it down.
        let tip = frame * Point3::new(LEVER_LENGTH, 0.0, 0.0);
        assert!(tip.x < 0.84 && (tip.z - 1.0).abs() < 1e-12);
        let turned = frame
            * UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 0.3)
            * Point3::new(LEVER_LENGTH, 0.0, 0.0);
        assert!(turned.z < 1.0, "{turned}");
    }

    #[test]
    fn bad_doors_are_refused_with_file_line_and_field() {
        let cases: &[(&str, &str, &str)] = &[
            ("width = 0.9", "width = 0.1", "door[0].width"),
            ("swing = -95", "swing = 2", "door[0].swing"),
            ("swing = -95", "swing = 200", "door[0].swing"),
            ("swing = -95", "swing = -95\nopen = 120", "door[0].open"),
            ("closer = 18", "closer = -1", "door[0].closer"),
            (
                "closer = 18",
                "closer = 18\nhandle_height = 2.5",
                "door[0].handle_height",
            ),
            ("latch = true", "latch = 1", "door[0].latch"),
            ("closer = 18", "closer = 18\nhandel = 1", "handel"),
        ];
        for (old, new, field) in cases {
            let text = GOOD.replace(old, new);
            let message = read(&text).unwrap_err().to_string();
            assert!(
                message.contains("doors.toml") && message.contains(field),
                "{new}: {message}"
            );
        }
        let twice = format!("{GOOD}{GOOD}");
        let message = read(&twice).unwrap_err().to_string();
        assert!(message.contains("defined twice"), "{message}");
    }
}
