//! String tools that Penney's game needs but that are useful on their own: the prefix function,
//! overlaps (correlations) between two words, and an Aho–Corasick automaton.
//!
//! Everything works on slices of any `Eq` symbol type (the automaton on symbol indices
//! `0..sigma`) and is iterative, so words of length 10^6 are fine.

/// The prefix function (Knuth–Morris–Pratt failure function) of `word`: `pi[i]` is the length of
/// the longest proper border (prefix that is also a suffix) of `word[..=i]`.
pub fn prefix_function<T: Eq>(word: &[T]) -> Vec<usize> {
    let mut pi = vec![0usize; word.len()];
    for i in 1..word.len() {
        let mut k = pi[i - 1];
        while k > 0 && word[i] != word[k] {
            k = pi[k - 1];
        }
        if word[i] == word[k] {
            k += 1;
        }
        pi[i] = k;
    }
    pi
}

/// Lengths `k ≥ 1` for which the last `k` symbols of `a` equal the first `k` symbols of `b`,
/// in decreasing order. `overlaps(a, a)` lists the borders of `a` including `a` itself.
///
/// `pi_b` must be `prefix_function(b)`; runs in `O(|a| + |b|)`.
pub fn overlaps_with<T: Eq>(a: &[T], b: &[T], pi_b: &[usize]) -> Vec<usize> {
    if b.is_empty() {
        return Vec::new();
    }
    // Run b's KMP matcher over the last |b| symbols of a (longer overlaps are impossible).
    let start = a.len().saturating_sub(b.len());
    let mut k = 0usize;
    for x in &a[start..] {
        if k == b.len() {
            k = pi_b[k - 1];
        }
        while k > 0 && *x != b[k] {
            k = pi_b[k - 1];
        }
        if *x == b[k] {
            k += 1;
        }
    }
    let mut out = Vec::new();
    while k > 0 {
        out.push(k);
        k = pi_b[k - 1];
    }
    out
}

/// [`overlaps_with`] computing the prefix function of `b` itself.
pub fn overlaps<T: Eq>(a: &[T], b: &[T]) -> Vec<usize> {
    overlaps_with(a, b, &prefix_function(b))
}

/// The correlation of `a` with `b` as a bit vector: `bits[k-1]` is true when the suffix of
/// length `k` of `a` equals the prefix of length `k` of `b` (`k = 1..=min(|a|,|b|)`).
pub fn correlation_bits<T: Eq>(a: &[T], b: &[T]) -> Vec<bool> {
    let mut bits = vec![false; a.len().min(b.len())];
    for k in overlaps(a, b) {
        bits[k - 1] = true;
    }
    bits
}

/// Whether `needle` occurs as a contiguous block of `hay` (KMP, linear time).
pub fn contains<T: Eq>(hay: &[T], needle: &[T]) -> bool {
    if needle.is_empty() {
        return true;
    }
    let pi = prefix_function(needle);
    let mut k = 0usize;
    for x in hay {
        while k > 0 && *x != needle[k] {
            k = pi[k - 1];
        }
        if *x == needle[k] {
            k += 1;
        }
        if k == needle.len() {
            return true;
        }
    }
    false
}

/// An Aho–Corasick automaton over the symbols `0..sigma`: the trie of a set of words with
/// failure links and the complete transition (goto) table.
///
/// Node 0 is the root (the empty word); every node is the prefix of some word, and
/// `goto(v, c)` is the node of the longest suffix of `word(v)·c` that is a prefix of a word.
#[derive(Clone, Debug)]
pub struct AhoCorasick {
    sigma: usize,
    /// `next[v * sigma + c]`: the complete transition function.
    next: Vec<usize>,
    /// Trie children only (`usize::MAX` where the trie has no edge).
    child: Vec<usize>,
    fail: Vec<usize>,
    depth: Vec<usize>,
    parent: Vec<usize>,
    /// The word (index into the input list) that ends exactly at this node, if any.
    terminal: Vec<Option<usize>>,
    /// The longest word that is a suffix of this node's string (via failure links), if any.
    output: Vec<Option<usize>>,
    /// Nodes in breadth-first order (non-decreasing depth).
    order: Vec<usize>,
}

const NONE: usize = usize::MAX;

