//! A wheeled robot at run time: each wheel's contact in its own mid-plane (the belts'
//! penetration-area law, `track::contact::evaluate_wheels`), a massless wheel on a spring and
//! damper suspension, the tyre's brush-model force (`tyre`), torque- and speed-limited wheel
//! motors (the belts' motor step, `vehicle::drive`), and either skid steering or Ackermann
//! steering with a rate-limited actuator (`steering`, seed 001).
//!
//! One step, per wheel: pose the wheel's mid-plane (steering angle, suspension compression),
//! cut the terrain with it, take the tyre's normal load; move the suspension to the balance of
//! tyre and spring (implicit, below); then, all wheels together, scale the tyres' damping
//! down if it would overdamp the hull (`body::cap_hull_damping`); linearise the tyre's
//! forward force in the wheel's surface speed and step the motor; then finish the tyre force
//! at the new speed and sum the wrench on the hull.
//!
//! **Suspension.** The wheel has no mass of its own: each step the compression `s` is solved
//! so that the tyre's load along the suspension axis (body z) equals spring plus damper,
//! `(N₀ − K·c·(s − s₀))·c = k·s + d·(s − s₀)/dt`, with `N₀` the tyre load at the last
//! compression `s₀`, `K` its tangent stiffness and `c` the cosine between contact normal and
//! body z. The hull feels the tyre's whole contact force (the suspension links carry what the
//! spring does not); past `travel` the bump stop carries it.

pub mod steering;
pub mod tyre;

use nalgebra::{Point2, Point3, Translation3, UnitQuaternion, Vector2, Vector3};

use crate::vehicle::implicit::StepSettings;

use self::steering::AckermannGeometry;
use self::tyre::{tyre_force, TyreContact};
use super::body::{
    cap_hull_damping, contact_damping_limit, stable_share, BodyState, ContactDamping,
    DampedContact, Damper, HullInertia, Wrench,
};
use super::candidates::CandidateCache;
use super::drive::{speed_after, step_belt, DriveCommand};
use super::spec::{Differential, MotorSpec, RobotSpec, Steering, SuspensionSpec};
use super::tracked::ContactInfo;
use crate::terrain::{CutPlane, CutRegion, CutSegment, Terrain};
use crate::track::contact::{evaluate_wheels, PlaneStiffness};
use crate::track::friction::FrictionConfig;
use crate::track::grouser::Grousers;
use crate::track::load::{ElementLoad, NormalDamping};
use crate::track::outline::Circle;

/// Margin around a wheel's circle in which terrain is cut, m.
const CUT_MARGIN: f64 = 0.02;
/// Speed below which rolling resistance fades out (regularises its sign), m/s.
const ROLLING_SPEED_EPS: f64 = 0.05;
/// Speed below which a left/right command counts as turning on the spot (an Ackermann robot
/// then steers to full lock without moving), m/s.
const TURN_IN_PLACE_SPEED: f64 = 1e-3;

/// Why a wheeled robot cannot be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WheelError {
    /// The steering geometry does not allow the steering angle the file asks for.
    #[error(
        "steering angle {max_deg:.1}° exceeds the geometry's limit {limit_deg:.1}° (the turn \
         centre would fall between the front wheels)"
    )]
    SteerLimit {
        /// Asked, degrees.
        max_deg: f64,
        /// Allowed, degrees.
        limit_deg: f64,
    },
    /// An Ackermann robot without steered wheels on both sides or without a rear axle.
    #[error("an Ackermann robot needs a steered front axle and an unsteered rear axle")]
    Layout,
}

/// State of a wheeled robot's drive train that a blow-up recovery restores.
#[derive(Debug, Clone, PartialEq)]
pub struct WheelState {
    /// Surface speed of each wheel (radius × spin), m/s, positive rolling forward.
    pub wheel_speed: Vec<f64>,
    /// Suspension compression of each wheel, m (0 at the free position).
    pub compression: Vec<f64>,
    /// Outer front wheel's steering angle, rad, positive left (0 for skid steering).
    pub steer: f64,
    /// Target of the steering actuator, rad.
    pub steer_target: f64,
    /// Each tyre's contact patch deflection `(along, across)`, m.
    pub deflection: Vec<Vector2<f64>>,
}

