//! Reading an input mapping file (`scenes/input/*.toml`, documented in
//! `scenes/input/README.md`) into a [`MappingConfig`]: every field optional, unknown fields,
//! bad names and broken rules located at `file:line:column: field`.

use std::path::Path;

use super::raw::{Button, Key};
use super::settings::*;
use crate::config::{ConfigError, SourceFile, TableReader};

/// Reads a mapping file. Every field is optional (absent fields keep the default of
/// [`MappingConfig::default`]); unknown fields, bad names and broken rules are errors located
/// at `file:line:column: field`.
pub fn load_mapping(path: &Path) -> Result<MappingConfig, ConfigError> {
    let file = SourceFile::read(path)?;
    mapping_from_source(&file)
}

/// [`load_mapping`] for text already in memory.
pub fn mapping_from_source(file: &SourceFile) -> Result<MappingConfig, ConfigError> {
    let root = file.parse()?;
    let mut cfg = MappingConfig::default();
    // Every table read, by dotted path, to locate the errors of `validate`.
    let mut tables: Vec<(String, TableReader<'_>)> = Vec::new();
    read_drive_table(&root, &mut cfg.drive, &mut tables)?;
    read_flipper_table(&root, &mut cfg.flipper, &mut tables)?;
    read_gamepad_table(&root, &mut cfg.gamepad, &mut tables)?;
    read_keyboard_table(&root, &mut cfg.keyboard, &mut tables)?;
    read_arm_table(&root, &mut cfg.arm, &mut tables)?;
    root.finish()?;
    cfg.validate().map_err(|e| locate(&root, &tables, e))?;
    Ok(cfg)
}

/// The `[drive]` table, if any.
fn read_drive_table<'f>(
    root: &TableReader<'f>,
    d: &mut DriveConfig,
    tables: &mut Vec<(String, TableReader<'f>)>,
) -> Result<(), ConfigError> {
    if let Some(t) = root.opt_table("drive")? {
        read_f64(&t, "max_speed", MAX_SPEED, &mut d.max_speed)?;
        read_f64(
            &t,
            "slow_speed_factor",
            SLOW_FACTOR,
            &mut d.slow_speed_factor,
        )?;
        if let Some(m) = read_choice(
            &t,
            "slow_mode",
            &[("hold", SlowMode::Hold), ("toggle", SlowMode::Toggle)],
        )? {
            d.slow_mode = m;
        }
        read_f64(&t, "start_threshold", START, &mut d.start_threshold)?;
        read_f64(&t, "stop_threshold", STOP, &mut d.stop_threshold)?;
        t.finish()?;
        tables.push(("drive".into(), t));
    }
    Ok(())
}

/// The `[flipper]` table, if any.
fn read_flipper_table<'f>(
    root: &TableReader<'f>,
    f: &mut FlipperConfig,
    tables: &mut Vec<(String, TableReader<'f>)>,
) -> Result<(), ConfigError> {
    if let Some(t) = root.opt_table("flipper")? {
        read_deg(&t, "rate_deg", RATE_DEG, &mut f.rate)?;
        read_deg(&t, "min_angle_deg", ANGLE_DEG, &mut f.min_angle)?;
        read_deg(&t, "max_angle_deg", ANGLE_DEG, &mut f.max_angle)?;
        t.finish()?;
        tables.push(("flipper".into(), t));
    }
    Ok(())
}

/// The `[arm]` table, if any.
fn read_arm_table<'f>(
    root: &TableReader<'f>,
    a: &mut ArmInputConfig,
    tables: &mut Vec<(String, TableReader<'f>)>,
) -> Result<(), ConfigError> {
    if let Some(t) = root.opt_table("arm")? {
        read_deg(&t, "joint_rate_deg", RATE_DEG, &mut a.joint_rate)?;
        read_f64(&t, "tool_speed", TOOL_SPEED, &mut a.tool_speed)?;
        read_f64(&t, "grip_force", GRIP_FORCE, &mut a.grip_force)?;
        t.finish()?;
        tables.push(("arm".into(), t));
    }
    Ok(())
}

/// The `[gamepad]` table and its `buttons`, if any.
fn read_gamepad_table<'f>(
    root: &TableReader<'f>,
    g: &mut GamepadConfig,
    tables: &mut Vec<(String, TableReader<'f>)>,
) -> Result<(), ConfigError> {
    if let Some(t) = root.opt_table("gamepad")? {
        if let Some(m) = read_choice(
            &t,
            "mode",
            &[("tank", DriveMode::Tank), ("arcade", DriveMode::Arcade)],
        )? {
            g.mode = m;
        }
        if let Some(s) = read_choice(
            &t,
            "arcade_stick",
            &[("left", Stick::Left), ("right", Stick::Right)],
        )? {
            g.arcade_stick = s;
        }
        read_f64(&t, "dead_zone", DEAD_ZONE, &mut g.dead_zone)?;
        read_f64(&t, "saturation", SATURATION, &mut g.saturation)?;
        read_f64(&t, "curve", CURVE, &mut g.curve)?;
        read_f64(&t, "turn_gain", TURN_GAIN, &mut g.turn_gain)?;
        read_f64(&t, "rearm_time", REARM_TIME, &mut g.rearm_time)?;
        if let Some(list) = read_list(&t, "deadman", Button::parse, "button", Button::valid_names)?
        {
            g.deadman = single(&t, "deadman", list)?;
        }
        if let Some(b) = t.opt_table("buttons")? {
            for a in Action::ALL {
                if let Some(list) =
                    read_list(&b, a.name(), Button::parse, "button", Button::valid_names)?
                {
                    g.buttons.set(a, list);
                }
            }
            b.finish()?;
            tables.push(("gamepad.buttons".into(), b));
        }
        t.finish()?;
        tables.push(("gamepad".into(), t));
    }
    Ok(())
}

/// The `[keyboard]` table and its `keys`, if any.
fn read_keyboard_table<'f>(
    root: &TableReader<'f>,
    k: &mut KeyboardConfig,
    tables: &mut Vec<(String, TableReader<'f>)>,
) -> Result<(), ConfigError> {
    if let Some(t) = root.opt_table("keyboard")? {
        read_f64(&t, "ramp_time", RAMP_TIME, &mut k.ramp_time)?;
        read_f64(&t, "turn_gain", TURN_GAIN, &mut k.turn_gain)?;
        if let Some(list) = read_list(&t, "deadman", Key::parse, "key", Key::valid_names)? {
            k.deadman = single(&t, "deadman", list)?;
        }
        if let Some(keys) = t.opt_table("keys")? {
            for (name, slot) in [
                ("forward", &mut k.forward),
                ("backward", &mut k.backward),
                ("left", &mut k.left),
                ("right", &mut k.right),
            ] {
                if let Some(list) = read_list(&keys, name, Key::parse, "key", Key::valid_names)? {
                    *slot = list;
                }
            }
            for a in Action::ALL {
                if let Some(list) = read_list(&keys, a.name(), Key::parse, "key", Key::valid_names)?
                {
                    k.keys.set(a, list);
                }
            }
            keys.finish()?;
            tables.push(("keyboard.keys".into(), keys));
        }
        t.finish()?;
        tables.push(("keyboard".into(), t));
    }
    Ok(())
}

/// A rule `validate` found broken, located at its field's table, or — the table absent
/// (defaulted) — at the nearest enclosing table the file has, or the file's start, naming the
/// field.
fn locate(
    root: &TableReader<'_>,
    tables: &[(String, TableReader<'_>)],
    e: MappingError,
) -> ConfigError {
    let (section, key) = e.field.rsplit_once('.').unwrap_or(("", e.field.as_str()));
    if let Some((_, t)) = tables.iter().find(|(p, _)| p == section) {
        return t.error(key, e.message);
    }
    // The field's table is absent (defaulted): point at the nearest enclosing table the
    // file has, or the file's start, and name the field.
    let mut at = section;
    let mut located = loop {
        match at.rsplit_once('.') {
            Some((parent, _)) => at = parent,
            None => break root.table_error(e.message.clone()),
        }
        if let Some((_, t)) = tables.iter().find(|(p, _)| p == at) {
            break t.table_error(e.message.clone());
        }
    };
    located.field = e.field.clone();
    located
}

fn read_f64(
    t: &TableReader<'_>,
    key: &str,
    (lo, hi, open): (f64, f64, bool),
    out: &mut f64,
) -> Result<(), ConfigError> {
    let x = if open {
        t.opt_f64(key, f64::NEG_INFINITY, hi)?
    } else {
        t.opt_f64(key, lo, hi)?
    };
    if let Some(x) = x {
        if open && x <= lo {
            return Err(t.error(
                key,
                format!("must be greater than {lo} and at most {hi}, got {x}"),
            ));
        }
        *out = x;
    }
    Ok(())
}

fn read_deg(
    t: &TableReader<'_>,
    key: &str,
    range: (f64, f64, bool),
    out_rad: &mut f64,
) -> Result<(), ConfigError> {
    let mut deg = out_rad.to_degrees();
    read_f64(t, key, range, &mut deg)?;
    if t.has(key) {
        *out_rad = deg.to_radians();
    }
    Ok(())
}

fn read_choice<T: Copy>(
    t: &TableReader<'_>,
    key: &str,
    choices: &[(&str, T)],
) -> Result<Option<T>, ConfigError> {
    let Some(s) = t.opt_str(key)? else {
        return Ok(None);
    };
    match choices
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(s.trim()))
    {
        Some((_, v)) => Ok(Some(*v)),
        None => {
            let names: Vec<String> = choices.iter().map(|(n, _)| format!("\"{n}\"")).collect();
            Err(t.error(
                key,
                format!("unknown value \"{s}\" (expected {})", names.join(" or ")),
            ))
        }
    }
}

/// A binding: one string naming inputs separated by commas (`"W, Up"`); `""` or `"none"`
/// binds nothing.
fn read_list<T>(
    t: &TableReader<'_>,
    key: &str,
    parse: fn(&str) -> Option<T>,
    what: &str,
    valid: fn() -> String,
) -> Result<Option<Vec<T>>, ConfigError> {
    if t.is_array(key) {
        return Err(t.error(
            key,
            "expected a string: write alternatives in one string separated by commas, \
             e.g. \"W, Up\"",
        ));
    }
    let Some(s) = t.opt_str(key)? else {
        return Ok(None);
    };
    if s.trim().is_empty() || s.trim().eq_ignore_ascii_case("none") {
        return Ok(Some(Vec::new()));
    }
    let mut out = Vec::new();
    for name in s.split(',') {
        let name = name.trim();
        if name.is_empty() {
            return Err(t.error(key, format!("empty {what} name in \"{s}\"")));
        }
        match parse(name) {
            Some(v) => out.push(v),
            None => {
                return Err(t.error(
                    key,
                    format!(
                        "unknown {what} \"{name}\"; valid {what}s: {}, or \"none\"",
                        valid()
                    ),
                ))
            }
        }
    }
    Ok(Some(out))
}

fn single<T>(t: &TableReader<'_>, key: &str, mut list: Vec<T>) -> Result<Option<T>, ConfigError> {
    if list.len() > 1 {
        return Err(t.error(key, "a dead-man is one input, or \"none\""));
    }
    Ok(list.pop())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<MappingConfig, ConfigError> {
        mapping_from_source(&SourceFile::from_text(
            Path::new("m.toml"),
            text.to_string(),
        ))
    }

    #[test]
    fn the_default_is_valid_and_an_empty_file_is_the_default() {
        MappingConfig::default().validate().unwrap();
        assert_eq!(parse("").unwrap(), MappingConfig::default());
    }

    #[test]
    fn lists_aliases_none_and_degrees_are_read() {
        let cfg = parse(
            "[gamepad]\nmode = \"Tank\"\ndeadman = \"LB\"\n[gamepad.buttons]\ncamera_next = \
             \"RB, DPadRight\"\nslow = \"none\"\n[flipper]\nrate_deg = 90\n",
        )
        .unwrap();
        assert_eq!(cfg.gamepad.mode, DriveMode::Tank);
        assert_eq!(cfg.gamepad.deadman, Some(Button::LeftBumper));
        assert_eq!(
            cfg.gamepad.buttons.get(Action::CameraNext),
            [Button::RightBumper, Button::DPadRight]
        );
        assert!(cfg.gamepad.buttons.get(Action::Slow).is_empty());
        assert!((cfg.flipper.rate - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
        // Untouched fields keep the default.
        assert_eq!(cfg.flipper.max_angle, FlipperConfig::default().max_angle);
    }

    #[test]
    fn rules_broken_by_a_defaulted_section_name_the_field() {
        let mut cfg = MappingConfig::default();
        cfg.drive.stop_threshold = cfg.drive.start_threshold;
        let e = cfg.validate().unwrap_err();
        assert_eq!(e.field, "drive.stop_threshold");
        // Binding the dead-man to the slow button is refused.
        let e = parse("[gamepad]\ndeadman = \"RightBumper\"\n").unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (1, "gamepad.buttons.slow"));
        assert!(
            e.message.contains("already bound to gamepad.deadman"),
            "{e}"
        );
    }
}
