//! `treadsim scene generate building`: a multi-storey office building from a compact
//! description — how many floors, a seed — as a scene file, deterministic by seed, its
//! dimensions drawn within building-code limits so that an instructor gets a new site of a known
//! difficulty each time.
//!
//! Plan (x east, y north; every floor alike; z_f = f·H):
//! ```text
//!   y = +B  +--------------------------------------------+
//!           |  room  |  room   |  room                    |
//!           +---d----+----d----+-------d------------------+---------------------+
//!   corridor  ->                                          |  landing |  flight 2 <- |  mid  |
//!   (entrance at x = 0 on the ground floor)               |  (floor) | ---spine---- |landing|
//!           +--d-----+------d-------+----d----------------+          |  flight 1 -> |       |
//!           |  room  |   room       |  room               +---------------------------------+
//!   y = -B  +--------------------------------------------+
//!         x = 0                                         x = xc      xs             xm      xe
//! ```
//! A central corridor runs east from the entrance between rooms on both sides (each with a
//! 0.9 m doorway), into a stair core with a half-turn stair on every floor: flight 1 rises east
//! along the core's south half from the floor landing to a mid landing at half the storey
//! height; flight 2 rises west along the north half to the next floor's landing, where the next
//! flight 1 starts beside it (a U-turn on every landing). A spine wall stands between the two
//! flights. Going down is the same way back: from a floor landing down flight 2 (north half).
//! The top floor has no flight up: a rail closes the void beside the way down.
//!
//! Dimensions (the International Building Code 2021, §1011 stairways, §1020 corridors; the
//! 2R + G comfort rule of Blondel): storey height 2.8–3.2 m; an even number of equal risers per
//! storey of 150–178 mm (IBC 1011.5.2: at most 7 in, at least 4 in); goings of at least 280 mm
//! (11 in) with 2R + G of 0.60–0.66 m; nosings 19–32 mm (0.75–1.25 in, 1011.5.5); stair width
//! 1.12–1.40 m (44 in, 1011.2); landings at least as deep as the stair is wide (1011.6), the
//! floor landings also a 1.525 m turning space (ICC A117.1 §304.3);
//! corridors 1.5–1.8 m (44 in at least, 1020.2; 1.5 m to turn a wheelchair); doorways 0.9 m
//! clear (32 in at least, 1010.1.1); rooms 3.0–4.5 m deep. Headroom over the flights is half a
//! storey (the flights are solid blocks, not inclined slabs): plenty for a robot, not the 2.03 m
//! a person needs.

use crate::rng::SplitMix64;

/// Wall thickness, m: outer and corridor walls.
const WALL: f64 = 0.2;
/// Partition walls between rooms, m.
const PARTITION: f64 = 0.12;
/// The spine wall between the two flights, m.
const SPINE: f64 = 0.1;
/// Floor slab thickness, m.
const SLAB: f64 = 0.2;
/// Doorway width and height, m.
const DOOR_WIDTH: f64 = 0.9;
const DOOR_HEIGHT: f64 = 2.1;
/// Guard rail height, m.
const RAIL: f64 = 1.0;
/// Most floors a generated building has.
pub const MAX_FLOORS: u32 = 8;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildingSpec {
    /// Floors, ground floor included (2 to [`MAX_FLOORS`]).
    pub floors: u32,
    /// The seed every drawn dimension comes from.
    pub seed: u64,
    /// Put debris (loose bricks, fixed to the tread) on one flight.
    pub debris: bool,
}

/// Why a building cannot be generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// Too few or too many floors.
    #[error("--floors must be 2 to {MAX_FLOORS}, got {0}")]
    Floors(u32),
}

/// One room along the corridor: its extent along x and its doorway's, m.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Room {
    /// West and east inner faces (partitions excluded), m.
    pub x: (f64, f64),
    /// The doorway's west edge, m (0.9 m wide).
    pub door: f64,
}

