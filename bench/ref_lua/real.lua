-- real.lua — a Lua 5.4 port of the bundled line_of_sight and defensive_bonus under the default
-- edition and readings, on the real-rules board (docs/spec/bench.md §8), and its driver:
--   lua5.4 real.lua ITERATIONS BOARD STRIDE
-- The same rules, board and checksum line as bench/real_c.c and bench/real_hon.c (hon asked
-- through include/hon.h); run_bench.py compares the three. Written as a careful embedder would:
-- flat arrays indexed by square (0-based, as the board file), everything held in locals.

local iters = math.tointeger(tonumber(arg[1] or ""))
local path = arg[2]
local stride = math.tointeger(tonumber(arg[3] or ""))
if not iters or iters < 0 or not path or not stride or stride < 1 then
  io.stderr:write("usage: lua5.4 real.lua ITERATIONS BOARD STRIDE\n")
  os.exit(2)
end

local BLOCKED, OBSCURED, CLEAR = 0, 1, 2                 -- enum sight, worst first
local WOODS, BUILDING, HEDGE, TRENCH = 1, 2, 3, 4        -- the board's terrain codes
local VALUE = { [0] = 0, 1, 3, 0, 2, 0 }                 -- element value by terrain code
local NO_LIMIT = 999
local MOD = 1000000007

-- The board file of bench/gen.c.
local f = assert(io.open(path, "r"))
local function int() return assert(math.tointeger(f:read("n")), path .. ": malformed board") end
local W, H = int(), int()
local NSQ = W * H
local elev, code = {}, {}
for q = 0, NSQ - 1 do elev[q] = int() end
for q = 0, NSQ - 1 do code[q] = int() end
local N = int()
local usq, infantry, vehicle, occ = {}, {}, {}, {}
for q = 0, NSQ - 1 do occ[q] = -1 end
for u = 0, N - 1 do
  local x, y, kind = int(), int(), int()
  int()                                                   -- base defense: not in these rules
  usq[u] = y * W + x
  occ[usq[u]] = u
  infantry[u] = kind == 0 or kind == 2                    -- rifle squad; officer, a character
  vehicle[u] = kind == 1                                  -- jeep, a light vehicle
end
f:close()

-- terrain_sight of each square; elements (connected squares of one valued terrain) and their
-- hole squares.
local tsight, elem, evalue = {}, {}, {}
for q = 0, NSQ - 1 do
  local c = code[q]
  tsight[q] = c == BUILDING and BLOCKED or (c == WOODS or c == TRENCH) and OBSCURED or CLEAR
  elem[q] = -1
