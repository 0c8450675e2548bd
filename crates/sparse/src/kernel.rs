//! The inner loops of phase 1, in plain Rust and, on x86-64 with AVX2 (detected at run
//! time), as vector code. Both versions set exactly the same bytes and bits.
//!
//! - [`mark_lanes`]: for a tile of [`LANES`] consecutive heaps and a list of rare heaps r, marks
//!   `G(r) ^ G(partner)` in each heap's row. The partners of consecutive heaps are consecutive,
//!   so two 32-byte loads serve the whole tile.
//! - [`mark_bits`]: the same where rows are one word of bits (values below 64), the marks kept
//!   in registers for the whole call.
//! - [`scan_pairs`]: the confirming scan of one heap over splits `(a, m - a)`: looks for the
//!   values still needed. Needed values are few and found rarely, so the vector version tests
//!   32 pairs at a time against the set (values below 512), branches once per 128 pairs, and
//!   only stops to look closer on a hit.

use crate::seq::Val;

/// Heaps per tile of [`mark_lanes`].
pub(crate) const LANES: usize = 32;

#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

/// Sets byte `min(rv[x] ^ vals[base - rp[x] + k], limit)` of row `k` (rows of `width` bytes in
/// `rows`) for every x and every k in `0..LANES`: rows track values below `limit`, and byte
/// `limit` stands for all the others (which also keeps every write inside `rows`).
///
/// Panics when a partner index `base - rp[x] + k` falls outside `vals`.
pub(crate) fn mark_lanes<T: Val>(
    rows: &mut [u8],
    width: usize,
    limit: u32,
    vals: &[T],
    base: u64,
    rp: &[u64],
    rv: &[u32],
) {
    assert!((limit as usize) < width && rows.len() >= LANES * width);
    #[cfg(target_arch = "x86_64")]
    {
        // The vector code clamps in u16 lanes: rows past 65535 values take the plain loop.
        // u8 values are widened to u16 lanes as they are loaded.
        fn vector<V: x86::Lane>(
            rows: &mut [u8],
            width: usize,
            limit: u32,
            vals: &[V],
            base: u64,
            rp: &[u64],
            rv: &[u32],
        ) -> bool {
            if limit >= 1 << 16 || !has_avx2() {
                return false;
            }
            macro_rules! fixed_width {
                ($($w:literal)*) => {
                    match width {
                        // SAFETY: AVX2 was detected at run time just above, and the caller's
                        // assertion gives `limit < width == W` and `rows.len() >= LANES * W`
                        // (the kernel's contract; its partner loads are bounds-checked slices).
                        $($w => { unsafe { x86::mark_lanes::<$w, V>(rows, limit, vals, base, rp, rv) }; true },)*
                        _ => false,
                    }
                };
            }
            fixed_width!(128 192 320 576 1088)
        }
        let done = match (T::as_u16(vals), T::as_u8(vals)) {
            (Some(v), _) => vector(rows, width, limit, v, base, rp, rv),
            (None, Some(v)) => vector(rows, width, limit, v, base, rp, rv),
            _ => false,
        };
        if done {
            return;
        }
    }
    for (&r, &gr) in rp.iter().zip(rv) {
        let at = usize::try_from(base - r).expect("partner index");
        for (k, x) in vals[at..at + LANES].iter().enumerate() {
            rows[k * width + (x.get() ^ gr).min(limit) as usize] = 1;
        }
    }
}

/// [`mark_lanes`] for rows of one word: sets bit `rv[x] ^ vals[base - rp[x] + k]` of
/// `words[k]` for every x and every k in `0..LANES` where that value is below 64 (larger ones
/// are left out). Where every value the rows track is below 64, a word per heap replaces a row
/// of bytes: the marks stay in registers for the whole tile, with no stores and no packing.
///
/// Panics when `words` is shorter than [`LANES`] or a partner index falls outside `vals`.
pub(crate) fn mark_bits<T: Val>(words: &mut [u64], vals: &[T], base: u64, rp: &[u64], rv: &[u32]) {
    let words = &mut words[..LANES];
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        match (T::as_u16(vals), T::as_u8(vals)) {
            // SAFETY: AVX2 was detected at run time just above, the one feature the kernel
            // needs; it reads partners through bounds-checked slices.
            (Some(v), _) => return unsafe { x86::mark_bits(words, v, base, rp, rv) },
            // SAFETY: as above.
            (None, Some(v)) => return unsafe { x86::mark_bits(words, v, base, rp, rv) },
            _ => {}
        }
    }
    for (&r, &gr) in rp.iter().zip(rv) {
        let at = usize::try_from(base - r).expect("partner index");
        for (word, x) in words.iter_mut().zip(&vals[at..at + LANES]) {
            let v = x.get() ^ gr;
            if v < 64 {
                *word |= 1 << v;
            }
        }
    }
}