/// A building's drawn dimensions (m): everything the scene file is written from.
#[derive(Debug, Clone, PartialEq)]
pub struct BuildingPlan {
    /// The description it was drawn from.
    pub spec: BuildingSpec,
    /// Storey height H, floor top to floor top.
    pub storey: f64,
    /// Risers per storey (even: two flights of equal count).
    pub risers: u32,
    /// Riser height (storey / risers).
    pub rise: f64,
    /// Going, riser to riser.
    pub run: f64,
    /// Nosing overhang.
    pub nosing: f64,
    /// Clear width of each flight.
    pub stair_width: f64,
    /// Depth of the mid landing (along x).
    pub mid_landing: f64,
    /// Depth of each floor's landing in the core (along x).
    pub floor_landing: f64,
    /// Corridor clear width.
    pub corridor_width: f64,
    /// Room depth (from the corridor wall to the outer wall).
    pub room_depth: f64,
    /// Corridor length, from the entrance to the core.
    pub corridor_length: f64,
    /// The rooms on the north side, west to east.
    pub north: Vec<Room>,
    /// The rooms on the south side, west to east.
    pub south: Vec<Room>,
    /// Furniture: (centre x, centre y, size) per floor, the same on every floor.
    pub furniture: Vec<([f64; 2], [f64; 3])>,
    /// Loose bricks on a flight, if any: (centre, yaw deg).
    pub debris: Vec<([f64; 3], f64)>,
}

