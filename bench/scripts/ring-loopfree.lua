-- The loopfree twin of ring-loopy.lua (bench/script-cpu.sh): the same 10^5 positions and the
-- same number of moves, but a move that would wrap round goes to 0 instead, so no cycle.
name = "subtraction 1,2 on 0..99999 (no wrap)"
local N = 100000
function moves(x)
  if x == 0 then return {} end
  local a, b = x - 1, x - 2
  if b < 0 then b = 0 end
  return { a, b }
end
