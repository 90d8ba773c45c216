/// <reference lib="dom" />
// The suite demo, as users meet it: stock and pi-policy runs side by side, a 100-column terminal, and an HTML
// report whose chart really shows both series when a browser renders it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSuiteSession, SUITE_EXTENSIONS, type SuiteRun } from "../src/suite.ts";
import {
	renderHeader,
	renderHtmlReport,
	renderSideBySide,
	renderTotals,
	TERMINAL_WIDTH,
	totalsRows,
} from "../src/suite-report.ts";

let stock: SuiteRun;
let policy: SuiteRun;
const dir = mkdtempSync(join(tmpdir(), "pi-policy-demo-report-"));

beforeAll(async () => {
	stock = await runSuiteSession([], "stock Pi");
	policy = await runSuiteSession([...SUITE_EXTENSIONS], "all five");
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("pnpm demo: the suite session", () => {
	it("runs the same session twice and shows every extension acting", () => {
		expect(policy.turns.length).toBe(stock.turns.length);
		expect(stock.totals.policyBlocks).toBe(0);
		expect(policy.totals.policyBlocks).toBe(policy.turns.length);
		expect(policy.totals.nudges).toBe(1);
		expect(policy.totals.blocks).toBeGreaterThanOrEqual(1);
		expect(policy.totals.referenced).toBe(1);
		expect(policy.totals.preserved).toBeGreaterThanOrEqual(1);
		expect(policy.totals.recovered).toBe(1);
		expect(policy.totals.guardian["floor deny"]).toBe(1);
		// The long test loop, and the subagent delegation: a tool that is not built in and not annotated read-only.
		expect(policy.totals.guardian["reviewer allow"]).toBe(2);
		expect(policy.reviewerCalls).toBe(2);
		expect(policy.reviewerBytes).toBeGreaterThan(1000);
		expect(stock.reviewerCalls).toBe(0);
		expect(policy.totals.bytes).toBeLessThan(stock.totals.bytes * 0.5);
	});

	it('explains itself: the task, the script, the columns, "policy" and "kt"', () => {
		const header = renderHeader("all five pi-policy extensions").join("\n");
		expect(header).toContain('The task:\n  "The retry logic sometimes loops forever after compaction.');
		expect(header).toContain("The script");
		expect(header).toContain('"~1.2kt" = about 1,200 tokens');
		expect(header).toContain('"policy" means the delegation-policy block was in it');
		expect(header).toContain('"change" is pi-policy against stock');
		for (const line of header.split("\n")) expect(line.length).toBeLessThanOrEqual(TERMINAL_WIDTH);
	});

	it("counts the reviewer model's requests in the totals, as their own row", () => {
		const rows = Object.fromEntries(totalsRows(stock, policy).map(([name, s, p]) => [name, { s, p }]));
		expect(rows["reviewer model requests, bytes"]?.s).toBe("0");
		expect(rows["reviewer model requests, bytes"]?.p).toMatch(/^2, \d+(\.\d)? (B|KB) ~\d+(\.\dk)?t$/);
		const kb = (text: string | undefined) => Number(/^([\d.]+) KB/.exec(text ?? "")?.[1]);
		const all = kb(rows["bytes sent, all requests"]?.p);
		const agentOnly = policy.totals.bytes / 1024;
		const withReviewer = (policy.totals.bytes + policy.reviewerBytes) / 1024;
		// The total is the agent's bytes plus the reviewer's, not the agent's alone.
		expect(Math.abs(all - withReviewer)).toBeLessThan(0.06);
		expect(all - agentOnly).toBeGreaterThan(0.5);
	});

	it("says how much more pi-policy sent when it sent more than stock (it said '-10% less')", () => {
		const stockAll = stock.totals.bytes + stock.reviewerBytes;
		const heavier = { ...policy, totals: { ...policy.totals, bytes: Math.round(stockAll * 1.1) }, reviewerBytes: 0 };
		const row = totalsRows(stock, heavier).find(([name]) => name === "bytes sent, all requests");
		expect(row?.[2]).toMatch(/ \(10% more\)$/);
		const lighter = { ...policy, totals: { ...policy.totals, bytes: Math.round(stockAll * 0.75) }, reviewerBytes: 0 };
		expect(totalsRows(stock, lighter).find(([name]) => name === "bytes sent, all requests")?.[2]).toMatch(
			/ \(25% less\)$/,
		);
	});

	it("fits a 100-column terminal", () => {
		const text = `${renderSideBySide(stock, policy)}\n${renderTotals(stock, policy)}`;
		for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(TERMINAL_WIDTH);
		expect(text).toContain("guardian floor deny");
	});

	it("writes an HTML report whose chart shows both series in headless Chromium", async () => {
		const file = join(dir, "report.html");
		writeFileSync(file, renderHtmlReport(stock, policy));
		const browser = await chromium.launch({
			executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
			args: [
				"--no-sandbox",
				"--disable-gpu",
				"--disable-quic",
				"--no-first-run",
				"--disable-background-networking",
				"--disable-component-update",
				"--disable-sync",
			],
		});
		try {
			const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
			await page.goto(pathToFileURL(file).href);
			const series = await page.$$eval("#context-chart polyline.series", (lines) =>
				lines.map((line) => {
					const box = line.getBoundingClientRect();
					return {
						id: line.getAttribute("data-series"),
						points: (line.getAttribute("points") ?? "").trim().split(/\s+/).length,
						width: box.width,
						height: box.height,
					};
				}),
			);
			expect(series.map((s) => s.id)).toEqual(["stock", "pi-policy"]);
			// The axis is labelled in KB and tokens, and every grid label says both.
			expect(await page.textContent("#y-axis-label")).toBe("sent per request: KB (~tokens)");
			const yLabels = await page.$$eval("#context-chart text.y-label", (texts) =>
				texts.map((t) => t.textContent ?? ""),
			);
			expect(yLabels.filter((t) => /^[\d.]+ (B|KB)$/.test(t)).length).toBe(5);
			expect(yLabels.filter((t) => /^~[\d.]+k? tokens$/.test(t)).length).toBe(5);
			// The rotated axis title stays clear of the grid labels (they overlapped in the first-hour walkthrough).
			const overlaps = await page.$$eval("#context-chart text.y-label", (texts) => {
				const title = document.querySelector("#y-axis-label")?.getBoundingClientRect();
				if (title === undefined) return -1;
				return texts.filter((t) => {
					const box = t.getBoundingClientRect();
					return box.left < title.right && title.left < box.right && box.top < title.bottom && title.top < box.bottom;
				}).length;
			});
			expect(overlaps).toBe(0);
			// The per-turn table shows the change for every turn, and it matches the sizes measured.
			const changes = await page.$$eval("#per-turn td.change", (cells) => cells.map((c) => c.textContent ?? ""));
			expect(changes).toHaveLength(stock.turns.length);
			changes.forEach((text, i) => {
				const expected = Math.round(((policy.turns[i]?.bytes ?? 0) / (stock.turns[i]?.bytes ?? 1) - 1) * 100);
				expect(text).toBe(`${expected >= 0 ? "+" : ""}${expected}%`);
			});
			for (const s of series) {
				expect(s.points).toBe(stock.turns.length);
				expect(s.width).toBeGreaterThan(500);
			}
			const shot = await page.locator("#context-chart").screenshot({ path: join(dir, "chart.png") });
			// Count the pixels of each series colour in the screenshot itself.
			const counts = await page.evaluate(
				async (dataUrl) => {
					const image = new Image();
					image.src = dataUrl;
					await image.decode();
					const canvas = document.createElement("canvas");
					canvas.width = image.width;
					canvas.height = image.height;
					const context = canvas.getContext("2d");
					if (!context) return { stock: 0, policy: 0 };
					context.drawImage(image, 0, 0);
					const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
					const near = (i: number, r: number, g: number, b: number) =>
						Math.abs((data[i] ?? 0) - r) + Math.abs((data[i + 1] ?? 0) - g) + Math.abs((data[i + 2] ?? 0) - b) < 40;
					let stockPixels = 0;
					let policyPixels = 0;
					for (let i = 0; i < data.length; i += 4) {
						if (near(i, 0xd9, 0x53, 0x4f)) stockPixels += 1;
						if (near(i, 0x2a, 0x7a, 0xe2)) policyPixels += 1;
					}
					return { stock: stockPixels, policy: policyPixels };
				},
				`data:image/png;base64,${shot.toString("base64")}`,
			);
			expect(counts.stock).toBeGreaterThan(500);
			expect(counts.policy).toBeGreaterThan(500);
		} finally {
			await browser.close();
		}
	});
});
