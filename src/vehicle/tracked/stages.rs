//! One step of the track model, in named stages, and the scratch it reuses every step.
//!
//! Stages, in order ([`TrackedRobot::step`]):
//! 1. **flippers** — the flipper motors turn their planes (`step_flippers`);
//! 2. **slabs** — each belt's slab round its posed outline, its candidate faces (BVH
//!    search only when the belt has left the searched volume) and their union, projected once
//!    into the frame every plane shares (`find_slabs`);
//! 3. **planes** — per plane: its cut (of the faces of its belt's slab that are not wholly
//!    beyond one of the belt's runs: no element can touch those), seed 004's normal loads of
//!    its wheels and runs, the strip split where a side face crosses it (`plane_loads`), and
//!    each loaded element as a contact with its point (across the plane's strip where the
//!    ground tilts under it: `strip::slope_shift`), frame, normal force and damping
//!    (`add_contacts`); then all
//!    contacts' damping scaled down together if it would overdamp the hull
//!    (`body::cap_hull_damping`);
//! 4. **belts** — the ground's pull on each belt linearised at the current belt speed, and the
//!    belt speeds stepped implicitly against their motors (`step_belts`);
//! 5. **wrench** — friction at the new belt speeds, the bristles, the flippers' ground torques,
//!    the contacts for display, and the wrench on the hull (`finish_contacts`);
//! 6. **implicit** (with implicit contacts) — the linearly implicit step, and the bristles and
//!    the flippers' loads where it ends (`end_of_step`).

use nalgebra::{Point3, Translation3, Vector2, Vector3};

use super::strip::{slope_shift, split_load, StripLoads};
use super::{ContactInfo, DriveState, TrackedRobot, CUT_MARGIN, ROLLING_SPEED_EPS};
use crate::terrain::{CullLine, CutPlane, CutRegion, CutSegment, SlabTriangles, Terrain};
use crate::track::contact::{evaluate_plane, evaluate_plane_reusing, WrittenLoads};
use crate::track::friction::{
    bristle_stiffness, friction, sticking_slope, FrictionConfig, FrictionForce,
};
use crate::track::load::{ElementLoad, NormalDamping};
use crate::vehicle::body::{
    cap_hull_damping, contact_damping_limit, stable_share, BodyState, ContactDamping,
    DampedContact, Damper, HullInertia, Wrench,
};
use crate::vehicle::candidates::CandidateCache;
use crate::vehicle::drive::step_belt;
use crate::vehicle::geometry::flipper_direction;
use crate::vehicle::implicit::{predicted, Linearisation, StepSettings};
use crate::vehicle::spec::FlipperSpec;

/// How far beyond a belt's runs a face must lie to be left out of its planes' cuts, m. No
/// element reaches past its runs; the margin covers what the grouser rule looks at just
/// outside the belt (the faces at a segment's end point near a wheel's contact). Where it looks
/// farther, the plane is evaluated again with every face, so the margin sets only how often
/// that happens: on the scout's stair climb it leaves half the faces out (0 mm: 55 %,
/// 10 mm: 45 %). The strip split's rays meet side faces from the whole slab, culled or not.
const CULL_MARGIN: f64 = 0.005;

/// A contact found in the plane stage, finished in the wrench stage.
#[derive(Debug, Clone, Copy)]
pub(super) struct Contact {
    plane: usize,
    pub(super) element: usize,
    track: usize,
    pub(super) point: Point3<f64>,
    normal: Vector3<f64>,
    /// Direction the belt surface moves relative to the hull at the contact (for positive
    /// belt speed), world.
    pub(super) tau: Vector3<f64>,
    pub(super) lateral: Vector3<f64>,
    normal_force: f64,
    friction_load: f64,
    /// The normal force's damping, kept for the hull's damping cap.
    damping: ContactDamping,
    /// The normal force's derivative in the penetration, N/m (the implicit step's K).
    stiffness: f64,
    mu: Vector2<f64>,
    v_along: f64,
    v_lateral: f64,
    rolling_resistance: f64,
    /// Share of the contact's bristle the belt renews per metre it moves, 1/m: one over a
    /// wheel's half chord (`track::friction::relaxation_length`); 0 for a run, or with the
    /// renewal off. Kept as the inverse so the hot loops multiply.
    renewal_per_metre: f64,
    /// Whether its friction sticks this step (set in the wrench stage).
    pub(super) sticking: bool,
    /// How its friction force changes with its slip: the implicit step's friction terms (set
    /// in the wrench stage).
    pub(super) friction_slope: FrictionSlope,
}

