-- Pimber: remove a Fibonacci number (1, 2, 3, 5, 8, ...) of tokens from a heap.
name = "Pimber"

function moves(n)
  local out = {}
  local f, g = 1, 2
  while f <= n do
    out[#out + 1] = n - f
    f, g = g, f + g
  end
  return out
end
