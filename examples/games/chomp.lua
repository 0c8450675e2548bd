-- Chomp: a chocolate bar whose bottom-left square is poisoned. A move bites a square and
-- everything above and to its right; whoever must take the poison loses (it is never a
-- move). The position is the list of column heights, left to right, never increasing:
-- {3, 3, 3, 3} is a 3 x 4 bar.
name = "Chomp"

function moves(h)
  local out = {}
  for c = 1, #h do
    for r = 0, h[c] - 1 do
      if c > 1 or r > 0 then
        local t = {}
        for j = 1, #h do
          local v = h[j]
          if j >= c and v > r then v = r end
          if v > 0 then t[#t + 1] = v end
        end
        out[#out + 1] = t
      end
    end
  end
  return out
end

-- The bar flipped over its diagonal is the same game: columns become rows.
local function transpose(h)
  local t = {}
  for r = 1, h[1] or 0 do
    local n = 0
    for j = 1, #h do if h[j] >= r then n = n + 1 end end
    t[r] = n
  end
  return t
end

-- One representative of {h, transpose(h)}: the lexicographically smaller.
function canon(h)
  local t = transpose(h)
  for i = 1, math.max(#h, #t) do
    local a, b = h[i] or 0, t[i] or 0
    if a ~= b then
      if a < b then return h else return t end
    end
  end
  return h
end

function show(h)
  return "columns " .. table.concat(h, " ")
end
