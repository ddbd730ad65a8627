//! Reading a scene file and building its terrain.

use std::ops::Range;
use std::path::{Path, PathBuf};

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

use super::mesh_import::{load_mesh, MeshLimits};
use super::primitives::{self, RubbleConfig, StairsGeometry};
use super::MeshData;
use crate::config::{ConfigError, SourceFile, TableReader};
use crate::terrain::{
    buried_triangles, MaterialId, SurfaceLook, SurfaceMaterial, Terrain, TextureKind,
};

/// Largest number of `[[element]]` tables in a scene.
pub const MAX_ELEMENTS: usize = 10_000;
/// Largest number of triangles a scene may produce in total.
pub const MAX_SCENE_TRIANGLES: usize = 5_000_000;
/// Largest size or distance accepted anywhere in a scene file, m.
pub const MAX_EXTENT: f64 = 10_000.0;
/// Largest number of steps in one flight of stairs.
pub const MAX_STEPS: i64 = 1_000;
/// Largest number of rocks in one rubble field.
pub const MAX_ROCKS: i64 = 100_000;
/// Largest number of segments around a cylinder or pipe.
pub const MAX_SEGMENTS: i64 = 1_024;

/// What kind of element produced a part of the terrain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElementKind {
    /// `type = "box"`: a cuboid.
    Box,
    /// `type = "landing"`: a flat platform.
    Landing,
    /// `type = "curb"`: a low block, a curb or a vertical step.
    Curb,
    /// `type = "ramp"`: a wedge at a given angle.
    Ramp,
    /// `type = "stairs"`: a straight flight, with optional nosings and top landing.
    Stairs,
    /// `type = "cylinder"`: a solid cylinder (post, column, drum).
    Cylinder,
    /// `type = "pipe"`: a hollow tube lying on the ground.
    Pipe,
    /// `type = "rubble"`: random rocks from a seed.
    Rubble,
    /// `type = "slab"`: a floor slab with an optional rectangular opening.
    Slab,
    /// `type = "mesh"`: an OBJ, STL or glTF file.
    Mesh,
}

impl ElementKind {
    /// Every kind with its `type` name in scene files.
    pub const ALL: [(&'static str, ElementKind); 10] = [
        ("box", ElementKind::Box),
        ("landing", ElementKind::Landing),
        ("curb", ElementKind::Curb),
        ("ramp", ElementKind::Ramp),
        ("stairs", ElementKind::Stairs),
        ("cylinder", ElementKind::Cylinder),
        ("pipe", ElementKind::Pipe),
        ("rubble", ElementKind::Rubble),
        ("slab", ElementKind::Slab),
        ("mesh", ElementKind::Mesh),
    ];

    /// The `type` name used in scene files.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("?", |(n, _)| n)
    }
}

/// One element of a loaded scene and the terrain triangles it produced.
#[derive(Debug, Clone, PartialEq)]
pub struct ElementInfo {
    /// The element's `name`, or `<type>#<index>` when it has none.
    pub name: String,
    /// What it is.
    pub kind: ElementKind,
    /// Its material.
    pub material: MaterialId,
    /// Its triangles: indices into [`Terrain::triangles`].
    pub triangles: Range<usize>,
    /// Pose of the element's local frame in the world.
    pub pose: Isometry3<f64>,
    /// For stairs: the world positions of the step nosings (front top edges, at the
    /// element's centre line), bottom step first. Empty for other kinds.
    pub nosings: Vec<Point3<f64>>,
}

/// A place where a robot can start: the centre of its footprint on the ground.
#[derive(Debug, Clone, PartialEq)]
pub struct Spawn {
    /// Name used by exercises and the command line.
    pub name: String,
    /// World position, m; `z` is the height of the ground under the robot.
    pub position: Point3<f64>,
    /// Heading, rad, counter-clockwise from world +x.
    pub yaw: f64,
    /// Roll about the body x axis, rad (π: on its back), applied before pitch and yaw.
    pub roll: f64,
    /// Pitch about the body y axis, rad (positive: nose down), applied before yaw.
    pub pitch: f64,
}

