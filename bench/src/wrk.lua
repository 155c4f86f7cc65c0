-- wrk script: request shape from env, one machine-readable summary line at the end.
local body = os.getenv("BENCH_BODY")
local auth = os.getenv("BENCH_AUTH")
wrk.method = os.getenv("BENCH_METHOD") or "GET"
if body ~= nil and body ~= "" then
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end
if auth ~= nil and auth ~= "" then
  wrk.headers["Authorization"] = auth
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests":%d,"duration_us":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.2f}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
