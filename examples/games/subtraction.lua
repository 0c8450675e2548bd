-- A subtraction game: remove 1, 3 or 4 tokens from a heap of n.
name = "Subtraction game {1, 3, 4}"
local S = { 1, 3, 4 }

function moves(n)
  local out = {}
  for _, s in ipairs(S) do
    if s <= n then out[#out + 1] = n - s end
  end
  return out
end
