//! The calibrated robot file: the original text with the fitted values put where the file
//! sets them, comments and layout kept (`toml_edit`), and a header naming the log and the fit.
//!
//! Belt parameters go into `[belt_defaults]` (added if the file has none) and into every
//! track's or flipper's own `belt` table that overrides them; motor parameters into every
//! main track's `motor` table.

use std::path::Path;

use toml_edit::{DocumentMut, Item, Table, TableLike, Value};

use super::{CalibrateError, Calibration, Fitted};

/// `value` rounded to four significant digits (what a fit to a real log supports).
fn rounded(value: f64) -> f64 {
    if value == 0.0 || !value.is_finite() {
        return value;
    }
    let digits = 3 - value.abs().log10().floor() as i32;
    let scale = 10f64.powi(digits);
    (value * scale).round() / scale
}

/// The text of `source` (the robot file at `path`) with `calibration`'s determined values,
/// headed by a comment naming `log`.
pub fn calibrated_text(
    source: &str,
    path: &Path,
    calibration: &Calibration,
    log: &Path,
) -> Result<String, CalibrateError> {
    let mut doc: DocumentMut =
        source
            .parse()
            .map_err(|e: toml_edit::TomlError| CalibrateError::Write {
                path: path.to_path_buf(),
                message: format!("cannot edit: {}", e.message()),
            })?;
    for fitted in calibration.fitted.iter().filter(|f| f.determined) {
        set(&mut doc, fitted);
    }
    let mut header = format!(
        "# Calibrated by `treadsim calibrate` from {} ({} rows, {:.1} s):\n",
        log.display(),
        calibration.rows,
        calibration.duration
    );
    for f in &calibration.fitted {
        let what = if f.determined {
            format!(
                "{} -> {} (std error {:.1} %)",
                f.before,
                rounded(f.after),
                100.0 * f.relative_error
            )
        } else {
            format!("{} kept (not determined by the log)", f.before)
        };
        header.push_str(&format!("#   {}: {what}\n", f.parameter.key()));
    }
    header.push_str(&format!(
        "#   residual RMS: yaw rate {:.4} -> {:.4} rad/s, speed {:.4} -> {:.4} m/s\n",
        calibration.before.0, calibration.after.0, calibration.before.1, calibration.after.1
    ));
    Ok(header + &doc.to_string())
}

/// Sets `key` of `table` to `value`, keeping the key's comments and the value's trailing
/// comment where the file already sets it (an insert would drop them), adding it otherwise.
fn put(table: &mut dyn TableLike, key: &str, value: f64) {
    match table.get_mut(key).and_then(Item::as_value_mut) {
        Some(existing) => {
            let decor = existing.decor().clone();
            *existing = Value::from(value);
            *existing.decor_mut() = decor;
        }
        None => {
            table.insert(key, toml_edit::value(value));
        }
    }
}

/// Puts one fitted value everywhere the file sets its key.
fn set(doc: &mut DocumentMut, fitted: &Fitted) {
    let key = fitted.parameter.key();
    let value = rounded(fitted.after);
    if fitted.parameter.is_motor() {
        for_each_owned(doc, &["track"], "motor", |table| {
            put(table, key, value);
        });
        return;
    }
    if !doc.contains_key("belt_defaults") {
        doc.insert("belt_defaults", Item::Table(Table::new()));
    }
    if let Some(defaults) = doc
        .get_mut("belt_defaults")
        .and_then(Item::as_table_like_mut)
    {
        put(defaults, key, value);
    }
    for_each_owned(doc, &["track", "flipper"], "belt", |table| {
        if table.contains_key(key) {
            put(table, key, value);
        }
    });
}

/// Calls `edit` on the `child` table (inline or not) of every table of the arrays `arrays`.
fn for_each_owned(
    doc: &mut DocumentMut,
    arrays: &[&str],
    child: &str,
    mut edit: impl FnMut(&mut dyn TableLike),
) {
    for array in arrays {
        let Some(tables) = doc.get_mut(array).and_then(Item::as_array_of_tables_mut) else {
            continue;
        };
        for table in tables.iter_mut() {
            if let Some(owned) = table.get_mut(child).and_then(Item::as_table_like_mut) {
                edit(owned);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Parameter;
    use super::*;

    #[test]
    fn rounds_to_four_significant_digits() {
        assert_eq!(rounded(1.234_567), 1.235);
        assert_eq!(rounded(0.030_612_9), 0.03061);
        assert_eq!(rounded(812.44), 812.4);
    }

    fn fitted(parameter: Parameter, after: f64, determined: bool) -> Fitted {
        Fitted {
            parameter,
            before: 1.0,
            after,
            relative_error: 0.01,
            determined,
        }
    }

    #[test]
    fn values_go_where_the_file_sets_them_and_comments_stay() {
        let source = "# a robot\n[robot]\nname = \"r\"\n\n[belt_defaults]\n# tread\nlateral_friction_scale = 1.0 # sideways\n\n\
                      [[track]]\nname = \"left\"\nmotor = { max_speed = 1.0, max_acceleration = 2.0 }\n\
                      belt = { width = 0.1, rolling_resistance = 0.03 }\n\n\
                      [[flipper]]\nname = \"f\"\nbelt = { width = 0.04 }\n";
        let mut doc: DocumentMut = source.parse().unwrap();
        set(&mut doc, &fitted(Parameter::LateralFriction, 1.4, true));
        set(&mut doc, &fitted(Parameter::RollingResistance, 0.05, true));
        set(&mut doc, &fitted(Parameter::MaxAcceleration, 1.5, true));
        let text = doc.to_string();
        assert!(
            text.contains("# tread\nlateral_friction_scale = 1.4 # sideways"),
            "{text}"
        );
        assert!(text.contains("rolling_resistance = 0.05 }"), "{text}");
        assert!(text.contains("max_acceleration = 1.5 }"), "{text}");
        assert!(text.contains("belt_defaults]\n# tread"), "{text}");
        // The flipper's belt sets neither key: it inherits the defaults, untouched.
        assert!(text.contains("belt = { width = 0.04 }"), "{text}");
        let parsed: toml::Table = toml::from_str(&text).unwrap();
        assert_eq!(
            parsed["belt_defaults"]["rolling_resistance"].as_float(),
            Some(0.05)
        );
    }
}
