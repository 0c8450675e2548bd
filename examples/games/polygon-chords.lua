-- The polygon chord game (BOJ 13034): on a convex polygon of n vertices, draw a chord
-- between two unused vertices that crosses no other chord. The chord from vertex i to
-- vertex i + d leaves d - 1 vertices on one side and n - d - 1 on the other, which can no
-- longer be joined: two independent polygons.
name = "Polygon chords"

function moves(n)
  local out = {}
  for d = 1, n - 1 do
    local a, b = d - 1, n - d - 1
    if a <= b then out[#out + 1] = sum(a, b) end
  end
  return out
end

function show(n)
  return n .. " free vertices"
end
