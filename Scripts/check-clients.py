#!/usr/bin/env python3
"""Runs third-party client libraries from PyPI, unchanged but for their base URL, against a running
Rates Relay and checks that what each returns equals our own /v1 answers.

  frankfurter (PyPI)   Frankfurter v1 at api.frankfurter.dev/v1: latest, a date, a range, currencies, a conversion.
  forex-python (PyPI)  theratesapi.com's root API (Frankfurter's old host): latest, a date, a conversion, Decimal mode.
  tap-exchangeratehost (PyPI) 0.1.2, a Singer tap of api.exchangerate.host/timeseries: every day of a span,
                       run in its own virtual environment (TAP_PYTHON), its records compared with /v1/rates of each day.
  exrate (PyPI)        Frankfurter v2 at api.frankfurter.dev/v2: rates (a date, latest, a range, monthly means in CSV, --expand), a rate,
                       a conversion, currencies, one currency, providers.

None has a base URL setting: the frankfurter engine's host is a private attribute and its scheme
is written into its request line, forex-python's URL is a method, exrate's and the tap's are module
constants. Each is patched at that one place, nothing else.

Usage: Scripts/check-clients.py BASE_URL   (e.g. http://127.0.0.1:8080)
"""
import datetime
import decimal
import json
import sys
import urllib.parse
import urllib.request

base = sys.argv[1].rstrip("/")
host = urllib.parse.urlsplit(base).netloc
failures = []
checks = 0


def ours(path):
    with urllib.request.urlopen(base + path) as response:
        return json.load(response)


def expect(label, theirs, expected):
    global checks
    checks += 1
    if theirs != expected:
        failures.append(f"{label}: the client returned {theirs!r}, our /v1 answer is {expected!r}")
    else:
        print(f"  ok  {label}")


def without(answer, *keys):
    return {key: value for key, value in answer.items() if key not in keys}


# --- frankfurter 2.0.0 -------------------------------------------------------------------------
from frankfurter import engine as frankfurter_engine  # noqa: E402

real_request = urllib.request.Request
frankfurter_engine.Request = lambda url, **options: real_request(url.replace("https://", "http://", 1), **options)
client = frankfurter_engine.FrankfurterEngine()
client._FrankfurterEngine__base_url = host + "/v1"
print("frankfurter (PyPI), base URL http://" + host + "/v1")
expect("latest, base USD, EUR and JPY", client.fetch_latest_data(base="USD", symbols="EUR,JPY"), ours("/v1/latest?base=USD&symbols=EUR,JPY"))
expect("2020-03-16 in GBP", client.fetch_data_for_date("2020-03-16", base="GBP"), ours("/v1/rates/2020-03-16?base=GBP"))
series = client.fetch_time_series_data(base="CHF", symbols="USD,EUR", start_date="2026-10-03", end_date="2026-10-30")
timeseries = ours("/v1/timeseries?start=2026-10-02&end=2026-10-30&base=CHF&symbols=USD,EUR")
expect("a range starting on a Saturday: its rates", series["rates"], timeseries["rates"])
expect("a range starting on a Saturday: its dates", (series["start_date"], series["end_date"]), (timeseries["start"], timeseries["end"]))
expect("currencies", client.fetch_currencies(), ours("/v1/currencies"))
rate = ours("/v1/latest?base=USD&symbols=JPY")["rates"]["JPY"]
expect("convert 100 USD to JPY (the library multiplies our rate)", client.convert_currency(100, "USD", "JPY"), 100 * rate)

# --- forex-python 1.9.2 ------------------------------------------------------------------------
from forex_python.converter import CurrencyRates  # noqa: E402

