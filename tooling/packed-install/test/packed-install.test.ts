// Packs every publishable package with pnpm, lints the tarballs with publint, validates each README's JSON examples
// against the packed schema.json, installs the tarballs with the real `pi install` (npm cut off from the registry),
// and runs the real `pi` CLI against the loopback provider with only those installed packages: each extension
// loads from <agentDir>/npm/node_modules and acts on a scripted model turn. policy-report, whose OpenTelemetry
// dependencies come from npm, is installed on its own beside guardian-review: /policy and its bin run from there.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, sep } from "node:path";
import { promisify } from "node:util";
import {
	chatMessageText,
	type LoopbackProviderOptions,
	type LoopbackRequest,
	type PiCliResult,
	type PiJsonEvent,
	requestMessages,
	requestSystemPrompt,
	resolveInstalledPackageDir,
	runPiCli,
	startLoopbackProvider,
	toolResultTexts,
} from "@pi-policy/loopback-provider";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import Schema from "typebox/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	ALL_PACKAGES,
	assertBuilt,
	bareImports,
	EXTENSIONS,
	HOST_PACKAGES,
	installedPackageNames,
	KERNEL,
	kernelEntryNames,
	LOAD_PROBLEM_PATTERN,
	npmDependencyClosure,
	offlineNpmEnv,
	type PackedPackage,
	type PublishablePackage,
	packageDir,
	packageNameOf,
	packInstalledFolder,
	packPackage,
	REPO_ROOT,
	REPORT,
	readmeJsonExamples,
} from "./support.ts";

const TIMEOUT = 120_000;
/** Models declared in models.json for every run: delegation-policy's roles use them. */
const LOOP_MODELS = [{ id: "loop-1" }, { id: "loop-2" }, { id: "loop-3" }];
const HOST_DEP_WARNING = "Host-provided extension packages must be declared in peerDependencies";

let root: string;
const packed = new Map<string, PackedPackage>();
const findings: string[] = [];

function packedOf(pkg: PublishablePackage): PackedPackage {
	const result = packed.get(pkg.folder);
	if (!result) throw new Error(`${pkg.name} was not packed`);
	return result;
}

/** The environment for a child process: the current one with these values set, and `undefined` ones removed. */
function definedEnv(overrides: Record<string, string | undefined>): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env };
	for (const [key, value] of Object.entries(overrides)) {
		if (value === undefined) delete env[key];
		else env[key] = value;
	}
	return env;
}

/** The `pi install` source of a packed extension: npm, with the tarball as the version spec. */
function installSpec(pkg: PublishablePackage): string {
	return `npm:${pkg.name}@file:${packedOf(pkg).tarball}`;
}

beforeAll(async () => {
	for (const pkg of ALL_PACKAGES) assertBuilt(pkg);
	root = await mkdtemp(join(tmpdir(), "pi-policy-packed-"));
	const tarballs = join(root, "tarballs");
	await mkdir(tarballs, { recursive: true });
	const started = Date.now();
	const results = await Promise.all(ALL_PACKAGES.map((pkg) => packPackage(pkg, tarballs)));
	for (const result of results) packed.set(result.pkg.folder, result);
	findings.push(`pnpm pack of ${results.length} packages (parallel): ${Date.now() - started} ms`);
}, TIMEOUT);

afterAll(async () => {
	if (findings.length > 0) console.info(`packed-install findings:\n${findings.join("\n")}`);
	if (root) await rm(root, { recursive: true, force: true });
});

