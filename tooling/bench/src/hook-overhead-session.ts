// One timed hook-overhead session in a process of its own: `node --import tsx hook-overhead-session.ts <side>
// <calls>`. It warms up (module loading and JIT), collects garbage, times one scripted session and prints
// `{"ms":…,"results":…}`. A fresh process per session keeps one session's heap, listeners and caches from slowing
// the next, which in one long-lived process made later sessions drift slower by up to 15%.
import { pathToFileURL } from "node:url";
import { SUITE_EXTENSION_FACTORIES, timeSession } from "./workloads/hook-overhead.ts";

/** The extensions of a side: `none`, `all five`, or one package folder name. */
export function sideExtensions(side: string) {
	if (side === "none" || side === "none again") return [];
	if (side === "all five") return SUITE_EXTENSION_FACTORIES.map(([, extension]) => extension);
	const found = SUITE_EXTENSION_FACTORIES.find(([name]) => name === side);
	if (found === undefined) throw new Error(`hook-overhead-session: unknown side ${JSON.stringify(side)}`);
	return [found[1]];
}

const [side, callsText] = process.argv.slice(2);
const isEntryPoint = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isEntryPoint && side !== undefined && callsText !== undefined) {
	const calls = Number(callsText);
	const extensions = sideExtensions(side);
	await timeSession(extensions, Math.min(calls, 50));
	(globalThis as { gc?: () => void }).gc?.();
	const cpuBefore = process.cpuUsage();
	const run = await timeSession(extensions, calls);
	const cpu = process.cpuUsage(cpuBefore);
	process.stdout.write(`${JSON.stringify({ ...run, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
}