/// How a contact's friction force changes with its slip over a step: the implicit step's
/// friction terms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum FrictionSlope {
    /// No friction, or an explicit step.
    None,
    /// Sticking: the bristle's σ₀·(dt + τ_d), N·s/m, in every direction of the contact plane
    /// (along the belt and across it).
    Sticking(f64),
    /// Sliding: the force turns with the slip, keeping its size: |F|/|slip|, N·s/m, along
    /// `direction` (world, unit), square to the slip.
    Sliding {
        /// Square to the slip in the contact plane, world, unit.
        direction: Vector3<f64>,
        /// N·s/m.
        slope: f64,
    },
}

impl Contact {
    /// The share of the contact's belt renewed over a step of `dt` s at belt speed `belt`
    /// m/s: |v_belt|·dt / ℓ (`track::friction::friction`).
    #[inline(always)]
    fn transport(&self, belt: f64, dt: f64) -> f64 {
        belt.abs() * dt * self.renewal_per_metre
    }

    /// How far a sticking bristle is stretched over a step of `dt` s by a slip change `slip`
    /// (m/s, along the belt and across it) at the belts' speeds `belt_speed` (m/s): slip·dt
    /// less what the belt's motion renews, as in `track::friction::friction`.
    pub(super) fn stretch(&self, slip: Vector2<f64>, belt_speed: &[f64], dt: f64) -> Vector2<f64> {
        slip * dt / (1.0 + self.transport(belt_speed[self.track], dt))
    }

    /// Moves the contact's normal force to the implicit step's end, where the hull's twist
    /// change over the step `dt` changes its point's velocity by `at_point` (m/s, world,
    /// [`point_velocity_change`](crate::vehicle::implicit::point_velocity_change)): less
    /// (h·k + c)·J·Δv, never pulling. Returns what its friction force on the hull changes by
    /// at the step's end, each slope's −s·J·Δv along its direction, N (world).
    pub(super) fn move_to_step_end(&mut self, at_point: &Vector3<f64>, dt: f64) -> Vector3<f64> {
        let rate = at_point.dot(&self.normal);
        let give = dt * self.stiffness + self.damper().coefficient();
        self.normal_force = (self.normal_force - give * rate).max(0.0);
        match self.friction_slope {
            FrictionSlope::None => Vector3::zeros(),
            // Along the belt and across it: the point's velocity change in the contact plane.
            FrictionSlope::Sticking(slope) => {
                -(self.tau * at_point.dot(&self.tau) + self.lateral * at_point.dot(&self.lateral))
                    * slope
            }
            FrictionSlope::Sliding { direction, slope } => {
                -direction * (slope * at_point.dot(&direction))
            }
        }
    }

    /// The contact's track (drive) index and normal force, N.
    pub(super) fn track_load(&self) -> (usize, f64) {
        (self.track, self.normal_force)
    }
}

impl DampedContact for Contact {
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
        self.friction_load *= ratio;
    }
}

/// What one robot's track model reuses from step to step without it being state: cleared or
/// overwritten every step (the candidate caches only save BVH searches), no allocation once
/// grown. Boxed by the robot, so the robot stays small.
#[derive(Debug, Clone)]
pub(super) struct TrackScratch {
    /// Each element's load this step (circles then runs, plane after plane).
    loads: Vec<ElementLoad>,
    /// Per plane, which of its `loads` its last evaluation wrote (the others are defaults).
    written: Vec<WrittenLoads>,
    pub(super) contacts: Vec<Contact>,
    /// Each belt's (group's) candidate faces.
    pub(super) caches: Vec<CandidateCache>,
    /// Every belt's candidates, each once, sorted (rebuilt when a belt's candidates change).
    candidates: Vec<u32>,
    /// This step's slab of each belt (group), its region round the posed outline.
    slabs: Vec<CutPlane>,
    /// The candidates in the frame the planes share, and the current belt's slab of them.
    slab: SlabTriangles,
    /// Side faces inside the current plane's strip.
    side_faces: Vec<u32>,
    /// The current belt's culling lines: its runs moved out by [`CULL_MARGIN`].
    cull_lines: Vec<CullLine>,
    /// Cut at a strip edge.
    edge_segments: Vec<CutSegment>,
    /// Loads from the cuts at the current plane's strip edges `y − half`, `y + half`.
    edge_low: Vec<ElementLoad>,
    edge_high: Vec<ElementLoad>,
    /// Lateral offset of each element's point of application from its plane, m.
    offsets: Vec<f64>,
    /// Per track: the ground's pull on the belt at the current belt speed, N, and its
    /// derivative against the belt speed, N·s/m (the belt stage's linearisation).
    pull: Vec<f64>,
    pull_damping: Vec<f64>,
    /// The contacts' Jacobians over the hull's twist (the implicit step).
    pub(super) linearisation: Linearisation,
}

