// take5rules in the reader's browser: the Play page, the rule pages' "run" buttons and "try a
// turn" forms. The rules are not here: take5rules itself runs in Pyodide (take5play.py is its
// page-side module); this file only loads it, shows what it returns and passes the clicks on.
// Everything is fetched from the site itself (assets/take5play/), never from the network.
// The runtime loads only when a Play page opens or a reader presses a run or try button.

const BASE = new URL(".", import.meta.url);
let runtime = null;

async function fetched(path) {
  const response = await fetch(new URL(path, BASE));
  if (!response.ok) throw new Error(`${response.url}: ${response.status}`);
  return response;
}

/** The take5play module running in Pyodide (loaded once, on first use). */
export function loadRuntime() {
  if (runtime === null) {
    runtime = (async () => {
      const started = performance.now();
      const manifest = await (await fetched("bundle.json")).json();
      // The wheels and the page's module download while Pyodide starts.
      const wheels = Promise.all(manifest.wheels.map(
        async (wheel) => (await fetched(wheel)).arrayBuffer()));
      const module = fetched(manifest.module).then((response) => response.text());
      const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", BASE).href);
      const pyodide = await loadPyodide({
        indexURL: new URL("pyodide/", BASE).href,
        packages: [],
        stdout: () => {},
      });
      for (const data of await wheels) {
        pyodide.unpackArchive(data, "wheel");
      }
      const source = await module;
      const purelib = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
      pyodide.FS.writeFile(`${purelib}/take5play.py`, source);
      const take5play = pyodide.pyimport("take5play");
      document.documentElement.dataset.take5RuntimeMs = String(
        Math.round(performance.now() - started));
      return take5play;
    })();
  }
  return runtime;
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));
}

function clickable(node, label, action) {
  node.classList.add("take5-clickable");
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", action);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      action();
    }
  });
}

function ruleLink(base, entry) {
  return element("a", { href: `${base}${entry.rule}/`, class: "take5-rule-link",
                        "data-rule": entry.rule, text: entry.title });
}

function failure(box, message) {
  box.replaceChildren(element("p", { class: "take5-error", role: "alert", text: message }));
}

// --- the Play page -----------------------------------------------------------------------------

