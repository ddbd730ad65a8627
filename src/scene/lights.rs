//! `[[light]]` tables: the lights a site has of its own — ceiling lights, street lamps, a
//! lamp over a valve — which the station draws beside the sun and the robot's work lights.
//! They are what lets a site be dark in places: with an exercise's `ambient_light` low (night,
//! a power cut) the lit areas stay lit and the rest is seen only by the robot's lights.
//!
//! ```toml
//! [[light]]
//! name = "aisle_1"            # optional, default light#<index>
//! kind = "spot"               # point (default) | spot
//! position = [8.0, 0.0, 3.5]  # world, m
//! direction = [0, 0, -1]      # spot: the way it shines (default straight down)
//! cone_deg = 100              # spot: full angle of the cone (default 90)
//! range = 8.0                 # reach, m (default 8)
//! intensity = 1.5             # brightness, the station's units (the sun is 2.0; default 1.5)
//! color = [1.0, 0.95, 0.85]   # linear RGB (default warm white)
//! ```

use nalgebra::{Point3, Vector3};

use crate::config::{ConfigError, TableReader};

/// Most lights in one scene.
pub const MAX_LIGHTS: usize = 256;

/// How a scene light shines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LightKind {
    /// Equally in every direction (a bulb, a lamp globe).
    Point,
    /// In a cone about `direction` (a downlight, a street lamp's head, a floodlight).
    Spot {
        /// Unit vector the light shines along, world frame.
        direction: Vector3<f64>,
        /// Half the cone's full angle, rad.
        half_angle: f64,
    },
}

/// A `[[light]]` table: one light of the site.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneLight {
    /// Name (shown by `check`).
    pub name: String,
    /// Point or spot, with a spot's direction and cone.
    pub kind: LightKind,
    /// Where it is, world frame, m.
    pub position: Point3<f64>,
    /// How far it reaches, m (its light fades to nothing there).
    pub range: f64,
    /// Brightness, in the station's light units (the sun's is 2.0, a work light's 3.0).
    pub intensity: f64,
    /// Colour, linear RGB in 0..=1.
    pub color: [f64; 3],
}

/// Reads every `[[light]]` table of `root` (at most [`MAX_LIGHTS`]).
pub fn read_lights(root: &TableReader<'_>) -> Result<Vec<SceneLight>, ConfigError> {
    let mut out: Vec<SceneLight> = Vec::new();
    for (i, t) in root.tables("light", MAX_LIGHTS)?.into_iter().enumerate() {
        let name = t.opt_str("name")?.unwrap_or_else(|| format!("light#{i}"));
        if out.iter().any(|l| l.name == name) {
            return Err(t.error("name", format!("light '{name}' is defined twice")));
        }
        let position = Point3::from(t.array::<3>("position", -1e4, 1e4)?);
        let kind = match t.opt_str("kind")?.as_deref() {
            None | Some("point") => {
                for spot_only in ["direction", "cone_deg"] {
                    if t.has(spot_only) {
                        return Err(
                            t.error(spot_only, "only a spot light has it (kind = \"spot\")")
                        );
                    }
                }
                LightKind::Point
            }
            Some("spot") => {
                let d = Vector3::from(
                    t.opt_array::<3>("direction", -1e4, 1e4)?
                        .unwrap_or([0.0, 0.0, -1.0]),
                );
                let length = d.norm();
                if length < 1e-9 {
                    return Err(t.error("direction", "must not be the zero vector"));
                }
                let cone = t.opt_f64("cone_deg", 1.0, 179.0)?.unwrap_or(90.0);
                LightKind::Spot {
                    direction: d / length,
                    half_angle: (cone / 2.0).to_radians(),
                }
            }
            Some(other) => {
                return Err(t.error(
                    "kind",
                    format!("unknown light kind '{other}' (point or spot)"),
                ))
            }
        };
        let light = SceneLight {
            name,
            kind,
            position,
            range: t.opt_f64("range", 0.1, 100.0)?.unwrap_or(8.0),
            intensity: t.opt_f64("intensity", 0.0, 100.0)?.unwrap_or(1.5),
            color: t
                .opt_array::<3>("color", 0.0, 1.0)?
                .unwrap_or([1.0, 0.95, 0.85]),
        };
        t.finish()?;
        out.push(light);
    }
    Ok(out)
}
