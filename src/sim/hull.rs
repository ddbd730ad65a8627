//! The rapier side of a robot and of the scene: the terrain collider, the hull body with its
//! box collider, the belts' side guards ([`crate::vehicle::tracked::guard`]) as colliders on the hull,
//! and the contact hook that keeps only the guards' lateral contacts.
//!
//! The terrain collider is alone in [`TERRAIN_GROUP`]. A hull box that no terrain comes within
//! rapier's contact reach of (`clearance`) leaves that group out of its collision filter
//! ([`switch_hull`]), so rapier skips a narrow phase that could only find nothing; it still
//! collides with other robots and with movers while one of them may reach it (`proximity`),
//! and is switched off while nothing may.
//!
//! A guard collider stands for the side wall of a belt. Its contacts whose normal lies within
//! 45° of the body's y axis are kept (the belt's side meets a wall, a curb's side, a rock's
//! flank); all others are dropped before the solver sees them, because in the belt's own
//! plane the track model (seed 004) carries the contact with its wheel and run laws. A belt
//! pressed against a wall at 40° from its direction is held by both (the wall's in-plane part
//! through the track planes, its lateral part by the guard).

use rapier3d::prelude::*;

use super::{v32, SimError};
use crate::vehicle::body::Wrench;
use crate::vehicle::spec::HullShape;
use crate::vehicle::tracked::guard::belt_guards;
use crate::vehicle::{Drivetrain, RobotSpec};

/// `user_data` of a guard collider that is switched off (see [`pose_guards`]).
const GUARD_TAG: u128 = 0x67_7561_7264; // "guard" in ASCII
/// Added to [`GUARD_TAG`] while the guard is switched on.
const GUARD_ON: u128 = 1 << 64;
/// `user_data` of a hull box collider: the one collider of a robot's body that
/// [`switch_hull`] switches (its body also carries guards, arm parts and a held object).
const HULL_TAG: u128 = 0x6875_6c6c; // "hull" in ASCII

/// Collision group of the terrain collider, and of nothing else (every other collider is in
/// every group): the one group a hull far from the terrain filters out.
pub(crate) const TERRAIN_GROUP: Group = Group::GROUP_1;

/// A guard contact is kept when |n · body y| is at least this (within 45° of lateral).
const GUARD_MIN_LATERAL: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// Whether a collider is a side guard, and if so whether it is switched on.
pub(crate) fn guard_state(collider: &Collider) -> Option<bool> {
    (collider.user_data & !GUARD_ON == GUARD_TAG).then_some(collider.user_data & GUARD_ON != 0)
}

/// One belt's side-guard collider on a robot's hull.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct GuardCollider {
    /// The collider.
    pub handle: ColliderHandle,
    /// The flipper it turns with, if any.
    pub flipper: Option<usize>,
}

/// The scene's terrain as a rapier trimesh collider (internal edges fixed so bodies slide
/// over triangle seams).
pub(crate) fn terrain_collider(
    terrain: &crate::terrain::Terrain,
    friction: f64,
) -> Result<Collider, SimError> {
    let vertices: Vec<Vector> = terrain
        .vertices()
        .iter()
        .map(|p| Vector::new(p.x as f32, p.y as f32, p.z as f32))
        .collect();
    Ok(ColliderBuilder::trimesh_with_flags(
        vertices,
        terrain.triangles().to_vec(),
        TriMeshFlags::FIX_INTERNAL_EDGES,
    )
    .map_err(|e| SimError::Collider(e.to_string()))?
    .collision_groups(InteractionGroups::new(
        TERRAIN_GROUP,
        Group::ALL,
        InteractionTestMode::And,
    ))
    .friction(friction as f32)
    .restitution(0.0)
    .build())
}

