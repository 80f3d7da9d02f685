// The lab page: the controls become one request to the WebAssembly engine; its answer becomes numbers, limits and charts.
"use strict";

const $ = (id) => document.getElementById(id);
const KERNEL_COLOURS = ["#3b78c4", "#e8892b"];
const lab = { engine: null, catalogue: null, runs: 0, pending: false };

/// The controls' values (numbers where they are numbers).
function readControls() {
  const v = (id) => Number($(id).value);
  return {
    gpu: $("gpu").value, sms: v("sms"), maxBlocksPerSm: v("max-blocks-per-sm"), policy: $("policy").value,
    kernels: [
      { name: "A", stream: 0, blocks: v("blocks"), threads: v("threads"), regs: v("regs"), smemKiB: v("smem"), durationUs: v("duration") },
      ...($("second").checked
        ? [{ name: "B", stream: 1, blocks: v("blocks2"), threads: v("threads2"), regs: v("regs2"), smemKiB: 0, durationUs: v("duration2"),
             priority: $("priority2").value }]
        : []),
    ],
  };
}

function preset(name) { return lab.catalogue.presets.find((p) => p.name === name); }

/// The workload file of this configuration (docs/workloads.md), the input of `gpusched simulate --workload`.
function workloadYaml(config) {
  const lines = ["description: gpusched lab"];
  const high = config.kernels.filter((k) => k.priority === "high");
  if (high.length) {
    lines.push("streams:");
    for (const k of high) lines.push(`  - id: ${k.stream}`, "    priority: high");
  }
  lines.push("launches:");
  for (const k of config.kernels) {
    lines.push("  - kernel: synthetic", `    name: ${k.name}`, `    stream: ${k.stream}`, `    blocks: ${k.blocks}`,
               `    threads: ${k.threads}`, `    regs: ${k.regs}`, `    smem: ${k.smemKiB * 1024}`, `    duration: ${k.durationUs}us`);
  }
  return lines.join("\n") + "\n";
}

/// The what-ifs differ from the preset only where the sliders moved away from it.
function whatIfs(config) {
  const p = preset(config.gpu);
  return { sms: config.sms !== p.sm_count ? config.sms : null,
           maxBlocksPerSm: config.maxBlocksPerSm !== p.max_blocks_per_sm ? config.maxBlocksPerSm : null };
}

function commandLine(config) {
  const w = whatIfs(config);
  return ["gpusched simulate", `--gpu ${config.gpu}`, w.sms !== null ? `--sms ${w.sms}` : "",
          w.maxBlocksPerSm !== null ? `--set max_blocks_per_sm=${w.maxBlocksPerSm}` : "",
          `--policy ${config.policy}`, "--workload lab.yaml", "--json"].filter((s) => s).join(" ");
}

function runEngine(config) {
  const w = whatIfs(config);
  const request = { gpu: config.gpu, sms: w.sms, max_blocks_per_sm: w.maxBlocksPerSm, policy: config.policy,
                    workload: workloadYaml(config), max_blocks: 20000 };
  return JSON.parse(lab.engine.ccall("lab_run", "string", ["string"], [JSON.stringify(request)]));
}

function cell(row, text, attributes = {}) {
  const td = row.insertCell();
  td.textContent = text;
  for (const [k, value] of Object.entries(attributes)) td.setAttribute(k, value);
  return td;
}

function showNumbers(summary) {
  $("makespan").textContent = String(summary.makespan_ns);
  $("makespan").dataset.value = String(summary.makespan_ns);
  $("total-blocks").textContent = String(summary.total_blocks);
  $("total-blocks").dataset.value = String(summary.total_blocks);
  $("execution").textContent = summary.execution;
  const body = $("kernels").tBodies[0];
  body.replaceChildren();
  for (const k of summary.kernels) {
    const row = body.insertRow();
    row.dataset.launch = String(k.launch);
    cell(row, k.name);
    for (const key of ["stream", "blocks", "threads_per_block", "blocks_per_sm", "waves", "ready_ns", "start_ns", "end_ns"])
      cell(row, String(k[key]), { "data-key": key });
  }
  $("notes").replaceChildren(...(summary.notes || []).map((n) => { const li = document.createElement("li"); li.textContent = n; return li; }));
}