impl TrackScratch {
    /// Scratch for `elements` support elements in all over `planes` planes, at most `widest` in
    /// one plane, `groups` belts (slabs) and `tracks` drives.
    pub(super) fn new(
        elements: usize,
        planes: usize,
        widest: usize,
        groups: usize,
        tracks: usize,
    ) -> Self {
        Self {
            loads: vec![ElementLoad::default(); elements],
            written: vec![WrittenLoads::ALL; planes],
            contacts: Vec::with_capacity(elements),
            caches: vec![CandidateCache::default(); groups],
            candidates: Vec::new(),
            slabs: Vec::with_capacity(groups),
            slab: SlabTriangles::default(),
            side_faces: Vec::new(),
            cull_lines: Vec::new(),
            edge_segments: Vec::new(),
            edge_low: vec![ElementLoad::default(); widest],
            edge_high: vec![ElementLoad::default(); widest],
            offsets: vec![0.0; elements],
            pull: vec![0.0; tracks],
            pull_damping: vec![0.0; tracks],
            linearisation: Linearisation::default(),
        }
    }
}

/// The friction of contact `c` at the belt speeds and bristles of `state`. Inlined into both
/// loops that need it (belts, wrench): left to itself the compiler kept it a call, whose
/// result went through memory (inlined, the digest run's step was 1–2 % faster).
#[inline(always)]
fn contact_friction(
    c: &Contact,
    state: &DriveState,
    config: &FrictionConfig,
    sigma0: f64,
    dt: f64,
) -> FrictionForce {
    let belt = state.belt_speed[c.track];
    let slip = Vector2::new(c.v_along + belt, c.v_lateral);
    friction(
        config,
        sigma0,
        c.friction_load,
        c.mu,
        slip,
        state.bristles[c.element],
        c.transport(belt, dt),
        dt,
    )
}

/// The friction force's slope of contact `c` (with its friction `f` this step), for the
/// implicit step's Jacobians: the bristle's σ₀·(dt + τ_d) in the contact plane while it
/// sticks, |F|/|slip| square to the slip while it slides (turning the force with the slip),
/// none without friction.
fn friction_slope(
    c: &Contact,
    f: &FrictionForce,
    state: &DriveState,
    sigma0: f64,
    settings: &StepSettings,
) -> FrictionSlope {
    if f.force == Vector2::zeros() {
        return FrictionSlope::None;
    }
    // The bristle's slope: the steepest the friction force changes with the slip.
    let belt = state.belt_speed[c.track];
    let transport = c.transport(belt, settings.dt);
    let sticking = sticking_slope(&settings.friction, sigma0, transport, settings.dt);
    if f.sticking {
        return FrictionSlope::Sticking(sticking);
    }
    let slip = Vector2::new(c.v_along + belt, c.v_lateral);
    let speed = slip.norm();
    if speed <= 1e-9 {
        return FrictionSlope::None;
    }
    let across = Vector2::new(-slip.y, slip.x) / speed;
    FrictionSlope::Sliding {
        direction: c.tau * across.x + c.lateral * across.y,
        slope: (f.force.norm() / speed).min(sticking),
    }
}

/// Contact `c`'s terms of the implicit step's Jacobians (`vehicle::implicit`): its normal
/// stiffness and damping, and its friction's damping ([`FrictionSlope`]).
#[inline]
pub(super) fn linearise(lin: &mut Linearisation, c: &Contact, com: &Point3<f64>) {
    let normal = (c.stiffness, c.damper().coefficient());
    match c.friction_slope {
        FrictionSlope::Sticking(slope) => {
            lin.add_sticking(&c.point, com, &c.normal, normal, slope);
        }
        FrictionSlope::Sliding { direction, slope } => {
            lin.add(&c.point, com, &c.normal, normal.0, normal.1);
            lin.add(&c.point, com, &direction, 0.0, slope);
        }
        FrictionSlope::None => lin.add(&c.point, com, &c.normal, normal.0, normal.1),
    }
}

