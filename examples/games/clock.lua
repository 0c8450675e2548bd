-- Clock (a loopy game): the hand of a 12-hour clock points at hour h (0 is 12 o'clock); a move
-- turns it back 2 or 5 hours, going round past 12. At 12 o'clock the hand is stuck: the
-- player to move loses. The same game as the catalogue's modular subtraction `windup:12:2,5`.
--
-- Values (generalized Sprague-Grundy, Smith), hours 0..11:
--   0: 0      1: ∞      2: ∞(0)   3: ∞      4: ∞      5: ∞(0)
--   6: ∞      7: 0      8: ∞      9: ∞(0)  10: ∞     11: ∞
-- P: 0 and 7 (from 7 both moves, to 5 and to 2, let the opponent reach 12 o'clock);
-- N: 2, 5, 9 (move to 0 or 7); every other hour is a draw: the hand can go round forever.
-- (The same rules are checked in crates/loopy/tests/games.rs, `Clock`.)
name = "Clock"

function moves(h)
  if h == 0 then return {} end
  return { (h - 2) % 12, (h - 5) % 12 }
end

function show(h)
  if h == 0 then return "12 o'clock" end
  return h .. " o'clock"
end
