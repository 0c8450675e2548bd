//! The alphabet of a race: its symbols and their exact probabilities.
//!
//! Probabilities are kept both as reduced fractions and as integer weights over one common
//! denominator (`p_c = weight_c / denominator`), so the fast paths work with integers only.

use crate::error::{PenneyError, Result};
use dashu::base::Gcd;
use dashu::integer::{IBig, UBig};
use dashu::rational::RBig;

/// Symbols with exact, positive probabilities summing to 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Alphabet {
    symbols: Vec<char>,
    probs: Vec<RBig>,
    weights: Vec<UBig>,
    denominator: UBig,
    uniform: bool,
}

impl Alphabet {
    /// Equally likely symbols, e.g. `"HT"` or `"123456"`.
    pub fn uniform(symbols: &str) -> Result<Self> {
        let syms: Vec<char> = symbols.chars().collect();
        let n = syms.len();
        let p = RBig::from_parts(IBig::ONE, UBig::from(n.max(1)));
        Self::build(syms, vec![p; n])
    }

    /// The fair coin `HT`.
    pub fn coin() -> Self {
        Self::uniform("HT").expect("HT is a valid alphabet")
    }

    /// Symbols with the given probabilities (same order).
    pub fn with_probabilities(symbols: &str, probs: Vec<RBig>) -> Result<Self> {
        let syms: Vec<char> = symbols.chars().collect();
        if syms.len() != probs.len() {
            return Err(PenneyError::NotApplicable(format!(
                "{} symbols but {} probabilities",
                syms.len(),
                probs.len()
            )));
        }
        Self::build(syms, probs)
    }

    /// Parses `"H=2/3,T=1/3"` (fractions or decimals); the symbols are taken in the order given.
    pub fn parse_probabilities(spec: &str) -> Result<Self> {
        let mut syms = String::new();
        let mut probs = Vec::new();
        for entry in spec.split(',') {
            let entry = entry.trim();
            let (sym, value) = entry
                .split_once('=')
                .ok_or_else(|| PenneyError::BadProbabilityEntry(entry.into()))?;
            let mut it = sym.trim().chars();
            let c = match (it.next(), it.next()) {
                (Some(c), None) => c,
                _ => return Err(PenneyError::BadProbabilityEntry(entry.into())),
            };
            syms.push(c);
            probs.push(parse_fraction(value.trim())?);
        }
        Self::with_probabilities(&syms, probs)
    }

    /// The alphabet a user describes by its symbols, its probabilities, both, or neither:
    /// neither gives the fair coin `HT`; symbols alone are equally likely; probabilities alone
    /// (`"H=2/3,T=1/3"`, see [`Alphabet::parse_probabilities`]) take their symbols in the
    /// order given; both must name the same symbols, and the order of `symbols` is kept.
    ///
    /// ```
    /// use grundy_penney::Alphabet;
    ///
    /// let a = Alphabet::from_spec(Some("TH"), Some("H=2/3,T=1/3"))?;
    /// assert_eq!(a.symbols_string(), "TH");
    /// assert_eq!(a.prob(0).to_string(), "1/3");
    /// assert!(Alphabet::from_spec(Some("123"), Some("H=1/2,T=1/2")).is_err());
    /// # Ok::<(), grundy_penney::PenneyError>(())
    /// ```
    pub fn from_spec(symbols: Option<&str>, probabilities: Option<&str>) -> Result<Self> {
        match (symbols, probabilities) {
            (None, None) => Ok(Self::coin()),
            (Some(a), None) => Self::uniform(a),
            (None, Some(p)) => Self::parse_probabilities(p),
            (Some(a), Some(p)) => {
                let al = Self::parse_probabilities(p)?;
                let mut given: Vec<char> = a.chars().collect();
                let mut probs: Vec<char> = al.symbols().to_vec();
                given.sort_unstable();
                probs.sort_unstable();
                if given != probs {
                    return Err(PenneyError::NotApplicable(format!(
                        "the probabilities give the symbols {} but the alphabet is {}",
                        crate::error::quote(&al.symbols_string()),
                        crate::error::quote(a)
                    )));
                }
                let ordered = a
                    .chars()
                    .map(|c| {
                        al.prob(al.symbols().iter().position(|&s| s == c).unwrap_or(0))
                            .clone()
                    })
                    .collect();
                Self::with_probabilities(a, ordered)
            }
        }
    }

