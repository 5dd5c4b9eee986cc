#!/usr/bin/env python3
"""The web page in a real browser (Debian's Chromium through Selenium), against a running server.

Scripts/check-web.sh starts the server, the stand-in ECB and a failing upstream, then runs this.
Each check prints `ok` or `FAIL` with what it saw; the last line says how many passed and failed.

Usage: check-web.py --base URL --ecb URL --token TOKEN --previous DAY --latest DAY --screenshots DIR
"""
import argparse
import json
import re
import shutil
import statistics
import sys
import time
import traceback
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

arguments = argparse.ArgumentParser()
for name in ("base", "ecb", "token", "previous", "latest", "screenshots"):
    arguments.add_argument(f"--{name}", required=True)
args = arguments.parse_args()

# The target for the first render with data over loopback, in milliseconds (reported, not enforced).
FIRST_RENDER_TARGET_MS = 300


def get(path):
    """The server's answer to `path`: (raw text, parsed JSON)."""
    with urllib.request.urlopen(args.base + path, timeout=60) as response:
        text = response.read().decode()
    return text, json.loads(text)


def raw_number(text, key):
    """The number `key` as the server wrote it."""
    match = re.search(r'"%s":(-?[0-9.]+(?:[eE][-+]?[0-9]+)?)' % key, text)
    return match.group(1) if match else None


def post(url, headers=None):
    request = urllib.request.Request(url, method="POST", headers=headers or {})
    with urllib.request.urlopen(request, timeout=120) as response:
        return response.read().decode()


def refresh(providers):
    return json.loads(post(f"{args.base}/v1/admin/refresh?providers={providers}", {"Authorization": f"Bearer {args.token}"}))


def browser():
    options = webdriver.ChromeOptions()
    # Debian's browser and driver, found on PATH: Selenium must not try to download either.
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900",
                 "--hide-scrollbars", "--force-device-scale-factor=1", "--lang=en-GB"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


driver = browser()
wait = WebDriverWait(driver, 30, poll_frequency=0.1)
results = []


def check(name):
    """Runs the decorated function as one check, recording its outcome."""
    def run(function):
        started = time.monotonic()
        try:
            detail = function()
            results.append(True)
            print(f"ok   {name}" + (f": {detail}" if detail else "") + f" ({time.monotonic() - started:.1f} s)", flush=True)
        except Exception as error:  # noqa: BLE001 - every failure is reported, the run goes on
            results.append(False)
            print(f"FAIL {name}: {error}", flush=True)
            traceback.print_exc(limit=3)
        return function
    return run


def js(script, *values):
    return driver.execute_script(script, *values)


def viewport(width, height=900):
    """Lays the page out `width` CSS px wide, as a phone (under 500 px) or a desktop window would."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500})


def load(width):
    """Opens the page at `width` px and waits until every section shows data; returns when the converter, chart and
    table had (the first render with data) and when the sources had, in ms since the navigation started."""
    viewport(width)
    driver.get(args.base + "/")
    wait.until(lambda _: js("return document.documentElement.dataset.ready === 'true'"))
    return js("return ['first-render', 'sources-render'].map(n => performance.getEntriesByName('rates-relay:' + n)[0].startTime)")


def converter_query():
    return {
        "amount": js("return document.getElementById('amount').value").strip(),
        "from": js("return document.getElementById('from').value"),
        "to": js("return document.getElementById('to').value"),
        "date": js("return document.getElementById('date').value"),
    }


def converter_matches_server():
    """The page's result and the server's /v1/convert for the page's inputs, once they agree (or after 30 s)."""
    def agreed(_):
        query = converter_query()
        text, answer = get("/v1/convert?" + urllib.parse.urlencode({k: v for k, v in query.items() if v}))
        shown = js("return document.getElementById('convert-result').dataset.value")
        return (query, shown, raw_number(text, "result"), answer) if shown == raw_number(text, "result") else False
    try:
        return WebDriverWait(driver, 30, poll_frequency=0.2).until(agreed)
    except TimeoutException:
        query = converter_query()
        text, _ = get("/v1/convert?" + urllib.parse.urlencode({k: v for k, v in query.items() if v}))
        shown = js("return document.getElementById('convert-result').dataset.value")
        raise AssertionError(f"page shows {shown} for {query}, /v1/convert says {raw_number(text, 'result')}")


render_times = []
page_weight = []