describe("pnpm pack", () => {
	it.each(EXTENSIONS)("$name: the tarball holds exactly dist, README, CHANGELOG, schema.json", (pkg) => {
		const { files } = packedOf(pkg);
		const required = [
			"CHANGELOG.md",
			"README.md",
			"dist/index.d.ts",
			"dist/index.js",
			"package.json",
			"schema.json",
			...(pkg.extraFiles ?? []),
		].sort();
		const optional = ["dist/index.js.map"];
		expect(files.filter((file) => !optional.includes(file))).toEqual(required);
	});

	it("@pi-policy/policy-kernel: the tarball holds every subpath entry's .js and .d.ts, and nothing from src", () => {
		const { files } = packedOf(KERNEL);
		const entries = kernelEntryNames();
		expect(entries).toContain("index");
		const required = [
			"CHANGELOG.md",
			"README.md",
			"package.json",
			...entries.flatMap((entry) => [`dist/${entry}.d.ts`, `dist/${entry}.js`]),
		].sort();
		// Shared chunks: tsup names code chunks `chunk-<hash>.js` and shared declaration chunks `<module>-<hash>.d.ts`.
		const optional =
			/^dist\/(chunk-[A-Za-z0-9_-]+\.js|chunk-[A-Za-z0-9_-]+\.js\.map|[a-z-]+\.js\.map|[a-z-]+-[A-Za-z0-9_]{8}\.d\.ts)$/;
		expect(files.filter((file) => !optional.test(file))).toEqual(required);
	});

	it.each(ALL_PACKAGES)("$name: no source, test or build config is packed", (pkg) => {
		const leaked = packedOf(pkg).files.filter((file) =>
			/(^|\/)(src|test|tests|__tests__|node_modules)\/|\.test\.|\.ts$(?<!\.d\.ts)|tsconfig|tsup\.config|vitest/.test(
				file,
			),
		);
		expect(leaked).toEqual([]);
	});

	it.each(ALL_PACKAGES)(
		"$name: the packed package.json has no workspace: range and real dependency versions",
		(pkg) => {
			const { manifest } = packedOf(pkg);
			expect(JSON.stringify(manifest)).not.toContain("workspace:");
			const kernelVersion = packedOf(KERNEL).manifest.version;
			if (pkg === KERNEL) {
				expect(manifest.dependencies ?? {}).toEqual({});
			} else {
				expect(manifest.dependencies).toEqual({ [KERNEL.name]: `^${kernelVersion}` });
				expect(manifest.pi).toMatchObject({ extensions: ["./dist/index.js"] });
				expect(manifest.keywords).toEqual(expect.arrayContaining(["pi-package", "pi-extension"]));
			}
			for (const host of HOST_PACKAGES) expect(manifest.dependencies?.[host]).toBeUndefined();
			for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
				expect(HOST_PACKAGES, `${pkg.name} peer ${name}`).toContain(name);
				expect(range, `${pkg.name} peer ${name}`).toBe("*");
			}
		},
	);

	it.each(ALL_PACKAGES)(
		"$name: every bare import of the packed dist is a declared dependency or a host peer",
		async (pkg) => {
			const { dir, files, manifest } = packedOf(pkg);
			const declared = new Set([
				...Object.keys(manifest.dependencies ?? {}),
				...Object.keys(manifest.peerDependencies ?? {}),
			]);
			const imports = new Set<string>();
			for (const file of files.filter((name) => name.endsWith(".js"))) {
				for (const specifier of bareImports(await readFile(join(dir, file), "utf8")))
					imports.add(packageNameOf(specifier));
			}
			expect([...imports].filter((name) => !declared.has(name))).toEqual([]);
			for (const name of imports) {
				if (HOST_PACKAGES.includes(name)) expect(manifest.peerDependencies?.[name], `${pkg.name} → ${name}`).toBe("*");
			}
		},
	);
});

/** publint's errors on an unpacked tarball; its warnings and suggestions go to the findings. */
async function publintErrors(packedPackage: PackedPackage): Promise<string[]> {
	const { messages, pkg: linted } = await publint({ pkgDir: packedPackage.dir, pack: false, level: "suggestion" });
	const describeMessage = (message: (typeof messages)[number]) =>
		`${message.type} ${message.code}: ${formatMessage(message, linted, { color: false }) ?? ""}`;
	for (const message of messages.filter((entry) => entry.type !== "error")) {
		findings.push(`publint ${packedPackage.pkg.name}: ${describeMessage(message)}`);
	}
	return messages.filter((entry) => entry.type === "error").map(describeMessage);
}

describe("publint on the unpacked tarballs", () => {
	it.each(ALL_PACKAGES)("$name: no publint errors", async (pkg) => {
		expect(await publintErrors(packedOf(pkg))).toEqual([]);
	});
});

type JsonSchema = Parameters<typeof Schema.Errors>[0];

/** Checks every ```json example of a packed README against the packed schema.json, and that the check can fail. */
function expectReadmeExamplesValid(packedPackage: PackedPackage): void {
	const { dir, pkg } = packedPackage;
	const schema = JSON.parse(readFileSync(join(dir, "schema.json"), "utf8")) as JsonSchema & Record<string, unknown>;
	expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
	expect(schema.title).toBe(`${pkg.name} configuration`);
	const examples = readmeJsonExamples(readFileSync(join(dir, "README.md"), "utf8"));
	expect(examples.length).toBeGreaterThan(0);
	for (const [index, example] of examples.entries()) {
		const [, errors] = Schema.Errors(schema, example);
		expect(
			errors.map((error) => `${error.instancePath || "/"} ${error.message}`),
			`${pkg.name} README example #${index + 1}: ${JSON.stringify(example)}`,
		).toEqual([]);
	}
	// The check is not vacuous: the same schema rejects an unknown key on each example.
	for (const example of examples) {
		if (example && typeof example === "object" && !Array.isArray(example)) {
			expect(Schema.Check(schema, { ...example, notAConfigKey: true })).toBe(false);
		}
	}
}

