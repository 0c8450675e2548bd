-- Mock Turtles (Winning Ways, ch. 14), a coin-turning game: coins in a row, numbered from
-- 0; the position is the sorted list of the coins showing heads. A move turns over one,
-- two or three coins, the rightmost of which must go from heads to tails.
name = "Mock Turtles"

local function toggle(set, xs)
  local on = {}
  for _, x in ipairs(set) do on[x] = true end
  for _, x in ipairs(xs) do on[x] = not on[x] end
  local out = {}
  for x, v in pairs(on) do if v then out[#out + 1] = x end end
  table.sort(out)
  return out
end

function moves(heads)
  local out = {}
  for _, x in ipairs(heads) do
    out[#out + 1] = toggle(heads, { x })
    for y = 0, x - 1 do
      out[#out + 1] = toggle(heads, { x, y })
      for z = y + 1, x - 1 do
        out[#out + 1] = toggle(heads, { x, y, z })
      end
    end
  end
  return out
end

-- Every coin-turning game is the sum of its heads coins, each alone (Winning Ways):
-- without this the positions below coin x would be all 2^x sets of heads.
function split(heads)
  if #heads < 2 then return nil end
  local parts = {}
  for i, x in ipairs(heads) do parts[i] = { x } end
  return parts
end

function show(heads)
  local top = heads[#heads] or -1
  local on = {}
  for _, x in ipairs(heads) do on[x] = true end
  local s = {}
  for i = 0, top do s[#s + 1] = on[i] and "H" or "T" end
  return #s > 0 and table.concat(s) or "all tails"
end