/// A contact found in pass 1, finished in pass 2.
#[derive(Debug, Clone, Copy)]
struct WheelContact {
    wheel: usize,
    point: Point3<f64>,
    normal: Vector3<f64>,
    /// The wheel's heading in the contact plane, world.
    tau: Vector3<f64>,
    /// Across the wheel in the contact plane, world (to its left).
    lateral: Vector3<f64>,
    normal_force: f64,
    /// The normal force's damping, kept for the hull's damping cap.
    damping: ContactDamping,
    mu: f64,
    half_length: f64,
    v_along: f64,
    v_lateral: f64,
}

impl DampedContact for WheelContact {
    fn damper(&self) -> Damper {
        Damper {
            point: self.point,
            normal: self.normal,
            force: self.normal_force,
            damping: self.damping,
        }
    }

    fn scale_force(&mut self, ratio: f64) {
        self.normal_force *= ratio;
    }
}

/// A wheeled robot's drive train and contacts.
#[derive(Debug, Clone)]
pub struct WheeledRobot {
    spec: RobotSpec,
    geometry: Option<AckermannGeometry>,
    state: WheelState,
    command: DriveCommand,
    /// Motor force at each tyre's surface in the last step, N.
    motor_force: Vec<f64>,
    /// Each wheel's normal force in the last step, N.
    wheel_normal: Vec<f64>,
    elastic_energy: f64,
    // Scratch, reused every step.
    loads: [ElementLoad; 1],
    contacts: Vec<WheelContact>,
    caches: Vec<CandidateCache>,
    last_contacts: Vec<ContactInfo>,
    f0: Vec<f64>,
    d: Vec<f64>,
}

impl WheeledRobot {
    /// Builds the run-time model of a wheeled robot (`spec.wheels` not empty).
    pub fn new(spec: RobotSpec) -> Result<Self, WheelError> {
        let n = spec.wheels.len();
        let geometry = match spec.steering {
            Steering::Skid => None,
            Steering::Ackermann { max_angle, .. } => {
                let g = AckermannGeometry::of_wheels(&spec.wheels).ok_or(WheelError::Layout)?;
                if max_angle >= g.outer_limit() {
                    return Err(WheelError::SteerLimit {
                        max_deg: max_angle.to_degrees(),
                        limit_deg: g.outer_limit().to_degrees(),
                    });
                }
                Some(g)
            }
        };
        Ok(Self {
            geometry,
            state: WheelState {
                wheel_speed: vec![0.0; n],
                compression: vec![0.0; n],
                steer: 0.0,
                steer_target: 0.0,
                deflection: vec![Vector2::zeros(); n],
            },
            command: DriveCommand::STOP,
            motor_force: vec![0.0; n],
            wheel_normal: vec![0.0; n],
            elastic_energy: 0.0,
            loads: [ElementLoad::default()],
            contacts: Vec::with_capacity(n),
            caches: vec![CandidateCache::default(); n],
            last_contacts: Vec::with_capacity(n),
            f0: vec![0.0; n],
            d: vec![0.0; n],
            spec,
        })
    }

    /// The robot's description.
    pub fn spec(&self) -> &RobotSpec {
        &self.spec
    }

    /// The Ackermann geometry (`None` for skid steering).
    pub fn geometry(&self) -> Option<&AckermannGeometry> {
        self.geometry.as_ref()
    }

    /// The current command.
    pub fn command(&self) -> DriveCommand {
        self.command
    }

    /// Sets the command (non-finite values are replaced by a stop) and the steering target.
    pub fn set_command(&mut self, command: DriveCommand) {
        self.command = command.or_stop();
        if let (Some(g), Steering::Ackermann { max_angle, .. }) =
            (&self.geometry, self.spec.steering)
        {
            let target = match self.command.steer {
                Some(angle) => angle,
                None => {
                    let (left, right) = (self.command.left, self.command.right);
                    let speed = 0.5 * (left + right);
                    let yaw = (right - left) / self.spec.track_gauge().max(1e-9);
                    if speed.abs() < TURN_IN_PLACE_SPEED {
                        // Asked to turn on the spot: steer toward it, or hold the wheels.
                        if yaw == 0.0 {
                            self.state.steer_target
                        } else {
                            yaw.signum() * max_angle
                        }
                    } else {
                        g.outer_for_curvature(yaw / speed)
                    }
                }
            };
            self.state.steer_target = target.clamp(-max_angle, max_angle);
        }
    }