    fn build(symbols: Vec<char>, probs: Vec<RBig>) -> Result<Self> {
        if symbols.is_empty() {
            return Err(PenneyError::EmptyAlphabet);
        }
        for (i, c) in symbols.iter().enumerate() {
            if symbols[..i].contains(c) {
                return Err(PenneyError::DuplicateSymbol(*c));
            }
        }
        for (c, p) in symbols.iter().zip(&probs) {
            if *p <= RBig::ZERO {
                return Err(PenneyError::NonPositiveProbability(*c, p.to_string()));
            }
        }
        let sum = probs.iter().fold(RBig::ZERO, |acc, p| acc + p);
        if sum != RBig::ONE {
            return Err(PenneyError::ProbabilitiesDoNotSumToOne(sum.to_string()));
        }
        let mut denominator = UBig::ONE;
        for p in &probs {
            let d = p.denominator();
            let g = (&denominator).gcd(d);
            denominator = &denominator / &g * d;
        }
        let weights = probs
            .iter()
            .map(|p| {
                let (num, den) = p.clone().into_parts();
                let num: UBig = num.try_into().expect("positive");
                num * (&denominator / den)
            })
            .collect();
        let uniform = probs.iter().all(|p| *p == probs[0]);
        Ok(Alphabet {
            symbols,
            probs,
            weights,
            denominator,
            uniform,
        })
    }

    /// Number of symbols.
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// Never true: an alphabet has at least one symbol.
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// The symbols, in order.
    pub fn symbols(&self) -> &[char] {
        &self.symbols
    }

    /// The symbols as a string.
    pub fn symbols_string(&self) -> String {
        self.symbols.iter().collect()
    }

    /// Probability of symbol `c`.
    pub fn prob(&self, c: usize) -> &RBig {
        &self.probs[c]
    }

    /// All probabilities.
    pub fn probs(&self) -> &[RBig] {
        &self.probs
    }

    /// Integer weight of symbol `c`: `prob(c) = weight(c) / denominator()`.
    pub fn weight(&self, c: usize) -> &UBig {
        &self.weights[c]
    }

    /// The common denominator of the probabilities.
    pub fn denominator(&self) -> &UBig {
        &self.denominator
    }

    /// Whether all symbols are equally likely.
    pub fn is_uniform(&self) -> bool {
        self.uniform
    }

    /// Symbol indices of `word`; errors name the first symbol outside the alphabet.
    pub fn encode(&self, word: &str) -> Result<Vec<usize>> {
        if word.is_empty() {
            return Err(PenneyError::EmptyPattern);
        }
        word.chars()
            .map(|ch| {
                self.symbols.iter().position(|&s| s == ch).ok_or_else(|| {
                    PenneyError::UnknownSymbol {
                        pattern: word.to_string(),
                        symbol: ch,
                        alphabet: self.symbols_string(),
                    }
                })
            })
            .collect()
    }

    /// The string of a word of symbol indices.
    pub fn decode(&self, word: &[usize]) -> String {
        word.iter().map(|&c| self.symbols[c]).collect()
    }

    /// Probability that `word` is the next `|word|` tosses.
    pub fn word_probability(&self, word: &[usize]) -> RBig {
        let mut num = UBig::ONE;
        for &c in word {
            num *= &self.weights[c];
        }
        RBig::from_parts(num.into(), self.denominator.pow(word.len()))
    }