/// Inserts a robot's hull as a rapier body at `pose`, at rest: the mass properties of the
/// robot file on a massless box collider.
pub(crate) fn insert_hull(
    world: &mut PhysicsWorld,
    spec: &RobotSpec,
    pose: Pose,
    friction: f64,
) -> RigidBodyHandle {
    let com = spec.center_of_mass;
    let body = RigidBodyBuilder::dynamic()
        .pose(pose)
        .additional_mass_properties(MassProperties::new(
            Vector::new(com.x as f32, com.y as f32, com.z as f32),
            spec.mass as f32,
            v32(&spec.inertia),
        ))
        .can_sleep(false)
        .build();
    let handle = world.bodies.insert(body);
    let HullShape::Box { size, center } = spec.hull;
    let collider = ColliderBuilder::cuboid(
        size.x as f32 / 2.0,
        size.y as f32 / 2.0,
        size.z as f32 / 2.0,
    )
    .translation(Vector::new(
        center.x as f32,
        center.y as f32,
        center.z as f32,
    ))
    .density(0.0)
    .friction(friction as f32)
    .restitution(0.0)
    .user_data(HULL_TAG)
    .build();
    world
        .colliders
        .insert_with_parent(collider, handle, &mut world.bodies);
    handle
}

/// Inserts the robot's hull at `pose` with the side guards of its belts (flipper guards at
/// the model's current flipper angles); the guards' handles go to `guards` (cleared first).
pub(crate) fn insert_robot_body(
    world: &mut PhysicsWorld,
    model: &Drivetrain,
    pose: Pose,
    friction: f64,
    guards: &mut Vec<GuardCollider>,
) -> RigidBodyHandle {
    let body = insert_hull(world, model.spec(), pose, friction);
    guards.clear();
    for guard in belt_guards(model.spec()) {
        let points: Vec<Vector> = guard
            .points
            .iter()
            .map(|p| Vector::new(p.x as f32, p.y as f32, p.z as f32))
            .collect();
        // The points span a solid (circles of positive radius at both sides of the belt), so
        // the hull exists; a degenerate one is skipped rather than failing the robot.
        let Some(builder) = ColliderBuilder::convex_hull(&points) else {
            continue;
        };
        let collider = builder
            .density(0.0)
            .friction(friction as f32)
            .restitution(0.0)
            .user_data(GUARD_TAG | GUARD_ON)
            .active_hooks(ActiveHooks::FILTER_CONTACT_PAIRS | ActiveHooks::MODIFY_SOLVER_CONTACTS)
            .build();
        let handle = world
            .colliders
            .insert_with_parent(collider, body, &mut world.bodies);
        guards.push(GuardCollider {
            handle,
            flipper: guard.flipper,
        });
    }
    pose_guards(world, model, guards);
    body
}

/// Turns the flipper guards to the model's current flipper angles, and switches each guard on
/// only while terrain that could meet its belt's side is near (the track model's candidate
/// search says so): a guard resting against treads and nosings it may never push on costs
/// rapier a contact manifold a step for nothing (measured with the 20 kg robot on the stairs:
/// 41.5 µs a step with every guard always on, 14.3 µs without guards). A switched-off guard
/// stays in the world, disabled, and its `user_data` says it is off (the contact hook skips any
/// pair it still has).
pub(crate) fn pose_guards(world: &mut PhysicsWorld, model: &Drivetrain, guards: &[GuardCollider]) {
    let Some(model) = model.as_tracked() else {
        return; // wheels have no side guards
    };
    for (belt, g) in guards.iter().enumerate() {
        let Some(on) = world.colliders.get(g.handle).and_then(guard_state) else {
            continue;
        };
        let needed = model.side_faces_near(belt);
        // A switched-on flipper guard follows its flipper; any other guard is touched only
        // when it switches (`get_mut` marks a collider as changed for rapier).
        let turns = needed && g.flipper.is_some();
        if on == needed && !turns {
            continue;
        }
        let Some(c) = world.colliders.get_mut(g.handle) else {
            continue;
        };
        c.user_data = if needed {
            GUARD_TAG | GUARD_ON
        } else {
            GUARD_TAG
        };
        // A switched-off guard is disabled too: rapier then neither bounds nor pairs it (it
        // would only find contacts for the hook to drop).
        c.set_enabled(needed);
        if let (Some(f), true) = (g.flipper, needed) {
            c.set_position_wrt_parent(super::pose_of(&model.flipper_motion(f)));
        }
    }
}

