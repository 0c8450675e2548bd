-- Two kings on a bridge one square wide move toward each other, any number of squares
-- but never onto or past the other. The position is the number of empty squares between.
name = "Kings on a bridge"

function moves(gap)
  local out = {}
  for k = 1, gap do out[#out + 1] = gap - k end
  return out
end

function show(gap)
  return "K" .. string.rep(".", gap) .. "K"
end
