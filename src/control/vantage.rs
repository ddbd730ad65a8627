//! Where to look from: the trial pilot's plan for an observation goal (a target a camera must
//! see within a range and an angle of its axis, with a clear line of sight over the terrain),
//! as an operator makes it on a search task — pick a place from which the robot's own camera
//! really sees the target, and a way there round what the robot cannot drive over.
//!
//! The plan is made once per target, on a grid of [`CELL`] over the ground between the robot
//! and the target (and [`MARGIN`] round them), in stages:
//! 1. [`HeightMap::survey`]: the ground's height in each cell (the highest surface below a
//!    point [`SURVEY_ABOVE`] over the robot's floor, so a ceiling above does not count);
//! 2. [`HeightMap::passable`]: a cell is blocked where the ground stands more than
//!    [`OBSTACLE_HEIGHT`] above or below the robot's floor (a barrier, a post, a large pipe,
//!    a drop), and every cell within the robot's half-width (plus [`CLEARANCE`]) of a blocked
//!    one is blocked too, so a path of free cells is one the hull passes;
//! 3. [`Passable::distances_from`]: the driving distance from the robot to every free cell
//!    (Dijkstra over the 8 neighbours);
//! 4. `best_vantage`: of the free cells within the goal's range of the target, the nearest
//!    by that distance from which the camera, with the robot standing there turned to face the
//!    target, sees it — and sees it too from the cells round it (a robot stops within a
//!    decimetre of where it aimed, and turns within a few degrees), so the view is robust;
//! 5. `Passable::route`: the cells back from there, pulled straight into the fewest
//!    waypoints whose straight legs keep to free cells.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector2, Vector3};

use crate::terrain::Terrain;
use crate::vehicle::spec::CameraSpec;

/// Side of the planning grid's cells, m.
pub const CELL: f64 = 0.1;
/// How far round the robot and the target the grid reaches, m.
pub const MARGIN: f64 = 3.0;
/// Height above the robot's floor the ground is surveyed from, m.
pub const SURVEY_ABOVE: f64 = 1.2;
/// Ground this much above or below the robot's floor is driven round, m: higher than the
/// course's rubble (rocks of up to 0.25 m, which the robots drive over) and than a curb or a
/// hurdle the pilot takes with its flippers on a straight run, lower than a road barrier, a
/// post or a 0.30 m pipe lying on the floor.
pub const OBSTACLE_HEIGHT: f64 = 0.28;
/// Room kept between the robot's side and an obstacle, m.
pub const CLEARANCE: f64 = 0.1;
/// Cells around a vantage point (within this many cells each way) that must see the target
/// too.
const ROBUST_CELLS: i64 = 1;
/// Turn either way from facing the target the view must survive, rad (5°).
const ROBUST_YAW: f64 = 0.087;
/// Grid cells at most (50 × 50 m): a plan surveys every cell with a ray and is made between
/// two station frames (the rubble search's 22 000 cells take 3–6 ms); a target farther away
/// is driven at instead.
const MAX_CELLS: usize = 250_000;

/// An observation goal as the pilot needs it: how close, how square to the camera's axis,
/// and which of the robot's hull cameras must see it (`None`: any).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// Farthest the camera may be from the target, m.
    pub range: f64,
    /// Largest angle between the camera's axis and the target, rad.
    pub angle: f64,
    /// The hull camera that must see it, by index in the robot's cameras.
    pub camera: Option<usize>,
}

/// The pilot's plan for one observation goal (world frame).
#[derive(Debug, Clone, PartialEq)]
pub struct ViewPlan {
    /// Points to drive through, in order, the last one the vantage point, m.
    pub waypoints: Vec<Vector2<f64>>,
    /// The heading to stand at there, rad (counter-clockwise from +x).
    pub yaw: f64,
}

/// The rectangle the grid covers and its cells.
#[derive(Debug, Clone, Copy, PartialEq)]
struct GridFrame {
    /// Lower corner, world x–y, m.
    origin: Vector2<f64>,
    /// Cells along x and y.
    columns: usize,
    rows: usize,
}

