-- los_rules.lua — the line-of-sight workload in Lua 5.4 (docs/spec/bench.md): the same walk,
-- blocking, contour and defense rules and the same checksum as bench/ref_c.c and bench/los.hon.
-- Tuned the way a careful embedder would write it: flat 1-based arrays, every table and
-- constant held in a local, the Bresenham walk inlined in the pair loop, integer arithmetic only.
-- Evaluating this chunk returns { load = fn(path) -> board, evaluate = fn(board) -> v, sumdef, h }.

local BUILDING, HEDGE, TRENCH, INFANTRY = 2, 3, 4, 0
local MOD = 1000000007
local BONUS = { [0] = 0, 1, 3, 2, 2, 1 }        -- terrain bonus by code 0..5

local M = {}

-- Reads the text format of bench/gen.c. Squares are 1-based: (x, y) is y*w + x + 1.
-- occ[q] is the 1-based unit on the square or 0. Raises an error on a malformed file.
function M.load(path)
  local f = assert(io.open(path, "r"))
  local function int(what)
    local v = f:read("n")
    if math.type(v) ~= "integer" then error(path .. ": expected " .. what, 0) end
    return v
  end
  local b = {}
  b.w, b.h = int("width"), int("height")
  b.elev, b.terr, b.occ = {}, {}, {}                 -- per square
  b.ux, b.uy, b.kind, b.base = {}, {}, {}, {}        -- per unit
  local cells = b.w * b.h
  for q = 1, cells do b.elev[q] = int("elevation") end
  for q = 1, cells do
    local t = int("terrain code")
    if BONUS[t] == nil then error(path .. ": bad terrain code " .. t, 0) end
    b.terr[q] = t; b.occ[q] = 0
  end
  b.n = int("unit count")
  for u = 1, b.n do
    local x, y = int("unit x"), int("unit y")
    if x < 0 or x >= b.w or y < 0 or y >= b.h then error(path .. ": unit off the board", 0) end
    b.ux[u], b.uy[u], b.kind[u], b.base[u] = x, y, int("unit kind"), int("base defense")
    b.occ[y * b.w + x + 1] = u
  end
  f:close()
  return b
end

-- One evaluation over every ordered pair (s then t, 1-based): visible count, sum of
-- defense, and h = sum of p*p*(defense+1) mod 1e9+7 with p = (s-1)*50 + t.
function M.evaluate(b)
  local w, n = b.w, b.n
  local elev, terr, occ = b.elev, b.terr, b.occ
  local ux, uy, kind, base = b.ux, b.uy, b.kind, b.base
  local bonus = BONUS
  local visible, sumdef, h = 0, 0, 0
  for s = 1, n do
    local sx, sy, skind = ux[s], uy[s], kind[s]
    local selev = elev[sy * w + sx + 1]
    local sterr = terr[sy * w + sx + 1]
    for t = 1, n do
      if t ~= s then
        local tx, ty = ux[t], uy[t]
        local infantry_pair = skind == INFANTRY and kind[t] == INFANTRY
        local adx, ady = tx - sx, ty - sy
        local stepx, stepy = 1, 1
        if adx < 0 then adx = -adx; stepx = -1 end
        if ady < 0 then ady = -ady; stepy = -1 end
        local x, y, err, from = sx, sy, adx - ady, selev
        local clear = true
        while x ~= tx or y ~= ty do
          local twice = err + err
          if twice >= -ady then err = err - ady; x = x + stepx end
          if twice <= adx then err = err + adx; y = y + stepy end
          local q = y * w + x + 1
          if x ~= tx or y ~= ty then                       -- a square on the way
            local tr = terr[q]
            if tr == BUILDING or tr == HEDGE then clear = false; break end
            local o = occ[q]
            if o ~= 0 and infantry_pair and kind[o] == INFANTRY then clear = false; break end
          end
          local e = elev[q]
          if e > from then                                 -- the line climbs a contour at q
            local dt, ds = x - tx, y - ty
            if dt < 0 then dt = -dt end
            if ds < 0 then ds = -ds end
            if ds > dt then dt = ds end                      -- dt = Chebyshev(q, target)
            if dt > 1 then
              local d1, d2 = x - sx, y - sy
              if d1 < 0 then d1 = -d1 end
              if d2 < 0 then d2 = -d2 end
              if d2 > d1 then d1 = d2 end                    -- d1 = Chebyshev(q, shooter)
              if d1 > 1 then clear = false; break end
            end
          end
          from = e
        end
        if clear then
          local tq = ty * w + tx + 1
          local tterr = terr[tq]
          local d = base[t] + bonus[tterr]
          if tterr == TRENCH and kind[t] == INFANTRY and sterr ~= TRENCH then d = d + 1 end
          local p = (s - 1) * 50 + t
          visible = visible + 1
          sumdef = sumdef + d
          h = (h + p * p * (d + 1)) % MOD
        end
      end
    end
  end
  return visible, sumdef, h
end

return M