/// A named zone an exercise can ask the robot to reach: a vertical cylinder.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    /// Name used by exercises.
    pub name: String,
    /// Centre of the zone, world, m.
    pub position: Point3<f64>,
    /// Horizontal radius, m.
    pub radius: f64,
    /// Half of the zone's height, m: the robot's centre must be within this of `position.z`.
    pub half_height: f64,
}

impl Checkpoint {
    /// Whether a world point lies inside the zone.
    pub fn contains(&self, p: &Point3<f64>) -> bool {
        let d = p - self.position;
        d.x.hypot(d.y) <= self.radius && d.z.abs() <= self.half_height
    }
}

/// The region a robot must stay in: a horizontal rectangle (world x, y, m) and a floor below
/// which it has fallen out of the scene.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SceneBounds {
    /// Smallest world x and y a robot's centre of mass may have, m.
    pub min: [f64; 2],
    /// Largest world x and y a robot's centre of mass may have, m.
    pub max: [f64; 2],
    /// World z of the lowest point of the terrain, m: a robot whose centre of mass is more
    /// than the simulation's `SimConfig::fall_below` below it has fallen
    /// out of the scene.
    pub lowest_z: f64,
    /// Whether `min` and `max` came from the scene file (`[bounds]`) rather than from the
    /// extent of the terrain.
    pub explicit: bool,
}

impl SceneBounds {
    /// Whether a world point's x and y lie inside the rectangle (edges included).
    pub fn contains_xy(&self, p: &Point3<f64>) -> bool {
        (self.min[0]..=self.max[0]).contains(&p.x) && (self.min[1]..=self.max[1]).contains(&p.y)
    }
}

/// A loaded scene: its terrain and everything placed on it.
#[derive(Debug, Clone)]
pub struct Scene {
    /// The file it came from.
    pub path: PathBuf,
    /// Human-readable name (`[scene] name`), or the file stem.
    pub name: String,
    /// What the scene is for (`[scene] description`).
    pub description: String,
    /// The whole scene as one indexed mesh.
    pub terrain: Terrain,
    /// The elements, in file order.
    pub elements: Vec<ElementInfo>,
    /// Start poses, in file order; the first is the default.
    pub spawns: Vec<Spawn>,
    /// Named zones, in file order.
    pub checkpoints: Vec<Checkpoint>,
    /// Where robots must stay (`[bounds]`, default: the terrain's x–y extent).
    pub bounds: SceneBounds,
    /// Degenerate triangles dropped from imported meshes.
    pub dropped_triangles: usize,
    /// Faces left out because they are buried between touching elements (a wall's bottom on
    /// the floor, see [`crate::terrain::buried_triangles`]).
    pub buried_triangles: usize,
    /// Groups of moving agents (`[[traffic]]`).
    pub traffic: Vec<super::TrafficSpec>,
    /// The site's own lights (`[[light]]`), drawn by the station.
    pub lights: Vec<super::SceneLight>,
    /// Movable objects (`[[object]]`), in file order.
    pub objects: Vec<super::ObjectSpec>,
    /// Handwheel valves (`[[valve]]`), in file order.
    pub valves: Vec<super::ValveSpec>,
    /// Hinged doors (`[[door]]`), in file order.
    pub doors: Vec<super::DoorSpec>,
    /// The mesh files its elements read, resolved against the scene file's folder, each
    /// once, in file order.
    pub mesh_files: Vec<PathBuf>,
}

/// A spawn asked for by name that the scene does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{scene}: no spawn named '{name}' (have: {have})")]
pub struct UnknownSpawn {
    /// The scene file.
    pub scene: String,
    /// The name asked for (`(first)`: the scene has none).
    pub name: String,
    /// Every name the scene has, comma-separated, or `none`.
    pub have: String,
}

impl Scene {
    /// Reads and builds the scene in `path`.
    pub fn load(path: &Path) -> Result<Scene, ConfigError> {
        let file = SourceFile::read(path)?;
        Self::from_source(&file)
    }

