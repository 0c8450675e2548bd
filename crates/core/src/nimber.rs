//! Nimbers: the field of Nim values, where addition is XOR and multiplication is the nim
//! product (Conway, *On Numbers and Games*, ch. 6).
//!
//! For a Fermat 2-power `F = 2^(2^k)`, the integers below `F²` form a field in which
//! `F ⊗ F = F ⊕ F/2` and `x ⊗ F` is the ordinary product for `x < F`. Writing `a = a₁F ⊕ a₀`,
//! products, inverses, squares and square roots of width `2n` reduce to three (Karatsuba) or
//! fewer operations of width `n`. At 16 bits the field has a cyclic multiplicative group of
//! order 65535, so the bottom level uses discrete log / antilog tables, built once and never
//! changed; multiplications by the top bit `2^15` are folded into the same lookups (an
//! added logarithm). Every `u32`, `u64` and `u128` result is exact.

use std::fmt;
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Sub, SubAssign};
use std::sync::OnceLock;

use crate::text::quote;

/// Order of the multiplicative group of the 16-bit nim field.
const ORDER: usize = 65535;

/// Discrete log and antilog tables of the 16-bit nim field.
struct Tables {
    /// `log[x]` for `x ≠ 0`: the exponent of `x` as a power of the generator.
    log: Vec<u16>,
    /// `exp[i]` = generator^i for `i < 2·ORDER + 1`, so sums of two logs need no reduction.
    exp: Vec<u16>,
    /// `log[0x8000]`, for multiplying by the top bit.
    log_top: usize,
    /// `log[0x8000 ⊗ 0x8000]`.
    log_top2: usize,
}

/// Nim product of `a, b < 2^bits` (`bits` a power of two ≤ 16) straight from the halving
/// rule; only builds the tables and serves as a reference in tests.
fn slow_mul(a: u32, b: u32, bits: u32) -> u32 {
    if bits == 1 {
        return a & b;
    }
    let h = bits / 2;
    let mask = (1u32 << h) - 1;
    let (a1, a0, b1, b0) = (a >> h, a & mask, b >> h, b & mask);
    let c0 = slow_mul(a0, b0, h);
    let c2 = slow_mul(a1, b1, h);
    let c1 = slow_mul(a0 ^ a1, b0 ^ b1, h);
    ((c1 ^ c0) << h) | (c0 ^ slow_mul(c2, 1 << (h - 1), h))
}

