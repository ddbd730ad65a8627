//! A robot's track model at run time: its track planes, belt speeds, flipper angles and the
//! per-contact friction state, and the computation of the force and torque that the tracks
//! apply to the hull in one step.

pub mod guard;
mod strip;
#[cfg(test)]
mod tests;

use nalgebra::{Isometry3, Point2, Point3, Translation3, Vector2, Vector3};

use super::body::{stable_share, BodyState, HullInertia, Wrench, CONTACT_DAMPING_DT};
use super::candidates::CandidateCache;
use super::drive::{step_belt, DriveCommand};
use super::robot_file::{flipper_direction, flipper_motion};
use super::spec::{BeltSpec, CircleSpec, FlipperSpec, RobotSpec};
use crate::terrain::{CutPlane, CutRegion, CutSegment, SlabTriangles, Terrain};
use crate::track::contact::{evaluate_plane, PlaneStiffness};
use crate::track::friction::{bristle_stiffness, friction, FrictionConfig};
use crate::track::load::{normal_damping_factor, ElementLoad};
use crate::track::outline::{BeltOutline, Circle, OutlineError};
use strip::{split_load, StripLoads};

/// Margin around a belt loop's outline in which terrain is cut, m.
const CUT_MARGIN: f64 = 0.02;
/// Speed below which rolling resistance fades out (regularises its sign), m/s.
const ROLLING_SPEED_EPS: f64 = 0.05;

/// One track plane: a belt loop at a lateral position, belonging to a drive (track index).
#[derive(Debug, Clone)]
struct BeltPlane {
    /// Planes with the same group belong to one belt (same outline, parallel).
    group: usize,
    track: usize,
    flipper: Option<usize>,
    y: f64,
    /// Half-width of the strip of belt this plane stands for, m (`y ± half`).
    half: f64,
    /// Lateral position of the middle of the slab holding every plane of the group with
    /// their strips, m (body y); set once the group is complete.
    slab_mid: f64,
    /// Half-thickness of that slab, m.
    slab_half: f64,
    belt: BeltSpec,
    stiffness: PlaneStiffness,
    base: BeltOutline,
    posed: BeltOutline,
    /// The flipper angle `posed` was turned to from `base`, rad (`None` before the first
    /// posing, and for main-track planes): a parked flipper is not turned again every step.
    posed_angle: Option<f64>,
    /// Index of this plane's first element in the robot's element arrays.
    first: usize,
}

impl BeltPlane {
    fn elements(&self) -> usize {
        self.base.circles().len() + self.base.runs().len()
    }
}

/// One support element's contact in the last step, world frame: for displays and tests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactInfo {
    /// Track (drive) index.
    pub track: usize,
    /// Index of the track plane.
    pub plane: usize,
    /// Element within the plane: circles first, then runs.
    pub element: usize,
    /// Point of application, world, m.
    pub point: Point3<f64>,
    /// Unit normal of the contact (from the ground into the robot), world.
    pub normal: Vector3<f64>,
    /// Normal force, N.
    pub normal_force: f64,
    /// Friction (and motion resistance) force on the hull, world, N.
    pub friction: Vector3<f64>,
    /// Whether the belt sticks to the ground there.
    pub sticking: bool,
}

/// A contact found in pass 1, finished in pass 2.
#[derive(Debug, Clone, Copy)]
struct Contact {
    plane: usize,
    element: usize,
    track: usize,
    point: Point3<f64>,
    normal: Vector3<f64>,
    /// Direction the belt surface moves relative to the hull at the contact (for positive
    /// belt speed), world.
    tau: Vector3<f64>,
    lateral: Vector3<f64>,
    normal_force: f64,
    friction_load: f64,
    mu: Vector2<f64>,
    v_along: f64,
    v_lateral: f64,
    rolling_resistance: f64,
}

/// The friction of contact `c` at the belt speeds and bristles of `state`.
fn contact_friction(
    c: &Contact,
    state: &DriveState,
    config: &FrictionConfig,
    sigma0: f64,
    dt: f64,
) -> crate::track::friction::FrictionForce {
    let slip = Vector2::new(c.v_along + state.belt_speed[c.track], c.v_lateral);
    friction(
        config,
        sigma0,
        c.friction_load,
        c.mu,
        slip,
        state.bristles[c.element],
        dt,
    )
}