CurrencyRates._source_url = lambda self: base + "/"
rates = CurrencyRates()
print("forex-python (PyPI), base URL " + base + "/")
expect("latest rates in USD", rates.get_rates("USD"), ours("/v1/latest?base=USD")["rates"])
expect("USD to JPY on 2020-03-16", rates.get_rate("USD", "JPY", datetime.date(2020, 3, 16)), ours("/v1/rates/2020-03-16?base=USD&symbols=JPY")["rates"]["JPY"])
# A Saturday: the nearest earlier publication, as our /v1/rates answers.
expect("GBP to CHF on a Saturday", rates.get_rate("GBP", "CHF", datetime.date(2024, 3, 30)), ours("/v1/rates/2024-03-30?base=GBP&symbols=CHF")["rates"]["CHF"])
exact = CurrencyRates(force_decimal=True)
text = urllib.request.urlopen(base + "/v1/convert?from=EUR&to=USD&amount=1234.56&date=2025-06-13").read()
expect("convert 1234.56 EUR to USD on 2025-06-13 in Decimal mode, exact",
       exact.convert("EUR", "USD", decimal.Decimal("1234.56"), datetime.date(2025, 6, 13)),
       json.loads(text, parse_float=decimal.Decimal)["result"])

# --- tap-exchangeratehost 0.1.2 (its own environment) ----------------------------------------
import os  # noqa: E402
import subprocess  # noqa: E402

tap_python = os.environ.get("TAP_PYTHON")
print("tap-exchangeratehost (PyPI), endpoint " + base + "/timeseries")
if not tap_python:
    checks += 1
    failures.append("tap-exchangeratehost: TAP_PYTHON (its virtual environment's python) is not set; run Scripts/check-clients.sh")
else:
    # The tap's own sync of a span over Easter 2024 (Good Friday and Easter Monday have no publication).
    program = (
        "import sys, tap_exchangeratehost as tap\n"
        "tap.endpoint = sys.argv[1] + '/timeseries'\n"
        "print(tap.do_sync('USD', '2024-03-25', '2024-04-05'), file=sys.stderr)\n"
    )
    run = subprocess.run([tap_python, "-c", program, base], capture_output=True, text=True, timeout=120)
    records = [message["record"] for message in map(json.loads, run.stdout.splitlines()) if message.get("type") == "RECORD"]
    days = [record["date"][:10] for record in records]
    expect("the tap's sync: one record for each calendar day, its next start the day after",
           (run.returncode, days, run.stderr.strip().splitlines()[-1:] if run.stderr else []),
           (0, [str(datetime.date(2024, 3, 25) + datetime.timedelta(days=n)) for n in range(12)], ["2024-04-06"]))
    expected = [dict(ours(f"/v1/rates/{day}?base=USD")["rates"], USD=1.0, date=day + "T00:00:00Z") for day in days]
    expect("the tap's records: each day's rates in USD as /v1/rates answers that day", records, expected)

# --- exrate 1.0.1 ------------------------------------------------------------------------------
# A command-line client of Frankfurter v2 (api.frankfurter.dev/v2); its base URL is the module's
# API_BASE. Each call is its real subcommand with --json (or --csv), its output parsed back.
import contextlib  # noqa: E402
import io  # noqa: E402

import exrate  # noqa: E402

exrate.API_BASE = base + "/v2"
print("exrate (PyPI), base URL " + exrate.API_BASE)


def run_exrate(*arguments):
    output = io.StringIO()
    try:
        with contextlib.redirect_stdout(output):
            exrate.main(list(arguments))
    except SystemExit as error:
        failures.append(f"exrate {' '.join(arguments)}: exited {error.code}")
        return None
    return output.getvalue()


def exrate_json(*arguments):
    text = run_exrate(*arguments, "--json")
    return json.loads(text) if text is not None else None


def by_quote(records, base_code):
    """A v2 answer's records as {quote: rate}, less the base's own record (1), and their dates."""
    return {r["quote"]: r["rate"] for r in records if r["quote"] != base_code}, sorted({r["date"] for r in records})


day = ours("/v1/rates/2025-06-13?base=USD&symbols=EUR,JPY")
expect("rates on 2025-06-13 in USD, EUR and JPY", by_quote(exrate_json("rates", "--base", "USD", "--quotes", "EUR,JPY", "--date", "2025-06-13"), "USD"),
       (day["rates"], [day["date"]]))