function showLimits(result) {
  const body = $("limits").tBodies[0];
  body.replaceChildren();
  result.occupancy.forEach((o, i) => {
    const row = body.insertRow();
    row.dataset.launch = String(i);
    cell(row, result.summary.kernels[i].name);
    for (const [key, limiter] of [["limit_warps", "warps"], ["limit_registers", "registers"],
                                  ["limit_shared_memory", "shared_memory"], ["limit_blocks", "blocks"]]) {
      const td = cell(row, o[key] === null ? "no limit" : String(o[key]), { "data-key": key });
      if (o.limited_by.includes(limiter)) td.classList.add("binding");
    }
    cell(row, String(o.blocks_per_sm), { "data-key": "blocks_per_sm" });
    cell(row, `${(100 * o.occupancy).toFixed(1)} %`, { "data-key": "occupancy" });
    cell(row, o.limited_by.join(", ").replace("_", " "), { "data-key": "limited_by" });
  });
}

/// The explain account (`simulate --explain`): SM-time per category in SM-us and its share, and the narrative.
function showAccount(result) {
  const a = result.summary.time_account;
  const body = $("account").tBodies[0];
  body.replaceChildren();
  const categories = ["active_warps", "inactive_warps", "launch_overhead", "dispatch_latency", "tail",
                      "occupancy_limit", "waits", "host_bound"];
  for (const key of categories) {
    const ps = a[`${key}_ps`];
    const row = body.insertRow();
    row.dataset.key = key;
    cell(row, key.replace("_", " "));
    cell(row, (ps / 1e6).toFixed(3), { "data-key": "sm_us", "data-ps": String(ps) });
    cell(row, a.total_ps > 0 ? `${(100 * ps / a.total_ps).toFixed(1)} %` : "-", { "data-key": "share" });
  }
  $("explanation").textContent = result.explanation;
}

/// A time axis in microseconds along the bottom of a chart of width `w` for times 0..end (ps).
function timeAxis(ctx, left, w, top, endPs) {
  const endUs = endPs / 1e6;
  const step = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000].find((s) => endUs / s <= 8) || endUs / 8;
  ctx.fillStyle = "#444";
  ctx.font = "12px sans-serif";
  ctx.textAlign = "center";
  for (let t = 0; t <= endUs; t += step) {
    const x = left + (t / endUs) * w;
    ctx.fillRect(x, top, 1, 4);
    ctx.fillText(`${t} us`, x, top + 16);
  }
}

function drawGantt(result) {
  const canvas = $("gantt"), ctx = canvas.getContext("2d");
  const sms = result.summary.sm_count, end = result.summary.makespan_ns * 1000;
  const slots = Math.max(1, ...result.blocks.map((b) => b[2] + 1));
  const left = 50, right = 10, top = 6, bottom = 24, width = canvas.width - left - right;
  const rowHeight = Math.max(2, Math.min(24, Math.floor((520 - bottom) / sms)));
  canvas.height = top + rowHeight * sms + bottom + 4;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.font = "11px sans-serif";
  ctx.textAlign = "right";
  ctx.fillStyle = "#444";
  const labelEvery = Math.ceil(14 / rowHeight);
  for (let sm = 0; sm < sms; sm += labelEvery) ctx.fillText(`SM ${sm}`, left - 4, top + sm * rowHeight + Math.min(rowHeight, 11));
  for (const [launch, sm, slot, start, stop] of result.blocks) {
    ctx.fillStyle = KERNEL_COLOURS[launch % KERNEL_COLOURS.length];
    const x = left + (start / end) * width, w = Math.max(1, ((stop - start) / end) * width);
    const h = rowHeight / slots;
    ctx.fillRect(x, top + sm * rowHeight + slot * h, Math.max(1, w - 0.5), Math.max(1, h - (h > 3 ? 0.5 : 0)));
  }
  timeAxis(ctx, left, width, top + rowHeight * sms + 2, end);
  $("gantt-note").textContent = result.blocks.length < result.blocks_total
    ? `showing the first ${result.blocks.length} of ${result.blocks_total} blocks to finish` : "";
}