fn build_tables() -> Tables {
    let pow = |g: u32, mut e: usize| {
        let (mut r, mut b) = (1u32, g);
        while e > 0 {
            if e & 1 == 1 {
                r = slow_mul(r, b, 16);
            }
            b = slow_mul(b, b, 16);
            e >>= 1;
        }
        r
    };
    // 65535 = 3·5·17·257: g generates iff g^(65535/p) ≠ 1 for each prime p.
    let generator = (2u32..)
        .find(|&g| [3, 5, 17, 257].iter().all(|&p| pow(g, ORDER / p) != 1))
        .expect("the multiplicative group of a finite field is cyclic");
    let mut log = vec![0u16; ORDER + 1];
    let mut exp = vec![0u16; 2 * ORDER + 1];
    let mut x = 1u32;
    for (i, e) in exp.iter_mut().take(ORDER).enumerate() {
        *e = x as u16;
        log[x as usize] = i as u16;
        x = slow_mul(x, generator, 16);
    }
    for i in ORDER..exp.len() {
        exp[i] = exp[i - ORDER];
    }
    let log_top = usize::from(log[0x8000]);
    let log_top2 = 2 * log_top % ORDER;
    Tables {
        log,
        exp,
        log_top,
        log_top2,
    }
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

// 16-bit base operations on the log tables.

#[inline]
fn mul16(t: &Tables, a: u16, b: u16) -> u16 {
    if a == 0 || b == 0 {
        return 0;
    }
    t.exp[usize::from(t.log[usize::from(a)]) + usize::from(t.log[usize::from(b)])]
}

/// `x ⊗ 2^15`.
#[inline]
fn top16(t: &Tables, x: u16) -> u16 {
    if x == 0 {
        return 0;
    }
    t.exp[usize::from(t.log[usize::from(x)]) + t.log_top]
}

/// `a ⊗ b ⊗ 2^15` in one antilog lookup.
#[inline]
fn multop16(t: &Tables, a: u16, b: u16) -> u16 {
    mulpow16(t, a, b, t.log_top)
}

/// `a ⊗ b ⊗ g^shift` for the generator `g` (`shift < ORDER`), in one antilog lookup.
#[inline]
fn mulpow16(t: &Tables, a: u16, b: u16, shift: usize) -> u16 {
    if a == 0 || b == 0 {
        return 0;
    }
    let s = usize::from(t.log[usize::from(a)]) + usize::from(t.log[usize::from(b)]) + shift;
    t.exp[if s >= ORDER { s - ORDER } else { s }]
}

/// `x ⊗ 2^15 ⊗ 2^15` in one antilog lookup.
#[inline]
fn toptop16(t: &Tables, x: u16) -> u16 {
    if x == 0 {
        return 0;
    }
    t.exp[usize::from(t.log[usize::from(x)]) + t.log_top2]
}

#[inline]
fn square16(t: &Tables, x: u16) -> u16 {
    mul16(t, x, x)
}

#[inline]
fn inv16(t: &Tables, x: u16) -> u16 {
    debug_assert!(x != 0);
    t.exp[ORDER - usize::from(t.log[usize::from(x)])]
}

#[inline]
fn sqrt16(t: &Tables, x: u16) -> u16 {
    if x == 0 {
        return 0;
    }
    let l = usize::from(t.log[usize::from(x)]);
    // ORDER is odd, so 2 is invertible modulo it.
    t.exp[if l % 2 == 0 { l / 2 } else { (l + ORDER) / 2 }]
}

/// Defines the width-`2n` operations from the width-`n` ones (`F = 2^n`, `h = F/2`).
macro_rules! level {
    ($w:ty, $h:ty, $bits:expr, [$mul:ident, $top:ident, $multop:ident, $toptop:ident,
     $square:ident, $inv:ident, $sqrt:ident], [$hmul:ident, $htop:ident, $hmultop:ident,
     $htoptop:ident, $hsquare:ident, $hinv:ident, $hsqrt:ident]) => {
        #[inline]
        fn $mul(t: &Tables, a: $w, b: $w) -> $w {
            let (a1, a0) = ((a >> $bits) as $h, a as $h);
            let (b1, b0) = ((b >> $bits) as $h, b as $h);
            let c0 = $hmul(t, a0, b0);
            let c1 = $hmul(t, a0 ^ a1, b0 ^ b1);
            // (a₁F ⊕ a₀)(b₁F ⊕ b₀) = (c₁ ⊕ c₀)F ⊕ c₀ ⊕ a₁b₁⊗h, using F⊗F = F ⊕ h.
            ((<$w>::from(c1 ^ c0)) << $bits) | <$w>::from(c0 ^ $hmultop(t, a1, b1))
        }

        /// `a ⊗ b ⊗ 2^(2n-1)` (unused at the widest level).
        #[inline]
        #[allow(dead_code)]
        fn $multop(t: &Tables, a: $w, b: $w) -> $w {
            $top(t, $mul(t, a, b))
        }

        /// `x ⊗ 2^(2n-1) ⊗ 2^(2n-1)` (unused at the widest level).
        #[inline]
        #[allow(dead_code)]
        fn $toptop(t: &Tables, x: $w) -> $w {
            $top(t, $top(t, x))
        }

        /// `x ⊗ 2^(2n-1)` = `x ⊗ F ⊗ h` (unused at the widest level).
        #[inline]
        #[allow(dead_code)]
        fn $top(t: &Tables, x: $w) -> $w {
            let (x1, x0) = ((x >> $bits) as $h, x as $h);
            (<$w>::from($htop(t, x1 ^ x0)) << $bits) | <$w>::from($htoptop(t, x1))
        }

        #[inline]
        fn $square(t: &Tables, x: $w) -> $w {
            let (x1, x0) = ((x >> $bits) as $h, x as $h);
            let s1 = $hsquare(t, x1);
            (<$w>::from(s1) << $bits) | <$w>::from($htop(t, s1) ^ $hsquare(t, x0))
        }

        /// Inverse through the norm `N = x ⊗ x̄ = a₀(a₀ ⊕ a₁) ⊕ a₁²⊗h` of the half field,
        /// where the conjugate of `a₁F ⊕ a₀` is `a₁F ⊕ (a₀ ⊕ a₁)`. `x ≠ 0`.
        #[inline]
        fn $inv(t: &Tables, x: $w) -> $w {
            let (x1, x0) = ((x >> $bits) as $h, x as $h);
            let norm = $hmul(t, x0, x0 ^ x1) ^ $htop(t, $hsquare(t, x1));
            let ni = $hinv(t, norm);
            (<$w>::from($hmul(t, x1, ni)) << $bits) | <$w>::from($hmul(t, x0 ^ x1, ni))
        }

        /// `(s₁F ⊕ s₀)² = s₁²F ⊕ s₁²⊗h ⊕ s₀²`, solved for `s₁` then `s₀`.
        #[inline]
        fn $sqrt(t: &Tables, x: $w) -> $w {
            let (x1, x0) = ((x >> $bits) as $h, x as $h);
            let s1 = $hsqrt(t, x1);
            let s0 = $hsqrt(t, x0 ^ $htop(t, x1));
            (<$w>::from(s1) << $bits) | <$w>::from(s0)
        }
    };
}

level!(
    u32,
    u16,
    16,
    [
        mul32,
        top32,
        multop32_generic,
        toptop32,
        square32,
        inv32,
        sqrt32
    ],
    [mul16, top16, multop16, toptop16, square16, inv16, sqrt16]
);
/// `a ⊗ b ⊗ 2^31` straight from the 16-bit logs: with `h = 2^15` and `c₁ = (a₀⊕a₁)(b₀⊕b₁)`,
/// it is `(c₁h ⊕ a₁b₁h²)·2^16 ⊕ c₁h² ⊕ a₀b₀h²`, each term a single antilog lookup.
#[inline]
fn multop32(t: &Tables, a: u32, b: u32) -> u32 {
    let (a1, a0, b1, b0) = ((a >> 16) as u16, a as u16, (b >> 16) as u16, b as u16);
    let (x, y) = (a0 ^ a1, b0 ^ b1);
    let hi = multop16(t, x, y) ^ mulpow16(t, a1, b1, t.log_top2);
    let lo = mulpow16(t, x, y, t.log_top2) ^ mulpow16(t, a0, b0, t.log_top2);
    (u32::from(hi) << 16) | u32::from(lo)
}

level!(
    u64,
    u32,
    32,
    [mul64, top64, multop64, toptop64, square64, inv64, sqrt64],
    [mul32, top32, multop32, toptop32, square32, inv32, sqrt32]
);
level!(
    u128,
    u64,
    64,
    [mul128, top128, multop128, toptop128, square128, inv128, sqrt128],
    [mul64, top64, multop64, toptop64, square64, inv64, sqrt64]
);

/// A machine word that is a nim field: `u32` (GF(2^32)), `u64` (GF(2^64)) or `u128`
/// (GF(2^128)). Each is a subfield of the next, so results agree across widths.
pub trait NimWord: Copy + Eq + fmt::Debug {
    /// The nim product.
    fn nim_mul(self, other: Self) -> Self;
    /// The nim square (`self ⊗ self`), cheaper than a product.
    fn nim_square(self) -> Self;
    /// The nim inverse, `None` for 0.
    fn nim_inv(self) -> Option<Self>;
    /// The nim square root (every element has exactly one).
    fn nim_sqrt(self) -> Self;
}

macro_rules! word {
    ($w:ty, $mul:ident, $square:ident, $inv:ident, $sqrt:ident) => {
        impl NimWord for $w {
            #[inline]
            fn nim_mul(self, other: Self) -> Self {
                $mul(tables(), self, other)
            }
            #[inline]
            fn nim_square(self) -> Self {
                $square(tables(), self)
            }
            #[inline]
            fn nim_inv(self) -> Option<Self> {
                (self != 0).then(|| $inv(tables(), self))
            }
            #[inline]
            fn nim_sqrt(self) -> Self {
                $sqrt(tables(), self)
            }
        }
    };
}

word!(u32, mul32, square32, inv32, sqrt32);
word!(u64, mul64, square64, inv64, sqrt64);
word!(u128, mul128, square128, inv128, sqrt128);

/// Nim product of two 64-bit nimbers.
pub fn nim_mul64(a: u64, b: u64) -> u64 {
    a.nim_mul(b)
}

/// Nim product of two 128-bit nimbers.
pub fn nim_mul128(a: u128, b: u128) -> u128 {
    a.nim_mul(b)
}

/// A nimber `*n`: `+` and `-` are XOR (nim-sum), `*` is the nim product, `/` the nim quotient.
///
/// `T` is `u32`, `u64` or `u128` ([`NimWord`]). Division by zero panics like integer division;
/// [`Nimber::inv`] and [`Nimber::checked_div`] return `None` instead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nimber<T = u64>(pub T);

impl<T: NimWord> Nimber<T> {
    /// The multiplicative inverse, `None` for 0.
    pub fn inv(self) -> Option<Self> {
        self.0.nim_inv().map(Nimber)
    }

    /// `self / rhs`, `None` when `rhs` is 0.
    pub fn checked_div(self, rhs: Self) -> Option<Self> {
        rhs.inv().map(|r| self * r)
    }

    /// `self ⊗ self`.
    pub fn square(self) -> Self {
        Nimber(self.0.nim_square())
    }

    /// The unique square root (squaring is a bijection in characteristic 2).
    pub fn sqrt(self) -> Self {
        Nimber(self.0.nim_sqrt())
    }

    /// `self` to the power `e` (nim products), by repeated squaring.
    pub fn pow(self, mut e: u128) -> Self
    where
        T: From<u8>,
    {
        let mut result = Nimber(T::from(1u8));
        let mut base = self;
        while e > 0 {
            if e & 1 == 1 {
                result *= base;
            }
            base = base.square();
            e >>= 1;
        }
        result
    }
}

impl<T: NimWord + std::ops::BitXor<Output = T>> Add for Nimber<T> {
    type Output = Self;
    #[allow(clippy::suspicious_arithmetic_impl)] // nim addition is XOR
    fn add(self, rhs: Self) -> Self {
        Nimber(self.0 ^ rhs.0)
    }
}

impl<T: NimWord + std::ops::BitXor<Output = T>> Sub for Nimber<T> {
    type Output = Self;
    /// Subtraction equals addition in characteristic 2.
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn sub(self, rhs: Self) -> Self {
        Nimber(self.0 ^ rhs.0)
    }
}

impl<T: NimWord> Mul for Nimber<T> {
    type Output = Self;
    fn mul(self, rhs: Self) -> Self {
        Nimber(self.0.nim_mul(rhs.0))
    }
}

impl<T: NimWord> Div for Nimber<T> {
    type Output = Self;
    fn div(self, rhs: Self) -> Self {
        self.checked_div(rhs).expect("nimber division by zero")
    }
}

impl<T: NimWord + std::ops::BitXor<Output = T>> AddAssign for Nimber<T> {
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl<T: NimWord + std::ops::BitXor<Output = T>> SubAssign for Nimber<T> {
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}

impl<T: NimWord> MulAssign for Nimber<T> {
    fn mul_assign(&mut self, rhs: Self) {
        *self = *self * rhs;
    }
}

impl<T: fmt::Display> fmt::Display for Nimber<T> {
    /// `*n`, the notation of the literature.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "*{}", self.0)
    }
}

/// A nimber operation, as named on the command line: `add`, `mul`, `div`, `inv`, `sqrt` or
/// `pow`. Serializes as that name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// Nim-sum `a ⊕ b` (XOR).
    Add,
    /// Nim product `a ⊗ b`.
    Mul,
    /// Nim quotient `a ⊘ b` (`b ≠ 0`).
    Div,
    /// Nim inverse of `a` (`a ≠ 0`).
    Inv,
    /// Nim square root of `a` (every nimber has exactly one).
    Sqrt,
    /// `a` to the ordinary integer power `e`, by nim products.
    Pow,
}