impl GridFrame {
    /// The grid over the box round `a` and `b`, [`MARGIN`] wider each way; `None` if it
    /// would exceed [`MAX_CELLS`].
    fn around(a: Vector2<f64>, b: Vector2<f64>) -> Option<Self> {
        let low = a.inf(&b).add_scalar(-MARGIN);
        let high = a.sup(&b).add_scalar(MARGIN);
        let columns = ((high.x - low.x) / CELL).ceil() as usize + 1;
        let rows = ((high.y - low.y) / CELL).ceil() as usize + 1;
        (columns.saturating_mul(rows) <= MAX_CELLS).then_some(Self {
            origin: low,
            columns,
            rows,
        })
    }

    /// The centre of cell `i`, world x–y, m.
    fn centre(&self, i: usize) -> Vector2<f64> {
        let (c, r) = (i % self.columns, i / self.columns);
        self.origin + Vector2::new(c as f64, r as f64) * CELL
    }

    /// The cell holding `p`, if the grid covers it.
    fn cell(&self, p: Vector2<f64>) -> Option<usize> {
        let c = ((p.x - self.origin.x) / CELL).round();
        let r = ((p.y - self.origin.y) / CELL).round();
        let inside =
            c >= 0.0 && r >= 0.0 && (c as usize) < self.columns && (r as usize) < self.rows;
        inside.then(|| r as usize * self.columns + c as usize)
    }

    /// The cell `dc`, `dr` cells from `i`, if on the grid.
    fn offset(&self, i: usize, dc: i64, dr: i64) -> Option<usize> {
        let c = (i % self.columns) as i64 + dc;
        let r = (i / self.columns) as i64 + dr;
        let inside = c >= 0 && r >= 0 && (c as usize) < self.columns && (r as usize) < self.rows;
        inside.then(|| r as usize * self.columns + c as usize)
    }
}

/// The ground's height in every cell (`None`: no ground within reach below: a hole).
#[derive(Debug, Clone, PartialEq)]
pub struct HeightMap {
    frame: GridFrame,
    /// The robot's floor, world z, m.
    floor: f64,
    heights: Vec<Option<f64>>,
}

impl HeightMap {
    /// Surveys the ground of `terrain` round `start` and `target` (world x–y, m) for a robot
    /// standing on the floor at height `floor` (world z, m); `None` if the area is too large.
    pub fn survey(
        terrain: &Terrain,
        start: Vector2<f64>,
        target: Vector2<f64>,
        floor: f64,
    ) -> Option<Self> {
        let frame = GridFrame::around(start, target)?;
        let top = floor + SURVEY_ABOVE;
        let heights = (0..frame.columns * frame.rows)
            .map(|i| {
                let p = frame.centre(i);
                terrain.ground_below(&Point3::new(p.x, p.y, top), 2.0 * SURVEY_ABOVE)
            })
            .collect();
        Some(Self {
            frame,
            floor,
            heights,
        })
    }

    /// The ground's height at `p` (world x–y, m): its cell's.
    fn height_at(&self, p: Vector2<f64>) -> Option<f64> {
        self.frame.cell(p).and_then(|i| self.heights[i])
    }

    /// The cells a robot of half-width `half_width` (m) can stand on: those whose ground is
    /// within [`OBSTACLE_HEIGHT`] of the floor and no nearer than the half-width plus
    /// [`CLEARANCE`] to one that is not.
    pub fn passable(&self, half_width: f64) -> Passable {
        let frame = self.frame;
        let obstacle: Vec<bool> = self
            .heights
            .iter()
            .map(|h| h.is_none_or(|h| (h - self.floor).abs() > OBSTACLE_HEIGHT))
            .collect();
        let reach = ((half_width + CLEARANCE) / CELL).ceil() as i64;
        let mut free = vec![true; obstacle.len()];
        for (i, _) in obstacle.iter().enumerate().filter(|(_, o)| **o) {
            for dr in -reach..=reach {
                for dc in -reach..=reach {
                    if dc * dc + dr * dr > reach * reach {
                        continue;
                    }
                    if let Some(j) = frame.offset(i, dc, dr) {
                        free[j] = false;
                    }
                }
            }
        }
        Passable { frame, free }
    }
}

/// Which cells the robot may drive through.
#[derive(Debug, Clone, PartialEq)]
pub struct Passable {
    frame: GridFrame,
    free: Vec<bool>,
}