/// The terrain's torque on a flipper from one contact `c` on one of its planes, in the
/// direction of increasing flipper angle, N·m, and its stiffness (how much it falls per radian
/// of further rotation into the terrain), N·m/rad. `depth` is the contact's penetration, m.
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

impl TrackedRobot {
    /// One step of the track model (the stages of the module docs): moves the flippers, cuts
    /// the terrain with every plane, computes normal loads, updates belt speeds implicitly,
    /// finishes friction and returns the wrench on the hull. `segments` is scratch.
    pub fn step(
        &mut self,
        terrain: &Terrain,
        body: &BodyState,
        settings: &StepSettings,
        segments: &mut Vec<CutSegment>,
    ) -> Wrench {
        let (friction_config, dt) = (&settings.friction, settings.dt);
        // The implicit step evaluates the contacts where the hull will be (vehicle::implicit).
        let at_end;
        let body = if settings.implicit {
            at_end = predicted(body, dt);
            &at_end
        } else {
            body
        };
        self.step_flippers(dt);
        self.find_slabs(terrain, body);
        self.scratch.contacts.clear();
        self.elastic_energy = 0.0;
        // The hull's effective masses feed only the explicit step's caps.
        let hull = (!settings.implicit).then(|| HullInertia::new(&self.spec, body));
        for plane in 0..self.planes.len() {
            let cut = self.plane_loads(plane, terrain, segments);
            self.add_contacts(plane, &cut, body, hull.as_ref(), settings);
        }
        if !settings.implicit {
            cap_hull_damping(&self.spec, body, dt, &mut self.scratch.contacts);
        }
        let sigma0 = bristle_stiffness(friction_config, self.spec.mass, self.flat_contacts);
        self.step_belts(friction_config, sigma0, dt);
        let wrench = self.finish_contacts(body, settings, sigma0);
        if !settings.implicit {
            self.flipper_loads(body);
            return wrench;
        }
        self.solve_implicit(&wrench, body, settings)
    }

    /// The flippers' ground torques and stiffnesses from their contacts' normal forces as
    /// the step leaves them (after an implicit step, at its end: `end_contacts`).
    pub(super) fn flipper_loads(&mut self, body: &BodyState) {
        self.flipper_ground_torque.iter_mut().for_each(|x| *x = 0.0);
        self.flipper_stiffness.iter_mut().for_each(|x| *x = 0.0);
        for c in &self.scratch.contacts {
            let Some(f) = self.planes[c.plane].flipper else {
                continue;
            };
            let (torque, stiffness) = flipper_contact_torque(
                &self.spec.flippers[f],
                body,
                c,
                self.scratch.loads[c.element].depth,
            );
            self.flipper_ground_torque[f] += torque;
            self.flipper_stiffness[f] += stiffness;
        }
    }

    /// The elastic energy stored in the contacts with the hull at `body`, J: the cut and loads
    /// of [`Self::step`] without the rest (the implicit step evaluates its contacts at the
    /// predicted pose, so the energy of the present one is worked out apart).
    pub(crate) fn contact_energy(
        &mut self,
        terrain: &Terrain,
        body: &BodyState,
        segments: &mut Vec<CutSegment>,
    ) -> f64 {
        self.find_slabs(terrain, body);
        self.elastic_energy = 0.0;
        for plane in 0..self.planes.len() {
            self.plane_loads(plane, terrain, segments);
        }
        self.elastic_energy
    }

    /// Slabs stage: the slab of every belt this step (its planes with their strips, the
    /// region round its posed outline) into `slabs`, each belt's candidate faces
    /// refreshed, their union (sorted, each once) into `candidates`, rebuilt only when a
    /// belt's candidates changed, and the union projected into the frame of the hull: every
    /// plane is square to body y, so one projection serves every belt.
    fn find_slabs(&mut self, terrain: &Terrain, body: &BodyState) {
        let scratch = &mut *self.scratch;
        scratch.slabs.clear();
        let mut changed = false;
        for plane in &self.planes {
            // Planes of one belt are consecutive and share its slab.
            if scratch.slabs.len() > plane.group {
                continue;
            }
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
            changed |= scratch.caches[plane.group].refresh(terrain, &slab, plane.slab_half);
            scratch.slabs.push(slab);
        }
        if changed {
            scratch.candidates.clear();
            for cache in &scratch.caches {
                scratch.candidates.extend_from_slice(&cache.faces);
            }
            scratch.candidates.sort_unstable();
            scratch.candidates.dedup();
        }
        // The region plays no part in a projection.
        let frame = CutPlane::from_pose(&body.pose, CutRegion::new(0.0, 0.0, 0.0, 0.0));
        scratch.slab.project(terrain, &frame, &scratch.candidates);
    }