    /// Builds a scene from file text already in memory; relative mesh paths are resolved
    /// against the folder of `file.path()`.
    pub fn from_source(file: &SourceFile) -> Result<Scene, ConfigError> {
        let root = file.parse()?;
        let (name, description) = match root.opt_table("scene")? {
            Some(t) => {
                let n = t.opt_str("name")?;
                let d = t.opt_str("description")?;
                t.finish()?;
                (n, d.unwrap_or_default())
            }
            None => (None, String::new()),
        };
        let name = name.unwrap_or_else(|| {
            file.path()
                .file_stem()
                .map_or("scene".into(), |s| s.to_string_lossy().into_owned())
        });
        let materials = read_materials(&root)?;
        let mut builder = Builder::default();
        let elements = root.tables("element", MAX_ELEMENTS)?;
        if elements.is_empty() {
            // Another kind of input file where a scene was expected: say which.
            let message = if root.has("exercise") {
                "this is an exercise file, not a scene: run it with --exercise"
            } else if root.has("robot") {
                "this is a robot file, not a scene: pass it with --robot"
            } else {
                "the scene has no [[element]] tables"
            };
            return Err(root.table_error(message));
        }
        let mut infos = Vec::with_capacity(elements.len());
        let mut mesh_files = Vec::new();
        for (i, el) in elements.into_iter().enumerate() {
            // The mesh files a scene reads belong to it (logs hash them); a bad `file` is
            // reported by the element itself.
            if el.opt_str("type").ok().flatten().as_deref() == Some("mesh") {
                if let Some(path) = el
                    .opt_str("file")
                    .ok()
                    .flatten()
                    .and_then(|rel| resolve_inside(el.file().dir(), &rel).ok())
                {
                    if !mesh_files.contains(&path) {
                        mesh_files.push(path);
                    }
                }
            }
            infos.push(builder.add_element(i, el, &materials)?);
        }
        let spawns = read_spawns(&root)?;
        let checkpoints = read_checkpoints(&root)?;
        let traffic = super::traffic::read_traffic(&root)?;
        let lights = super::lights::read_lights(&root)?;
        let objects = super::objects::read_objects(&root, &materials)?;
        let valves = super::valves::read_valves(&root, &materials)?;
        let doors = super::doors::read_doors(&root, &materials)?;
        let explicit_bounds = read_bounds(&root, &spawns)?;
        root.finish()?;
        let buried_triangles = builder.drop_buried(&mut infos);
        let terrain = Terrain::new(
            builder.vertices,
            builder.triangles,
            builder.triangle_materials,
            materials,
        )
        .map_err(|e| file.error(&(0..0), "", format!("invalid terrain: {e}")))?;
        let (lo, hi) = terrain.bounds();
        let bounds = match explicit_bounds {
            Some((min, max)) => SceneBounds {
                min,
                max,
                lowest_z: lo.z,
                explicit: true,
            },
            None => SceneBounds {
                min: [lo.x, lo.y],
                max: [hi.x, hi.y],
                lowest_z: lo.z,
                explicit: false,
            },
        };
        Ok(Scene {
            path: file.path().to_path_buf(),
            name,
            description,
            terrain,
            elements: infos,
            spawns,
            checkpoints,
            bounds,
            dropped_triangles: builder.dropped,
            buried_triangles,
            traffic,
            lights,
            objects,
            valves,
            doors,
            mesh_files,
        })
    }

    /// The spawn with this name.
    pub fn spawn(&self, name: &str) -> Option<&Spawn> {
        self.spawns.iter().find(|s| s.name == name)
    }