/// The terrain's torque on a flipper from one contact `c` on one of its planes, in the direction of increasing flipper angle, N·m, and its stiffness (how much it falls per
/// radian of further rotation into the terrain), N·m/rad. `depth` is the contact's penetration,
/// m.
///
/// Only the normal force counts: the belt's tangential force runs round the flipper belt to
/// the drive pulley on the flipper axis and loads the track's motor, not the flipper's. The
/// contact stiffness is estimated as 1.5·N/δ, the slope of the wheel law N ∝ δ^1.5 (runs, N ∝ δ,
/// are stiffer by this estimate, which only slows the motor's approach to its stall).
fn flipper_contact_torque(
    flipper: &FlipperSpec,
    body: &BodyState,
    c: &Contact,
    depth: f64,
) -> (f64, f64) {
    let p = body.pose.inverse_transform_point(&c.point);
    let (rx, rz) = (p.x - flipper.axis_x, p.z - flipper.axis_z);
    // Velocity of the contact point per radian of flipper angle, body frame: the flipper turns
    // counter-clockwise in (x, z) for a front flipper, clockwise for a rear one.
    let dir = flipper_direction(flipper);
    let u = body.pose.rotation * Vector3::new(-dir * rz, 0.0, dir * rx);
    let lever = c.normal.dot(&u);
    let stiffness = if depth > 1e-9 {
        2.0 * c.normal_force / depth * lever * lever
    } else {
        0.0
    };
    (c.normal_force * lever, stiffness)
}

/// State of one robot's drive train that a blow-up recovery restores.
#[derive(Debug, Clone, PartialEq)]
pub struct DriveState {
    /// Belt speed per track, m/s.
    pub belt_speed: Vec<f64>,
    /// Flipper angles, rad.
    pub flipper_angle: Vec<f64>,
    /// Flipper targets, rad.
    pub flipper_target: Vec<f64>,
    bristles: Vec<Vector2<f64>>,
}

impl DriveState {
    /// Deflection of each belt element's friction bristle (stick–slip state), m, in the
    /// element's contact plane.
    pub fn bristle_deflections(&self) -> &[Vector2<f64>] {
        &self.bristles
    }
}

/// A robot's track model.
#[derive(Debug, Clone)]
pub struct TrackedRobot {
    spec: RobotSpec,
    planes: Vec<BeltPlane>,
    state: DriveState,
    command: DriveCommand,
    /// Motor force on each belt in the last step, N.
    motor_force: Vec<f64>,
    /// Sum of normal forces on each track (with its flippers) in the last step, N.
    track_normal: Vec<f64>,
    /// Elastic energy in all track contacts at the start of the last step, J.
    elastic_energy: f64,
    /// Per flipper: the terrain's torque on it in the direction of increasing angle, last
    /// step, N·m (from the normal forces on its planes).
    flipper_ground_torque: Vec<f64>,
    /// Per flipper: how fast that torque falls as the angle increases (pressing further into
    /// the terrain), N·m/rad, last step: linearises the flipper motor's step.
    flipper_stiffness: Vec<f64>,
    /// Per flipper: whether the motor stalled in the last step.
    flipper_stalled: Vec<bool>,
    /// Support elements carrying the robot on flat ground (sizes the bristle stiffness).
    flat_contacts: usize,
    // Scratch, reused every step.
    loads: Vec<ElementLoad>,
    contacts: Vec<Contact>,
    caches: Vec<CandidateCache>,
    /// The current belt's candidate triangles in its slab's frame.
    slab: SlabTriangles,
    last_contacts: Vec<ContactInfo>,
    /// Side faces inside the current plane's strip.
    side_faces: Vec<u32>,
    /// Cut at a strip edge.
    edge_segments: Vec<CutSegment>,
    /// Loads from the cuts at the current plane's strip edges `y − half`, `y + half`.
    edge_low: Vec<ElementLoad>,
    edge_high: Vec<ElementLoad>,
    /// Lateral offset of each element's point of application from its plane, m.
    offsets: Vec<f64>,
    f0: Vec<f64>,
    d: Vec<f64>,
}

fn circle(c: &CircleSpec) -> Circle {
    Circle {
        center: Point2::new(c.x, c.z),
        radius: c.radius,
    }
}

/// Lateral positions of the planes of a belt whose centre line is at `y` ([`BeltSpec::plane_offset`]).
fn plane_offsets(y: f64, belt: &BeltSpec) -> impl Iterator<Item = f64> + '_ {
    (0..belt.planes.max(1)).map(move |i| y + belt.plane_offset(i))
}