impl Op {
    /// Every operation, in the order of the help text.
    pub const ALL: [Op; 6] = [Op::Add, Op::Mul, Op::Div, Op::Inv, Op::Sqrt, Op::Pow];

    /// The operation named `name`, or an error naming it.
    pub fn parse(name: &str) -> Result<Op, NimberError> {
        Op::ALL
            .into_iter()
            .find(|op| op.name() == name)
            .ok_or_else(|| NimberError::UnknownOp(name.to_string()))
    }

    /// Its name on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Op::Add => "add",
            Op::Mul => "mul",
            Op::Div => "div",
            Op::Inv => "inv",
            Op::Sqrt => "sqrt",
            Op::Pow => "pow",
        }
    }

    /// How many operands it takes (1 or 2).
    pub fn arity(self) -> usize {
        match self {
            Op::Inv | Op::Sqrt => 1,
            _ => 2,
        }
    }
}

/// Why a nimber calculation was rejected; each names the offending token, escaped by
/// [`crate::text::quote`] so that the message stays on one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NimberError {
    /// Not one of the operations of [`Op`].
    #[error("unknown operation {} (expected add, mul, div, inv, sqrt or pow)", quote(.0))]
    UnknownOp(String),
    /// The wrong number of operands.
    #[error(
        "'{}' takes {arity} value{}, got {got}{}",
        op.name(),
        if *arity == 1 { "" } else { "s" },
        extra.as_deref().map(|t| format!(": unexpected {}", quote(t))).unwrap_or_default()
    )]
    Arity {
        /// The operation.
        op: Op,
        /// Operands it takes.
        arity: usize,
        /// Operands given.
        got: usize,
        /// The first operand too many, if any.
        extra: Option<String>,
    },
    /// An operand that is not a decimal number.
    #[error("{} is not a number", quote(.0))]
    NotANumber(String),
    /// A negative operand.
    #[error("negative value {}: nimbers are 0 or more", quote(.0))]
    Negative(String),
    /// An operand of 2^128 or more.
    #[error("{} is larger than the largest nimber 2^128 - 1", quote(.0))]
    TooLarge(String),
    /// A divisor (or the argument of `inv`) that is 0.
    #[error("{} is 0, which has no nim inverse (division by zero)", quote(.0))]
    NoInverse(String),
}

