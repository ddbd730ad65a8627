//! A uniform grid over a rectangle for neighbour queries among many moving points: each step
//! the points are sorted into square cells by a counting sort (two passes, no allocation once
//! the buffers have grown to the point count), and a query visits the 3 × 3 cells around a
//! point. With the cell as large as the query radius, every neighbour within it is found, at
//! a cost that grows with the local density, not with the square of the count (seed 002 tests
//! every pair).

use nalgebra::{Point2, Vector2};

/// Points sorted into cells. Scratch: rebuilt from the positions every step.
#[derive(Debug, Clone, Default)]
pub struct Grid {
    /// Lower corner of the gridded rectangle, world, m.
    origin: Point2<f64>,
    /// Cell side, m.
    cell: f64,
    /// Cells along x and y.
    columns: usize,
    rows: usize,
    /// `starts[c]..starts[c + 1]` indexes `order` for the points in cell `c`.
    starts: Vec<u32>,
    /// Point indices sorted by cell.
    order: Vec<u32>,
    /// Cell of each point.
    cell_of: Vec<u32>,
}

impl Grid {
    /// Sorts `positions` (world, m) into cells of side `cell` (m) over the rectangle
    /// `min`–`max`; points outside it count in the nearest border cell.
    pub fn build(
        &mut self,
        min: Point2<f64>,
        max: Point2<f64>,
        cell: f64,
        positions: impl ExactSizeIterator<Item = Vector2<f64>> + Clone,
    ) {
        let cell = if cell.is_finite() && cell > 0.0 {
            cell
        } else {
            1.0
        };
        let size = max - min;
        // At most 4096 cells a side: a huge area with a tiny cell degrades to larger cells.
        let cells_along = |extent: f64| ((extent / cell).ceil().max(1.0) as usize).min(4096);
        self.origin = min;
        self.cell = cell.max(size.x / 4096.0).max(size.y / 4096.0);
        self.columns = cells_along(size.x);
        self.rows = cells_along(size.y);
        let count = self.columns * self.rows;
        self.starts.clear();
        self.starts.resize(count + 1, 0);
        self.cell_of.clear();
        for p in positions.clone() {
            let c = self.cell_index(&p);
            self.cell_of.push(c as u32);
            self.starts[c + 1] += 1;
        }
        for c in 0..count {
            self.starts[c + 1] += self.starts[c];
        }
        self.order.clear();
        self.order.resize(positions.len(), 0);
        // Fill from each cell's start; `starts` is restored afterwards by a shift.
        for (i, &c) in self.cell_of.iter().enumerate() {
            let slot = &mut self.starts[c as usize];
            self.order[*slot as usize] = i as u32;
            *slot += 1;
        }
        for c in (1..=count).rev() {
            self.starts[c] = self.starts[c - 1];
        }
        self.starts[0] = 0;
    }

    /// Cell (column, row) of a point, clamped to the grid.
    fn column_row(&self, p: &Vector2<f64>) -> (usize, usize) {
        let local = (p - self.origin.coords) / self.cell;
        let clamp = |v: f64, n: usize| {
            if v.is_finite() {
                (v.floor().max(0.0) as usize).min(n - 1)
            } else {
                0
            }
        };
        (clamp(local.x, self.columns), clamp(local.y, self.rows))
    }

    fn cell_index(&self, p: &Vector2<f64>) -> usize {
        let (c, r) = self.column_row(p);
        r * self.columns + c
    }

    /// Calls `visit` with the index of every point in the 3 × 3 cells around `p` (including
    /// a point at `p` itself): every point within one cell side of `p`, and some farther.
    pub fn for_each_near(&self, p: &Vector2<f64>, mut visit: impl FnMut(usize)) {
        if self.columns == 0 {
            return;
        }
        let (c, r) = self.column_row(p);
        for row in r.saturating_sub(1)..=(r + 1).min(self.rows - 1) {
            let first = row * self.columns + c.saturating_sub(1);
            let last = row * self.columns + (c + 1).min(self.columns - 1);
            let (from, to) = (self.starts[first], self.starts[last + 1]);
            for &i in &self.order[from as usize..to as usize] {
                visit(i as usize);
            }
        }
    }

    /// Cell side, m.
    pub fn cell(&self) -> f64 {
        self.cell
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator for test points.
    fn points(n: usize, seed: u64) -> Vec<Vector2<f64>> {
        let mut s = seed;
        let mut next = || {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..n)
            .map(|_| Vector2::new(next() * 50.0 - 5.0, next() * 30.0 - 5.0))
            .collect()
    }

    /// The grid finds exactly the pairs within one cell side that the seed's all-pairs test
    /// finds, for points inside and outside the gridded rectangle.
    #[test]
    fn near_pairs_match_the_all_pairs_search() {
        let pts = points(600, 7);
        let mut grid = Grid::default();
        let (min, max) = (Point2::new(0.0, 0.0), Point2::new(40.0, 20.0));
        grid.build(min, max, 1.5, pts.iter().copied());
        for (i, p) in pts.iter().enumerate() {
            let mut near = Vec::new();
            grid.for_each_near(p, |j| {
                if j != i && (pts[j] - p).norm() <= grid.cell() {
                    near.push(j);
                }
            });
            near.sort_unstable();
            let brute: Vec<usize> = (0..pts.len())
                .filter(|&j| j != i && (pts[j] - p).norm() <= grid.cell())
                .collect();
            assert_eq!(near, brute, "point {i}");
        }
    }

    /// Rebuilding with the same number of points reuses the buffers (no allocation in the
    /// per-step path).
    #[test]
    fn rebuilding_keeps_the_buffers() {
        let mut grid = Grid::default();
        let (min, max) = (Point2::new(0.0, 0.0), Point2::new(40.0, 20.0));
        grid.build(min, max, 2.0, points(300, 1).into_iter());
        let capacity = (grid.order.capacity(), grid.starts.capacity());
        let order = grid.order.as_ptr();
        grid.build(min, max, 2.0, points(300, 2).into_iter());
        assert_eq!((grid.order.capacity(), grid.starts.capacity()), capacity);
        assert_eq!(grid.order.as_ptr(), order);
    }
}
