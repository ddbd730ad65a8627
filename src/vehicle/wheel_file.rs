//! Reading the wheels of a wheeled robot file: `[drivetrain]`, `[wheel_defaults]` and the
//! `[[wheel]]` tables (documented in `scenes/robots/README.md`). The rest of the file (robot,
//! hull, cameras) is read by [`super::robot_file`].
//!
//! Every wheel field may be given in `[wheel_defaults]` and overridden per wheel; position,
//! name, `steered` and `driven` belong to each wheel. The body origin convention is the tracked
//! robots': z = 0 touches the bottom of the lowest wheels with their suspension at its free
//! position.

use nalgebra::Point3;

use super::file_limits::{
    AXLE_TOLERANCE, GROUND_TOLERANCE, MAX_ROBOT_EXTENT, MAX_STEER_DEG, MAX_STIFFNESS,
};
use super::spec::{Differential, MotorSpec, Steering, SuspensionSpec, TyreSpec, WheelSpec};
use super::wheeled::steering::AckermannGeometry;
use crate::config::{ConfigError, TableReader};

/// Defaults of the optional wheel fields, from the small robots' figures: a 3 % rolling
/// resistance of a pneumatic or solid rubber tyre on concrete (Wong, Theory of Ground
/// Vehicles, Table 1.2: 0.01–0.02 for car tyres, more for small solid ones); the belts'
/// rubber damping (`robot_file`).
const DEFAULT_ROLLING_RESISTANCE: f64 = 0.03;
const DEFAULT_DAMPING: f64 = 4.0;
const DEFAULT_RELAXATION_TIME: f64 = 0.002;

/// Wheel fields as read from `[wheel_defaults]` or a `[[wheel]]` table, before merging.
#[derive(Debug, Clone, Copy, Default)]
struct PartialWheel {
    radius: Option<f64>,
    width: Option<f64>,
    tyre_stiffness: Option<f64>,
    tyre_damping: Option<f64>,
    tyre_relaxation_time: Option<f64>,
    tread_stiffness: Option<f64>,
    rolling_resistance: Option<f64>,
    suspension_travel: Option<f64>,
    suspension_stiffness: Option<f64>,
    suspension_damping: Option<f64>,
    max_speed: Option<f64>,
    max_torque: Option<f64>,
    max_acceleration: Option<f64>,
    inertia: Option<f64>,
}

impl PartialWheel {
    fn read(t: &TableReader<'_>) -> Result<Self, ConfigError> {
        Ok(Self {
            radius: t.opt_positive("radius", MAX_ROBOT_EXTENT)?,
            width: t.opt_positive("width", MAX_ROBOT_EXTENT)?,
            tyre_stiffness: t.opt_positive("tyre_stiffness", MAX_STIFFNESS)?,
            tyre_damping: t.opt_f64("tyre_damping", 0.0, 1000.0)?,
            tyre_relaxation_time: t.opt_f64("tyre_relaxation_time", 0.0, 1.0)?,
            tread_stiffness: t.opt_positive("tread_stiffness", MAX_STIFFNESS)?,
            rolling_resistance: t.opt_f64("rolling_resistance", 0.0, 1.0)?,
            suspension_travel: t.opt_f64("suspension_travel", 0.0, MAX_ROBOT_EXTENT)?,
            suspension_stiffness: t.opt_positive("suspension_stiffness", MAX_STIFFNESS)?,
            suspension_damping: t.opt_f64("suspension_damping", 0.0, 1.0e7)?,
            max_speed: t.opt_positive("max_speed", 100.0)?,
            max_torque: t.opt_positive("max_torque", 1.0e6)?,
            max_acceleration: t.opt_positive("max_acceleration", 1000.0)?,
            inertia: t.opt_positive("inertia", 1.0e5)?,
        })
    }

    /// Fields of `self` where given, else those of `under`.
    fn over(self, under: &Self) -> Self {
        Self {
            radius: self.radius.or(under.radius),
            width: self.width.or(under.width),
            tyre_stiffness: self.tyre_stiffness.or(under.tyre_stiffness),
            tyre_damping: self.tyre_damping.or(under.tyre_damping),
            tyre_relaxation_time: self.tyre_relaxation_time.or(under.tyre_relaxation_time),
            tread_stiffness: self.tread_stiffness.or(under.tread_stiffness),
            rolling_resistance: self.rolling_resistance.or(under.rolling_resistance),
            suspension_travel: self.suspension_travel.or(under.suspension_travel),
            suspension_stiffness: self.suspension_stiffness.or(under.suspension_stiffness),
            suspension_damping: self.suspension_damping.or(under.suspension_damping),
            max_speed: self.max_speed.or(under.max_speed),
            max_torque: self.max_torque.or(under.max_torque),
            max_acceleration: self.max_acceleration.or(under.max_acceleration),
            inertia: self.inertia.or(under.inertia),
        }
    }
}

