-- Kayles: knock down one pin or two adjacent pins from a row of n pins.
-- What is left is two rows (either may be empty): a sum of two independent games.
name = "Kayles"

function moves(n)
  local out = {}
  for k = 1, 2 do
    for a = 0, n - k do
      local b = n - k - a
      if a <= b then out[#out + 1] = sum(a, b) end
    end
  end
  return out
end