/// Packs a row of 0/1 bytes (length a multiple of 64) into bits, one word per 64 bytes.
pub(crate) fn pack_bits<'a>(bytes: &[u8], out: &'a mut Vec<u64>) -> &'a [u64] {
    out.clear();
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        for chunk in bytes.chunks_exact(64) {
            // SAFETY: AVX2 was detected at run time just above, the one feature the kernel
            // needs (it reads only the 64 bytes of `chunk`).
            out.push(unsafe { x86::pack64(chunk) });
        }
        return out;
    }
    for chunk in bytes.chunks_exact(64) {
        let mut word = 0u64;
        for (k, eight) in chunk.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(eight.try_into().expect("8 bytes"));
            // Each byte is 0 or 1: gather bit 0 of every byte into the top byte.
            let packed = (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) & 0xff;
            word |= packed << (8 * k);
        }
        out.push(word);
    }
    out
}

/// How the two sides of the pairs a scan looks at are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Pair k is `(firsts[k], seconds[len - 1 - k])`: both sides as the sequence stores them.
    Mirrored,
    /// Pair k is `(firsts[len - 1 - k], seconds[len - 1 - k])`: the first sides from a reversed
    /// copy, which spares the vector loop its reversing shuffles.
    Aligned,
}

impl Layout {
    /// The indices into (firsts, seconds) of pair k of `len`.
    #[inline]
    fn at(self, k: usize, len: usize) -> (usize, usize) {
        match self {
            Layout::Mirrored => (k, len - 1 - k),
            Layout::Aligned => (len - 1 - k, len - 1 - k),
        }
    }
}

/// The confirming scan over the pairs k = 0, 1, … (laid out as `layout` says): clears the bit
/// of each pair's xor from `need` (bits over values; what it clears is what it found). Returns
/// `Some(k)` once `need` is empty (pairs `0..=k` looked at, perhaps a few more), `None` when
/// every pair was looked at. Values are below `cap`.
pub(crate) fn scan_pairs<T: Val>(
    firsts: &[T],
    seconds: &[T],
    layout: Layout,
    cap: u32,
    need: &mut [u64],
) -> Option<usize> {
    assert_eq!(firsts.len(), seconds.len());
    if need.iter().all(|&w| w == 0) {
        return Some(0);
    }
    #[cfg(target_arch = "x86_64")]
    {
        let found = match (T::as_u16(firsts), T::as_u16(seconds)) {
            (Some(f), Some(s)) => scan_vector(f, s, layout, cap, need),
            _ => match (T::as_u8(firsts), T::as_u8(seconds)) {
                (Some(f), Some(s)) => scan_vector(f, s, layout, cap, need),
                _ => None,
            },
        };
        if let Some(found) = found {
            return match found {
                Ok(k) => Some(k),
                Err(k) => scan_plain(firsts, seconds, layout, k, need),
            };
        }
    }
    scan_plain(firsts, seconds, layout, 0, need)
}

/// The vector part of [`scan_pairs`] where it applies (None where it does not): `Ok(k)` when
/// `need` emptied at pair k, else `Err(k)` with pairs `0..k` looked at.
#[cfg(target_arch = "x86_64")]
fn scan_vector<V: x86::Lane>(
    f: &[V],
    s: &[V],
    layout: Layout,
    cap: u32,
    need: &mut [u64],
) -> Option<Result<usize, usize>> {
    {
        if cap <= 512 && has_avx2() && need[8.min(need.len())..].iter().all(|&w| w == 0) {
            let mut set = [0u64; 8];
            let words = need.len().min(8);
            set[..words].copy_from_slice(&need[..words]);
            // Xors of values up to 511 saturate to 255 in the narrow kernel's bytes, which is
            // harmless while 255 and above are not needed (the usual case: c is small).
            let narrow = cap <= 256 || (set[3] >> 63 == 0 && set[4..].iter().all(|&w| w == 0));
            let aligned = layout == Layout::Aligned;
            // SAFETY: AVX2 was detected at run time just above, the one feature the kernel
            // needs: it reads 32 pairs from pair k only while k + 32 <= len, inside both slices
            // whatever their lengths (here equal, asserted above).
            let (done, k) = unsafe {
                match (narrow, aligned) {
                    (true, false) => x86::scan_pairs::<false, false, V>(f, s, &mut set),
                    (false, false) => x86::scan_pairs::<true, false, V>(f, s, &mut set),
                    (true, true) => x86::scan_pairs::<false, true, V>(f, s, &mut set),
                    (false, true) => x86::scan_pairs::<true, true, V>(f, s, &mut set),
                }
            };
            need[..words].copy_from_slice(&set[..words]);
            return Some(if done { Ok(k) } else { Err(k) });
        }
    }
    None
}

