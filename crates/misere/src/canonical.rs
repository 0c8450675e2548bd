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
    values: FxHashMap<FormId, (u32, u32)>,
    genera: FxHashMap<FormId, Genus>,
    differences: FxHashMap<(FormId, FormId), Option<FormId>>,
    texts: FxHashMap<FormId, Text>,
    classes: FxHashMap<FormId, Class>,
}

/// The tame / restive / restless classification (Conway, ONAG ch. 12; Winning Ways ch. 13),
/// as CGSuite's `IsTame`, `IsRestive` and `IsRestless` decide it: read off the game's
/// [`crate::genus::Phylum`] (nim heap or hereditarily tame; hereditarily restive; restless).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Every position (the game and all its followers) has a tame genus: 0^1 (like 0),
    /// 1^0 (like *1), or g^g, with γ continuing g ⊕ 2, g, g ⊕ 2, …. Tame games add like nim
    /// heaps in misère play.
    Tame,
    /// Not tame, every option tame, and normal value 0 or 1.
    Restive,
    /// Not tame, every option generally tame (tame, or reversibly tame), normal value 2 or
    /// more, and misère value 0 or 1.
    Restless,
    /// Anything else (an option that is not tame, or neither value 0 or 1).
    Other,
}

/// A game's text in output notation, split so that a subscript can be appended to it.
#[derive(Clone, Debug)]
struct Text {
    /// A nim heap's number, or a game of several options in parentheses.
    base: String,
    /// The options run together, when the game is printed by its options (no subscript).
    list: Option<String>,
    /// The subscript tokens read left to right: `#` (the game whose only option is what came
    /// before), `n` (plus the nim heap *n).
    sub: Vec<String>,
}

impl Text {
    fn render(&self) -> String {
        if self.sub.is_empty() {
            return self.base.clone();
        }
        let sub: String = self.sub.concat();
        if self.sub.iter().all(|t| t == "#") {
            format!("{}{sub}", self.base)
        } else {
            format!("{}[{sub}]", self.base)
        }
    }
    fn with(&self, token: String) -> Text {
        let mut t = self.clone();
        t.list = None;
        t.sub.push(token);
        t
    }
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
    pub grundy: u64,
    /// The misère outcome.
    pub outcome: Outcome,
    /// The mate (0 ↔ *1 at the leaves), canonical, in entry notation.
    pub mate: String,
    /// The genus.
    pub genus: Genus,
    /// The canonical form in CGSuite's output notation (`*[2#0]`; see [`Forms::output_text`]).
    pub text: String,
    /// The mate in output notation.
    pub mate_text: String,
    /// Tame, restive, restless or other (hereditary, as CGSuite's `IsTame`, `IsRestive`,
    /// `IsRestless`).
    pub class: Class,
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

    /// The phylum of a game, decided on its canonical form by CGSuite's rule
    /// ([`crate::genus::classify`]); an odd game has the phylum of its even part.
    pub fn phylum(&mut self, g: FormId) -> crate::genus::Phylum {
        use crate::genus::{classify, OptionFacts};
        let c = self.canonical(g);
        if let Some(&p) = self.phyla.get(&c) {
            return p;
        }
        let e = self.even_part(c);
        let p = if e != c {
            self.phylum(e)
        } else {
            let opts = self.nodes[c].clone();
            let mut facts = Vec::with_capacity(opts.len());
            for o in opts {
                let phylum = self.phylum(o);
                let values = self.values(o);
                let eo = self.even_part(o);
                let even_values = self.values(eo);
                let mut second = Vec::new();
                if !phylum.is_generally_tame() {
                    for y in self.nodes[o].clone() {
                        second.push((self.phylum(y), self.values(y)));
                    }
                }
                facts.push(OptionFacts {
                    phylum,
                    values,
                    even_values,
                    second,
                });
            }
            let (gp, gm) = self.values(c);
            classify(gp, gm, &facts)
        };
        self.phyla.insert(c, p);
        p
    }

