-- Odd-even Nim (BOJ 11871): take an odd number of tokens only if it empties the heap,
-- an even number only if it does not.
name = "Odd-even Nim"

function moves(n)
  local out = {}
  if n % 2 == 1 then out[#out + 1] = 0 end      -- the whole heap, an odd number
  for k = 2, n - 1, 2 do out[#out + 1] = n - k end -- an even number, leaving some
  return out
end
