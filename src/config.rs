//! Reading the TOML input files (scenes, robots, scripts, mappings) with exact error locations.
//!
//! Every value is read through a [`TableReader`] that knows where each key and value sits in
//! the file, so any error — syntax, wrong type, out of range, NaN, unknown field, missing
//! field — is reported as `file:line:column: field.path: message`. Keys a reader never asked
//! for are unknown fields and are errors too, so a misspelt option is never silently ignored.

use std::cell::RefCell;
use std::ops::Range;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// Largest input file we read, bytes. Scene and robot files are hand-written and small.
pub const MAX_CONFIG_BYTES: u64 = 16 * 1024 * 1024;

/// An input-file error with its location.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}{}: {}{message}", path.display(), position(*line, *column), field_prefix(field))]
pub struct ConfigError {
    /// The file.
    pub path: PathBuf,
    /// 1-based line of the offending text; 0 when the file as a whole is at fault (it cannot
    /// be read), and then no position is shown.
    pub line: usize,
    /// 1-based column, in characters (0 with line 0).
    pub column: usize,
    /// Dotted path of the field, e.g. `element[3].rise`; empty for file-level errors.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl ConfigError {
    /// An error about the file at `path` as a whole (it cannot be read, it is too large): no
    /// line, column or field.
    pub fn whole_file(path: &Path, message: impl Into<String>) -> Self {
        Self {
            path: path.to_path_buf(),
            line: 0,
            column: 0,
            field: String::new(),
            message: message.into(),
        }
    }
}

/// `:line:column`, or nothing for an error about the whole file (line 0).
fn position(line: usize, column: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(":{line}:{column}")
    }
}

fn field_prefix(field: &str) -> String {
    if field.is_empty() {
        String::new()
    } else {
        format!("{field}: ")
    }
}

/// The text of an input file and its line index.
#[derive(Debug, Clone)]
pub struct SourceFile {
    path: PathBuf,
    text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// Reads a file, refusing anything larger than [`MAX_CONFIG_BYTES`] or not UTF-8.
    pub fn read(path: &Path) -> Result<Self, ConfigError> {
        let whole = |message: String| ConfigError::whole_file(path, message);
        let meta = std::fs::metadata(path).map_err(|e| {
            whole(if e.kind() == std::io::ErrorKind::NotFound {
                format!("cannot read: no such file{}", nearby_files(path))
            } else {
                format!("cannot read: {e}")
            })
        })?;
        if !meta.is_file() {
            return Err(whole("not a regular file".into()));
        }
        if meta.len() > MAX_CONFIG_BYTES {
            return Err(whole(format!(
                "file is {} bytes, more than the {} bytes an input file may have",
                meta.len(),
                MAX_CONFIG_BYTES
            )));
        }
        let bytes = std::fs::read(path).map_err(|e| whole(format!("cannot read: {e}")))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            whole(format!(
                "not valid UTF-8 (byte {})",
                e.utf8_error().valid_up_to()
            ))
        })?;
        Ok(Self::from_text(path, text))
    }

    /// Wraps text that did not come from disk (tests, embedded defaults); `path` names it.
    pub fn from_text(path: &Path, text: String) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Self {
            path: path.to_path_buf(),
            text,
            line_starts,
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's folder (relative paths inside the file are resolved against it).
    pub fn dir(&self) -> &Path {
        // A bare file name has the empty path as parent: that is the working folder.
        match self.path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        }
    }

    /// The file's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// 1-based `(line, column)` of a byte offset; the column counts characters.
    pub fn location(&self, byte: usize) -> (usize, usize) {
        let byte = byte.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= byte).max(1);
        let start = self.line_starts[line - 1];
        let column = self
            .text
            .get(start..byte)
            .map_or(byte - start, |s| s.chars().count())
            + 1;
        (line, column)
    }

    /// An error at a byte span of this file.
    pub fn error(
        &self,
        span: &Range<usize>,
        field: &str,
        message: impl Into<String>,
    ) -> ConfigError {
        let (line, column) = self.location(span.start);
        ConfigError {
            path: self.path.clone(),
            line,
            column,
            field: field.to_string(),
            message: message.into(),
        }
    }

    /// Parses the file as TOML and returns a reader over its root table.
    pub fn parse(&self) -> Result<TableReader<'_>, ConfigError> {
        let root = DeTable::parse(&self.text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            self.error(&span, "", format!("TOML syntax: {}", e.message().trim()))
        })?;
        Ok(TableReader::new(self, root, String::new()))
    }
}

