#!/usr/bin/env python3
"""The clients of Scripts/measure-large-answers.sh, over loopback.

  large-answers.py heavy URL FORMAT BASE...   one whole-history request per base at once
      (`/v2/rates?from=1999-01-04&expand=providers&base=BASE`, JSON or NDJSON), each retried after
      its Retry-After while the server answers 503; prints per request its status, bytes, refusals
      and time, and checks that each answer parses whole.
  large-answers.py latency URL SECONDS         GETs /v1/latest one after another on one keep-alive
      connection for SECONDS; prints the count and the median and 99th percentile in ms.
  large-answers.py subscribers URL COUNT READY WAIT
      opens COUNT /v1/events streams, writes READY once every stream has said ": connected", then
      waits up to WAIT seconds for a publication event on each; prints how many connected and
      received, and the wall-clock times of the first and last receipt.
"""
import asyncio
import http.client
import json
import statistics
import sys
import threading
import time
import urllib.parse


def heavy(url, format, bases):
    parts = urllib.parse.urlsplit(url)
    accept = "application/x-ndjson" if format == "ndjson" else "application/json"
    results = {}

    def fetch(base):
        refusals, started = 0, time.monotonic()
        while True:
            connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600)
            connection.request("GET", f"/v2/rates?from=1999-01-04&expand=providers&base={base}", headers={"Accept": accept})
            response = connection.getresponse()
            if response.status == 503:
                response.read()
                refusals += 1
                time.sleep(float(response.getheader("Retry-After", "1")))
                continue
            # Read as it comes and let go, keeping the tail: its last record must parse whole.
            size, tail = 0, b""
            while chunk := response.read(1 << 16):
                size += len(chunk)
                tail = (tail + chunk)[-4096:]
            if response.status == 200:
                last = tail.rstrip(b"\n]").rsplit(b"\n" if format == "ndjson" else b',{"date"', 1)[-1]
                record = json.loads(last if format == "ndjson" else b'{"date"' + last)
                assert record["base"] == base, f"{base}: {record}"
            results[base] = (response.status, size, refusals, time.monotonic() - started)
            return

    threads = [threading.Thread(target=fetch, args=(base,)) for base in bases]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for base in bases:
        status, size, refusals, seconds = results[base]
        print(f"  {format} base={base}: {status}, {size / 1e6:.1f} MB in {seconds:.1f} s after {refusals} refusal(s) (503)")


def latency(url, seconds):
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    times, deadline = [], time.monotonic() + float(seconds)
    while time.monotonic() < deadline:
        started = time.monotonic()
        connection.request("GET", "/v1/latest?base=USD")
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status
        times.append((time.monotonic() - started) * 1000)
    times.sort()
    print(f"{len(times)} {statistics.median(times):.3f} {times[int(len(times) * 0.99)]:.3f}")


async def subscribers(url, count, ready_file, wait):
    parts = urllib.parse.urlsplit(url)
    received, connected = [], 0
    request = f"GET /v1/events HTTP/1.1\r\nHost: {parts.hostname}\r\nAccept: text/event-stream\r\n\r\n".encode()

    async def subscribe():
        nonlocal connected
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        writer.write(request)
        buffer = b""
        while b": connected" not in buffer:
            chunk = await reader.read(4096)
            if not chunk:
                raise ConnectionError("closed before connecting")
            buffer += chunk
        connected += 1
        return reader, writer

    streams = []
    for start in range(0, count, 500):   # in batches, so the listen backlog never overflows
        streams += await asyncio.gather(*(subscribe() for _ in range(start, min(count, start + 500))), return_exceptions=True)
    open(ready_file, "w").write(str(connected))

    async def listen(reader):
        buffer = b""
        while b"event: publication" not in buffer:
            chunk = await reader.read(4096)
            if not chunk:
                return
            buffer += chunk
        received.append(time.time())

    live = [stream for stream in streams if not isinstance(stream, BaseException)]
    try:
        await asyncio.wait_for(asyncio.gather(*(listen(reader) for reader, _ in live)), timeout=float(wait))
    except asyncio.TimeoutError:
        pass
    for _, writer in live:
        writer.close()
    print(json.dumps({"connected": connected, "received": len(received),
                      "first": min(received, default=0), "last": max(received, default=0)}))


if __name__ == "__main__":
    mode, url, *rest = sys.argv[1:]
    if mode == "heavy":
        heavy(url, rest[0], rest[1:])
    elif mode == "latency":
        latency(url, rest[0])
    else:
        asyncio.run(subscribers(url, int(rest[0]), rest[1], rest[2]))
