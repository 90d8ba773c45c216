import { runFloorWorkload } from "./src/workloads/guardian-review-floor.ts";
const r = await runFloorWorkload({ agreementSampleEvery: 100 });
for (const f of r.figures) console.log(f.unit === "percent" ? (f.value * 100).toFixed(1) + "%" : f.value.toFixed ? +f.value.toFixed(3) : f.value, f.name);
for (const c of r.checks) console.log(c.passed ? "PASS" : "FAIL", c.name);