/// Reads the wheels of a wheeled robot: `tables` are its `[[wheel]]` tables (at least one).
pub(super) fn read_wheels(
    root: &TableReader<'_>,
    tables: &[TableReader<'_>],
) -> Result<(Vec<WheelSpec>, Steering, Differential), ConfigError> {
    let defaults = match root.opt_table("wheel_defaults")? {
        Some(t) => {
            let w = PartialWheel::read(&t)?;
            t.finish()?;
            w
        }
        None => PartialWheel::default(),
    };
    let (drivetrain, steering, differential) = read_drivetrain(root)?;

    let wheels = read_wheel_tables(tables, &defaults)?;
    check_layout(root, tables, &wheels, steering)?;
    if let Steering::Ackermann { max_angle, .. } = steering {
        // The turn centre must stay outside the front track; `check_layout` made sure there
        // is one steered axle ahead of a rear one.
        let limit = AckermannGeometry::of_wheels(&wheels).map_or(0.0, |g| g.outer_limit());
        if max_angle >= limit {
            return Err(drivetrain.error(
                "max_steer_deg",
                format!(
                    "{:.1}° is at or beyond this geometry's limit atan(l/w) = {:.1}°: the turn \
                     centre would fall between the front wheels",
                    max_angle.to_degrees(),
                    limit.to_degrees()
                ),
            ));
        }
    }
    if differential == Differential::Open {
        let radius = wheels.iter().find(|w| w.driven).map_or(0.0, |w| w.radius);
        if wheels.iter().any(|w| w.driven && w.radius != radius) {
            return Err(drivetrain.error(
                "differential",
                "an open differential needs driven wheels of one radius",
            ));
        }
    }
    Ok((wheels, steering, differential))
}

/// The `[drivetrain]` table (kept for locating later errors): how the robot steers and its
/// differential.
fn read_drivetrain<'f>(
    root: &TableReader<'f>,
) -> Result<(TableReader<'f>, Steering, Differential), ConfigError> {
    let drivetrain = root.opt_table("drivetrain")?.ok_or_else(|| {
        root.error(
            "drivetrain",
            "a wheeled robot needs a [drivetrain] table (kind = \"skid\" or \"ackermann\")",
        )
    })?;
    let kind = drivetrain.str("kind")?;
    let steering = match kind.as_str() {
        "skid" => Steering::Skid,
        "ackermann" => Steering::Ackermann {
            max_angle: drivetrain
                .positive("max_steer_deg", MAX_STEER_DEG)?
                .to_radians(),
            max_rate: drivetrain
                .positive("steer_rate_deg", 10_000.0)?
                .to_radians(),
        },
        other => {
            return Err(drivetrain.error(
                "kind",
                format!("unknown drivetrain '{other}': expected \"skid\" or \"ackermann\""),
            ))
        }
    };
    let differential =
        match drivetrain.opt_str("differential")?.as_deref() {
            None | Some("electronic") => Differential::Electronic,
            Some("open") if matches!(steering, Steering::Ackermann { .. }) => Differential::Open,
            Some("open") => return Err(drivetrain.error(
                "differential",
                "a skid-steered robot drives its sides at different speeds: only \"electronic\"",
            )),
            Some(other) => {
                return Err(drivetrain.error(
                    "differential",
                    format!("unknown differential '{other}': expected \"electronic\" or \"open\""),
                ))
            }
        };
    drivetrain.finish()?;
    Ok((drivetrain, steering, differential))
}

