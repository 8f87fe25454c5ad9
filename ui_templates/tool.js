// The page of a generated tool: widgets built from the ToolProgram, talking only to the tool's own URL.
// Everything a person typed, and everything the tool answers, is put on the page with textContent, never as
// HTML; listeners are added here (the CSP allows this script only, so no inline handler could run anyway).
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("tool-config").textContent);
  const L = config.labels;
  const SVG = "http://www.w3.org/2000/svg";
  const statusEl = document.getElementById("status");
  const widgets = document.getElementById("widgets");
  const refreshers = [];
  let token = null;
  let uid = 0;

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") node.textContent = v;
      else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const child of children || []) node.appendChild(child);
    return node;
  }

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function say(message, isError) {
    statusEl.textContent = message || "";
    statusEl.classList.toggle("error", Boolean(isError));
  }

  function today() {
    const d = new Date();
    return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 10);
  }

  // The program's date defaults, as the runtime resolves them: "$today", "$next:MM-DD" (the next such day).
  function resolveDefault(value) {
    if (value === "$today") return today();
    if (typeof value === "string" && value.startsWith("$next:")) {
      const now = today();
      const thisYear = now.slice(0, 4) + "-" + value.slice(6);
      return thisYear >= now ? thisYear : String(Number(now.slice(0, 4)) + 1) + "-" + value.slice(6);
    }
    return value;
  }

  class ApiError extends Error {
    constructor(message, details) {
      super(message);
      this.details = details && typeof details === "object" ? details : null;
    }
  }

  // A tool answers at most 5 calls at once (its concurrency): the page keeps 3 in flight and waits for the rest,
  // and a call the platform throttled (429, never run) is tried again after a pause.
  const IN_FLIGHT = 3;
  let inFlight = 0;
  const waiting = [];
  async function slot() {
    if (inFlight >= IN_FLIGHT) await new Promise((resolve) => waiting.push(resolve));
    inFlight += 1;
  }
  function release() {
    inFlight -= 1;
    const next = waiting.shift();
    if (next) next();
  }

  async function send(url, init) {
    for (let attempt = 0; ; attempt += 1) {
      await slot();
      let res;
      try {
        res = await fetch(url, init);
      } finally {
        release();
      }
      if (res.status !== 429 || attempt >= 3) return res;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }

  async function call(method, path, body, query) {
    // An empty tool_url: the page is served by the tool itself (an exported bundle), so it calls its own origin.
    const url = new URL((config.tool_url || location.origin).replace(/\/$/, "") + path);
    for (const [k, v] of Object.entries(query || {})) url.searchParams.set(k, v);
    const init = { method, headers: { Authorization: "Bearer " + token } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await send(url, init);
    } catch (err) {
      throw new ApiError(L.unreachable);
    }
    const text = await res.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch (err) {
      data = null;
    }
    if (!res.ok) throw new ApiError((data && data.message) || res.status + " " + res.statusText, data && data.details);
    return data;
  }

  // A widget's own loading and error states: "Loading…" until its data comes, the API's message if it fails.
  function loader(box, render) {
    return async function refresh() {
      box.setAttribute("aria-busy", "true");
      if (!box.childNodes.length) box.appendChild(el("p", { class: "loading", text: L.loading }));
      try {
        const result = await render();
        return result;
      } catch (err) {
        box.replaceChildren(el("p", { class: "widget-error", role: "alert", text: err.message }));
        throw err;
      } finally {
        box.removeAttribute("aria-busy");
      }
    };
  }

  function field(name, spec, value) {
    const id = "f-" + name + "-" + ++uid;
    const errorId = id + "-error";
    const attrs = { name, id, "aria-describedby": errorId };
    let control;
    if (spec.type === "list") {
      // a list of any length, typed as its items separated by commas ("18, 12, 9"); each item is checked by the tool
      control = el("input", { ...attrs, type: "text", inputmode: spec.items === "string" ? null : "decimal", "data-list": spec.items });
    } else if (spec.enum) {
      control = el("select", attrs, spec.enum.map((v) => el("option", { value: v, text: v })));
    } else if (spec.type === "text") {
      control = el("textarea", { ...attrs, rows: 2, maxlength: spec.max_length });
    } else if (spec.type === "boolean") {
      control = el("input", { ...attrs, type: "checkbox" });
    } else {
      const type = { number: "number", integer: "number", date: "date", time: "time" }[spec.type] || "text";
      control = el("input", { ...attrs, type, step: spec.type === "number" ? "any" : spec.type === "integer" ? 1 : null,
        min: spec.minimum, max: spec.maximum, maxlength: type === "text" ? spec.max_length : null });
    }
    let initial = value !== undefined ? value : spec.type === "date" ? resolveDefault(spec.default) : spec.default;
    if (spec.type === "list" && Array.isArray(initial)) initial = initial.join(", ");
    // set as the control's default too, so a form reset after a save brings the defaults back
    if (spec.type === "boolean") control.checked = control.defaultChecked = initial === true;
    else if (spec.enum) {
      for (const option of control.options) option.defaultSelected = option.value === String(initial);
      if (initial !== null && initial !== undefined) control.value = initial;
    } else if (initial !== null && initial !== undefined) control.value = control.defaultValue = initial;
    if (spec.required) control.required = true;
    const label = el("label", { for: id, class: spec.type === "boolean" ? "check" : null });
    const text = document.createTextNode((spec.label || name) + (spec.type === "list" ? " " + L.list_hint : ""));
    if (spec.type === "boolean") label.append(control, text);
    else label.append(text, control);
    label.appendChild(el("span", { class: "field-error", id: errorId }));
    return label;
  }

  function readForm(form, fields, only) {
    const out = {};
    for (const [name, spec] of Object.entries(fields)) {
      const control = form.elements.namedItem(name); // not elements[name]: "item" or "length" would be the collection's own
      if (spec.type === "boolean") out[name] = control.checked;
      else if (control.value === "") continue;
      else if (spec.type === "list") {
        const items = control.value.split(/[,，、;；]/).map((x) => x.trim()).filter((x) => x !== "");
        out[name] = spec.items === "string" ? items : items.map((x) => (Number.isNaN(Number(x)) ? x : Number(x)));
      }
      else if (spec.type === "number" || spec.type === "integer") out[name] = Number(control.value);
      else out[name] = control.value;
    }
    if (!only) return out;
    const changed = {};  // an edit sends what changed
    for (const [k, v] of Object.entries(out)) if (only[k] !== v) changed[k] = v;
    return changed;
  }

  function showErrors(form, err) {
    for (const control of form.querySelectorAll("[aria-invalid]")) control.removeAttribute("aria-invalid");
    for (const span of form.querySelectorAll(".field-error")) span.textContent = "";
    let placed = false;
    for (const [name, problem] of Object.entries((err && err.details) || {})) {
      const control = form.elements.namedItem(name); // not elements[name]: "item" or "length" would be the collection's own
      if (!control || !control.getAttribute) continue;
      control.setAttribute("aria-invalid", "true");
      document.getElementById(control.getAttribute("aria-describedby")).textContent = err.message || problem;
      placed = true;
    }
    return placed;
  }

  function formWidget(kind, fields, buttonText, onSubmit, options) {
    const opts = options || {};
    const form = el("form", { class: opts.inline ? "inline" : null, "data-form": kind },
      Object.entries(fields).map(([n, s]) => field(n, s, opts.values ? opts.values[n] : undefined)));
    const submit = el("button", { type: "submit", text: buttonText });
    form.appendChild(submit);
    for (const extra of opts.extra || []) form.appendChild(extra);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (!form.reportValidity()) return;  // the browser's own messages for required, min, max
      submit.disabled = true;
      try {
        await onSubmit(readForm(form, fields, opts.values), form);
        showErrors(form, null);
      } catch (err) {
        if (!showErrors(form, err)) say(err.message, true);
        else say("");
      } finally {
        submit.disabled = false;
      }
    });
    return form;
  }

  // A value as the page shows it, in the page's language: yes / no, and a word for nothing.
  function show(value) {
    if (value === null || value === undefined || value === "") return L.none;
    if (Array.isArray(value)) {
      if (!value.length) return L.none;
      // a list of records (who pays whom): "Bob → Me: 130"
      const one = (item) => {
        if (!item || typeof item !== "object") return show(item);
        const parts = Object.values(item).map(show);
        return parts.length > 1 ? parts.slice(0, -1).join(" → ") + ": " + parts[parts.length - 1] : parts.join("");
      };
      return value.map(one).join("; ");
    }
    if (typeof value === "boolean") return value ? L.yes : L.no;
    if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(2);
    if (typeof value === "object") return Object.entries(value).map(([k, v]) => k + " " + show(v)).join(", ");
    return String(value);
  }

  function metricName(name) {
    return L.metrics[name] || name;
  }

  // A group's key as the runtime sends it (the field's value as text: "True", "None"), in the page's words.
  function groupKey(op, key) {
    const spec = (config.entities[op.entity] || { fields: {} }).fields[op.group_by] || {};
    if (key === "None") return L.none;
    if (spec.type === "boolean" && (key === "True" || key === "False")) return key === "True" ? L.yes : L.no;
    return show(key);
  }

  // An operation's own query inputs (a date range, a number of players, today's mileage): a small form above its
  // figures or rows; what is typed there is sent with every refresh of that widget.
  function queryForm(op, query, refresh) {
    if (!Object.keys(op.inputs || {}).length) return [];
    const form = formWidget("query", op.inputs, L.apply, async (values) => {
      for (const key of Object.keys(query)) delete query[key];
      for (const [k, v] of Object.entries(values)) query[k] = String(v);
      await refresh();
      say("");
    }, { inline: true });
    return [form];
  }

  // A period's key as the runtime sends it ("2026-W49", "2026-12", "2026-12-06", "2026"), in the page's words.
  function periodName(key, short) {
    const week = key.match(/^(\d{4})-W(\d{2})$/);
    const month = key.match(/^(\d{4})-(\d{2})$/);
    const day = key.match(/^(\d{4})-(\d{2})-(\d{2})$/);
    const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => String(values[k]));
    if (week) return fill(short ? L.week_short : L.week, { year: week[1], week: Number(week[2]) });
    if (month) return fill(short ? L.month_short : L.month, { year: month[1], month: Number(month[2]), name: L.months[Number(month[2]) - 1] });
    if (day) return fill(L.day, { month: Number(day[2]), day: Number(day[3]) });
    return fill(L.year, { year: key });
  }

  // A series: each period's first figure as a bar (a count or an amount) or a line of points (an average or a
  // reading), oldest first, its key's tail as the label; then every figure of each period as text.
  function drawSeries(box, op, series) {
    const first = Object.keys((series[0] && series[0].metrics) || {})[0];
    if (!first || !series.length) {
      box.appendChild(el("p", { class: "empty", text: L.empty }));
      return;
    }
    const values = series.map((p) => Number(p.metrics[first]));
    const known = values.filter((v) => !Number.isNaN(v) && v !== null);
    const w = 600, h = 200, pad = 34;  // labels at 20 units: about 11 px on a 390 px phone
    const max = Math.max(...known, 1);
    const title = L.series_chart.replace("{label}", metricName(first));
    const chart = svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": title });
    chart.appendChild(svg("title", {}, title));
    chart.appendChild(svg("line", { class: "axis", x1: pad, y1: h - pad, x2: w - pad, y2: h - pad }));
    const step = (w - 2 * pad) / series.length;
    const line = /avg|average|mean|pace|rate|per|均|率/i.test(first + metricName(first));
    const points = [];
    series.forEach((p, i) => {
      const v = Number(p.metrics[first]);
      const x = pad + i * step + step / 2;
      const label = periodName(p.key, true);
      if (series.length <= 16 || i % Math.ceil(series.length / 12) === 0) {
        chart.appendChild(svg("text", { x, y: h - 6, "text-anchor": "middle", class: "big" }, label));
      }
      if (p.metrics[first] === null || Number.isNaN(v)) return;
      const y = h - pad - ((h - 2 * pad) * v) / max;
      if (line) {
        points.push(`${x},${y}`);
        chart.appendChild(svg("circle", { class: "point", cx: x, cy: y, r: 3 }));
      } else {
        const bw = Math.max(2, Math.min(40, step - 6));
        chart.appendChild(svg("rect", { class: "bar", x: x - bw / 2, y, width: bw, height: Math.max(2, h - pad - y), rx: 3 }));
      }
      if (series.length <= 16) chart.appendChild(svg("text", { x, y: y - 6, "text-anchor": "middle", class: "big" }, show(v)));
    });
    if (line && points.length > 1) chart.insertBefore(svg("polyline", { class: "line", points: points.join(" "), fill: "none" }), chart.firstChild.nextSibling);
    box.appendChild(el("div", { class: "chart" }, [el("h3", { text: title }), chart]));
    // every figure of each period, the newest first, as a compact table (a card per period would fill a phone)
    const names = Object.keys(series[0].metrics);
    const head = el("tr", {}, [el("th", { scope: "col", text: L.period }), ...names.map((k) => el("th", { scope: "col", text: metricName(k) }))]);
    const body = series.slice().reverse().map((p) => el("tr", { "data-period": p.key }, [
      el("th", { scope: "row", text: periodName(p.key, false) }), ...names.map((k) => el("td", { text: show(p.metrics[k]) }))]));
    box.appendChild(el("table", { class: "series" }, [el("thead", {}, [head]), el("tbody", {}, body)]));
  }

  // An aggregate's figures. With ``headline`` (the few names the page shows first, toolgen/ui/layout.py) those go in
  // the returned box as cards and every other figure in ``rest`` (inside the page's "All figures"), one read for both;
  // with ``headline`` empty, every figure goes in the box as a table (an operation inside "All figures").
  function statsWidget(op, headline, rest) {
    const box = el("div", { class: "stats", "data-op": op.id, "aria-live": "polite", "aria-label": op.summary || op.id });
    const query = {};
    // a list of records (who pays whom) is a card as wide as the row, a line each, not one run-on figure
    const card = (k, v) => (Array.isArray(v) && v.length && typeof v[0] === "object"
      ? el("div", { class: "stat wide", "data-metric": k }, [el("span", { text: metricName(k) }), el("ul", {}, v.map((item) => el("li", { text: show([item]) })))])
      : el("div", { class: "stat", "data-metric": k }, [el("b", { text: show(v) }), el("span", { text: metricName(k) })]));
    const refresh = loader(box, async () => {
      const data = await call("GET", op.path, undefined, query);
      box.replaceChildren();
      if (rest) rest.replaceChildren();
      if (data.series) {
        drawSeries(box, op, data.series);
      } else if (data.groups) {
        drawGroups(box, op, data.groups);
      } else {
        const figures = Object.entries(data.metrics || data);
        if (headline && !headline.length) {
          box.appendChild(figureTable(figures));
        } else {
          const first = headline ? figures.filter(([k]) => headline.includes(k)) : figures;
          first.sort(([a], [b]) => (headline || []).indexOf(a) - (headline || []).indexOf(b));
          box.append(...first.map(([k, v]) => card(k, v)));
          const others = figures.filter(([k]) => !first.some(([f]) => f === k));
          if (rest && others.length) rest.appendChild(figureTable(others));
        }
      }
      if (data.newest) box.appendChild(el("p", { class: "note", text: L.newest.replace("{n}", String(data.newest)) }));
    });
    refreshers.push(refresh);
    return [...queryForm(op, query, refresh), box];
  }

  // Figures as a two-column table: its name, its value (a card each would fill a phone).
  function figureTable(figures) {
    const body = figures.map(([k, v]) => el("tr", { "data-metric": k }, [el("th", { scope: "row", text: metricName(k) }), el("td", { text: show(v) })]));
    return el("table", { class: "figures" }, [el("tbody", {}, body)]);
  }

  // Each group's figures (a day, a category) as a row of one table, its key first.
  function drawGroups(box, op, groups) {
    if (!groups.length) {
      box.appendChild(el("p", { class: "empty", text: L.empty }));
      return;
    }
    const names = Object.keys(groups[0].metrics);
    const head = el("tr", {}, [el("th", { scope: "col" }), ...names.map((k) => el("th", { scope: "col", text: metricName(k) }))]);
    // the key is a value of the rows (a day, a category), not a label: a cell of its own, first
    const body = groups.map((g) => el("tr", {}, [el("td", { class: "key", text: groupKey(op, g.key) }), ...names.map((k) => el("td", { text: show(g.metrics[k]) }))]));
    box.appendChild(el("div", { class: "table-wrap" }, [el("table", { class: "series" }, [el("thead", {}, [head]), el("tbody", {}, body)])]));
  }

  // The chart an entity's rows call for (toolgen/ui/layout.py): a field some figure sums is a bar per day, the last
  // 14 days with rows; the fields its figures average (a blood pressure) are lines with a point per reading, the
  // latest 30, never added up.
  function seriesOf(entity, name) {
    const view = (config.views || {})[name];
    const chart = view && view.chart;
    if (!chart) return null;
    const label = chart.values.map((f) => (entity.fields[f] || {}).label || f);
    return { ...chart, label: chart.how === "line" && label.length > 1 ? joinLabels(label) : label[0] };
  }

  // "Systolic (mmHg)" and "Diastolic (mmHg)": "Systolic, Diastolic (mmHg)"
  function joinLabels(labels) {
    const unit = labels[0].match(/\s*[(（][^)）]+[)）]\s*$/);
    const bare = labels.map((l) => (unit ? l.replace(unit[0], "") : l));
    return bare.join(config.lang === "zh" ? "、" : ", ") + (unit ? unit[0] : "");
  }

  function drawChart(box, series, items) {
    box.replaceChildren();
    if (series.how === "line") return drawReadings(box, series, items);
    const sums = new Map();
    for (const row of items) {
      const day = row[series.date];
      const v = Number(row[series.values[0]]);
      if (day && row[series.values[0]] !== null && !Number.isNaN(v)) sums.set(day, (sums.get(day) || 0) + v);
    }
    const days = [...sums.keys()].sort().slice(-14);
    if (days.length < 2) return;  // a chart is drawn where it says something: one bar alone does not
    const w = 600, h = 200, pad = 30, gap = 6;  // labels at 20 units: about 13 px on a 390 px phone
    const max = Math.max(...days.map((d) => sums.get(d)), 1);
    const bw = Math.min(48, (w - 2 * pad) / days.length - gap);
    const title = L.chart.replace("{label}", series.label);
    const chart = svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": title });
    chart.appendChild(svg("title", {}, title));
    chart.appendChild(svg("line", { class: "axis", x1: pad, y1: h - pad, x2: w - pad, y2: h - pad }));
    days.forEach((day, i) => {
      const v = sums.get(day);
      const bh = Math.max(2, ((h - 2 * pad) * v) / max);
      const x = pad + i * (bw + gap) + gap / 2;
      chart.appendChild(svg("rect", { class: "bar", x, y: h - pad - bh, width: Math.max(bw, 2), height: bh, rx: 3 }));
      if (days.length <= 10) chart.appendChild(svg("text", { x: x + bw / 2, y: h - pad - bh - 6, "text-anchor": "middle", class: "big" }, show(v)));
      if (days.length <= 7 || (days.length - 1 - i) % 2 === 0) {  // every other day, the latest always
        chart.appendChild(svg("text", { x: x + bw / 2, y: h - 6, "text-anchor": "middle", class: "big" }, shortDay(day)));
      }
    });
    box.appendChild(el("h3", { text: title }));
    box.appendChild(chart);
  }

  function shortDay(day) {
    const m = String(day).match(/^\d{4}-(\d{2})-(\d{2})/);
    return m ? `${Number(m[1])}/${Number(m[2])}` : String(day);
  }

  function drawReadings(box, series, items) {
    const when = (row) => String(row[series.date] || "") + " " + String((series.time && row[series.time]) || "");
    const rows = items.filter((row) => row[series.date] && series.values.some((f) => row[f] !== null && row[f] !== undefined && !Number.isNaN(Number(row[f]))));
    rows.sort((a, b) => (when(a) < when(b) ? -1 : when(a) > when(b) ? 1 : 0));
    const shown = rows.slice(-30);
    if (shown.length < 2) return;  // one reading is its row and its figures, not a line
    const values = shown.flatMap((row) => series.values.filter((f) => row[f] !== null && row[f] !== undefined).map((f) => Number(row[f])))
      .filter((v) => !Number.isNaN(v));
    const w = 600, h = 220, pad = 34;
    let lo = Math.min(...values), hi = Math.max(...values);
    const margin = Math.max((hi - lo) * 0.15, Math.abs(hi) * 0.02, 1);
    lo -= margin;
    hi += margin;
    const title = L.readings_chart.replace("{label}", series.label);
    const chart = svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": title });
    chart.appendChild(svg("title", {}, title));
    chart.appendChild(svg("line", { class: "axis", x1: pad, y1: h - pad, x2: w - pad, y2: h - pad }));
    const step = shown.length > 1 ? (w - 2 * pad) / (shown.length - 1) : 0;
    const x = (i) => (shown.length > 1 ? pad + i * step : w / 2);
    const y = (v) => h - pad - ((h - 2 * pad) * (v - lo)) / (hi - lo);
    series.values.forEach((f, k) => {
      const points = [];
      shown.forEach((row, i) => {
        const v = Number(row[f]);
        if (row[f] === null || row[f] === undefined || Number.isNaN(v)) return;
        points.push(`${x(i)},${y(v)}`);
        chart.appendChild(svg("circle", { class: `point s${k}`, cx: x(i), cy: y(v), r: 4, "data-value": String(v) }));
        if (shown.length <= 10) chart.appendChild(svg("text", { x: x(i), y: y(v) - 9, "text-anchor": "middle", class: "big" }, show(v)));
      });
      if (points.length > 1) chart.insertBefore(svg("polyline", { class: `line s${k}`, points: points.join(" "), fill: "none" }), chart.children[2] || null);
    });
    let last = "";
    shown.forEach((row, i) => {  // each day once, under its first reading
      const day = String(row[series.date]);
      if (day === last || (shown.length > 8 && i % Math.ceil(shown.length / 6) !== 0)) return;
      last = day;
      chart.appendChild(svg("text", { x: x(i), y: h - 6, "text-anchor": "middle", class: "big" }, shortDay(day)));
    });
    box.appendChild(el("h3", { text: title }));
    box.appendChild(chart);
  }

  function tableWidget(op, entity, ops) {
    const fields = entity.fields;
    const del = ops.find((o) => o.kind === "delete" && o.entity === op.entity);
    const upd = ops.find((o) => o.kind === "update" && o.entity === op.entity);
    const series = seriesOf(entity, op.entity);
    const chartBox = series ? el("div", { class: "chart", "data-chart": op.id }) : null;
    const wrap = el("div", { class: "table-wrap", "data-op": op.id, "aria-live": "polite" });
    const computed = Object.keys(op.computed || {});
    const query = {};

    // the first field names the row; what the list works out for it (whose turn, days left) comes right after it,
    // where a phone shows it, then the rest of the fields
    const order = [[Object.keys(fields)[0], false], ...computed.map((n) => [n, true]), ...Object.keys(fields).slice(1).map((n) => [n, false])];

    function row(item) {
      const tr = el("tr", { "data-id": item.id });
      for (const [name, isComputed] of order) {
        if (isComputed) {
          tr.appendChild(el("td", { text: show(item[name]) }));
          continue;
        }
        const spec = fields[name];
        const td = el("td");
        if (spec.type === "boolean" && upd) {
          const box = el("input", { type: "checkbox", "aria-label": (spec.label || name) + ": " + show(item[Object.keys(fields)[0]]), checked: item[name] === true });
          box.addEventListener("change", () => act(() => call("PATCH", upd.path.replace("{id}", item.id), { [name]: box.checked })));
          td.appendChild(box);
        } else {
          td.textContent = show(item[name]);
        }
        tr.appendChild(td);
      }
      if (upd || del) {
        const actions = el("td", { class: "actions" });
        if (upd) {
          const edit = el("button", { type: "button", class: "quiet", text: L.edit });
          edit.addEventListener("click", () => tr.replaceWith(editRow(item)));
          actions.appendChild(edit);
        }
        if (del) {
          const button = el("button", { type: "button", class: "link", text: L.delete });
          button.addEventListener("click", () => act(() => call("DELETE", del.path.replace("{id}", item.id))));
          actions.appendChild(button);
        }
        tr.appendChild(actions);
      }
      return tr;
    }

    function editRow(item) {
      const cancel = el("button", { type: "button", class: "quiet", text: L.cancel });
      const cell = el("td", { colspan: Object.keys(fields).length + computed.length + 1 });
      const form = formWidget("edit", fields, L.save_changes, async (changes) => {
        if (Object.keys(changes).length) await call("PATCH", upd.path.replace("{id}", item.id), changes);
        say(L.saved);
        await refreshAll();
      }, { values: item, inline: true, extra: [cancel] });
      const tr = el("tr", { "data-id": item.id, class: "editing" }, [cell]);
      cell.appendChild(form);
      cancel.addEventListener("click", () => tr.replaceWith(row(item)));
      setTimeout(() => form.querySelector("input, select, textarea").focus(), 0);
      return tr;
    }

    // A list answers a page at a time, with `next` while there is more: "More" fetches the following page and
    // adds its rows below, so a person with thousands of rows still sees the first ones at once.
    function more(body, shown, next) {
      if (!next) return;
      const button = el("button", { type: "button", class: "secondary", "data-more": op.id, text: L.more });
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          const data = await call("GET", op.path, undefined, { ...query, next });
          shown.push(...data.items);
          body.append(...data.items.map(row));
          if (chartBox) drawChart(chartBox, series, shown);
          button.remove();
          more(body, shown, data.next);
        } catch (err) {
          button.disabled = false;
          say(err.message, true);
        }
      });
      wrap.appendChild(button);
    }

    const refresh = loader(wrap, async () => {
      const data = await call("GET", op.path, undefined, query);
      wrap.replaceChildren();
      if (chartBox) drawChart(chartBox, series, data.items);
      if (!data.items.length && !data.next) {
        wrap.appendChild(el("p", { class: "empty", text: L.empty }));
        return;
      }
      const head = el("tr", {}, order.map(([n, isComputed]) => el("th", { scope: "col", text: isComputed ? metricName(n) : fields[n].label || n })));
      if (upd || del) head.appendChild(el("th", { scope: "col", class: "actions" }, [el("span", { class: "sr-only", text: L.actions })]));
      const body = el("tbody", {}, data.items.map(row));
      wrap.appendChild(el("table", { "data-rows": op.entity }, [el("thead", {}, [head]), body]));
      more(body, [...data.items], data.next);
    });
    refreshers.push(refresh);
    return [...queryForm(op, query, refresh), ...(chartBox ? [chartBox, wrap] : [wrap])];
  }

  async function act(fn) {
    try {
      await fn();
      say(L.saved);
      await refreshAll();
    } catch (err) {
      say(err.message, true);
    }
  }

  async function refreshAll() {
    const results = await Promise.allSettled(refreshers.map((refresh) => refresh()));
    const failed = results.find((r) => r.status === "rejected");
    if (failed) say(failed.reason.message, true);
  }

  function computeWidget(op) {
    const output = el("p", { class: "output", "aria-live": "polite", "data-output": op.id });
    const run = async (values) => {
      const data = op.method === "GET" ? await call("GET", op.path, undefined, values) : await call("POST", op.path, values);
      // a lookup answers its inputs too: those are named by their labels, the figures by their names
      const named = (k) => (op.inputs[k] && op.inputs[k].label) || metricName(k);
      // a list of figures is shown beside the names it is for: a list input of texts of the same length
      const names = Object.entries(op.inputs).find(([k, s]) => s.type === "list" && s.items === "string" && Array.isArray(values[k]));
      const blank = Object.entries(op.inputs).filter(([k]) => values[k] === undefined).map(([k, s]) => s.label || k);
      const said = (v) => {
        if (Array.isArray(v) && names && values[names[0]].length === v.length) return v.map((x, i) => values[names[0]][i] + " " + show(x)).join(", ");
        if (Array.isArray(v)) return v.map(show).join(", ");
        if (v === null && blank.length) return L.none + " (" + L.needs.replace("{fields}", blank.join(", ")) + ")";
        return show(v);
      };
      output.replaceChildren(...Object.entries(data).map(([k, v]) => el("span", { class: "figure", "data-output": k, text: named(k) + ": " + said(v) })));
      say("");
    };
    const form = formWidget("compute", op.inputs, op.summary || L.run, run);
    // the answer is on the page when it opens, where the form's defaults already make a valid question (a loan with
    // its usual rate and term); once only, and quietly: an answer that fails waits for the person's own values
    let asked = false;
    refreshers.push(async () => {
      if (asked || !form.checkValidity()) return;
      asked = true;
      try {
        await run(readForm(form, op.inputs));
      } catch (err) {
        output.replaceChildren();
      }
    });
    return [form, output];
  }

  function fetchWidget(op) {
    if (Object.keys(op.inputs || {}).length) return computeWidget(op);  // a lookup with inputs: a form
    const list = el("ol", { class: "ranking", "data-op": op.id, "aria-live": "polite" });
    const button = el("button", { type: "button", class: "secondary", text: L.load });
    const refresh = loader(list, async () => {
      const data = await call("GET", op.path);
      // a ranking shows each place's value; a lookup of several figures (or a day of a forecast) names each one
      const figures = Object.keys(op.fields || {}).filter((k) => k !== op.label_field && k !== "name");
      list.replaceChildren(...data.items.map((item) => {
        const name = item[op.label_field] || item.name || item.date || "";
        // the days of one place: the place is in the title, not on every row
        const rest = figures.filter((k) => k !== op.label_field && !(k === "city" && !(op.labels || []).length));
        const text = rest.length === 1 && rest[0] === "value" ? show(item.value)
          : rest.map((k) => metricName(k) + ": " + show(item[k])).join("  ·  ");
        return el("li", {}, [el("b", { text: show(name) }), document.createTextNode(" — " + text)]);
      }));
      if (!data.items.length) list.appendChild(el("li", { class: "empty", text: L.empty }));
    });
    button.addEventListener("click", () => refresh().then(() => say("")).catch((err) => say(err.message, true)));
    refreshers.push(refresh);  // read-only: load it when the page opens
    return [button, list];
  }

  function section(title, children) {
    return el("section", { class: "card" }, [el("h2", { text: title }), ...children]);
  }

  // An entity's section, the action first: the form to add a row, the few figures that matter (the headline of its
  // figures over every row, toolgen/ui/layout.py), its chart and rows; every other figure behind "All figures",
  // each operation's under its own heading.
  function build() {
    const ops = config.operations;
    for (const [name, entity] of Object.entries(config.entities)) {
      const parts = [];
      const view = (config.views || {})[name] || {};
      const create = ops.find((o) => o.entity === name && o.kind === "create");
      if (create) {
        parts.push(formWidget("create", entity.fields, L.add, async (values, form) => {
          await call("POST", create.path, values);
          form.reset();
          say(L.saved);
          await refreshAll();
        }));
      }
      const aggregates = ops.filter((o) => o.entity === name && o.kind === "aggregate");
      const more = el("details", { class: "figures", "data-figures": name }, [el("summary", { text: L.all_figures })]);
      for (const op of aggregates) {
        if (op.id === view.headline_op && (view.headline || []).length) {
          const rest = el("div", { "data-op-rest": op.id });
          parts.push(...statsWidget(op, view.headline, rest));
          // its figures the headline does not show, under its heading (none: no heading either)
          if (view.rest) {
            more.appendChild(el("div", { class: "figure-group" }, [el("h3", { text: op.summary || op.id }), rest]));
          }
        } else {
          more.appendChild(el("div", { class: "figure-group" }, [el("h3", { text: op.summary || op.id }), ...statsWidget(op, [])]));
        }
      }
      const lists = ops.filter((o) => o.entity === name && o.kind === "list");
      for (const op of lists) {  // two lists of one entity (all, and what is due soon): each says which it is
        if (lists.length > 1) parts.push(el("h3", { text: op.summary || op.id }));
        parts.push(...tableWidget(op, entity, ops));
      }
      if (more.children.length > 1) parts.push(more);
      widgets.appendChild(section(entity.label || name, parts));
    }
    for (const op of ops.filter((o) => o.kind === "compute")) widgets.appendChild(section(op.summary || op.id, computeWidget(op)));
    for (const op of ops.filter((o) => o.kind === "fetch")) widgets.appendChild(section(op.summary || op.id, fetchWidget(op)));
  }

  // A suggestion learnt from how the tool is used ("start new runs at 06:30?"), from the platform that serves this
  // page (its own origin: /<stage>/p/<tool_id> -> /<stage>/v1/suggestions). Accepting revises the tool; the page
  // reloads as the new version once its job has ended. Rejecting tells the platform; "not now" only hides it.
  function platform() {
    const m = location.pathname.match(/^(.*)\/p\/([A-Za-z0-9]+)\/?$/);
    return config.suggestions && m ? { api: location.origin + m[1] + "/v1", toolId: m[2] } : null;
  }

  async function platformCall(method, url, body) {
    const init = { method, headers: { Authorization: "Bearer " + token } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await fetch(url, init);
    const data = await res.json().catch(() => null);
    if (!res.ok) throw new ApiError((data && data.message) || res.status + " " + res.statusText);
    return data;
  }

  async function waitForJob(api, jobId) {
    for (let i = 0; i < 600; i += 1) {
      const job = await platformCall("GET", api + "/jobs/" + encodeURIComponent(jobId));
      if (job.status === "succeeded") return job;
      if (["failed", "needs_clarification", "refused"].includes(job.status)) throw new ApiError(job.error || job.reason || job.status);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new ApiError(L.unreachable);
  }

  async function suggest() {
    const where = platform();
    if (!where) return;
    let found;
    try {
      found = (await platformCall("GET", where.api + "/suggestions?tool_id=" + encodeURIComponent(where.toolId))).suggestions;
    } catch (err) {
      return;  // suggestions are an extra: the tool works without them
    }
    const hidden = JSON.parse(sessionStorage.getItem("toolgen-dismissed") || "[]");
    const s = found.find((x) => !hidden.includes(x.suggestion_id));
    if (!s) return;
    const buttons = [
      el("button", { type: "button", id: "suggestion-accept", text: L.accept }),
      el("button", { type: "button", class: "secondary", id: "suggestion-reject", text: L.reject }),
      el("button", { type: "button", class: "secondary", id: "suggestion-dismiss", text: L.dismiss }),
    ];
    const banner = el("aside", { class: "suggestion", id: "suggestion", role: "region", "aria-label": L.suggestion }, [
      el("strong", { text: L.suggestion }),
      el("p", { class: "suggestion-text", text: s.text }),
      el("p", { class: "suggestion-reason", text: s.reason }),
      el("ul", {}, s.changes.map((line) => el("li", { text: line }))),
      el("div", { class: "toolbar" }, buttons),
    ]);
    const [accept, reject, dismiss] = buttons;
    const busy = (on) => buttons.forEach((b) => (b.disabled = on));
    accept.addEventListener("click", async () => {
      busy(true);
      say(L.revising);
      try {
        const answer = await platformCall("POST", where.api + "/suggestions/" + encodeURIComponent(s.suggestion_id), { accept: true });
        await waitForJob(where.api, answer.job_id);
        location.reload();
      } catch (err) {
        say(err.message, true);
        busy(false);
      }
    });
    reject.addEventListener("click", async () => {
      busy(true);
      try {
        await platformCall("POST", where.api + "/suggestions/" + encodeURIComponent(s.suggestion_id), { accept: false });
        banner.remove();
        say(L.rejected);
      } catch (err) {
        say(err.message, true);
        busy(false);
      }
    });
    dismiss.addEventListener("click", () => {
      sessionStorage.setItem("toolgen-dismissed", JSON.stringify([...hidden, s.suggestion_id]));
      banner.remove();
    });
    document.querySelector("header").appendChild(banner);
  }

  function setupMode() {
    const root = document.documentElement;
    const toggle = document.getElementById("mode-toggle");
    const saved = localStorage.getItem("toolgen-mode");
    if (saved === "light" || saved === "dark") root.dataset.mode = saved;  // the person's own choice wins
    const isDark = () => (root.dataset.mode ? root.dataset.mode === "dark" : matchMedia("(prefers-color-scheme: dark)").matches);
    toggle.setAttribute("aria-pressed", String(isDark()));
    toggle.addEventListener("click", () => {
      root.dataset.mode = isDark() ? "light" : "dark";
      localStorage.setItem("toolgen-mode", root.dataset.mode);
      toggle.setAttribute("aria-pressed", String(isDark()));
    });
  }

  function start() {
    const hash = new URLSearchParams(location.hash.slice(1));
    if (hash.get("token")) {
      sessionStorage.setItem("toolgen-token", hash.get("token"));
      history.replaceState(null, "", location.pathname + location.search);
    }
    token = sessionStorage.getItem("toolgen-token");
    const card = document.getElementById("token-card");
    if (!token) {
      card.hidden = false;
      document.getElementById("token-form").addEventListener("submit", (event) => {
        event.preventDefault();
        sessionStorage.setItem("toolgen-token", document.getElementById("token-input").value.trim());
        location.reload();
      });
      return;
    }
    build();
    refreshAll().then(() => document.body.setAttribute("data-ready", "true"));
    suggest();
  }

  setupMode();
  start();
})();
