#!/usr/bin/env python3
"""The merge's quality on a running server, from its own answers: served values against the sources'
same-day figures (`/v2/rates?expand=providers`), the issuers the registry declares
(Sources/RatesUpstream/ProviderRegistry.swift) and the declared pegs (Sources/RatesCore/FixedParity.swift),
read from this checkout so that a build of another version is judged by the same rules.

Usage: Scripts/merge-quality.py BASE_URL FROM TO
Prints, over the days FROM..TO:
  - pegged values more than 0.5% from parity x anchor where the issuer published nothing that day;
  - days an issuer published a currency and another source's figure was served (the ECB's aside);
  - of the values served by neither the ECB, the issuer nor a peg, with three or more sources
    publishing that day: how many are more than 1% and 2% from those sources' median, by source.
"""
import json, re, statistics, sys, urllib.request
from collections import Counter, defaultdict

base, first, last = sys.argv[1], sys.argv[2], sys.argv[3]


def get(path):
    with urllib.request.urlopen(base + path, timeout=600) as answer:
        return json.load(answer)


issuers = defaultdict(set)  # currency -> keys of the sources that issue it
registry = open("Sources/RatesUpstream/ProviderRegistry.swift").read()
# Each row names its adapter (`NBPProvider.self`, the key before `Provider`), then its facts, `issues:` among the first.
rows = re.findall(r'\b([A-Z]+)Provider\.self,.*?issues: \[([^\]]*)\]', registry, re.S)
if len(rows) < 90:
    sys.exit(f"read {len(rows)} rows of the registry's table in ProviderRegistry.swift: its layout changed")
for key, issued in rows:
    for currency in re.findall(r'"([A-Z]{3})"', issued):
        issuers[currency].add(key)
pegs = {}  # currency -> (anchor, rate, since)
source = open("Sources/RatesCore/FixedParity.swift").read()
for currency, anchor, rate, since in re.findall(r'FixedParity\("([A-Z]{3})", per: "([A-Z]{3})", "([0-9.]+)", since: "([0-9-]+)"', source):
    pegs[currency] = (anchor, float(rate), since)

records = get(f"/v2/rates?from={first}&to={last}&expand=providers")
served = {(r["date"], r["quote"]): r for r in records}

peg_values = peg_off = 0
peg_worst = (0.0, "")
lost = Counter()
lost_examples = []
judged = 0
over = {0.01: Counter(), 0.02: Counter()}
judged_by = Counter()
worst = (0.0, "")
for (day, currency), record in sorted(served.items()):
    entries = record.get("providers", [])
    same_day = [e for e in entries if e["date"] == day]
    provider = entries[0]["key"] if entries else "PEG"  # the served value's provider is listed first
    issuer_published = [e["key"] for e in same_day if e["key"] in issuers.get(currency, ())]
    if currency in pegs and not issuer_published:
        anchor, rate, since = pegs[currency]
        anchor_value = 1.0 if anchor == "EUR" else served.get((day, anchor), {}).get("rate")
        if day >= since and anchor_value:
            peg_values += 1
            deviation = abs(record["rate"] / (rate * anchor_value) - 1)
            peg_off += deviation > 0.005
            peg_worst = max(peg_worst, (deviation, f"{currency} {day} from {provider}"))
    if issuer_published and provider not in issuers[currency] and provider != "ECB":
        lost[issuer_published[0]] += 1
        lost_examples.append(f"{currency} {day}: {provider} served, {issuer_published[0]} published")
    if provider in ("ECB", "PEG") or provider in issuers.get(currency, ()) or len(same_day) < 3:
        continue
    median = statistics.median(e["rate"] for e in same_day)
    deviation = abs(record["rate"] / median - 1)
    judged += 1
    judged_by[provider] += 1
    for bound in over:
        over[bound][provider] += deviation > bound
    worst = max(worst, (deviation, f"{currency} {day} from {provider}"))

print(f"  days {first} .. {last}: {len(served)} served values")
print(f"  pegged values where the issuer is silent: {peg_values}; more than 0.5% off parity: {peg_off}"
      f" (worst {peg_worst[0]:.2%}{', ' + peg_worst[1] if peg_worst[1] else ''})")
print(f"  days an issuer published and another figure was served: {sum(lost.values())} {dict(lost.most_common())}")
for example in lost_examples[:5]:
    print(f"    {example}")
share = lambda n: f"{n} ({n / judged:.1%})" if judged else "0"
print(f"  values served by neither the ECB, the issuer nor a peg, with 3+ same-day sources: {judged}; "
      f"> 1% from their median: {share(sum(over[0.01].values()))}; > 2%: {share(sum(over[0.02].values()))}"
      f" (worst {worst[0]:.2%}{', ' + worst[1] if worst[1] else ''})")
for provider, count in judged_by.most_common():
    if over[0.01][provider]:
        print(f"    {provider}: {over[0.01][provider]} of {count} > 1%, {over[0.02][provider]} > 2%")
