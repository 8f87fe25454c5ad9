// The page of a generated tool: widgets built from the ToolProgram, talking only to the tool's own URL.
// Everything a person typed is put on the page with textContent, never as HTML.
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("tool-config").textContent);
  const L = config.labels;
  const statusEl = document.getElementById("status");
  const widgets = document.getElementById("widgets");
  const refreshers = [];
  let token = null;

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") node.textContent = v;
      else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const child of children || []) node.appendChild(child);
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

  async function call(method, path, body, query) {
    // An empty tool_url: the page is served by the tool itself (an exported bundle), so it calls its own origin.
    const url = new URL((config.tool_url || location.origin).replace(/\/$/, "") + path);
    for (const [k, v] of Object.entries(query || {})) url.searchParams.set(k, v);
    const init = { method, headers: { Authorization: "Bearer " + token } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await fetch(url, init);
    const text = await res.text();
    const data = text ? JSON.parse(text) : null;
    if (!res.ok) throw new Error((data && data.message) || res.status + " " + res.statusText);
    return data;
  }

  function input(name, spec) {
    const attrs = { name, id: "f-" + name + "-" + Math.random().toString(36).slice(2, 8) };
    let control;
    if (spec.enum) {
      control = el("select", attrs, spec.enum.map((v) => el("option", { value: v, text: v })));
      if (spec.default !== null && spec.default !== undefined) control.value = spec.default;
    } else if (spec.type === "text") {
      control = el("textarea", { ...attrs, rows: 2, maxlength: spec.max_length });
    } else if (spec.type === "boolean") {
      control = el("input", { ...attrs, type: "checkbox", checked: spec.default === true });
    } else {
      const type = { number: "number", integer: "number", date: "date", time: "time" }[spec.type] || "text";
      control = el("input", { ...attrs, type, step: spec.type === "number" ? "any" : null,
        min: spec.minimum, max: spec.maximum, maxlength: type === "text" ? spec.max_length : null });
      const dflt = spec.default === "$today" ? today() : spec.default;
      if (dflt !== null && dflt !== undefined) control.value = dflt;
    }
    if (spec.required) control.required = true;
    return el("label", { for: attrs.id }, [document.createTextNode(spec.label || name), control]);
  }

  function readForm(form, fields) {
    const out = {};
    for (const [name, spec] of Object.entries(fields)) {
      const control = form.elements[name];
      if (spec.type === "boolean") out[name] = control.checked;
      else if (control.value === "") continue;
      else if (spec.type === "number" || spec.type === "integer") out[name] = Number(control.value);
      else out[name] = control.value;
    }
    return out;
  }

  function formWidget(fields, buttonText, onSubmit) {
    const form = el("form", {}, Object.entries(fields).map(([n, s]) => input(n, s)));
    form.appendChild(el("button", { type: "submit", text: buttonText }));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await onSubmit(readForm(form, fields), form);
      } catch (err) {
        say(err.message, true);
      }
    });
    return form;
  }

  function show(value) {
    if (value === null || value === undefined) return "—";
    if (Array.isArray(value)) {
      if (!value.length) return "—";
      // a list of records (who pays whom): "Bob → Me: 130"
      const one = (item) => {
        if (!item || typeof item !== "object") return show(item);
        const parts = Object.values(item).map(show);
        return parts.length > 1 ? parts.slice(0, -1).join(" → ") + ": " + parts[parts.length - 1] : parts.join("");
      };
      return value.map(one).join("; ");
    }
    if (typeof value === "boolean") return value ? "✓" : "";
    if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(2);
    return String(value);
  }

  function statsWidget(op) {
    const box = el("div", { class: "stats", "data-op": op.id });
    async function refresh() {
      const data = await call("GET", op.path);
      box.replaceChildren();
      if (data.groups) {
        if (!data.groups.length) box.appendChild(el("p", { class: "empty", text: L.empty }));
        for (const g of data.groups) {
          const parts = Object.entries(g.metrics).map(([k, v]) => (L.metrics[k] || k) + " " + show(v));
          box.appendChild(el("div", { class: "stat" }, [el("b", { text: g.key }), el("span", { text: parts.join(" · ") })]));
        }
      } else {
        for (const [k, v] of Object.entries(data.metrics)) {
          box.appendChild(el("div", { class: "stat" }, [el("b", { text: show(v) }), el("span", { text: L.metrics[k] || k })]));
        }
      }
    }
    refreshers.push(refresh);
    return box;
  }

  function tableWidget(op, entity, ops) {
    const fields = entity.fields;
    const del = ops.find((o) => o.kind === "delete" && o.entity === op.entity);
    const upd = ops.find((o) => o.kind === "update" && o.entity === op.entity);
    const wrap = el("div", { "data-op": op.id });
    async function refresh() {
      const data = await call("GET", op.path);
      wrap.replaceChildren();
      if (!data.items.length) {
        wrap.appendChild(el("p", { class: "empty", text: L.empty }));
        return;
      }
      const computed = Object.keys(op.computed || {});
      const head = el("tr", {}, Object.entries(fields).map(([n, s]) => el("th", { scope: "col", text: s.label || n })));
      for (const name of computed) head.appendChild(el("th", { scope: "col", text: L.metrics[name] || name }));
      if (del) head.appendChild(el("th", { scope: "col", text: "" }));
      const body = data.items.map((row) => {
        const tr = el("tr", { "data-id": row.id });
        for (const [name, spec] of Object.entries(fields)) {
          const td = el("td");
          if (spec.type === "boolean" && upd) {
            const box = el("input", { type: "checkbox", "aria-label": spec.label || name, checked: row[name] === true });
            box.addEventListener("change", () => act(() => call("PATCH", upd.path.replace("{id}", row.id), { [name]: box.checked })));
            td.appendChild(box);
          } else {
            td.textContent = show(row[name]);
          }
          tr.appendChild(td);
        }
        for (const name of computed) tr.appendChild(el("td", { text: show(row[name]) }));
        if (del) {
          const button = el("button", { type: "button", class: "link", text: L.delete });
          button.addEventListener("click", () => act(() => call("DELETE", del.path.replace("{id}", row.id))));
          tr.appendChild(el("td", {}, [button]));
        }
        return tr;
      });
      wrap.appendChild(el("table", {}, [el("thead", {}, [head]), el("tbody", {}, body)]));
    }
    refreshers.push(refresh);
    return wrap;
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
    for (const refresh of refreshers) {
      try {
        await refresh();
      } catch (err) {
        say(err.message, true);
      }
    }
  }

  function computeWidget(op) {
    const output = el("p", { class: "output", "aria-live": "polite" });
    const form = formWidget(op.inputs, op.summary || L.run, async (values) => {
      const data = op.method === "GET" ? await call("GET", op.path, undefined, values) : await call("POST", op.path, values);
      output.textContent = Object.entries(data).map(([k, v]) => (L.metrics[k] || k) + ": " + show(v)).join("  ·  ");
      say("");
    });
    return [form, output];
  }

  function fetchWidget(op) {
    if (Object.keys(op.inputs || {}).length) return computeWidget(op);  // a lookup with inputs: a form
    const list = el("ol", { class: "ranking", "data-op": op.id });
    const button = el("button", { type: "button", text: L.load });
    async function refresh() {
      const data = await call("GET", op.path);
      list.replaceChildren(...data.items.map((item) => {
        const name = item.city || item.name || "";
        return el("li", { text: name + " — " + show(item.value) });
      }));
    }
    button.addEventListener("click", () => refresh().then(() => say("")).catch((err) => say(err.message, true)));
    refreshers.push(refresh);  // read-only: load it when the page opens
    return [button, list];
  }

  function build() {
    const ops = config.operations;
    for (const [name, entity] of Object.entries(config.entities)) {
      const section = el("section", { class: "card" }, [el("h2", { text: entity.label || name })]);
      for (const op of ops.filter((o) => o.entity === name && o.kind === "aggregate")) section.appendChild(statsWidget(op));
      const create = ops.find((o) => o.entity === name && o.kind === "create");
      if (create) {
        section.appendChild(formWidget(entity.fields, L.add, async (values, form) => {
          await call("POST", create.path, values);
          form.reset();
          say(L.saved);
          await refreshAll();
        }));
      }
      for (const op of ops.filter((o) => o.entity === name && o.kind === "list")) section.appendChild(tableWidget(op, entity, ops));
      widgets.appendChild(section);
    }
    for (const op of ops.filter((o) => o.kind === "compute")) {
      widgets.appendChild(el("section", { class: "card" }, [el("h2", { text: op.summary || op.id }), ...computeWidget(op)]));
    }
    for (const op of ops.filter((o) => o.kind === "fetch")) {
      const section = el("section", { class: "card" }, [el("h2", { text: op.summary || op.id }), ...fetchWidget(op)]);
      widgets.appendChild(section);
    }
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
    refreshAll();
  }

  document.getElementById("mode-toggle").addEventListener("click", () => {
    const root = document.documentElement;
    const dark = root.dataset.mode ? root.dataset.mode === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    root.dataset.mode = dark ? "light" : "dark";
  });
  start();
})();