    /// Where a session starts: the spawn called `name`, or the scene's first one. The one
    /// spawn rule of every front end (station, shot, run, replay, soak).
    pub fn spawn_named(&self, name: Option<&str>) -> Result<Spawn, UnknownSpawn> {
        let found = match name {
            Some(name) => self.spawn(name),
            None => self.spawns.first(),
        };
        found.cloned().ok_or_else(|| UnknownSpawn {
            scene: self.path.display().to_string(),
            name: name.unwrap_or("(first)").to_string(),
            have: if self.spawns.is_empty() {
                "none".to_string()
            } else {
                self.spawns
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        })
    }

    /// The checkpoint with this name.
    pub fn checkpoint(&self, name: &str) -> Option<&Checkpoint> {
        self.checkpoints.iter().find(|c| c.name == name)
    }
}

/// A movable thing's surface (`material`, `friction`): its μ (the `friction` field, or its
/// material's) and colour (its material's, or `unnamed` when it names none).
pub(crate) fn read_surface(
    t: &TableReader<'_>,
    materials: &[SurfaceMaterial],
    unnamed: Option<[f32; 3]>,
) -> Result<(f64, [f32; 3]), ConfigError> {
    let id = read_material(t, materials)?.0 as usize;
    let material = materials.get(id).cloned().unwrap_or_default();
    let friction = t
        .opt_f64("friction", 0.0, 3.0)?
        .unwrap_or(material.friction);
    let color = match unnamed {
        Some(color) if !t.has("material") => color,
        _ => material.color,
    };
    Ok((friction, color))
}

/// The `[[material]]` tables; the built-in concrete when there are none.
fn read_materials(root: &TableReader<'_>) -> Result<Vec<SurfaceMaterial>, ConfigError> {
    let mut out: Vec<SurfaceMaterial> = Vec::new();
    for t in root.tables("material", u16::MAX as usize)? {
        let name = t.str("name")?;
        if out.iter().any(|m| m.name == name) {
            return Err(t.error("name", format!("material '{name}' is defined twice")));
        }
        let d = SurfaceMaterial::default();
        let m = SurfaceMaterial {
            friction: t.opt_f64("friction", 0.0, 3.0)?.unwrap_or(d.friction),
            stiffness: t.opt_positive("stiffness", 1e15)?,
            edge_radius: t
                .opt_f64("edge_radius", 0.0, 10.0)?
                .unwrap_or(d.edge_radius),
            color: t
                .opt_array::<3>("color", 0.0, 1.0)?
                .map_or(d.color, |c| c.map(|x| x as f32)),
            look: read_look(&t)?,
            name,
        };
        t.finish()?;
        out.push(m);
    }
    if out.is_empty() {
        out.push(SurfaceMaterial::default());
    }
    Ok(out)
}

/// A material's `texture`, `texture_scale` and `texture_variation` (its look; the grid when
/// none is given).
fn read_look(t: &TableReader<'_>) -> Result<SurfaceLook, ConfigError> {
    let texture = match t.opt_str("texture")? {
        None => TextureKind::default(),
        Some(name) => TextureKind::from_name(&name).ok_or_else(|| {
            let kinds: Vec<&str> = TextureKind::ALL.iter().map(|k| k.name()).collect();
            t.error(
                "texture",
                format!("unknown texture '{name}' (one of {})", kinds.join(", ")),
            )
        })?,
    };
    let d = SurfaceLook::of(texture);
    let (min, max) = SurfaceLook::SCALE_RANGE;
    let see_through = t.opt_bool("see_through")?.unwrap_or(false);
    if see_through && texture != TextureKind::Grating {
        return Err(t.error(
            "see_through",
            format!(
                "only an open grating is see-through: set texture = \"grating\" (not '{}')",
                texture.name()
            ),
        ));
    }
    Ok(SurfaceLook {
        texture,
        scale: t.opt_f64("texture_scale", min, max)?.unwrap_or(d.scale),
        variation: t
            .opt_f64("texture_variation", 0.0, 1.0)?
            .unwrap_or(d.variation),
        see_through,
    })
}

/// A table's `material` (a `[[material]]` name; the first material when absent).
pub(super) fn read_material(
    t: &TableReader<'_>,
    materials: &[SurfaceMaterial],
) -> Result<MaterialId, ConfigError> {
    let Some(m) = t.opt_str("material")? else {
        return Ok(MaterialId(0));
    };
    materials
        .iter()
        .position(|mat| mat.name == m)
        .map(|i| MaterialId(i as u16))
        .ok_or_else(|| {
            let names: Vec<&str> = materials.iter().map(|m| m.name.as_str()).collect();
            t.error(
                "material",
                format!("unknown material '{m}' (defined: {})", names.join(", ")),
            )
        })
}

/// A table's `position` and `yaw_deg` or `rotation_deg` (roll, pitch, yaw), world frame.
pub(super) fn read_pose(t: &TableReader<'_>) -> Result<Isometry3<f64>, ConfigError> {
    let p = t
        .opt_array::<3>("position", -MAX_EXTENT, MAX_EXTENT)?
        .unwrap_or([0.0; 3]);
    let yaw = t.opt_f64("yaw_deg", -3600.0, 3600.0)?;
    let rpy = t.opt_array::<3>("rotation_deg", -3600.0, 3600.0)?;
    let [roll, pitch, yaw] = match (yaw, rpy) {
        (Some(_), Some(_)) => {
            return Err(t.error(
                "rotation_deg",
                "give either yaw_deg or rotation_deg, not both",
            ))
        }
        (Some(y), None) => [0.0, 0.0, y],
        (None, Some(r)) => r,
        (None, None) => [0.0; 3],
    };
    Ok(Isometry3::from_parts(
        Translation3::new(p[0], p[1], p[2]),
        UnitQuaternion::from_euler_angles(roll.to_radians(), pitch.to_radians(), yaw.to_radians()),
    ))
}

#[derive(Default)]
struct Builder {
    vertices: Vec<Point3<f64>>,
    triangles: Vec<[u32; 3]>,
    triangle_materials: Vec<MaterialId>,
    dropped: usize,
}

impl Builder {
    /// Leaves out the faces buried between touching elements and renumbers each element's
    /// triangle range; returns how many were left out.
    fn drop_buried(&mut self, infos: &mut [ElementInfo]) -> usize {
        let mut element_of = vec![0u32; self.triangles.len()];
        for (k, info) in infos.iter().enumerate() {
            for e in &mut element_of[info.triangles.clone()] {
                *e = k as u32;
            }
        }
        let buried = buried_triangles(&self.vertices, &self.triangles, &element_of);
        let count = buried.iter().filter(|&&b| b).count();
        if count == 0 {
            return 0;
        }
        // kept[i]: triangles kept before the i-th.
        let mut kept = Vec::with_capacity(buried.len() + 1);
        kept.push(0usize);
        for &b in &buried {
            kept.push(kept[kept.len() - 1] + usize::from(!b));
        }
        for info in infos.iter_mut() {
            info.triangles = kept[info.triangles.start]..kept[info.triangles.end];
        }
        let mut i = 0;
        self.triangles.retain(|_| {
            i += 1;
            !buried[i - 1]
        });
        let mut i = 0;
        self.triangle_materials.retain(|_| {
            i += 1;
            !buried[i - 1]
        });
        count
    }

