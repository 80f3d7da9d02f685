// Browser test of the lab: `gpusched lab --out` writes the page, chromium loads it from file://, the test moves the
// sliders and checks that every number the page shows equals `gpusched simulate --json` for the same configuration.
//   node lab_browser_test.mjs --gpusched BIN --chromium BIN --work DIR
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith("--") ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
for (const key of ["gpusched", "chromium", "work"]) if (!args[key]) throw new Error(`--${key} is required`);

let passed = 0, failed = 0;
function check(condition, what) {
  if (condition) passed += 1;
  else { failed += 1; console.error(`FAIL: ${what}`); }
}

// The test's own workload file for a configuration: what the page must have run (docs/workloads.md).
function workloadYaml(c) {
  const lines = ["description: gpusched lab"];
  if (c.second && c.priority2 === "high") lines.push("streams:", "  - id: 1", "    priority: high");
  lines.push("launches:",
             "  - kernel: synthetic", "    name: A", "    stream: 0", `    blocks: ${c.blocks}`, `    threads: ${c.threads}`,
             `    regs: ${c.regs}`, `    smem: ${c.smem * 1024}`, `    duration: ${c.duration}us`);
  if (c.second)
    lines.push("  - kernel: synthetic", "    name: B", "    stream: 1", `    blocks: ${c.blocks2}`, `    threads: ${c.threads2}`,
               `    regs: ${c.regs2}`, "    smem: 0", `    duration: ${c.duration2}us`);
  return lines.join("\n") + "\n";
}