/// The `[[wheel]]` tables: names differ, and the lowest wheel touches the ground plane z = 0
/// (within [`GROUND_TOLERANCE`]).
fn read_wheel_tables(
    tables: &[TableReader<'_>],
    defaults: &PartialWheel,
) -> Result<Vec<WheelSpec>, ConfigError> {
    let mut wheels: Vec<WheelSpec> = Vec::with_capacity(tables.len());
    let mut lowest: Option<(f64, ConfigError)> = None;
    for t in tables {
        let wheel = read_wheel(t, defaults)?;
        if wheels.iter().any(|w| w.name == wheel.name) {
            return Err(t.error("name", format!("wheel '{}' is defined twice", wheel.name)));
        }
        let bottom = wheel.center.z - wheel.radius;
        if lowest.as_ref().is_none_or(|(b, _)| bottom < *b) {
            lowest = Some((bottom, t.error("z", "")));
        }
        wheels.push(wheel);
    }
    if let Some((bottom, at)) = lowest {
        if bottom.abs() > GROUND_TOLERANCE {
            return Err(ConfigError {
                message: format!(
                    "the lowest wheel has its bottom at z = {bottom:.4} m; the body origin must \
                     be on the ground plane under the wheels (z = 0 at the bottom of the lowest \
                     wheels, within {GROUND_TOLERANCE} m): shift every z by {:.4} m",
                    -bottom
                ),
                ..at
            });
        }
    }
    Ok(wheels)
}

fn read_wheel(t: &TableReader<'_>, defaults: &PartialWheel) -> Result<WheelSpec, ConfigError> {
    let name = t.str("name")?;
    if name.trim().is_empty() {
        return Err(t.error("name", "must not be empty"));
    }
    let x = t.f64("x", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?;
    let y = t.f64("y", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?;
    let z = t.f64("z", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?;
    let steered = t.opt_bool("steered")?.unwrap_or(false);
    let driven = t.opt_bool("driven")?.unwrap_or(false);
    let w = PartialWheel::read(t)?.over(defaults);
    t.finish()?;
    let missing = |key: &str| {
        t.error(
            key,
            format!("missing: give `{key}` in [wheel_defaults] or in this wheel"),
        )
    };
    let radius = w.radius.ok_or_else(|| missing("radius"))?;
    let inertia = w.inertia.ok_or_else(|| missing("inertia"))?;
    let motor = if driven {
        MotorSpec {
            max_speed: w.max_speed.ok_or_else(|| missing("max_speed"))?,
            max_torque: w.max_torque.ok_or_else(|| missing("max_torque"))?,
            max_acceleration: w
                .max_acceleration
                .ok_or_else(|| missing("max_acceleration"))?,
            belt_inertia: inertia / (radius * radius),
        }
    } else {
        // A free wheel: no motor force, only its own inertia.
        MotorSpec {
            max_speed: f64::INFINITY,
            max_torque: 0.0,
            max_acceleration: f64::INFINITY,
            belt_inertia: inertia / (radius * radius),
        }
    };
    let travel = w
        .suspension_travel
        .ok_or_else(|| missing("suspension_travel"))?;
    Ok(WheelSpec {
        name,
        center: Point3::new(x, y, z),
        radius,
        width: w.width.ok_or_else(|| missing("width"))?,
        steered,
        driven,
        suspension: SuspensionSpec {
            travel,
            stiffness: w
                .suspension_stiffness
                .ok_or_else(|| missing("suspension_stiffness"))?,
            damping: w
                .suspension_damping
                .ok_or_else(|| missing("suspension_damping"))?,
        },
        tyre: TyreSpec {
            stiffness: w.tyre_stiffness.ok_or_else(|| missing("tyre_stiffness"))?,
            damping: w.tyre_damping.unwrap_or(DEFAULT_DAMPING),
            relaxation_time: w.tyre_relaxation_time.unwrap_or(DEFAULT_RELAXATION_TIME),
            tread_stiffness: w
                .tread_stiffness
                .ok_or_else(|| missing("tread_stiffness"))?,
            rolling_resistance: w.rolling_resistance.unwrap_or(DEFAULT_ROLLING_RESISTANCE),
        },
        motor,
    })
}

/// The checks across wheels: something drives the robot on each side (skid) or at all
/// (Ackermann); an Ackermann robot has one steered front axle of two wheels ahead of one
/// unsteered rear axle (the seed's car), a skid-steered one no steered wheel.
fn check_layout(
    root: &TableReader<'_>,
    tables: &[TableReader<'_>],
    wheels: &[WheelSpec],
    steering: Steering,
) -> Result<(), ConfigError> {
    let at = |i: usize, key: &str, message: String| tables[i].error(key, message);
    if !wheels.iter().any(|w| w.driven) {
        return Err(at(
            0,
            "driven",
            "no wheel is driven: set `driven = true` on some".into(),
        ));
    }
    match steering {
        Steering::Skid => {
            if let Some(i) = wheels.iter().position(|w| w.steered) {
                return Err(at(
                    i,
                    "steered",
                    "a skid-steered robot has no steered wheels (kind = \"skid\")".into(),
                ));
            }
            for (side, left) in [("left (y > 0)", true), ("right (y < 0)", false)] {
                if !wheels
                    .iter()
                    .any(|w| w.driven && (w.center.y > 0.0) == left)
                {
                    return Err(root.error(
                        "wheel",
                        format!("a skid-steered robot needs a driven wheel on the {side} side"),
                    ));
                }
            }
        }
        Steering::Ackermann { .. } => {
            let steered: Vec<usize> = (0..wheels.len()).filter(|&i| wheels[i].steered).collect();
            let [a, b] = steered[..] else {
                return Err(root.error(
                    "wheel",
                    format!(
                        "an Ackermann robot has exactly two steered wheels (one axle); this \
                         one has {}",
                        steered.len()
                    ),
                ));
            };
            let (wa, wb) = (&wheels[a], &wheels[b]);
            if (wa.center.x - wb.center.x).abs() > AXLE_TOLERANCE
                || wa.center.y * wb.center.y >= 0.0
            {
                return Err(at(
                    b,
                    "x",
                    "the two steered wheels must share one axle (same x), one on each side".into(),
                ));
            }
            let rear: Vec<usize> = (0..wheels.len()).filter(|&i| !wheels[i].steered).collect();
            let Some(&first) = rear.first() else {
                return Err(root.error("wheel", "an Ackermann robot needs a rear axle"));
            };
            for &i in &rear {
                if (wheels[i].center.x - wheels[first].center.x).abs() > AXLE_TOLERANCE {
                    return Err(at(
                        i,
                        "x",
                        "the unsteered wheels of an Ackermann robot must share one rear axle \
                         (same x)"
                            .into(),
                    ));
                }
                if wheels[i].center.x >= wa.center.x {
                    return Err(at(
                        i,
                        "x",
                        "the rear axle must be behind the steered front axle".into(),
                    ));
                }
            }
        }
    }
    Ok(())
}
