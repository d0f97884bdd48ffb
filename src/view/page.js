"use strict";
// The replay viewer. The game data (see src/view/data.rs) sits in the page as JSON: per turn the
// pack and, per player, the command, stats before and after, and the frames of the field through
// the turn (start, garbage row, drop or explosion, one per chain link, end). Everything here is
// drawing and navigation; the rules were applied when the page was written.

(function () {
  const ROWS = 19; // rows a column may hold during a turn
  const VISIBLE = 16; // rows at the end of a turn; a block above them loses
  const WIDTH = 10;
  const GARBAGE_ROW = 10;
  const SKILL_THRESHOLD = 80;
  const PLAY_MS = 260;
  const ANIMATE_MS = 650;

  const data = JSON.parse(document.getElementById("game-data").textContent);
  const turns = data.turns;
  const lastTurn = turns.length - 1;
  const names = data.names.map((name, p) => name || "player " + p);

  const view = { turn: 0, step: null, playTimer: null, animateTimer: null };

  const byId = (id) => document.getElementById(id);

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function escapeXml(text) {
    return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  }

  const seconds = (ms) => (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + " s";
  const plural = (n, word) => n + " " + word + (n === 1 ? "" : "s");

  // Frames keep their rows only where the field changed; give every frame its field back.
  function fillRows() {
    const empty = Array.from({ length: VISIBLE }, () => ".".repeat(WIDTH));
    for (let p = 0; p < 2; p++) {
      let rows = empty;
      for (const turn of turns) {
        for (const frame of turn.players[p].frames) {
          if (frame.rows) rows = frame.rows;
          else frame.rows = rows;
        }
      }
    }
  }

  // The value at column x, row y (from the bottom) of a frame's rows (top first).
  function cellValue(rows, x, y) {
    if (y >= rows.length) return 0;
    const ch = rows[rows.length - 1 - y][x];
    return ch === "." ? 0 : ch === "#" ? 11 : Number(ch);
  }

  const stepCount = (turn) => Math.max(...turn.players.map((pl) => pl.frames.length));
  const frameAt = (player, step) => player.frames[Math.min(step, player.frames.length - 1)];

  // ---- Building the page ----

  const panels = [0, 1].map(buildPanel);

  function buildPanel(p) {
    const node = byId("player-template").content.firstElementChild.cloneNode(true);
    node.classList.add("p" + p);
    node.id = "player-" + p;
    node.querySelector(".name").textContent = names[p];
    node.querySelector(".name").title = data.commands[p];
    const badge = node.querySelector(".badge");
    if (data.winner === -1) {
      badge.textContent = "draw";
      badge.classList.add("draw");
    } else if (data.winner === p) {
      badge.textContent = "winner";
      badge.classList.add("winner");
    } else {
      badge.textContent = "lost: " + data.reason;
      badge.classList.add("loser");
    }
    const field = node.querySelector(".field");
    field.id = "field-" + p;
    field.dataset.player = p;
    const cells = [];
    for (let y = ROWS - 1; y >= 0; y--) {
      const row = [];
      for (let x = 0; x < WIDTH; x++) {
        const cell = element("div", "c");
        cell.dataset.x = x;
        cell.dataset.y = y;
        field.appendChild(cell);
        row[x] = cell;
      }
      cells[y] = row;
    }
    node.querySelector(".caption").id = "caption-" + p;
    byId("panel-" + p).appendChild(node);
    const part = (cls) => node.querySelector("." + cls);
    return {
      node,
      field,
      cells,
      caption: part("caption"),
      incoming: part("incoming"),
      incomingRows: part("incoming-rows"),
      incomingText: part("incoming-text"),
      command: part("command"),
      chain: part("chain"),
      score: part("score"),
      garbage: part("garbage"),
      gaugeFill: node.querySelector(".gauge .fill"),
      gaugeText: part("gauge-text"),
      time: part("time"),
    };
  }

  function buildHeader() {
    for (let p = 0; p < 2; p++) {
      byId("name-" + p).textContent = names[p];
      byId("legend-" + p).textContent = names[p];
    }
    const result = byId("result");
    const reasons = {
      dead: "the loser's field reached the danger line",
      timeout: "time ran out",
      invalid: "an illegal command",
      crash: "a bot stopped answering",
      turns: "the 500-turn limit",
    };
    const scores = data.scores[0] + " : " + data.scores[1];
    if (data.winner === -1) {
      result.textContent = "Draw (" + reasons[data.reason] + ") · " + scores;
    } else {
      const who = element("span", "win" + data.winner, names[data.winner] + " wins");
      result.append(who, " after " + plural(turns.length, "turn") + " (" + reasons[data.reason] + ") · score " + scores);
    }
    const limit = data.time_limit_ms ? " · " + seconds(data.time_limit_ms) + " per game" : "";
    // The pack file's name; its whole path (often long) on hover.
    const meta = byId("meta");
    meta.textContent = "packs " + data.packs.split("/").pop() + limit;
    meta.title = data.packs;
    document.title = names[0] + " vs " + names[1] + " — CODE VS Reborn replay";
    byId("turn-last").textContent = lastTurn;
    byId("turn-slider").max = lastTurn;
  }

  function link(turn, text) {
    const a = element("a", "", text);
    a.title = "go to turn " + turn;
    a.addEventListener("click", () => go(turn, null));
    return a;
  }

  function buildLandmarks() {
    const table = byId("landmarks");
    const head = table.insertRow();
    head.append(element("th", "", ""));
    for (let p = 0; p < 2; p++) {
      const th = element("th", "");
      th.append(element("i", "swatch p" + p), "P" + p);
      head.append(th);
    }
    const rows = [
      ["first 10+", "chain_10", (m) => "t" + m.turn + " ×" + m.links],
      ["first garbage", "garbage", (m) => "t" + m.turn + " +" + m.garbage],
      ["largest", "largest", (m) => "t" + m.turn + " ×" + m.links],
    ];
    for (const [label, key, show] of rows) {
      const tr = table.insertRow();
      tr.append(element("td", "", label));
      const moments = data.firsts.map((f) => f[key]);
      const earliest = earliestOf(moments);
      moments.forEach((m, p) => {
        const td = element("td", "num");
        if (m) td.append(link(m.turn, show(m)));
        else td.textContent = "–";
        if (key !== "largest" && earliest === p) td.classList.add("first");
        tr.append(td);
      });
    }
    const fired = byId("fired-first");
    const ten = data.firsts.map((f) => f.chain_10);
    const first = earliestOf(ten);
    if (first === null && (ten[0] || ten[1])) {
      fired.textContent = "Both fired 10+ in turn " + ten[0].turn;
    } else if (first !== null) {
      fired.append(element("i", "swatch p" + first), names[first] + " fired first (turn " + ten[first].turn + ")");
    } else {
      fired.textContent = "No chain of 10+";
    }
  }

  // The player whose moment came first; null for a tie or when neither has one.
  function earliestOf(moments) {
    const [a, b] = moments;
    if (a && (!b || a.turn < b.turn)) return 0;
    if (b && (!a || b.turn < a.turn)) return 1;
    return null;
  }

  // ---- The timeline: an SVG drawn from the data, redrawn when the width changes ----

  let timelineGeometry = null;

  function drawTimeline() {
    const box = byId("timeline");
    const width = Math.max(600, box.clientWidth || 1200);
    const height = 196;
    const left = 56;
    const right = 10;
    const chainTop = 8;
    const chainBottom = 118;
    const axis = (chainTop + chainBottom) / 2;
    const stockTop = 136;
    const stockBottom = 176;
    const plot = width - left - right;
    const n = turns.length;
    const step = plot / Math.max(n, 1);
    const xOf = (t) => left + t * step;

    const links = turns.map((t) => t.players.map((pl) => (pl.outcome ? pl.outcome.links : 0)));
    const stocks = turns.map((t) => t.players.map((pl) => pl.after.garbage));
    const maxLinks = Math.max(12, ...links.flat());
    const maxStock = Math.max(GARBAGE_ROW, ...stocks.flat());
    const linkScale = (axis - chainTop) / maxLinks;
    const stockY = (v) => stockBottom - (v / maxStock) * (stockBottom - stockTop);

    const parts = [];
    parts.push(`<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="timeline">`);
    // Grid: the axis, 10 links either way, the stock panel's frame.
    parts.push(`<line class="grid" x1="${left}" x2="${width - right}" y1="${axis}" y2="${axis}"/>`);
    for (const sign of [-1, 1]) {
      const y = axis + sign * 10 * linkScale;
      parts.push(`<line class="ten" x1="${left}" x2="${width - right}" y1="${y}" y2="${y}"/>`);
      parts.push(`<text x="${left - 6}" y="${y + 4}" text-anchor="end">10</text>`);
    }
    parts.push(`<text x="${left - 6}" y="${axis - 4}" text-anchor="end">P0 &#x2191;</text>`);
    parts.push(`<text x="${left - 6}" y="${axis + 12}" text-anchor="end">P1 &#x2193;</text>`);
    parts.push(`<line class="grid" x1="${left}" x2="${width - right}" y1="${stockBottom}" y2="${stockBottom}"/>`);
    parts.push(`<line class="grid" x1="${left}" x2="${width - right}" y1="${stockTop}" y2="${stockTop}"/>`);
    parts.push(`<text x="${left - 6}" y="${stockTop + 4}" text-anchor="end">${maxStock}</text>`);
    parts.push(`<text x="${left - 6}" y="${stockBottom}" text-anchor="end">0</text>`);
    const sideLabel = (text, y) => `<text transform="translate(10 ${y}) rotate(-90)" text-anchor="middle">${text}</text>`;
    parts.push(sideLabel("chains", axis), sideLabel("stock", (stockTop + stockBottom) / 2));
    // Turn ticks: a round interval giving at most about 12 labels.
    const interval = [1, 2, 5, 10, 20, 25, 50, 100].find((i) => n / i <= 12) || 100;
    for (let t = 0; t < n; t += interval) {
      const x = xOf(t + 0.5);
      parts.push(`<line class="grid" x1="${x}" x2="${x}" y1="${stockBottom}" y2="${stockBottom + 4}"/>`);
      parts.push(`<text x="${x}" y="${height - 4}" text-anchor="middle">${t}</text>`);
    }
    // The cursor sits under the bars so a bar under it stays visible.
    parts.push(`<rect class="cursor-band" x="0" y="${chainTop - 4}" width="${Math.max(step, 2)}" height="${stockBottom - chainTop + 4}"/>`);
    parts.push(`<line class="cursor" x1="0" x2="0" y1="${chainTop - 4}" y2="${stockBottom}"/>`);
    // Chains: player 0 up from the axis, player 1 down.
    const barWidth = Math.min(14, Math.max(1, step * 0.8));
    turns.forEach((turn, t) => {
      for (let p = 0; p < 2; p++) {
        const l = links[t][p];
        if (!l) continue;
        const h = Math.max(1.5, l * linkScale);
        const y = p === 0 ? axis - h : axis;
        const tip = `turn ${t}: ${escapeXml(names[p])} ${l}-link chain${turn.players[p].skill ? " (skill)" : ""}`;
        parts.push(`<rect class="bar${p}" x="${xOf(t) + (step - barWidth) / 2}" y="${y}" width="${barWidth}" height="${h}"><title>${tip}</title></rect>`);
      }
    });
    // Skills: a diamond on the player's side of the axis (an explosion alone makes no bar).
    turns.forEach((turn, t) => {
      for (let p = 0; p < 2; p++) {
        if (!turn.players[p].skill || !turn.played) continue;
        const cx = xOf(t + 0.5);
        const cy = p === 0 ? axis - 5 : axis + 5;
        const o = turn.players[p].outcome;
        const tip = `turn ${t}: ${escapeXml(names[p])} skill, ${o.exploded} exploded`;
        parts.push(`<path class="skill" d="M${cx} ${cy - 5}L${cx + 4} ${cy}L${cx} ${cy + 5}L${cx - 4} ${cy}Z"><title>${tip}</title></path>`);
      }
    });
    // Stocks as step lines.
    for (let p = 0; p < 2; p++) {
      const points = [];
      stocks.forEach((s, t) => {
        points.push(`${xOf(t)},${stockY(s[p])}`, `${xOf(t + 1)},${stockY(s[p])}`);
      });
      parts.push(`<polyline class="stock${p}" points="${points.join(" ")}"/>`);
    }
    // Who fired first: a dashed line at each player's first 10+ chain.
    data.firsts.forEach((f, p) => {
      const m = f.chain_10;
      if (!m) return;
      const x = xOf(m.turn + 0.5);
      parts.push(`<line class="fire${p}" x1="${x}" x2="${x}" y1="${chainTop}" y2="${chainBottom}"/>`);
      const y = p === 0 ? chainTop + 10 : chainBottom - 2;
      const anchor = x > width - 140 ? "end" : "start";
      const dx = anchor === "end" ? -4 : 4;
      parts.push(`<text class="firelabel${p}" x="${x + dx}" y="${y}" text-anchor="${anchor}">P${p} fires ${m.links} (t${m.turn})</text>`);
    });
    parts.push("</svg>");
    // Built as markup (not createElementNS) so the page names no namespace address.
    box.innerHTML = parts.join("");
    timelineGeometry = { left, step, n };
    const svg = box.querySelector("svg");
    let dragging = false;
    const pick = (event) => {
      const rect = svg.getBoundingClientRect();
      const x = ((event.clientX - rect.left) / rect.width) * width;
      const t = Math.floor((x - left) / step);
      go(Math.max(0, Math.min(lastTurn, t)), null);
    };
    svg.addEventListener("mousedown", (event) => {
      dragging = true;
      pick(event);
    });
    svg.addEventListener("mousemove", (event) => dragging && pick(event));
    window.addEventListener("mouseup", () => (dragging = false));
    placeCursor();
  }

  function placeCursor() {
    if (!timelineGeometry) return;
    const { left, step } = timelineGeometry;
    const x = left + view.turn * step;
    const band = byId("timeline").querySelector(".cursor-band");
    const line = byId("timeline").querySelector(".cursor");
    band.setAttribute("x", x);
    line.setAttribute("x1", x + step / 2);
    line.setAttribute("x2", x + step / 2);
  }

  // ---- Drawing one turn ----

  function packNode(rows, big) {
    const node = element("div", "pack" + (big ? " big" : ""));
    for (const row of rows) {
      for (const v of row) {
        const cell = element("div", "c v" + v, v ? String(v) : "");
        cell.dataset.v = v;
        node.append(cell);
      }
    }
    return node;
  }

  // The ten columns, two rows high, with the rotated pack where the command drops it.
  function landingNode(drop) {
    const node = element("div", "landing");
    node.title = "the pack after rotation, over the columns it lands on";
    for (let row = 0; row < 2; row++) {
      for (let x = 0; x < WIDTH; x++) {
        const inPack = x === drop.x || x === drop.x + 1;
        const v = inPack ? drop.rotated[row][x - drop.x] : 0;
        node.append(element("i", v ? "v" + v : inPack ? "hit" : ""));
      }
    }
    return node;
  }

  function frameCaption(turn, player, frame) {
    const o = player.outcome;
    switch (frame.kind) {
      case "start":
        if (!turn.played) {
          return player.fault ? player.fault + ": the game ends before this turn" : "not played: the opponent faulted";
        }
        return "before the turn";
      case "garbage":
        return player.garbage_fell ? "a garbage row falls" : "no garbage row falls";
      case "drop":
        return `pack dropped at x ${player.drop.x}, rotation ${player.drop.rotation}`;
      case "explosion":
        return `skill: ${plural(frame.marks.length, "block")} explode`;
      case "link":
        return `link ${frame.link} of ${o.links}: ${plural(frame.marks.length, "block")} vanish`;
      default:
        return o && o.links ? `after the turn: ${o.links}-link chain` : "after the turn";
    }
  }

  // Garbage stock as the frame stands: the row that falls leaves the stock at the garbage frame;
  // what the turn sent and offset shows at the end.
  function stockAt(player, frame) {
    if (frame.kind === "end") return player.after.garbage;
    if (frame.kind === "start") return player.before.garbage;
    return player.before.garbage - (player.garbage_fell ? GARBAGE_ROW : 0);
  }

  function drawField(panel, frame, turnIndex) {
    const marks = new Set(frame.marks.map(([x, y]) => x + "," + y));
    const markClass =
      frame.kind === "link" || frame.kind === "explosion"
        ? "mark-vanish"
        : frame.kind === "drop"
          ? "mark-new"
          : frame.kind === "garbage"
            ? "mark-garbage"
            : "";
    for (let y = 0; y < ROWS; y++) {
      for (let x = 0; x < WIDTH; x++) {
        const v = cellValue(frame.rows, x, y);
        const cell = panel.cells[y][x];
        let cls = "c v" + v;
        if (y >= VISIBLE) cls += " over";
        if (y === VISIBLE - 1) cls += " line";
        if (markClass && marks.has(x + "," + y)) cls += " " + markClass;
        cell.className = cls;
        cell.dataset.v = v;
        cell.textContent = v >= 1 && v <= 9 ? String(v) : "";
      }
    }
    panel.field.dataset.rows = frame.rows.join("/");
    panel.field.dataset.frame = frame.kind;
    panel.field.dataset.turn = turnIndex;
  }

  function drawIncoming(panel, stock) {
    panel.incomingRows.textContent = "";
    const rows = Math.floor(stock / GARBAGE_ROW);
    const shown = Math.min(rows, 8);
    for (let i = 0; i < shown; i++) panel.incomingRows.append(element("i"));
    const rest = stock % GARBAGE_ROW;
    if (rest) {
      const part = element("i", "part");
      const fill = element("b");
      fill.style.width = (rest / GARBAGE_ROW) * 100 + "%";
      part.append(fill);
      panel.incomingRows.append(part);
    }
    let text = "garbage stock " + stock;
    if (rows > shown) text += " (" + rows + " rows)";
    if (stock === 0) text = "no garbage waiting";
    panel.incomingText.textContent = text;
    panel.incoming.classList.toggle("warn", rows > 0);
  }

  function drawStats(panel, turn, player, p) {
    const chip = (text, cls) => element("span", "chip" + (cls ? " " + cls : ""), text);
    const o = player.outcome;

    panel.command.textContent = "";
    const line = element("div", "command-line");
    if (player.fault) {
      line.append(element("span", "fault", player.fault));
      if (player.command) line.append(element("code", "", JSON.stringify(player.command)));
    } else if (player.skill) {
      line.append(element("span", "skill", "SKILL"));
    } else if (player.drop) {
      line.append(landingNode(player.drop), `x ${player.drop.x} · rot ${player.drop.rotation}`);
    }
    panel.command.append(line);

    panel.chain.textContent = "";
    if (!turn.played) {
      panel.chain.append(chip("not played", "hot"));
    } else {
      if (o.skill) panel.chain.append(chip(`exploded ${o.exploded}`, "good"));
      if (o.links) panel.chain.append(chip(`${o.links}-link chain`, o.links >= 10 ? "hot" : "good"));
      if (!o.skill && !o.links) panel.chain.append(chip("no chain"));
      if (o.score) panel.chain.append(chip(`+${o.score} pts`));
      if (o.garbage) panel.chain.append(chip(`sends ${o.garbage}`, "hot"));
      if (player.garbage_fell) panel.chain.append(chip("garbage row fell", "hot"));
    }

    panel.score.textContent = "";
    panel.score.append(element("span", "big", String(player.after.score)));
    const gained = player.after.score - player.before.score;
    if (gained) panel.score.append(element("span", "delta", "+" + gained));

    const before = player.before.garbage;
    const after = player.after.garbage;
    panel.garbage.textContent = "";
    panel.garbage.append(element("span", "big", String(after)));
    if (before !== after) panel.garbage.append(element("span", "dim", "  (was " + before + ")"));

    const gauge = player.after.gauge;
    panel.gaugeFill.style.width = gauge + "%";
    panel.gaugeText.textContent = gauge + " / 100" + (gauge >= SKILL_THRESHOLD ? " · skill ready" : "");
    panel.gaugeText.classList.toggle("ready", gauge >= SKILL_THRESHOLD);

    const left = data.time_limit_ms ? " · " + seconds(Math.max(0, data.time_limit_ms - player.time_used_ms)) + " left" : "";
    panel.time.textContent = player.time_ms + " ms this turn";
    panel.time.append(element("br"), element("span", "dim", seconds(player.time_used_ms) + " used" + left));
    panel.node.dataset.player = p;
  }

  function render() {
    const turn = turns[view.turn];
    const steps = stepCount(turn);
    const step = view.step === null ? steps - 1 : Math.min(view.step, steps - 1);
    const labels = [];
    turn.players.forEach((player, p) => {
      const panel = panels[p];
      const frame = frameAt(player, step);
      drawField(panel, frame, view.turn);
      const caption = frameCaption(turn, player, frame);
      panel.caption.textContent = caption;
      panel.caption.classList.toggle("hot", frame.kind === "link" || frame.kind === "explosion" || !!player.fault);
      drawIncoming(panel, stockAt(player, frame));
      drawStats(panel, turn, player, p);
      labels.push("P" + p + ": " + caption);
    });

    byId("turn-number").textContent = view.turn;
    byId("center-turn").textContent = view.turn;
    byId("turn-slider").value = view.turn;
    const stepSlider = byId("step-slider");
    stepSlider.max = steps - 1;
    stepSlider.value = step;
    byId("step-number").textContent = step;
    byId("step-last").textContent = steps - 1;
    byId("step-label").textContent = labels.join(" · ");

    const pack = byId("pack");
    pack.replaceWith(Object.assign(packNode(turn.pack, true), { id: "pack" }));
    const next = byId("next-packs");
    next.textContent = "";
    for (let t = view.turn + 1; t <= Math.min(lastTurn, view.turn + 3); t++) next.append(packNode(turns[t].pack, false));

    placeCursor();
    const app = byId("app");
    app.dataset.turn = view.turn;
    app.dataset.step = step;
    const hash = "#turn=" + view.turn + (view.step === null ? "" : "&step=" + step);
    if (location.hash !== hash) {
      try {
        history.replaceState(null, "", hash);
      } catch (e) {
        // Some browsers refuse history changes on file:// pages; the fragment is only a convenience.
      }
    }
  }

  // ---- Navigation ----

  function go(turn, step) {
    view.turn = Math.max(0, Math.min(lastTurn, turn));
    view.step = step;
    render();
  }

  function stepBy(delta) {
    const turn = turns[view.turn];
    const steps = stepCount(turn);
    const current = view.step === null ? steps - 1 : view.step;
    const next = current + delta;
    if (next < 0) {
      if (view.turn > 0) go(view.turn - 1, null);
    } else if (next >= steps) {
      if (view.turn < lastTurn) go(view.turn + 1, 0);
    } else {
      go(view.turn, next === steps - 1 ? null : next);
    }
  }

  function stopTimers() {
    clearInterval(view.playTimer);
    clearInterval(view.animateTimer);
    view.playTimer = view.animateTimer = null;
    byId("play").classList.remove("on");
    byId("play").textContent = "▶ play";
    byId("animate").classList.remove("on");
  }

  function togglePlay() {
    if (view.playTimer) {
      stopTimers();
      return;
    }
    stopTimers();
    if (view.turn === lastTurn) go(0, null);
    byId("play").classList.add("on");
    byId("play").textContent = "❚❚ pause";
    view.playTimer = setInterval(() => {
      if (view.turn >= lastTurn) stopTimers();
      else go(view.turn + 1, null);
    }, PLAY_MS);
  }

  // Steps through the current turn's frames, then stays on its end.
  function animateTurn() {
    stopTimers();
    const steps = stepCount(turns[view.turn]);
    byId("animate").classList.add("on");
    let step = 0;
    go(view.turn, 0);
    view.animateTimer = setInterval(() => {
      step += 1;
      if (step >= steps - 1) {
        stopTimers();
        go(view.turn, null);
      } else {
        go(view.turn, step);
      }
    }, ANIMATE_MS);
  }

  function bindControls() {
    const manual = (action) => () => {
      stopTimers();
      action();
    };
    // A clicked button keeps no focus, so Space and Enter stay the page's keys instead of clicking it again.
    for (const button of document.querySelectorAll("button")) {
      button.addEventListener("click", () => button.blur());
    }
    byId("first").addEventListener("click", manual(() => go(0, null)));
    byId("prev").addEventListener("click", manual(() => go(view.turn - 1, null)));
    byId("next").addEventListener("click", manual(() => go(view.turn + 1, null)));
    byId("last").addEventListener("click", manual(() => go(lastTurn, null)));
    byId("play").addEventListener("click", togglePlay);
    byId("step-prev").addEventListener("click", manual(() => stepBy(-1)));
    byId("step-next").addEventListener("click", manual(() => stepBy(1)));
    byId("animate").addEventListener("click", animateTurn);
    byId("turn-slider").addEventListener("input", (e) => {
      stopTimers();
      go(Number(e.target.value), null);
    });
    byId("step-slider").addEventListener("input", (e) => {
      stopTimers();
      const steps = stepCount(turns[view.turn]);
      const step = Number(e.target.value);
      go(view.turn, step === steps - 1 ? null : step);
    });
    const keys = {
      ArrowLeft: () => go(view.turn - 1, null),
      ArrowRight: () => go(view.turn + 1, null),
      Home: () => go(0, null),
      End: () => go(lastTurn, null),
      ArrowUp: () => stepBy(-1),
      ArrowDown: () => stepBy(1),
    };
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (keys[event.key]) {
        event.preventDefault();
        stopTimers();
        keys[event.key]();
      } else if (event.key === " ") {
        event.preventDefault();
        togglePlay();
      } else if (event.key === "Enter") {
        event.preventDefault();
        animateTurn();
      }
    });
    window.addEventListener("hashchange", fromHash);
    let width = byId("timeline").clientWidth;
    window.addEventListener("resize", () => {
      if (byId("timeline").clientWidth !== width) {
        width = byId("timeline").clientWidth;
        drawTimeline();
      }
    });
  }

  // `#turn=N&step=K` opens a turn (at its end unless a step is given).
  function fromHash() {
    const turn = /turn=(\d+)/.exec(location.hash);
    const step = /step=(\d+)/.exec(location.hash);
    go(turn ? Number(turn[1]) : 0, step ? Number(step[1]) : null);
  }

  fillRows();
  buildHeader();
  buildLandmarks();
  drawTimeline();
  bindControls();
  fromHash();
  byId("app").dataset.state = "ready";
})();