impl AhoCorasick {
    /// Builds the automaton of `words` (symbol indices `< sigma`). Equal words share a node;
    /// the terminal records the first of them. Panics if a symbol is `>= sigma`.
    pub fn new(words: &[Vec<usize>], sigma: usize) -> Self {
        let mut child = vec![NONE; sigma];
        let mut depth = vec![0usize];
        let mut parent = vec![0usize];
        let mut terminal: Vec<Option<usize>> = vec![None];
        for (w, word) in words.iter().enumerate() {
            let mut v = 0usize;
            for &c in word {
                assert!(c < sigma, "symbol {c} outside the alphabet 0..{sigma}");
                if child[v * sigma + c] == NONE {
                    let u = depth.len();
                    child[v * sigma + c] = u;
                    child.extend(std::iter::repeat_n(NONE, sigma));
                    depth.push(depth[v] + 1);
                    parent.push(v);
                    terminal.push(None);
                }
                v = child[v * sigma + c];
            }
            if terminal[v].is_none() {
                terminal[v] = Some(w);
            }
        }
        let n = depth.len();
        let mut fail = vec![0usize; n];
        let mut next = vec![0usize; n * sigma];
        let mut output: Vec<Option<usize>> = vec![None; n];
        let mut order = Vec::with_capacity(n);
        let mut queue = std::collections::VecDeque::new();
        queue.push_back(0usize);
        while let Some(v) = queue.pop_front() {
            order.push(v);
            output[v] = terminal[v].or(if v == 0 { None } else { output[fail[v]] });
            for c in 0..sigma {
                let u = child[v * sigma + c];
                if u != NONE {
                    fail[u] = if v == 0 { 0 } else { next[fail[v] * sigma + c] };
                    next[v * sigma + c] = u;
                    queue.push_back(u);
                } else {
                    next[v * sigma + c] = if v == 0 { 0 } else { next[fail[v] * sigma + c] };
                }
            }
        }
        AhoCorasick {
            sigma,
            next,
            child,
            fail,
            depth,
            parent,
            terminal,
            output,
            order,
        }
    }

    /// Number of nodes (at most the total word length + 1).
    pub fn len(&self) -> usize {
        self.depth.len()
    }

    /// Always false: the root exists.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Alphabet size.
    pub fn sigma(&self) -> usize {
        self.sigma
    }

    /// The complete transition: state after reading `c` in state `v`.
    pub fn goto(&self, v: usize, c: usize) -> usize {
        self.next[v * self.sigma + c]
    }

    /// The trie child of `v` by `c`, if the trie has that edge.
    pub fn child(&self, v: usize, c: usize) -> Option<usize> {
        let u = self.child[v * self.sigma + c];
        (u != NONE).then_some(u)
    }

    /// Failure link: the longest proper suffix of `v`'s string that is a trie node.
    pub fn fail(&self, v: usize) -> usize {
        self.fail[v]
    }

    /// Length of the string of node `v`.
    pub fn depth(&self, v: usize) -> usize {
        self.depth[v]
    }

    /// Trie parent of `v` (the root is its own parent).
    pub fn parent(&self, v: usize) -> usize {
        self.parent[v]
    }

    /// The word ending exactly at `v`.
    pub fn terminal(&self, v: usize) -> Option<usize> {
        self.terminal[v]
    }

    /// The longest word that is a suffix of `v`'s string (`v` itself included).
    pub fn output(&self, v: usize) -> Option<usize> {
        self.output[v]
    }

    /// Nodes in breadth-first order.
    pub fn bfs_order(&self) -> &[usize] {
        &self.order
    }

    /// All occurrences in `text`: `(end position exclusive, word index)` of the longest word
    /// ending at each position where some word ends.
    pub fn find_ends(&self, text: &[usize]) -> Vec<(usize, usize)> {
        let mut v = 0;
        let mut out = Vec::new();
        for (i, &c) in text.iter().enumerate() {
            v = self.goto(v, c);
            if let Some(w) = self.output[v] {
                out.push((i + 1, w));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_function_small() {
        assert_eq!(prefix_function(b"abacaba"), vec![0, 0, 1, 0, 1, 2, 3]);
        assert_eq!(prefix_function(b"aaaa"), vec![0, 1, 2, 3]);
        assert!(prefix_function::<u8>(b"").is_empty());
    }

    #[test]
    fn overlaps_small() {
        assert_eq!(overlaps(b"HHH", b"HHT"), vec![2, 1]);
        assert_eq!(overlaps(b"THH", b"HHH"), vec![2, 1]);
        assert_eq!(overlaps(b"ABRACADABRA", b"ABRACADABRA"), vec![11, 4, 1]);
        assert_eq!(overlaps(b"XAB", b"AB"), vec![2]);
        assert_eq!(overlaps(b"B", b"ABC"), Vec::<usize>::new());
        assert_eq!(correlation_bits(b"HTH", b"THT"), vec![false, true, false]);
    }

    #[test]
    fn contains_small() {
        assert!(contains(b"HHTH", b"HT"));
        assert!(!contains(b"HHH", b"T"));
        assert!(contains(b"ab", b""));
    }

    #[test]
    fn aho_corasick_small() {
        // words over {0,1}: 010, 11
        let ac = AhoCorasick::new(&[vec![0, 1, 0], vec![1, 1]], 2);
        assert_eq!(ac.len(), 6);
        let v = ac.goto(ac.goto(0, 0), 1); // "01"
        assert_eq!(ac.depth(v), 2);
        assert_eq!(ac.depth(ac.fail(v)), 1); // "1"
        assert_eq!(ac.output(ac.goto(v, 1)), Some(1)); // "011" ends with "11"
        assert_eq!(ac.find_ends(&[0, 1, 0, 1, 1]), vec![(3, 0), (5, 1)]);
    }
}