/// A TOML table being read: typed getters with range checks, and a record of which keys were
/// asked for so that [`TableReader::finish`] can reject the others.
#[derive(Debug)]
pub struct TableReader<'f> {
    file: &'f SourceFile,
    table: Spanned<DeTable<'f>>,
    path: String,
    used: RefCell<Vec<String>>,
}

/// Largest integer count any input field may hold; real limits are tighter and per field.
const MAX_INT: i64 = 1 << 40;

impl<'f> TableReader<'f> {
    fn new(file: &'f SourceFile, table: Spanned<DeTable<'f>>, path: String) -> Self {
        Self {
            file,
            table,
            path,
            used: RefCell::new(Vec::new()),
        }
    }

    /// The file this table is in.
    pub fn file(&self) -> &'f SourceFile {
        self.file
    }

    /// Dotted path of this table (`element[2]`), empty for the root.
    pub fn path(&self) -> &str {
        &self.path
    }

    fn field_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn lookup(&self, key: &str) -> Option<&Spanned<DeValue<'f>>> {
        self.used.borrow_mut().push(key.to_string());
        self.table.get_ref().get(key)
    }

    /// Whether the table has this key (marks it as known).
    pub fn has(&self, key: &str) -> bool {
        self.lookup(key).is_some()
    }

    /// Whether the key holds an array (marks it as known).
    pub fn is_array(&self, key: &str) -> bool {
        matches!(
            self.lookup(key).map(|v| v.get_ref()),
            Some(DeValue::Array(_))
        )
    }

    /// An error located at `key`'s value, or at the table itself if the key is absent.
    pub fn error(&self, key: &str, message: impl Into<String>) -> ConfigError {
        let span = self
            .table
            .get_ref()
            .get(key)
            .map_or_else(|| self.table.span(), |v| v.span());
        self.file.error(&span, &self.field_path(key), message)
    }

    /// An error about the table as a whole.
    pub fn table_error(&self, message: impl Into<String>) -> ConfigError {
        self.file.error(&self.table.span(), &self.path, message)
    }

    /// A required field is absent: when the table holds a key no getter has asked for that is
    /// a likely misspelling of it, the misspelling is the error (`unknown field `lft` (did you
    /// mean `left`?)`), at its position; otherwise the field is missing.
    fn missing(&self, key: &str) -> ConfigError {
        let used = self.used.borrow();
        let typo = self
            .table
            .get_ref()
            .iter()
            .filter(|(k, _)| {
                let k = k.get_ref().as_ref();
                k != key && !used.iter().any(|u| u == k)
            })
            .filter_map(|(k, _)| {
                let distance = misspelling_distance(k.get_ref(), key)?;
                Some((distance, k))
            })
            .min_by_key(|(distance, _)| *distance);
        if let Some((_, typo)) = typo {
            return self.file.error(
                &typo.span(),
                &self.field_path(typo.get_ref()),
                format!("unknown field `{}` (did you mean `{key}`?)", typo.get_ref()),
            );
        }
        self.file.error(
            &self.table.span(),
            &self.field_path(key),
            "missing required field",
        )
    }

    /// An optional string.
    pub fn opt_str(&self, key: &str) -> Result<Option<String>, ConfigError> {
        match self.lookup(key) {
            None => Ok(None),
            Some(v) => match v.get_ref() {
                DeValue::String(s) => Ok(Some(s.to_string())),
                other => Err(self.error(key, expected("a string", other))),
            },
        }
    }

    /// A required string.
    pub fn str(&self, key: &str) -> Result<String, ConfigError> {
        self.opt_str(key)?.ok_or_else(|| self.missing(key))
    }

    /// An optional boolean.
    pub fn opt_bool(&self, key: &str) -> Result<Option<bool>, ConfigError> {
        match self.lookup(key) {
            None => Ok(None),
            Some(v) => match v.get_ref() {
                DeValue::Boolean(b) => Ok(Some(*b)),
                other => Err(self.error(key, expected("true or false", other))),
            },
        }
    }

    fn number(&self, key: &str, v: &Spanned<DeValue<'f>>) -> Result<f64, ConfigError> {
        let err = |m: String| self.file.error(&v.span(), &self.field_path(key), m);
        number_of(v.get_ref()).map_err(err)
    }

    /// An optional finite number (integers are accepted), checked against `[min, max]`.
    pub fn opt_f64(&self, key: &str, min: f64, max: f64) -> Result<Option<f64>, ConfigError> {
        let Some(v) = self.lookup(key) else {
            return Ok(None);
        };
        let x = self.number(key, v)?;
        check_range(x, min, max).map_err(|m| self.error(key, m))?;
        Ok(Some(x))
    }

    /// A required finite number in `[min, max]`.
    pub fn f64(&self, key: &str, min: f64, max: f64) -> Result<f64, ConfigError> {
        self.opt_f64(key, min, max)?
            .ok_or_else(|| self.missing(key))
    }

    /// A required number that must be > 0 and ≤ `max`.
    pub fn positive(&self, key: &str, max: f64) -> Result<f64, ConfigError> {
        self.opt_positive(key, max)?
            .ok_or_else(|| self.missing(key))
    }

    /// An optional number that must be > 0 and ≤ `max`.
    pub fn opt_positive(&self, key: &str, max: f64) -> Result<Option<f64>, ConfigError> {
        let x = self.opt_f64(key, f64::NEG_INFINITY, max)?;
        match x {
            Some(x) if x <= 0.0 => Err(self.error(key, format!("must be greater than 0, got {x}"))),
            _ => Ok(x),
        }
    }

    /// An optional integer in `[min, max]`.
    pub fn opt_int(&self, key: &str, min: i64, max: i64) -> Result<Option<i64>, ConfigError> {
        let Some(v) = self.lookup(key) else {
            return Ok(None);
        };
        let n = match v.get_ref() {
            DeValue::Integer(i) => {
                let digits = i.as_str().replace('_', "");
                i64::from_str_radix(&digits, i.radix())
                    .ok()
                    .filter(|n| n.abs() <= MAX_INT)
                    .ok_or_else(|| self.error(key, format!("integer {i} is out of range")))?
            }
            other => return Err(self.error(key, expected("an integer", other))),
        };
        if n < min || n > max {
            return Err(self.error(key, format!("must be between {min} and {max}, got {n}")));
        }
        Ok(Some(n))
    }

    /// A required integer in `[min, max]`.
    pub fn int(&self, key: &str, min: i64, max: i64) -> Result<i64, ConfigError> {
        self.opt_int(key, min, max)?
            .ok_or_else(|| self.missing(key))
    }

    /// An optional array of exactly `N` finite numbers, each in `[min, max]`.
    pub fn opt_array<const N: usize>(
        &self,
        key: &str,
        min: f64,
        max: f64,
    ) -> Result<Option<[f64; N]>, ConfigError> {
        let Some(v) = self.lookup(key) else {
            return Ok(None);
        };
        let DeValue::Array(items) = v.get_ref() else {
            return Err(self.error(
                key,
                expected(&format!("an array of {N} numbers"), v.get_ref()),
            ));
        };
        if items.len() != N {
            return Err(self.error(
                key,
                format!(
                    "expected an array of {N} numbers, found {} items",
                    items.len()
                ),
            ));
        }
        let mut out = [0.0; N];
        for (i, item) in items.iter().enumerate() {
            let at = format!("{}[{i}]", self.field_path(key));
            let x = number_of(item.get_ref()).map_err(|m| self.file.error(&item.span(), &at, m))?;
            check_range(x, min, max).map_err(|m| self.file.error(&item.span(), &at, m))?;
            out[i] = x;
        }
        Ok(Some(out))
    }

    /// A required array of 1 to `max_len` finite numbers, each in `[min, max]`.
    pub fn numbers(
        &self,
        key: &str,
        max_len: usize,
        min: f64,
        max: f64,
    ) -> Result<Vec<f64>, ConfigError> {
        let Some(v) = self.lookup(key) else {
            return Err(self.missing(key));
        };
        let what = format!("an array of 1 to {max_len} numbers");
        let DeValue::Array(items) = v.get_ref() else {
            return Err(self.error(key, expected(&what, v.get_ref())));
        };
        if items.is_empty() || items.len() > max_len {
            return Err(self.error(key, format!("expected {what}, found {} items", items.len())));
        }
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let at = format!("{}[{i}]", self.field_path(key));
            let x = number_of(item.get_ref()).map_err(|m| self.file.error(&item.span(), &at, m))?;
            check_range(x, min, max).map_err(|m| self.file.error(&item.span(), &at, m))?;
            out.push(x);
        }
        Ok(out)
    }

    /// A required array of exactly `N` numbers, each > 0 and ≤ `max`.
    pub fn positive_array<const N: usize>(
        &self,
        key: &str,
        max: f64,
    ) -> Result<[f64; N], ConfigError> {
        let a = self.array::<N>(key, f64::NEG_INFINITY, max)?;
        if let Some(i) = a.iter().position(|&x| x <= 0.0) {
            let at = format!("{}[{i}]", self.field_path(key));
            let span = match self.table.get_ref().get(key).map(|v| v.get_ref()) {
                Some(DeValue::Array(items)) => items[i].span(),
                _ => self.table.span(),
            };
            return Err(self.file.error(
                &span,
                &at,
                format!("must be greater than 0, got {}", a[i]),
            ));
        }
        Ok(a)
    }

    /// A required array of exactly `N` finite numbers in `[min, max]`.
    pub fn array<const N: usize>(
        &self,
        key: &str,
        min: f64,
        max: f64,
    ) -> Result<[f64; N], ConfigError> {
        self.opt_array(key, min, max)?
            .ok_or_else(|| self.missing(key))
    }

    /// An optional sub-table.
    pub fn opt_table(&self, key: &str) -> Result<Option<TableReader<'f>>, ConfigError> {
        let Some(v) = self.lookup(key) else {
            return Ok(None);
        };
        match v.get_ref() {
            DeValue::Table(t) => Ok(Some(TableReader::new(
                self.file,
                Spanned::new(v.span(), t.clone()),
                self.field_path(key),
            ))),
            other => Err(self.error(key, expected("a table", other))),
        }
    }

    /// An array of tables (`[[key]]`); absent means empty. At most `max` entries.
    pub fn tables(&self, key: &str, max: usize) -> Result<Vec<TableReader<'f>>, ConfigError> {
        let Some(v) = self.lookup(key) else {
            return Ok(Vec::new());
        };
        let DeValue::Array(items) = v.get_ref() else {
            return Err(self.error(key, expected("an array of tables", v.get_ref())));
        };
        if items.len() > max {
            return Err(self.error(
                key,
                format!("{} entries, more than the limit of {max}", items.len()),
            ));
        }
        items
            .iter()
            .enumerate()
            .map(|(i, item)| match item.get_ref() {
                DeValue::Table(t) => Ok(TableReader::new(
                    self.file,
                    Spanned::new(item.span(), t.clone()),
                    format!("{}[{i}]", self.field_path(key)),
                )),
                other => Err(self.file.error(
                    &item.span(),
                    &format!("{}[{i}]", self.field_path(key)),
                    expected("a table", other),
                )),
            })
            .collect()
    }

    /// The `[[key]]` tables (at most `max`), each read by `read`, whose `name`s must differ: a
    /// second table of a name is refused at its `name` field as `"<what> '<name>' is defined
    /// twice"`.
    pub fn named_tables<T>(
        &self,
        key: &str,
        max: usize,
        what: &str,
        mut read: impl FnMut(&TableReader<'f>) -> Result<T, ConfigError>,
        name: impl Fn(&T) -> &str,
    ) -> Result<Vec<T>, ConfigError> {
        let mut out: Vec<T> = Vec::new();
        for t in self.tables(key, max)? {
            let item = read(&t)?;
            if out.iter().any(|o| name(o) == name(&item)) {
                let message = format!("{what} '{}' is defined twice", name(&item));
                return Err(t.error("name", message));
            }
            out.push(item);
        }
        Ok(out)
    }

    /// Rejects every key that no getter asked for: with the known field it most likely
    /// misspells (`unknown field `sise` (did you mean `size`?)`), else naming the known ones.
    pub fn finish(&self) -> Result<(), ConfigError> {
        let used = self.used.borrow();
        for (key, _) in self.table.get_ref().iter() {
            let name = key.get_ref().as_ref();
            if !used.iter().any(|u| u == name) {
                let mut known: Vec<&str> = used.iter().map(String::as_str).collect();
                known.sort_unstable();
                known.dedup();
                let closest = known
                    .iter()
                    .filter_map(|k| Some((misspelling_distance(name, k)?, *k)))
                    .min_by_key(|(distance, _)| *distance);
                let message = match closest {
                    Some((_, k)) => format!("unknown field `{name}` (did you mean `{k}`?)"),
                    None => format!("unknown field (expected one of: {})", known.join(", ")),
                };
                return Err(self
                    .file
                    .error(&key.span(), &self.field_path(name), message));
            }
        }
        Ok(())
    }
}