def compressed_size(path):
    request = urllib.request.Request(args.base + path, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return len(response.read())


@check("the page renders with data, without console errors or policy violations")
def first_render():
    render_times.append(load(1280))
    for reload in range(3):
        render_times.append(load(1280))
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, f"console errors: {errors}"
    title = driver.title
    assert title == "Rates Relay", title
    files = js("return ['/', ...performance.getEntriesByType('resource').map(e => new URL(e.name).pathname).filter(p => p.startsWith('/web/'))]")
    page_weight.append(sum(compressed_size(path) for path in sorted(set(files))))
    assert page_weight[0] < 100_000, f"the page weighs {page_weight[0]} bytes with gzip"
    return f"{page_weight[0]:,} bytes with gzip; first render with data (sources) " + ", ".join(f"{first:.0f} ({sources:.0f})" for first, sources in render_times) + " ms"


@check("the converter's result equals /v1/convert's, by default and after changes")
def converter():
    query, shown, _, answer = converter_matches_server()
    assert query["from"] == "EUR" and query["to"] == "USD", query
    names = {source["provider"] for source in get("/v1/convert?" + urllib.parse.urlencode({**query, "expand": "sources"}))[1]["sources"].values()}
    source_text = driver.find_element(By.ID, "result-source").text
    assert all(name in source_text for name in names), f"source line {source_text!r} does not name {names}"
    assert answer["date"] in js("return document.getElementById('convert-result').dataset.date"), answer
    first = f"100 EUR = {shown} USD on {answer['date']}"
    amount = driver.find_element(By.ID, "amount")
    amount.clear()
    amount.send_keys("250")
    Select(driver.find_element(By.ID, "from")).select_by_value("CHF")
    Select(driver.find_element(By.ID, "to")).select_by_value("THB")
    query, shown, _, _ = converter_matches_server()
    assert query["amount"] == "250" and query["from"] == "CHF" and query["to"] == "THB", query
    js("const d = document.getElementById('date'); d.value = '2020-03-16'; d.dispatchEvent(new Event('change'))")
    query, historical, _, answer = converter_matches_server()
    assert answer["date"] == "2020-03-16", answer
    amount.clear()
    amount.send_keys("12abc")
    wait.until(lambda _: driver.find_element(By.ID, "amount-hint").is_displayed())
    assert amount.get_attribute("aria-invalid") == "true"
    assert js("return document.getElementById('convert-result').dataset.value") is None, "a result for no amount"
    return f"{first}; 250 CHF = {shown} THB; on 2020-03-16 {historical} THB; '12abc' is refused with a hint"


def chart_state():
    return js("""const svg = document.getElementById('chart-svg'), line = document.getElementById('chart-line');
        return {count: Number(svg.dataset.count), first: svg.dataset.first, last: svg.dataset.last,
                points: line ? line.getAttribute('points').trim().split(/\\s+/).length : 0,
                title: document.getElementById('chart-title').textContent};""")


def chart_days(state, base, symbol):
    _, answer = get(f"/v1/timeseries?start={state['first']}&end={state['last']}&base={base}&symbols={symbol}")
    return [day for day, rates in answer["rates"].items() if symbol in rates]


@check("the chart has one point per publication in a month, and at most 300 over all years")
def chart():
    load(1280)
    state = chart_state()
    days = chart_days(state, "EUR", "USD")
    assert state["title"] == "EUR → USD", state
    assert state["points"] == state["count"] == len(days), f"{state} for {len(days)} publications"
    assert len(days) >= 2, f"{len(days)} publications in a month"
    month = len(days)
    driver.find_element(By.CSS_SELECTOR, "label[for=range-all]").click()
    wait.until(lambda _: chart_state()["first"] == "1999-01-04")
    history = chart_state()
    assert history["points"] == history["count"] == 300 and history["last"] == args.previous, history
    # A day's figure on hover, and with the keyboard.
    svg = driver.find_element(By.ID, "chart-svg")
    webdriver.ActionChains(driver).move_to_element(svg).perform()
    readout = driver.find_element(By.ID, "chart-readout").text
    assert "1 EUR =" in readout and "USD" in readout, readout
    svg.send_keys(Keys.END)
    readout = driver.find_element(By.ID, "chart-readout").text
    assert "1 EUR =" in readout, readout
    labels = js("return [...document.querySelectorAll('#chart-svg .extreme-label')].map(e => e.textContent)")
    assert any(label.startswith("High") for label in labels) and any(label.startswith("Low") for label in labels), labels
    driver.find_element(By.CSS_SELECTOR, "label[for=range-1m]").click()
    wait.until(lambda _: chart_state()["count"] == month)
    return f"{month} points for {month} publications in a month; 300 of 1999-01-04..{args.previous}"


def visible_codes():
    return js("return [...document.querySelectorAll('#latest-rows tr[data-code]')].filter(r => !r.hidden).map(r => r.dataset.code)")


@check("the latest table lists every currency with the server's rates, and filters as one types")
def table():
    text, latest = get("/v1/latest")
    codes = visible_codes()
    assert codes == list(latest["rates"]), f"{codes} vs {list(latest['rates'])}"
    shown = js("return document.querySelector('#latest-rows tr[data-code=USD] td.num').dataset.value")
    assert shown == raw_number(text, "USD"), f"USD {shown} vs {raw_number(text, 'USD')}"
    changes = js("return [...document.querySelectorAll('#latest-rows td.change')].map(c => c.textContent)")
    assert all(c == "—" or c.endswith("%") for c in changes) and any(c.endswith("%") for c in changes), changes
    box = driver.find_element(By.ID, "filter")
    box.send_keys("yen")
    wait.until(lambda _: visible_codes() == ["JPY"])
    box.clear()
    box.send_keys("zzz")
    wait.until(lambda _: visible_codes() == [])
    message = driver.find_element(By.ID, "latest-count").text
    assert "No currency matches" in message, message
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE)
    wait.until(lambda _: len(visible_codes()) == len(latest["rates"]))
    Select(driver.find_element(By.ID, "base")).select_by_value("USD")
    wait.until(lambda _: "EUR" in visible_codes())
    Select(driver.find_element(By.ID, "base")).select_by_value("EUR")
    wait.until(lambda _: "EUR" not in visible_codes())
    return f"{len(codes)} currencies; 'yen' leaves JPY; 'zzz' none"


