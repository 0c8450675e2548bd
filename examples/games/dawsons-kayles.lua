-- Dawson's Kayles: knock down exactly two adjacent pins from a row of n pins.
-- The pins left form two rows (either may be empty): a sum of two games.
name = "Dawson's Kayles"

function moves(n)
  local out = {}
  for a = 0, n - 2 do
    local b = n - 2 - a
    if a <= b then out[#out + 1] = sum(a, b) end
  end
  return out
end