/// Distances (in tenths of a cell: 10 straight, 14 diagonal) from a start cell over free
/// cells, and each reached cell's predecessor.
#[derive(Debug, Clone, PartialEq)]
pub struct Distances {
    cost: Vec<u32>,
    previous: Vec<usize>,
}

impl Distances {
    /// The driving distance to cell `i`, m (`None`: not reached).
    fn metres(&self, i: usize) -> Option<f64> {
        (self.cost[i] != u32::MAX).then(|| f64::from(self.cost[i]) * CELL / 10.0)
    }
}

impl Passable {
    /// Driving distances from `start` (world x–y, m) over free cells (the start's own cell
    /// counts as free: the robot is there); `None` if the grid does not cover it.
    pub fn distances_from(&self, start: Vector2<f64>) -> Option<Distances> {
        let first = self.frame.cell(start)?;
        let n = self.free.len();
        let mut cost = vec![u32::MAX; n];
        let mut previous = vec![usize::MAX; n];
        let mut queue = BinaryHeap::new();
        cost[first] = 0;
        queue.push(Reverse((0_u32, first)));
        while let Some(Reverse((c, i))) = queue.pop() {
            if c > cost[i] {
                continue;
            }
            for (dc, dr, step) in NEIGHBOURS {
                let Some(j) = self.frame.offset(i, dc, dr) else {
                    continue;
                };
                if !self.free[j] || c + step >= cost[j] {
                    continue;
                }
                cost[j] = c + step;
                previous[j] = i;
                queue.push(Reverse((c + step, j)));
            }
        }
        Some(Distances { cost, previous })
    }

    /// The waypoints from the start of `distances` to cell `end`: the cells back along the
    /// predecessors, pulled straight (each waypoint the farthest cell the last one sees along
    /// free cells).
    fn route(&self, distances: &Distances, end: usize) -> Vec<Vector2<f64>> {
        let mut cells = vec![end];
        let mut i = end;
        while distances.previous[i] != usize::MAX {
            i = distances.previous[i];
            cells.push(i);
        }
        cells.reverse();
        let mut waypoints = Vec::new();
        let mut from = 0;
        while from + 1 < cells.len() {
            let mut to = from + 1;
            while to + 1 < cells.len() && self.straight(cells[from], cells[to + 1]) {
                to += 1;
            }
            waypoints.push(self.frame.centre(cells[to]));
            from = to;
        }
        waypoints
    }

    /// Whether the straight line between the centres of cells `a` and `b` keeps to free cells
    /// (sampled every half cell).
    fn straight(&self, a: usize, b: usize) -> bool {
        let (p, q) = (self.frame.centre(a), self.frame.centre(b));
        let samples = ((q - p).norm() / (0.5 * CELL)).ceil() as usize;
        (0..=samples).all(|k| {
            let s = k as f64 / samples.max(1) as f64;
            self.frame
                .cell(p + (q - p) * s)
                .is_some_and(|i| self.free[i])
        })
    }
}

/// Straight and diagonal neighbours and their costs in tenths of a cell.
const NEIGHBOURS: [(i64, i64, u32); 8] = [
    (1, 0, 10),
    (-1, 0, 10),
    (0, 1, 10),
    (0, -1, 10),
    (1, 1, 14),
    (1, -1, 14),
    (-1, 1, 14),
    (-1, -1, 14),
];

/// Whether a camera `camera` on a robot standing level on the ground of `map` at `at` (world
/// x–y, m) turned to `yaw` (rad) sees `target` within the view's range and angle over a clear
/// line of sight (the trial's own test, [`Terrain::camera_sees`]).
fn sees_from(
    terrain: &Terrain,
    map: &HeightMap,
    camera: &CameraSpec,
    at: Vector2<f64>,
    yaw: f64,
    target: &Point3<f64>,
    view: &View,
) -> bool {
    let Some(ground) = map.height_at(at) else {
        return false;
    };
    let body = Isometry3::from_parts(
        Translation3::new(at.x, at.y, ground),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), yaw),
    );
    terrain.camera_sees(
        &camera.world_pose(&body),
        camera.fov,
        target,
        view.range,
        view.angle,
    )
}

