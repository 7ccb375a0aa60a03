-- los.lua — driver of the Lua 5.4 reference: lua5.4 los.lua ITERATIONS BOARD
-- Loads los_rules.lua from its own directory, evaluates the workload ITERATIONS times, prints
-- the checksum line (zeros for 0 iterations) on stdout and the CPU time per pair on stderr.
-- Same command shape as bench/ref_c.c, so bench/run_bench.py measures both alike.

local iters = math.tointeger(tonumber(arg[1] or ""))
local path = arg[2]
if not iters or iters < 0 or not path then
  io.stderr:write("usage: lua5.4 los.lua ITERATIONS BOARD\n")
  os.exit(2)
end
local dir = (arg[0] or ""):match("^(.*[/\\])") or "./"
local rules = dofile(dir .. "los_rules.lua")
local ok, board = pcall(rules.load, path)
if not ok then
  io.stderr:write("los.lua: ", tostring(board), "\n")
  os.exit(1)
end

local evaluate = rules.evaluate
local visible, sumdef, h = 0, 0, 0
local started = os.clock()
for _ = 1, iters do
  visible, sumdef, h = evaluate(board)
end
local dt = os.clock() - started

io.write(("checksum visible=%d sumdef=%d h=%d\n"):format(visible, sumdef, h))
local pairs = iters * board.n * (board.n - 1)
if pairs > 0 then
  io.stderr:write(string.format("lua: %d iterations, %.4f s cpu, %.1f ns/pair\n",
    iters, dt, dt * 1e9 / pairs))
end