/// Hands the hull `body` the drive train's `wrench` (world frame, N and N·m, about the centre of
/// mass) for the coming step, in place of the last one (rapier keeps a body's force until it
/// is changed); a wrench that is not finite hands none.
///
/// Set without marking the body modified where rapier allows it
/// (`RigidBodySet::set_user_force_untracked`, a method of the vendored rapier:
/// `vendor/README.md`): a body rapier sees modified makes its next step update the body's
/// island and rebuild the solver's caches (contact graph, body table, joint layouts), though a
/// force is read afresh every step. That rebuild was 3 % of the scout's whole step on the
/// public stairs and 50 k instructions of the serial stages with 100 robots; the
/// trajectories are the same bit for bit.
pub(crate) fn apply_wrench(world: &mut PhysicsWorld, body: RigidBodyHandle, wrench: &Wrench) {
    let (force, torque) = if wrench
        .force
        .iter()
        .chain(wrench.torque.iter())
        .all(|x| x.is_finite())
    {
        (v32(&wrench.force), v32(&wrench.torque))
    } else {
        (Vector::ZERO, Vector::ZERO)
    };
    if world.bodies.set_user_force_untracked(body, force, torque) {
        return;
    }
    // Asleep, just switched or changed otherwise this step: rapier's own way.
    if let Some(b) = world.bodies.get_mut(body) {
        b.reset_forces(false);
        b.reset_torques(false);
        b.add_force(force, true);
        b.add_torque(torque, true);
    }
}

/// What may come within rapier's contact reach of a robot's hull box in the coming step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HullReach {
    /// Some terrain face (`clearance`).
    pub terrain: bool,
    /// Another robot or a moving obstacle (`proximity`).
    pub bodies: bool,
}

/// Switches the hull box collider(s) of `body` (not its guards) by what may reach them (see
/// the module docs): on with the terrain in the collision filter while terrain may, on without
/// it while only other bodies may, and off while nothing may (rapier then neither bounds nor
/// pairs the box). Touches a collider only when its state changes (rapier then re-pairs it).
pub(crate) fn switch_hull(world: &mut PhysicsWorld, body: RigidBodyHandle, reach: HullReach) {
    let on = reach.terrain || reach.bodies;
    let filter = if reach.terrain {
        Group::ALL
    } else {
        Group::ALL.difference(TERRAIN_GROUP)
    };
    let Some(body) = world.bodies.get(body) else {
        return;
    };
    for &handle in body.colliders() {
        // Looked at first, changed only if needed: `get_mut` marks a collider as changed.
        let Some(c) = world.colliders.get(handle) else {
            continue;
        };
        let filter_set = !on || c.collision_groups().filter == filter;
        if c.user_data != HULL_TAG || (c.is_enabled() == on && filter_set) {
            continue;
        }
        if let Some(c) = world.colliders.get_mut(handle) {
            c.set_enabled(on);
            if on {
                c.set_collision_groups(c.collision_groups().with_filter(filter));
            }
        }
    }
}

/// Radius of a sphere about the body origin that holds every collider a robot of `spec` has
/// in rapier's world, m: the hull box and the belts' side guards, a flipper's at any angle
/// (each of its points turns about the flipper's axis, so it stays within the axis's distance
/// from the origin plus its own from the axis).
pub(crate) fn collider_radius(spec: &RobotSpec) -> f64 {
    let HullShape::Box { size, center } = spec.hull;
    let hull = (center.coords.abs() + size * 0.5).norm();
    belt_guards(spec)
        .iter()
        .flat_map(|guard| {
            let axis = guard
                .flipper
                .and_then(|f| spec.flippers.get(f))
                .map(|f| nalgebra::Vector2::new(f.axis_x, f.axis_z));
            guard.points.iter().map(move |p| match axis {
                Some(axis) => {
                    let in_plane = nalgebra::Vector2::new(p.x, p.z);
                    (axis.norm() + (in_plane - axis).norm()).hypot(p.y)
                }
                None => p.coords.norm(),
            })
        })
        .fold(hull, f64::max)
}

