//! Goal scripts: drive scripts whose `[[goal]]` tables the [autopilot](super::autopilot)
//! drives to, in order, instead of timed belt speeds (`treadsim run --script`, exercises).
//!
//! ```toml
//! [[goal]]
//! type = "point"          # point | heading | reverse | line | around | face | stop | climb | descend
//! at = [4.0, 0.5]         # world x, y, m (point, heading, stop)
//! speed = 0.5             # m/s (default 0.5; climb, descend 0.3)
//! tolerance = 0.25        # done within this distance, m (default 0.25; stop 0.1; climb, descend 0.3)
//!
//! [[goal]]
//! type = "heading"        # arrive at `at` heading `yaw_deg` (seed 003's F2 law)
//! at = [6.0, 0.0]
//! yaw_deg = 90
//!
//! [[goal]]
//! type = "reverse"        # back to `at` in reverse, steering by the rear (speed default 0.3)
//! at = [0.0, 0.0]
//!
//! [[goal]]
//! type = "line"           # rally and follow the directed line `from` → `to`
//! from = [0.0, 0.0]
//! to = [8.0, 0.0]
//!
//! [[goal]]
//! type = "around"         # pass around `centre` at `radius`, it on the `side`
//! centre = [5.0, 2.0]
//! radius = 1.0
//! side = "left"           # left | right
//! sweep_deg = 180         # angle swept about the centre before the goal is done
//!
//! [[goal]]
//! type = "face"           # turn on the spot to a heading (a landing's U-turn)
//! yaw_deg = 180
//! tolerance_deg = 5       # done within this angle (default 5)
//!
//! [[goal]]
//! type = "climb"          # up a flight along `from` → `to` with the stair strategy
//! from = [-2.0, 0.0]
//! to = [4.4, 0.0]
//!
//! [[goal]]
//! type = "descend"        # down a flight facing down, `from` on the floor above
//! from = [4.4, 0.0]
//! to = [-2.0, 0.0]
//! ```
//! A script has `[[command]]` tables or `[[goal]]` tables, not both.

use nalgebra::Vector2;

use super::autopilot::Goal;
use crate::config::{ConfigError, SourceFile, TableReader};

/// Largest number of goals in a script.
pub const MAX_GOALS: usize = 10_000;
/// Farthest coordinate a goal may name, m.
const MAX_COORD: f64 = 1e4;

/// Whether the script file holds `[[goal]]` tables (a goal script) rather than commands.
pub fn is_goal_script(file: &SourceFile) -> bool {
    file.parse().is_ok_and(|root| root.has("goal"))
}

/// Reads the `[[goal]]` tables of a goal script; errors name the file, line and field.
pub fn read_goals(file: &SourceFile) -> Result<Vec<Goal>, ConfigError> {
    let root = file.parse()?;
    if root.has("command") {
        return Err(root.error(
            "command",
            "a script has [[command]] tables or [[goal]] tables, not both",
        ));
    }
    let mut goals = Vec::new();
    for t in root.tables("goal", MAX_GOALS)? {
        goals.push(read_goal(&t)?);
        t.finish()?;
    }
    root.finish()?;
    if goals.is_empty() {
        return Err(root.table_error("the script has no [[goal]] tables"));
    }
    Ok(goals)
}

fn point(t: &TableReader<'_>, key: &str) -> Result<Vector2<f64>, ConfigError> {
    Ok(Vector2::from(t.array::<2>(key, -MAX_COORD, MAX_COORD)?))
}

