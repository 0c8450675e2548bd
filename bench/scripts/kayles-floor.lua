-- The floor of `grundy script examples/games/kayles.lua --upto 2000` (bench/script-cpu.sh):
-- moves(n) builds Kayles' options of n exactly as kayles.lua does, then reads them back (a
-- loop over the list), and hands none to the engine. The 2001 calls build and read the same
-- 2·10^6 options; what the engine adds on top is the cost of taking them.
name = "Kayles floor (options built and read, none handed over)"
local seen = 0
function moves(n)
  local out = {}
  for k = 1, 2 do
    for a = 0, n - k do
      local b = n - k - a
      if a <= b then out[#out + 1] = sum(a, b) end
    end
  end
  for i = 1, #out do
    if out[i] then seen = seen + 1 end
  end
  return {}
end
