//! Misère canonical forms of impartial games given by their options (Conway, ONAG ch. 12).
//!
//! Games live in a [`Forms`] arena, hash-consed: a game is the set of its options' ids, so two
//! ids are equal exactly when the games are identical. [`Forms::canonical`] reduces a game to
//! its misère simplest form: options are reduced first, then, when some option G′ has an
//! option G″ equal to G (G′ is *reversible*), G is G″. Equality of G with a simplest form G″
//! is decided by the Grundy–Smith test: every option of G″ is an option of G, every other
//! option of G has G″ as an option, and (the end-game proviso) when G″ = 0, G is an
//! N-position. Conway proved that a game with no reversible option is in simplest form, and
//! simplest forms are unique, so identity of canonical ids is misère equality.
//!
//! Entry notation is CGSuite's: `*[a,b,…]` is the game with the listed options, an integer n
//! inside a list is the nim heap *n, a nested `[x,…]` is the game with those options, terms may
//! be added with `+`, and `*[x]` with a single item is x itself (`*[2]` is *2, `*[[2]]` is
//! {*2}, written 2#).
//!
//! ```
//! use grundy_misere::canonical::Forms;
//! let mut f = Forms::new();
//! let g = f.parse("*[[2],0]").unwrap();
//! let c = f.canonical(g);
//! assert_eq!(f.birthday(c), 4);
//! assert_eq!(f.misere_grundy(c), 2);
//! let two_plus_two = f.parse("*[2]+*[2]").unwrap();
//! let c = f.canonical(two_plus_two);
//! assert_eq!(f.misere_grundy(c), 0);
//! ```

use grundy_core::{mex, FxHashMap, Outcome};
use serde::Serialize;

use crate::error::MisereError;
use crate::genus::Genus;

/// A game's id in a [`Forms`] arena.
pub type FormId = usize;

/// The largest nim heap the parser builds (a guard, not a theoretical limit).
pub const MAX_NIM_HEAP: u64 = 64;

/// An arena of impartial games, hash-consed by their sets of options.
#[derive(Default)]
pub struct Forms {
    nodes: Vec<Vec<FormId>>,
    index: FxHashMap<Vec<FormId>, FormId>,
    canon: FxHashMap<FormId, FormId>,
    sums: FxHashMap<(FormId, FormId), FormId>,
    phyla: FxHashMap<FormId, crate::genus::Phylum>,
    genera: FxHashMap<FormId, Genus>,
}

/// The properties of one game computed from its canonical form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FormInfo {
    /// The canonical form in entry notation (re-parseable).
    pub canonical: String,
    /// The birthday of the canonical form.
    pub birthday: u32,
    /// The misère Grundy value.
    pub misere_grundy: u32,
    /// The normal-play Grundy value.
    pub grundy: u32,
    /// The misère outcome.
    pub outcome: Outcome,
    /// The mate (0 ↔ *1 at the leaves), canonical, in entry notation.
    pub mate: String,
    /// The genus.
    pub genus: Genus,
}

impl Forms {
    /// An empty arena.
    pub fn new() -> Self {
        Forms::default()
    }

    /// The game with these options.
    pub fn game(&mut self, mut options: Vec<FormId>) -> FormId {
        options.sort_unstable();
        options.dedup();
        if let Some(&id) = self.index.get(&options) {
            return id;
        }
        let id = self.nodes.len();
        self.nodes.push(options.clone());
        self.index.insert(options, id);
        id
    }

    /// The options of a game.
    pub fn options(&self, g: FormId) -> &[FormId] {
        &self.nodes[g]
    }

    /// The nim heap *n.
    pub fn nim(&mut self, n: u64) -> FormId {
        let mut opts = Vec::new();
        for _ in 0..=n {
            let id = self.game(opts.clone());
            opts.push(id);
        }
        opts[n as usize]
    }

    /// The disjunctive sum G + H (not simplified).
    pub fn sum(&mut self, g: FormId, h: FormId) -> FormId {
        let key = (g.min(h), g.max(h));
        if let Some(&s) = self.sums.get(&key) {
            return s;
        }
        let mut opts = Vec::new();
        for gg in self.nodes[g].clone() {
            opts.push(self.sum(gg, h));
        }
        for hh in self.nodes[h].clone() {
            opts.push(self.sum(g, hh));
        }
        let s = self.game(opts);
        self.sums.insert(key, s);
        s
    }

    /// Misère outcome: N when there is no move or some move to a P-position.
    pub fn outcome(&self, g: FormId) -> Outcome {
        if self.misere_grundy(g) == 0 {
            Outcome::P
        } else {
            Outcome::N
        }
    }

    /// The misère Grundy value: 1 without options, else the mex of the options'.
    pub fn misere_grundy(&self, g: FormId) -> u32 {
        let mut memo = FxHashMap::default();
        self.mg(g, &mut memo)
    }

    fn mg(&self, g: FormId, memo: &mut FxHashMap<FormId, u32>) -> u32 {
        if let Some(&v) = memo.get(&g) {
            return v;
        }
        let v = if self.nodes[g].is_empty() {
            1
        } else {
            let vals: Vec<u64> = self.nodes[g]
                .iter()
                .map(|&o| self.mg(o, memo) as u64)
                .collect();
            mex(&vals) as u32
        };
        memo.insert(g, v);
        v
    }

