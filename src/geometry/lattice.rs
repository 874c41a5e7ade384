//! The lattices boards are drawn on: their jump directions ([`Lattice`]) and the integer
//! linear maps that permute those directions ([`LatticeMap`]), from which
//! [`crate::geometry::symmetry`] computes a board's symmetry group.

/// The lines along which pegs jump.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lattice {
    /// Orthogonal jumps only (english, french, wiegleb, lines).
    Square,
    /// Orthogonal and both diagonal jumps.
    SquareDiagonal,
    /// The triangular lattice in axial coordinates: six directions.
    Triangular,
}

impl Lattice {
    /// The unit steps `(drow, dcol)` along which a peg may jump (both senses).
    ///
    /// ```
    /// use pegsol::geometry::lattice::Lattice;
    /// assert_eq!(Lattice::Square.directions().len(), 4);
    /// assert_eq!(Lattice::Triangular.directions().len(), 6);
    /// ```
    pub fn directions(self) -> &'static [(i32, i32)] {
        match self {
            Lattice::Square => &[(0, 1), (1, 0), (0, -1), (-1, 0)],
            Lattice::SquareDiagonal => &[
                (0, 1),
                (1, 1),
                (1, 0),
                (1, -1),
                (0, -1),
                (-1, -1),
                (-1, 0),
                (-1, 1),
            ],
            Lattice::Triangular => &[(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)],
        }
    }

    /// The name used in board files.
    ///
    /// ```
    /// use pegsol::geometry::lattice::Lattice;
    /// assert_eq!(Lattice::SquareDiagonal.name(), "square-diagonal");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Lattice::Square => "square",
            Lattice::SquareDiagonal => "square-diagonal",
            Lattice::Triangular => "triangular",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Lattice> {
        match s {
            "square" => Some(Lattice::Square),
            "square-diagonal" => Some(Lattice::SquareDiagonal),
            "triangular" => Some(Lattice::Triangular),
            _ => None,
        }
    }
}

/// An integer 2x2 matrix acting on `(row, col)` lattice vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LatticeMap(pub [[i32; 2]; 2]);

impl LatticeMap {
    /// The identity map.
    pub const IDENTITY: LatticeMap = LatticeMap([[1, 0], [0, 1]]);

    /// Applies the map to a vector.
    ///
    /// ```
    /// use pegsol::geometry::lattice::LatticeMap;
    /// let quarter = LatticeMap([[0, -1], [1, 0]]);
    /// assert_eq!(quarter.apply((1, 0)), (0, 1));
    /// ```
    pub fn apply(self, (r, c): (i32, i32)) -> (i32, i32) {
        let m = self.0;
        (m[0][0] * r + m[0][1] * c, m[1][0] * r + m[1][1] * c)
    }

    /// `self ∘ other`: first `other`, then `self`.
    ///
    /// ```
    /// use pegsol::geometry::lattice::LatticeMap;
    /// let quarter = LatticeMap([[0, -1], [1, 0]]);
    /// let half = quarter.compose(quarter);
    /// assert_eq!(half, LatticeMap([[-1, 0], [0, -1]]));
    /// assert_eq!(half.compose(half), LatticeMap::IDENTITY);
    /// ```
    pub fn compose(self, other: LatticeMap) -> LatticeMap {
        let (a, b) = (self.0, other.0);
        let mut m = [[0; 2]; 2];
        for (i, row) in m.iter_mut().enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                *x = a[i][0] * b[0][j] + a[i][1] * b[1][j];
            }
        }
        LatticeMap(m)
    }

    /// Every map with entries in {-1, 0, 1} that permutes the lattice's directions,
    /// identity first.
    ///
    /// ```
    /// use pegsol::{geometry::lattice::Lattice, geometry::lattice::LatticeMap};
    /// assert_eq!(LatticeMap::point_group(Lattice::Square).len(), 8);
    /// assert_eq!(LatticeMap::point_group(Lattice::SquareDiagonal).len(), 8);
    /// assert_eq!(LatticeMap::point_group(Lattice::Triangular).len(), 12);
    /// ```
    pub fn point_group(lattice: Lattice) -> Vec<LatticeMap> {
        let dirs = lattice.directions();
        let mut maps = vec![LatticeMap::IDENTITY];
        for code in 0..81 {
            let e = |k: u32| (code / 3i32.pow(k)) % 3 - 1;
            let m = LatticeMap([[e(0), e(1)], [e(2), e(3)]]);
            let det = m.0[0][0] * m.0[1][1] - m.0[0][1] * m.0[1][0];
            if m != LatticeMap::IDENTITY
                && det.abs() == 1
                && dirs.iter().all(|&d| dirs.contains(&m.apply(d)))
            {
                maps.push(m);
            }
        }
        maps
    }
}
