-- Fibonacci Nim: position {pile, limit}. A move takes k tokens, 1 <= k <= limit; the next
-- player may take up to 2k. The game starts at {n, n - 1} (the first move may not take all).
name = "Fibonacci Nim"

function moves(p)
  local pile, limit = p[1], p[2]
  local out = {}
  for k = 1, math.min(limit, pile) do
    local rest = pile - k
    out[#out + 1] = { rest, math.min(2 * k, rest) }  -- a limit above the pile is the pile
  end
  return out
end

function show(p)
  return p[1] .. " tokens, take 1 to " .. math.min(p[1], p[2])
end