end
local ne = 0
for q0 = 0, NSQ - 1 do
  local c = code[q0]
  if VALUE[c] ~= 0 and elem[q0] < 0 then
    local stack = { q0 }
    elem[q0], evalue[ne] = ne, VALUE[c]
    while #stack > 0 do
      local q = table.remove(stack)
      local x, y = q % W, q // W
      for _, r in ipairs({ x > 0 and q - 1 or -1, x + 1 < W and q + 1 or -1,
                           y > 0 and q - W or -1, y + 1 < H and q + W or -1 }) do
        if r >= 0 and elem[r] < 0 and code[r] == c then elem[r] = ne; stack[#stack + 1] = r end
      end
    end
    ne = ne + 1
  end
end

-- Sides between orthogonal neighbours: vertical ones (q, q+1) are q, horizontal ones (q, q+W)
-- are NSQ + q. Hedge and contour sides; red lines: contour sides joined where they meet at an
-- interior grid point (union-find).
local function side_between(a, b)
  if a > b then a, b = b, a end
  if b - a == 1 then return a end
  return NSQ + a
end
local hedge, contour, up = {}, {}, {}
for q = 0, NSQ - 1 do
  for _, r in ipairs({ q % W + 1 < W and q + 1 or -1, q // W + 1 < H and q + W or -1 }) do
    if r >= 0 then
      local sd = side_between(q, r)
      contour[sd] = elev[q] ~= elev[r]
      hedge[sd] = code[q] == HEDGE or code[r] == HEDGE
      up[sd] = sd
    end
  end
end
local function root(a)
  while up[a] ~= a do up[a] = up[up[a]]; a = up[a] end
  return a
end
for y = 0, H - 2 do
  for x = 0, W - 2 do
    local nw = y * W + x
    local first
    for _, sd in ipairs({ side_between(nw, nw + 1), side_between(nw + W, nw + W + 1),
                          side_between(nw, nw + W), side_between(nw + 1, nw + W + 1) }) do
      if contour[sd] then
        if first then up[root(sd)] = root(first) else first = sd end
      end
    end
  end
end
local redline, crossed = {}, {}
for sd in pairs(up) do redline[sd] = root(sd); crossed[redline[sd]] = 0 end

local shot_no = 0
local function distance(a, b)
  local dx, dy = a % W - b % W, a // W - b // W
  if dx < 0 then dx = -dx end
  if dy < 0 then dy = -dy end
  return dx > dy and dx or dy
end
local function same_element(a, b) return elem[a] >= 0 and elem[a] == elem[b] end
local function side_sight(a, b) return hedge[side_between(a, b)] and OBSCURED or CLEAR end

-- crosses(st, contour) under corner_touch both_sides, marking the red lines crossed.
local function cross_side(a, b)
  local sd = side_between(a, b)
  if contour[sd] then crossed[redline[sd]] = shot_no; return true end
  return false
end
local function cross_contour(from, sq, corner, left, right)
  if not corner then return cross_side(from, sq) end
  local c1 = contour[side_between(from, left)] or contour[side_between(left, sq)]
  local c2 = contour[side_between(from, right)] or contour[side_between(right, sq)]
  if not (c1 and c2) then return false end
  cross_side(from, left); cross_side(left, sq); cross_side(from, right); cross_side(right, sq)
  return true
end

-- next_to_crossed_contour under contour_adjacency whole_line.
local function next_to_crossed(q)
  local x, y = q % W, q // W
  for _, r in ipairs({ x > 0 and q - 1 or -1, x + 1 < W and q + 1 or -1,
                       y > 0 and q - W or -1, y + 1 < H and q + W or -1 }) do
    if r >= 0 then
      local sd = side_between(q, r)
      if contour[sd] and crossed[redline[sd]] == shot_no then return true end
    end
  end
  return false
end

-- screens: whether the unit on q (not an end of the shot) blocks it.
local function screened(q, s, t, both_inf)
  local u = occ[q]
  if u < 0 or u == s or u == t then return false end
  if infantry[u] then
    if code[q] == TRENCH and not (same_element(q, usq[s]) and same_element(q, usq[t])) then
      return false                                        -- hole_outside
    end
    return both_inf                                       -- hole_same_element, infantry
  end
  return vehicle[u]                                       -- vehicles (presumed)
end

local function hole_blocks(q, a) return not same_element(q, a) end
local function min(a, b) if a < b then return a end return b end
local function max(a, b) if a > b then return a end return b end

-- line_of_sight(s, t): the worst of sight_along's rules along the supercover line (geo.c's
-- walk), stopping as soon as it is blocked.
local function line_of_sight(s, t)
  local A, B = usq[s], usq[t]
  local both_inf = infantry[s] and infantry[t]
  local hole_shot = code[A] == TRENCH and same_element(A, B)
  local x, y, bx, by = A % W, A // W, B % W, B // W
  local sx = bx > x and 1 or bx < x and -1 or 0
  local sy = by > y and 1 or by < y and -1 or 0
  local nx, ny = bx - x, by - y
  if nx < 0 then nx = -nx end
  if ny < 0 then ny = -ny end
  local ix, iy, best, limit = 0, 0, CLEAR, NO_LIMIT
  shot_no = shot_no + 1
  while x ~= bx or y ~= by do
    local cmp
    if nx == 0 then cmp = 1
    elseif ny == 0 then cmp = -1
    else
      local l, r = (2 * ix + 1) * ny, (2 * iy + 1) * nx
      cmp = l < r and -1 or l > r and 1 or 0
    end
    local from, corner, left, right = y * W + x, cmp == 0, nil, nil
    if corner then left, right = y * W + x + sx, (y + sy) * W + x end
    if cmp <= 0 then x = x + sx; ix = ix + 1 end
    if cmp >= 0 then y = y + sy; iy = iy + 1 end
    local sq = y * W + x
    local ts = sq == B and CLEAR or tsight[sq]                         -- terrain_between
    local ss
    if corner then
      ts = min(ts, max(tsight[left], tsight[right]))
      ss = max(min(side_sight(from, left), side_sight(left, sq)),     -- sides_crossed
               min(side_sight(from, right), side_sight(right, sq)))
    else
      ss = side_sight(from, sq)
    end
    best = min(best, min(ts, ss))
    if (sq ~= B and screened(sq, s, t, both_inf))                     -- units_between
       or (corner and screened(left, s, t, both_inf) and screened(right, s, t, both_inf)) then
      return BLOCKED
    end
    if hole_shot and ((sq ~= B and hole_blocks(sq, A))                -- hole_corners
                      or (corner and (hole_blocks(left, A) or hole_blocks(right, A)))) then
      return BLOCKED
    end
    if best == BLOCKED then return BLOCKED end
    if cross_contour(from, sq, corner, left, right) then             -- range_limit_along
      limit = min(limit, distance(A, sq))
    end
  end
  if limit ~= NO_LIMIT and distance(A, B) > limit and not next_to_crossed(A)
     and not next_to_crossed(B) then
    return BLOCKED
  end
  return best
end

-- defensive_bonus(t, s): universal and infantry_in_trench, lost inside the same trench.
local function defensive_bonus(t, s)
  local B = usq[t]
  local c = code[B]
  local lost = c == TRENCH and same_element(usq[s], B)
  local d = 0
  if (c == WOODS or c == BUILDING) and not lost then d = d + evalue[elem[B]] end
  if infantry[t] and c == TRENCH and not lost then d = d + evalue[elem[B]] end
  return d
end

local nb, nobs, ncl, sum, h, asked = 0, 0, 0, 0, 0, 0
local started = os.clock()
for _ = 1, iters do
  nb, nobs, ncl, sum, h = 0, 0, 0, 0, 0
  local k = 0
  for s = 0, N - 1 do
    for t = 0, N - 1 do
      if s ~= t then
        if k % stride == 0 then
          local v = line_of_sight(s, t)
          asked = asked + 1
          if v == BLOCKED then
            nb = nb + 1
          else
            if v == CLEAR then ncl = ncl + 1 else nobs = nobs + 1 end
            local d = defensive_bonus(t, s)
            local p = s * N + t + 1
            sum = sum + d
            h = (h + p * p % MOD * (d + 1 + v)) % MOD
          end
        end
        k = k + 1
      end
    end
  end
end
local dt = os.clock() - started
io.write(("real checksum blocked=%d obscured=%d clear=%d sumbonus=%d h=%d\n"):format(
  nb, nobs, ncl, sum, h))
if asked > 0 then
  io.stderr:write(("lua: %d pairs, %.4f s cpu, %.1f ns/pair\n"):format(asked, dt, dt * 1e9 / asked))
end