describe("schema.json validates every README example (TypeBox's JSON Schema engine, not the kernel parser)", () => {
	it.each(EXTENSIONS)("$name: every ```json example in the packed README is valid", (pkg) => {
		expectReadmeExamplesValid(packedOf(pkg));
	});
});

describe("pi install of the tarballs, and the real pi CLI with only the installed packages", () => {
	let agentDir: string;
	let home: string;
	let npmRoot: string;
	const installs: PiCliResult[] = [];
	let commands: Array<{ name: string; source: string; sourceInfo?: Record<string, unknown> }> = [];
	let rpcRun: PiCliResult | undefined;

	/** Writes exactly these `<agentDir>/policy/<folder>.json` files (everything else in policy/ is removed). */
	async function writePolicies(configs: Record<string, unknown>): Promise<void> {
		const policyDir = join(agentDir, "policy");
		await rm(policyDir, { recursive: true, force: true });
		await mkdir(policyDir, { recursive: true });
		for (const [folder, config] of Object.entries(configs)) {
			await writeFile(join(policyDir, `${folder}.json`), `${JSON.stringify(config, null, "\t")}\n`);
		}
	}

	interface ScenarioRun {
		result: PiCliResult;
		requests: LoopbackRequest[];
		cwd: string;
	}

	/** One `pi --mode json -p` run in a fresh cwd against a fresh loopback server, with only `configs` enabled. */
	async function runScenario(options: {
		name: string;
		configs: Record<string, unknown>;
		provider: LoopbackProviderOptions;
		args: string[];
		files?: Record<string, string>;
	}): Promise<ScenarioRun> {
		await writePolicies(options.configs);
		const cwd = join(root, "work", options.name);
		for (const [relative, content] of Object.entries(options.files ?? {})) {
			await mkdir(dirname(join(cwd, relative)), { recursive: true });
			await writeFile(join(cwd, relative), content);
		}
		await mkdir(cwd, { recursive: true });
		const server = await startLoopbackProvider({ chunkSize: 4096, ...options.provider });
		try {
			await server.writeModelsJson(agentDir, { models: LOOP_MODELS });
			const result = await runPiCli({
				cwd,
				agentDir,
				args: ["--mode", "json", "--model", "loop/loop-1", ...options.args],
				env: { HOME: home, PI_SUBAGENTS_TEMP_ROOT: join(root, "subagents-tmp") },
				timeoutMs: 90_000,
			});
			return { result, requests: [...server.chatRequests], cwd };
		} finally {
			await server.close();
		}
	}

	/** Exit 0 in time, and no load failure or host-dependency warning except for the listed third-party manifests. */
	function expectCleanRun(result: PiCliResult, allowedWarningPaths: string[] = []): void {
		expect(result.timedOut, result.stderr).toBe(false);
		expect(result.code, result.stderr).toBe(0);
		const problems = result.stderr
			.split("\n")
			.filter((line) => LOAD_PROBLEM_PATTERN.test(line))
			.filter((line) => !allowedWarningPaths.some((path) => line.includes(`"${path}"`)));
		expect(problems).toEqual([]);
	}

	function toolEnd(result: PiCliResult, toolName: string): PiJsonEvent | undefined {
		return result.jsonEvents.find((event) => event.type === "tool_execution_end" && event.toolName === toolName);
	}

	beforeAll(async () => {
		agentDir = join(root, "agent");
		home = join(root, "home");
		npmRoot = join(agentDir, "npm");
		await mkdir(npmRoot, { recursive: true });
		await mkdir(home, { recursive: true });
		// The kernel is not on the registry yet. Pi's npm root is an ordinary npm project (Pi writes this same
		// package.json when it is missing and keeps an existing one), so it declares the kernel tarball; npm then
		// installs it beside the first extension and every extension's `^0.0.0` kernel range resolves to it.
		await writeFile(
			join(npmRoot, "package.json"),
			`${JSON.stringify(
				{ name: "pi-extensions", private: true, dependencies: { [KERNEL.name]: `file:${packedOf(KERNEL).tarball}` } },
				null,
				2,
			)}\n`,
		);
		const installCwd = join(root, "install-cwd");
		await mkdir(installCwd, { recursive: true });
		const env = offlineNpmEnv(home, join(root, "npm-cache"));
		// One npm root: the installs must run one after another.
		const started = Date.now();
		for (const pkg of EXTENSIONS) {
			installs.push(
				await runPiCli({ cwd: installCwd, agentDir, args: ["install", installSpec(pkg)], env, timeoutMs: 90_000 }),
			);
		}
		findings.push(`pi install of ${EXTENSIONS.length} tarballs (sequential): ${Date.now() - started} ms`);
	}, TIMEOUT);

	it("`pi install npm:<name>@file:<tarball>` installs each extension with npm cut off from the registry", async () => {
		for (const [index, pkg] of EXTENSIONS.entries()) {
			const run = installs[index]!;
			expect(run.code, `${pkg.name}\n${run.stdout}\n${run.stderr}`).toBe(0);
			expect(run.stdout).toContain(`Installed ${installSpec(pkg)}`);
		}
		const settings = JSON.parse(await readFile(join(agentDir, "settings.json"), "utf8")) as { packages?: unknown };
		expect(settings.packages).toEqual(EXTENSIONS.map(installSpec));
		// Every package came from a local tarball: the lockfile names no registry.
		const lock = await readFile(join(npmRoot, "package-lock.json"), "utf8");
		expect(lock).not.toMatch(/https?:\/\//);
	});

	it("control: without the kernel tarball in the npm root, npm reaches for the registry and the offline install fails", async () => {
		// Shows why the npm root declares the kernel tarball, and that npm really was cut off from the registry.
		const controlAgent = join(root, "offline-control-agent");
		await mkdir(controlAgent, { recursive: true });
		const run = await runPiCli({
			cwd: join(root, "install-cwd"),
			agentDir: controlAgent,
			args: ["install", installSpec(EXTENSIONS[0]!)],
			env: offlineNpmEnv(home, join(root, "npm-cache-control")),
			timeoutMs: 90_000,
		});
		expect(run.code).not.toBe(0);
		expect(`${run.stdout}\n${run.stderr}`).toContain("ENOTCACHED");
		expect(`${run.stdout}\n${run.stderr}`).toContain("@pi-policy%2fpolicy-kernel");
		expect(existsSync(join(controlAgent, "npm", "node_modules", EXTENSIONS[0]!.name))).toBe(false);
	});

	it("the npm root holds exactly the six packed packages, byte-identical, and no host package (peers are not installed)", async () => {
		const names = installedPackageNames(join(npmRoot, "node_modules"));
		expect(names).toEqual(ALL_PACKAGES.map((pkg) => pkg.name).sort());
		for (const host of HOST_PACKAGES) expect(names).not.toContain(host);
		for (const pkg of ALL_PACKAGES) {
			const { dir, files } = packedOf(pkg);
			const installed = join(npmRoot, "node_modules", pkg.name);
			for (const file of files) {
				expect(readFileSync(join(installed, file)).equals(readFileSync(join(dir, file))), `${pkg.name}/${file}`).toBe(
					true,
				);
			}
		}
	});

	it("loads all five extensions together, each from <agentDir>/npm/node_modules/<name>/dist/index.js", async () => {
		await writePolicies({
			"exploration-guard": { mode: "warn" },
			"output-minimizer": { mode: "reference" },
			"context-shunt": { mode: "enforce" },
			"delegation-policy": {
				version: 1,
				intensity: "normal",
				roles: { small: { provider: "loop", model: "loop-1" }, medium: null, large: null },
			},
			"guardian-review": { mode: "enforce" },
		});
		const server = await startLoopbackProvider();
		try {
			await server.writeModelsJson(agentDir, { models: LOOP_MODELS });
			const cwd = join(root, "work", "rpc");
			await mkdir(cwd, { recursive: true });
			// RPC mode answers get_commands with each command's sourceInfo (the file that registered it), then exits
			// when stdin closes.
			rpcRun = await runPiCli({
				cwd,
				agentDir,
				args: ["--mode", "rpc", "--model", "loop/loop-1", "--no-session"],
				input: `${JSON.stringify({ id: "commands", type: "get_commands" })}\n`,
				env: { HOME: home },
				timeoutMs: 60_000,
			});
		} finally {
			await server.close();
		}
		expect(rpcRun.timedOut, rpcRun.stderr).toBe(false);
		expect(rpcRun.code, rpcRun.stderr).toBe(0);
		expect(rpcRun.stderr).not.toMatch(LOAD_PROBLEM_PATTERN);
		const response = rpcRun.jsonEvents.find((event) => event.type === "response" && event.command === "get_commands") as
			| { success?: boolean; data?: { commands?: typeof commands } }
			| undefined;
		expect(response?.success, rpcRun.stdout).toBe(true);
		commands = response?.data?.commands ?? [];
		const realNpmModules = realpathSync(join(npmRoot, "node_modules"));
		for (const pkg of EXTENSIONS) {
			const command = commands.find((entry) => entry.name === pkg.command);
			expect(command, `${pkg.name} registered /${pkg.command}`).toBeDefined();
			const info = command?.sourceInfo ?? {};
			const path = String(info.path);
			expect(realpathSync(path)).toBe(join(realNpmModules, pkg.name, "dist", "index.js"));
			expect(path.startsWith(REPO_ROOT)).toBe(false);
			expect(info).toMatchObject({ source: installSpec(pkg), scope: "user", origin: "package" });
		}
	});

	it("the host-dependency check is live: a package with a host package in dependencies does get Pi's warning", async () => {
		// Control for the assertions above: the same run shape on a throwaway local package that declares typebox
		// in `dependencies` makes Pi print the warning the installed packages must not trigger.
		const controlAgent = join(root, "control-agent");
		const controlPackage = join(root, "control-package");
		await mkdir(controlAgent, { recursive: true });
		await mkdir(controlPackage, { recursive: true });
		await writeFile(
			join(controlPackage, "package.json"),
			JSON.stringify({
				name: "host-dependency-control",
				version: "0.0.0",
				type: "module",
				pi: { extensions: ["./index.js"] },
				dependencies: { typebox: "*" },
			}),
		);
		await writeFile(join(controlPackage, "index.js"), "export default function () {}\n");
		await writeFile(join(controlAgent, "settings.json"), JSON.stringify({ packages: [controlPackage] }));
		const run = await runPiCli({
			cwd: controlPackage,
			agentDir: controlAgent,
			args: ["--mode", "rpc", "--no-session"],
			input: `${JSON.stringify({ type: "get_commands" })}\n`,
			env: { HOME: home },
			timeoutMs: 60_000,
		});
		expect(run.stderr).toContain(HOST_DEP_WARNING);
		expect(run.stderr).toMatch(LOAD_PROBLEM_PATTERN);
	});

	it("exploration-guard (warn): two broad greps, then the steer nudge is in the next request", async () => {
		const { result, requests } = await runScenario({
			name: "exploration-guard",
			configs: { "exploration-guard": { mode: "warn" } },
			files: { "src/a.txt": "alpha\nbeta\n", "src/b.txt": "gamma\n" },
			provider: {
				steps: [
					{ toolCalls: [{ name: "grep", arguments: { pattern: "alpha" } }] },
					{ toolCalls: [{ name: "grep", arguments: { pattern: "beta", path: "." } }] },
					{ text: "Survey done." },
				],
			},
			args: ["--tools", "read,grep,find,ls", "-p", "Survey the repository."],
		});
		expectCleanRun(result);
		expect(requests).toHaveLength(3);
		const nudge = "Exploration guard: this session keeps making broad read/grep/find/ls calls";
		const userTexts = (request: LoopbackRequest) =>
			requestMessages(request)
				.filter((message) => message.role === "user")
				.map(chatMessageText);
		expect(userTexts(requests[0]!).join("\n")).not.toContain(nudge);
		expect(userTexts(requests[1]!).join("\n")).not.toContain(nudge);
		expect(userTexts(requests[2]!).filter((text) => text.includes(nudge))).toHaveLength(1);
	});

	it("context-shunt (enforce): a read declaring limit 500 is blocked before it runs; the reason is in the next request", async () => {
		const secret = "SHUNT-FILE-CONTENT-MARKER";
		const { result, requests } = await runScenario({
			name: "context-shunt",
			configs: { "context-shunt": { mode: "enforce" } },
			files: { "notes.txt": `${secret}\nsecond line\n` },
			provider: {
				steps: [
					{ toolCalls: [{ name: "read", arguments: { path: "notes.txt", limit: 500 } }] },
					{ text: "Understood." },
				],
			},
			args: ["-p", "Read notes.txt."],
		});
		expectCleanRun(result);
		expect(requests).toHaveLength(2);
		const [reason] = toolResultTexts(requests[1]!);
		expect(reason).toContain(
			"context-shunt blocked this read before it ran: it declares 500 lines, over the 350-line limit for a read from the start.",
		);
		expect(JSON.stringify(requests[1]!.body)).not.toContain(secret);
		expect(toolEnd(result, "read")).toMatchObject({ isError: true });
	});

	it("guardian-review (enforce): `rm -rf ~` is denied by the floor before it runs, without a reviewer call", async () => {
		// Never run a destructive command unless guardian-review is proven loaded; HOME is a temp dir regardless.
		expect(commands.some((entry) => entry.name === "guardian")).toBe(true);
		const canary = join(home, "canary.txt");
		await writeFile(canary, "still here\n");
		const { result, requests } = await runScenario({
			name: "guardian-review",
			configs: { "guardian-review": { mode: "enforce" } },
			provider: {
				steps: [{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf ~" } }] }, { text: "I will not do that." }],
			},
			args: ["-p", "Clean up my home directory."],
		});
		expect(existsSync(canary)).toBe(true);
		expect(existsSync(join(home, "canary.txt"))).toBe(true);
		expectCleanRun(result);
		// Two model turns and no third request: the reviewer model was never consulted.
		expect(requests).toHaveLength(2);
		const [reason] = toolResultTexts(requests[1]!);
		expect(reason).toContain("Guardian denied this bash call: it matches a hard-deny rule");
		expect(reason).toContain("No reviewer was consulted");
		expect(toolEnd(result, "bash")).toMatchObject({ isError: true });
	});

	it("delegation-policy (valid roles on the loopback models): the request on the wire carries one <delegation_policy> block", async () => {
		const { result, requests } = await runScenario({
			name: "delegation-policy",
			configs: {
				"delegation-policy": {
					version: 1,
					intensity: "normal",
					roles: {
						small: { provider: "loop", model: "loop-1" },
						medium: { provider: "loop", model: "loop-2" },
						large: { provider: "loop", model: "loop-3" },
					},
				},
			},
			provider: { steps: [{ text: "Noted." }] },
			args: ["-p", "Plan the work."],
		});
		expectCleanRun(result);
		expect(requests).toHaveLength(1);
		const system = requestSystemPrompt(requests[0]!);
		const body = JSON.stringify(requests[0]!.body);
		expect(body.split("<delegation_policy>")).toHaveLength(2);
		expect(system.split("</delegation_policy>")).toHaveLength(2);
		expect(system).toContain("Intensity: normal.");
		for (const model of ["loop/loop-1", "loop/loop-2", "loop/loop-3"]) expect(system).toContain(model);
	});

	it("output-minimizer (reference) with the real pi-subagents: the child's output is a file reference in the next request", async () => {
		// pi-subagents is the host of delegation, not part of this suite: it is installed offline with `pi install
		// <local path>` from the workspace's node_modules copy (Pi loads local packages in place).
		const subagentsDir = resolveInstalledPackageDir("pi-subagents");
		const install = await runPiCli({
			cwd: join(root, "install-cwd"),
			agentDir,
			args: ["install", subagentsDir],
			env: offlineNpmEnv(home, join(root, "npm-cache")),
			timeoutMs: 60_000,
		});
		expect(install.code, install.stderr).toBe(0);
		const childToken = "PACKED-INSTALL-CHILD";
		const childAnswer = Array.from(
			{ length: 300 },
			(_, line) => `CHILD-REPORT-MARKER line ${line + 1}: the delegated survey found nothing alarming here.`,
		).join("\n");
		await mkdir(join(agentDir, "agents"), { recursive: true });
		await writeFile(
			join(agentDir, "agents", "big-child.md"),
			`---\nname: big-child\ndescription: Packed-install test child\nmodel: loop/loop-1\ntools: read\n---\n${childToken}: return the full report.\n`,
		);
		const { result, requests } = await runScenario({
			name: "output-minimizer",
			configs: { "output-minimizer": { mode: "reference" } },
			provider: {
				router: (request) => (requestSystemPrompt(request).includes(childToken) ? { text: childAnswer } : undefined),
				steps: [
					{
						toolCalls: [
							{ name: "subagent", arguments: { agent: "big-child", task: "Write the report.", async: false } },
						],
					},
					{ text: "Read the reference." },
				],
			},
			args: ["-p", "Delegate the report to big-child."],
		});
		// pi-subagents 0.67.0 itself lists typebox in `dependencies`, so Pi warns about its manifest (not about ours).
		const subagentsManifest = join(subagentsDir, "package.json");
		expectCleanRun(result, [subagentsManifest]);
		const subagentsWarning = result.stderr.split("\n").find((line) => line.includes(`"${subagentsManifest}"`));
		if (subagentsWarning)
			findings.push(`third-party warning during the output-minimizer run: ${subagentsWarning.trim()}`);
		expect(result.stderr).not.toContain("@pi-policy");
		expect(requests.map((request) => request.replySource)).toEqual(["script", "router", "script"]);
		const followUp = requests[2]!;
		expect(JSON.stringify(followUp.body)).not.toContain("CHILD-REPORT-MARKER");
		const [toolResult] = toolResultTexts(followUp);
		const match = /^big-child: completed\. Output saved to: (.+?) \((\d+) bytes, (\d+) lines\)/m.exec(toolResult ?? "");
		expect(match, toolResult).not.toBeNull();
		const [, savedPath, bytes, lines] = match!;
		expect(savedPath!.startsWith(`${join(agentDir, "policy", "outputs")}${sep}`)).toBe(true);
		expect(await readFile(savedPath!, "utf8")).toBe(childAnswer);
		expect(Number(bytes)).toBe(Buffer.byteLength(childAnswer));
		expect(Number(lines)).toBe(300);
	});

	it("after every run the npm root still holds no host package and no duplicate copy", () => {
		const names = installedPackageNames(join(npmRoot, "node_modules"));
		expect(names).toEqual(ALL_PACKAGES.map((pkg) => pkg.name).sort());
	});
});

describe("policy-report from its tarball, in its own npm root: /policy and the pi-policy-report bin", () => {
	// Its OpenTelemetry dependencies come from npm for a user; here npm is cut off from the registry, so the npm root
	// declares them as tarballs packed from the workspace's own store, exactly as it declares the kernel.
	const guardian = EXTENSIONS.find((pkg) => pkg.folder === "guardian-review") as PublishablePackage;
	let report: PackedPackage;
	let agentDir: string;
	let home: string;
	let npmRoot: string;
	const dependencyNames: string[] = [];
	/** The kernel, policy-report and OpenTelemetry tarballs, as npm `file:` dependencies. */
	let cliDependencies: Record<string, string> = {};
	const installs: PiCliResult[] = [];
	const specOf = (pkg: PublishablePackage) =>
		pkg === REPORT ? `npm:${REPORT.name}@file:${report.tarball}` : installSpec(pkg);

	beforeAll(async () => {
		assertBuilt(REPORT);
		const tarballs = join(root, "report-tarballs");
		await mkdir(tarballs, { recursive: true });
		report = await packPackage(REPORT, tarballs);
		agentDir = join(root, "report-agent");
		home = join(root, "report-home");
		npmRoot = join(agentDir, "npm");
		await mkdir(npmRoot, { recursive: true });
		await mkdir(home, { recursive: true });
		const env = offlineNpmEnv(home, join(root, "npm-cache-report"));
		const dependencies: Record<string, string> = { [KERNEL.name]: `file:${packedOf(KERNEL).tarball}` };
		for (const dir of npmDependencyClosure(REPORT)) {
			const tarball = await packInstalledFolder(dir, tarballs, definedEnv(env));
			const { name } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string };
			dependencies[name] = `file:${tarball}`;
			dependencyNames.push(name);
		}
		await writeFile(
			join(npmRoot, "package.json"),
			`${JSON.stringify({ name: "pi-extensions", private: true, dependencies }, null, 2)}\n`,
		);
		cliDependencies = { ...dependencies, [REPORT.name]: `file:${report.tarball}` };
		const installCwd = join(root, "report-install-cwd");
		await mkdir(installCwd, { recursive: true });
		for (const pkg of [guardian, REPORT]) {
			installs.push(
				await runPiCli({ cwd: installCwd, agentDir, args: ["install", specOf(pkg)], env, timeoutMs: 90_000 }),
			);
		}
	}, TIMEOUT);

	it("the tarball holds dist (index and the cli), README, CHANGELOG and schema.json, and nothing from src", () => {
		const { files } = report;
		for (const file of [
			"CHANGELOG.md",
			"README.md",
			"dist/cli.js",
			"dist/index.d.ts",
			"dist/index.js",
			"package.json",
			"schema.json",
		]) {
			expect(files).toContain(file);
		}
		expect(
			files.filter((file) => !file.startsWith("dist/") && !file.endsWith(".md") && !file.endsWith(".json")),
		).toEqual([]);
		expect(files.filter((file) => /(^|\/)(src|test)\/|\.ts$(?<!\.d\.ts)|tsconfig|tsup\.config/.test(file))).toEqual([]);
	});

	it('the packed package.json: the kernel range, exact OpenTelemetry versions, the bin, host peers as "*"', async () => {
		const { manifest } = report;
		expect(JSON.stringify(manifest)).not.toContain("workspace:");
		const { [KERNEL.name]: kernelRange, ...others } = manifest.dependencies ?? {};
		expect(kernelRange).toBe(`^${packedOf(KERNEL).manifest.version}`);
		expect(Object.keys(others).length).toBeGreaterThan(0);
		for (const [name, range] of Object.entries(others)) {
			expect(name).toMatch(/^@opentelemetry\//);
			expect(range).toMatch(/^\d+\.\d+\.\d+$/);
		}
		expect(manifest.bin).toEqual({ "pi-policy-report": "./dist/cli.js" });
		expect(manifest.pi).toMatchObject({ extensions: ["./dist/index.js"] });
		for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
			expect(HOST_PACKAGES).toContain(name);
			expect(range).toBe("*");
		}
		const declared = new Set([
			...Object.keys(manifest.dependencies ?? {}),
			...Object.keys(manifest.peerDependencies ?? {}),
		]);
		const imports = new Set<string>();
		for (const file of report.files.filter((name) => name.endsWith(".js"))) {
			for (const specifier of bareImports(await readFile(join(report.dir, file), "utf8")))
				imports.add(packageNameOf(specifier));
		}
		expect([...imports].filter((name) => !declared.has(name))).toEqual([]);
		expect(await publintErrors(report)).toEqual([]);
		expectReadmeExamplesValid(report);
	});

	it("`pi install` puts guardian-review and policy-report in the npm root with npm cut off, and nothing from a registry", async () => {
		for (const [index, pkg] of [guardian, REPORT].entries()) {
			const run = installs[index]!;
			expect(run.code, `${pkg.name}\n${run.stdout}\n${run.stderr}`).toBe(0);
			expect(run.stdout).toContain(`Installed ${specOf(pkg)}`);
		}
		expect(await readFile(join(npmRoot, "package-lock.json"), "utf8")).not.toMatch(/https?:\/\//);
		const names = installedPackageNames(join(npmRoot, "node_modules"));
		expect(names).toEqual([KERNEL.name, guardian.name, REPORT.name, ...dependencyNames].sort());
		for (const host of HOST_PACKAGES) expect(names).not.toContain(host);
		expect(existsSync(join(npmRoot, "node_modules", ".bin", "pi-policy-report"))).toBe(true);
	});

	it("a real run from the npm root: /policy counts the guardian's floor denial", async () => {
		await mkdir(join(agentDir, "policy"), { recursive: true });
		await writeFile(join(agentDir, "policy", "guardian-review.json"), `${JSON.stringify({ mode: "enforce" })}\n`);
		const canary = join(home, "canary.txt");
		await writeFile(canary, "still here\n");
		const cwd = join(root, "work", "policy-report");
		await mkdir(cwd, { recursive: true });
		const server = await startLoopbackProvider({
			steps: [{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf ~" } }] }, { text: "I will not do that." }],
		});
		let result: PiCliResult;
		try {
			await server.writeModelsJson(agentDir, { models: LOOP_MODELS });
			result = await runPiCli({
				cwd,
				agentDir,
				args: ["--model", "loop/loop-1", "-p", "Clean up my home directory.", "/policy"],
				env: { HOME: home },
				timeoutMs: 90_000,
			});
		} finally {
			await server.close();
		}
		expect(result.code, result.stderr).toBe(0);
		expect(result.stderr).not.toMatch(LOAD_PROBLEM_PATTERN);
		expect(existsSync(canary)).toBe(true);
		// Without a UI, /policy prints its view as plain text (on stderr, beside the model's answer on stdout).
		const output = `${result.stdout}\n${result.stderr}`;
		expect(output).toMatch(/guardian-review: active \(mode enforce\)/);
		expect(output).toContain("denied by floor 1");
	});

	it("pinned: the bin in Pi's npm folder cannot run, because pi install leaves out peers and the kernel needs typebox", async () => {
		// Pi installs packages with --legacy-peer-deps and gives its extensions its own typebox; a CLI started outside
		// Pi finds none there. The README therefore runs the CLI through npx (or any npm install), which adds peers.
		const bin = join(npmRoot, "node_modules", ".bin", "pi-policy-report");
		expect(existsSync(join(npmRoot, "node_modules", "typebox"))).toBe(false);
		const run = await promisify(execFile)(process.execPath, [bin, "--help"], { env: definedEnv({ HOME: home }) }).then(
			() => "ran",
			(error: { stderr?: string }) => error.stderr ?? "",
		);
		expect(run).toContain("ERR_MODULE_NOT_FOUND");
		expect(run).toContain("'typebox'");
	});

	it("the bin, installed by npm with its peers as npx does, reports the guardian's denial over <agentDir>/sessions", async () => {
		const cliRoot = join(root, "report-cli");
		await mkdir(cliRoot, { recursive: true });
		const npmEnv = definedEnv(offlineNpmEnv(home, join(root, "npm-cache-report")));
		const typebox = await packInstalledFolder(
			realpathSync(join(packageDir(KERNEL), "node_modules", "typebox")),
			join(root, "report-tarballs"),
			npmEnv,
		);
		await writeFile(
			join(cliRoot, "package.json"),
			`${JSON.stringify(
				{ name: "report-cli", private: true, dependencies: { ...cliDependencies, typebox: `file:${typebox}` } },
				null,
				2,
			)}\n`,
		);
		await promisify(execFile)("npm", ["install", "--no-audit", "--no-fund"], {
			cwd: cliRoot,
			env: npmEnv,
			maxBuffer: 16 * 1024 * 1024,
		});
		const names = installedPackageNames(join(cliRoot, "node_modules"));
		expect(names).toContain("typebox");
		// Pi's own packages are optional peers of policy-report: npm does not pull the host in for the CLI.
		for (const host of ["@earendil-works/pi-coding-agent", "@earendil-works/pi-tui"]) expect(names).not.toContain(host);
		const bin = join(cliRoot, "node_modules", ".bin", "pi-policy-report");
		// With no input it reads <agentDir>/sessions (PI_CODING_AGENT_DIR); the run of the test above wrote one.
		const { stdout } = await promisify(execFile)(process.execPath, [bin, "--json"], {
			cwd: cliRoot,
			env: definedEnv({ HOME: home, PI_CODING_AGENT_DIR: agentDir }),
		});
		const json = JSON.parse(stdout) as { sessions: number; extensions: Record<string, Record<string, number>> };
		expect(json.sessions).toBe(1);
		expect(json.extensions["guardian-review"]?.denied).toBe(1);
		expect(stdout).not.toContain(home);
		expect(stdout).not.toContain("rm -rf");
	});
});
