//! Faces buried between elements that touch: the bottom of a wall standing on a floor, the
//! shared side of two boxes placed against each other. Each such face lies on a face of the
//! other element with the opposite orientation, so it bounds no solid a belt can meet — but a
//! track plane cutting it would see a surface: a flipper tip pushed into the foot of a wall got
//! the wall's bottom face pushing it down and the floor's top pushing it up, a zero-thickness
//! gap it rattled between until it blew up. [`buried_triangles`] finds them so the scene can
//! leave them out of its terrain.

use nalgebra::{Point3, Vector3};
use parry3d::bounding_volume::Aabb;
use parry3d::math::Vector as PVec;
use parry3d::partitioning::{Bvh, BvhBuildStrategy, TraversalAction};

/// Distance within which two faces count as the same plane, m.
const COPLANAR: f64 = 1e-6;
/// Cosine below which two normals count as opposite.
const OPPOSITE: f64 = -1.0 + 1e-9;

/// Per triangle: whether it is buried — its corners (pulled a hair towards its centre) and its
/// centre all lie on coplanar triangles of *another* element (`element_of`, one entry per
/// triangle) facing the other way. Within one element nothing is left out: a mesh may be a
/// double-sided sheet.
pub fn buried_triangles(
    vertices: &[Point3<f64>],
    triangles: &[[u32; 3]],
    element_of: &[u32],
) -> Vec<bool> {
    let points =
        |i: usize| triangles[i].map(|v| vertices.get(v as usize).copied().unwrap_or_default());
    let normals: Vec<Vector3<f64>> = (0..triangles.len())
        .map(|i| {
            let p = points(i);
            (p[1] - p[0])
                .cross(&(p[2] - p[0]))
                .try_normalize(0.0)
                .unwrap_or_default()
        })
        .collect();
    let boxes: Vec<(usize, Aabb)> = (0..triangles.len())
        .map(|i| {
            let p = points(i);
            let lo = p[0].inf(&p[1]).inf(&p[2]);
            let hi = p[0].sup(&p[1]).sup(&p[2]);
            let grow = |v: Point3<f64>, by: f64| {
                PVec::new((v.x + by) as f32, (v.y + by) as f32, (v.z + by) as f32)
            };
            // f32 boxes grown by the coplanar tolerance and a float's rounding.
            let pad = COPLANAR + 1e-5 * (1.0 + lo.coords.amax().max(hi.coords.amax()));
            (i, Aabb::new(grow(lo, -pad), grow(hi, pad)))
        })
        .collect();
    let bvh = Bvh::from_iter(BvhBuildStrategy::Binned, boxes.iter().copied());
    let element = |i: usize| element_of.get(i).copied().unwrap_or(u32::MAX);
    let mut candidates: Vec<u32> = Vec::new();
    (0..triangles.len())
        .map(|i| {
            let p = points(i);
            let n = normals[i];
            if n == Vector3::zeros() {
                return false;
            }
            let query = boxes[i].1;
            candidates.clear();
            bvh.traverse(|node| {
                let overlaps = (0..3)
                    .all(|k| node.mins()[k] <= query.maxs[k] && node.maxs()[k] >= query.mins[k]);
                if !overlaps {
                    return TraversalAction::Prune;
                }
                if let Some(leaf) = node.leaf_data() {
                    candidates.push(leaf);
                }
                TraversalAction::Continue
            });
            let mut covers: Vec<(u32, [Point3<f64>; 3])> = candidates
                .iter()
                .map(|&j| j as usize)
                .filter(|&j| element(j) != element(i) && n.dot(&normals[j]) < OPPOSITE)
                .filter(|&j| {
                    let q = points(j);
                    p.iter()
                        .all(|v| normals[j].dot(&(v - q[0])).abs() < COPLANAR)
                })
                .map(|j| (element(j), points(j)))
                .collect();
            if covers.is_empty() {
                return false;
            }
            covers.sort_by_key(|c| c.0);
            let plane = PlaneFrame::new(&p[0], &n);
            let corners = p.map(|v| plane.to_2d(&v));
            // Covered by one element's coplanar face when that face (its triangles' union) is
            // convex and holds all three corners: a wall's bottom on a floor's top. Faces
            // covered only by several elements together, or by a concave face, stay.
            covers
                .chunk_by(|a, b| a.0 == b.0)
                .any(|group| covered_by(&corners, group, &plane))
        })
        .collect()
}

