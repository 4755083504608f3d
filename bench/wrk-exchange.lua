-- Benchmark yardstick (w): Debian's wrk (C, epoll) against the bare endpoint, the same rotating
-- exchange as tack's driver and the plain autocannon script: each answer's refresh_token is sent in
-- the next exchange. One connection per thread (wrk -t N -c N), so each thread's token is one
-- connection's chain. Prints `rotations N` at the end.
local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

function init(args)
  token = "bench-wrk-token-" .. tostring(id)
  rotations = 0
  host = args[1] or wrk.host
end

function request()
  return wrk.format("POST", "/realms/payroll/protocol/openid-connect/token",
    { ["Host"] = host, ["Content-Type"] = "application/x-www-form-urlencoded" },
    "grant_type=refresh_token&client_id=payroll-portal&refresh_token=" .. token)
end

function response(status, headers, body)
  if status ~= 200 then return end
  local next = body:match('"refresh_token":"([^"]+)"')
  if next and next ~= token then
    token = next
    rotations = rotations + 1
  end
end

function done(summary, latency, requests)
  local total = 0
  for _, t in ipairs(threads) do total = total + (t:get("rotations") or 0) end
  io.write(string.format("rotations %d\n", total))
end
