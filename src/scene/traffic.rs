//! `[[traffic]]` tables: groups of agents that roam part of a scene (seed 002, driven by the
//! traffic controller in `control::traffic`), declared by a scene or an exercise file.
//!
//! ```toml
//! [[traffic]]
//! name = "carts"              # optional, default traffic#<index>
//! count = 40                  # agents, 1 … 10 000
//! area_min = [-5.0, -4.0]     # the rectangle they roam, world x, y, m
//! area_max = [5.0, 4.0]
//! speed = [0.3, 0.8]          # cruise speeds drawn from this range, m/s (default 0.3–1.0)
//! seed = 7                    # random numbers of the group (default 1)
//! size = [0.6, 0.5, 1.0]      # length, width, height of each agent's box, m
//! ```

use nalgebra::{Point2, Vector2};

use crate::config::{ConfigError, TableReader};

/// Clearance between two agents' circles at their start places, m.
pub const START_GAP: f64 = 0.3;
/// Most agents in one group.
pub const MAX_AGENTS: i64 = 10_000;

/// A `[[traffic]]` table: a group of agents roaming one area.
#[derive(Debug, Clone, PartialEq)]
pub struct TrafficSpec {
    /// Name of the group (shown by `check`).
    pub name: String,
    /// Number of agents.
    pub count: usize,
    /// Lower corner of the area they roam, world x and y, m.
    pub area_min: Point2<f64>,
    /// Upper corner of the area, world x and y, m.
    pub area_max: Point2<f64>,
    /// Cruise speeds are drawn uniformly from this range, m/s.
    pub speed: (f64, f64),
    /// Seed of the group's random numbers (placement, speeds, wandering).
    pub seed: u64,
    /// Length, width and height of each agent's box, m (length along its heading).
    pub size: [f64; 3],
}

/// The lattice of start places of a group: `columns × rows` places `step` apart from
/// `first` (world x, y, m), each a circle's radius inside the area.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StartLattice {
    /// The first place (lowest x and y), m.
    pub first: Vector2<f64>,
    /// Distance between neighbouring places along x and y, m.
    pub step: Vector2<f64>,
    /// Places along x.
    pub columns: usize,
    /// Places along y.
    pub rows: usize,
    /// Spacing the places need, m (two radii and [`START_GAP`]).
    pub spacing: f64,
}

impl StartLattice {
    /// Number of places.
    pub fn room(&self) -> usize {
        self.columns * self.rows
    }
}

impl TrafficSpec {
    /// Radius of the circle an agent is treated as: half its footprint's diagonal, m.
    pub fn radius(&self) -> f64 {
        0.5 * self.size[0].hypot(self.size[1])
    }

    /// Where the agents may start: a lattice over the area (less a radius at each edge) with
    /// places at least two radii and [`START_GAP`] apart, spread evenly.
    pub fn start_lattice(&self) -> StartLattice {
        let radius = self.radius();
        let spacing = 2.0 * radius + START_GAP;
        let inner = self.area_max - self.area_min - Vector2::repeat(2.0 * radius);
        let along = |extent: f64| {
            if extent < 0.0 {
                0
            } else {
                (extent / spacing).floor() as usize + 1
            }
        };
        let (columns, rows) = (along(inner.x), along(inner.y));
        let spread = |n: usize, extent: f64| if n > 1 { extent / (n - 1) as f64 } else { 0.0 };
        let centred = |n: usize, extent: f64| if n > 1 { 0.0 } else { extent.max(0.0) / 2.0 };
        StartLattice {
            first: self.area_min.coords
                + Vector2::repeat(radius)
                + Vector2::new(centred(columns, inner.x), centred(rows, inner.y)),
            step: Vector2::new(spread(columns, inner.x), spread(rows, inner.y)),
            columns,
            rows,
            spacing,
        }
    }
}

/// Reads every `[[traffic]]` table of `root` (at most 64 groups).
pub fn read_traffic(root: &TableReader<'_>) -> Result<Vec<TrafficSpec>, ConfigError> {
    let mut out: Vec<TrafficSpec> = Vec::new();
    for (i, t) in root.tables("traffic", 64)?.into_iter().enumerate() {
        let name = t.opt_str("name")?.unwrap_or_else(|| format!("traffic#{i}"));
        if out.iter().any(|g| g.name == name) {
            return Err(t.error("name", format!("traffic '{name}' is defined twice")));
        }
        let count = t.int("count", 1, MAX_AGENTS)? as usize;
        let area_min = t.array::<2>("area_min", -1e4, 1e4)?;
        let area_max = t.array::<2>("area_max", -1e4, 1e4)?;
        if area_max[0] <= area_min[0] || area_max[1] <= area_min[1] {
            return Err(t.error(
                "area_max",
                format!("must be greater than area_min {area_min:?} in x and in y"),
            ));
        }
        let speed = t.opt_array::<2>("speed", 0.0, 5.0)?.unwrap_or([0.3, 1.0]);
        if speed[1] < speed[0] {
            return Err(t.error("speed", "must be [slowest, fastest] with slowest ≤ fastest"));
        }
        let seed = t.opt_int("seed", 0, i64::MAX)?.unwrap_or(1) as u64;
        let size = match t.opt_array::<3>("size", 0.0, 10.0)? {
            Some(s) if s.iter().any(|&x| x <= 0.0) => {
                return Err(t.error("size", "each of length, width, height must be > 0"));
            }
            Some(s) => s,
            None => [0.6, 0.5, 1.0],
        };
        t.finish()?;
        let spec = TrafficSpec {
            name,
            count,
            area_min: Point2::from(area_min),
            area_max: Point2::from(area_max),
            speed: (speed[0], speed[1]),
            seed,
            size,
        };
        let lattice = spec.start_lattice();
        if spec.count > lattice.room() {
            return Err(t.error(
                "count",
                format!(
                    "{} agents of radius {:.2} m do not fit in the area: room for {} at {:.2} m spacing",
                    spec.count,
                    spec.radius(),
                    lattice.room(),
                    lattice.spacing
                ),
            ));
        }
        out.push(spec);
    }
    Ok(out)
}