    /// Plane stage, loads: the cut of plane `index` (its belt's slab selected at the belt's
    /// first plane, less the faces beyond the belt's runs: [`CULL_MARGIN`]), the normal loads
    /// of its elements into `loads`, and where a steep face crosses the plane's strip, the
    /// strip split at the face (see `strip`), the lateral offsets into `offsets`. When the
    /// loads looked beyond the culling lines, the plane is evaluated again with every face
    /// of the slab, so the loads are always those of the complete cut. Returns the plane
    /// (world pose, region of its belt).
    fn plane_loads(
        &mut self,
        index: usize,
        terrain: &Terrain,
        segments: &mut Vec<CutSegment>,
    ) -> CutPlane {
        let scratch = &mut *self.scratch;
        let plane = &self.planes[index];
        // The planes of one belt are parallel and consecutive, and share one outline: one
        // selection of the projected faces reaching into the slab holding them all, less those
        // beyond the outline, serves each of them.
        if index == 0 || self.planes[index - 1].group != plane.group {
            let region = scratch.slabs[plane.group].region();
            scratch.slab.select(plane.slab_mid, plane.slab_half, region);
            scratch.cull_lines.clear();
            scratch
                .cull_lines
                .extend(plane.posed.cull_lines(CULL_MARGIN));
            scratch.slab.cull(&scratch.cull_lines);
        }
        let (cut, complete) = self.cut_and_load(index, terrain, segments, true);
        if !complete {
            self.scratch.slab.uncull();
            self.cut_and_load(index, terrain, segments, false);
            self.scratch.slab.recull();
        }
        let range = self.planes[index].element_range();
        self.elastic_energy += self.scratch.loads[range]
            .iter()
            .map(|l| l.energy)
            .sum::<f64>();
        cut
    }

    /// The body of [`Self::plane_loads`] for one choice of faces: the cut of the slab's faces
    /// (only those culling kept when `culled`), the loads and the strip split. Returns the
    /// plane and whether the loads are those of the complete cut (always, when not `culled`);
    /// a pass found incomplete stops there, as the plane is evaluated again.
    fn cut_and_load(
        &mut self,
        index: usize,
        terrain: &Terrain,
        segments: &mut Vec<CutSegment>,
        culled: bool,
    ) -> (CutPlane, bool) {
        let scratch = &mut *self.scratch;
        let plane = &self.planes[index];
        let lines: &[CullLine] = if culled { &scratch.cull_lines } else { &[] };
        let offset = plane.y - plane.slab_mid;
        let cut = scratch.slabs[plane.group].shifted(offset);
        scratch.slab.cut(terrain, offset, segments);
        let materials = terrain.materials();
        let range = plane.element_range();
        let loads = &mut scratch.loads[range.clone()];
        let mut complete = evaluate_plane_reusing(
            &plane.posed,
            plane.stiffness,
            segments,
            materials,
            loads,
            lines,
            &mut scratch.written[index],
        );
        if !complete {
            return (cut, false); // evaluated again with every face: nothing more to do here
        }
        let offsets = &mut scratch.offsets[range.clone()];
        offsets.iter_mut().for_each(|o| *o = 0.0);
        scratch
            .slab
            .side_faces(offset, plane.half, &mut scratch.side_faces);
        if scratch.side_faces.is_empty() {
            return (cut, complete);
        }
        let n = range.len();
        let low = cut.shifted(-plane.half);
        for (edge, out) in [
            (offset - plane.half, &mut scratch.edge_low[..n]),
            (offset + plane.half, &mut scratch.edge_high[..n]),
        ] {
            scratch.slab.cut(terrain, edge, &mut scratch.edge_segments);
            complete &= evaluate_plane(
                &plane.posed,
                plane.stiffness,
                &scratch.edge_segments,
                materials,
                out,
                lines,
            );
        }
        if !complete {
            return (cut, false);
        }
        let wheels = plane.posed.circles().len();
        for (k, (load, offset)) in loads.iter_mut().zip(offsets.iter_mut()).enumerate() {
            let strip = StripLoads {
                centre: load,
                low: &scratch.edge_low[k],
                high: &scratch.edge_high[k],
                wheel: k < wheels,
            };
            if let Some((split, lateral)) =
                split_load(strip, terrain, &scratch.side_faces, &low, plane.half)
            {
                *load = split;
                *offset = lateral;
                // The strip's edges may load an element its centre plane left untouched.
                scratch.written[index] = WrittenLoads::ALL;
            }
        }
        (cut, complete)
    }