/// What a missing file's folder holds of its kind, nearest names first: ` (scenes/robots has:
/// scout.toml, selfright20.toml, …)`; empty when the folder does not exist or holds none.
fn nearby_files(path: &Path) -> String {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let extension = path.extension();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return String::new();
    };
    let wanted = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension() == extension)
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    if names.is_empty() {
        return String::new();
    }
    names.sort_by_key(|n| (edit_distance(n, &wanted), n.clone()));
    const SHOWN: usize = 8;
    let more = names.len().saturating_sub(SHOWN);
    names.truncate(SHOWN);
    let tail = if more > 0 {
        format!(", and {more} more")
    } else {
        String::new()
    };
    format!(" ({} has: {}{tail})", dir.display(), names.join(", "))
}

/// How far `typed` is from `field` when it looks like a misspelling of it: the edit distance
/// (insertions, deletions, substitutions, and swaps of two neighbours), if it is at most 2 and
/// under half the longer name (so `x` is no misspelling of `y`).
fn misspelling_distance(typed: &str, field: &str) -> Option<usize> {
    let distance = edit_distance(typed, field);
    let longer = typed.chars().count().max(field.chars().count());
    (distance <= 2 && 2 * distance < longer).then_some(distance)
}

/// The edit distance between two names: insertions, deletions, substitutions and swaps of two
/// neighbours (optimal string alignment).
fn edit_distance(typed: &str, field: &str) -> usize {
    let a: Vec<char> = typed.chars().collect();
    let b: Vec<char> = field.chars().collect();
    // Optimal string alignment distance, row by row.
    let mut before: Vec<usize> = (0..=b.len()).collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (previous[j] + 1)
                .min(row[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut previous, row);
    }
    previous[b.len()]
}

