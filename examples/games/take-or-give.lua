-- Take or give (a loopy game): a heap of counters; take 1 or 2 of them, or give one back
-- (add 1) as long as the heap is neither empty nor full (6 counters). The player who cannot
-- move, at an empty heap, loses. Giving back lets play go round forever.
--
-- Values (generalized Sprague-Grundy, Smith), heaps 0..6:
--   0: 0 (P)   1: ∞(0) (N)   2: ∞(0) (N)   3..6: ∞ (draws)
-- Heaps 1 and 2 are won by taking everything. From 3 or more, moving to 1 or 2 hands the
-- opponent the win, so both players keep the heap at 3 or above and play never ends.
-- (The same rules are checked in crates/loopy/tests/games.rs, `TakeOrGive`.)
name = "Take or give"
local FULL = 6

function moves(n)
  local out = {}
  for take = 1, 2 do
    if take <= n then out[#out + 1] = n - take end
  end
  if n >= 1 and n < FULL then out[#out + 1] = n + 1 end
  return out
end
