//! An explicit move graph in compressed sparse row form, with its reverse.
//!
//! Vertices are `0..n`; loops (`v -> v`) and repeated edges are allowed (a repeated edge is
//! the same move twice and changes no value). The labelling walks edges backwards, so the
//! graph keeps both the successor and the predecessor lists, each as one flat array of `u32`
//! vertex numbers (8 bytes per edge in all, 8 per vertex for the offsets).

use grundy_core::text::JsonU64;

/// Why a graph could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DigraphError {
    /// An edge names a vertex outside `0..n`.
    #[error("edge {from} -> {to} names a vertex outside 0..{n}")]
    VertexOutOfRange {
        /// The edge's tail.
        from: usize,
        /// The edge's head.
        to: usize,
        /// The number of vertices.
        n: usize,
    },
    /// More vertices or edges than a `u32` can number.
    #[error("too many {what}: {count} (at most {} here)", u32::MAX - 1)]
    TooLarge {
        /// "vertices" or "edges".
        what: &'static str,
        /// How many were asked for.
        count: usize,
    },
    /// Offsets of a compressed sparse row graph that do not start at 0, decrease, or do not
    /// end at the number of targets.
    #[error("malformed offsets: {0}")]
    Offsets(&'static str),
}

/// A directed graph on vertices `0..n` in compressed sparse row form, with predecessor lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digraph {
    offsets: Vec<u32>,
    targets: Vec<u32>,
    rev_offsets: Vec<u32>,
    sources: Vec<u32>,
}

fn check_size(what: &'static str, count: usize) -> Result<(), DigraphError> {
    if count >= u32::MAX as usize {
        Err(DigraphError::TooLarge { what, count })
    } else {
        Ok(())
    }
}

impl Digraph {
    /// The graph on vertices `0..n` with these edges `(from, to)`, in this order in each
    /// vertex's successor list.
    ///
    /// ```
    /// use grundy_loopy::Digraph;
    /// let g = Digraph::from_edges(3, &[(0, 1), (1, 0), (1, 2), (2, 2)])?;
    /// assert_eq!(g.successors(1), [0, 2]);
    /// assert_eq!(g.predecessors(2), [1, 2]);
    /// assert!(Digraph::from_edges(2, &[(0, 2)]).is_err());
    /// # Ok::<(), grundy_loopy::DigraphError>(())
    /// ```
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Result<Digraph, DigraphError> {
        check_size("vertices", n)?;
        check_size("edges", edges.len())?;
        let mut offsets = vec![0u32; n + 1];
        for &(from, to) in edges {
            if from >= n || to >= n {
                return Err(DigraphError::VertexOutOfRange { from, to, n });
            }
            offsets[from + 1] += 1;
        }
        for v in 0..n {
            offsets[v + 1] += offsets[v];
        }
        let mut fill = offsets.clone();
        let mut targets = vec![0u32; edges.len()];
        for &(from, to) in edges {
            targets[fill[from] as usize] = to as u32;
            fill[from] += 1;
        }
        Ok(Digraph::with_reverse(offsets, targets))
    }

    /// The graph whose vertex `v` has successors `targets[offsets[v]..offsets[v + 1]]`
    /// (`offsets` has `n + 1` entries, starts at 0, never decreases and ends at
    /// `targets.len()`).
    pub fn from_csr(offsets: Vec<u32>, targets: Vec<u32>) -> Result<Digraph, DigraphError> {
        let n = offsets.len().saturating_sub(1);
        check_size("vertices", n)?;
        check_size("edges", targets.len())?;
        if offsets.first() != Some(&0) {
            return Err(DigraphError::Offsets("the first offset must be 0"));
        }
        if offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err(DigraphError::Offsets("offsets decrease"));
        }
        if offsets[n] as usize != targets.len() {
            return Err(DigraphError::Offsets(
                "the last offset is not the number of targets",
            ));
        }
        for v in 0..n {
            for &t in &targets[offsets[v] as usize..offsets[v + 1] as usize] {
                if t as usize >= n {
                    return Err(DigraphError::VertexOutOfRange {
                        from: v,
                        to: t as usize,
                        n,
                    });
                }
            }
        }
        Ok(Digraph::with_reverse(offsets, targets))
    }

    /// Adds the predecessor lists to a checked successor form (one counting sort). The caller
    /// guarantees what [`Digraph::from_csr`] checks.
    pub(crate) fn with_reverse(offsets: Vec<u32>, targets: Vec<u32>) -> Digraph {
        let n = offsets.len() - 1;
        let mut rev_offsets = vec![0u32; n + 1];
        for &t in &targets {
            rev_offsets[t as usize + 1] += 1;
        }
        for v in 0..n {
            rev_offsets[v + 1] += rev_offsets[v];
        }
        let mut fill = rev_offsets.clone();
        let mut sources = vec![0u32; targets.len()];
        for v in 0..n {
            for &t in &targets[offsets[v] as usize..offsets[v + 1] as usize] {
                sources[fill[t as usize] as usize] = v as u32;
                fill[t as usize] += 1;
            }
        }
        Digraph {
            offsets,
            targets,
            rev_offsets,
            sources,
        }
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// True when the graph has no vertex.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of edges, each repeat and loop counted.
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }

    /// The vertices one move from `v`, in the order the edges were given (repeats kept).
    pub fn successors(&self, v: usize) -> &[u32] {
        &self.targets[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }

    /// The successors of the vertices `vs`, one list after another (as [`Self::successors`]
    /// of each in turn).
    pub fn successors_of(&self, vs: std::ops::Range<usize>) -> &[u32] {
        &self.targets[self.offsets[vs.start] as usize..self.offsets[vs.end] as usize]
    }

    /// The vertices with a move to `v` (one entry per edge).
    pub fn predecessors(&self, v: usize) -> &[u32] {
        &self.sources[self.rev_offsets[v] as usize..self.rev_offsets[v + 1] as usize]
    }

    /// Bytes the graph's arrays hold (what a memory budget counts).
    pub fn heap_bytes(&self) -> usize {
        4 * (self.offsets.len() + self.targets.len() + self.rev_offsets.len() + self.sources.len())
    }
}

/// `u64` values written as the project's JSON integers (used by reports of this crate).
pub(crate) fn json_u64_opt<S: serde::Serializer>(v: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(x) => serde::Serialize::serialize(&JsonU64(*x), s),
        None => s.serialize_none(),
    }
}