latest = ours("/v1/latest")
expect("latest rates, every currency", by_quote(exrate_json("rates"), "EUR"), (latest["rates"], [latest["date"]]))
series = exrate_json("rates", "--base", "CHF", "--quotes", "USD,EUR", "--from", "2026-10-05", "--to", "2026-10-30")
expected = ours("/v1/timeseries?start=2026-10-05&end=2026-10-30&base=CHF&symbols=USD,EUR")["rates"]
expect("a range: each publication's rates", {d: by_quote([r for r in series if r["date"] == d], "CHF")[0] for d in sorted({r["date"] for r in series})},
       expected)
# group=month: each month's mean of the daily values /v1 serves (exact, rounded once to 8 significant
# digits), dated the month's first day.
monthly = run_exrate("rates", "--quotes", "USD", "--from", "2026-01-01", "--to", "2026-10-30", "--group", "month", "--csv")
rows = [line.split(",") for line in (monthly or "").splitlines()[1:]]
with urllib.request.urlopen(base + "/v1/timeseries?start=2026-01-01&end=2026-10-30&symbols=USD") as response:
    daily = {d: r["USD"] for d, r in json.load(response, parse_float=decimal.Decimal)["rates"].items() if d >= "2026-01-01"}


def mean_of(values):
    """The exact mean rounded half away from zero to 8 significant digits, written as our server writes it."""
    with decimal.localcontext() as context:
        context.prec = 60
        exact = sum(values, decimal.Decimal(0)) / len(values)
        rounded = exact.quantize(decimal.Decimal(1).scaleb(exact.adjusted() - 7), rounding=decimal.ROUND_HALF_UP)
        return format(rounded.normalize(), "f")


months = sorted({d[:7] for d in daily})
expect("monthly CSV: one record a month, dated its first day", [row[0] for row in rows], [m + "-01" for m in months])
expect("monthly CSV: each month's mean of our daily values", [(row[0], row[3]) for row in rows],
       [(m + "-01", mean_of([v for d, v in daily.items() if d[:7] == m])) for m in months])
expanded = exrate_json("rates", "--quotes", "USD,JPY", "--date", "2025-06-13", "--expand")
day = ours("/v1/rates/2025-06-13?symbols=USD,JPY")
expect("rates --expand: each record's providers, here the ECB's own figure and day",
       {r["quote"]: [(p["key"], p["date"], p["rate"]) for p in r.get("providers", [])] for r in expanded or [] if r["quote"] != "EUR"},
       {code: [("ECB", day["date"], rate)] for code, rate in day["rates"].items()})
pair = exrate_json("rate", "GBP", "JPY", "--date", "2015-01-03")
expected = ours("/v1/rates/2015-01-03?base=GBP&symbols=JPY")
expect("GBP to JPY on a Saturday", (pair["date"], pair["rate"]), (expected["date"], expected["rates"]["JPY"]))
pinned = exrate_json("rate", "EUR", "USD", "--providers", "ECB")
expect("EUR to USD from the ECB alone", pinned["rate"], ours("/v1/latest?symbols=USD&providers=ECB")["rates"]["USD"])
converted = exrate_json("convert", "100", "USD", "JPY")
expect("convert 100 USD to JPY (the client multiplies our rate)", converted["result"], 100 * ours("/v1/latest?base=USD&symbols=JPY")["rates"]["JPY"])
names = ours("/v1/currencies")
listed = exrate_json("currencies")
expect("currencies: the newest publication's, with our names", {c["iso_code"]: c["name"] for c in listed},
       {code: names[code] for code in list(latest["rates"]) + ["EUR"]})
legacy = exrate_json("currencies", "--all")
expect("currencies --all: every currency with rates", sorted(c["iso_code"] for c in legacy), sorted(names))
yen = exrate_json("currency", "jpy")
expect("currency JPY", (yen["iso_code"], yen["name"], yen["iso_numeric"], yen["providers"]), ("JPY", names["JPY"], "392", ["ECB"]))
providers = exrate_json("providers")
ecb = ours("/v1/providers/ECB")
expect("providers: the ECB, its pivot and currencies", [(p["key"], p["pivot_currency"], p["currencies"]) for p in providers],
       [("ECB", ecb["pivot"], ecb["currencies"])])

print(f"{checks - len(failures)} of {checks} checks passed")
for failure in failures:
    print("  FAIL " + failure)
sys.exit(1 if failures else 0)
