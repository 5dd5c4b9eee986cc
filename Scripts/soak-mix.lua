-- A realistic mix of Rates Relay requests for wrk (used by Scripts/soak.sh).
-- Env: SOAK_CURSOR (an up-to-date /v1/sync cursor), SOAK_ETAG (its ETag).
-- Counts 5xx answers as errors (wrk's own "Non-2xx or 3xx" also counts the intended 4xx here)
-- and reports per-status-class counts in done().

local cursor = os.getenv("SOAK_CURSOR") or ""
local etag = os.getenv("SOAK_ETAG") or ""

local currencies = { "USD", "JPY", "GBP", "CHF", "AUD", "CAD", "SEK", "NOK", "PLN", "CZK", "HUF", "TRY", "ZAR", "EUR" }
local amounts = { "1", "10", "99.95", "1000", "0.01", "123456.789" }

local function pick(list) return list[math.random(#list)] end
local function randomDate()
    return string.format("%04d-%02d-%02d", math.random(1999, 2026), math.random(1, 12), math.random(1, 28))
end

-- Weighted list of request builders: {weight, function returning path, headers}.
local mix = {
    { 14, function() return "/v1/latest" end },
    { 8,  function() return "/v1/latest?base=" .. pick(currencies) end },
    { 8,  function() return "/v1/latest?base=USD&symbols=EUR,GBP,JPY" end },
    { 18, function() return string.format("/v1/convert?from=%s&to=%s&amount=%s", pick(currencies), pick(currencies), pick(amounts)) end },
    { 10, function() return string.format("/v1/convert?from=%s&to=%s&amount=%s&date=%s", pick(currencies), pick(currencies), pick(amounts), randomDate()) end },
    { 6,  function() return "/v1/rates/" .. randomDate() .. "?symbols=USD,JPY" end },
    { 6,  function() local y = math.random(2000, 2025); return string.format("/v1/timeseries?start=%d-01-01&end=%d-03-31&symbols=USD,GBP", y, y) end },
    { 3,  function() return "/v1/sync?from=2026-10-01" end },
    { 8,  function() return "/v1/sync?cursor=" .. cursor end },
    { 8,  function() return "/v1/sync?cursor=" .. cursor, { ["If-None-Match"] = etag } end },
    { 4,  function() return "/v1/currencies" end },
    { 3,  function() return "/v1/status" end },
    -- intended client errors: unknown path, bad currency, bad date, malformed cursor
    { 1,  function() return "/v1/nope" end },
    { 1,  function() return "/v1/convert?from=usd&to=EUR" end },
    { 1,  function() return "/v1/rates/2026-13-45" end },
    { 1,  function() return "/v1/sync?cursor=not-a-cursor" end },
}
local total = 0
for _, entry in ipairs(mix) do total = total + entry[1] end

local threads = {}
function setup(thread)
    thread:set("id", #threads + 1)
    table.insert(threads, thread)
end

function init(args)
    math.randomseed(os.time() * 1000 + id)
    s2xx, s3xx, s4xx, s5xx = 0, 0, 0, 0
end

function request()
    local r = math.random(total)
    for _, entry in ipairs(mix) do
        r = r - entry[1]
        if r <= 0 then
            local path, headers = entry[2]()
            return wrk.format("GET", path, headers)
        end
    end
end

function response(status, headers, body)
    if status >= 500 then s5xx = s5xx + 1
    elseif status >= 400 then s4xx = s4xx + 1
    elseif status >= 300 then s3xx = s3xx + 1
    else s2xx = s2xx + 1 end
end

function done(summary, latency, requests)
    local c = { 0, 0, 0, 0 }
    for _, thread in ipairs(threads) do
        c[1] = c[1] + thread:get("s2xx"); c[2] = c[2] + thread:get("s3xx")
        c[3] = c[3] + thread:get("s4xx"); c[4] = c[4] + thread:get("s5xx")
    end
    local e = summary.errors
    io.write(string.format("SOAK requests=%d seconds=%.1f rps=%.0f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f\n",
        summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
    io.write(string.format("SOAK status2xx=%d status3xx=%d status4xx=%d status5xx=%d\n", c[1], c[2], c[3], c[4]))
    io.write(string.format("SOAK socket_connect=%d socket_read=%d socket_write=%d socket_timeout=%d\n",
        e.connect, e.read, e.write, e.timeout))
end
