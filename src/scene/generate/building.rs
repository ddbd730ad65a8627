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

mod writer;

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
/// A hung door's hinge line from the corridor wall's face into the room, m.
const DOOR_SET_BACK: f64 = 0.03;
/// How far a hung door opens, deg.
const DOOR_SWING: f64 = 100.0;
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
    /// Hang a door in every room's doorway, each open, shut (a closer) or latched (its lever
    /// handle must be turned with an arm), drawn from the seed.
    pub doors: bool,
}

/// How a generated door stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DoorKind {
    /// Standing open against its stop, 100° into the room.
    Open,
    /// Shut by its closer, unlatched: a robot pushes it open from the corridor.
    Shut,
    /// Shut and latched: the handle must be turned down before it opens.
    Latched,
}

/// A door hung in a room's doorway.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HungDoor {
    /// The floor (0: ground).
    pub floor: u32,
    /// The room's side of the corridor: north (+y) or not (south).
    pub north: bool,
    /// The room, west to east along its side.
    pub room: usize,
    /// How it stands.
    pub kind: DoorKind,
}

impl HungDoor {
    /// Its name in the scene file: `f<floor>_<north|south><room>_door`.
    pub fn name(&self) -> String {
        let side = if self.north { "north" } else { "south" };
        format!("f{}_{side}{}_door", self.floor, self.room)
    }
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
    /// Doors hung in the rooms' doorways, if any: floor by floor, north side first.
    pub doors: Vec<HungDoor>,
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
            doors: Vec::new(),
        };
        plan.furniture = plan.draw_furniture(&mut rng);
        if spec.debris {
            plan.debris = plan.draw_debris(&mut rng);
        }
        if spec.doors {
            // A stream of its own: the same seed gives the same building with or without.
            plan.doors = plan.draw_doors(&mut SplitMix64(spec.seed ^ 0x646f_6f72_7321));
        }
        Ok(plan)
    }

    /// A door in every room's doorway on every floor: open in two of five, shut in two,
    /// latched in one.
    fn draw_doors(&self, rng: &mut SplitMix64) -> Vec<HungDoor> {
        let mut doors = Vec::new();
        for floor in 0..self.spec.floors {
            for (north, rooms) in [(true, &self.north), (false, &self.south)] {
                for room in 0..rooms.len() {
                    let kind = match rng.below(5) {
                        0 | 1 => DoorKind::Open,
                        2 | 3 => DoorKind::Shut,
                        _ => DoorKind::Latched,
                    };
                    doors.push(HungDoor {
                        floor,
                        north,
                        room,
                        kind,
                    });
                }
            }
        }
        doors
    }

    /// Where `door`'s hinge stands (its foot, m), the heading of its leaf shut (deg) and its
    /// swing (deg): hinged at the doorway's west jamb, 20 mm clear of it and 30 mm into the
    /// room from the corridor wall's face, opening into the room (office doors open away from
    /// the corridor, so a robot in it pushes them open).
    pub fn door_hinge(&self, door: &HungDoor) -> ([f64; 3], f64, f64) {
        let rooms = if door.north { &self.north } else { &self.south };
        let sign = if door.north { 1.0 } else { -1.0 };
        let x = rooms[door.room].door + (DOOR_WIDTH - writer::LEAF_WIDTH) / 2.0;
        let y = sign * (self.corridor_width / 2.0 + WALL + DOOR_SET_BACK);
        ([x, y, self.floor_z(door.floor)], 0.0, sign * DOOR_SWING)
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

/// The scene file of a building as `spec` describes it.
pub fn generate(spec: BuildingSpec) -> Result<String, GenerateError> {
    Ok(BuildingPlan::draw(spec)?.to_toml())
}

#[cfg(test)]
mod tests;
