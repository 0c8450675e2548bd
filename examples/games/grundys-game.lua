-- Grundy's game: split one heap into two nonempty heaps of different sizes.
name = "Grundy's game"

function moves(n)
  local out = {}
  local a = 1
  while a < n - a do
    out[#out + 1] = sum(a, n - a)
    a = a + 1
  end
  return out
end