/// [`scan_pairs`] one pair at a time, from pair `from` on.
fn scan_plain<T: Val>(
    firsts: &[T],
    seconds: &[T],
    layout: Layout,
    from: usize,
    need: &mut [u64],
) -> Option<usize> {
    let mut missing: u32 = need.iter().map(|w| w.count_ones()).sum();
    if missing == 0 {
        return Some(from);
    }
    let len = firsts.len();
    for k in from..len {
        let (i, j) = layout.at(k, len);
        let v = (firsts[i].get() ^ seconds[j].get()) as usize;
        let Some(word) = need.get_mut(v / 64) else {
            continue;
        };
        let bit = 1u64 << (v % 64);
        if *word & bit != 0 {
            *word &= !bit;
            missing -= 1;
            if missing == 0 {
                return Some(k);
            }
        }
    }
    None
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::LANES;

    /// A stored value type the vector kernels read (u8 or u16), always as u16 lanes.
    pub(crate) trait Lane: Copy {
        /// Bytes a value takes.
        const BYTES: usize;
    }
    impl Lane for u8 {
        const BYTES: usize = 1;
    }
    impl Lane for u16 {
        const BYTES: usize = 2;
    }

    /// 16 values from `p` as 16 u16 lanes (u8 values zero-extended).
    ///
    /// # Safety
    ///
    /// - The CPU supports AVX2.
    /// - `p` is valid for reads of 16 consecutive values (no alignment needed).
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn load16<V: Lane>(p: *const V) -> __m256i {
        // SAFETY: by the contract, the 16 values at `p` (16 or 32 bytes) are readable; `loadu`
        // needs no alignment.
        unsafe {
            if V::BYTES == 1 {
                _mm256_cvtepu8_epi16(_mm_loadu_si128(p.cast()))
            } else {
                _mm256_loadu_si256(p.cast())
            }
        }
    }

    /// 4 values from `p` as 4 u64 lanes, zero-extended straight from memory (no shuffles
    /// between the load and the lanes: the bit kernel's shuffle port is its bottleneck).
    ///
    /// # Safety
    ///
    /// - The CPU supports AVX2.
    /// - `p` is valid for reads of 4 consecutive values (no alignment needed).
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn load4<V: Lane>(p: *const V) -> __m256i {
        // SAFETY: by the contract, the 4 values at `p` (4 or 8 bytes) are readable; unaligned
        // reads need no alignment.
        unsafe {
            if V::BYTES == 1 {
                _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(p.cast::<i32>().read_unaligned()))
            } else {
                _mm256_cvtepu16_epi64(_mm_loadl_epi64(p.cast()))
            }
        }
    }

    /// Bit v alone, as a 256-bit vector, for each byte value v.
    static ONE_HOT: [[u64; 4]; 256] = {
        let mut t = [[0u64; 4]; 256];
        let mut v = 0;
        while v < 256 {
            t[v][v / 64] = 1 << (v % 64);
            v += 1;
        }
        t
    };

    /// Bit k set when byte k of the 64 is not zero. Panics when `chunk` is shorter than 64.
    ///
    /// Safe to call from AVX2 code; elsewhere the caller must make sure, in its `unsafe` call,
    /// that the CPU supports AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) fn pack64(chunk: &[u8]) -> u64 {
        let chunk = &chunk[..64];
        let zero = _mm256_setzero_si256();
        // SAFETY: `chunk` is 64 bytes long (sliced above), so the 32 bytes at 0 and the 32 at
        // 32 are inside it; `loadu` needs no alignment.
        let (a, b) = unsafe {
            (
                _mm256_loadu_si256(chunk.as_ptr().cast()),
                _mm256_loadu_si256(chunk.as_ptr().add(32).cast()),
            )
        };
        let za = _mm256_movemask_epi8(_mm256_cmpeq_epi8(a, zero)) as u32 as u64;
        let zb = _mm256_movemask_epi8(_mm256_cmpeq_epi8(b, zero)) as u32 as u64;
        !(za | zb << 32)
    }

    /// [`super::mark_lanes`] with the row width a constant (its multiples become displacements).
    /// Panics when a partner index `base - rp[x] + k` falls outside `vals`.
    ///
    /// # Safety
    ///
    /// - The CPU supports AVX2.
    /// - `limit < W` and `rows.len() >= LANES * W`: every byte written, `k * W + v` with
    ///   `k < LANES` and `v <= limit`, is then inside `rows` (only debug builds check this).
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn mark_lanes<const W: usize, V: Lane>(
        rows: &mut [u8],
        limit: u32,
        vals: &[V],
        base: u64,
        rp: &[u64],
        rv: &[u32],
    ) {
        debug_assert!((limit as usize) < W && rows.len() >= LANES * W);
        let limit = _mm256_set1_epi16(limit as u16 as i16);
        let out = rows.as_mut_ptr();
        let load = |x: usize| {
            let at = usize::try_from(base - rp[x]).expect("partner index");
            let partners = &vals[at..at + LANES];
            // SAFETY: `partners` is a bounds-checked slice of LANES = 32 values, so the 16 at 0
            // and the 16 at 16 are inside it; AVX2 is enabled here.
            unsafe { (load16(partners.as_ptr()), load16(partners.as_ptr().add(16))) }
        };
        if rp.is_empty() {
            return;
        }
        // The next rare heap's partners are loaded before this one's stores: a load issued
        // behind 32 byte stores waits on their addresses.
        let mut next = load(0);
        for (x, &gr) in rv.iter().enumerate() {
            let halves = next;
            if x + 1 < rp.len() {
                next = load(x + 1);
            }
            let g = _mm256_set1_epi16(gr as u16 as i16);
            for (half, x) in [halves.0, halves.1].into_iter().enumerate() {
                let v = _mm256_min_epu16(_mm256_xor_si256(x, g), limit);
                // Four lanes per 64-bit word, taken out without a trip through memory.
                let words = [
                    _mm256_extract_epi64::<0>(v) as u64,
                    _mm256_extract_epi64::<1>(v) as u64,
                    _mm256_extract_epi64::<2>(v) as u64,
                    _mm256_extract_epi64::<3>(v) as u64,
                ];
                for (w, &word) in words.iter().enumerate() {
                    for q in 0..4 {
                        let v = (word >> (16 * q)) as u16 as usize;
                        let k = 16 * half + 4 * w + q;
                        // SAFETY: `v <= limit as u16 <= limit < W` (the min above) and
                        // `k < 2 * 16 = LANES`, so `k * W + v < LANES * W <= rows.len()` by the
                        // caller's contract: the byte is inside `rows`, which `out` borrows
                        // mutably for this whole call.
                        unsafe { *out.add(k * W + v) = 1 };
                    }
                }
            }
        }
    }

    /// [`super::mark_bits`] over u8 or u16 values. Panics when `words` is not [`LANES`] words
    /// long or a partner index `base - rp[x] + k` falls outside `vals`.
    ///
    /// # Safety
    ///
    /// The CPU supports AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn mark_bits<V: Lane>(
        words: &mut [u64],
        vals: &[V],
        base: u64,
        rp: &[u64],
        rv: &[u32],
    ) {
        assert_eq!(words.len(), LANES);
        let one = _mm256_set1_epi64x(1);
        // Words 4i..4i + 4 in acc[i].
        let mut acc = [_mm256_setzero_si256(); LANES / 4];
        for (i, a) in acc.iter_mut().enumerate() {
            // SAFETY: `words` is LANES words long (asserted), so words 4i..4i + 4 are inside it;
            // `loadu` needs no alignment.
            *a = unsafe { _mm256_loadu_si256(words.as_ptr().add(4 * i).cast()) };
        }
        for (&r, &gr) in rp.iter().zip(rv) {
            let at = usize::try_from(base - r).expect("partner index");
            let partners = &vals[at..at + LANES];
            let g = _mm256_set1_epi64x(i64::from(gr));
            for (i, a) in acc.iter_mut().enumerate() {
                // SAFETY: `partners` is a bounds-checked slice of LANES = 32 values, so the 4
                // at 4i (i < 8) are inside it; AVX2 is enabled here.
                let v = unsafe { load4(partners.as_ptr().add(4 * i)) };
                // A lane of 64 or more shifts the one out (the shift gives 0).
                *a = _mm256_or_si256(*a, _mm256_sllv_epi64(one, _mm256_xor_si256(v, g)));
            }
        }
        for (i, a) in acc.iter().enumerate() {
            // SAFETY: as for the loads above.
            unsafe { _mm256_storeu_si256(words.as_mut_ptr().add(4 * i).cast(), *a) };
        }
    }

    /// Probes (of 32 pairs each) per test for hits in [`scan_pairs`]: more share the cost of a
    /// test and of its mispredicted branch; more also look further than needed.
    const PROBES: usize = 4;

    /// The set of needed values as a vector scan holds it: two 256-bit halves (values below
    /// 256, and 256..512), and bytes 0..16 and 16..32 of each half in both 128-bit lanes
    /// (vpshufb looks within a lane).
    struct Need {
        set0: __m256i,
        set1: __m256i,
        lo0: __m256i,
        hi0: __m256i,
        lo1: __m256i,
        hi1: __m256i,
    }

    impl Need {
        /// The set `set0` (values below 256) and `set1` (256..512), with the lane copies that
        /// [`probe`] looks up.
        #[target_feature(enable = "avx2")]
        fn new(set0: __m256i, set1: __m256i) -> Need {
            Need {
                set0,
                set1,
                lo0: _mm256_permute4x64_epi64(set0, 0x44),
                hi0: _mm256_permute4x64_epi64(set0, 0xee),
                lo1: _mm256_permute4x64_epi64(set1, 0x44),
                hi1: _mm256_permute4x64_epi64(set1, 0xee),
            }
        }
    }

    /// 32 pairs at `x` and `y` (`y` mirrored unless `ALIGNED`) against the set: their xors as
    /// bytes (in an order of their own: only membership matters), for `WIDE` their bit 8, and a
    /// vector that is not zero where a byte is needed.
    ///
    /// # Safety
    ///
    /// - The CPU supports AVX2.
    /// - `x` and `y` are each valid for reads of 32 consecutive values (no alignment needed).
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn probe<const WIDE: bool, const ALIGNED: bool, V: Lane>(
        x: *const V,
        y: *const V,
        need: &Need,
    ) -> (__m256i, __m256i, __m256i) {
        // Reverses the 16 words of a vector: bytes within each half, then the halves.
        let reverse = |v: __m256i| {
            let rev = _mm256_setr_epi8(
                14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9,
                6, 7, 4, 5, 2, 3, 0, 1,
            );
            _mm256_permute4x64_epi64(_mm256_shuffle_epi8(v, rev), 0x4e)
        };
        let pow2 = _mm256_setr_epi8(
            1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64,
            -128, 1, 2, 4, 8, 16, 32, 64, -128,
        );
        // SAFETY: by the contract, `x` and `y` each point at 32 readable values: the 16 at 0
        // and the 16 at 16 are inside them; AVX2 is enabled here.
        let (x0, x1, y0, y1) = unsafe {
            let x0 = load16(x);
            let x1 = load16(x.add(16));
            let (y0, y1) = if ALIGNED {
                (load16(y), load16(y.add(16)))
            } else {
                (reverse(load16(y.add(16))), reverse(load16(y)))
            };
            (x0, x1, y0, y1)
        };
        let w0 = _mm256_xor_si256(x0, y0);
        let w1 = _mm256_xor_si256(x1, y1);
        let (low, high) = if WIDE {
            let low8 = _mm256_set1_epi16(0xff);
            (
                _mm256_packus_epi16(_mm256_and_si256(w0, low8), _mm256_and_si256(w1, low8)),
                _mm256_packus_epi16(_mm256_srli_epi16(w0, 8), _mm256_srli_epi16(w1, 8)),
            )
        } else {
            (_mm256_packus_epi16(w0, w1), _mm256_setzero_si256())
        };
        let idx = _mm256_and_si256(_mm256_srli_epi16(low, 3), _mm256_set1_epi8(0x1f));
        let upper = _mm256_slli_epi16(idx, 3);
        let mut byte = _mm256_blendv_epi8(
            _mm256_shuffle_epi8(need.lo0, idx),
            _mm256_shuffle_epi8(need.hi0, idx),
            upper,
        );
        if WIDE {
            let byte1 = _mm256_blendv_epi8(
                _mm256_shuffle_epi8(need.lo1, idx),
                _mm256_shuffle_epi8(need.hi1, idx),
                upper,
            );
            byte = _mm256_blendv_epi8(byte, byte1, _mm256_slli_epi16(high, 7));
        }
        let bit = _mm256_shuffle_epi8(pow2, _mm256_and_si256(low, _mm256_set1_epi8(7)));
        (low, high, _mm256_and_si256(byte, bit))
    }

    /// Lanes (bits) where a probe's hit vector is not zero.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn lanes(hit: __m256i) -> u64 {
        let zero = _mm256_setzero_si256();
        u64::from(!(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hit, zero)) as u32))
    }

    /// The 64-bit words of values below 256 that the set (`set0`, `set1`) reaches into (0 to
    /// 4; 5 when it holds a value of 256 or more).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn reach(set0: __m256i, set1: __m256i) -> usize {
        if _mm256_testz_si256(set1, set1) == 0 {
            return 5;
        }
        let zero = _mm256_setzero_si256();
        // Bit w set when word w is zero; the answer is one past the highest word that is not.
        let empty = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(set0, zero)));
        32 - (!empty as u32 & 0xf).leading_zeros() as usize
    }

    /// The values below `64 * words` (words up to 4) among the first `probes` probes' bytes,
    /// as bits: the lanes' values found at once, with no loop over the hit lanes.
    #[target_feature(enable = "avx2")]
    #[inline(never)]
    fn seen(low: &[u8; 32 * PROBES], probes: usize, words: usize) -> [u64; 4] {
        let one = _mm256_set1_epi64x(1);
        let mut acc = [[_mm256_setzero_si256(); 4]; 4];
        for sixteen in low[..32 * probes].chunks_exact(16) {
            // SAFETY: `sixteen` is a bounds-checked slice of 16 bytes; `loadu` needs no
            // alignment.
            let v = unsafe { _mm_loadu_si128(sixteen.as_ptr().cast()) };
            // Four bytes at a time as u64 lanes.
            let parts = [
                v,
                _mm_srli_si128::<4>(v),
                _mm_srli_si128::<8>(v),
                _mm_srli_si128::<12>(v),
            ];
            for (i, part) in parts.into_iter().enumerate() {
                let x = _mm256_cvtepu8_epi64(part);
                for (w, word) in acc.iter_mut().enumerate().take(words) {
                    // Lanes outside word w shift by 64 or more (x - 64 w wraps for x < 64 w):
                    // 0.
                    let shift = _mm256_sub_epi64(x, _mm256_set1_epi64x(64 * w as i64));
                    word[i] = _mm256_or_si256(word[i], _mm256_sllv_epi64(one, shift));
                }
            }
        }
        let mut out = [0u64; 4];
        for (o, word) in out.iter_mut().zip(&acc).take(words) {
            let all = _mm256_or_si256(
                _mm256_or_si256(word[0], word[1]),
                _mm256_or_si256(word[2], word[3]),
            );
            let half = _mm_or_si128(
                _mm256_castsi256_si128(all),
                _mm256_extracti128_si256::<1>(all),
            );
            *o = (_mm_cvtsi128_si64(half) | _mm_extract_epi64::<1>(half)) as u64;
        }
        out
    }

    /// Hit lanes, per word of values the set reaches, above which [`clear`] takes every value
    /// the probes saw at once ([`seen`]) instead of the hit lanes one by one: in the first
    /// probes most lanes hit (every pair's xor is a rare value, and most are still needed).
    const MANY: u32 = 16;

    /// Clears from the set the values of the hit `lanes` (bytes in `low`, bit 8 in `high`, of
    /// `probes` probes); returns true when the set is empty.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn clear<const WIDE: bool>(
        need: &mut Need,
        mut lanes: u128,
        low: &[u8; 32 * PROBES],
        high: &[u8; 32 * PROBES],
        probes: usize,
    ) -> bool {
        let (mut set0, mut set1) = (need.set0, need.set1);
        let words = if WIDE { 5 } else { reach(set0, set1) };
        if words <= 4 && lanes.count_ones() > MANY * words as u32 {
            // Many lanes hit: clear every value the probes saw at once. (Narrow bytes saturate
            // values of 256 and more to 255: the narrow kernel runs only where no value reaches
            // 256 or 255 is not needed.)
            let seen = seen(low, probes, words);
            // SAFETY: `seen` is [u64; 4], the 32 bytes read; `loadu` needs no alignment.
            let seen = unsafe { _mm256_loadu_si256(seen.as_ptr().cast()) };
            set0 = _mm256_andnot_si256(seen, set0);
        } else {
            while lanes != 0 {
                let l = lanes.trailing_zeros() as usize;
                lanes &= lanes - 1;
                // SAFETY: a row of ONE_HOT (bounds-checked index) is [u64; 4], the 32 bytes
                // read; `loadu` needs no alignment.
                let one = unsafe { _mm256_loadu_si256(ONE_HOT[low[l] as usize].as_ptr().cast()) };
                if WIDE {
                    let upper = _mm256_set1_epi8(-((high[l] & 1) as i8));
                    set1 = _mm256_andnot_si256(_mm256_and_si256(one, upper), set1);
                    set0 = _mm256_andnot_si256(_mm256_andnot_si256(upper, one), set0);
                } else {
                    set0 = _mm256_andnot_si256(one, set0);
                }
            }
        }
        let both = _mm256_or_si256(set0, set1);
        if _mm256_testz_si256(both, both) != 0 {
            need.set0 = set0;
            need.set1 = set1;
            return true;
        }
        *need = Need::new(set0, set1);
        false
    }

    /// [`super::scan_pairs`] for values below 256 (`WIDE` false) or 512 (true), with the need
    /// set as 512 bits. Returns (true, k) when the set emptied at pair k or before, else
    /// (false, k) with pairs `0..k` looked at (the caller finishes the last few one by one).
    /// [`PROBES`] probes share one test: hits are rare after the first few.
    ///
    /// Sound for any slices (it reads only pairs inside both); safe to call from AVX2 code,
    /// elsewhere the caller must make sure, in its `unsafe` call, that the CPU supports AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) fn scan_pairs<const WIDE: bool, const ALIGNED: bool, V: Lane>(
        firsts: &[V],
        seconds: &[V],
        set: &mut [u64; 8],
    ) -> (bool, usize) {
        let len = firsts.len().min(seconds.len());
        // SAFETY: `set` is [u64; 8], 64 bytes: the 32 at word 0 and the 32 at word 4 are
        // inside it; `loadu` needs no alignment.
        let mut need = unsafe {
            Need::new(
                _mm256_loadu_si256(set.as_ptr().cast()),
                _mm256_loadu_si256(set.as_ptr().add(4).cast()),
            )
        };
        // The 32 pairs from pair k on; every call below has k + 32 <= len.
        let (f, s) = (firsts.as_ptr(), seconds.as_ptr());
        let at = |k: usize| {
            let back = len - k - 32;
            // SAFETY: k + 32 <= len <= both lengths, so `back` and `k` are offsets with 32
            // values after them inside `firsts` and `seconds`: the pointers stay in bounds.
            unsafe { (if ALIGNED { f.add(back) } else { f.add(k) }, s.add(back)) }
        };
        let mut low = [0u8; 32 * PROBES];
        let mut high = [0u8; 32 * PROBES];
        let mut k = 0;
        let mut done = false;
        while k + 32 * PROBES <= len {
            let mut any = _mm256_setzero_si256();
            let mut hits = [_mm256_setzero_si256(); PROBES];
            for (p, hit) in hits.iter_mut().enumerate() {
                let (x, y) = at(k + 32 * p);
                // SAFETY: k + 32 * p + 32 <= k + 32 * PROBES <= len (the loop condition), so
                // `at` points at 32 pairs inside both slices; AVX2 is enabled here.
                let (l, h, t) = unsafe { probe::<WIDE, ALIGNED, V>(x, y, &need) };
                // Stored before the test, so that a hit finds the bytes ready to load.
                // SAFETY: p < PROBES, so bytes 32 * p..32 * p + 32 lie inside `low` and `high`
                // (32 * PROBES bytes each); `storeu` needs no alignment.
                unsafe {
                    _mm256_storeu_si256(low.as_mut_ptr().add(32 * p).cast(), l);
                    if WIDE {
                        _mm256_storeu_si256(high.as_mut_ptr().add(32 * p).cast(), h);
                    }
                }
                any = _mm256_or_si256(any, t);
                *hit = t;
            }
            if _mm256_testz_si256(any, any) == 0 {
                let mut all = 0u128;
                for (p, &hit) in hits.iter().enumerate() {
                    all |= u128::from(lanes(hit)) << (32 * p);
                }
                if clear::<WIDE>(&mut need, all, &low, &high, PROBES) {
                    done = true;
                    k += 32 * PROBES - 1;
                    break;
                }
            }
            k += 32 * PROBES;
        }
        while !done && k + 32 <= len {
            let (x, y) = at(k);
            // SAFETY: k + 32 <= len (the loop condition), so `at` points at 32 pairs inside both
            // slices; AVX2 is enabled here.
            let (l, h, t) = unsafe { probe::<WIDE, ALIGNED, V>(x, y, &need) };
            // SAFETY: bytes 0..32 lie inside `low` and `high` (32 * PROBES bytes each);
            // `storeu` needs no alignment.
            unsafe {
                _mm256_storeu_si256(low.as_mut_ptr().cast(), l);
                if WIDE {
                    _mm256_storeu_si256(high.as_mut_ptr().cast(), h);
                }
            }
            if _mm256_testz_si256(t, t) == 0
                && clear::<WIDE>(&mut need, u128::from(lanes(t)), &low, &high, 1)
            {
                done = true;
                k += 31;
            } else {
                k += 32;
            }
        }
        // SAFETY: `set` is [u64; 8], 64 bytes: the 32 at word 0 and the 32 at word 4 are inside
        // it; `storeu` needs no alignment.
        unsafe {
            _mm256_storeu_si256(set.as_mut_ptr().cast(), need.set0);
            _mm256_storeu_si256(set.as_mut_ptr().add(4).cast(), need.set1);
        }
        (done, k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn plain_marks(
        width: usize,
        limit: u32,
        vals: &[u16],
        base: u64,
        rp: &[u64],
        rv: &[u32],
    ) -> Vec<u8> {
        let mut rows = vec![0u8; LANES * width];
        for (&r, &gr) in rp.iter().zip(rv) {
            for k in 0..LANES {
                let x = u32::from(vals[(base - r) as usize + k]);
                rows[k * width + (x ^ gr).min(limit) as usize] = 1;
            }
        }
        rows
    }

    #[test]
    fn pack_bits_sets_a_bit_for_each_nonzero_byte() {
        let bytes: Vec<u8> = (0..256u32)
            .map(|i| u8::from(i % 3 == 0 || i % 7 == 1))
            .collect();
        let mut out = Vec::new();
        let words = pack_bits(&bytes, &mut out).to_vec();
        for (i, &b) in bytes.iter().enumerate() {
            assert_eq!(words[i / 64] >> (i % 64) & 1, u64::from(b), "byte {i}");
        }
    }

    /// Rows past 65535 values (wide values, frequent enough that the span reaches 65536) take
    /// the plain loop instead of tripping the vector code's u16 limit.
    #[test]
    fn mark_lanes_handles_rows_beyond_u16() {
        let limit = 1u32 << 16;
        let width = limit as usize + 64;
        let vals: Vec<u32> = (0..200u32).map(|i| i * 331 % 70_000).collect();
        let base = (vals.len() - LANES) as u64;
        let (rp, rv) = (vec![3u64, 50, 100], vec![65_000u32, 7, 69_999]);
        let mut rows = vec![0u8; LANES * width];
        mark_lanes(&mut rows, width, limit, &vals, base, &rp, &rv);
        for (&r, &gr) in rp.iter().zip(&rv) {
            for k in 0..LANES {
                let x = vals[(base - r) as usize + k];
                assert_eq!(rows[k * width + (x ^ gr).min(limit) as usize], 1);
            }
        }
        assert!(rows.iter().filter(|&&b| b == 1).count() <= 3 * LANES);
    }

    proptest! {
        /// The dispatched kernel (vector code where the machine has it) against the definition,
        /// with rows as wide as the values or narrower.
        #[test]
        fn mark_lanes_matches_definition(
            logcap in 6u32..=10,
            narrow in any::<bool>(),
            seed_vals in proptest::collection::vec(any::<u16>(), 64..400),
            picks in proptest::collection::vec(any::<u16>(), 0..40),
        ) {
            let cap = 1u32 << logcap;
            let width = cap as usize + 64;
            let vals: Vec<u16> = seed_vals.iter().map(|v| v % cap as u16).collect();
            let base = (vals.len() - LANES) as u64;
            let mut rp: Vec<u64> = picks.iter().map(|p| u64::from(*p) % (base + 1)).collect();
            rp.sort_unstable();
            let rv: Vec<u32> = rp.iter().map(|&r| u32::from(vals[r as usize])).collect();
            let mut rows = vec![0u8; LANES * width];
            let limit = if narrow { cap / 2 } else { cap };
            mark_lanes(&mut rows, width, limit, &vals, base, &rp, &rv);
            let want = plain_marks(width, limit, &vals, base, &rp, &rv);
            prop_assert_eq!(&rows, &want);
            // The same values stored as u8 (the engine's storage while values stay below 256).
            if cap <= 256 {
                let bytes: Vec<u8> = vals.iter().map(|&v| v as u8).collect();
                let mut rows8 = vec![0u8; LANES * width];
                mark_lanes(&mut rows8, width, limit, &bytes, base, &rp, &rv);
                prop_assert_eq!(&rows8, &want);
            }
        }

        /// One-word rows: bit v of word k for each value below 64, over u16 and u8 storage,
        /// added to what the words held.
        #[test]
        fn mark_bits_matches_definition(
            logcap in 4u32..=9,
            seed_vals in proptest::collection::vec(any::<u16>(), 64..400),
            picks in proptest::collection::vec(any::<u16>(), 0..40),
            start in proptest::collection::vec(any::<u64>(), LANES),
        ) {
            let cap = 1u32 << logcap;
            let vals: Vec<u16> = seed_vals.iter().map(|v| v % cap as u16).collect();
            let base = (vals.len() - LANES) as u64;
            let mut rp: Vec<u64> = picks.iter().map(|p| u64::from(*p) % (base + 1)).collect();
            rp.sort_unstable();
            let rv: Vec<u32> = rp.iter().map(|&r| u32::from(vals[r as usize])).collect();
            let mut want = start.clone();
            for (&r, &gr) in rp.iter().zip(&rv) {
                for (k, w) in want.iter_mut().enumerate() {
                    let v = u32::from(vals[(base - r) as usize + k]) ^ gr;
                    if v < 64 {
                        *w |= 1 << v;
                    }
                }
            }
            let mut words = start.clone();
            mark_bits(&mut words, &vals, base, &rp, &rv);
            prop_assert_eq!(&words, &want);
            if cap <= 256 {
                let bytes: Vec<u8> = vals.iter().map(|&v| v as u8).collect();
                let mut words8 = start.clone();
                mark_bits(&mut words8, &bytes, base, &rp, &rv);
                prop_assert_eq!(&words8, &want);
            }
        }

        /// The vector scan finds the same values as the plain one and stops no earlier than the
        /// pair that emptied the set.
        #[test]
        fn scan_matches_plain(
            logcap in 3u32..=10,
            a in proptest::collection::vec(any::<u16>(), 0..300),
            b in proptest::collection::vec(any::<u16>(), 0..300),
            want in proptest::collection::vec(any::<u16>(), 1..80),
        ) {
            let cap = 1u32 << logcap;
            let len = a.len().min(b.len());
            let firsts: Vec<u16> = a[..len].iter().map(|v| v % cap as u16).collect();
            let seconds: Vec<u16> = b[..len].iter().map(|v| v % cap as u16).collect();
            let words = cap as usize / 64 + 1;
            let mut need = vec![0u64; words];
            for w in &want {
                let v = (*w as u32 % cap) as usize;
                need[v / 64] |= 1 << (v % 64);
            }
            let need0 = need.clone();
            let mut need2 = need.clone();
            let mut need3 = need.clone();
            let fast = scan_pairs(&firsts, &seconds, Layout::Mirrored, cap, &mut need);
            let plain = scan_plain(&firsts, &seconds, Layout::Mirrored, 0, &mut need2);
            prop_assert_eq!(fast.is_some(), plain.is_some());
            if let (Some(f), Some(p)) = (fast, plain) {
                prop_assert!(f >= p);
            }
            // The same pairs from a reversed copy of the first sides.
            let reversed: Vec<u16> = firsts.iter().rev().copied().collect();
            let aligned = scan_pairs(&reversed, &seconds, Layout::Aligned, cap, &mut need3);
            prop_assert_eq!(aligned.is_some(), plain.is_some());
            if let (Some(f), Some(p)) = (aligned, plain) {
                prop_assert!(f >= p);
            }
            prop_assert_eq!(&need3, &need2);
            prop_assert_eq!(&need, &need2);
            // The same scans over u8 storage.
            if cap <= 256 {
                let f8: Vec<u8> = firsts.iter().map(|&v| v as u8).collect();
                let s8: Vec<u8> = seconds.iter().map(|&v| v as u8).collect();
                let r8: Vec<u8> = reversed.iter().map(|&v| v as u8).collect();
                let mut need8 = need0.clone();
                let fast8 = scan_pairs(&f8, &s8, Layout::Mirrored, cap, &mut need8);
                prop_assert_eq!(fast8.is_some(), plain.is_some());
                prop_assert_eq!(&need8, &need2);
                let mut need8 = need0.clone();
                let aligned8 = scan_pairs(&r8, &s8, Layout::Aligned, cap, &mut need8);
                prop_assert_eq!(aligned8.is_some(), plain.is_some());
                prop_assert_eq!(&need8, &need2);
            }
        }
    }
}
