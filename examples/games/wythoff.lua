-- Wythoff's game: two heaps {a, b}; take any number from one heap, or the same number
-- from both. `grundy script wythoff.lua --table 10 10` prints the table of values.
name = "Wythoff"

function moves(p)
  local a, b = p[1], p[2]
  local out = {}
  for k = 1, a do out[#out + 1] = { a - k, b } end
  for k = 1, b do out[#out + 1] = { a, b - k } end
  for k = 1, math.min(a, b) do out[#out + 1] = { a - k, b - k } end
  return out
end
