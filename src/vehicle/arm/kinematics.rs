//! An arm's kinematics in the body frame: link frames and the tool point from joint positions
//! (forward kinematics), the tool point's Jacobian, and the resolved-rate step that turns a
//! tool-point velocity into joint speeds (damped least squares near singularities, joint
//! limits and top speeds respected). Pure `f64` functions on fixed-size arrays: nothing here
//! allocates, so the controller may call them every step.

use nalgebra::{Isometry3, Matrix3, Point3, SMatrix, Translation3, UnitQuaternion, Vector3};

use super::{ArmSpec, JointKind, MAX_ARM_JOINTS};
use crate::vehicle::RobotSpec;

/// Joint positions or speeds, in joint order; entries past the arm's joints are unused.
pub type JointVector = [f64; MAX_ARM_JOINTS];

/// The tool point's linear-velocity Jacobian, m/s per (rad/s or m/s), body frame: column `j`
/// is joint `j`'s contribution; columns past the arm's joints are zero.
pub type ToolJacobian = SMatrix<f64, 3, MAX_ARM_JOINTS>;

/// Below this smallest singular value of the Jacobian, m per rad, the resolved-rate step is
/// damped (Nakamura & Hanafusa's variable damping): about 2 % of a 1 m arm's reach per rad.
pub const SINGULAR_THRESHOLD: f64 = 0.02;
/// The damping λ at an exact singularity, m per rad.
pub const MAX_DAMPING: f64 = 0.02;

/// The motion a joint at position `q` makes: a turn about, or a slide along, its axis.
pub fn joint_motion(spec: &ArmSpec, j: usize, q: f64) -> Isometry3<f64> {
    let joint = &spec.joints[j];
    match joint.kind {
        JointKind::Revolute => Isometry3::from_parts(
            Translation3::identity(),
            UnitQuaternion::from_axis_angle(&joint.axis, q),
        ),
        JointKind::Prismatic => Isometry3::from_parts(
            Translation3::from(joint.axis.into_inner() * q),
            UnitQuaternion::identity(),
        ),
    }
}

/// Each link's frame at joint positions `q`, body frame, written to `frames[..n]`; returns
/// the gripper frame.
pub fn link_frames(
    spec: &ArmSpec,
    q: &[f64],
    frames: &mut [Isometry3<f64>; MAX_ARM_JOINTS],
) -> Isometry3<f64> {
    let mut origin = Isometry3::from_parts(
        Translation3::from(spec.mount.coords),
        UnitQuaternion::identity(),
    );
    for (j, joint) in spec.joints.iter().enumerate() {
        // A joint `q` does not reach stands at 0.
        let frame = origin * joint_motion(spec, j, q.get(j).copied().unwrap_or(0.0));
        frames[j] = frame;
        origin = frame * Translation3::from(joint.link.end);
    }
    origin
}

/// The gripper frame at joint positions `q`, body frame.
pub fn gripper_frame(spec: &ArmSpec, q: &[f64]) -> Isometry3<f64> {
    let mut frames = [Isometry3::identity(); MAX_ARM_JOINTS];
    link_frames(spec, q, &mut frames)
}

/// The tool point at joint positions `q`, m, body frame.
pub fn tool_point(spec: &ArmSpec, q: &[f64]) -> Point3<f64> {
    gripper_frame(spec, q) * spec.gripper.tool_point()
}

/// The tool point's Jacobian at joint positions `q` (body frame).
pub fn tool_jacobian(spec: &ArmSpec, q: &[f64]) -> ToolJacobian {
    let mut frames = [Isometry3::identity(); MAX_ARM_JOINTS];
    let gripper = link_frames(spec, q, &mut frames);
    let tool = gripper * spec.gripper.tool_point();
    let mut jacobian = ToolJacobian::zeros();
    for (j, joint) in spec.joints.iter().enumerate() {
        let axis = frames[j].rotation * joint.axis.into_inner();
        let column = match joint.kind {
            JointKind::Revolute => axis.cross(&(tool - Point3::from(frames[j].translation.vector))),
            JointKind::Prismatic => axis,
        };
        jacobian.set_column(j, &column);
    }
    jacobian
}

