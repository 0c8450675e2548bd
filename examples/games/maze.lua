-- A maze game: a figure moves any number of cells left or up, never through a wall (#).
-- The position is the figure's cell {row, column}, counted from 0 at the top left.
name = "Maze"

MAZE = [[
.....#..
..#.....
.....#..
#.......
....#...
]]

local grid = {}
for line in string.gmatch(MAZE, "[^\n]+") do grid[#grid + 1] = line end

local function floor(r, c)
  return r >= 0 and c >= 0 and string.sub(grid[r + 1], c + 1, c + 1) == "."
end

function moves(p)
  local r, c = p[1], p[2]
  local out = {}
  local k = 1
  while floor(r, c - k) do out[#out + 1] = { r, c - k }; k = k + 1 end
  k = 1
  while floor(r - k, c) do out[#out + 1] = { r - k, c }; k = k + 1 end
  return out
end

function show(p)
  return "(" .. p[1] .. ", " .. p[2] .. ")"
end