fn read_goal(t: &TableReader<'_>) -> Result<Goal, ConfigError> {
    let kind = t.str("type")?;
    let speed = |default: f64| -> Result<f64, ConfigError> {
        Ok(t.opt_positive("speed", 10.0)?.unwrap_or(default))
    };
    let tolerance = |default: f64| -> Result<f64, ConfigError> {
        Ok(t.opt_positive("tolerance", 100.0)?.unwrap_or(default))
    };
    Ok(match kind.as_str() {
        "point" => Goal::Point {
            at: point(t, "at")?,
            speed: speed(0.5)?,
            tolerance: tolerance(0.25)?,
        },
        "heading" => Goal::Heading {
            at: point(t, "at")?,
            yaw: t.f64("yaw_deg", -3600.0, 3600.0)?.to_radians(),
            speed: speed(0.5)?,
            tolerance: tolerance(0.25)?,
        },
        "reverse" => Goal::Reverse {
            at: point(t, "at")?,
            speed: speed(0.3)?,
            tolerance: tolerance(0.25)?,
        },
        "line" => Goal::Line {
            from: point(t, "from")?,
            to: point(t, "to")?,
            speed: speed(0.5)?,
            tolerance: tolerance(0.25)?,
        },
        "around" => Goal::Around {
            centre: point(t, "centre")?,
            radius: t.positive("radius", 1e3)?,
            left: match t.opt_str("side")?.as_deref() {
                None | Some("left") => true,
                Some("right") => false,
                Some(other) => {
                    return Err(t.error("side", format!("must be left or right, not '{other}'")))
                }
            },
            sweep: t
                .opt_f64("sweep_deg", 1.0, 3600.0)?
                .unwrap_or(180.0)
                .to_radians(),
            speed: speed(0.5)?,
        },
        "face" => Goal::Face {
            yaw: t.f64("yaw_deg", -3600.0, 3600.0)?.to_radians(),
            tolerance: t
                .opt_f64("tolerance_deg", 0.5, 90.0)?
                .unwrap_or(5.0)
                .to_radians(),
        },
        "stop" => Goal::StopAt {
            at: point(t, "at")?,
            speed: speed(0.5)?,
            tolerance: tolerance(0.1)?,
        },
        "climb" => Goal::Climb {
            from: point(t, "from")?,
            to: point(t, "to")?,
            speed: speed(0.3)?,
            tolerance: tolerance(0.3)?,
        },
        "descend" => Goal::Descend {
            from: point(t, "from")?,
            to: point(t, "to")?,
            speed: speed(0.3)?,
            tolerance: tolerance(0.3)?,
        },
        other => {
            return Err(t.error(
                "type",
                format!(
                "unknown goal type '{other}' (point, heading, reverse, line, around, face, stop, \
                 climb, descend)"
            ),
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn parse(text: &str) -> Result<Vec<Goal>, ConfigError> {
        read_goals(&SourceFile::from_text(Path::new("goals.toml"), text.into()))
    }

    #[test]
    fn every_goal_type_reads_with_its_defaults() {
        let goals = parse(
            "[[goal]]\ntype = \"point\"\nat = [1, 2]\n\
             [[goal]]\ntype = \"heading\"\nat = [3, 0]\nyaw_deg = 90\nspeed = 0.3\n\
             [[goal]]\ntype = \"line\"\nfrom = [0, 0]\nto = [5, 0]\n\
             [[goal]]\ntype = \"around\"\ncentre = [5, 1]\nradius = 1\nside = \"right\"\n\
             [[goal]]\ntype = \"stop\"\nat = [6, 0]\n\
             [[goal]]\ntype = \"climb\"\nfrom = [-2, 0]\nto = [4, 0]\n\
             [[goal]]\ntype = \"descend\"\nfrom = [4, 0]\nto = [-2, 0]\n\
             [[goal]]\ntype = \"face\"\nyaw_deg = 90\n\
             [[goal]]\ntype = \"reverse\"\nat = [-1, 0]\n",
        )
        .expect("goals");
        assert_eq!(goals.len(), 9);
        assert_eq!(
            goals[8],
            Goal::Reverse {
                at: Vector2::new(-1.0, 0.0),
                speed: 0.3,
                tolerance: 0.25
            }
        );
        assert!(
            matches!(goals[7], Goal::Face { yaw, tolerance } if (yaw - std::f64::consts::FRAC_PI_2).abs() < 1e-12 && (tolerance - 5f64.to_radians()).abs() < 1e-12)
        );
        assert!(matches!(goals[6], Goal::Descend { speed, .. } if speed == 0.3));
        assert_eq!(
            goals[0],
            Goal::Point {
                at: Vector2::new(1.0, 2.0),
                speed: 0.5,
                tolerance: 0.25
            }
        );
        assert!(
            matches!(goals[1], Goal::Heading { yaw, speed, .. } if (yaw - std::f64::consts::FRAC_PI_2).abs() < 1e-12 && speed == 0.3)
        );
        assert!(
            matches!(goals[3], Goal::Around { left: false, sweep, .. } if (sweep - std::f64::consts::PI).abs() < 1e-12)
        );
        assert!(matches!(goals[4], Goal::StopAt { tolerance, .. } if tolerance == 0.1));
        assert!(matches!(goals[5], Goal::Climb { speed, .. } if speed == 0.3));
    }

    #[test]
    fn bad_goals_are_located() {
        for (text, field, what) in [
            ("[[goal]]\ntype = \"fly\"\n", "goal[0].type", "unknown goal type"),
            ("[[goal]]\ntype = \"point\"\n", "goal[0].at", "missing"),
            ("[[goal]]\ntype = \"around\"\ncentre = [0, 0]\nradius = 1\nside = \"up\"\n", "goal[0].side", "left or right"),
            ("[[goal]]\ntype = \"point\"\nat = [0, 0]\nspeed = -1\n", "goal[0].speed", "greater than 0"),
            ("[[command]]\nat = 0\nleft = 0\nright = 0\n[[goal]]\ntype = \"point\"\nat = [0, 0]\n", "command", "not both"),
        ] {
            let e = parse(text).expect_err(text);
            assert_eq!(e.field, field, "{e}");
            assert!(e.message.contains(what), "{e}");
        }
    }
}