/// The heading that points camera `camera` of a robot at `at` (world x–y, m) at `target`:
/// the bearing to the target less the camera's own yaw on the hull.
fn facing_yaw(camera: &CameraSpec, at: Vector2<f64>, target: &Point3<f64>) -> f64 {
    let to = target.coords.xy() - at;
    super::agent::wrap_pi(to.y.atan2(to.x) - camera.rpy.z)
}

/// The free cell within the view's range of `target`, nearest the robot by `distances`, from
/// which one of `cameras` (the view's, or any) sees the target facing it, and still sees it
/// from every cell round it and turned [`ROBUST_YAW`] either way; its cell and heading.
fn best_vantage(
    terrain: &Terrain,
    map: &HeightMap,
    passable: &Passable,
    distances: &Distances,
    cameras: &[CameraSpec],
    target: &Point3<f64>,
    view: &View,
) -> Option<(usize, f64)> {
    let frame = map.frame;
    let mut candidates: Vec<(u32, usize)> = (0..passable.free.len())
        .filter(|&i| passable.free[i] && distances.metres(i).is_some())
        .filter(|&i| (frame.centre(i) - target.coords.xy()).norm() <= view.range)
        .map(|i| (distances.cost[i], i))
        .collect();
    candidates.sort_unstable();
    let usable: Vec<&CameraSpec> = match view.camera {
        Some(k) => cameras.get(k).into_iter().collect(),
        None => cameras.iter().collect(),
    };
    candidates.into_iter().find_map(|(_, i)| {
        usable.iter().find_map(|camera| {
            let at = frame.centre(i);
            let yaw = facing_yaw(camera, at, target);
            let robust = (-ROBUST_CELLS..=ROBUST_CELLS).all(|dr| {
                (-ROBUST_CELLS..=ROBUST_CELLS).all(|dc| {
                    let near = at + Vector2::new(dc as f64, dr as f64) * CELL;
                    [-ROBUST_YAW, 0.0, ROBUST_YAW]
                        .iter()
                        .all(|turn| sees_from(terrain, map, camera, near, yaw + turn, target, view))
                })
            });
            robust.then_some((i, yaw))
        })
    })
}

