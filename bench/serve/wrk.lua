-- wrk script for bench/serve: requests rotate over the paths in the file
-- named by WRK_PATHS (one per line); POSTs send WRK_BODY_FILE's contents.
-- done() prints one line: RESULT requests duration_us errors p50_us p99_us.
local paths = {}
local i = 0
local method = os.getenv("WRK_METHOD") or "GET"
local body = nil
local unique = os.getenv("WRK_UNIQUE") == "1"

function init(args)
  for line in io.lines(os.getenv("WRK_PATHS")) do
    if #line > 0 then paths[#paths + 1] = line end
  end
  local bf = os.getenv("WRK_BODY_FILE")
  if bf then
    local f = io.open(bf, "rb")
    body = f:read("*a")
    f:close()
  end
  i = math.random(#paths)
end

function request()
  i = i % #paths + 1
  local path = paths[i]
  if unique then
    -- A query string no earlier request used: nothing can be answered
    -- from a response cache.
    path = path .. "&n=" .. tostring(math.random(1, 1000000000))
  end
  if body then
    return wrk.format(method, path, {["Content-Type"] = "text/plain"}, body)
  end
  return wrk.format(method, path)
end

function done(summary, latency, requests)
  local e = summary.errors
  local errors = e.connect + e.read + e.write + e.status + e.timeout
  io.write(string.format("RESULT %d %d %d %d %d\n", summary.requests, summary.duration, errors,
                         latency:percentile(50), latency:percentile(99)))
end