function playPage(root) {
  const source = root.querySelector("script.take5-config");
  const config = JSON.parse(source.textContent);
  const L = config.labels;
  const status = element("p", { class: "take5-status", "aria-live": "polite", text: L.loading });
  const seats = element("div", { class: "take5-seats" });
  const variant = element("select", { name: "variant" });
  for (const [value, name] of config.variants) {
    variant.append(element("option", { value, text: name }));
  }
  const threshold = element("input", { type: "number", name: "threshold", min: "1",
                                       value: String(config.threshold) });
  const seed = element("input", { type: "number", name: "seed", min: "0",
                                  value: String(Math.floor(Math.random() * 100000)) });
  const start = element("button", { type: "submit", class: "md-button md-button--primary",
                                    disabled: "", text: L.start });
  const addSeat = element("button", { type: "button", class: "md-button", text: L["add-seat"] });
  const settings = element(
    "form", { class: "take5-settings" },
    element("fieldset", {}, element("legend", { text: L.seats }), seats, addSeat),
    element("label", {}, `${L.variant} `, variant),
    element("label", {}, `${L.threshold} `, threshold),
    element("label", {}, `${L.seed} `, seed),
    element("p", {}, start),
  );
  const game = element("section", { class: "take5-game", hidden: "" });
  root.replaceChildren(source, status, settings, game);

  function seat(name, kind) {
    const row = element("div", { class: "take5-seat" });
    const input = element("input", { type: "text", name: "seat-name", value: name,
                                     "aria-label": L.name, maxlength: "24" });
    const select = element("select", { name: "seat-kind", "aria-label": L.kind });
    for (const [value, label] of config.kinds) {
      const option = element("option", { value, text: label });
      if (value === kind) option.selected = true;
      select.append(option);
    }
    const remove = element("button", { type: "button", class: "md-button take5-remove",
                                       "aria-label": L.remove, text: "✕" });
    remove.addEventListener("click", () => row.remove());
    row.append(input, select, remove);
    seats.append(row);
  }
  config.seats.forEach(([name, kind]) => seat(name, kind));
  addSeat.addEventListener("click", () => {
    const count = seats.children.length;
    if (count < 10) seat(config.names[count % config.names.length], "cautious");
  });

  let module = null;
  loadRuntime().then((loaded) => {
    module = loaded;
    status.textContent = L.ready;
    start.removeAttribute("disabled");
    root.dataset.readyMs = String(Math.round(performance.now()));  // since the navigation began
    root.dataset.ready = "true";
  }, (error) => {
    status.textContent = `${L.failed} ${error}`;
  });

  settings.addEventListener("submit", (event) => {
    event.preventDefault();
    if (module === null) return;
    const chosen = [...seats.querySelectorAll(".take5-seat")].map((row) => [
      row.querySelector("input").value, row.querySelector("select").value]);
    const request = { language: config.language, seats: chosen, variant: variant.value,
                      threshold: Number(threshold.value), seed: Number(seed.value) };
    show(JSON.parse(module.new_game(JSON.stringify(request))));
  });

  const prompt = element("p", { class: "take5-prompt", "aria-live": "polite" });
  const problem = element("div", { class: "take5-problem" });
  const board = element("div", { class: "take5-board" });
  const pool = element("div", { class: "take5-pool" });
  const result = element("div", { class: "take5-result" });
  const totals = element("table", { class: "take5-totals" });
  const log = element("ol", { class: "take5-log" });
  const again = element("button", { type: "button", class: "md-button", text: L["new-game"] });
  again.addEventListener("click", () => {
    game.hidden = true;
    settings.hidden = false;
  });
  game.append(prompt, problem, board, pool, result,
              element("h3", { text: L.totals }), totals,
              element("h3", { text: L.narration }), log, element("p", {}, again));

  function act(value) {
    show(JSON.parse(module.answer(value)));
  }

  function show(state) {
    if (state.error !== undefined) {
      failure(settings.hidden ? problem : status, state.error);
      return;
    }
    settings.hidden = true;
    game.hidden = false;
    status.textContent = "";
    problem.replaceChildren();
    root.dataset.phase = state.phase;
    board.innerHTML = state.svg || "";
    pool.replaceChildren();
    result.replaceChildren();
    if (state.phase === "card") {
      prompt.textContent = fill(L["choose-card"], { player: state.player });
      for (const card of board.querySelectorAll("g.pending g.card")) {
        clickable(card, fill(L["play-card"], { card: card.dataset.card }),
                  () => act(Number(card.dataset.card)));
      }
    } else if (state.phase === "row") {
      prompt.textContent = fill(L["choose-row"], { player: state.player, card: state.card });
      const frame = board.querySelector("svg").viewBox.baseVal;
      for (const row of board.querySelectorAll("g.row")) {
        // The whole width of the row answers a click, not only its cards.
        const box = row.getBBox();
        const hit = document.createElementNS("http://www.w3.org/2000/svg", "rect");
        for (const [key, value] of Object.entries({ x: frame.x + 4, y: box.y,
                                                    width: frame.width - 8, height: box.height,
                                                    fill: "transparent", rx: 5 })) {
          hit.setAttribute(key, String(value));
        }
        row.prepend(hit);
        clickable(row, fill(L["take-row"], { row: row.dataset.row }),
                  () => act(Number(row.dataset.row) - 1));
      }
    } else if (state.phase === "draft") {
      prompt.textContent = fill(L["choose-draft"], { player: state.player });
      for (const face of state.pool) {
        const button = element("button", {
          type: "button", class: "take5-pool-card", "data-card": String(face.card),
          style: `background:${face.face};border-color:${face.border};color:${face.ink}`,
          "aria-label": fill(L["play-card"], { card: face.card }),
        }, element("strong", { text: String(face.card) }), element("small", {
          text: "▾".repeat(face.heads) }));
        button.addEventListener("click", () => act(face.card));
        pool.append(button);
      }
    } else {
      prompt.textContent = L["game-over"];
      result.append(element("p", { class: "take5-winners",
                                   text: fill(L.winners, { players: state.winners.join(", ") }) }));
    }
    // Beside each total, the bull heads taken this round: the totals only grow when a round
    // is scored (the terminal game shows the same).
    totals.replaceChildren(element("tr", {}, element("th", { text: L.name }),
                                   element("th", { text: L.total }),
                                   element("th", { text: L.taken })));
    const winners = new Set(state.winners || []);
    const taken = new Map(state.taken);
    for (const [name, total] of state.totals) {
      totals.append(element("tr", winners.has(name) ? { class: "take5-winner" } : {},
                            element("td", { text: winners.has(name) ? `${name} ★` : name }),
                            element("td", { text: String(total) }),
                            element("td", { class: "take5-taken",
                                            text: String(taken.get(name) ?? 0) })));
    }
    log.replaceChildren(...state.log.map((entry) => {
      const item = element("li", { class: `take5-event take5-${entry.kind}` });
      item.append(element("span", { text: entry.text }));
      if (entry.rule) item.append(" ", ruleLink(config.rules, entry));
      return item;
    }));
    log.scrollTop = log.scrollHeight;
  }
}

