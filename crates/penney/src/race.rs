//! A pattern race: an alphabet and the validated patterns that race to appear first.

use crate::alphabet::Alphabet;
use crate::error::{PenneyError, Result};
use crate::strings::AhoCorasick;

/// Patterns over one alphabet, validated: non-empty, distinct, symbols from the alphabet.
///
/// A pattern that contains another one can never appear strictly first (the contained one
/// appears no later); such a pattern is kept, marked in [`Race::blocked_by`], and given
/// probability 0 by every method.
#[derive(Clone, Debug)]
pub struct Race {
    alphabet: Alphabet,
    texts: Vec<String>,
    words: Vec<Vec<usize>>,
    blocked_by: Vec<Option<usize>>,
}

impl Race {
    /// Validates `patterns` over `alphabet`.
    pub fn new<S: AsRef<str>>(alphabet: Alphabet, patterns: &[S]) -> Result<Self> {
        if patterns.is_empty() {
            return Err(PenneyError::NoPatterns);
        }
        let mut words = Vec::with_capacity(patterns.len());
        let mut texts: Vec<String> = Vec::with_capacity(patterns.len());
        for p in patterns {
            let p = p.as_ref();
            if texts.iter().any(|t| t == p) {
                return Err(PenneyError::DuplicatePattern(p.to_string()));
            }
            words.push(alphabet.encode(p)?);
            texts.push(p.to_string());
        }
        Ok(Self::from_parts(alphabet, texts, words))
    }

    /// Builds a race from already encoded, distinct, non-empty words.
    pub fn from_words(alphabet: Alphabet, words: Vec<Vec<usize>>) -> Result<Self> {
        let texts: Vec<String> = words.iter().map(|w| alphabet.decode(w)).collect();
        Self::new(alphabet, &texts)
    }

    fn from_parts(alphabet: Alphabet, texts: Vec<String>, words: Vec<Vec<usize>>) -> Self {
        let ac = AhoCorasick::new(&words, alphabet.len());
        let mut blocked_by = vec![None; words.len()];
        for (i, w) in words.iter().enumerate() {
            // Walking w along its own trie path: any other word ending on the way is inside w.
            let mut v = 0;
            for (pos, &c) in w.iter().enumerate() {
                v = ac.goto(v, c);
                let found = if pos + 1 == w.len() {
                    ac.output(ac.fail(v))
                } else {
                    ac.output(v)
                };
                if let Some(j) = found {
                    blocked_by[i] = Some(j);
                    break;
                }
            }
        }
        Race {
            alphabet,
            texts,
            words,
            blocked_by,
        }
    }

    /// The alphabet.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// Number of patterns.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Never true: a race has at least one pattern.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Pattern `i` as symbol indices.
    pub fn word(&self, i: usize) -> &[usize] {
        &self.words[i]
    }

    /// All patterns as symbol indices.
    pub fn words(&self) -> &[Vec<usize>] {
        &self.words
    }

    /// Pattern `i` as text.
    pub fn text(&self, i: usize) -> &str {
        &self.texts[i]
    }

    /// All patterns as text.
    pub fn texts(&self) -> &[String] {
        &self.texts
    }

    /// `Some(j)` when pattern `i` contains pattern `j`, so `i` can never win.
    pub fn blocked_by(&self, i: usize) -> Option<usize> {
        self.blocked_by[i]
    }

    /// Indices of the patterns that can win (contain no other pattern).
    pub fn active(&self) -> Vec<usize> {
        (0..self.len())
            .filter(|&i| self.blocked_by[i].is_none())
            .collect()
    }

    /// Total length of all patterns.
    pub fn total_length(&self) -> usize {
        self.words.iter().map(Vec::len).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation() {
        let r = Race::new(Alphabet::coin(), &["HHTH", "HT", "TTT"]).unwrap();
        assert_eq!(r.blocked_by(0), Some(1));
        assert_eq!(r.active(), vec![1, 2]);
        let r = Race::new(Alphabet::coin(), &["THH", "HH"]).unwrap();
        assert_eq!(r.blocked_by(0), Some(1));
        assert_eq!(r.blocked_by(1), None);
        assert!(matches!(
            Race::new(Alphabet::coin(), &["HT", "HT"]),
            Err(PenneyError::DuplicatePattern(_))
        ));
        assert!(matches!(
            Race::new(Alphabet::coin(), &["HX"]),
            Err(PenneyError::UnknownSymbol { .. })
        ));
        assert!(matches!(
            Race::new(Alphabet::coin(), &[""]),
            Err(PenneyError::EmptyPattern)
        ));
        assert!(matches!(
            Race::new::<&str>(Alphabet::coin(), &[]),
            Err(PenneyError::NoPatterns)
        ));
    }
}
