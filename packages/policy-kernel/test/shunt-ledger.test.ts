import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	ARTIFACT_QUOTA,
	type ArtifactLedger,
	emptyArtifactLedger,
	findLiveArtifact,
	type LedgerEvent,
	ledgerBytes,
	reduceArtifactLedger,
} from "../src/shunt/index.js";

const KIB = 1024;
const reserve = (id: string, bytes: number, now = 0): LedgerEvent => ({
	type: "reserve",
	id,
	source: "bash",
	bytes,
	lines: 1,
	now,
});

function fold(events: LedgerEvent[], start: ArtifactLedger = emptyArtifactLedger()) {
	let state = start;
	const effects = [];
	for (const event of events) {
		const result = reduceArtifactLedger(state, event);
		state = result.state;
		effects.push(...result.effects);
	}
	return { state, effects };
}

describe("artifact quota", () => {
	it("has the contract's numbers", () => {
		expect(ARTIFACT_QUOTA).toEqual({
			maxArtifacts: 8,
			maxTotalBytes: 512 * KIB,
			maxArtifactBytes: 64 * KIB,
			ttlMs: 30 * 60 * 1000,
		});
	});

	it("admits 8 artifacts and refuses the ninth", () => {
		const eight = fold(Array.from({ length: 8 }, (_, i) => reserve(`a${i}`, 100)));
		expect(eight.state.artifacts).toHaveLength(8);
		const ninth = reduceArtifactLedger(eight.state, reserve("a8", 100));
		expect(ninth.effects).toEqual([{ type: "refused", reason: "artifact-count" }]);
		expect(ninth.state).toBe(eight.state);
	});

	it("admits an artifact of exactly 64 KiB and refuses 64 KiB + 1 byte", () => {
		expect(reduceArtifactLedger(emptyArtifactLedger(), reserve("a", 64 * KIB)).effects[0]?.type).toBe("reserved");
		expect(reduceArtifactLedger(emptyArtifactLedger(), reserve("a", 64 * KIB + 1)).effects).toEqual([
			{ type: "refused", reason: "artifact-too-large" },
		]);
	});

	it("admits exactly 512 KiB in total (8 x 64 KiB): the session cap equals count x size", () => {
		const full = fold(Array.from({ length: 8 }, (_, i) => reserve(`a${i}`, 64 * KIB)));
		expect(ledgerBytes(full.state)).toBe(512 * KIB);
		expect(full.effects.every((effect) => effect.type === "reserved")).toBe(true);
	});

	it("refuses the 513th KiB when the count still has room (bounds where the byte cap binds first)", () => {
		const bounds = { ...ARTIFACT_QUOTA, maxArtifacts: 100 };
		let state = emptyArtifactLedger();
		for (let i = 0; i < 8; i++) state = reduceArtifactLedger(state, reserve(`a${i}`, 64 * KIB), bounds).state;
		expect(reduceArtifactLedger(state, reserve("b", 1), bounds).effects).toEqual([
			{ type: "refused", reason: "session-bytes" },
		]);
		const released = reduceArtifactLedger(state, { type: "release", id: "a0" }, bounds).state;
		expect(reduceArtifactLedger(released, reserve("b", 64 * KIB), bounds).effects[0]?.type).toBe("reserved");
		expect(reduceArtifactLedger(released, reserve("b", 64 * KIB + 1), bounds).effects[0]).toEqual({
			type: "refused",
			reason: "artifact-too-large",
		});
	});

	it("refuses malformed sizes", () => {
		expect(reduceArtifactLedger(emptyArtifactLedger(), reserve("a", -1)).effects[0]?.type).toBe("refused");
		expect(reduceArtifactLedger(emptyArtifactLedger(), reserve("a", Number.NaN)).effects[0]?.type).toBe("refused");
	});
});

describe("artifact expiry", () => {
	const ttl = 30 * 60 * 1000;

	it("keeps an artifact live until 30 minutes after creation, and no longer", () => {
		const { state } = fold([reserve("a", 10, 1000)]);
		expect(findLiveArtifact(state, "a", 1000 + ttl - 1)).toBeDefined();
		expect(findLiveArtifact(state, "a", 1000 + ttl)).toBeUndefined();
		expect(reduceArtifactLedger(state, { type: "expire", now: 1000 + ttl - 1 }).effects).toEqual([]);
		const expired = reduceArtifactLedger(state, { type: "expire", now: 1000 + ttl });
		expect(expired.effects).toEqual([{ type: "expired", id: "a" }]);
		expect(expired.state.artifacts).toEqual([]);
	});

	it("frees quota when artifacts expire, at reservation time", () => {
		const full = fold(Array.from({ length: 8 }, (_, i) => reserve(`a${i}`, 10, 0)));
		const later = reduceArtifactLedger(full.state, reserve("b", 10, ttl));
		expect(later.effects.filter((e) => e.type === "expired")).toHaveLength(8);
		expect(later.effects.at(-1)?.type).toBe("reserved");
	});

	it("never holds more than 8 artifacts or 512 KiB, whatever the events", () => {
		const event = fc.oneof(
			fc.record({
				type: fc.constant("reserve" as const),
				id: fc.string({ maxLength: 3 }),
				source: fc.constant("bash" as const),
				bytes: fc.integer({ min: 0, max: 70 * KIB }),
				lines: fc.nat(),
				now: fc.integer({ min: 0, max: 4 * ttl }),
			}),
			fc.record({ type: fc.constant("expire" as const), now: fc.integer({ min: 0, max: 4 * ttl }) }),
			fc.record({ type: fc.constant("release" as const), id: fc.string({ maxLength: 3 }) }),
		);
		fc.assert(
			fc.property(fc.array(event, { maxLength: 40 }), (events) => {
				const { state } = fold(events);
				return (
					state.artifacts.length <= 8 &&
					ledgerBytes(state) <= 512 * KIB &&
					state.artifacts.every((a) => a.bytes <= 64 * KIB)
				);
			}),
			{ numRuns: 300 },
		);
	});

	it("clears everything", () => {
		const { state } = fold([reserve("a", 1), reserve("b", 1)]);
		const cleared = reduceArtifactLedger(state, { type: "clear" });
		expect(cleared.state.artifacts).toEqual([]);
		expect(cleared.effects).toHaveLength(2);
	});
});