/// Parses a decimal value below 2^128, naming the token on failure.
pub fn parse_value(token: &str) -> Result<u128, NimberError> {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if digits(token) {
        return token
            .parse()
            .map_err(|_| NimberError::TooLarge(token.to_string()));
    }
    if token.strip_prefix('-').is_some_and(digits) {
        return Err(NimberError::Negative(token.to_string()));
    }
    Err(NimberError::NotANumber(token.to_string()))
}

/// The answer to one nimber calculation: what `grundy nimber --json` prints.
///
/// Serializes as `{"op", "operands", "result"}`, the values as decimal strings (they reach
/// 2^128, far past what a JSON number holds exactly).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Calculation {
    /// The operation.
    pub op: Op,
    /// Its operands (for `pow`, the base and the ordinary exponent).
    #[serde(serialize_with = "crate::text::json_u128_str_seq")]
    pub operands: Vec<u128>,
    /// The result.
    #[serde(serialize_with = "crate::text::json_u128_str")]
    pub result: u128,
}

/// Parses an operation and its operands as typed and computes it in GF(2^128).
///
/// ```
/// use grundy_core::nimber::{calculate, Op};
///
/// let c = calculate("mul", &["21508", "42689"]).unwrap();
/// assert_eq!((c.op, c.result), (Op::Mul, 35202));
/// assert!(calculate("div", &["5", "0"]).unwrap_err().to_string().contains("'0'"));
/// ```
pub fn calculate(op: &str, operands: &[&str]) -> Result<Calculation, NimberError> {
    let op = Op::parse(op)?;
    let arity = op.arity();
    if operands.len() != arity {
        return Err(NimberError::Arity {
            op,
            arity,
            got: operands.len(),
            extra: operands.get(arity).map(|t| t.to_string()),
        });
    }
    let values = operands
        .iter()
        .map(|t| parse_value(t))
        .collect::<Result<Vec<_>, _>>()?;
    let a = Nimber(values[0]);
    let zero = |i: usize| NimberError::NoInverse(operands[i].to_string());
    let result = match op {
        Op::Add => a + Nimber(values[1]),
        Op::Mul => a * Nimber(values[1]),
        Op::Div => a.checked_div(Nimber(values[1])).ok_or_else(|| zero(1))?,
        Op::Inv => a.inv().ok_or_else(|| zero(0))?,
        Op::Sqrt => a.sqrt(),
        Op::Pow => a.pow(values[1]),
    };
    Ok(Calculation {
        op,
        operands: values,
        result: result.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nim product from the definition: the mex of a'b ⊕ ab' ⊕ a'b' over a' < a, b' < b.
    fn mex_table(n: usize) -> Vec<Vec<u32>> {
        let mut t = vec![vec![0u32; n]; n];
        for a in 0..n {
            for b in 0..n {
                let mut seen = vec![false; 4 * n + 2];
                for a2 in 0..a {
                    for b2 in 0..b {
                        let v = t[a2][b] ^ t[a][b2] ^ t[a2][b2];
                        seen[v as usize] = true;
                    }
                }
                t[a][b] = seen.iter().position(|&s| !s).unwrap() as u32;
            }
        }
        t
    }

    #[test]
    fn agrees_with_the_mex_definition() {
        let t = mex_table(64);
        for a in 0..64u32 {
            for b in 0..64u32 {
                assert_eq!(slow_mul(a, b, 8), t[a as usize][b as usize]);
                assert_eq!(
                    u64::from(a).nim_mul(u64::from(b)),
                    u64::from(t[a as usize][b as usize])
                );
            }
        }
    }

    #[test]
    fn sixteen_bit_base_agrees_with_slow_rule() {
        let t = tables();
        let mut x = 12345u32;
        for _ in 0..20000 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let (a, b) = ((x >> 3) as u16, (x >> 17) as u16);
            assert_eq!(
                u32::from(mul16(t, a, b)),
                slow_mul(u32::from(a), u32::from(b), 16)
            );
        }
        assert_eq!(u32::from(top16(t, 777)), slow_mul(777, 0x8000, 16));
    }

    #[test]
    fn fused_32_bit_operations_agree_with_the_slow_rule() {
        let t = tables();
        let mut x = 987_654_321u64;
        for _ in 0..3000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (a, b) = (x as u32, (x >> 32) as u32);
            let p = slow_mul(a, b, 32);
            assert_eq!(mul32(t, a, b), p);
            assert_eq!(multop32(t, a, b), slow_mul(p, 1 << 31, 32));
            assert_eq!(multop32(t, a, b), multop32_generic(t, a, b));
            assert_eq!(
                toptop32(t, a),
                slow_mul(slow_mul(a, 1 << 31, 32), 1 << 31, 32)
            );
        }
    }
}
