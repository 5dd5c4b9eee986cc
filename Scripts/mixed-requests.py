#!/usr/bin/env python3
"""Writes a list of distinct Rates Relay request paths, a mixed workload like a converter
app's traffic: latest and random dates 1999-2026, random bases and symbol subsets, conversions
with random amounts and dates, short time series. Used by Scripts/measure-mixed.sh.

Usage: mixed-requests.py COUNT SEED > paths.txt
"""
import random
import sys

count, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
# Currencies the ECB published throughout 1999-2026, so every request has an answer.
bases = ["EUR", "USD", "JPY", "GBP", "CHF", "AUD", "CAD", "SEK", "NOK", "DKK", "CZK", "HUF", "PLN", "NZD", "HKD", "SGD", "KRW", "ZAR"]


def day(first=1999, last=2026):
    while True:
        year = rng.randint(first, last)
        month, dom = rng.randint(1, 12), rng.randint(1, 28)
        text = f"{year:04d}-{month:02d}-{dom:02d}"
        if "1999-01-04" <= text <= "2026-10-30":
            return text


def symbols():
    return ",".join(rng.sample([b for b in bases if b != "EUR"], rng.randint(1, 6)))


def amount():
    whole = str(rng.randint(1, 10 ** rng.randint(1, 9)))
    return whole if rng.random() < 0.5 else f"{whole}.{rng.randint(0, 99):02d}"


def latest():
    query = [f"base={rng.choice(bases)}"]
    if rng.random() < 0.5:
        query.append(f"symbols={symbols()}")
    if rng.random() < 0.3:
        query.append(f"amount={amount()}")
    return "/v1/latest?" + "&".join(query)


def rates():
    query = [f"base={rng.choice(bases)}"]
    if rng.random() < 0.4:
        query.append(f"symbols={symbols()}")
    return f"/v1/rates/{day()}?" + "&".join(query)


def convert():
    source, target = rng.sample(bases, 2)
    path = f"/v1/convert?from={source}&to={target}&amount={amount()}"
    return path + (f"&date={day()}" if rng.random() < 0.7 else "")


def timeseries():
    start = day(1999, 2025)
    year, month, dom = map(int, start.split("-"))
    end = f"{year:04d}-{month:02d}-{min(28, dom + rng.randint(2, 9)):02d}"
    return f"/v1/timeseries?start={start}&end={end}&base={rng.choice(bases)}&symbols={symbols()}"


kinds = [(latest, 20), (rates, 45), (convert, 25), (timeseries, 10)]
seen = set()
while len(seen) < count:
    make = rng.choices([k for k, _ in kinds], weights=[w for _, w in kinds])[0]
    path = make()
    if path not in seen:
        seen.add(path)
        print(path)
