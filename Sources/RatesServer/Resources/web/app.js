// Rates Relay's page: the converter, the chart, the latest rates and the sources, from this
// server's own answers (/v1/...), updated when /v1/events announces a publication.
// No framework and nothing from elsewhere: the Content-Security-Policy allows this server only.
"use strict";

const FIRST_DAY = "1999-01-04";
/** Days a chart asks for at most: the server thins longer ranges (points=). */
const CHART_POINTS = 300;
/** How often the sources are asked again: fetch outcomes change without a publication. Each ask
 *  reads every provider's holdings from the store, so open pages ask once a minute, not more. */
const SOURCES_REFRESH_MS = 60000;

const $ = (id) => document.getElementById(id);

const state = {
  changes: null,      // the latest table's changes on their way (a promise)
  names: {},          // code → name, from /v1/currencies
  range: "1m",
  series: null,       // the chart's points: [{day, value}]
  cursor: null,       // the chart's highlighted index
  latestDay: null,    // the latest publication's day on its way (a promise): the chart's ranges end there
};

// ---------- Fetching ----------

/** An answer the server refused, with its problem's detail. */
class ProblemError extends Error {
  constructor(status, detail) {
    super(detail || `The server answered ${status}.`);
    this.status = status;
  }
}

/** GET `path`, parsed; `fresh` revalidates with the server instead of trusting the browser's cache. */
async function getJSON(path, fresh) {
  // A plain GET, so the page's <link rel=preload> answers the first ones.
  const response = await fetch(path, { cache: fresh ? "no-cache" : "default" });
  const text = await response.text();
  if (!response.ok) {
    let detail = null;
    try { detail = JSON.parse(text).detail; } catch (_) { /* not a problem document */ }
    throw new ProblemError(response.status, detail);
  }
  return { json: JSON.parse(text), text };
}

/** The number `key` as the server wrote it (JSON.parse would round it to a double). */
function rawNumber(text, key) {
  const match = text.match(new RegExp(`"${key}":(-?[0-9.]+(?:[eE][-+]?[0-9]+)?)`));
  return match ? match[1] : null;
}

/** Runs the newest call of `task` only: answers of calls made before a later one are dropped. */
function latestOnly(task) {
  let generation = 0;
  return async (...args) => {
    const mine = ++generation;
    const stale = () => mine !== generation;
    return task(stale, ...args);
  };
}

// ---------- Formatting ----------

const locale = navigator.language || "en";
const decimalSign = (1.5).toLocaleString(locale).charAt(1) || ".";

/** A decimal's exact text for people: the integer part grouped, every digit kept. */
function formatDecimal(text) {
  if (text == null) return "—";
  if (/[eE]/.test(text)) return Number(text).toLocaleString(locale, { maximumSignificantDigits: 8 });
  const negative = text.startsWith("-");
  const [integer, fraction] = text.replace("-", "").split(".");
  let grouped = integer;
  try { grouped = BigInt(integer).toLocaleString(locale); } catch (_) { /* keep it as it is */ }
  return (negative ? "−" : "") + grouped + (fraction ? decimalSign + fraction : "");
}

/** A number for people with about `digits` significant digits. */
function formatNumber(value, digits = 6) {
  return value.toLocaleString(locale, { maximumSignificantDigits: digits });
}

