//! The scene's own lights (`[[light]]`: ceiling lights, street lamps) in the station's views.
//!
//! They are on when the daylight is dimmed (an exercise's `ambient_light` below 1: night, a
//! site without sun), so a lit aisle stays lit and an area without lights is seen only by the
//! robot's work lights. A renderer shades with a fixed number of lights (the flat path
//! `flat_material::MAX_FLAT_LIGHTS`, kiss3d's own `MAX_LIGHTS`), the sun, the fill light and the robot's
//! lamps among them, so of a site's many lights only those nearest the robot are switched on,
//! re-chosen as it moves: what lights the scene round the robot, which is what its cameras see.
//!
//! On the full (GPU) render path the nearest of the lights on also cast shadows, as many as
//! the shadow atlas has views left for ([`shadow_casters`]): pipes, tanks and guard rails
//! throw the shadows under ceiling lights and street lamps that tell an operator where things
//! stand. The fast (CPU) path draws no shadows and gives them none.

use kiss3d::color::Color;
use kiss3d::light::Light;
use kiss3d::scene::SceneNode3d;
use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};

use super::pose3;
use crate::scene::{LightKind, SceneLight};

/// A light further than this outside its range from the robot is never chosen, m: it lights
/// nothing a camera near the robot sees well.
const REACH: f64 = 15.0;

/// The site's lights as scene nodes, and which of them are on.
pub struct SiteLights {
    /// Each light's node.
    nodes: Vec<SceneNode3d>,
    /// Each light's place and reach (world, m), as [`nearest_lights`] ranks them.
    places: Vec<(Point3<f64>, f64)>,
    /// Whether the site's lights are on at all (the daylight is dimmed).
    on: bool,
    /// How many may be on at once.
    budget: usize,
    /// The lights on now, by index (nearest first).
    chosen: Vec<usize>,
    /// Shadow-atlas views each light's shadow takes ([`shadow_views`]).
    views: Vec<usize>,
    /// Shadow-atlas views the site's lights may take (0: none casts a shadow).
    shadow_budget: usize,
    /// The lights casting shadows now, by index (a subset of `chosen`).
    casting: Vec<usize>,
}

impl SiteLights {
    /// Adds `lights` under `parent`, all off.
    pub fn new(parent: &mut SceneNode3d, lights: &[SceneLight]) -> Self {
        let nodes = lights
            .iter()
            .map(|l| {
                let color =
                    Color::new(l.color[0] as f32, l.color[1] as f32, l.color[2] as f32, 1.0);
                let (light, rotation) = match l.kind {
                    LightKind::Point => (Light::point(l.range as f32), UnitQuaternion::identity()),
                    LightKind::Spot {
                        direction,
                        half_angle,
                    } => (
                        Light::spot((0.7 * half_angle) as f32, half_angle as f32, l.range as f32),
                        // kiss3d's spot lights shine along their node's −z.
                        UnitQuaternion::rotation_between(&-Vector3::z(), &direction)
                            .unwrap_or_else(|| {
                                UnitQuaternion::from_euler_angles(std::f64::consts::PI, 0.0, 0.0)
                            }),
                    ),
                };
                let mut node = parent.add_group();
                node.set_pose(pose3(&Isometry3::from_parts(
                    l.position.coords.into(),
                    rotation,
                )));
                node.set_light(Some(
                    light
                        .with_color(color)
                        .with_intensity(l.intensity as f32)
                        .with_casts_shadows(false)
                        .with_enabled(false),
                ));
                node
            })
            .collect();
        Self {
            nodes,
            places: lights.iter().map(|l| (l.position, l.range)).collect(),
            on: false,
            budget: 0,
            chosen: Vec::new(),
            views: lights.iter().map(|l| shadow_views(&l.kind)).collect(),
            shadow_budget: 0,
            casting: Vec::new(),
        }
    }

    /// Whether the lights are on, how many of them may be on at once, and how many
    /// shadow-atlas views their shadows may take (0: no shadows, as on the fast path).
    pub fn set(&mut self, on: bool, budget: usize, shadow_budget: usize) {
        self.on = on;
        self.budget = budget;
        self.shadow_budget = shadow_budget;
    }

    /// Switches on the lights nearest `robot` (world, m) within the budget, the rest off, and
    /// lets the nearest of them cast shadows within the shadow budget.
    pub fn update(&mut self, robot: &Point3<f64>) {
        let chosen = if self.on {
            nearest_lights(&self.places, robot, self.budget)
        } else {
            Vec::new()
        };
        let casting = shadow_casters(&chosen, &self.views, self.shadow_budget);
        if chosen == self.chosen && casting == self.casting {
            return;
        }
        for (k, node) in self.nodes.iter_mut().enumerate() {
            let enabled = chosen.contains(&k);
            let shadows = casting.contains(&k);
            node.modify_light(|l| {
                l.enabled = enabled;
                l.casts_shadows = shadows;
            });
        }
        self.chosen = chosen;
        self.casting = casting;
    }
}