// --- rule pages: run the worked example, try a turn ---------------------------------------------

function runButton(box) {
  const L = box.dataset;
  const button = box.querySelector("button");
  const output = box.querySelector(".take5-run-output");
  button.addEventListener("click", async () => {
    button.disabled = true;
    output.replaceChildren(element("p", { class: "take5-status", text: L.loading }));
    try {
      const module = await loadRuntime();
      const ran = JSON.parse(module.run_example(box.dataset.rule));
      const passed = ran.examples.every((example) => example.ok);
      output.replaceChildren(
        element("p", { class: passed ? "take5-passed" : "take5-error", role: "status",
                       text: fill(passed ? L.passed : L.failed,
                                  { count: String(ran.examples.length) }) }),
        element("pre", { class: "take5-run-result" }, ...ran.examples.map((example) =>
          element("code", { text: `>>> ${example.source.trimEnd().replace(/\n/g, "\n... ")}\n`
                                  + (example.got || "") }))));
    } catch (error) {
      failure(output, String(error));
    } finally {
      button.disabled = false;
    }
  });
}

function tryForm(form) {
  const L = form.dataset;
  const output = form.querySelector(".take5-try-output");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button");
    button.disabled = true;
    output.replaceChildren(element("p", { class: "take5-status", text: L.loading }));
    try {
      const module = await loadRuntime();
      const request = {
        rows: [...form.querySelectorAll("input[name=row]")].map((input) => input.value),
        plays: form.querySelector("input[name=plays]").value,
        choices: form.querySelector("input[name=choices]").value,
        language: L.language,
      };
      const turn = JSON.parse(module.try_turn(JSON.stringify(request)));
      if (turn.error !== undefined) {
        failure(output, turn.error);
        return;
      }
      output.replaceChildren(...turn.steps.map((step) => {
        const caption = element("figcaption", {}, step.text);
        if (step.rule) caption.append(" ", ruleLink(L.rules, step));
        const figure = element("figure", { class: "take5-frame" }, caption);
        figure.insertAdjacentHTML("afterbegin", step.svg);
        return figure;
      }));
    } catch (error) {
      failure(output, String(error));
    } finally {
      button.disabled = false;
    }
  });
}

for (const root of document.querySelectorAll(".take5-play")) playPage(root);
for (const box of document.querySelectorAll(".take5-run")) runButton(box);
for (const form of document.querySelectorAll("form.take5-try")) tryForm(form);