const dayFormat = new Intl.DateTimeFormat(locale, { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const shortDayFormat = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" });
const monthFormat = new Intl.DateTimeFormat(locale, { month: "short", year: "numeric", timeZone: "UTC" });
const yearFormat = new Intl.DateTimeFormat(locale, { year: "numeric", timeZone: "UTC" });
const timeFormat = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

const dayDate = (day) => new Date(`${day}T00:00:00Z`);
const formatDay = (day) => (day ? dayFormat.format(dayDate(day)) : "—");

/** `YYYY-MM-DD` of `date` in the browser's time zone. */
function isoDay(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The day `days` before `day` (`YYYY-MM-DD`). */
function dayBefore(day, days = 1) {
  const date = dayDate(day);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

/** How long ago or ahead `iso` is, for people: "3 min ago", "in 2 h". */
function relativeTime(iso) {
  if (!iso) return "—";
  const seconds = Math.round((Date.parse(iso) - Date.now()) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto", style: "short" });
  const steps = [[60, "second"], [3600, "minute"], [86400, "hour"], [86400 * 30, "day"], [Infinity, "month"]];
  const sizes = { second: 1, minute: 60, hour: 3600, day: 86400, month: 86400 * 30 };
  for (const [limit, unit] of steps) {
    if (Math.abs(seconds) < limit) return format.format(Math.round(seconds / sizes[unit]), unit);
  }
  return iso;
}

/** An element with `className` and `text`. */
function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

// ---------- Currencies ----------

async function loadCurrencies() {
  const { json } = await getJSON("/v1/currencies");
  state.names = json;
  for (const id of ["from", "to", "base"]) {
    const select = $(id);
    const chosen = select.value;
    select.replaceChildren(...Object.keys(json).map((code) => {
      const option = element("option", null, `${code} · ${json[code]}`);
      option.value = code;
      return option;
    }));
    select.value = json[chosen] ? chosen : "EUR";
  }
  applyNames();
}

/** Names the table's currencies, once /v1/currencies has answered (the table may come first). */
function applyNames() {
  for (const row of $("latest-rows").querySelectorAll("tr[data-code]")) {
    const name = state.names[row.dataset.code] || "";
    row.querySelector(".name").textContent = name;
    row.dataset.search = `${row.dataset.code} ${name}`.toLowerCase();
  }
  applyFilter();
}

// ---------- Converter ----------

const AMOUNT = /^\d{1,15}(\.\d{1,8})?$/;

/** The amount typed, as the API takes it (`1 234,5` → `1234.5`), or null when it is not one. */
function amountValue() {
  const text = $("amount").value.trim().replace(/[\s\u00a0\u202f']/g, "").replace(",", ".");
  return AMOUNT.test(text) && Number(text) > 0 ? text : null;
}

const convert = latestOnly(async (stale, fresh) => {
  const amount = amountValue();
  const hint = $("amount-hint");
  $("amount").setAttribute("aria-invalid", amount ? "false" : "true");
  hint.hidden = !!amount;
  if (!amount) {
    hint.textContent = "Enter a positive amount such as 100 or 99.95 (up to 8 decimals).";
    // No result for an amount that is not one: the last one would answer another question.
    delete $("convert-result").dataset.value;
    $("result-figure").textContent = "—";
    return;
  }
  const from = $("from").value, to = $("to").value, date = $("date").value;
  const query = new URLSearchParams({ from, to, amount, expand: "sources" });
  // Today's rates are the latest: asked without a date, the page's first conversion is the one it preloads.
  if (date && date !== isoDay(new Date())) query.set("date", date);
  const output = $("convert-result");
  try {
    const { json, text } = await getJSON(`/v1/convert?${query}`, fresh);
    if (stale()) return;
    const result = rawNumber(text, "result");
    const rate = rawNumber(text, "rate");
    output.classList.remove("error");
    output.dataset.value = result;
    output.dataset.rate = rate;
    output.dataset.date = json.date;
    const figure = $("result-figure");
    figure.replaceChildren(
      element("span", "from", `${formatDecimal(amount)} ${from} =`),
      document.createTextNode(`${formatDecimal(result)} ${to}`));
    const asked = json.requestedDate && json.requestedDate !== json.date ? ` (the latest on or before ${formatDay(json.requestedDate)})` : "";
    $("result-rate").textContent = `1 ${from} = ${formatDecimal(rate)} ${to} · rates of ${formatDay(json.date)}${asked}`;
    $("result-source").textContent = describeSources(json.sources, [from, to]);
  } catch (error) {
    if (stale()) return;
    output.classList.add("error");
    delete output.dataset.value;
    $("result-figure").textContent = error.message;
    $("result-rate").textContent = "";
    $("result-source").textContent = "";
  }
});

/** "USD: ECB, 1.1172 USD per EUR, published Fri, 30 Oct 2026": where each value came from. */
function describeSources(sources, codes) {
  if (!sources) return "";
  const parts = [];
  for (const code of new Set(codes)) {
    const source = sources[code];
    if (!source) continue;
    let text = `${code}: ${source.provider}`;
    const published = source.published;
    if (published) {
      const unit = published.unit > 1 ? `${published.unit} ` : "";
      // As the provider wrote it: the ECB's "1.1650 USD per EUR", the CNB's "14.568 CZK per 100 JPY".
      text += published.direction === "units-per-pivot"
        ? `, ${published.value} ${published.currency} per ${unit}${published.pivot}`
        : `, ${published.value} ${published.pivot} per ${unit}${published.currency}`;
    }
    text += `, published ${formatDay(source.date)}`;
    parts.push(text);
  }
  return parts.length ? `Source: ${parts.join(" · ")}` : "Both currencies are the euro: no source needed.";
}

// ---------- Chart ----------

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text != null) node.textContent = text;
  return node;
}

/** The first day of the range `range` ending on `end` (`YYYY-MM-DD`): a month of publications
 *  even when the server's latest is weeks old. */
function rangeStart(range, end) {
  if (range === "all") return FIRST_DAY;
  const date = dayDate(end);
  if (range === "1m") date.setUTCMonth(date.getUTCMonth() - 1);
  else date.setUTCFullYear(date.getUTCFullYear() - { "1y": 1, "5y": 5 }[range]);
  const day = date.toISOString().slice(0, 10);
  return day < FIRST_DAY ? FIRST_DAY : day;
}

const loadChart = latestOnly(async (stale, fresh) => {
  const from = $("from").value, to = $("to").value;
  $("chart-title").textContent = `${from} → ${to}`;
  try {
    const end = await (state.latestDay ?? isoDay(new Date()));
    if (stale()) return;
    const query = new URLSearchParams({ start: rangeStart(state.range, end), base: from, symbols: to, points: CHART_POINTS });
    const { json } = await getJSON(`/v1/timeseries?${query}`, fresh);
    if (stale()) return;
    state.series = Object.entries(json.rates)
      .filter(([, rates]) => rates[to] != null)
      .map(([day, rates]) => ({ day, value: rates[to] }));
    state.pair = { from, to };
    state.cursor = null;
    drawChart();
  } catch (error) {
    if (stale()) return;
    state.series = null;
    drawMessage(error.message);
  }
});

/** Round steps for an axis from `min` to `max`, about `count` of them. */
function ticks(min, max, count) {
  const span = max - min || Math.abs(max) || 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) || raw;
  const values = [];
  for (let value = Math.ceil(min / step) * step; value <= max + step * 1e-9; value += step) values.push(Number(value.toPrecision(12)));
  return values;
}

function chartSize() {
  const box = $("chart-svg").getBoundingClientRect();
  return { width: Math.max(260, Math.round(box.width)), height: Math.max(180, Math.round(box.height)) };
}

function drawMessage(text) {
  const chart = $("chart-svg");
  const { width, height } = chartSize();
  chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
  chart.replaceChildren(svg("desc", { id: "chart-desc" }, text), svg("text", { x: width / 2, y: height / 2, "text-anchor": "middle", class: "message" }, text));
  chart.dataset.count = "0";
  $("chart-readout").textContent = "";
}

function drawChart() {
  const series = state.series;
  if (!series || series.length === 0) return drawMessage("No rates for this pair in this range.");
  const chart = $("chart-svg");
  const { width, height } = chartSize();
  const narrow = width < 500;
  const margin = { top: 22, right: narrow ? 10 : 16, bottom: 26, left: narrow ? 48 : 60 };
  const plotWidth = width - margin.left - margin.right, plotHeight = height - margin.top - margin.bottom;
  const values = series.map((point) => point.value);
  let low = Math.min(...values), high = Math.max(...values);
  const minIndex = values.indexOf(low), maxIndex = values.indexOf(high);
  const yTicks = ticks(low, high, narrow ? 4 : 5);
  // Room above the high and below the low for their labels.
  const pad = (high - low) * 0.14 || Math.abs(high) * 0.01 || 1;
  low = Math.min(low - pad, yTicks[0] ?? low), high = Math.max(high + pad, yTicks[yTicks.length - 1] ?? high);
  const times = series.map((point) => dayDate(point.day).getTime());
  const first = times[0], last = times[times.length - 1];
  const x = (i) => margin.left + (last === first ? plotWidth / 2 : ((times[i] - first) / (last - first)) * plotWidth);
  const y = (value) => margin.top + (1 - (value - low) / (high - low)) * plotHeight;
  state.geometry = { x, y, margin, plotWidth, plotHeight, width, height };

  const nodes = [svg("desc", { id: "chart-desc" }, chartSummary(series, minIndex, maxIndex))];
  const digits = Math.max(2, Math.min(6, 3 - Math.floor(Math.log10(Math.max(Math.abs(high - low), 1e-9)))));
  for (const value of yTicks) {
    if (value < low || value > high) continue;
    nodes.push(svg("line", { class: "grid-line", x1: margin.left, x2: width - margin.right, y1: y(value), y2: y(value) }));
    nodes.push(svg("text", { class: "axis-label", x: margin.left - 6, y: y(value) + 4, "text-anchor": "end" },
      value.toLocaleString(locale, { minimumFractionDigits: 0, maximumFractionDigits: digits })));
  }
  const spanDays = (last - first) / 86400000;
  const labelFormat = spanDays > 365 * 4 ? yearFormat : spanDays > 60 ? monthFormat : shortDayFormat;
  const labelCount = Math.max(2, Math.min(narrow ? 3 : 6, series.length));
  for (let k = 0; k < labelCount; k++) {
    const i = Math.round((k * (series.length - 1)) / (labelCount - 1));
    const anchor = k === 0 ? "start" : k === labelCount - 1 ? "end" : "middle";
    nodes.push(svg("text", { class: "axis-label", x: x(i), y: height - 6, "text-anchor": anchor }, labelFormat.format(new Date(times[i]))));
  }
  const points = series.map((point, i) => `${x(i).toFixed(1)},${y(point.value).toFixed(1)}`).join(" ");
  const baseline = (margin.top + plotHeight).toFixed(1);
  nodes.push(svg("polygon", { class: "area", points: `${x(0).toFixed(1)},${baseline} ${points} ${x(series.length - 1).toFixed(1)},${baseline}` }));
  nodes.push(svg("polyline", { id: "chart-line", class: "line", points }));
  for (const [i, kind] of [[maxIndex, "max"], [minIndex, "min"]]) {
    const px = x(i), py = y(series[i].value);
    nodes.push(svg("circle", { class: `extreme ${kind}`, cx: px, cy: py, r: 4.5 }));
    const anchor = px < margin.left + 70 ? "start" : px > width - margin.right - 70 ? "end" : "middle";
    const label = `${kind === "max" ? "High" : "Low"} ${formatNumber(series[i].value)}`;
    nodes.push(svg("text", { class: `extreme-label ${kind}`, x: px, y: kind === "max" ? py - 9 : py + 17, "text-anchor": anchor }, label));
  }
  nodes.push(svg("line", { id: "cursor-line", class: "cursor-line", x1: 0, x2: 0, y1: margin.top, y2: margin.top + plotHeight, visibility: "hidden" }));
  nodes.push(svg("circle", { id: "cursor-dot", class: "cursor-dot", cx: 0, cy: 0, r: 5, visibility: "hidden" }));
  chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
  chart.replaceChildren(...nodes);
  chart.dataset.count = String(series.length);
  chart.dataset.first = series[0].day;
  chart.dataset.last = series[series.length - 1].day;
  if (state.cursor != null) showCursor(Math.min(state.cursor, series.length - 1));
  else {
    // A thinned series (points=) may step over the range's true high and low: say so.
    const thinned = series.length >= CHART_POINTS ? " evenly spaced (the high and low marked are those of these days)" : "";
    $("chart-readout").textContent = `${series.length} publication days${thinned}, ${formatDay(series[0].day)} to `
      + `${formatDay(series[series.length - 1].day)}. Point at the chart, or focus it and use the arrow keys, to read a day.`;
  }
}

function chartSummary(series, minIndex, maxIndex) {
  const { from, to } = state.pair;
  const first = series[0], last = series[series.length - 1];
  return `${from} to ${to}: ${formatNumber(first.value)} on ${formatDay(first.day)}, ${formatNumber(last.value)} on ${formatDay(last.day)}; `
    + `high ${formatNumber(series[maxIndex].value)} on ${formatDay(series[maxIndex].day)}, low ${formatNumber(series[minIndex].value)} on ${formatDay(series[minIndex].day)}.`;
}

function showCursor(i) {
  const series = state.series, geometry = state.geometry;
  if (!series || !geometry || i == null) return;
  state.cursor = i;
  const px = geometry.x(i), py = geometry.y(series[i].value);
  const line = $("cursor-line"), dot = $("cursor-dot");
  if (!line || !dot) return;
  line.setAttribute("x1", px); line.setAttribute("x2", px); line.setAttribute("visibility", "visible");
  dot.setAttribute("cx", px); dot.setAttribute("cy", py); dot.setAttribute("visibility", "visible");
  const { from, to } = state.pair;
  const readout = $("chart-readout");
  readout.replaceChildren(document.createTextNode(`${formatDay(series[i].day)}: 1 ${from} = `), element("strong", null, `${formatNumber(series[i].value, 8)} ${to}`));
  const change = i > 0 ? (series[i].value / series[0].value - 1) * 100 : null;
  if (change != null) readout.append(` (${change >= 0 ? "+" : "−"}${Math.abs(change).toFixed(2)} % since ${formatDay(series[0].day)})`);
}

function hideCursor() {
  for (const id of ["cursor-line", "cursor-dot"]) $(id)?.setAttribute("visibility", "hidden");
}

function nearestIndex(clientX) {
  const series = state.series, geometry = state.geometry;
  const box = $("chart-svg").getBoundingClientRect();
  const px = ((clientX - box.left) / box.width) * geometry.width;
  let best = 0;
  for (let i = 1; i < series.length; i++) if (Math.abs(geometry.x(i) - px) < Math.abs(geometry.x(best) - px)) best = i;
  return best;
}

function wireChart() {
  const chart = $("chart-svg");
  chart.addEventListener("pointermove", (event) => { if (state.series?.length) showCursor(nearestIndex(event.clientX)); });
  chart.addEventListener("pointerleave", () => { if (document.activeElement !== chart) hideCursor(); });
  chart.addEventListener("keydown", (event) => {
    const series = state.series;
    if (!series?.length) return;
    const current = state.cursor ?? series.length - 1;
    const step = event.shiftKey ? 10 : 1;
    const next = { ArrowLeft: current - step, ArrowRight: current + step, Home: 0, End: series.length - 1 }[event.key];
    if (next == null) return;
    event.preventDefault();
    showCursor(Math.max(0, Math.min(series.length - 1, next)));
  });
  chart.addEventListener("focus", () => { if (state.series?.length) showCursor(state.cursor ?? state.series.length - 1); });
  chart.addEventListener("blur", hideCursor);
  for (const radio of document.querySelectorAll("input[name=range]")) {
    radio.addEventListener("change", () => { state.range = radio.value; loadChart(); });
  }
  let width = 0;
  new ResizeObserver((entries) => {
    const now = Math.round(entries[0].contentRect.width);
    if (now !== width) { width = now; if (state.series) drawChart(); }
  }).observe($("chart-box"));
}

// ---------- Latest rates ----------

/** Renders the latest rates as soon as they arrive; their changes follow with the previous publication (`state.changes`). */
const loadLatest = latestOnly(async (stale, fresh) => {
  const base = $("base").value;
  try {
    const answer = getJSON(`/v1/latest?base=${base}&expand=sources`, fresh);
    state.latestDay = answer.then(({ json }) => json.date, () => isoDay(new Date()));
    const { json } = await answer;
    if (stale()) return;
    renderLatest(json, undefined);
    renderFreshness(json);
    // The previous publication: the nearest before the latest.
    state.changes = (json.date > FIRST_DAY ? getJSON(`/v1/rates/${dayBefore(json.date)}?base=${base}`, fresh) : Promise.reject())
      .then((previous) => previous.json, () => null)
      .then((previous) => { if (!stale()) renderLatest(json, previous); });
  } catch (error) {
    if (stale()) return;
    $("latest-rows").replaceChildren(emptyRow(4, error.message));
  }
});

function emptyRow(columns, text) {
  const row = element("tr");
  const cell = element("td", "empty", text);
  cell.colSpan = columns;
  row.append(cell);
  return row;
}

/** `previous`: the previous publication's rates, `null` when there is none, `undefined` while it is on its way. */
function renderLatest(latest, previous) {
  const rows = [];
  const base = latest.base;
  for (const [code, value] of Object.entries(latest.rates)) {
    const row = element("tr");
    row.dataset.code = code;
    row.dataset.search = `${code} ${state.names[code] || ""}`.toLowerCase();
    const currency = element("td");
    currency.append(element("span", "code", code), element("span", "name", state.names[code] || ""));
    const rate = element("td", "num", formatDecimal(String(value)));
    rate.dataset.value = String(value);
    const before = previous?.rates?.[code];
    const change = element("td", "num change");
    if (before) {
      const percent = (value / before - 1) * 100;
      const rounded = Math.abs(percent) < 0.005 ? 0 : percent;
      change.classList.add(rounded > 0 ? "up" : rounded < 0 ? "down" : "flat");
      const arrow = rounded > 0 ? "▲ " : rounded < 0 ? "▼ " : "";
      change.textContent = `${arrow}${rounded > 0 ? "+" : rounded < 0 ? "−" : ""}${Math.abs(rounded).toFixed(2)} %`;
      change.title = `${formatDecimal(String(before))} on ${formatDay(previous.date)}`;
    } else if (previous === undefined) {
      change.classList.add("flat");
      change.textContent = "…";
    } else {
      change.textContent = "—";
      change.title = "No rate in the previous publication";
    }
    const sourceCell = element("td", "source");
    const source = latest.sources?.[code];
    if (source) {
      sourceCell.append(document.createTextNode(source.provider));
      if (source.date !== latest.date) sourceCell.append(element("span", "source-date", formatDay(source.date)));
      sourceCell.dataset.provider = source.provider;
      sourceCell.dataset.published = source.date;
      describeSourceCell(sourceCell);
    } else {
      sourceCell.textContent = "—";
    }
    row.append(currency, rate, change, sourceCell);
    rows.push(row);
  }
  $("latest-rows").replaceChildren(...rows);
  $("latest-rows").dataset.date = latest.date;
  $("latest-date").textContent = `Per 1 ${base}, ${formatDay(latest.date)}${previous ? `; change since ${formatDay(previous.date)}` : ""}`;
  applyFilter();
}

function applyFilter() {
  const words = $("filter").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const rows = [...$("latest-rows").querySelectorAll("tr[data-code]")];
  let shown = 0;
  for (const row of rows) {
    const visible = words.every((word) => row.dataset.search.includes(word));
    row.hidden = !visible;
    if (visible) shown++;
  }
  $("latest-count").textContent = words.length
    ? (shown ? `${shown} of ${rows.length} currencies match “${$("filter").value.trim()}”.` : `No currency matches “${$("filter").value.trim()}”.`)
    : `${rows.length} currencies.`;
}

function renderFreshness(latest) {
  const line = $("freshness");
  line.replaceChildren(document.createTextNode(`Rates of ${formatDay(latest.date)}`));
  if (latest.stale && latest.expectedDate) {
    line.append(" · ", element("span", "overdue", `the publication of ${formatDay(latest.expectedDate)} is overdue`));
  }
}

// ---------- Sources ----------

/** When the server last heard from each source (its last successful fetch), by key, from /v1/providers. */
const lastHeard = new Map();

/** A value's source cell says, on hover, who published the value, when, and when the server last heard from them. */
function describeSourceCell(node) {
  const heard = lastHeard.get(node.dataset.provider);
  node.title = `Published by ${node.dataset.provider} for ${formatDay(node.dataset.published)}`
    + (heard ? `; last heard from ${relativeTime(heard)}` : "");
}

/** A source's state: failing (its last fetch failed), stale (publications missed), no data, or OK; with a word on why. */
function health(provider) {
  const outcome = provider.lastFetch?.outcome;
  if (outcome === "failed" || outcome === "rejected") {
    return { kind: "failing", icon: "✕", text: "Failing", why: outcome === "rejected" ? "its data was rejected" : "its last fetch failed" };
  }
  if (!provider.latestDate) return { kind: "stale", icon: "!", text: "No data", why: "nothing published yet" };
  const missed = provider.publicationsMissed || 0;
  if (missed > 0) return { kind: "stale", icon: "!", text: "Stale", why: `${missed} publication${missed === 1 ? "" : "s"} missed` };
  return { kind: "ok", icon: "✓", text: "OK", why: null };
}

const loadSources = latestOnly(async (stale, fresh) => {
  try {
    const { json } = await getJSON("/v1/providers", fresh);
    if (stale()) return;
    renderSources(json.providers.filter((provider) => provider.enabled), json.providers.length);
  } catch (error) {
    if (stale()) return;
    $("sources-rows").replaceChildren(emptyRow(5, error.message));
  }
});

/** A cell named `label` (shown beside its value on narrow screens) holding `content` in one block. */
function cell(label, className, ...content) {
  const node = element("td", className);
  node.dataset.label = label;
  const value = element("div", "value");
  value.append(...content);
  node.append(value);
  return node;
}

/** One row per provider this server fetches; `known` counts every provider it knows, fetched or not. */
function renderSources(providers, known) {
  for (const provider of providers) {
    if (provider.lastSuccessfulFetchAt) lastHeard.set(provider.key, provider.lastSuccessfulFetchAt);
  }
  document.querySelectorAll("#latest-rows td.source[data-provider]").forEach(describeSourceCell);
  const rows = providers.map((provider) => {
    const row = element("tr");
    row.dataset.provider = provider.key;
    const verdict = health(provider);
    row.dataset.state = verdict.kind;
    const badge = element("span", `badge ${verdict.kind}`);
    const icon = element("span", null, verdict.icon);
    icon.setAttribute("aria-hidden", "true");
    badge.append(icon, verdict.text);
    const run = provider.lastFetch;
    const fetched = [];
    if (run) {
      const when = element("span", null, relativeTime(run.finishedAt));
      when.title = run.finishedAt;
      const failed = run.outcome === "failed" || run.outcome === "rejected";
      // A failure's detail names its HTTP status ("upstream answered HTTP 500"); a success's status stays beside it.
      const status = run.httpStatus && !(failed && run.detail) ? ` (HTTP ${run.httpStatus})` : "";
      fetched.push(when, element("span", `outcome-${run.outcome}`, ` · ${run.outcome}${status}`));
      if (failed && run.detail) fetched.push(element("span", "detail", run.detail));
    } else {
      fetched.push("Not fetched yet");
    }
    const next = cell("Next fetch", null, provider.nextFetchAt ? relativeTime(provider.nextFetchAt) : "On an operator's refresh");
    if (provider.nextFetchAt) next.title = provider.nextFetchAt;
    row.append(
      cell("Source", "provider", element("span", "code", provider.key),
        element("span", "provider-name", [provider.name, provider.country].filter(Boolean).join(", "))),
      cell("State", null, badge, ...(verdict.why ? [element("span", "detail", verdict.why)] : [])),
      cell("Last publication", null, formatDay(provider.latestDate)),
      cell("Last fetch", null, ...fetched),
      next);
    return row;
  });
  $("sources-rows").replaceChildren(...(rows.length ? rows : [emptyRow(5, "No source is enabled.")]));
  const failing = providers.filter((provider) => health(provider).kind === "failing").length;
  const staleCount = providers.filter((provider) => health(provider).kind === "stale").length;
  const problems = [failing && `${failing} failing`, staleCount && `${staleCount} stale`].filter(Boolean).join(", ");
  const off = known - providers.length;
  $("sources-summary").textContent = `${providers.length} fetched${problems ? `: ${problems}` : ", all current"}`
    + (off > 0 ? ` · ${off} more known, not enabled` : "");
}

// ---------- Live updates ----------

function refreshAll(fresh) {
  return Promise.all([convert(fresh), loadLatest(fresh), loadChart(fresh), loadSources(fresh)]);
}

function listen() {
  const live = $("live"), text = $("live-text");
  if (!("EventSource" in window)) { text.textContent = "Not live: reload for new rates"; return; }
  const events = new EventSource("/v1/events");
  let lost = false;
  events.addEventListener("open", () => {
    live.className = "live on";
    text.textContent = "Live";
    // A publication may have landed while the stream was down (a server restart): catch up.
    if (lost) refreshAll(true);
    lost = false;
  });
  events.addEventListener("error", () => { lost = true; live.className = "live off"; text.textContent = "Reconnecting…"; });
  events.addEventListener("publication", async (event) => {
    let day = null;
    try { day = JSON.parse(event.data).latestDate; } catch (_) { /* announce without a date */ }
    await refreshAll(true);
    text.textContent = `Live · updated ${timeFormat.format(new Date())}`;
    $("freshness").append(element("span", "visually-hidden", ` New rates arrived${day ? ` for ${formatDay(day)}` : ""}.`));
    for (const id of ["converter", "chart", "latest", "sources"]) {
      const section = $(id);
      section.classList.remove("updated");
      void section.offsetWidth;   // restart the highlight
      section.classList.add("updated");
    }
  });
}

// ---------- Start ----------

function wire() {
  const form = $("convert-form");
  form.addEventListener("submit", (event) => { event.preventDefault(); convert(); });
  let typing = 0;
  $("amount").addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(() => convert(), 200); });
  $("date").addEventListener("change", () => convert());
  for (const id of ["from", "to"]) $(id).addEventListener("change", () => { convert(); loadChart(); });
  $("swap").addEventListener("click", () => {
    const from = $("from").value;
    $("from").value = $("to").value;
    $("to").value = from;
    convert();
    loadChart();
  });
  $("base").addEventListener("change", () => loadLatest());
  $("filter").addEventListener("input", applyFilter);
  wireChart();
  setInterval(() => { if (!document.hidden) loadSources(true); }, SOURCES_REFRESH_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) loadSources(true); });
}

async function start() {
  const today = isoDay(new Date());
  $("date").value = today;
  $("date").max = today;
  wire();
  // Everything at once; the selects and the table's names fill in when the currency names arrive.
  const names = loadCurrencies().catch(() => {});
  // The sources come last: their health is read from the store (/v1/providers), the rest from memory.
  const sources = loadSources().then(() => performance.mark("rates-relay:sources-render"));
  await Promise.all([convert(), loadLatest(), loadChart(), names]);
  performance.mark("rates-relay:first-render");
  document.documentElement.dataset.rendered = "true";
  await Promise.all([sources, state.changes]);
  document.documentElement.dataset.ready = "true";
  listen();
}

start();