/// Rounds to millimetres (the file's precision), so the plan and its file agree exactly.
fn mm(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

impl BuildingPlan {
    /// Draws a plan for `spec`.
    pub fn draw(spec: BuildingSpec) -> Result<Self, GenerateError> {
        if !(2..=MAX_FLOORS).contains(&spec.floors) {
            return Err(GenerateError::Floors(spec.floors));
        }
        let mut rng = SplitMix64(spec.seed ^ 0x6275_696c_6469_6e67);
        let storey = mm(2.8 + 0.1 * rng.below(5) as f64);
        // An even riser count giving 150–178 mm risers.
        let counts: Vec<u32> = (14..=22)
            .filter(|n| n % 2 == 0)
            .filter(|n| {
                let r = storey / f64::from(*n);
                (0.150..=0.178).contains(&r)
            })
            .collect();
        let risers = counts[rng.below(counts.len())];
        let rise = storey / f64::from(risers);
        let run = mm((0.63 - 2.0 * rise + rng.range(-0.01, 0.02)).clamp(0.28, 0.32));
        let nosing = mm(rng.range(0.019, 0.032));
        let stair_width = mm(rng.range(1.12, 1.40));
        let mid_landing = mm(stair_width + rng.range(0.0, 0.3));
        // The floor landing is also the floor's turning space in front of the stair:
        // ICC A117.1 §304.3 asks 1.525 m (60 in) across.
        let floor_landing = mm(stair_width.max(1.525) + rng.range(0.1, 0.5));
        let corridor_width = mm(rng.range(1.5, 1.8));
        let room_depth = mm(rng.range(3.0, 4.5));
        let rooms_per_side = 2 + rng.below(3);
        let widths: Vec<f64> = (0..rooms_per_side)
            .map(|_| mm(rng.range(3.0, 4.5)))
            .collect();
        let corridor_length = mm(widths.iter().sum::<f64>() + WALL);
        let north = Self::rooms(&mut rng, &widths);
        // The south side splits the same length differently.
        let mut south_widths = widths.clone();
        south_widths.rotate_left(1 + rng.below(rooms_per_side - 1));
        let south = Self::rooms(&mut rng, &south_widths);
        let mut plan = Self {
            spec,
            storey,
            risers,
            rise,
            run,
            nosing,
            stair_width,
            mid_landing,
            floor_landing,
            corridor_width,
            room_depth,
            corridor_length,
            north,
            south,
            furniture: Vec::new(),
            debris: Vec::new(),
        };
        plan.furniture = plan.draw_furniture(&mut rng);
        if spec.debris {
            plan.debris = plan.draw_debris(&mut rng);
        }
        Ok(plan)
    }

    /// Rooms of `widths` from x = 0 (the west wall's inner face), partitions between them,
    /// each with a doorway at least 0.3 m from its partitions.
    fn rooms(rng: &mut SplitMix64, widths: &[f64]) -> Vec<Room> {
        let mut x = 0.0;
        widths
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let west = if i == 0 { x } else { x + PARTITION / 2.0 };
                let east = if i + 1 == widths.len() {
                    x + w
                } else {
                    x + w - PARTITION / 2.0
                };
                x += w;
                let door = mm(rng.range(west + 0.3, east - 0.3 - DOOR_WIDTH));
                Room {
                    x: (mm(west), mm(east)),
                    door,
                }
            })
            .collect()
    }

    /// Steps per flight.
    pub fn steps(&self) -> u32 {
        self.risers / 2
    }

    /// Stair angle, degrees.
    pub fn angle_deg(&self) -> f64 {
        (self.rise / self.run).atan().to_degrees()
    }

    /// Where the core starts (the corridor's east end), x.
    pub fn core_west(&self) -> f64 {
        mm(self.corridor_length)
    }

    /// The first riser of every flight 1 (the floor landing's east edge), x.
    pub fn flights_start(&self) -> f64 {
        mm(self.core_west() + self.floor_landing)
    }

    /// Where flight 1 meets the mid landing, x.
    pub fn flights_end(&self) -> f64 {
        mm(self.flights_start() + f64::from(self.steps()) * self.run)
    }

    /// The core's east inner face, x.
    pub fn core_east(&self) -> f64 {
        mm(self.flights_end() + self.mid_landing)
    }

    /// Half the core's clear width (two flights and the spine), y.
    pub fn core_half(&self) -> f64 {
        mm(self.stair_width + SPINE / 2.0)
    }

    /// Half the building's width to the outer walls' inner faces, y.
    pub fn rooms_half(&self) -> f64 {
        mm(self.corridor_width / 2.0 + WALL + self.room_depth)
    }

    /// Top of floor `f`'s slab, z.
    pub fn floor_z(&self, f: u32) -> f64 {
        mm(f64::from(f) * self.storey)
    }

    /// Furniture against the outer wall of each room, clear of its doorway's approach.
    fn draw_furniture(&self, rng: &mut SplitMix64) -> Vec<([f64; 2], [f64; 3])> {
        // Desk, cabinet, table, crate: plan size and height, m.
        const KINDS: [[f64; 3]; 4] = [
            [1.4, 0.7, 0.75],
            [0.9, 0.45, 1.9],
            [1.2, 1.2, 0.74],
            [0.6, 0.4, 0.4],
        ];
        let mut out = Vec::new();
        let outer = self.rooms_half();
        for (rooms, side) in [(&self.north, 1.0), (&self.south, -1.0)] {
            for room in rooms {
                let n = 1 + rng.below(3);
                let mut x = room.x.0 + 0.1;
                for _ in 0..n {
                    let size = KINDS[rng.below(KINDS.len())];
                    if x + size[0] > room.x.1 - 0.1 {
                        break;
                    }
                    let cx = x + size[0] / 2.0;
                    // Against the outer wall: its far face on the wall.
                    let cy = side * (outer - size[1] / 2.0 - 0.05);
                    out.push(([mm(cx), mm(cy)], size));
                    x += size[0] + rng.range(0.3, 0.8);
                }
            }
        }
        out
    }

    /// Two or three bricks on the treads of the ground floor's flight 1, fixed to them.
    fn draw_debris(&self, rng: &mut SplitMix64) -> Vec<([f64; 3], f64)> {
        let n = 2 + rng.below(2);
        let y0 = -self.core_half() + self.stair_width / 2.0;
        (0..n)
            .map(|_| {
                let step = 1 + rng.below(self.steps() as usize - 2);
                // Brick 0.215 × 0.1025 × 0.065 m lying on tread `step` (0-based), clear of the
                // nosing.
                let x = self.flights_start() + (step as f64 + 0.5) * self.run;
                let y = y0 + rng.range(-0.35, 0.35) * self.stair_width;
                let z = (step as f64 + 1.0) * self.rise;
                ([mm(x), mm(y), mm(z)], mm(rng.range(0.0, 180.0)))
            })
            .collect()
    }
}

