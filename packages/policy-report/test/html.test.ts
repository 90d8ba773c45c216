// The --html page in headless Chromium: its three charts are drawn (a screenshot of each has pixels of the bar
// colours), and the page, the JSON and the terminal summary carry only enums, counts and hashed session ids.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli.ts";
import { hashSessionId } from "../src/session-hash.js";
import { generateGateSessions, writeGateCorpus } from "./support/corpus.ts";

let root: string;
let html: string;
let json: string;
let text: string;
const OPTIONS = { bypassSessions: 4, fillerBytes: 2000 };

beforeAll(async () => {
	root = await mkdtemp(join(tmpdir(), "policy-report-html-"));
	await writeGateCorpus(join(root, "sessions"), OPTIONS);
	const file = join(root, "report.html");
	const run = async (args: string[]) => {
		let out = "";
		const { code } = await runCli(args, {
			stdout: (t) => {
				out += t;
			},
			stderr: () => {},
			stderrIsTTY: false,
		});
		expect(code).toBe(0);
		return out;
	};
	json = await run([join(root, "sessions"), "--json", "--html", file]);
	text = await run([join(root, "sessions")]);
	html = await readFile(file, "utf8");
});

afterAll(async () => {
	await rm(root, { recursive: true, force: true });
});

describe("--html", () => {
	it("is self-contained: no script, no external resource", () => {
		expect(html.startsWith("<!doctype html>")).toBe(true);
		expect(html).not.toMatch(/<script|<link|src=|href=|url\(/i);
	});

	it("renders its charts in headless Chromium, with pixels in each", async () => {
		const browser = await chromium.launch({
			executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
			args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"],
		});
		try {
			const page = await browser.newPage({ viewport: { width: 900, height: 1600 } });
			await page.goto(pathToFileURL(join(root, "report.html")).href);
			for (const [id, colours, minBars] of [
				["#chart-gate", ["#2e9d4a", "#d23c3c"], 9],
				["#chart-days", ["#2f6fdf"], 10],
				["#chart-guardian", ["#2e9d4a", "#e08a1e"], 4],
			] as const) {
				const bars = await page.$$eval(`${id} rect`, (rects) =>
					rects.map((rect) => ({ height: rect.getBoundingClientRect().height, fill: rect.getAttribute("fill") })),
				);
				expect(bars.length, id).toBeGreaterThanOrEqual(minBars);
				const shot = await page.locator(id).screenshot();
				const counts = await page.evaluate(
					async ({ dataUrl, wanted }) => {
						const image = new Image();
						image.src = dataUrl;
						await image.decode();
						const canvas = document.createElement("canvas");
						canvas.width = image.width;
						canvas.height = image.height;
						const context = canvas.getContext("2d");
						if (!context) return wanted.map(() => 0);
						context.drawImage(image, 0, 0);
						const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
						return wanted.map((hex) => {
							const r = Number.parseInt(hex.slice(1, 3), 16);
							const g = Number.parseInt(hex.slice(3, 5), 16);
							const b = Number.parseInt(hex.slice(5, 7), 16);
							let n = 0;
							for (let i = 0; i < data.length; i += 4) {
								const d =
									Math.abs((data[i] ?? 0) - r) + Math.abs((data[i + 1] ?? 0) - g) + Math.abs((data[i + 2] ?? 0) - b);
								if (d < 40) n++;
							}
							return n;
						});
					},
					{ dataUrl: `data:image/png;base64,${shot.toString("base64")}`, wanted: [...colours] },
				);
				for (const [i, colour] of colours.entries()) expect(counts[i], `${id} ${colour}`).toBeGreaterThan(200);
				// No two bar labels overlap (the gate chart's nine criterion names did in the first-hour walkthrough).
				const overlapping = await page.$$eval(`${id} text[text-anchor="middle"]`, (texts) => {
					const boxes = texts.map((text) => text.getBoundingClientRect());
					let count = 0;
					for (const [i, a] of boxes.entries())
						for (const b of boxes.slice(i + 1))
							if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) count++;
					return count;
				});
				expect(overlapping, id).toBe(0);
			}
		} finally {
			await browser.close();
		}
	});

	it("privacy: HTML, JSON and text carry no session id, cwd or transcript text; session ids appear hashed", () => {
		const sessions = generateGateSessions(OPTIONS);
		for (const output of [html, json, text]) {
			expect(output).not.toContain("/work/project");
			expect(output).not.toContain("The agent reads the module");
			for (const session of sessions) expect(output).not.toContain(session.id);
		}
		expect(html).toContain(hashSessionId(sessions[0]?.id ?? ""));
	});
});