/// Coordinates in a plane through `origin` with unit normal `n`.
struct PlaneFrame {
    origin: Point3<f64>,
    u: Vector3<f64>,
    v: Vector3<f64>,
}

impl PlaneFrame {
    fn new(origin: &Point3<f64>, n: &Vector3<f64>) -> Self {
        let helper = if n.x.abs() < 0.9 {
            Vector3::x()
        } else {
            Vector3::y()
        };
        let u = n.cross(&helper).normalize();
        let v = n.cross(&u);
        Self {
            origin: *origin,
            u,
            v,
        }
    }

    fn to_2d(&self, p: &Point3<f64>) -> [f64; 2] {
        let d = p - self.origin;
        [d.dot(&self.u), d.dot(&self.v)]
    }
}

/// Whether the triangle with plane coordinates `corners` lies inside the union of the
/// `group`'s triangles, judged only when that union is convex (its area equals its hull's).
fn covered_by(
    corners: &[[f64; 2]; 3],
    group: &[(u32, [Point3<f64>; 3])],
    plane: &PlaneFrame,
) -> bool {
    let mut points: Vec<[f64; 2]> = group
        .iter()
        .flat_map(|(_, q)| q.iter().map(|v| plane.to_2d(v)))
        .collect();
    let area_sum: f64 = group
        .iter()
        .map(|(_, q)| {
            let [a, b, c] = q.map(|v| plane.to_2d(&v));
            0.5 * cross(&a, &b, &c).abs()
        })
        .sum();
    let hull = convex_hull(&mut points);
    let hull_area = 0.5
        * (0..hull.len())
            .map(|k| {
                let (a, b) = (hull[k], hull[(k + 1) % hull.len()]);
                a[0] * b[1] - a[1] * b[0]
            })
            .sum::<f64>()
            .abs();
    let scale = hull_area.max(1e-12);
    if hull.len() < 3 || (hull_area - area_sum).abs() > 1e-9 * scale.max(1.0) {
        return false;
    }
    // Inside the counter-clockwise hull, edges included (to the tolerance of a float).
    let tolerance = 1e-9 * (1.0 + scale.sqrt());
    corners.iter().all(|c| {
        (0..hull.len()).all(|k| {
            let (a, b) = (hull[k], hull[(k + 1) % hull.len()]);
            let edge = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2))
                .sqrt()
                .max(1e-300);
            cross(&a, &b, c) / edge >= -tolerance
        })
    })
}