    /// Drive-train state (wheel speeds, suspension, steering).
    pub fn drive_state(&self) -> &WheelState {
        &self.state
    }

    /// Restores a drive-train state saved earlier, with the wheels stopped and the tyres
    /// relaxed (used by blow-up recovery).
    pub fn restore(&mut self, state: &WheelState) {
        self.state = state.clone();
        self.halt();
    }

    /// Stops the wheels and relaxes the tyres: the hull has just been put somewhere at rest.
    pub fn halt(&mut self) {
        self.state.wheel_speed.iter_mut().for_each(|v| *v = 0.0);
        self.state
            .deflection
            .iter_mut()
            .for_each(|z| *z = Vector2::zeros());
    }

    /// Puts the drive train back as at spawn: wheels stopped and straight, suspension free,
    /// command stop.
    pub fn reset(&mut self) {
        self.halt();
        self.state.compression.iter_mut().for_each(|s| *s = 0.0);
        self.state.steer = 0.0;
        self.state.steer_target = 0.0;
        self.command = DriveCommand::STOP;
    }

    /// Elastic energy stored in the tyres when the last step began, J.
    pub fn elastic_energy(&self) -> f64 {
        self.elastic_energy
    }

    /// Every tyre contact of the last step (`track` and `plane` are the wheel's index).
    pub fn contacts(&self) -> &[ContactInfo] {
        &self.last_contacts
    }

    /// Normal force on wheel `w` in the last step, N.
    pub fn wheel_normal_force(&self, w: usize) -> f64 {
        self.wheel_normal[w]
    }

    /// Motor torque at wheel `w` in the last step, N·m.
    pub fn motor_torque(&self, w: usize) -> f64 {
        self.motor_force[w] * self.spec.wheels[w].radius
    }

    /// The surface speed the command asks of wheel `w`, within its motor's limit, m/s; 0 for
    /// an undriven wheel.
    pub fn commanded_speed(&self, w: usize) -> f64 {
        let wheel = &self.spec.wheels[w];
        if !wheel.driven {
            return 0.0;
        }
        let max = wheel.motor.max_speed;
        self.wheel_command(w).clamp(-max, max)
    }

    /// Body-frame pose of wheel `w`'s mid-plane: centre raised by its compression, turned by
    /// its steering angle; x along its heading, y its axle.
    pub fn wheel_pose(&self, w: usize) -> nalgebra::Isometry3<f64> {
        let wheel = &self.spec.wheels[w];
        let c = wheel.center;
        nalgebra::Isometry3::from_parts(
            Translation3::new(c.x, c.y, c.z + self.state.compression[w]),
            UnitQuaternion::from_euler_angles(0.0, 0.0, self.steer_angle_of(w)),
        )
    }

    /// The surface speed the command asks of wheel `w`, m/s: the side's speed for skid
    /// steering; for Ackermann the wheel's share of the turn about the current centre
    /// (an electronic differential), the command's mean speed at the rear axle's centre.
    fn wheel_command(&self, w: usize) -> f64 {
        let wheel = &self.spec.wheels[w];
        match &self.geometry {
            None => {
                if wheel.center.y >= 0.0 {
                    self.command.left
                } else {
                    self.command.right
                }
            }
            Some(g) => {
                let speed = 0.5 * (self.command.left + self.command.right);
                let reference = Point2::new(g.rear_x, 0.0);
                g.point_speed(
                    self.state.steer,
                    reference,
                    Point2::new(wheel.center.x, wheel.center.y),
                    speed,
                )
            }
        }
    }

    /// Steering angle of wheel `w` now, rad.
    fn steer_angle_of(&self, w: usize) -> f64 {
        match &self.geometry {
            Some(g) if self.spec.wheels[w].steered => {
                let (left, right) = g.wheel_angles(self.state.steer);
                if self.spec.wheels[w].center.y > 0.0 {
                    left
                } else {
                    right
                }
            }
            _ => 0.0,
        }
    }

