-- A loopy game of 10^5 positions (bench/script-cpu.sh): modular subtraction windup:100000:1,2
-- (from x ≠ 0 move to (x − 1) mod N or (x − 2) mod N; 0 has no move). Moving from 1 to N − 1
-- closes the cycle. Its loopfree twin is ring-loopfree.lua.
name = "windup:100000:1,2"
local N = 100000
function moves(x)
  if x == 0 then return {} end
  return { (x - 1) % N, (x - 2) % N }
end