    /// The normal-play Grundy value.
    pub fn grundy(&self, g: FormId) -> u32 {
        fn go(f: &Forms, g: FormId, memo: &mut FxHashMap<FormId, u32>) -> u32 {
            if let Some(&v) = memo.get(&g) {
                return v;
            }
            let vals: Vec<u64> = f.nodes[g].iter().map(|&o| go(f, o, memo) as u64).collect();
            let v = mex(&vals) as u32;
            memo.insert(g, v);
            v
        }
        go(self, g, &mut FxHashMap::default())
    }

    /// The birthday: 0 without options, else one more than the options' largest.
    pub fn birthday(&self, g: FormId) -> u32 {
        fn go(f: &Forms, g: FormId, memo: &mut FxHashMap<FormId, u32>) -> u32 {
            if let Some(&v) = memo.get(&g) {
                return v;
            }
            let v = f.nodes[g]
                .iter()
                .map(|&o| go(f, o, memo) + 1)
                .max()
                .unwrap_or(0);
            memo.insert(g, v);
            v
        }
        go(self, g, &mut FxHashMap::default())
    }

    /// The misère simplest form of a game (see the module documentation).
    pub fn canonical(&mut self, g: FormId) -> FormId {
        if let Some(&c) = self.canon.get(&g) {
            return c;
        }
        let opts: Vec<FormId> = self.nodes[g].clone();
        let copts: Vec<FormId> = opts.into_iter().map(|o| self.canonical(o)).collect();
        let h = self.game(copts);
        let mut result = h;
        'search: for &o in &self.nodes[h] {
            for &oo in &self.nodes[o] {
                if self.equals_simplest(h, oo) {
                    result = oo;
                    break 'search;
                }
            }
        }
        self.canon.insert(g, result);
        self.canon.insert(h, result);
        result
    }

    /// Whether `g` (with canonical options) equals the simplest form `s` (Grundy–Smith test).
    fn equals_simplest(&self, g: FormId, s: FormId) -> bool {
        let go = &self.nodes[g];
        let so = &self.nodes[s];
        if !so.iter().all(|x| go.binary_search(x).is_ok()) {
            return false;
        }
        if !go
            .iter()
            .filter(|x| so.binary_search(x).is_err())
            .all(|&x| self.nodes[x].binary_search(&s).is_ok())
        {
            return false;
        }
        if so.is_empty() {
            // end-game proviso: G = 0 only if G is an N-position
            return self.misere_grundy(g) != 0;
        }
        true
    }

    /// The mate: the mate of 0 is *1, of any other game the game of its options' mates.
    pub fn mate(&mut self, g: FormId) -> FormId {
        fn go(f: &mut Forms, g: FormId, memo: &mut FxHashMap<FormId, FormId>) -> FormId {
            if let Some(&v) = memo.get(&g) {
                return v;
            }
            let v = if f.nodes[g].is_empty() {
                f.nim(1)
            } else {
                let opts = f.nodes[g].clone();
                let m: Vec<FormId> = opts.into_iter().map(|o| go(f, o, memo)).collect();
                f.game(m)
            };
            memo.insert(g, v);
            v
        }
        let m = go(self, g, &mut FxHashMap::default());
        self.canonical(m)
    }

    /// The genus of a game: g and the misère values of G + i·*2 for i < [`crate::genus::GAMMA_LEN`].
    pub fn genus(&mut self, g: FormId) -> Genus {
        if let Some(x) = self.genera.get(&g) {
            return x.clone();
        }
        let two = self.nim(2);
        let mut x = g;
        let mut gamma = Vec::new();
        for _ in 0..crate::genus::GAMMA_LEN {
            let c = self.canonical(x);
            gamma.push(self.misere_grundy(c));
            x = self.sum(c, two);
        }
        let r = Genus::new(self.grundy(g), gamma);
        self.genera.insert(g, r.clone());
        r
    }

    /// The phylum of a game (from its canonical form): how its genus continues and prints.
    pub fn phylum(&mut self, g: FormId) -> crate::genus::Phylum {
        use crate::genus::Phylum;
        let c = self.canonical(g);
        if let Some(&p) = self.phyla.get(&c) {
            return p;
        }
        let genus = self.genus(c);
        let opts = self.nodes[c].clone();
        let ps: Vec<Phylum> = opts.into_iter().map(|o| self.phylum(o)).collect();
        let p = crate::genus::phylum_of(&genus, &ps);
        self.phyla.insert(c, p);
        p
    }

    /// A game in entry notation: `*[…]` with nim heaps for integers (re-parseable by
    /// [`Forms::parse`]); nim heaps print as `*[n]` at top level.
    pub fn entry_text(&self, g: FormId) -> String {
        if let Some(n) = self.nim_value_if_heap(g) {
            return format!("*[{n}]");
        }
        format!("*[{}]", self.list_text(g))
    }

    fn nim_value_if_heap(&self, g: FormId) -> Option<usize> {
        let opts = &self.nodes[g];
        for (i, &o) in opts.iter().enumerate() {
            if self.nim_value_if_heap(o) != Some(i) {
                return None;
            }
        }
        // options are sorted by id; heaps are created in order, so check all values present
        let mut vals: Vec<usize> = opts
            .iter()
            .filter_map(|&o| self.nim_value_if_heap(o))
            .collect();
        vals.sort_unstable();
        (vals == (0..opts.len()).collect::<Vec<_>>()).then_some(opts.len())
    }

    fn list_text(&self, g: FormId) -> String {
        self.nodes[g]
            .iter()
            .map(|&o| match self.nim_value_if_heap(o) {
                Some(n) => n.to_string(),
                None => format!("[{}]", self.list_text(o)),
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Everything about a game: canonical form, birthday, values, outcome, mate, genus.
    pub fn info(&mut self, g: FormId) -> FormInfo {
        let c = self.canonical(g);
        let m = self.mate(c);
        let mut genus = self.genus(c);
        genus.text = crate::genus::genus_text_in(genus.g, &genus.gamma, self.phylum(c));
        FormInfo {
            canonical: self.entry_text(c),
            birthday: self.birthday(c),
            misere_grundy: self.misere_grundy(c),
            grundy: self.grundy(g),
            outcome: self.outcome(c),
            mate: self.entry_text(m),
            genus,
        }
    }

    /// Parses CGSuite's entry notation (see the module documentation).
    pub fn parse(&mut self, text: &str) -> Result<FormId, MisereError> {
        let mut p = Parser {
            s: text.as_bytes(),
            i: 0,
            text,
        };
        let g = p.sum(self, true)?;
        p.skip_ws();
        if p.i != p.s.len() {
            return Err(p.err("unexpected text after the game"));
        }
        Ok(g)
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    text: &'a str,
}

impl Parser<'_> {
    fn err(&self, what: &str) -> MisereError {
        MisereError::Parse(format!(
            "game {}: {what} at character {}",
            grundy_core::text::quote(self.text),
            self.i + 1
        ))
    }
    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.i).copied()
    }
    /// term ('+' term)*
    fn sum(&mut self, f: &mut Forms, top: bool) -> Result<FormId, MisereError> {
        let mut g = self.term(f, top)?;
        while self.peek() == Some(b'+') {
            self.i += 1;
            let h = self.term(f, top)?;
            g = f.sum(g, h);
        }
        Ok(g)
    }
    fn term(&mut self, f: &mut Forms, top: bool) -> Result<FormId, MisereError> {
        match self.peek() {
            Some(b'*') => {
                self.i += 1;
                if self.peek() != Some(b'[') {
                    // *n
                    let n = self.number()?;
                    return Ok(f.nim(n));
                }
                self.i += 1;
                let items = self.items(f)?;
                // `*[x]` is x itself (`*[2]` the nim heap, `*[[2]]` the game {*2});
                // `*[x, y, …]` the game with those options
                if items.len() == 1 {
                    return Ok(match items[0] {
                        Item::Number(n) => f.nim(n),
                        Item::Game(g) => g,
                    });
                }
                Ok(self.build(f, items))
            }
            Some(b'[') => {
                self.i += 1;
                let items = self.items(f)?;
                Ok(self.build(f, items))
            }
            Some(c) if c.is_ascii_digit() => {
                let n = self.number()?;
                Ok(f.nim(n))
            }
            _ if top => Err(self.err("expected `*[`")),
            _ => Err(self.err("expected a number, `[` or `*[`")),
        }
    }
    fn build(&self, f: &mut Forms, items: Vec<Item>) -> FormId {
        let opts = items
            .into_iter()
            .map(|it| match it {
                Item::Number(n) => f.nim(n),
                Item::Game(g) => g,
            })
            .collect();
        f.game(opts)
    }
    /// Items up to and including the closing `]`.
    fn items(&mut self, f: &mut Forms) -> Result<Vec<Item>, MisereError> {
        let mut items = Vec::new();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(items);
        }
        loop {
            let start = self.i;
            let g = self.sum(f, false)?;
            // a bare number stays a number (for the top-level *[n] rule)
            let text = std::str::from_utf8(&self.s[start..self.i])
                .unwrap_or("")
                .trim();
            match text.parse::<u64>() {
                Ok(n) => items.push(Item::Number(n)),
                Err(_) => items.push(Item::Game(g)),
            }
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(items);
                }
                _ => return Err(self.err("expected `,` or `]`")),
            }
        }
    }
    fn number(&mut self) -> Result<u64, MisereError> {
        self.skip_ws();
        let start = self.i;
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
            self.i += 1;
        }
        let t = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        match t.parse::<u64>() {
            Ok(n) if n <= MAX_NIM_HEAP => Ok(n),
            Ok(_) => Err(self.err(&format!("nim heap larger than {MAX_NIM_HEAP}"))),
            Err(_) => Err(self.err("expected a number")),
        }
    }
}

enum Item {
    Number(u64),
    Game(FormId),
}