    /// Moves the steering actuator toward its target at its rate limit.
    fn step_steering(&mut self, dt: f64) {
        if let Steering::Ackermann { max_rate, .. } = self.spec.steering {
            let max = max_rate * dt;
            let change = (self.state.steer_target - self.state.steer).clamp(-max, max);
            self.state.steer += change;
        }
    }

    /// One step of the wheel model: steers, cuts the terrain with every wheel's mid-plane,
    /// balances the suspension, updates the wheel speeds implicitly, finishes the tyre forces
    /// and returns the wrench on the hull. `segments` is scratch.
    pub fn step(
        &mut self,
        terrain: &Terrain,
        body: &BodyState,
        settings: &StepSettings,
        segments: &mut Vec<CutSegment>,
    ) -> Wrench {
        // The wheels' contacts are stepped explicitly (with their stability caps) whatever
        // `settings.implicit` says: the implicit step covers the tracked model so far.
        let (friction_config, dt) = (&settings.friction, settings.dt);
        self.step_steering(dt);
        self.contacts.clear();
        self.elastic_energy = 0.0;
        let hull = HullInertia::new(&self.spec, body);
        for w in 0..self.spec.wheels.len() {
            self.wheel_contact(w, terrain, body, &hull, dt, segments);
        }
        cap_hull_damping(&self.spec, body, dt, &mut self.contacts);

        // Linearise each tyre's forward force in its wheel's surface speed; step the motors.
        self.f0.iter_mut().for_each(|x| *x = 0.0);
        self.d.iter_mut().for_each(|x| *x = 0.0);
        for c in &self.contacts {
            let f = self.tyre(c, friction_config, dt);
            // The ground's force on the tread along the tread's motion (backward at the
            // bottom of a wheel rolling forward) is −F_x.
            self.f0[c.wheel] = -f.force.x;
            self.d[c.wheel] = f.longitudinal_damping;
        }
        match self.spec.differential {
            Differential::Electronic => self.step_motors(dt),
            Differential::Open => self.step_open_drive(dt),
        }

        // Pass 2: tyre forces at the new wheel speeds; the wrench on the hull.
        let mut wrench = Wrench::default();
        self.wheel_normal.iter_mut().for_each(|x| *x = 0.0);
        self.last_contacts.clear();
        for i in 0..self.contacts.len() {
            let c = self.contacts[i];
            let f = self.tyre(&c, friction_config, dt);
            self.state.deflection[c.wheel] = f.deflection;
            let mut tangential = c.tau * f.force.x + c.lateral * f.force.y;
            // Rolling resistance opposes the wheel's travel over the ground.
            let rolling = self.spec.wheels[c.wheel].tyre.rolling_resistance;
            let fade = (c.v_along / ROLLING_SPEED_EPS).clamp(-1.0, 1.0);
            tangential -= c.tau * (rolling * c.normal_force * fade);
            let force = c.normal * c.normal_force + tangential;
            self.last_contacts.push(ContactInfo {
                track: c.wheel,
                plane: c.wheel,
                element: 0,
                point: c.point,
                normal: c.normal,
                normal_force: c.normal_force,
                friction: tangential,
                sticking: !f.sliding,
                // The tread rolls backwards under a wheel driving forwards.
                belt_direction: -c.tau,
                mu: Vector2::new(c.mu, c.mu),
                rolling_resistance: rolling,
                // The tyre's brush has its own slip law (`tyre`); not the belts' renewal.
                slip_ratio_stiffness: f64::INFINITY,
            });
            wrench.force += force;
            wrench.torque += (c.point - body.com).cross(&force);
            self.wheel_normal[c.wheel] += c.normal_force;
        }
        // Wheels off the ground relax their tyres.
        for w in 0..self.spec.wheels.len() {
            if self.wheel_normal[w] == 0.0 {
                self.state.deflection[w] = Vector2::zeros();
            }
        }
        wrench
    }

