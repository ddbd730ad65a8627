//! A robot's track model at run time: its track planes, belt speeds, flipper angles and the
//! per-contact friction state, and the computation of the force and torque that the tracks
//! apply to the hull in one step.

pub mod belts;
mod end_of_step;
pub mod guard;
mod stages;
mod strip;
#[cfg(test)]
mod tests;

use nalgebra::{Isometry3, Point2, Point3, Vector2, Vector3};

use super::drive::DriveCommand;
use super::geometry::{flipper_direction, flipper_motion};
use super::spec::{BeltSpec, CircleSpec, RobotSpec};
use crate::track::contact::PlaneStiffness;
use crate::track::friction::{self, FrictionConfig};
use crate::track::outline::{BeltOutline, Circle, OutlineError};
use stages::TrackScratch;

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
    /// Support elements of this plane: its circles, then its runs.
    fn elements(&self) -> usize {
        self.base.circles().len() + self.base.runs().len()
    }

    /// Indices of this plane's elements in the robot's element arrays (loads, bristles).
    fn element_range(&self) -> std::ops::Range<usize> {
        self.first..self.first + self.elements()
    }

    /// How much of element `k`'s friction bristle (this plane's circles first) the belt renews
    /// per metre it moves, 1/m, loaded at `depth` m: one over half the chord of a circle's
    /// patch with `config.wheel_patch_renewal` (`track::friction::relaxation_length`), else
    /// (and for a run) 0: never renewed.
    fn renewal_per_metre(&self, k: usize, depth: f64, config: &FrictionConfig) -> f64 {
        match self.posed.circles().get(k) {
            Some(circle) if config.wheel_patch_renewal => {
                1.0 / friction::relaxation_length(circle.radius, depth)
            }
            _ => 0.0,
        }
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
    /// Direction the belt (or tyre tread) surface moves relative to the hull at the contact
    /// for a positive drive speed, world, unit: the friction law's "along" axis.
    pub belt_direction: Vector3<f64>,
    /// Friction coefficients of the contact `(along the belt, across it)`.
    pub mu: Vector2<f64>,
    /// Motion-resistance coefficient: the resistance opposing travel is this × the load.
    pub rolling_resistance: f64,
    /// Below the friction limit, the force a steady slip pulls with per unit of slip ratio
    /// (slip speed over belt speed), N: σ₀·ℓ of a bristle renewed over ℓ
    /// (`FrictionConfig::wheel_patch_renewal`); infinite where nothing renews it (the force
    /// is then at the limit whenever the contact slips steadily).
    pub slip_ratio_stiffness: f64,
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
    /// Per-step scratch of the stages (`stages`).
    scratch: Box<TrackScratch>,
    /// Every contact of the last step, world frame (for displays and tests).
    last_contacts: Vec<ContactInfo>,
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
        let plane_count = planes.len();
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
            scratch: Box::new(TrackScratch::new(
                elements,
                plane_count,
                widest,
                spec.tracks.len() + spec.flippers.len(),
                tracks,
            )),
            last_contacts: Vec::with_capacity(elements),
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
        self.scratch
            .caches
            .get(belt)
            .is_some_and(|c| c.side_faces_near)
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

    /// The stiffness K = −∂F/∂x of the last step's contacts over the hull's twist (linear,
    /// angular; world frame) about `com`, the centre of mass they were evaluated at (after an
    /// implicit step, the predicted pose's): N/m, N, N·m/rad blocks. The implicit step
    /// gathers it only inside D + h·K (`vehicle::implicit`); this gathers it alone, from the
    /// same contacts by the same rule, for the finite-difference tests and diagnostics.
    pub fn stiffness_jacobian(&self, com: &nalgebra::Point3<f64>) -> nalgebra::Matrix6<f64> {
        let mut lin = crate::vehicle::implicit::Linearisation::stiffness_only();
        for c in &self.scratch.contacts {
            stages::linearise(&mut lin, c, com);
        }
        lin.combined()
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
}