/// Writes scene-file elements.
struct Writer {
    text: String,
}

impl Writer {
    fn line(&mut self, s: &str) {
        self.text.push_str(s);
        self.text.push('\n');
    }

    /// A box from its extent: x0..x1, y0..y1, z0..z1 (m).
    fn block(&mut self, name: &str, material: &str, x: (f64, f64), y: (f64, f64), z: (f64, f64)) {
        let size = [x.1 - x.0, y.1 - y.0, z.1 - z.0];
        if size.iter().any(|s| *s < 0.001) {
            return;
        }
        self.line(&format!(
            "\n[[element]]\ntype = \"box\"\nname = \"{name}\"\nmaterial = \"{material}\"\n\
             size = [{:.3}, {:.3}, {:.3}]\nposition = [{:.3}, {:.3}, {:.3}]",
            size[0],
            size[1],
            size[2],
            (x.0 + x.1) / 2.0,
            (y.0 + y.1) / 2.0,
            z.0
        ));
    }

    fn stairs(&mut self, name: &str, plan: &BuildingPlan, at: [f64; 3], yaw: f64) {
        self.line(&format!(
            "\n[[element]]\ntype = \"stairs\"\nname = \"{name}\"\nmaterial = \"stair_concrete\"\n\
             rise = {:.6}\nrun = {:.3}\ncount = {}\nwidth = {:.3}\nnosing = {:.3}\n\
             position = [{:.3}, {:.3}, {:.3}]\nyaw_deg = {yaw:.1}",
            plan.rise,
            plan.run,
            plan.steps(),
            plan.stair_width,
            plan.nosing,
            at[0],
            at[1],
            at[2]
        ));
    }

    fn point(&mut self, table: &str, name: &str, at: [f64; 3], extra: &str) {
        self.line(&format!(
            "\n[[{table}]]\nname = \"{name}\"\nposition = [{:.3}, {:.3}, {:.3}]{extra}",
            at[0], at[1], at[2]
        ));
    }
}

const MATERIALS: &str = r#"
[[material]]
name = "floor_concrete"
friction = 0.8
color = [0.50, 0.50, 0.48]

[[material]]
name = "stair_concrete"
friction = 0.8
color = [0.80, 0.74, 0.58]

[[material]]
name = "floor_tiles"
friction = 0.6
color = [0.62, 0.60, 0.55]

[[material]]
name = "plaster_wall"
friction = 0.5
color = [0.86, 0.85, 0.80]

[[material]]
name = "painted_rail"
friction = 0.5
color = [0.80, 0.25, 0.15]

[[material]]
name = "furniture"
friction = 0.5
color = [0.45, 0.33, 0.22]

[[material]]
name = "brick"
friction = 0.7
color = [0.62, 0.28, 0.20]"#;

impl BuildingPlan {
    /// The scene file (TOML).
    pub fn to_toml(&self) -> String {
        let mut w = Writer {
            text: String::new(),
        };
        self.header(&mut w);
        w.line(MATERIALS);
        self.ground(&mut w);
        for f in 0..self.spec.floors {
            self.floor(&mut w, f);
        }
        self.places(&mut w);
        w.text
    }