    /// Each wheel's own motor toward its commanded speed (hub motors, an electronic
    /// differential; a free wheel's motor has no torque).
    fn step_motors(&mut self, dt: f64) {
        for w in 0..self.spec.wheels.len() {
            let wheel = &self.spec.wheels[w];
            let command = self.commanded_speed(w);
            let (v, force) = step_belt(
                &wheel.motor,
                wheel.radius,
                self.state.wheel_speed[w],
                command,
                self.f0[w],
                self.d[w],
                dt,
            );
            self.state.wheel_speed[w] = v;
            self.motor_force[w] = force;
        }
    }

    /// One speed controller for all driven wheels through open differentials: the driven
    /// wheels act as one drive (summed inertia, ground pull and its slope, torque limit) toward
    /// their mean commanded speed; each gets an equal share of the force and turns at its own
    /// speed. Free wheels roll as in [`Self::step_motors`].
    fn step_open_drive(&mut self, dt: f64) {
        let (mut drive, mut n) = (None::<MotorSpec>, 0.0);
        let (mut v, mut command, mut f0, mut d) = (0.0, 0.0, 0.0, 0.0);
        let mut radius = 1.0;
        for (w, wheel) in self
            .spec
            .wheels
            .iter()
            .enumerate()
            .filter(|(_, w)| w.driven)
        {
            let m = drive.get_or_insert(MotorSpec {
                belt_inertia: 0.0,
                max_torque: 0.0,
                ..wheel.motor
            });
            m.belt_inertia += wheel.motor.belt_inertia;
            m.max_torque += wheel.motor.max_torque;
            radius = wheel.radius;
            v += self.state.wheel_speed[w];
            command += self.commanded_speed(w);
            f0 += self.f0[w];
            d += self.d[w];
            n += 1.0;
        }
        let force = drive.map_or(0.0, |m| {
            step_belt(&m, radius, v / n, command / n, f0, d, dt).1
        });
        for w in 0..self.spec.wheels.len() {
            let wheel = &self.spec.wheels[w];
            let share = if wheel.driven { force / n } else { 0.0 };
            let v = self.state.wheel_speed[w];
            self.state.wheel_speed[w] = speed_after(
                wheel.motor.belt_inertia,
                v,
                share,
                self.f0[w],
                self.d[w],
                dt,
            );
            self.motor_force[w] = share;
        }
    }

    /// The tyre force of contact `c` at the current wheel speed and deflection.
    fn tyre(&self, c: &WheelContact, config: &FrictionConfig, dt: f64) -> tyre::TyreForce {
        let wheel = &self.spec.wheels[c.wheel];
        let contact = TyreContact {
            normal: c.normal_force,
            mu: c.mu,
            half_length: c.half_length,
            sliding_velocity: Vector2::new(
                c.v_along - self.state.wheel_speed[c.wheel],
                c.v_lateral,
            ),
            rolling_speed: c.v_along.abs(),
        };
        tyre_force(
            &contact,
            wheel.tyre.tread_stiffness,
            config.stick_damping_time,
            self.state.deflection[c.wheel],
            dt,
        )
    }

    /// The terrain's load on wheel `w` (its tyre a circle in the wheel's mid-plane), with the
    /// plane it was cut in and the wheel's pose (world frame).
    fn wheel_load(
        &mut self,
        w: usize,
        terrain: &Terrain,
        body: &BodyState,
        segments: &mut Vec<CutSegment>,
    ) -> (ElementLoad, CutPlane, nalgebra::Isometry3<f64>) {
        let wheel = &self.spec.wheels[w];
        let (r, half) = (wheel.radius, 0.5 * wheel.width);
        let pose = body.pose * self.wheel_pose(w);
        let m = r + CUT_MARGIN;
        let cut = CutPlane::from_pose(&pose, CutRegion::new(-m, m, -m, m));
        self.caches[w].refresh(terrain, &cut, half);
        terrain.cut_candidates(&cut, &self.caches[w].faces, segments);
        let stiffness = PlaneStiffness {
            kappa: wheel.tyre.stiffness,
            run_mid: 1.0,
            grousers: Grousers::default(),
        };
        let circle = [Circle {
            center: Point2::origin(),
            radius: r,
        }];
        evaluate_wheels(
            &circle,
            stiffness,
            segments,
            terrain.materials(),
            &mut self.loads,
        );
        (self.loads[0], cut, pose)
    }