/// (b − a) × (c − a) in 2D.
fn cross(a: &[f64; 2], b: &[f64; 2], c: &[f64; 2]) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// Convex hull, counter-clockwise (Andrew's monotone chain); sorts `points`.
fn convex_hull(points: &mut [[f64; 2]]) -> Vec<[f64; 2]> {
    points.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    let mut hull: Vec<[f64; 2]> = Vec::with_capacity(points.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &[f64; 2]>> = if pass == 0 {
            Box::new(points.iter())
        } else {
            Box::new(points.iter().rev())
        };
        for p in iter {
            while hull.len() >= start + 2
                && cross(&hull[hull.len() - 2], &hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(*p);
        }
        hull.pop();
    }
    hull
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An axis-aligned box's 12 triangles, wound outward, appended to `v` and `t`.
    fn add_box(v: &mut Vec<Point3<f64>>, t: &mut Vec<[u32; 3]>, lo: [f64; 3], hi: [f64; 3]) {
        let b = v.len() as u32;
        for k in 0..8 {
            v.push(Point3::new(
                if k & 1 == 0 { lo[0] } else { hi[0] },
                if k & 2 == 0 { lo[1] } else { hi[1] },
                if k & 4 == 0 { lo[2] } else { hi[2] },
            ));
        }
        for f in [
            [0, 2, 3, 1], // bottom (−z)
            [4, 5, 7, 6], // top (+z)
            [0, 1, 5, 4], // −y
            [2, 6, 7, 3], // +y
            [0, 4, 6, 2], // −x
            [1, 3, 7, 5], // +x
        ] {
            t.push([b + f[0], b + f[1], b + f[2]]);
            t.push([b + f[0], b + f[2], b + f[3]]);
        }
    }

    fn normal(v: &[Point3<f64>], tri: [u32; 3]) -> Vector3<f64> {
        let p = tri.map(|i| v[i as usize]);
        (p[1] - p[0]).cross(&(p[2] - p[0])).normalize()
    }

    /// The regression behind the selfright20 blow-up: a wall standing on a floor. The wall's
    /// bottom (covered by the floor's top) is buried; the floor's top (only partly covered by
    /// the wall) and every other face stay. Two boxes side by side lose their shared faces.
    #[test]
    fn a_wall_on_a_floor_loses_its_bottom_and_nothing_else() {
        let (mut v, mut t) = (Vec::new(), Vec::new());
        add_box(&mut v, &mut t, [-5.0, -5.0, -0.3], [5.0, 5.0, 0.0]);
        add_box(&mut v, &mut t, [-2.0, 1.0, 0.0], [2.0, 1.2, 2.5]);
        let element: Vec<u32> = (0..t.len()).map(|i| (i / 12) as u32).collect();
        let buried = buried_triangles(&v, &t, &element);
        let gone: Vec<usize> = (0..t.len()).filter(|&i| buried[i]).collect();
        assert_eq!(gone, vec![12, 13], "only the wall's two bottom triangles");
        for i in gone {
            assert!((normal(&v, t[i]) - Vector3::new(0.0, 0.0, -1.0)).norm() < 1e-12);
        }

        let (mut v, mut t) = (Vec::new(), Vec::new());
        add_box(&mut v, &mut t, [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]);
        add_box(&mut v, &mut t, [1.0, 0.0, 0.0], [2.0, 1.0, 1.0]);
        let element: Vec<u32> = (0..t.len()).map(|i| (i / 12) as u32).collect();
        let buried = buried_triangles(&v, &t, &element);
        let gone: Vec<usize> = (0..t.len()).filter(|&i| buried[i]).collect();
        // The first box's +x face and the second's −x face.
        assert_eq!(gone, vec![10, 11, 20, 21]);
    }

    /// A face only partly covered stays, and so does a double-sided sheet within one element
    /// (an imported mesh may be one).
    #[test]
    fn partial_cover_and_one_elements_own_faces_stay() {
        let (mut v, mut t) = (Vec::new(), Vec::new());
        add_box(&mut v, &mut t, [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]);
        // A smaller box on top covering half of the first's top: its bottom is buried, the
        // first's top is not.
        add_box(&mut v, &mut t, [0.0, 0.0, 1.0], [0.5, 1.0, 1.5]);
        let element: Vec<u32> = (0..t.len()).map(|i| (i / 12) as u32).collect();
        let buried = buried_triangles(&v, &t, &element);
        assert!(!buried[2] && !buried[3], "the lower box's top stays");
        assert!(buried[12] && buried[13], "the upper box's bottom goes");
        // A floor under two slabs with a gap between them (a ditch): the slabs' bottoms go,
        // the floor's top, though its corners are all under a slab, stays.
        let (mut v2, mut t2) = (Vec::new(), Vec::new());
        add_box(&mut v2, &mut t2, [0.0, 0.0, -0.2], [10.0, 4.0, 0.0]);
        add_box(&mut v2, &mut t2, [0.0, 0.0, 0.0], [4.8, 4.0, 0.5]);
        add_box(&mut v2, &mut t2, [5.2, 0.0, 0.0], [10.0, 4.0, 0.5]);
        let element: Vec<u32> = (0..t2.len()).map(|i| (i / 12) as u32).collect();
        let buried = buried_triangles(&v2, &t2, &element);
        assert!(
            !buried[2] && !buried[3],
            "the floor's top under the gap stays"
        );
        assert!(buried[12] && buried[13] && buried[24] && buried[25]);
        // The same two boxes as one element: nothing goes.
        let one = vec![0u32; t.len()];
        assert!(buried_triangles(&v, &t, &one).iter().all(|b| !b));
    }
}