    fn header(&self, w: &mut Writer) {
        let s = &self.spec;
        w.line(&format!(
            "# Generated by `treadsim scene generate building --floors {} --seed {}{}`: an office\n\
             # building of {} floors (src/scene/generate/building.rs has the plan and the codes).\n\
             # Storey {:.2} m; {} risers of {:.1} mm and goings of {:.0} mm per storey ({:.1} deg,\n\
             # nosing {:.0} mm), two flights of {} steps {:.2} m wide with a {:.2} m mid landing;\n\
             # corridor {:.2} m wide, {:.2} m long; rooms {:.2} m deep, {} north, {} south.",
            s.floors,
            s.seed,
            if s.debris { " --debris" } else { "" },
            s.floors,
            self.storey,
            self.risers,
            1000.0 * self.rise,
            1000.0 * self.run,
            self.angle_deg(),
            1000.0 * self.nosing,
            self.steps(),
            self.stair_width,
            self.mid_landing,
            self.corridor_width,
            self.corridor_length,
            self.room_depth,
            self.north.len(),
            self.south.len()
        ));
        w.line(&format!(
            "[scene]\nname = \"Office building, {} floors (seed {})\"\n\
             description = \"Generated: corridor and rooms on every floor, a half-turn stair core \
             of {} x {:.0} mm risers ({:.1} deg) per storey of {:.2} m.\"",
            s.floors,
            s.seed,
            self.risers,
            1000.0 * self.rise,
            self.angle_deg(),
            self.storey
        ));
    }

    /// The ground: a forecourt and the ground floor under the whole building.
    fn ground(&self, w: &mut Writer) {
        let half = self.rooms_half() + WALL + 3.0;
        w.block(
            "ground",
            "floor_concrete",
            (-5.0, self.core_east() + WALL + 1.0),
            (-half, half),
            (-SLAB, 0.0),
        );
    }

    /// Floor `f`: its slab (not the ground floor's), walls, doorways, furniture, and the
    /// stair up from it (not the top floor's).
    fn floor(&self, w: &mut Writer, f: u32) {
        let z = self.floor_z(f);
        let top = self.floor_z(f + 1) - SLAB;
        let (xc, xs, xe) = (self.core_west(), self.flights_start(), self.core_east());
        let (ch, rh, cw) = (
            self.core_half(),
            self.rooms_half(),
            self.corridor_width / 2.0,
        );
        w.line(&format!(
            "\n# ---- floor {f}, z = {z:.3} {}",
            "-".repeat(60)
        ));
        if f > 0 {
            w.block(
                &format!("slab{f}"),
                "floor_tiles",
                (-WALL, xc),
                (-rh - WALL, rh + WALL),
                (z - SLAB, z),
            );
            w.block(
                &format!("landing{f}"),
                "floor_tiles",
                (xc, xs),
                (-ch, ch),
                (z - SLAB, z),
            );
        }
        for (side, rooms, sign) in [("north", &self.north, 1.0), ("south", &self.south, -1.0)] {
            self.side_walls(w, f, (side, rooms.as_slice(), sign));
        }
        // West wall: the entrance (the corridor's width) on the ground floor only.
        if f == 0 {
            w.block(
                "entrance_wall_north",
                "plaster_wall",
                (-WALL, 0.0),
                (cw, rh + WALL),
                (z, top),
            );
            w.block(
                "entrance_wall_south",
                "plaster_wall",
                (-WALL, 0.0),
                (-rh - WALL, -cw),
                (z, top),
            );
            w.block(
                "entrance_lintel",
                "plaster_wall",
                (-WALL, 0.0),
                (-cw, cw),
                (z + DOOR_HEIGHT, top),
            );
        } else {
            w.block(
                &format!("f{f}_west_wall"),
                "plaster_wall",
                (-WALL, 0.0),
                (-rh - WALL, rh + WALL),
                (z, top),
            );
        }
        w.block(
            &format!("f{f}_core_east"),
            "plaster_wall",
            (xe, xe + WALL),
            (-ch - WALL, ch + WALL),
            (z, top),
        );
        for (i, (at, size)) in self.furniture.iter().enumerate() {
            w.block(
                &format!("f{f}_furniture{i}"),
                "furniture",
                (at[0] - size[0] / 2.0, at[0] + size[0] / 2.0),
                (at[1] - size[1] / 2.0, at[1] + size[1] / 2.0),
                (z, z + size[2]),
            );
        }
        self.stair(w, f);
    }