    /// Plane stage, contacts: each loaded element of plane `index` (cut by `cut`) as a
    /// contact — point, unit normal, belt and lateral directions, the hull's velocity there,
    /// the normal force with its damping and its share that keeps the explicit step stable
    /// (from `hull`, given for the explicit step alone) — into `contacts`; an unloaded
    /// element's bristle relaxes.
    fn add_contacts(
        &mut self,
        index: usize,
        cut: &CutPlane,
        body: &BodyState,
        hull: Option<&HullInertia>,
        settings: &StepSettings,
    ) {
        let dt = settings.dt;
        let scratch = &mut *self.scratch;
        let plane = &self.planes[index];
        let range = plane.element_range();
        let across = cut.normal();
        for (k, load) in scratch.loads[range.clone()].iter().enumerate() {
            let element = range.start + k;
            if !load.is_active() {
                self.state.bristles[element] = Vector2::zeros();
                continue;
            }
            // The push: in-plane part plus the part across the plane from oblique faces. The
            // plane's axes and `across` are orthonormal, so |push|² = |force|² + lateral², and
            // without a part across (the common case) one root and one division serve both
            // unit vectors.
            let in_plane_squared = load.force.norm_squared();
            let in_plane = in_plane_squared.sqrt();
            let fnorm = if load.lateral == 0.0 {
                in_plane
            } else {
                (in_plane_squared + load.lateral * load.lateral).sqrt()
            };
            if fnorm <= 1e-12 * load.magnitude {
                self.state.bristles[element] = Vector2::zeros();
                continue;
            }
            let per_in_plane = 1.0 / in_plane;
            let per_norm = if load.lateral == 0.0 {
                per_in_plane
            } else {
                1.0 / fnorm
            };
            let push = cut.vector_to_world(&load.force) + across * load.lateral;
            let normal = push * per_norm;
            let n2 = if in_plane > 0.0 {
                load.force * per_in_plane
            } else {
                Vector2::new(0.0, 1.0)
            };
            // Across its strip the load lies nearer the side the face tilts into (`strip`).
            let shift = slope_shift(
                load.magnitude,
                load.stiffness,
                load.slope / load.magnitude,
                plane.half,
            );
            let offset = (scratch.offsets[element] + shift).clamp(-plane.half, plane.half);
            let point = cut.to_world(&load.point) + across * offset;
            // Belt direction: in the plane, square to the in-plane push (so also to the whole
            // push); the lateral friction direction completes the frame.
            let tau = cut.vector_to_world(&Vector2::new(-n2.y, n2.x));
            let lateral = normal.cross(&tau);
            let lateral = if lateral.dot(&across) < 0.0 {
                -lateral
            } else {
                lateral
            };
            let v = body.point_velocity(&point);
            // The explicit step's caps, from the hull's effective mass at the contact (`hull`
            // is given for the explicit step alone); the implicit step needs none, nor the
            // hull's damping cap its inverse mass (left 0).
            let (stable, damping_limit, per_mass) = match hull {
                Some(hull) => {
                    let per_mass = hull.inverse_effective_mass(&point, &normal);
                    let mass = 1.0 / per_mass;
                    (
                        stable_share(load.stiffness, mass, dt),
                        contact_damping_limit(mass, dt),
                        per_mass,
                    )
                }
                None => (1.0, f64::INFINITY, 0.0),
            };
            // Hunt–Crossley (Marhefka–Orin form, F = κS·(1 + β·δ̇)): the force grows with the
            // penetration rate and never pulls. A rubber belt is lossy, so β is large; it also
            // removes, within the step, the energy that an explicit step adds when a wheel
            // first moves v·dt into the ground before any force acts. Plus the rubber's
            // Kelvin–Voigt damping τ·k·δ̇, which does not fade with the load (see
            // `NormalDamping`).
            let rate = -v.dot(&normal);
            let damping = NormalDamping::new(
                load,
                plane.belt.damping,
                plane.belt.relaxation_time,
                rate,
                damping_limit,
            );
            let Some(damping) = ContactDamping::new(damping, fnorm * stable, per_mass, dt) else {
                self.state.bristles[element] = Vector2::zeros();
                continue;
            };
            let factor = damping.factor();
            scratch.contacts.push(Contact {
                plane: index,
                element,
                track: plane.track,
                point,
                normal,
                tau,
                lateral,
                normal_force: fnorm * factor * stable,
                friction_load: load.magnitude * factor * stable,
                damping,
                // ∂/∂δ of κS·(1 + β·δ̇) + τ·k·δ̇ at the end-of-step rate, taken as zero (the
                // implicit step's K; vehicle::implicit explains why not at the present rate).
                stiffness: load.stiffness * stable,
                mu: Vector2::new(load.grip, load.friction * plane.belt.lateral_friction_scale),
                v_along: v.dot(&tau),
                v_lateral: v.dot(&lateral),
                rolling_resistance: plane.belt.rolling_resistance,
                renewal_per_metre: plane.renewal_per_metre(k, load.depth, &settings.friction),
                sticking: false,
                friction_slope: FrictionSlope::None,
            });
        }
    }