    /// Pass 1 for wheel `w`: its load from the terrain, the suspension's balance, and its
    /// contact (if any) pushed to `self.contacts`.
    fn wheel_contact(
        &mut self,
        w: usize,
        terrain: &Terrain,
        body: &BodyState,
        hull: &HullInertia,
        dt: f64,
        segments: &mut Vec<CutSegment>,
    ) {
        let (load, cut, pose) = self.wheel_load(w, terrain, body, segments);
        let wheel = &self.spec.wheels[w];
        let r = wheel.radius;
        let up = body.pose.rotation * Vector3::z();
        let s0 = self.state.compression[w];
        let susp = wheel.suspension;
        let push = cut.vector_to_world(&load.force) + cut.normal() * load.lateral;
        let elastic = push.norm();
        let touches = load.is_active() && elastic > 1e-12 * load.magnitude;
        // In the air the tyre pushes nothing: the spring extends the wheel, slowed by its damper.
        let (normal, k_tyre, cos) = if touches {
            let normal = push / elastic;
            (normal, load.stiffness, normal.dot(&up).max(0.0))
        } else {
            (up, 0.0, 0.0)
        };
        let s = balance_suspension(&susp, elastic, k_tyre, cos, s0, dt);
        self.state.compression[w] = s;
        if !touches {
            return;
        }
        self.elastic_energy += load.energy;
        let settled = (elastic - k_tyre * cos * (s - s0)).max(0.0);
        if settled <= 0.0 {
            return;
        }
        let point = cut.to_world(&load.point);
        let v = body.point_velocity(&point);
        // The wheel centre moved up by (s − s0) relative to the hull this step.
        let rise = (s - s0) / dt * cos;
        let per_mass = hull.inverse_effective_mass(&point, &normal);
        let mass = 1.0 / per_mass;
        // The hull meets tyre and spring in series until the bump stop.
        let series = if s < susp.travel {
            k_tyre * susp.stiffness / (k_tyre + susp.stiffness).max(1e-300)
        } else {
            k_tyre
        };
        let stable = stable_share(series, mass, dt);
        let damping = NormalDamping::new(
            &load,
            wheel.tyre.damping,
            wheel.tyre.relaxation_time,
            -v.dot(&normal) - rise,
            contact_damping_limit(mass, dt),
        );
        let Some(damping) = ContactDamping::new(damping, settled * stable, per_mass, dt) else {
            return;
        };
        let factor = damping.factor();
        let heading = pose.rotation * Vector3::x();
        let along = heading - normal * heading.dot(&normal);
        let Some(tau) = along.try_normalize(1e-9) else {
            return; // the wheel stands on its tread's edge against a wall: no rolling contact
        };
        let lateral = normal.cross(&tau);
        let depth = load.depth.min(r);
        self.contacts.push(WheelContact {
            wheel: w,
            point,
            normal,
            tau,
            lateral,
            normal_force: settled * factor * stable,
            damping,
            mu: load.friction,
            half_length: (2.0 * r * depth - depth * depth).max(0.0).sqrt(),
            v_along: v.dot(&tau),
            v_lateral: v.dot(&lateral),
        });
    }
}

/// The suspension's compression after a step of `dt` s (module docs): the tyre's load
/// `elastic` (N) at the last compression `s0` (m), falling by `k_tyre·cos` per metre the wheel
/// rises (`k_tyre` its tangent stiffness N/m, `cos` between contact normal and body z), balances
/// spring and damper along body z, implicit in s; within `[0, travel]`, m.
fn balance_suspension(
    susp: &SuspensionSpec,
    elastic: f64,
    k_tyre: f64,
    cos: f64,
    s0: f64,
    dt: f64,
) -> f64 {
    let s = (elastic * cos + k_tyre * cos * cos * s0 + susp.damping * s0 / dt)
        / (k_tyre * cos * cos + susp.stiffness + susp.damping / dt);
    s.clamp(0.0, susp.travel)
}