/// Joint speeds that move the tool point at `velocity` m/s (body frame) from joint positions
/// `q`, rad/s or m/s.
///
/// Damped least squares, q̇ = Jᵀ(J·Jᵀ + λ²·I)⁻¹·v, with λ = 0 away from singularities and
/// λ² = λ_max²·(1 − (σ_min/σ₀)²) once the smallest singular value σ_min of J falls below
/// σ₀ = [`SINGULAR_THRESHOLD`]. A joint at a limit that the solution would push further is
/// left out and the rest solved again; finally all speeds are scaled down together so no
/// joint exceeds its top speed (the direction of the tool's motion is kept).
pub fn resolved_rate(spec: &ArmSpec, q: &[f64], velocity: &Vector3<f64>) -> JointVector {
    let full = tool_jacobian(spec, q);
    let n = spec.joints.len();
    let mut jacobian = full;
    let mut rates = [0.0; MAX_ARM_JOINTS];
    for _ in 0..=n {
        rates = damped_solve(&jacobian, velocity);
        let mut changed = false;
        for (j, joint) in spec.joints.iter().enumerate() {
            let at_max = q[j] >= joint.max && rates[j] > 0.0;
            let at_min = q[j] <= joint.min && rates[j] < 0.0;
            if at_max || at_min {
                jacobian.set_column(j, &Vector3::zeros());
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let over = spec
        .joints
        .iter()
        .zip(&rates)
        .map(|(joint, r)| r.abs() / joint.max_speed)
        .fold(1.0, f64::max);
    rates.map(|r| r / over)
}

/// q̇ = Jᵀ(J·Jᵀ + λ²·I)⁻¹·v with the variable damping of [`resolved_rate`].
fn damped_solve(jacobian: &ToolJacobian, velocity: &Vector3<f64>) -> JointVector {
    let jjt: Matrix3<f64> = jacobian * jacobian.transpose();
    let smallest = jjt.symmetric_eigenvalues().min().max(0.0).sqrt();
    let ratio = smallest / SINGULAR_THRESHOLD;
    let lambda2 = if ratio < 1.0 {
        MAX_DAMPING * MAX_DAMPING * (1.0 - ratio * ratio)
    } else {
        0.0
    };
    let system = jjt + Matrix3::identity() * lambda2;
    let Some(inverse) = system.try_inverse() else {
        return [0.0; MAX_ARM_JOINTS];
    };
    let rates = jacobian.transpose() * (inverse * velocity);
    let mut out = [0.0; MAX_ARM_JOINTS];
    for (o, r) in out.iter_mut().zip(rates.iter()) {
        *o = if r.is_finite() { *r } else { 0.0 };
    }
    out
}

/// The combined mass (kg) and centre of mass (m, body frame) of a robot of `spec` with its
/// arm at `pose` holding `load` kg at the tool point: the hull at its file's centre of mass,
/// each link at its middle, the palm at its middle, the fingers and the load at the pads.
pub fn combined_mass_center(
    spec: &RobotSpec,
    arm: &ArmSpec,
    pose: &[f64],
    load: f64,
) -> (f64, Point3<f64>) {
    let mut frames = [Isometry3::identity(); MAX_ARM_JOINTS];
    let gripper = link_frames(arm, pose, &mut frames);
    let masses =
        outboard_masses(arm, &frames, &gripper, 0, load).chain([(spec.mass, spec.center_of_mass)]);
    let (mass, moment) = masses.fold((0.0, Vector3::zeros()), |(m, s), (mi, p)| {
        (m + mi, s + p.coords * mi)
    });
    (mass, Point3::from(moment / mass))
}

/// The masses (kg) the arm carries outboard of joint `from` and where they sit (m, body frame),
/// with the arm's link frames `frames` and gripper frame `gripper` at one pose: each link at
/// its middle, the palm at its middle, the fingers and `load` kg at the pads.
pub fn outboard_masses<'a>(
    arm: &'a ArmSpec,
    frames: &'a [Isometry3<f64>],
    gripper: &Isometry3<f64>,
    from: usize,
    load: f64,
) -> impl Iterator<Item = (f64, Point3<f64>)> + 'a {
    let g = &arm.gripper;
    let pads = gripper * g.tool_point();
    arm.joints[from..]
        .iter()
        .zip(&frames[from..])
        .map(|(j, f)| (j.link.mass, f * Point3::from(j.link.end / 2.0)))
        .chain([
            (
                g.palm_mass,
                gripper * Point3::new(g.palm_length / 2.0, 0.0, 0.0),
            ),
            (2.0 * g.finger_mass, pads),
            (load, pads),
        ])
}

/// The robot of `spec` as one rigid body with its arm at its initial (stowed) joint positions,
/// as a planner that treats the robot as rigid needs it: mass (kg) and centre of mass (m, body
/// frame) combined as [`combined_mass_center`] combines them, and moments of inertia (kg·m²)
/// about the combined centre of mass along the body axes — the hull's own plus each mass's
/// (hull and arm parts as points) parallel-axis term; products of inertia are left out. The
/// arm is folded into the body (`arm: None`); a robot without an arm is returned unchanged.
/// tracker55_eod's 12.4 kg arm raises its centre of mass from body z 0.140 to 0.188 m and
/// brings its static forward tip angle from tracker55's 55.0° to 50.9°.
pub fn stowed_rigid_body(spec: &RobotSpec) -> RobotSpec {
    let Some(arm) = spec.arm.as_ref() else {
        return spec.clone();
    };
    let mut stowed = [0.0; MAX_ARM_JOINTS];
    for (q, joint) in stowed.iter_mut().zip(&arm.joints) {
        *q = joint.initial;
    }
    let pose = &stowed[..arm.joints.len()];
    let (mass, com) = combined_mass_center(spec, arm, pose, 0.0);
    let mut frames = [Isometry3::identity(); MAX_ARM_JOINTS];
    let gripper = link_frames(arm, pose, &mut frames);
    let parallel_axis = |m: f64, p: &Point3<f64>| {
        let d = p - com;
        m * Vector3::new(
            d.y * d.y + d.z * d.z,
            d.x * d.x + d.z * d.z,
            d.x * d.x + d.y * d.y,
        )
    };
    let inertia = outboard_masses(arm, &frames, &gripper, 0, 0.0)
        .map(|(m, p)| parallel_axis(m, &p))
        .fold(
            spec.inertia + parallel_axis(spec.mass, &spec.center_of_mass),
            |sum, term| sum + term,
        );
    RobotSpec {
        mass,
        center_of_mass: com,
        inertia,
        arm: None,
        ..spec.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vehicle::arm::{ArmJointSpec, GripperSpec, LinkSpec};
    use nalgebra::Unit;

    /// A planar two-link arm in the x–z plane with a turret: 0.5 m and 0.4 m links.
    pub(crate) fn two_link() -> ArmSpec {
        let joint = |name: &str, axis: Vector3<f64>, end: Vector3<f64>| ArmJointSpec {
            name: name.into(),
            kind: JointKind::Revolute,
            axis: Unit::new_normalize(axis),
            min: -3.0,
            max: 3.0,
            max_speed: 1.0,
            max_effort: 50.0,
            initial: 0.0,
            link: LinkSpec {
                end,
                radius: 0.03,
                mass: 1.0,
            },
        };
        ArmSpec {
            mount: Point3::new(0.1, 0.0, 0.2),
            joints: vec![
                joint("turret", Vector3::z(), Vector3::new(0.0, 0.0, 0.1)),
                joint("shoulder", Vector3::y(), Vector3::new(0.5, 0.0, 0.0)),
                joint("elbow", Vector3::y(), Vector3::new(0.4, 0.0, 0.0)),
            ],
            gripper: GripperSpec {
                palm_length: 0.05,
                palm_mass: 0.3,
                opening: 0.1,
                max_force: 40.0,
                finger_speed: 0.05,
                friction: 0.8,
                pad: [0.04, 0.03],
                finger_mass: 0.05,
                camera: None,
            },
            poses: Vec::new(),
            drive_reach: 0.5,
        }
    }

    #[test]
    fn forward_kinematics_of_a_planar_arm_matches_trigonometry() {
        let arm = two_link();
        let (a, b) = (0.3_f64, -0.7_f64);
        let tool = tool_point(&arm, &[0.0, a, b]);
        // Positive angles about y point the link down: z = −l·sin(angle).
        let reach = 0.4 + 0.05 + 0.02;
        let x = 0.1 + 0.5 * a.cos() + reach * (a + b).cos();
        let z = 0.3 - 0.5 * a.sin() - reach * (a + b).sin();
        assert!((tool - Point3::new(x, 0.0, z)).norm() < 1e-12, "{tool}");
    }

    #[test]
    fn jacobian_matches_finite_differences() {
        let arm = two_link();
        let q = [0.4, 0.3, -0.9];
        let jacobian = tool_jacobian(&arm, &q);
        for j in 0..3 {
            let h = 1e-6;
            let (mut up, mut down) = (q, q);
            up[j] += h;
            down[j] -= h;
            let fd = (tool_point(&arm, &up) - tool_point(&arm, &down)) / (2.0 * h);
            let column = jacobian.column(j);
            assert!((fd - column).norm() < 1e-7, "joint {j}: {fd} vs {column}");
        }
    }

    #[test]
    fn resolved_rate_gives_the_commanded_tool_velocity_away_from_singularities() {
        let arm = two_link();
        let q = [0.2, 0.3, -1.0];
        let v = Vector3::new(0.05, -0.02, 0.03);
        let rates = resolved_rate(&arm, &q, &v);
        let achieved = tool_jacobian(&arm, &q) * SMatrix::<f64, MAX_ARM_JOINTS, 1>::from(rates);
        assert!(
            (achieved - v).norm() < 1e-9 * v.norm().max(1.0),
            "{achieved}"
        );
    }

    #[test]
    fn resolved_rate_is_bounded_at_a_singularity_and_by_top_speeds() {
        let arm = two_link();
        // Stretched straight out: no joint can move the tool further out.
        let q = [0.0, 0.0, 0.0];
        let rates = resolved_rate(&arm, &q, &Vector3::new(1.0, 0.0, 0.0));
        assert!(rates.iter().all(|r| r.abs() <= 1.0 + 1e-12), "{rates:?}");
        let fast = resolved_rate(&arm, &[0.2, 0.3, -1.0], &Vector3::new(0.0, 0.0, 5.0));
        let top = fast.iter().map(|r| r.abs()).fold(0.0, f64::max);
        assert!((top - 1.0).abs() < 1e-12, "fastest joint {top} rad/s");
    }

    #[test]
    fn resolved_rate_leaves_a_joint_at_its_limit_out() {
        let mut arm = two_link();
        arm.joints[2].max = -1.0;
        let q = [0.0, 0.3, -1.0];
        // Straight down would need the elbow to bend further up (positive) as well.
        let rates = resolved_rate(&arm, &q, &Vector3::new(0.0, 0.0, -0.1));
        assert!(rates[2] <= 0.0, "{rates:?}");
    }
}