/// Resident warps over time, from the blocks' starts and ends, as a step line.
function drawOccupancy(result) {
  const canvas = $("occupancy"), ctx = canvas.getContext("2d");
  const end = result.summary.makespan_ns * 1000;
  const capacity = result.summary.sm_count * result.max_warps_per_sm;
  const changes = [];
  for (const [launch, , , start, stop] of result.blocks) {
    const warps = result.occupancy[launch].warps_per_block;
    changes.push([start, warps], [stop, -warps]);
  }
  changes.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const left = 50, right = 10, top = 8, bottom = 24, width = canvas.width - left - right, height = canvas.height - top - bottom;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.strokeStyle = "#ccc";
  ctx.fillStyle = "#444";
  ctx.font = "11px sans-serif";
  ctx.textAlign = "right";
  for (const f of [0, 0.5, 1]) {
    const y = top + height * (1 - f);
    ctx.beginPath(); ctx.moveTo(left, y); ctx.lineTo(left + width, y); ctx.stroke();
    ctx.fillText(`${f * 100} %`, left - 4, y + 4);
  }
  ctx.strokeStyle = "#2a7";
  ctx.lineWidth = 2;
  ctx.beginPath();
  let warps = 0, y = top + height;
  ctx.moveTo(left, y);
  for (const [t, delta] of changes) {
    const x = left + (t / end) * width;
    ctx.lineTo(x, y);
    warps += delta;
    y = top + height * (1 - warps / capacity);
    ctx.lineTo(x, y);
  }
  ctx.lineTo(left + width, y);
  ctx.stroke();
  ctx.lineWidth = 1;
  timeAxis(ctx, left, width, top + height + 2, end);
}

function update() {
  lab.pending = false;
  for (const out of document.querySelectorAll("output")) out.textContent = $(out.htmlFor.value).value;
  const config = readControls();
  for (const id of ["blocks2", "threads2", "regs2", "duration2", "priority2"]) $(id).disabled = !$("second").checked;
  $("command").textContent = commandLine(config) + "    # lab.yaml below";
  $("workload").textContent = workloadYaml(config);
  const result = runEngine(config);
  lab.runs += 1;
  $("error").hidden = result.ok;
  $("results").classList.toggle("failed", !result.ok);
  if (!result.ok) {
    $("error").textContent = result.error;
  } else {
    showNumbers(result.summary);
    showLimits(result);
    drawGantt(result);
    drawOccupancy(result);
    showAccount(result);
  }
  $("status").textContent = result.ok ? `run ${lab.runs} done` : `run ${lab.runs}: bad input`;
  $("status").dataset.state = "done";
  $("status").dataset.runs = String(lab.runs);
}

/// Reruns once per frame however fast a slider moves.
function schedule() {
  $("status").dataset.state = "running";
  if (lab.pending) return;
  lab.pending = true;
  requestAnimationFrame(update);
}

/// A new preset resets the SM and blocks-per-SM sliders to its own numbers.
function choosePreset() {
  const p = preset($("gpu").value);
  for (const [id, value] of [["sms", p.sm_count], ["max-blocks-per-sm", p.max_blocks_per_sm]]) {
    $(id).max = String(value);
    $(id).value = String(value);
  }
  for (const id of ["threads", "threads2"]) $(id).max = String(p.max_threads_per_block);
  for (const id of ["regs", "regs2"]) $(id).max = String(p.max_registers_per_thread);
  $("smem").max = String(Math.floor(p.shared_memory_per_block_optin / 1024));
}

async function start() {
  lab.engine = await createLabEngine();
  lab.catalogue = JSON.parse(lab.engine.ccall("lab_catalogue", "string", [], []));
  for (const p of lab.catalogue.presets) $("gpu").add(new Option(`${p.name} (${p.full_name})`, p.name, false, p.name === "h100"));
  for (const p of lab.catalogue.policies) {
    const option = new Option(p.name, p.name);
    option.title = p.description;
    $("policy").add(option);
  }
  choosePreset();
  $("gpu").addEventListener("change", () => { choosePreset(); schedule(); });
  $("controls").addEventListener("input", schedule);
  $("controls").addEventListener("change", schedule);
  update();
}

start().catch((e) => {
  $("status").textContent = `the engine did not start: ${e}`;
  $("status").dataset.state = "failed";
});