/// The plan for seeing `target` (world, m) as `view` asks, for a robot of half-width
/// `half_width` (m) with hull cameras `cameras`, now at `body` (world pose): the way to a
/// vantage point and the heading to stand at there; `None` if no free cell within reach sees
/// it (or the area is too large to plan over).
pub fn plan_view(
    terrain: &Terrain,
    cameras: &[CameraSpec],
    half_width: f64,
    body: &Isometry3<f64>,
    target: &Point3<f64>,
    view: &View,
) -> Option<ViewPlan> {
    let start = body.translation.vector.xy();
    let floor = terrain
        .ground_below(
            &Point3::new(start.x, start.y, body.translation.z + 0.3),
            1.0,
        )
        .unwrap_or(body.translation.z);
    let map = HeightMap::survey(terrain, start, target.coords.xy(), floor)?;
    let mut passable = map.passable(half_width);
    let first = map.frame.cell(start)?;
    passable.free[first] = true;
    let distances = passable.distances_from(start)?;
    let (end, yaw) = best_vantage(terrain, &map, &passable, &distances, cameras, target, view)?;
    let mut waypoints = passable.route(&distances, end);
    if waypoints.is_empty() {
        waypoints.push(map.frame.centre(end));
    }
    Some(ViewPlan { waypoints, yaw })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SourceFile;
    use crate::scene::Scene;

    /// A 20 × 10 m floor with a wall 3 m long and 0.8 m high across x = 2 (y −1.5..1.5),
    /// a 0.1 m rock at (−1, −2), and a target at the wall's foot behind it.
    fn walled() -> Scene {
        let text = r#"
[scene]
name = "walled"
[[material]]
name = "concrete"
friction = 0.8
[[element]]
type = "box"
name = "floor"
material = "concrete"
size = [20.0, 10.0, 0.2]
position = [0.0, 0.0, -0.2]
[[element]]
type = "box"
name = "wall"
material = "concrete"
size = [0.3, 3.0, 0.8]
position = [2.0, 0.0, 0.0]
[[element]]
type = "box"
name = "rock"
material = "concrete"
size = [0.3, 0.3, 0.1]
position = [-1.0, -2.0, 0.0]
[[spawn]]
name = "start"
position = [-3.0, 0.0, 0.0]
"#;
        Scene::from_source(&SourceFile::from_text(
            std::path::Path::new("walled.toml"),
            text.to_string(),
        ))
        .expect("scene")
    }

    fn front_camera() -> CameraSpec {
        CameraSpec {
            name: "front".into(),
            position: Point3::new(0.26, 0.0, 0.16),
            rpy: Vector3::new(0.0, 10f64.to_radians(), 0.0),
            fov: 70f64.to_radians(),
        }
    }

    #[test]
    fn the_map_blocks_the_wall_not_the_rock_and_keeps_the_hull_clear() {
        let scene = walled();
        let map = HeightMap::survey(
            &scene.terrain,
            Vector2::new(-3.0, 0.0),
            Vector2::new(2.3, 0.0),
            0.0,
        )
        .expect("map");
        let rock = map.height_at(Vector2::new(-1.0, -2.0)).expect("ground");
        assert!((rock - 0.1).abs() < 1e-6, "{rock}");
        let passable = map.passable(0.25);
        let free = |x: f64, y: f64| {
            let i = map.frame.cell(Vector2::new(x, y)).expect("on the grid");
            passable.free[i]
        };
        assert!(free(-1.0, -2.0), "the 0.1 m rock is driven over");
        assert!(!free(2.0, 0.0), "the wall");
        // Within 0.35 m (half-width 0.25 + 0.1, in whole cells: 0.4 m) of the wall's cells
        // (x 1.9–2.1, y −1.5–1.5): blocked.
        assert!(!free(1.6, 0.0) && free(1.4, 0.0));
        assert!(free(2.0, 2.0) && !free(2.0, 1.8), "round the wall's end");
    }

    #[test]
    fn a_target_behind_a_wall_is_seen_from_round_its_end() {
        let scene = walled();
        let target = Point3::new(2.25, 0.0, 0.05);
        let view = View {
            range: 2.0,
            angle: 25f64.to_radians(),
            camera: None,
        };
        let start = Isometry3::translation(-3.0, 0.0, 0.0);
        let cameras = [front_camera()];
        let plan =
            plan_view(&scene.terrain, &cameras, 0.25, &start, &target, &view).expect("a plan");
        let stand = *plan.waypoints.last().expect("waypoints");
        // Behind the wall (x > 2.15), within 2 m of the target, and the camera sees it.
        assert!(stand.x > 2.15, "{stand:?}");
        assert!((stand - target.coords.xy()).norm() <= 2.0);
        let map =
            HeightMap::survey(&scene.terrain, Vector2::new(-3.0, 0.0), stand, 0.0).expect("map");
        assert!(sees_from(
            &scene.terrain,
            &map,
            &cameras[0],
            stand,
            plan.yaw,
            &target,
            &view
        ));
        // Every leg keeps clear of the wall: no straight leg crosses x = 2 within its length.
        let mut from = Vector2::new(-3.0, 0.0);
        for &to in &plan.waypoints {
            for k in 0..=100 {
                let p = from + (to - from) * (f64::from(k) / 100.0);
                let inside = (p.x - 2.0).abs() < 0.15 + 0.25 && p.y.abs() < 1.5 + 0.25;
                assert!(!inside, "leg {from:?} → {to:?} passes the wall at {p:?}");
            }
            from = to;
        }
        // From the start the wall hides the target: the plan did not stop short.
        assert!(!scene
            .terrain
            .line_of_sight(&Point3::new(-2.74, 0.0, 0.16), &target));
    }

    #[test]
    fn no_plan_when_nothing_in_range_sees_it() {
        let scene = walled();
        // Inside the wall.
        let target = Point3::new(2.0, 0.0, 0.4);
        let view = View {
            range: 1.0,
            angle: 0.3,
            camera: None,
        };
        let start = Isometry3::translation(-3.0, 0.0, 0.0);
        assert!(plan_view(
            &scene.terrain,
            &[front_camera()],
            0.25,
            &start,
            &target,
            &view
        )
        .is_none());
    }
}