    /// Belts stage: the ground's pull on each belt, linearised around the current belt speed
    /// (friction at that speed and its derivative), and each belt's speed stepped implicitly
    /// against its motor ([`step_belt`]).
    fn step_belts(&mut self, friction_config: &FrictionConfig, sigma0: f64, dt: f64) {
        let scratch = &mut *self.scratch;
        scratch.pull.iter_mut().for_each(|x| *x = 0.0);
        scratch.pull_damping.iter_mut().for_each(|x| *x = 0.0);
        for c in &scratch.contacts {
            let f = contact_friction(c, &self.state, friction_config, sigma0, dt);
            scratch.pull[c.track] += f.force.x;
            scratch.pull_damping[c.track] += f.longitudinal_damping;
        }
        let scratch = &*self.scratch;
        for t in 0..self.spec.tracks.len() {
            let command = self.track_command(t);
            let track = &self.spec.tracks[t];
            let (v, force) = step_belt(
                &track.motor,
                track.sprocket.radius,
                self.state.belt_speed[t],
                command,
                scratch.pull[t],
                scratch.pull_damping[t],
                dt,
            );
            self.state.belt_speed[t] = v;
            self.motor_force[t] = force;
        }
    }

    /// Wrench stage: friction of every contact at the new belt speeds (the bristles keep its
    /// deflection), motion resistance, the contacts for display (`last_contacts`), and the sum
    /// of every contact's force and torque on the hull (the flippers' ground torques follow,
    /// [`Self::flipper_loads`]).
    fn finish_contacts(
        &mut self,
        body: &BodyState,
        settings: &StepSettings,
        sigma0: f64,
    ) -> Wrench {
        let (friction_config, dt) = (&settings.friction, settings.dt);
        let scratch = &mut *self.scratch;
        if settings.implicit {
            scratch.linearisation.clear(dt);
        }
        let mut wrench = Wrench::default();
        self.track_normal.iter_mut().for_each(|x| *x = 0.0);
        self.last_contacts.clear();
        for c in &mut scratch.contacts {
            let f = contact_friction(c, &self.state, friction_config, sigma0, dt);
            self.state.bristles[c.element] = f.bristle;
            c.sticking = f.sticking;
            if settings.implicit {
                c.friction_slope = friction_slope(c, &f, &self.state, sigma0, settings);
                linearise(&mut scratch.linearisation, c, &body.com);
            }
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
                belt_direction: c.tau,
                mu: c.mu,
                rolling_resistance: c.rolling_resistance,
                slip_ratio_stiffness: if c.renewal_per_metre > 0.0 {
                    sigma0 / c.renewal_per_metre
                } else {
                    f64::INFINITY
                },
            });
            wrench.force += force;
            wrench.torque += (c.point - body.com).cross(&force);
            self.track_normal[c.track] += c.normal_force;
        }
        wrench
    }
}