    fn add_element(
        &mut self,
        index: usize,
        t: TableReader<'_>,
        materials: &[SurfaceMaterial],
    ) -> Result<ElementInfo, ConfigError> {
        let type_name = t.str("type")?;
        let kind = ElementKind::ALL
            .iter()
            .find(|(n, _)| *n == type_name)
            .map(|(_, k)| *k)
            .ok_or_else(|| {
                let names: Vec<&str> = ElementKind::ALL.iter().map(|(n, _)| *n).collect();
                t.error(
                    "type",
                    format!(
                        "unknown element type '{type_name}' (expected one of: {})",
                        names.join(", ")
                    ),
                )
            })?;
        let name = t
            .opt_str("name")?
            .unwrap_or_else(|| format!("{}#{index}", kind.name()));
        let material = read_material(&t, materials)?;
        let pose = read_pose(&t)?;
        let (mut mesh, local_nosings, dropped) = element_mesh(kind, &t)?;
        self.dropped += dropped;
        t.finish()?;
        if mesh.triangles.len() + self.triangles.len() > MAX_SCENE_TRIANGLES {
            return Err(t.table_error(format!(
                "the scene would have more than {MAX_SCENE_TRIANGLES} triangles"
            )));
        }
        mesh.transform(&pose);
        let start = self.triangles.len();
        let base = self.vertices.len() as u32;
        self.vertices.extend_from_slice(&mesh.vertices);
        for (i, tri) in mesh.triangles.iter().enumerate() {
            if mesh.triangle_normal(i).is_none() {
                self.dropped += 1;
                continue;
            }
            self.triangles
                .push([tri[0] + base, tri[1] + base, tri[2] + base]);
            self.triangle_materials.push(material);
        }
        if self.triangles.len() == start {
            return Err(t.table_error("the element produced no triangles"));
        }
        Ok(ElementInfo {
            name,
            kind,
            material,
            triangles: start..self.triangles.len(),
            pose,
            nosings: local_nosings
                .iter()
                .map(|[x, z]| pose * Point3::new(*x, 0.0, *z))
                .collect(),
        })
    }
}

/// The element's mesh in its local frame, for stairs the nosings `(x, z)`, and the number of
/// degenerate triangles an imported mesh dropped.
fn element_mesh(
    kind: ElementKind,
    t: &TableReader<'_>,
) -> Result<(MeshData, Vec<[f64; 2]>, usize), ConfigError> {
    const X: f64 = MAX_EXTENT;
    let mesh = match kind {
        ElementKind::Box => primitives::cuboid(t.positive_array::<3>("size", X)?),
        ElementKind::Landing => primitives::cuboid([
            t.positive("length", X)?,
            t.positive("width", X)?,
            t.positive("height", X)?,
        ]),
        ElementKind::Curb => primitives::cuboid([
            t.opt_positive("depth", X)?.unwrap_or(0.3),
            t.positive("width", X)?,
            t.positive("height", X)?,
        ]),
        ElementKind::Ramp => {
            let angle = t.f64("angle_deg", 0.0, 89.0)?;
            if angle <= 0.0 {
                return Err(t.error("angle_deg", "must be greater than 0"));
            }
            let tan = angle.to_radians().tan();
            let length = match (t.opt_positive("length", X)?, t.opt_positive("height", X)?) {
                (Some(l), None) => l,
                (None, Some(h)) => h / tan,
                _ => {
                    return Err(t.table_error(
                        "a ramp needs exactly one of `length` (horizontal, m) or `height` (m)",
                    ))
                }
            };
            primitives::ramp(
                length,
                angle.to_radians(),
                t.positive("width", X)?,
                t.opt_f64("top_length", 0.0, X)?.unwrap_or(0.0),
            )
        }
        ElementKind::Stairs => {
            let g = read_stairs(t)?;
            return Ok((primitives::stairs(&g), primitives::stairs_nosings(&g), 0));
        }
        ElementKind::Cylinder => primitives::cylinder(
            t.positive("radius", X)?,
            t.positive("height", X)?,
            t.opt_int("segments", 3, MAX_SEGMENTS)?.unwrap_or(32) as u32,
        ),
        ElementKind::Pipe => {
            let outer = t.positive("outer_radius", X)?;
            let inner = t.positive("inner_radius", X)?;
            if inner >= outer {
                return Err(t.error("inner_radius", "must be smaller than outer_radius"));
            }
            primitives::pipe(
                outer,
                inner,
                t.positive("length", X)?,
                t.opt_int("segments", 3, MAX_SEGMENTS)?.unwrap_or(32) as u32,
            )
        }
        ElementKind::Rubble => {
            let min_size = t.positive("min_size", X)?;
            let max_size = t.positive("max_size", X)?;
            if max_size < min_size {
                return Err(t.error("max_size", "must not be smaller than min_size"));
            }
            let area = t.positive_array::<2>("area", X)?;
            primitives::rubble(&RubbleConfig {
                seed: t.int("seed", 0, i64::MAX)? as u64,
                count: t.int("count", 1, MAX_ROCKS)? as u32,
                area,
                min_size,
                max_size,
            })
        }
        ElementKind::Slab => {
            let size = t.positive_array::<3>("size", X)?;
            match (
                t.opt_array::<2>("hole_min", -X, X)?,
                t.opt_array::<2>("hole_max", -X, X)?,
            ) {
                (None, None) => primitives::cuboid(size),
                (Some(lo), Some(hi)) => {
                    if hi[0] <= lo[0] || hi[1] <= lo[1] {
                        return Err(t.error("hole_max", "must be greater than hole_min in x and y"));
                    }
                    primitives::slab_with_hole(size, lo, hi)
                }
                _ => return Err(t.table_error("give both hole_min and hole_max, or neither")),
            }
        }
        ElementKind::Mesh => {
            let (mesh, dropped) = read_mesh_element(t)?;
            return Ok((mesh, Vec::new(), dropped));
        }
    };
    Ok((mesh, Vec::new(), 0))
}

fn read_stairs(t: &TableReader<'_>) -> Result<StairsGeometry, ConfigError> {
    let rise = t.positive("rise", 5.0)?;
    let run = t.positive("run", 5.0)?;
    let nosing = t.opt_f64("nosing", 0.0, 0.1)?.unwrap_or(0.0);
    if nosing >= run / 2.0 {
        return Err(t.error("nosing", "must be less than half of `run`"));
    }
    let nosing_thickness = match t.opt_positive("nosing_thickness", 5.0)? {
        Some(th) if th >= rise => {
            return Err(t.error("nosing_thickness", "must be less than `rise`"))
        }
        Some(th) => th,
        None => (rise / 2.0).min(0.03),
    };
    Ok(StairsGeometry {
        rise,
        run,
        width: t.positive("width", MAX_EXTENT)?,
        count: t.int("count", 1, MAX_STEPS)? as u32,
        nosing,
        nosing_thickness,
        landing: t.opt_f64("landing", 0.0, MAX_EXTENT)?.unwrap_or(0.0),
    })
}

fn read_mesh_element(t: &TableReader<'_>) -> Result<(MeshData, usize), ConfigError> {
    let rel = t.str("file")?;
    let path = resolve_inside(t.file().dir(), &rel).map_err(|m| t.error("file", m))?;
    let scale = if t.is_array("scale") {
        let s = t.array::<3>("scale", -1e6, 1e6)?;
        if s.contains(&0.0) {
            return Err(t.error("scale", "a scale component of 0 flattens the mesh"));
        }
        Some(Vector3::from(s))
    } else {
        t.opt_positive("scale", 1e6)?.map(Vector3::repeat)
    };
    let up = t.opt_str("up_axis")?.unwrap_or_else(|| "z".into());
    let report =
        load_mesh(&path, &MeshLimits::default()).map_err(|e| t.error("file", e.to_string()))?;
    let dropped = report.dropped_degenerate;
    let mut mesh = report.mesh;
    if let Some(s) = scale {
        mesh.scale(s);
    }
    match up.as_str() {
        "z" => {}
        // glTF and many tools are y-up; turn y into z.
        "y" => mesh.transform(&Isometry3::rotation(
            Vector3::x() * std::f64::consts::FRAC_PI_2,
        )),
        other => {
            return Err(t.error(
                "up_axis",
                format!("'{other}' is not an axis (expected \"z\" or \"y\")"),
            ))
        }
    }
    Ok((mesh, dropped))
}

/// Resolves `rel` against `dir`, refusing absolute paths and anything that ends up outside
/// `dir` (after following links), so a scene can only use files in its own folder tree.
pub fn resolve_inside(dir: &Path, rel: &str) -> Result<PathBuf, String> {
    let relp = Path::new(rel);
    if relp.is_absolute() || rel.starts_with('/') || rel.starts_with('\\') {
        return Err(format!(
            "'{rel}' is absolute; mesh paths must be relative to the scene's folder"
        ));
    }
    let joined = dir.join(relp);
    let base = dir
        .canonicalize()
        .map_err(|e| format!("cannot resolve the scene folder '{}': {e}", dir.display()))?;
    let full = joined
        .canonicalize()
        .map_err(|e| format!("cannot read '{}': {e}", joined.display()))?;
    if !full.starts_with(&base) {
        return Err(format!(
            "'{rel}' is outside the scene's folder '{}'",
            base.display()
        ));
    }
    Ok(full)
}

fn read_spawns(root: &TableReader<'_>) -> Result<Vec<Spawn>, ConfigError> {
    let mut out: Vec<Spawn> = Vec::new();
    for t in root.tables("spawn", 1000)? {
        let name = t.str("name")?;
        if out.iter().any(|s| s.name == name) {
            return Err(t.error("name", format!("spawn '{name}' is defined twice")));
        }
        let p = t.array::<3>("position", -MAX_EXTENT, MAX_EXTENT)?;
        let yaw = t.opt_f64("yaw_deg", -3600.0, 3600.0)?.unwrap_or(0.0);
        let roll = t.opt_f64("roll_deg", -180.0, 180.0)?.unwrap_or(0.0);
        let pitch = t.opt_f64("pitch_deg", -90.0, 90.0)?.unwrap_or(0.0);
        t.finish()?;
        out.push(Spawn {
            name,
            position: Point3::from(p),
            yaw: yaw.to_radians(),
            roll: roll.to_radians(),
            pitch: pitch.to_radians(),
        });
    }
    if out.is_empty() {
        return Err(
            root.table_error("the scene has no [[spawn]] table (a robot needs a start pose)")
        );
    }
    Ok(out)
}

fn read_checkpoints(root: &TableReader<'_>) -> Result<Vec<Checkpoint>, ConfigError> {
    let mut out: Vec<Checkpoint> = Vec::new();
    for t in root.tables("checkpoint", 10_000)? {
        let name = t.str("name")?;
        if out.iter().any(|c| c.name == name) {
            return Err(t.error("name", format!("checkpoint '{name}' is defined twice")));
        }
        let c = Checkpoint {
            position: Point3::from(t.array::<3>("position", -MAX_EXTENT, MAX_EXTENT)?),
            radius: t.opt_positive("radius", MAX_EXTENT)?.unwrap_or(0.5),
            half_height: t.opt_positive("half_height", MAX_EXTENT)?.unwrap_or(1.0),
            name,
        };
        t.finish()?;
        out.push(c);
    }
    Ok(out)
}

/// `(min, max)` corners of a `[bounds]` rectangle, world x and y, m.
type BoundsCorners = ([f64; 2], [f64; 2]);

/// The optional `[bounds]` table: `min = [x, y]` and `max = [x, y]`, world m, both required
/// when the table is present, `max` greater than `min` in x and in y, every spawn inside.
fn read_bounds(
    root: &TableReader<'_>,
    spawns: &[Spawn],
) -> Result<Option<BoundsCorners>, ConfigError> {
    let Some(t) = root.opt_table("bounds")? else {
        return Ok(None);
    };
    let min = t.array::<2>("min", -MAX_EXTENT, MAX_EXTENT)?;
    let max = t.array::<2>("max", -MAX_EXTENT, MAX_EXTENT)?;
    if max[0] <= min[0] || max[1] <= min[1] {
        return Err(t.error(
            "max",
            format!(
                "must be greater than min in x and y (min [{}, {}], max [{}, {}])",
                min[0], min[1], max[0], max[1]
            ),
        ));
    }
    if let Some(sp) = spawns.iter().find(|sp| {
        !((min[0]..=max[0]).contains(&sp.position.x) && (min[1]..=max[1]).contains(&sp.position.y))
    }) {
        return Err(t.table_error(format!(
            "spawn '{}' at ({}, {}) is outside the bounds",
            sp.name, sp.position.x, sp.position.y
        )));
    }
    t.finish()?;
    Ok(Some((min, max)))
}