    /// Floor `f`'s walls on one side of the corridor (`sign` +1 north, −1 south): the
    /// corridor wall with its doorways and lintels, the partitions, the outer wall, the wall
    /// between the rooms and the core, and the core's own side wall.
    fn side_walls(&self, w: &mut Writer, f: u32, (side, rooms, sign): (&str, &[Room], f64)) {
        let z = self.floor_z(f);
        let top = self.floor_z(f + 1) - SLAB;
        let (xc, xe) = (self.core_west(), self.core_east());
        let (ch, rh, cw) = (
            self.core_half(),
            self.rooms_half(),
            self.corridor_width / 2.0,
        );
        // Corridor walls with their doorways and lintels.
        let y = if sign > 0.0 {
            (cw, cw + WALL)
        } else {
            (-cw - WALL, -cw)
        };
        let mut x = 0.0;
        for (i, room) in rooms.iter().enumerate() {
            w.block(
                &format!("f{f}_{side}_wall{i}"),
                "plaster_wall",
                (x, room.door),
                y,
                (z, top),
            );
            w.block(
                &format!("f{f}_{side}_lintel{i}"),
                "plaster_wall",
                (room.door, room.door + DOOR_WIDTH),
                y,
                (z + DOOR_HEIGHT, top),
            );
            x = room.door + DOOR_WIDTH;
        }
        w.block(
            &format!("f{f}_{side}_wall_end"),
            "plaster_wall",
            (x, xc),
            y,
            (z, top),
        );
        // Partitions, the outer wall and the wall between the rooms and the core.
        let rooms_y = if sign > 0.0 {
            (cw + WALL, rh)
        } else {
            (-rh, -cw - WALL)
        };
        for (i, pair) in rooms.windows(2).enumerate() {
            w.block(
                &format!("f{f}_{side}_partition{i}"),
                "plaster_wall",
                (pair[0].x.1, pair[1].x.0),
                rooms_y,
                (z, top),
            );
        }
        let outer = if sign > 0.0 {
            (rh, rh + WALL)
        } else {
            (-rh - WALL, -rh)
        };
        w.block(
            &format!("f{f}_{side}_outer"),
            "plaster_wall",
            (-WALL, xc),
            outer,
            (z, top),
        );
        w.block(
            &format!("f{f}_{side}_core_side"),
            "plaster_wall",
            (xc - WALL, xc),
            rooms_y,
            (z, top),
        );
        // The core's own side wall.
        let core_side = if sign > 0.0 {
            (ch, ch + WALL)
        } else {
            (-ch - WALL, -ch)
        };
        w.block(
            &format!("f{f}_core_{side}"),
            "plaster_wall",
            (xc, xe + WALL),
            core_side,
            (z, top),
        );
    }

