//! Findings of `crates/grundy/tests/fuzz_parsers.rs` in the Nim heap parser, kept as tests.

use grundy_core::nim::{parse_heaps, HeapParser};

/// The heaps of `input` fed in pieces cut at `cuts`.
fn streamed(input: &[u8], cuts: &[usize]) -> Result<Vec<u64>, String> {
    let mut p = HeapParser::new();
    let mut heaps = Vec::new();
    let mut sink = |h| heaps.push(h);
    let mut at = 0;
    for &c in cuts.iter().chain([&input.len()]) {
        p.feed(&input[at..c], &mut sink)
            .map_err(|e| e.to_string())?;
        at = c;
    }
    p.finish(&mut sink).map_err(|e| e.to_string())?;
    Ok(heaps)
}

fn whole(input: &[u8]) -> Result<Vec<u64>, String> {
    let mut heaps = Vec::new();
    parse_heaps(input, |h| heaps.push(h)).map_err(|e| e.to_string())?;
    Ok(heaps)
}

#[test]
fn leading_zeros_across_chunks() {
    // Fuzz finding: 65 zeros, then "\n1\n2", was [0, 1, 2] in one piece but "too large" when
    // a chunk boundary cut the zeros (the cut token was judged by its length alone).
    let mut input = vec![b'0'; 65];
    input.extend_from_slice(b"\n1\n2");
    assert_eq!(whole(&input), Ok(vec![0, 1, 2]));
    for cut in [1, 30, 64, 65] {
        assert_eq!(streamed(&input, &[cut]), Ok(vec![0, 1, 2]), "cut at {cut}");
    }
    // Many zeros before a real number, cut several times.
    let mut input = vec![b'0'; 5000];
    input.extend_from_slice(b"18446744073709551615 7");
    assert_eq!(whole(&input), Ok(vec![u64::MAX, 7]));
    assert_eq!(
        streamed(&input, &[10, 2000, 4999, 5005]),
        Ok(vec![u64::MAX, 7])
    );
    // One more and it is too large, cut or not, with the same message.
    let mut input = vec![b'0'; 100];
    input.extend_from_slice(b"18446744073709551616");
    let e = whole(&input).unwrap_err();
    assert!(e.contains("larger than"), "{e}");
    assert_eq!(streamed(&input, &[50, 110]), Err(e));
    // A non-digit after the zeros is not a number, cut or not.
    let mut input = vec![b'0'; 100];
    input.push(b'x');
    let e = whole(&input).unwrap_err();
    assert!(e.contains("not a number"), "{e}");
    assert_eq!(streamed(&input, &[70]), Err(e));
}
