// OTLP export overhead: hook-overhead's 500-call session with all five extensions and policy-report loaded, the
// OpenTelemetry export on (to a loopback OTLP/HTTP receiver on 127.0.0.1) against off, in interleaved rounds.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { InlineExtension } from "@earendil-works/pi-coding-agent";
import contextShunt from "../../../../packages/context-shunt/src/index.ts";
import delegationPolicy from "../../../../packages/delegation-policy/src/index.ts";
import explorationGuard from "../../../../packages/exploration-guard/src/index.ts";
import guardianReview from "../../../../packages/guardian-review/src/index.ts";
import outputMinimizer from "../../../../packages/output-minimizer/src/index.ts";
import policyReport from "../../../../packages/policy-report/src/index.ts";
import type { BenchResult, BenchWorkload } from "../types.ts";
import { timeSession } from "./hook-overhead.ts";

const TELEMETRY_ENV = ["PI_POLICY_ENABLE_TELEMETRY", "OTEL_EXPORTER_OTLP_ENDPOINT"] as const;

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Build the workload; tests use a small call count, `pnpm bench` the full one. */
export function policyReportOtlpWorkload(calls = 500, rounds = 3): BenchWorkload {
	return {
		id: "policy-report-otlp",
		title: `OTLP export overhead: ${calls} tool calls with all five extensions and policy-report, export on vs off`,
		async run(): Promise<BenchResult> {
			let records = 0;
			const server = createServer((req, res) => {
				let size = 0;
				req.on("data", (chunk: Buffer) => {
					size += chunk.length;
				});
				req.on("end", () => {
					if (req.url === "/v1/logs" && size > 0) records++;
					res.writeHead(200, { "content-type": "application/json" });
					res.end("{}");
				});
			});
			await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
			const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
			const saved = Object.fromEntries(TELEMETRY_ENV.map((key) => [key, process.env[key]]));
			const setExport = (on: boolean) => {
				if (on) {
					process.env.PI_POLICY_ENABLE_TELEMETRY = "1";
					process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint;
				} else {
					delete process.env.PI_POLICY_ENABLE_TELEMETRY;
					delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
				}
			};
			const all: InlineExtension[] = [
				delegationPolicy,
				explorationGuard,
				outputMinimizer,
				contextShunt,
				guardianReview,
				policyReport,
			];
			const off: number[] = [];
			const on: number[] = [];
			let allRan = true;
			try {
				setExport(false);
				await timeSession(all, Math.min(calls, 50));
				setExport(true);
				await timeSession(all, Math.min(calls, 50));
				for (let round = 0; round < rounds; round++) {
					const offFirst = round % 2 === 0;
					for (const exportOn of offFirst ? [false, true] : [true, false]) {
						setExport(exportOn);
						const result = await timeSession(all, calls);
						(exportOn ? on : off).push(result.ms);
						allRan &&= result.results === calls;
					}
				}
			} finally {
				for (const key of TELEMETRY_ENV) {
					if (saved[key] === undefined) delete process.env[key];
					else process.env[key] = saved[key];
				}
				await new Promise<void>((resolve) => server.close(() => resolve()));
			}
			const ratio = median(on) / median(off);
			return {
				id: "policy-report-otlp",
				title: this.title,
				figures: [
					{ name: "tool calls per session", value: calls, unit: "count" },
					{ name: "rounds (interleaved)", value: rounds, unit: "count" },
					{ name: "session time ratio, export on / off (median)", value: ratio, unit: "ratio" },
					{ name: "log export requests received", value: records, unit: "count" },
				],
				checks: [
					{ name: "every call ran with export on and off", passed: allRan },
					{ name: "the receiver got log records", passed: records > 0 },
				],
			};
		},
	};
}

export default policyReportOtlpWorkload(500, 3);