fn number_of(v: &DeValue<'_>) -> Result<f64, String> {
    let x = match v {
        DeValue::Float(f) => f
            .as_str()
            .replace('_', "")
            .parse::<f64>()
            .map_err(|_| format!("'{f}' is not a number"))?,
        DeValue::Integer(i) => {
            let digits = i.as_str().replace('_', "");
            i64::from_str_radix(&digits, i.radix())
                .map_err(|_| format!("integer {i} is out of range"))? as f64
        }
        other => return Err(expected("a number", other)),
    };
    if x.is_finite() {
        Ok(x)
    } else {
        Err(format!("must be a finite number, got {x}"))
    }
}

fn check_range(x: f64, min: f64, max: f64) -> Result<(), String> {
    if x < min || x > max {
        Err(format!("must be between {min} and {max}, got {x}"))
    } else {
        Ok(())
    }
}

fn expected(what: &str, found: &DeValue<'_>) -> String {
    format!("expected {what}, found {}", found.type_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(text: &str) -> SourceFile {
        SourceFile::from_text(Path::new("t.toml"), text.to_string())
    }

    #[test]
    fn locations_are_one_based_lines_and_character_columns() {
        let f = src("a = 1\nbé = 2\n");
        assert_eq!(f.location(0), (1, 1));
        assert_eq!(f.location(6), (2, 1));
        // 'é' is two bytes but one column.
        assert_eq!(f.location(6 + "bé ".len()), (2, 4));
    }

    #[test]
    fn a_bare_file_name_lives_in_the_working_folder() {
        // Regression: `treadsim check m.toml` from the scene's folder resolved meshes against "".
        assert_eq!(src("").dir(), Path::new("."));
        assert_eq!(
            SourceFile::from_text(Path::new("m.toml"), String::new()).dir(),
            Path::new(".")
        );
        assert_eq!(
            SourceFile::from_text(Path::new("a/m.toml"), String::new()).dir(),
            Path::new("a")
        );
    }

    #[test]
    fn syntax_error_names_file_line_and_column() {
        let f = src("a = 1\nb = [1, 2\n");
        let e = f.parse().unwrap_err();
        assert_eq!(e.path, Path::new("t.toml"));
        assert!(e.line >= 2, "{e}");
        assert!(e.to_string().starts_with("t.toml:"), "{e}");
        assert!(e.message.contains("TOML syntax"), "{e}");
    }

    #[test]
    fn typed_getters_report_the_value_position_and_field_path() {
        let f = src("[[element]]\nrise = -0.2\nrun = nan\ncount = 5.5\nsize = [1, 2]\n");
        let root = f.parse().unwrap();
        let el = root.tables("element", 10).unwrap().remove(0);
        let e = el.positive("rise", 10.0).unwrap_err();
        assert_eq!((e.line, e.column), (2, 8));
        assert_eq!(e.field, "element[0].rise");
        assert!(e.message.contains("greater than 0"));
        let e = el.positive("run", 10.0).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("finite"), "{e}");
        let e = el.int("count", 1, 100).unwrap_err();
        assert!(e.message.contains("integer"), "{e}");
        let e = el.array::<3>("size", 0.0, 10.0).unwrap_err();
        assert!(e.message.contains("3 numbers"), "{e}");
        let e = el.positive("width", 10.0).unwrap_err();
        assert_eq!(e.field, "element[0].width");
        assert!(e.message.contains("missing"));
    }

    #[test]
    fn unknown_fields_are_rejected_with_their_position() {
        let f = src("rise = 0.2\nrize = 0.3\n");
        let root = f.parse().unwrap();
        root.positive("rise", 1.0).unwrap();
        let e = root.finish().unwrap_err();
        assert_eq!((e.line, e.column, e.field.as_str()), (2, 1, "rize"));
        assert!(
            e.message
                .contains("unknown field `rize` (did you mean `rise`?)"),
            "{e}"
        );
        // Nothing like a known field: the known ones are listed.
        let f = src("rise = 0.2\nwhatever = 0.3\n");
        let root = f.parse().unwrap();
        root.positive("rise", 1.0).unwrap();
        let e = root.finish().unwrap_err();
        assert!(e.message.contains("expected one of: rise"), "{e}");
    }

    /// Regression: a misspelt required key (`lft` for `left`) was reported as `left` missing,
    /// at the table, instead of as the typo it is.
    #[test]
    fn a_misspelt_required_field_is_named_as_the_typo() {
        let f = src("[[command]]\nat = 0.0\nlft = 0.5\nright = 0.5\n");
        let root = f.parse().unwrap();
        let command = root.tables("command", 10).unwrap().remove(0);
        command.positive("at", 10.0).ok();
        let e = command.f64("left", -10.0, 10.0).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "command[0].lft"));
        assert_eq!(e.message, "unknown field `lft` (did you mean `left`?)");
        // Truly missing: no key looks like it.
        let e = command.f64("flipper", -10.0, 10.0).unwrap_err();
        assert_eq!(e.message, "missing required field");
        assert_eq!(e.field, "command[0].flipper");
    }

    #[test]
    fn misspellings_are_near_and_not_too_short() {
        assert_eq!(misspelling_distance("lft", "left"), Some(1));
        assert_eq!(misspelling_distance("sise", "size"), Some(1));
        assert_eq!(misspelling_distance("deadzone", "dead_zone"), Some(1));
        assert_eq!(misspelling_distance("rgiht", "right"), Some(1));
        assert_eq!(misspelling_distance("x", "y"), None);
        assert_eq!(misspelling_distance("speed", "drive"), None);
        assert_eq!(misspelling_distance("size", "size"), Some(0));
    }

    #[test]
    fn inf_and_huge_integers_are_errors() {
        let f = src("a = inf\nb = -inf\nc = 1099511627777\n");
        let root = f.parse().unwrap();
        assert!(root
            .f64("a", -1e9, 1e9)
            .unwrap_err()
            .message
            .contains("finite"));
        assert!(root
            .f64("b", -1e9, 1e9)
            .unwrap_err()
            .message
            .contains("finite"));
        assert!(root
            .int("c", 0, 100)
            .unwrap_err()
            .message
            .contains("out of range"));
        // An integer too large for i64 is refused somewhere, never accepted.
        let f = src("c = 99999999999999999999\n");
        assert!(f.parse().and_then(|r| r.int("c", 0, 100)).is_err());
    }
}