impl TrackedRobot {
    /// Builds the track planes of a robot.
    pub fn new(spec: RobotSpec) -> Result<Self, OutlineError> {
        let mut planes = Vec::new();
        let mut first = 0;
        let mut push = |group, track, flipper, y, belt: BeltSpec, outline: BeltOutline| {
            let plane = BeltPlane {
                group,
                track,
                flipper,
                y,
                half: 0.5 * belt.width / belt.planes.max(1) as f64,
                slab_mid: y,
                slab_half: 0.0,
                belt,
                stiffness: PlaneStiffness {
                    kappa: belt.stiffness / belt.planes.max(1) as f64,
                    run_mid: belt.run_stiffness_mid,
                    grousers: belt.grousers,
                },
                posed: outline.clone(),
                posed_angle: None,
                base: outline,
                first,
            };
            first += plane.elements();
            planes.push(plane);
        };
        for (t, track) in spec.tracks.iter().enumerate() {
            let circles: Vec<Circle> = [&track.sprocket, &track.idler]
                .into_iter()
                .chain(&track.road_wheels)
                .chain(&track.rollers)
                .map(circle)
                .collect();
            let outline = BeltOutline::new(circles)?;
            for y in plane_offsets(track.y, &track.belt) {
                push(t, t, None, y, track.belt, outline.clone());
            }
        }
        for (f, flipper) in spec.flippers.iter().enumerate() {
            let t = spec
                .tracks
                .iter()
                .position(|t| t.name == flipper.track)
                .unwrap_or(0);
            let outline = BeltOutline::new(flipper.circles.iter().map(circle).collect())?;
            for y in plane_offsets(flipper.y, &flipper.belt) {
                push(
                    spec.tracks.len() + f,
                    t,
                    Some(f),
                    y,
                    flipper.belt,
                    outline.clone(),
                );
            }
        }
        // The slab of each group holds every plane's strip, edges included (side contact cuts
        // there).
        for i in 0..planes.len() {
            let group = planes[i].group;
            let (lo, hi) = planes
                .iter()
                .filter(|p| p.group == group)
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                    (lo.min(p.y - p.half), hi.max(p.y + p.half))
                });
            planes[i].slab_mid = 0.5 * (lo + hi);
            planes[i].slab_half = 0.5 * (hi - lo);
        }
        let elements = first;
        let widest = planes.iter().map(BeltPlane::elements).max().unwrap_or(0);
        let tracks = spec.tracks.len();
        let state = DriveState {
            belt_speed: vec![0.0; tracks],
            flipper_angle: spec.flippers.iter().map(|f| f.initial_angle).collect(),
            flipper_target: spec.flippers.iter().map(|f| f.initial_angle).collect(),
            bristles: vec![Vector2::zeros(); elements],
        };
        let mut robot = Self {
            planes,
            state,
            command: DriveCommand::STOP,
            motor_force: vec![0.0; tracks],
            track_normal: vec![0.0; tracks],
            elastic_energy: 0.0,
            flipper_ground_torque: vec![0.0; spec.flippers.len()],
            flipper_stiffness: vec![0.0; spec.flippers.len()],
            flipper_stalled: vec![false; spec.flippers.len()],
            flat_contacts: 0,
            loads: vec![ElementLoad::default(); elements],
            contacts: Vec::with_capacity(elements),
            caches: vec![CandidateCache::default(); spec.tracks.len() + spec.flippers.len()],
            slab: SlabTriangles::default(),
            last_contacts: Vec::with_capacity(elements),
            side_faces: Vec::new(),
            edge_segments: Vec::new(),
            edge_low: vec![ElementLoad::default(); widest],
            edge_high: vec![ElementLoad::default(); widest],
            offsets: vec![0.0; elements],
            f0: vec![0.0; tracks],
            d: vec![0.0; tracks],
            spec,
        };
        robot.flat_contacts = robot.count_flat_contacts();
        robot.pose_flippers();
        Ok(robot)
    }

    /// The robot's description.
    pub fn spec(&self) -> &RobotSpec {
        &self.spec
    }

    /// The current command.
    pub fn command(&self) -> DriveCommand {
        self.command
    }

    /// Sets the command (non-finite values are replaced by a stop).
    pub fn set_command(&mut self, command: DriveCommand) {
        self.command = command.or_stop();
        if let Some(target) = self.command.flipper {
            for (t, f) in self
                .state
                .flipper_target
                .iter_mut()
                .zip(&self.spec.flippers)
            {
                *t = target.clamp(f.min_angle, f.max_angle);
            }
        }
    }

    /// Drive-train state (belt speeds, flipper angles).
    pub fn drive_state(&self) -> &DriveState {
        &self.state
    }

    /// Restores a drive-train state saved earlier, with the belts stopped and friction
    /// relaxed (used by blow-up recovery).
    pub fn restore(&mut self, state: &DriveState) {
        self.state = state.clone();
        self.halt();
        self.pose_flippers();
    }

    /// Stops the belts and relaxes every contact's friction: the hull has just been put
    /// somewhere at rest.
    pub fn halt(&mut self) {
        self.state.belt_speed.iter_mut().for_each(|v| *v = 0.0);
        self.flipper_ground_torque.iter_mut().for_each(|v| *v = 0.0);
        self.flipper_stiffness.iter_mut().for_each(|v| *v = 0.0);
        self.flipper_stalled.iter_mut().for_each(|v| *v = false);
        self.state
            .bristles
            .iter_mut()
            .for_each(|b| *b = Vector2::zeros());
    }

    /// Puts the drive train back as at spawn: belts stopped, friction relaxed, flippers at
    /// their initial angles and targets, command stop.
    pub fn reset(&mut self) {
        self.halt();
        for (f, spec) in self.spec.flippers.iter().enumerate() {
            self.state.flipper_angle[f] = spec.initial_angle;
            self.state.flipper_target[f] = spec.initial_angle;
        }
        self.command = DriveCommand::STOP;
        self.pose_flippers();
    }

    /// The belt speed the command asks of track `t`, m/s: `left` for tracks on the left
    /// (y ≥ 0), `right` for the others.
    fn track_command(&self, t: usize) -> f64 {
        if self.spec.tracks[t].y >= 0.0 {
            self.command.left
        } else {
            self.command.right
        }
    }

    /// The belt speed the command asks of track `t`, within the motor's speed limit, m/s.
    pub fn commanded_speed(&self, t: usize) -> f64 {
        let max = self.spec.tracks[t].motor.max_speed;
        self.track_command(t).clamp(-max, max)
    }

    /// Motor torque at each sprocket in the last step, N·m.
    pub fn motor_torque(&self, track: usize) -> f64 {
        self.motor_force[track] * self.spec.tracks[track].sprocket.radius
    }

    /// Torque of flipper `f`'s motor and gear about the flipper axis (body y) in the last
    /// step, N·m, positive in the direction of increasing angle (raising the tip): what holds
    /// the flipper against the terrain's torque on it. Pressing a flipper down into the
    /// ground gives a negative torque; the motor alone gives at most
    /// [`FlipperSpec::max_torque`](super::spec::FlipperSpec::max_torque) in magnitude, the
    /// self-locking gear holds more while the flipper is back-driven.
    pub fn flipper_torque(&self, f: usize) -> f64 {
        -self.flipper_ground_torque[f]
    }

    /// Whether flipper `f` stalled in the last step: short of its target, moving less than
    /// 5 % of its free speed because the terrain resists with about its torque limit.
    pub fn flipper_stalled(&self, f: usize) -> bool {
        self.flipper_stalled[f]
    }

    /// Whether terrain that could meet the side of belt `belt` is near it (a face within ≈ 60°
    /// of square to the belt's side among its candidate triangles): its side guard is needed.
    /// Belts are numbered as [`crate::vehicle::tracked::guard::belt_guards`] numbers them: main tracks,
    /// then flippers.
    pub fn side_faces_near(&self, belt: usize) -> bool {
        self.caches.get(belt).is_some_and(|c| c.side_faces_near)
    }

    /// The rigid motion of flipper `f`'s belt from angle 0 to its current angle, body frame
    /// (see [`flipper_motion`]).
    pub fn flipper_motion(&self, f: usize) -> Isometry3<f64> {
        flipper_motion(&self.spec.flippers[f], self.state.flipper_angle[f])
    }

    /// Sum of the normal forces on each track (its planes and its flippers), last step, N.
    pub fn track_normal_force(&self, track: usize) -> f64 {
        self.track_normal[track]
    }

    /// Elastic energy stored in the track contacts when the last step began, J.
    pub fn elastic_energy(&self) -> f64 {
        self.elastic_energy
    }

    /// Every contact of the last step.
    pub fn contacts(&self) -> &[ContactInfo] {
        &self.last_contacts
    }

    /// Number of track planes (main tracks and flippers).
    pub fn plane_count(&self) -> usize {
        self.planes.len()
    }

    /// Belt loop of plane `i` as posed now (flippers rotated) and its lateral position, body
    /// frame: for drawing.
    pub fn plane_outline(&self, i: usize) -> (&BeltOutline, f64) {
        (&self.planes[i].posed, self.planes[i].y)
    }

    /// Main-track circles within 5 mm of the lowest belt bottom and the runs between them,
    /// over all planes: what carries the robot on flat ground.
    fn count_flat_contacts(&self) -> usize {
        let mut n = 0;
        for p in self.planes.iter().filter(|p| p.flipper.is_none()) {
            let bottom = p.base.bottom();
            let low = p
                .base
                .circles()
                .iter()
                .filter(|c| c.center.y - c.radius <= bottom + 0.005)
                .count();
            n += (2 * low).saturating_sub(1);
        }
        n.max(1)
    }

    fn flipper_effective_angle(&self, f: usize) -> f64 {
        // Positive raises the tip: counter-clockwise in (x, z) for a flipper pointing
        // forward, clockwise for one pointing backward.
        self.state.flipper_angle[f] * flipper_direction(&self.spec.flippers[f])
    }

    /// Moves each flipper toward its target as a torque-limited motor.
    ///
    /// The motor is a geared DC motor with the usual straight torque–speed line: at no load it
    /// turns at `max_rate`, against a resisting torque τ at `max_rate·(1 − τ/max_torque)`; at
    /// `max_torque` it stalls, and a larger load turns it back (at most at `max_rate`), so a
    /// stalled flipper settles where the terrain resists with exactly `max_torque`. The flipper
    /// is massless (quasi-static): the resisting torque is the terrain's, from the last step's
    /// contacts on its planes. That torque is stiff in the angle (a flipper tip pressed 1 mrad
    /// further into concrete gains many N·m), so the step is linearised like the belt's
    /// ([`step_belt`]): with `K` the torque's stiffness, the step Δ solves
    /// Δ = ω·dt·(1 − (τ + K·Δ)/T), which approaches τ = T without overshoot whatever `K`. A
    /// torque that helps the motion does not speed it up (the controller holds `max_rate`).
    /// A flipper at its target is held by its self-locking gear (worm drive) whatever the
    /// load: the terrain does not drive a parked flipper back; [`Self::flipper_torque`] then
    /// reports the torque the gear holds, which may exceed `max_torque`.
    fn step_flippers(&mut self, dt: f64) {
        for (f, spec) in self.spec.flippers.iter().enumerate() {
            let (a, target) = (self.state.flipper_angle[f], self.state.flipper_target[f]);
            let remaining = target - a;
            let free = spec.max_rate * dt;
            if remaining == 0.0 || free <= 0.0 {
                self.flipper_stalled[f] = false;
                continue;
            }
            let s = remaining.signum();
            // Ground torque against the motion, N·m (positive resists).
            let resist = -s * self.flipper_ground_torque[f];
            let t_max = spec.max_torque;
            let step = (free * (1.0 - resist / t_max)
                / (1.0 + self.flipper_stiffness[f] * free / t_max))
                .clamp(-free, free.min(remaining.abs()));
            self.flipper_stalled[f] = step.abs() < 0.05 * free.min(remaining.abs());
            self.state.flipper_angle[f] = (a + s * step).clamp(spec.min_angle, spec.max_angle);
        }
        self.pose_flippers();
    }

    fn pose_flippers(&mut self) {
        for i in 0..self.planes.len() {
            if let Some(f) = self.planes[i].flipper {
                let angle = self.flipper_effective_angle(f);
                let spec = &self.spec.flippers[f];
                let pivot = Point2::new(spec.axis_x, spec.axis_z);
                let plane = &mut self.planes[i];
                // The pose is a function of the angle alone (same base, same pivot).
                if plane.posed_angle.map(f64::to_bits) != Some(angle.to_bits()) {
                    plane.base.rotated_into(pivot, angle, &mut plane.posed);
                    plane.posed_angle = Some(angle);
                }
            }
        }
    }

    /// One step of the track model: moves the flippers, cuts the terrain with every plane,
    /// computes normal loads, updates belt speeds implicitly, finishes friction and returns
    /// the wrench on the hull. `segments` is scratch.
    pub fn step(
        &mut self,
        terrain: &Terrain,
        body: &BodyState,
        friction_config: &FrictionConfig,
        dt: f64,
        segments: &mut Vec<CutSegment>,
    ) -> Wrench {
        self.step_flippers(dt);

        // Pass 1: geometry and normal forces of every plane.
        self.contacts.clear();
        self.elastic_energy = 0.0;
        let materials = terrain.materials();
        let hull = HullInertia::new(&self.spec, body);
        let mut group: Option<(usize, CutPlane)> = None;
        for (plane_index, plane) in self.planes.iter().enumerate() {
            // The planes of one belt are parallel and consecutive: one BVH search of the slab
            // holding them all serves each of them.
            let key = plane.group;
            if group.as_ref().is_none_or(|(k, _)| *k != key) {
                let half = plane.slab_half;
                let (x0, x1, z0, z1) = plane.posed.bounds();
                let region = CutRegion::new(
                    x0 - CUT_MARGIN,
                    x1 + CUT_MARGIN,
                    z0 - CUT_MARGIN,
                    z1 + CUT_MARGIN,
                );
                let slab = CutPlane::from_pose(
                    &(body.pose * Translation3::new(0.0, plane.slab_mid, 0.0)),
                    region,
                );
                let candidates = self.caches[key].refresh(terrain, &slab, half);
                self.slab.fill(terrain, &slab, half, candidates);
                group = Some((key, slab));
            }
            let Some((_, slab)) = group else {
                continue;
            };
            let offset = plane.y - plane.slab_mid;
            let cut = slab.shifted(offset);
            self.slab.cut(offset, segments);
            let range = plane.first..plane.first + plane.elements();
            let loads = &mut self.loads[range.clone()];
            evaluate_plane(&plane.posed, plane.stiffness, segments, materials, loads);
            // Side contact (see `strip`): where a steep face crosses this plane's strip,
            // split the strip at the face.
            let offsets = &mut self.offsets[range.clone()];
            offsets.iter_mut().for_each(|o| *o = 0.0);
            self.slab
                .side_faces(offset, plane.half, &mut self.side_faces);

            if !self.side_faces.is_empty() {
                let n = range.len();
                let low = cut.shifted(-plane.half);
                for (edge, out) in [
                    (offset - plane.half, &mut self.edge_low[..n]),
                    (offset + plane.half, &mut self.edge_high[..n]),
                ] {
                    self.slab.cut(edge, &mut self.edge_segments);
                    evaluate_plane(
                        &plane.posed,
                        plane.stiffness,
                        &self.edge_segments,
                        materials,
                        out,
                    );
                }
                let wheels = plane.posed.circles().len();
                for (k, (load, offset)) in loads.iter_mut().zip(offsets.iter_mut()).enumerate() {
                    let strip = StripLoads {
                        centre: load,
                        low: &self.edge_low[k],
                        high: &self.edge_high[k],
                        wheel: k < wheels,
                    };
                    if let Some((split, lateral)) =
                        split_load(strip, terrain, &self.side_faces, &low, plane.half)
                    {
                        *load = split;
                        *offset = lateral;
                    }
                }
            }
            self.elastic_energy += loads.iter().map(|l| l.energy).sum::<f64>();
            let across = cut.normal();
            for (k, load) in loads.iter().enumerate() {
                let element = range.start + k;
                if !load.is_active() {
                    self.state.bristles[element] = Vector2::zeros();
                    continue;
                }
                // The push: in-plane part plus the part across the plane from oblique faces.
                let push = cut.vector_to_world(&load.force) + across * load.lateral;
                let fnorm = push.norm();
                if fnorm <= 1e-12 * load.magnitude {
                    self.state.bristles[element] = Vector2::zeros();
                    continue;
                }
                let normal = push / fnorm;
                let in_plane = load.force.norm();
                let n2 = if in_plane > 0.0 {
                    load.force / in_plane
                } else {
                    Vector2::new(0.0, 1.0)
                };
                let point = cut.to_world(&load.point) + across * offsets[k];
                // Belt direction: in the plane, square to the in-plane push (so also to the
                // whole push); the lateral friction direction completes the frame.
                let tau = cut.vector_to_world(&Vector2::new(-n2.y, n2.x));
                let lateral = normal.cross(&tau);
                let lateral = if lateral.dot(&across) < 0.0 {
                    -lateral
                } else {
                    lateral
                };
                let v = body.point_velocity(&point);
                let mass = hull.effective_mass(&point, &normal);
                let stable = stable_share(load.stiffness, mass, dt);
                // Hunt–Crossley (Marhefka–Orin form, F = κS·(1 + β·δ̇)): the force grows with
                // the penetration rate and never pulls. A rubber belt is lossy, so β is large;
                // it also removes, within the step, the energy that an explicit step adds when
                // a wheel first moves v·dt into the ground before any force acts. Plus the
                // rubber's Kelvin–Voigt damping τ·k·δ̇, which does not fade with the load
                // (see `normal_damping_factor`).
                let factor = normal_damping_factor(
                    load,
                    plane.belt.damping,
                    plane.belt.relaxation_time,
                    -v.dot(&normal),
                    CONTACT_DAMPING_DT * mass / dt,
                );
                if factor == 0.0 {
                    self.state.bristles[element] = Vector2::zeros();
                    continue;
                }
                self.contacts.push(Contact {
                    plane: plane_index,
                    element,
                    track: plane.track,
                    point,
                    normal,
                    tau,
                    lateral,
                    normal_force: fnorm * factor * stable,
                    friction_load: load.magnitude * factor * stable,
                    mu: Vector2::new(load.grip, load.friction * plane.belt.lateral_friction_scale),
                    v_along: v.dot(&tau),
                    v_lateral: v.dot(&lateral),
                    rolling_resistance: plane.belt.rolling_resistance,
                });
            }
        }

        let sigma0 = bristle_stiffness(friction_config, self.spec.mass, self.flat_contacts);
        // Linearise the ground's pull on each belt around the current belt speed.
        self.f0.iter_mut().for_each(|x| *x = 0.0);
        self.d.iter_mut().for_each(|x| *x = 0.0);
        for c in &self.contacts {
            let f = contact_friction(c, &self.state, friction_config, sigma0, dt);
            self.f0[c.track] += f.force.x;
            self.d[c.track] += f.longitudinal_damping;
        }
        for t in 0..self.spec.tracks.len() {
            let command = self.track_command(t);
            let track = &self.spec.tracks[t];
            let (v, force) = step_belt(
                &track.motor,
                track.sprocket.radius,
                self.state.belt_speed[t],
                command,
                self.f0[t],
                self.d[t],
                dt,
            );
            self.state.belt_speed[t] = v;
            self.motor_force[t] = force;
        }

        // Pass 2: friction at the new belt speeds; sum the wrench on the hull.
        let mut wrench = Wrench::default();
        self.flipper_ground_torque.iter_mut().for_each(|x| *x = 0.0);
        self.flipper_stiffness.iter_mut().for_each(|x| *x = 0.0);
        self.track_normal.iter_mut().for_each(|x| *x = 0.0);
        self.last_contacts.clear();
        for c in &self.contacts {
            let f = contact_friction(c, &self.state, friction_config, sigma0, dt);
            self.state.bristles[c.element] = f.bristle;
            // The ground's friction on the belt reaches the hull through the belt (massless).
            let mut tangential = c.tau * f.force.x + c.lateral * f.force.y;
            // Motion resistance opposes the hull's travel over the ground along the belt.
            let travel = -c.v_along;
            let fade = (travel / ROLLING_SPEED_EPS).clamp(-1.0, 1.0);
            tangential += c.tau * (c.rolling_resistance * c.friction_load * fade);
            let force = c.normal * c.normal_force + tangential;
            self.last_contacts.push(ContactInfo {
                track: c.track,
                plane: c.plane,
                element: c.element - self.planes[c.plane].first,
                point: c.point,
                normal: c.normal,
                normal_force: c.normal_force,
                friction: tangential,
                sticking: f.sticking,
            });
            wrench.force += force;
            wrench.torque += (c.point - body.com).cross(&force);
            self.track_normal[c.track] += c.normal_force;
            if let Some(f) = self.planes[c.plane].flipper {
                let (torque, stiffness) = flipper_contact_torque(
                    &self.spec.flippers[f],
                    body,
                    c,
                    self.loads[c.element].depth,
                );
                self.flipper_ground_torque[f] += torque;
                self.flipper_stiffness[f] += stiffness;
            }
        }
        wrench
    }
}