    /// The normal and misère Grundy values (g+, g−) of a game, memoised.
    fn values(&mut self, g: FormId) -> (u32, u32) {
        if let Some(&v) = self.values.get(&g) {
            return v;
        }
        let opts = self.nodes[g].clone();
        let vals: Vec<(u32, u32)> = opts.into_iter().map(|o| self.values(o)).collect();
        let plus: Vec<u64> = vals.iter().map(|v| v.0 as u64).collect();
        let minus: Vec<u64> = vals.iter().map(|v| v.1 as u64).collect();
        let v = (
            mex(&plus) as u32,
            if vals.is_empty() {
                1
            } else {
                mex(&minus) as u32
            },
        );
        self.values.insert(g, v);
        v
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
            grundy: u64::from(self.grundy(g)),
            outcome: self.outcome(c),
            mate: self.entry_text(m),
            genus,
            text: self.output_text(c),
            mate_text: self.output_text(m),
            class: self.class(c),
        }
    }

    /// The misère sum G + H in canonical form: the disjunctive sum, then simplified.
    pub fn plus(&mut self, g: FormId, h: FormId) -> FormId {
        let (g, h) = (self.canonical(g), self.canonical(h));
        let s = self.sum(g, h);
        self.canonical(s)
    }

    /// The misère difference G − H: the game X with X + H = G, when there is one.
    ///
    /// In misère play G + G is not 0 (*2 + *2 is a P-position but not equal to 0), so
    /// G + H is no difference, and "G − H" means what it means in CGSuite (`MisereMinus`):
    /// the solution of X + H = G, which is unique when it exists because the misère monoid of
    /// canonical forms is cancellative (Conway, ONAG ch. 12). The search here builds X's
    /// options from differences of followers (G′ − H, G′ − H′, G − H′), tries the candidate
    /// sets from the largest down, and returns X only after checking X + H = G exactly;
    /// `None` means that no such X was found (CGSuite would say "not subtractable").
    pub fn minus(&mut self, g: FormId, h: FormId) -> Option<FormId> {
        let (g, h) = (self.canonical(g), self.canonical(h));
        self.diff(g, h, 0)
    }

    fn diff(&mut self, g: FormId, h: FormId, depth: u32) -> Option<FormId> {
        if self.nodes[h].is_empty() {
            return Some(g);
        }
        if g == h {
            return Some(self.game(vec![]));
        }
        if let Some(&d) = self.differences.get(&(g, h)) {
            return d;
        }
        if depth > 24 {
            return None;
        }
        // a guard against cycles: a pair being computed has no difference meanwhile
        self.differences.insert((g, h), None);
        let mut pool: Vec<FormId> = Vec::new();
        let gs = self.nodes[g].clone();
        let hs = self.nodes[h].clone();
        for &x in &gs {
            if let Some(d) = self.diff(x, h, depth + 1) {
                pool.push(d);
            }
            for &y in &hs {
                if let Some(d) = self.diff(x, y, depth + 1) {
                    pool.push(d);
                }
            }
        }
        for &y in &hs {
            if let Some(d) = self.diff(g, y, depth + 1) {
                pool.push(d);
            }
        }
        pool.sort_unstable();
        pool.dedup();
        let mut found = None;
        if pool.len() <= 12 {
            // subsets, largest first
            let n = pool.len();
            let mut masks: Vec<u32> = (0..1u32 << n).collect();
            masks.sort_by_key(|m| std::cmp::Reverse(m.count_ones()));
            for m in masks {
                let opts: Vec<FormId> = (0..n)
                    .filter(|i| m >> i & 1 == 1)
                    .map(|i| pool[i])
                    .collect();
                let x = self.game(opts);
                let x = self.canonical(x);
                let s = self.sum(x, h);
                if self.canonical(s) == g {
                    found = Some(x);
                    break;
                }
            }
        } else {
            let x = self.game(pool);
            let x = self.canonical(x);
            let s = self.sum(x, h);
            if self.canonical(s) == g {
                found = Some(x);
            }
        }
        self.differences.insert((g, h), found);
        found
    }

    /// Whether a game is even: its canonical form is born before that of G + *1 (CGSuite's
    /// `IsEven`; every game is even or odd, and an odd game is an even one plus *1).
    pub fn is_even(&mut self, g: FormId) -> bool {
        let g = self.canonical(g);
        let one = self.nim(1);
        let s = self.sum(g, one);
        let s = self.canonical(s);
        self.birthday(g) < self.birthday(s)
    }

    fn even_part(&mut self, g: FormId) -> FormId {
        if self.is_even(g) {
            g
        } else {
            let one = self.nim(1);
            let s = self.sum(g, one);
            self.canonical(s)
        }
    }

    /// CGSuite's canonical order of canonical forms, by the even part's birthday, number of
    /// options, normal value, misère value and options, then even before odd.
    fn order(&mut self, a: FormId, b: FormId) -> std::cmp::Ordering {
        if a == b {
            return std::cmp::Ordering::Equal;
        }
        let (ea, eb) = (self.even_part(a), self.even_part(b));
        let ka = (
            self.birthday(ea),
            self.nodes[ea].len(),
            self.grundy(ea),
            self.misere_grundy(ea),
        );
        let kb = (
            self.birthday(eb),
            self.nodes[eb].len(),
            self.grundy(eb),
            self.misere_grundy(eb),
        );
        ka.cmp(&kb)
            .then_with(|| {
                if ea == eb {
                    return std::cmp::Ordering::Equal;
                }
                let oa = self.sorted_options(ea);
                let ob = self.sorted_options(eb);
                for (x, y) in oa.iter().zip(&ob) {
                    let o = self.order(*x, *y);
                    if o != std::cmp::Ordering::Equal {
                        return o;
                    }
                }
                oa.len().cmp(&ob.len())
            })
            .then_with(|| {
                let (va, vb) = (self.is_even(a), self.is_even(b));
                vb.cmp(&va)
            })
    }

    fn sorted_options(&mut self, g: FormId) -> Vec<FormId> {
        let mut o = self.nodes[g].clone();
        // insertion sort: the comparator needs `&mut self`
        for i in 1..o.len() {
            let mut j = i;
            while j > 0 && self.order(o[j - 1], o[j]) == std::cmp::Ordering::Greater {
                o.swap(j - 1, j);
                j -= 1;
            }
        }
        o
    }

    /// A canonical form in CGSuite's output notation (Winning Ways' and ONAG's): `*[…]` around
    /// a nim heap's number (`*[2]`) or the game's options run together, largest first in
    /// CGSuite's canonical order (`*[2#0]`: the options 2# and 0). Inside, an option of
    /// several options is parenthesised (`(2#1)2##`), a game whose only option is X is X
    /// followed by `#` (`2#`, `2##`), and X + *n is X with the subscript n, written in
    /// brackets (`2[2]` is *2 + *2, `(2#1)[1]` is (2#1) + *1). Subscripts read left to right
    /// (`2[#2#]` is the game whose only option is 2# + *2) and are run together without
    /// brackets when they are all `#`. An odd game is printed as its even part with the
    /// subscript 1, and a game is printed as X + *n (n ≥ 2, the smallest such n) when the
    /// difference G − *n is found ([`Forms::minus`]), or as Y − *n (the subscript `-n`:
    /// `2[##-2]` is 2## − *2) when Y = G + *n is born before G. Nim heaps of 10 or more, which
    /// CGSuite's test data never shows inside a form, are written in braces (`{12}`): this
    /// crate's choice, not CGSuite's.
    pub fn output_text(&mut self, g: FormId) -> String {
        let g = self.canonical(g);
        let t = self.text_of(g);
        match (&t.list, t.sub.is_empty()) {
            (Some(list), true) => format!("*[{list}]"),
            _ => format!("*[{}]", t.render()),
        }
    }

    fn text_of(&mut self, g: FormId) -> Text {
        if let Some(t) = self.texts.get(&g) {
            return t.clone();
        }
        let t = self.compute_text(g);
        self.texts.insert(g, t.clone());
        t
    }

    fn compute_text(&mut self, g: FormId) -> Text {
        if let Some(n) = self.nim_value_if_heap(g) {
            let base = if n < 10 {
                n.to_string()
            } else {
                format!("{{{n}}}")
            };
            return Text {
                base,
                list: None,
                sub: vec![],
            };
        }
        let opts = self.nodes[g].clone();
        if opts.len() == 1 {
            return self.text_of(opts[0]).with("#".into());
        }
        if !self.is_even(g) {
            let e = self.even_part(g);
            return self.text_of(e).with("1".into());
        }
        let b = self.birthday(g) as u64;
        for n in 2..b.min(10) {
            let heap = self.nim(n);
            if let Some(x) = self.diff(g, heap, 0) {
                if self.birthday(x) < self.birthday(g) {
                    return self.text_of(x).with(n.to_string());
                }
            }
        }
        // G = Y − *n where Y = G + *n is born earlier: Y with the subscript -n
        for n in 2..b.min(10) {
            let heap = self.nim(n);
            let y = self.sum(g, heap);
            let y = self.canonical(y);
            if self.birthday(y) < self.birthday(g) {
                return self.text_of(y).with(format!("-{n}"));
            }
        }
        let mut sorted = self.sorted_options(g);
        sorted.reverse();
        let mut list = String::new();
        for o in sorted {
            let t = self.text_of(o);
            if t.list.is_some() && t.sub.is_empty() {
                list.push_str(&t.base);
            } else {
                list.push_str(&t.render());
            }
        }
        Text {
            base: format!("({list})"),
            list: Some(list),
            sub: vec![],
        }
    }

    /// The classification of a game ([`Class`]), decided on its canonical form.
    pub fn class(&mut self, g: FormId) -> Class {
        let c = self.canonical(g);
        if let Some(&k) = self.classes.get(&c) {
            return k;
        }
        use crate::genus::Phylum;
        let k = match self.phylum(c) {
            Phylum::NimHeap | Phylum::HereditarilyTame => Class::Tame,
            Phylum::HereditarilyRestive => Class::Restive,
            Phylum::Restless => Class::Restless,
            _ => Class::Other,
        };
        self.classes.insert(c, k);
        k
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