    /// All `len^m` words of length `m` in lexicographic order of symbol indices, or an error if
    /// there are more than `limit`.
    pub fn all_words(&self, m: usize, limit: usize) -> Result<Vec<Vec<usize>>> {
        let count = u32::try_from(m)
            .ok()
            .and_then(|m| self.len().checked_pow(m))
            .filter(|&n| n <= limit)
            .ok_or_else(|| {
                PenneyError::TooLarge(format!(
                    "{}^{m} patterns of length {m} is more than the limit {limit}",
                    self.len()
                ))
            })?;
        let mut out = Vec::with_capacity(count);
        let mut w = vec![0usize; m];
        for _ in 0..count {
            out.push(w.clone());
            for i in (0..m).rev() {
                w[i] += 1;
                if w[i] < self.len() {
                    break;
                }
                w[i] = 0;
            }
        }
        Ok(out)
    }
}

/// Parses an exact fraction `a/b`, an integer, or a decimal `0.25`.
pub fn parse_fraction(text: &str) -> Result<RBig> {
    let bad = || PenneyError::BadProbability(text.to_string());
    if text.is_empty() || text.len() > 200 {
        return Err(bad());
    }
    if let Some((int, frac)) = text.split_once('.') {
        let neg = int.starts_with('-');
        let int_digits = int.trim_start_matches(['-', '+']);
        if !(int_digits.chars().all(|c| c.is_ascii_digit())
            && frac.chars().all(|c| c.is_ascii_digit())
            && !(int_digits.is_empty() && frac.is_empty()))
        {
            return Err(bad());
        }
        let digits = format!("{int_digits}{frac}");
        let num: UBig = digits.parse().map_err(|_| bad())?;
        let num = if neg {
            -IBig::from(num)
        } else {
            IBig::from(num)
        };
        return Ok(RBig::from_parts(num, UBig::from(10u8).pow(frac.len())));
    }
    let (num, den) = text.split_once('/').unwrap_or((text, "1"));
    let num: IBig = num.parse().map_err(|_| bad())?;
    let den: UBig = den.parse().map_err(|_| bad())?;
    if den.is_zero() {
        return Err(bad());
    }
    Ok(RBig::from_parts(num, den))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coin_and_weights() {
        let a = Alphabet::coin();
        assert_eq!(a.len(), 2);
        assert_eq!(a.denominator(), &UBig::from(2u8));
        assert_eq!(a.weight(0), &UBig::ONE);
        assert!(a.is_uniform());
    }

    #[test]
    fn parse_probs() {
        let a = Alphabet::parse_probabilities("H=2/3,T=1/3").unwrap();
        assert_eq!(a.symbols_string(), "HT");
        assert_eq!(a.denominator(), &UBig::from(3u8));
        assert_eq!(a.weight(0), &UBig::from(2u8));
        let b = Alphabet::parse_probabilities("a=0.5, b=0.25,c=1/4").unwrap();
        assert_eq!(b.prob(1).to_string(), "1/4");
        assert!(matches!(
            Alphabet::parse_probabilities("H=1/2,T=1/3"),
            Err(PenneyError::ProbabilitiesDoNotSumToOne(_))
        ));
        assert!(matches!(
            Alphabet::parse_probabilities("H=1,T=0"),
            Err(PenneyError::NonPositiveProbability('T', _))
        ));
        assert!(matches!(
            Alphabet::parse_probabilities("H=3/2,T=-1/2"),
            Err(PenneyError::NonPositiveProbability('T', _))
        ));
        assert!(Alphabet::parse_probabilities("H=x").is_err());
        assert!(Alphabet::parse_probabilities("H=1/0").is_err());
        assert!(Alphabet::parse_probabilities("HT=1").is_err());
        assert!(matches!(
            Alphabet::uniform("HH"),
            Err(PenneyError::DuplicateSymbol('H'))
        ));
        assert!(matches!(
            Alphabet::uniform(""),
            Err(PenneyError::EmptyAlphabet)
        ));
    }

    #[test]
    fn words() {
        let a = Alphabet::coin();
        assert_eq!(a.encode("HTT").unwrap(), vec![0, 1, 1]);
        assert!(a.encode("HXT").is_err());
        assert_eq!(a.all_words(3, 100).unwrap().len(), 8);
        assert!(a.all_words(40, 1 << 20).is_err());
        assert_eq!(a.word_probability(&[0, 1]).to_string(), "1/4");
    }
}