function simulate(c, file) {
  writeFileSync(file, workloadYaml(c));
  const argv = ["simulate", "--gpu", c.gpu, "--policy", c.policy, "--workload", file, "--json", "--explain"];
  if (c.sms !== undefined) argv.push("--sms", String(c.sms));
  if (c.maxBlocksPerSm !== undefined) argv.push("--set", `max_blocks_per_sm=${c.maxBlocksPerSm}`);
  return JSON.parse(execFileSync(args.gpusched, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
}

// The configurations, each reached from the previous one by moving controls.
const base = { gpu: "h100", policy: "most-room", blocks: 265, threads: 1024, regs: 32, smem: 0, duration: 50,
               second: false, blocks2: 132, threads2: 256, regs2: 32, duration2: 10, priority2: "normal" };
const configurations = [base];  // as the page opens: 265 blocks of 1024 threads, 2 per SM, 2 waves on 132 SMs
for (const change of [
  { blocks: 400, threads: 256, regs: 64, smem: 40, sms: 16, maxBlocksPerSm: 4, policy: "round-robin" },
  { second: true, blocks2: 300, threads2: 128, duration2: 5, priority2: "high" },  // kernel B on a high-priority stream
  { priority2: "normal", policy: "buckets" },
  // Another preset resets the SM and blocks-per-SM sliders to its own: the interval paper's 121 blocks of 8x8 on the C2075.
  { gpu: "c2075", sms: undefined, maxBlocksPerSm: undefined, second: false, blocks: 121, threads: 64, regs: 20, smem: 0,
    duration: 20, policy: "most-room" },
])
  configurations.push({ ...configurations.at(-1), ...change });

const work = args.work;
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
execFileSync(args.gpusched, ["lab", "--out", join(work, "page")], { stdio: "inherit" });

const browser = await chromium.launch({ executablePath: args.chromium });
try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => { failed += 1; console.error(`FAIL: page error: ${e}`); });
  await page.goto(pathToFileURL(join(work, "page", "index.html")).href);
  await page.waitForFunction(() => document.getElementById("status").dataset.state === "done", null, { timeout: 60000 });

  let previous = base;
  for (const [i, c] of configurations.entries()) {
    // Move what differs from the previous configuration: selects, the checkbox, sliders by value,
    // and the SM slider with the keyboard (Home, then ArrowRight) as a student would.
    if (c.gpu !== previous.gpu) await page.selectOption("#gpu", c.gpu);
    if (c.policy !== previous.policy) await page.selectOption("#policy", c.policy);
    if (c.second !== previous.second) await page.setChecked("#second", c.second);
    if (c.priority2 !== previous.priority2) await page.selectOption("#priority2", c.priority2);
    for (const [key, id] of [["blocks", "blocks"], ["threads", "threads"], ["regs", "regs"], ["smem", "smem"], ["duration", "duration"],
                             ["blocks2", "blocks2"], ["threads2", "threads2"], ["regs2", "regs2"], ["duration2", "duration2"],
                             ["maxBlocksPerSm", "max-blocks-per-sm"]])
      if (c[key] !== undefined && c[key] !== previous[key]) await page.locator(`#${id}`).fill(String(c[key]));
    if (c.sms !== undefined && c.sms !== previous.sms) {
      await page.locator("#sms").focus();
      await page.keyboard.press("Home");
      for (let n = 1; n < c.sms; ++n) await page.keyboard.press("ArrowRight");
    }
    await page.waitForFunction(() => document.getElementById("status").dataset.state === "done");
    previous = c;

    const shown = await page.evaluate(() => {
      const rows = (table) => [...document.querySelectorAll(`#${table} tbody tr`)].map((row) =>
        Object.fromEntries([...row.querySelectorAll("td[data-key]")].map((td) => [td.dataset.key, td.textContent])));
      return { error: document.getElementById("error").hidden ? null : document.getElementById("error").textContent,
               makespan: document.getElementById("makespan").textContent,
               totalBlocks: document.getElementById("total-blocks").textContent,
               kernels: rows("kernels"), limits: rows("limits"), yaml: document.getElementById("workload").textContent,
               account: Object.fromEntries([...document.querySelectorAll("#account tbody tr")].map((row) =>
                 [row.dataset.key, row.querySelector("td[data-ps]").dataset.ps])),
               explanation: document.getElementById("explanation").textContent };
    });
    const expected = simulate(c, join(work, `configuration-${i}.yaml`));
    const label = `configuration ${i} (${JSON.stringify(c)})`;
    check(shown.error === null, `${label}: the page shows an error: ${shown.error}`);
    check(shown.yaml === workloadYaml(c), `${label}: the page ran another workload:\n${shown.yaml}`);
    check(Number(shown.makespan) === expected.makespan_ns, `${label}: makespan ${shown.makespan} != ${expected.makespan_ns}`);
    check(Number(shown.totalBlocks) === expected.total_blocks, `${label}: blocks ${shown.totalBlocks} != ${expected.total_blocks}`);
    check(shown.kernels.length === expected.kernels.length, `${label}: ${shown.kernels.length} kernel rows, expected ${expected.kernels.length}`);
    for (const [k, kernel] of expected.kernels.entries()) {
      for (const key of ["stream", "blocks", "threads_per_block", "blocks_per_sm", "waves", "ready_ns", "start_ns", "end_ns"])
        check(shown.kernels[k] && Number(shown.kernels[k][key]) === kernel[key],
              `${label}: kernel ${k} ${key} shown ${shown.kernels[k]?.[key]}, simulate says ${kernel[key]}`);
      check(shown.limits[k] && Number(shown.limits[k].blocks_per_sm) === kernel.blocks_per_sm,
            `${label}: kernel ${k} limits table blocks/SM ${shown.limits[k]?.blocks_per_sm} != ${kernel.blocks_per_sm}`);
    }
    // The explain account: every category's SM-time equals `simulate --explain --json`'s time_account.
    for (const [key, ps] of Object.entries(shown.account))
      check(Number(ps) === expected.time_account[`${key}_ps`],
            `${label}: account ${key} ${ps} ps, simulate --explain says ${expected.time_account[`${key}_ps`]}`);
    check(Object.keys(shown.account).length === 8, `${label}: ${Object.keys(shown.account).length} account rows, expected 8`);
    check(/where the time went/.test(shown.explanation), `${label}: no explanation shown`);
    console.log(`configuration ${i}: makespan ${shown.makespan} ns, ${shown.kernels.length} kernel(s), checked against gpusched simulate --json`);
  }
  // Bad input shows the engine's message instead of numbers: 300 registers per thread is over the preset's limit (255).
  await page.locator("#regs").evaluate((e) => { e.max = "300"; });
  await page.locator("#regs").fill("300");
  await page.waitForFunction(() => document.getElementById("status").dataset.state === "done");
  const error = await page.evaluate(() => (document.getElementById("error").hidden ? "" : document.getElementById("error").textContent));
  check(/regs/.test(error), `registers over the GPU's limit: expected an error naming regs, got '${error}'`);
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