/// The hull box collider(s) of `body` (not its side guards, arm parts or a held object).
pub(crate) fn hull_colliders<'a>(
    colliders: &'a ColliderSet,
    body: &'a RigidBody,
) -> impl Iterator<Item = (ColliderHandle, &'a Collider)> + 'a {
    body.colliders()
        .iter()
        .filter_map(|&h| colliders.get(h).map(|c| (h, c)))
        .filter(|(_, c)| c.user_data == HULL_TAG)
}

/// The contact hook of the simulation: keeps a guard's contacts only where they are lateral
/// to the guard's body (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct GuardHook;

impl GuardHook {
    /// The y axis (world) of the body carrying `collider` when it is a guard.
    fn guard_axis(
        colliders: &ColliderSet,
        bodies: &RigidBodySet,
        collider: ColliderHandle,
    ) -> Option<Vector> {
        let c = colliders.get(collider)?;
        guard_state(c)?;
        let body = bodies.get(c.parent()?)?;
        Some(body.rotation() * Vector::Y)
    }
}

impl PhysicsHooks for GuardHook {
    fn filter_contact_pair(&self, context: &PairFilterContext) -> Option<SolverFlags> {
        let off = |h: ColliderHandle| context.colliders.get(h).and_then(guard_state) == Some(false);
        if off(context.collider1) || off(context.collider2) {
            None
        } else {
            Some(SolverFlags::default())
        }
    }

    fn filter_intersection_pair(&self, _context: &PairFilterContext) -> bool {
        true
    }

    fn modify_solver_contacts(&self, context: &mut ContactModificationContext) {
        let (colliders, bodies) = (context.colliders, context.bodies);
        let axes =
            [context.collider1, context.collider2].map(|c| Self::guard_axis(colliders, bodies, c));
        let Some(manifold) = context.rigid_mut() else {
            return;
        };
        let normal = *manifold.normal;
        let lateral = axes
            .iter()
            .flatten()
            .all(|y| normal.dot(*y).abs() >= GUARD_MIN_LATERAL);
        if !lateral {
            manifold.solver_contacts.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vehicle::geometry::flipper_motion;
    use crate::vehicle::robot_file::test_preset;
    use nalgebra::Point3;

    /// Every point of every collider a preset puts in rapier's world — the hull box's corners,
    /// the main tracks' guards, the flipper guards turned through their whole range — lies
    /// within the collider radius, and some point comes within 2 cm of it (a bound, not a
    /// guess far above the robot).
    #[test]
    fn every_collider_point_lies_within_the_collider_radius() {
        for name in ["scout", "selfright20", "tracker55", "heavy250", "rover30"] {
            let spec = test_preset(name);
            let radius = collider_radius(&spec);
            let HullShape::Box { size, center } = spec.hull;
            let mut points: Vec<Point3<f64>> = (0..8)
                .map(|k| {
                    let sign = |bit: usize| if k >> bit & 1 == 1 { 0.5 } else { -0.5 };
                    center
                        + nalgebra::Vector3::new(
                            sign(0) * size.x,
                            sign(1) * size.y,
                            sign(2) * size.z,
                        )
                })
                .collect();
            for guard in belt_guards(&spec) {
                match guard.flipper.map(|f| &spec.flippers[f]) {
                    None => points.extend(&guard.points),
                    Some(flipper) => {
                        for k in 0..=72 {
                            let angle = flipper.min_angle
                                + (flipper.max_angle - flipper.min_angle) * k as f64 / 72.0;
                            let motion = flipper_motion(flipper, angle);
                            points.extend(guard.points.iter().map(|p| motion * p));
                        }
                    }
                }
            }
            let farthest = points.iter().map(|p| p.coords.norm()).fold(0.0, f64::max);
            assert!(farthest <= radius + 1e-12, "{name}: {farthest} > {radius}");
            assert!(farthest > radius - 0.02, "{name}: {farthest} ≪ {radius}");
        }
    }
}
