//! Equivalences between take-and-break codes that need no computation: the first-cousin
//! relation of Winning Ways (ch. 4) and identical move sets.
//!
//! **First cousins.** When d1 is even, a heap of one token has no move (it could only be
//! taken whole, which needs bit 0 of d1), so it is worth nothing, and a heap of `n + 1` tokens
//! of the code `A = ·d1d2…` plays exactly like a heap of `n` tokens of its cousin `B`, where a
//! heap of 1 in `A` corresponds to no heap at all. Each move of `A` maps to moves of `B`:
//!
//! * bit 0 of d_j (take a whole heap of j): B takes a whole heap of j − 1 (bit 0 of e_{j−1});
//! * bit k ≥ 1 of d_j (remove j, leave k heaps, each ≥ 1): in `B` the k heaps are one
//!   smaller, each ≥ 0, so B removes j + k − 1 and leaves any number of heaps from 0 to k:
//!   e_{j+k−1} gains the bits 0..=k (2^(k+1) − 1: 3, 7, 15, 31).
//!
//! So G_A(n + 1) = G_B(n) for every n ≥ 0, and G_A(0) = G_A(1) = 0 (`·45` and `·177`,
//! `·07` Dawson's Kayles and `·137` Dawson's chess). Applying the map while the first digit is
//! even reaches a code with d1 odd, its **root**, in at most about twice the code's length
//! steps (the first nonzero digit moves one place left every one or two steps); a code
//! reaching root R in k steps has G(n) = G_R(n − k) for n ≥ k and 0 below. Two codes with the
//! same root are therefore equivalent, with the difference of their step counts as the shift
//! (`·26` and `·27` share a root in one step each: identical sequences).
//!
//! **Identical moves.** Trailing zero digits and the spelling of a rule (`kayles`, `0.77`,
//! `0.770`) change nothing: [`key`] is the normalised code.
//!
//! Both hold for unconstrained finite codes (no `!`, `?`, `=` and no repeating part); other
//! rules are compared by their normalised code only.

use grundy_heap::{Constraint, Rule, TakeBreak};

/// The masks of an unconstrained finite code, `masks[0]` being the digit before the point,
/// without trailing zeros; `None` for codes with constraints or a repeating part.
pub fn masks(code: &TakeBreak) -> Option<Vec<u8>> {
    if !code.is_finite() || code.digits.iter().any(|d| d.constraint != Constraint::Any) {
        return None;
    }
    let mut m: Vec<u8> = code.digits.iter().map(|d| d.mask).collect();
    while m.len() > 1 && m.last() == Some(&0) {
        m.pop();
    }
    if m.is_empty() {
        m.push(0);
    }
    Some(m)
}

/// The first cousin of `masks` (see the module documentation), when d1 is even and the code
/// has a move at all; `None` otherwise. The result has d0 = 0.
pub fn cousin(masks: &[u8]) -> Option<Vec<u8>> {
    let d = |j: usize| masks.get(j).copied().unwrap_or(0);
    // d0 may only split (bits 2 and up); a heap of one must have no move.
    if d(0) & 0b11 != 0 || d(1) & 1 != 0 || masks.iter().all(|&m| m == 0) {
        return None;
    }
    let mut e = vec![0u8; masks.len() + 4];
    for (j, &m) in masks.iter().enumerate() {
        for k in 0..5 {
            if m & (1 << k) == 0 {
                continue;
            }
            if k == 0 {
                // j ≥ 2 here: bit 0 of d0 is refused above and bit 0 of d1 too.
                e[j - 1] |= 1;
            } else {
                e[j + k - 1] |= ((1u16 << (k + 1)) - 1) as u8;
            }
        }
    }
    while e.len() > 1 && e.last() == Some(&0) {
        e.pop();
    }
    Some(e)
}

/// The root of `masks` under the first-cousin map and the number of steps to it: G(n) =
/// G_root(n − steps) for n ≥ steps, 0 below.
pub fn root(masks: &[u8]) -> (Vec<u8>, u64) {
    let mut cur = masks.to_vec();
    let mut steps = 0u64;
    // The map ends (module documentation); the cap only guards against a mistake.
    let cap = 4 * masks.len() as u64 + 16;
    while steps < cap {
        match cousin(&cur) {
            Some(next) => {
                cur = next;
                steps += 1;
            }
            None => break,
        }
    }
    (cur, steps)
}

/// The code of `masks` in CGSuite's notation (`0.137`, `4.07`; hexadecimal digits as `A`–`V`).
pub fn format_masks(masks: &[u8]) -> String {
    let digit = |m: u8| char::from_digit(u32::from(m), 32).map_or('?', |c| c.to_ascii_uppercase());
    let mut s = String::new();
    s.push(digit(masks.first().copied().unwrap_or(0)));
    s.push('.');
    if masks.len() < 2 {
        s.push('0');
    }
    for &m in masks.iter().skip(1) {
        s.push(digit(m));
    }
    s
}

/// What identifies a rule's sequence without computing it: the normalised code and the index
/// shift (G_rule(n) = G_key(n + shift)), or the rule's own text for rules without a code.
pub fn key(rule: &Rule) -> (String, u64) {
    let (base, shift) = rule.base_and_shift();
    match base.take_break() {
        Some(code) => match masks(&code) {
            Some(m) => (format_masks(&m), shift),
            None => (grundy_heap::rule::format_code(&code), shift),
        },
        None => (base.to_string(), shift),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_heap::rule::parse_code;

    fn m(code: &str) -> Vec<u8> {
        masks(&parse_code(code).unwrap()).unwrap()
    }

    #[test]
    fn winning_ways_cousins() {
        // Dawson's Kayles is Dawson's chess one heap later; ·45 and ·177 are first cousins.
        assert_eq!(cousin(&m("0.07")), Some(m("0.137")));
        assert_eq!(cousin(&m("0.45")), Some(m("0.177")));
        assert_eq!(cousin(&m("0.4")), Some(m("0.07")));
        assert_eq!(root(&m("0.4")), (m("0.137"), 2));
        // ·26 and ·27 share their cousin.
        assert_eq!(cousin(&m("0.26")), cousin(&m("0.27")));
        assert_eq!(cousin(&m("0.137")), None);
        assert_eq!(format_masks(&m("4.07")), "4.07");
        assert_eq!(format_masks(&m("0.3F")), "0.3F");
    }
}
