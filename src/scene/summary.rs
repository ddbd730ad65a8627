//! The report `treadsim check` prints of a loaded scene.

use super::Scene;

use std::fmt::Write;

/// A human-readable report of a loaded scene, as `treadsim check` prints it: its size and
/// bounds, then its elements, spawns, checkpoints, traffic, lights, objects, valves and doors, a line
/// each.
pub fn summary(scene: &Scene, load_ms: f64) -> String {
    let mut s = head(scene, load_ms);
    elements(scene, &mut s);
    places(scene, &mut s);
    notes(scene, &mut s);
    s
}

/// The scene's name, mesh size, load time and bounds.
fn head(scene: &Scene, load_ms: f64) -> String {
    let t = &scene.terrain;
    let (lo, hi) = t.bounds();
    let mut s = String::new();
    let _ = writeln!(s, "{}: {}", scene.path.display(), scene.name);
    if !scene.description.is_empty() {
        let _ = writeln!(s, "  {}", scene.description);
    }
    let _ = writeln!(
        s,
        "  {} elements, {} triangles, {} vertices, BVH depth {}, loaded in {load_ms:.1} ms",
        scene.elements.len(),
        t.num_triangles(),
        t.vertices().len(),
        t.bvh_depth()
    );
    let _ = writeln!(
        s,
        "  bounds: x {:.3}..{:.3}  y {:.3}..{:.3}  z {:.3}..{:.3} m",
        lo.x, hi.x, lo.y, hi.y, lo.z, hi.z
    );
    let b = &scene.bounds;
    let _ = writeln!(
        s,
        "  robot bounds: x {:.3}..{:.3}  y {:.3}..{:.3} m ({}), lowest ground z {:.3} m",
        b.min[0],
        b.max[0],
        b.min[1],
        b.max[1],
        if b.explicit {
            "[bounds]"
        } else {
            "terrain extent"
        },
        b.lowest_z
    );
    s
}

/// The elements, each with its triangles and material.
fn elements(scene: &Scene, s: &mut String) {
    let t = &scene.terrain;
    for el in &scene.elements {
        let m = t.material(el.material);
        let _ = writeln!(
            s,
            "  - {:<24} {:<8} {:>7} triangles  material {} (μ {:.2})",
            el.name,
            el.kind.name(),
            el.triangles.len(),
            m.name,
            m.friction
        );
    }
}

/// Spawns, checkpoints, traffic groups, lights, then [`movables`].
fn places(scene: &Scene, s: &mut String) {
    for sp in &scene.spawns {
        let p = sp.position;
        let tilted = if sp.roll != 0.0 || sp.pitch != 0.0 {
            format!(
                " roll {:.1}° pitch {:.1}°",
                sp.roll.to_degrees(),
                sp.pitch.to_degrees()
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "  spawn {:<18} at ({:.2}, {:.2}, {:.2}) yaw {:.1}°{tilted}",
            sp.name,
            p.x,
            p.y,
            p.z,
            sp.yaw.to_degrees()
        );
    }
    for c in &scene.checkpoints {
        let p = c.position;
        let _ = writeln!(
            s,
            "  checkpoint {:<13} at ({:.2}, {:.2}, {:.2}) radius {:.2} m",
            c.name, p.x, p.y, p.z, c.radius
        );
    }
    for g in &scene.traffic {
        let _ = writeln!(
            s,
            "  traffic {:<16} {} agents {:.1} x {:.1} x {:.1} m, {:.1}–{:.1} m/s over x {:.1}..{:.1} y {:.1}..{:.1}",
            g.name,
            g.count,
            g.size[0],
            g.size[1],
            g.size[2],
            g.speed.0,
            g.speed.1,
            g.area_min.x,
            g.area_max.x,
            g.area_min.y,
            g.area_max.y
        );
    }
    for l in &scene.lights {
        let kind = match l.kind {
            crate::scene::LightKind::Point => "point".to_string(),
            crate::scene::LightKind::Spot { half_angle, .. } => {
                format!("spot {:.0}°", 2.0 * half_angle.to_degrees())
            }
        };
        let p = l.position;
        let _ = writeln!(
            s,
            "  light {:<18} {kind} at ({:.2}, {:.2}, {:.2}), range {:.1} m, intensity {:.2}",
            l.name, p.x, p.y, p.z, l.range, l.intensity
        );
    }
    movables(scene, s);
}

/// Movable objects, valves and doors.
fn movables(scene: &Scene, s: &mut String) {
    for o in &scene.objects {
        let p = o.pose.translation.vector;
        let _ = writeln!(
            s,
            "  object {:<17} {:.2} kg at ({:.2}, {:.2}, {:.2}), μ {:.2}",
            o.name, o.mass, p.x, p.y, p.z, o.friction
        );
    }
    for v in &scene.valves {
        let (p, a) = (v.centre, v.axis);
        let _ = writeln!(
            s,
            "  valve {:<18} {:.2} m wheel at ({:.2}, {:.2}, {:.2}) stem ({:.2}, {:.2}, {:.2}), \
             {:.1} N·m, {:.2} of {:.2} turns open",
            v.name,
            2.0 * v.radius,
            p.x,
            p.y,
            p.z,
            a.x,
            a.y,
            a.z,
            v.torque,
            v.open,
            v.travel
        );
    }
    for d in &scene.doors {
        let [w, h, _] = d.size;
        let latch = if d.latch { "latched" } else { "no latch" };
        let _ = writeln!(
            s,
            "  door {:<19} {:.2} × {:.2} m, {:.1} kg, hinge ({:.2}, {:.2}, {:.2}), swings {:.0}°, \
             {latch}, closer {:.0} N·m, {:.0}° open",
            d.name,
            w,
            h,
            d.mass,
            d.hinge.x,
            d.hinge.y,
            d.hinge.z,
            d.swing.to_degrees(),
            d.closer,
            d.open.to_degrees()
        );
    }
}

/// What loading left out.
fn notes(scene: &Scene, s: &mut String) {
    if scene.buried_triangles > 0 {
        let _ = writeln!(
            s,
            "  note: {} faces buried between touching elements left out",
            scene.buried_triangles
        );
    }
    if scene.dropped_triangles > 0 {
        let _ = writeln!(
            s,
            "  note: {} degenerate triangles dropped from meshes",
            scene.dropped_triangles
        );
    }
}