    /// The half-turn stair from floor `f` to the next, or the top floor's rails.
    fn stair(&self, w: &mut Writer, f: u32) {
        let z = self.floor_z(f);
        let (xs, xm, xe, ch) = (
            self.flights_start(),
            self.flights_end(),
            self.core_east(),
            self.core_half(),
        );
        let half = self.storey / 2.0;
        if f + 1 == self.spec.floors {
            // No flight up: rails across the void of the south half and along the spine.
            w.block(
                &format!("f{f}_rail_void"),
                "painted_rail",
                (xs - 0.1, xs),
                (-ch, SPINE / 2.0),
                (z, z + RAIL),
            );
            w.block(
                &format!("f{f}_rail_spine"),
                "painted_rail",
                (xs, xe),
                (-SPINE / 2.0, SPINE / 2.0),
                (z, z + RAIL),
            );
            return;
        }
        let y1 = -ch + self.stair_width / 2.0;
        w.stairs(&format!("f{f}_flight1"), self, [xs, mm(y1), z], 0.0);
        w.line(&format!(
            "\n[[element]]\ntype = \"landing\"\nname = \"f{f}_mid_landing\"\nmaterial = \"stair_concrete\"\n\
             length = {:.3}\nwidth = {:.3}\nheight = {:.6}\nposition = [{:.3}, 0.000, {z:.3}]",
            self.mid_landing,
            2.0 * ch,
            half,
            (xm + xe) / 2.0
        ));
        w.stairs(
            &format!("f{f}_flight2"),
            self,
            [xm, mm(-y1), z + half],
            180.0,
        );
        w.block(
            &format!("f{f}_spine"),
            "plaster_wall",
            (xs, xm),
            (-SPINE / 2.0, SPINE / 2.0),
            (z, self.floor_z(f + 1)),
        );
        if f == 0 {
            // Nothing to drive under on the ground floor: the space below flight 2 is solid.
            w.block(
                "f0_flight2_support",
                "stair_concrete",
                (xs, xm),
                (SPINE / 2.0, ch),
                (0.0, half),
            );
            for (i, (at, yaw)) in self.debris.iter().enumerate() {
                w.line(&format!(
                    "\n[[element]]\ntype = \"box\"\nname = \"brick{i}\"\nmaterial = \"brick\"\n\
                     size = [0.215, 0.1025, 0.065]\nposition = [{:.3}, {:.3}, {:.3}]\nyaw_deg = {yaw:.1}",
                    at[0], at[1], at[2]
                ));
            }
        }
    }

    /// Spawns, checkpoints and bounds.
    fn places(&self, w: &mut Writer) {
        let (xc, xs, xm, xe) = (
            self.core_west(),
            self.flights_start(),
            self.flights_end(),
            self.core_east(),
        );
        w.line("\n# ---- places ---------------------------------------------------------------");
        w.point("spawn", "entrance", [-2.5, 0.0, 0.0], "\nyaw_deg = 0.0");
        for f in 0..self.spec.floors {
            let z = self.floor_z(f);
            // In the corridor 2 m before the core, facing it.
            w.point(
                "spawn",
                &format!("floor{f}_corridor"),
                [xc - 2.0, 0.0, z],
                "\nyaw_deg = 0.0",
            );
            let r = (self.floor_landing / 2.0).min(0.6);
            w.point(
                "checkpoint",
                &format!("floor{f}"),
                [(xc + xs) / 2.0, 0.0, z + 0.3],
                &format!("\nradius = {r:.3}\nhalf_height = 0.4"),
            );
            if f + 1 < self.spec.floors {
                w.point(
                    "checkpoint",
                    &format!("mid{f}"),
                    [(xm + xe) / 2.0, 0.0, z + self.storey / 2.0 + 0.3],
                    &format!(
                        "\nradius = {:.3}\nhalf_height = 0.4",
                        (self.mid_landing / 2.0).min(0.6)
                    ),
                );
            }
            for (side, rooms, sign) in [("north", &self.north, 1.0), ("south", &self.south, -1.0)] {
                for (i, room) in rooms.iter().enumerate() {
                    // Just inside the doorway.
                    let y = sign * (self.corridor_width / 2.0 + WALL + 0.7);
                    w.point(
                        "checkpoint",
                        &format!("floor{f}_{side}{i}"),
                        [room.door + DOOR_WIDTH / 2.0, y, z + 0.3],
                        "\nradius = 0.5\nhalf_height = 0.4",
                    );
                }
            }
        }
        let half = self.rooms_half() + WALL + 3.0;
        w.line(&format!(
            "\n[bounds]\nmin = [-5.0, {:.3}]\nmax = [{:.3}, {:.3}]",
            -half,
            xe + WALL + 1.0,
            half
        ));
    }
}

/// The scene file of a building as `spec` describes it.
pub fn generate(spec: BuildingSpec) -> Result<String, GenerateError> {
    Ok(BuildingPlan::draw(spec)?.to_toml())
}

#[cfg(test)]
mod tests;
