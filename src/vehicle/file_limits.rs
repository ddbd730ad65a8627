//! The limits a robot file must keep: counts of tables, the largest sizes, masses and
//! stiffnesses accepted, and the tolerances of the origin and axle conventions. Beyond them a
//! file is refused as clearly impossible (`robot_file`, `wheel_file`).

/// Largest number of `[[track]]` tables.
pub const MAX_TRACKS: usize = 16;
/// Largest number of `[[flipper]]` tables.
pub const MAX_FLIPPERS: usize = 16;
/// Largest number of circles of one track (sprocket, idler, road wheels and rollers) or of
/// one flipper.
pub const MAX_CIRCLES: usize = 32;
/// Largest number of `[[camera]]` tables.
pub const MAX_CAMERAS: usize = 16;
/// Largest number of track planes per belt.
pub const MAX_PLANES: i64 = 8;
/// Largest coordinate or size accepted anywhere in a robot file, m.
pub const MAX_ROBOT_EXTENT: f64 = 20.0;
/// Largest robot mass, kg.
pub const MAX_MASS: f64 = 100_000.0;
/// Largest principal moment of inertia, kg·m².
pub const MAX_INERTIA: f64 = 1.0e7;
/// Largest belt contact stiffness κ, N/m².
pub const MAX_STIFFNESS: f64 = 1.0e12;
/// The centre of mass must lie inside the hull box grown by this much on every side, m.
pub const COM_MARGIN: f64 = 0.2;
/// The lowest main-track circle must touch z = 0 within this, m (the origin convention).
pub const GROUND_TOLERANCE: f64 = 0.005;
/// Sprocket and idler closer than this in x are one wheel, not a track, m.
pub const MIN_WHEELBASE: f64 = 0.001;
/// Largest flipper motor torque, N·m.
pub const MAX_FLIPPER_TORQUE: f64 = 1.0e7;
/// Vertical field of view used when a camera gives none, degrees.
pub const DEFAULT_FOV_DEG: f64 = 60.0;
/// Largest number of `[[wheel]]` tables.
pub const MAX_WHEELS: usize = 16;
/// Largest steering angle of the outer front wheel accepted, degrees (the inner wheel turns
/// further; at 60° outer it is square to the body for common proportions).
pub const MAX_STEER_DEG: f64 = 60.0;
/// Steered wheels of one axle must share their x within this, m.
pub const AXLE_TOLERANCE: f64 = 0.001;