/// Shadow-atlas views a light of `kind` takes on kiss3d's full path: a spot light's shadow
/// is one perspective view, a point light's a cube map of six.
pub fn shadow_views(kind: &LightKind) -> usize {
    match kind {
        LightKind::Point => 6,
        LightKind::Spot { .. } => 1,
    }
}

/// Of the lights on, `chosen` (indices, nearest first), those that cast shadows within
/// `budget` shadow-atlas views, `views[k]` being light k's: nearest first; one that does not
/// fit is passed over and a smaller one further off may still fit (a spot after a point
/// light), as kiss3d fills its atlas. Nearest first, because a light's shadows matter where
/// its light is strong: round the robot, where its cameras look.
pub fn shadow_casters(chosen: &[usize], views: &[usize], budget: usize) -> Vec<usize> {
    let mut left = budget;
    let mut casting = Vec::new();
    for &k in chosen {
        let needed = views.get(k).copied().unwrap_or(usize::MAX);
        if needed <= left {
            left -= needed;
            casting.push(k);
        }
    }
    casting
}

/// Indices of at most `budget` of the lights `(position, range)` that matter most at `eye`:
/// nearest to reaching it first (distance less range), ties by index; none more than
/// [`REACH`] outside its range.
pub fn nearest_lights(
    lights: &[(Point3<f64>, f64)],
    eye: &Point3<f64>,
    budget: usize,
) -> Vec<usize> {
    let mut ranked: Vec<(f64, usize)> = lights
        .iter()
        .enumerate()
        .map(|(k, (p, range))| ((p - eye).norm() - range, k))
        .filter(|(outside, _)| *outside <= REACH)
        .collect();
    ranked.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    ranked.into_iter().take(budget).map(|(_, k)| k).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_lights_within_reach_are_chosen() {
        let lights = [
            (Point3::new(0.0, 0.0, 4.0), 6.0),
            (Point3::new(10.0, 0.0, 4.0), 6.0),
            (Point3::new(3.0, 0.0, 4.0), 6.0),
            (Point3::new(100.0, 0.0, 4.0), 6.0),
            (Point3::new(3.0, 0.0, 4.0), 6.0),
        ];
        let eye = Point3::new(2.0, 0.0, 0.0);
        assert_eq!(nearest_lights(&lights, &eye, 2), [2, 4]);
        assert_eq!(nearest_lights(&lights, &eye, 10), [2, 4, 0, 1]);
        assert!(nearest_lights(&lights, &eye, 0).is_empty());
        // A long reach counts: a street lamp 12 m away reaching 10 m beats a bulb 8 m away
        // reaching 2 m.
        let mixed = [
            (Point3::new(8.0, 0.0, 0.0), 2.0),
            (Point3::new(12.0, 0.0, 0.0), 10.0),
        ];
        assert_eq!(nearest_lights(&mixed, &Point3::origin(), 1), [1]);
    }

    #[test]
    fn the_nearest_lights_cast_shadows_while_the_atlas_has_room() {
        let spot = LightKind::Spot {
            direction: -Vector3::z(),
            half_angle: 0.6,
        };
        let kinds = [
            LightKind::Point,
            spot,
            LightKind::Point,
            LightKind::Point,
            spot,
        ];
        let views: Vec<usize> = kinds.iter().map(shadow_views).collect();
        assert_eq!(views, [6, 1, 6, 6, 1]);
        // Nearest first: with 12 views, point 3 (6) and spot 1 (1) fit; point 0 would bring
        // it to 13 and is passed over, as is point 2; the far spot 4 still fits.
        assert_eq!(shadow_casters(&[3, 1, 0, 2, 4], &views, 12), [3, 1, 4]);
        assert_eq!(shadow_casters(&[3, 1, 0, 2, 4], &views, 13), [3, 1, 0]);
        assert_eq!(shadow_casters(&[3, 1, 0, 2, 4], &views, 14), [3, 1, 0, 4]);
        // No budget (the fast path), or no lights on: no shadows.
        assert!(shadow_casters(&[3, 1, 0], &views, 0).is_empty());
        assert!(shadow_casters(&[], &views, 16).is_empty());
        // An index beyond the table never casts.
        assert!(shadow_casters(&[9], &views, 16).is_empty());
    }
}