def provider_state(key):
    return js("const row = document.querySelector(`#sources-rows tr[data-provider='${arguments[0]}']`);"
              "return row ? {state: row.dataset.state, text: row.innerText} : null", key)


@check("every control has a label and the keyboard reaches each one")
def accessible():
    unlabelled = js("""return [...document.querySelectorAll('input, select, button, svg[tabindex]')]
        .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby'))
        .map(e => e.id || e.outerHTML.slice(0, 60))""")
    assert not unlabelled, f"unlabelled: {unlabelled}"
    load(1280)   # focus starts at the top of the page
    reached = []
    for _ in range(30):
        webdriver.ActionChains(driver).send_keys(Keys.TAB).perform()
        reached.append(js("return document.activeElement.id || document.activeElement.tagName"))
    wanted = ["amount", "from", "swap", "to", "date", "range-1m", "chart-svg", "base", "filter"]
    missing = [name for name in wanted if name not in reached]
    assert not missing, f"never focused: {missing} (focus went {reached})"
    order = [name for name in reached if name in wanted]
    return "tab order: " + " → ".join(name for i, name in enumerate(order) if name not in order[:i])


@check("a publication updates the page without a reload; the sources show the failing NBP")
def live_update():
    load(1280)
    before = provider_state("NBP")
    assert before and before["state"] != "failing", before
    assert js("return document.getElementById('latest-rows').dataset.date") == args.previous
    js("window.notReloaded = true")
    outcome = refresh("NBP")
    assert outcome["providers"]["NBP"]["outcome"] == "failed", outcome
    post(f"{args.ecb}/publish?through={args.latest}")
    outcome = refresh("ECB")
    assert outcome["providers"]["ECB"]["outcome"] == "updated", outcome
    wait.until(lambda _: js("return document.getElementById('latest-rows').dataset.date") == args.latest)
    wait.until(lambda _: js("return document.getElementById('convert-result').dataset.date") == args.latest)
    wait.until(lambda _: (provider_state("NBP") or {}).get("state") == "failing")
    assert js("return window.notReloaded === true"), "the page was reloaded"
    assert js("return performance.getEntriesByType('navigation').length") == 1
    state = chart_state()
    assert state["last"] == args.latest, state
    converter_matches_server()
    nbp = provider_state("NBP")
    assert "Failing" in nbp["text"] and "500" in nbp["text"], nbp
    return f"table, converter and chart moved from {args.previous} to {args.latest}; NBP: {' '.join(nbp['text'].split())[:80]}"


def screenshot(width, name, dark=False):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
    load(width)
    overflow = js("return document.documentElement.scrollWidth")
    # The whole page in one picture: a viewport as tall as the page.
    viewport(width, js("return document.documentElement.scrollHeight"))
    time.sleep(0.3)
    viewport(width, js("return document.documentElement.scrollHeight"))
    time.sleep(0.3)
    path = f"{args.screenshots}/{name}.png"
    driver.save_screenshot(path)
    viewport(width)
    return path, overflow


@check("the page fits 360 px and 1280 px wide, in both schemes (screenshots saved)")
def screenshots():
    saved = []
    for width, name, dark in ((360, "web-360", False), (1280, "web-1280", False), (360, "web-360-dark", True), (1280, "web-1280-dark", True)):
        path, overflow = screenshot(width, name, dark)
        assert overflow <= width, f"{name}: the page is {overflow} px wide"
        saved.append(path)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    return ", ".join(saved)


driver.quit()
passed = results.count(True)
if render_times:
    # The first load meets a server that prepares every answer for the first time; the others are what visitors see.
    first = statistics.median(t[0] for t in render_times[1:])
    sources = statistics.median(t[1] for t in render_times[1:])
    verdict = "under" if first < FIRST_RENDER_TARGET_MS else "OVER"
    print(f"first render with data (converter, chart, table): {render_times[0][0]:.0f} ms on a fresh server, median {first:.0f} ms after "
          f"({verdict} the {FIRST_RENDER_TARGET_MS} ms target); the sources {render_times[0][1]:.0f} ms, median {sources:.0f} ms")
print(f"web: {passed} passed, {len(results) - passed} failed")
sys.exit(0 if passed == len(results) else 1)
