// The session's artifacts as effects: the kernel's ledger reducer decides quota and expiry; this class performs what
// it says (writes and removals in the private store, expiry timers) and nothing else.
import {
	type ArtifactLedger,
	type ArtifactSource,
	emptyArtifactLedger,
	findLiveArtifact,
	type LedgerBounds,
	type LedgerEffect,
	type LedgerEvent,
	type QuotaRefusal,
	reduceArtifactLedger,
} from "@pi-policy/policy-kernel/shunt";
import { ArtifactStore } from "./artifact-store.js";
import type { ReaderTimers } from "./reader-call.js";

/** What preserving one text came to. */
export type PreserveOutcome =
	| { readonly id: string; readonly expiresAt: number }
	| { readonly failure: "quota-exhausted" | "write-failed"; readonly refusal?: QuotaRefusal };

/** The clocks, timers and hooks the artifacts need; tests inject their own. */
export interface SessionArtifactsOptions {
	readonly now: () => number;
	readonly timers: ReaderTimers;
	readonly randomHex: (bytes: number) => string;
	readonly tempRoot: string | undefined;
	readonly onStoreCreated: ((path: string) => void) | undefined;
	/** Called once per artifact that expired (the shell audits it). */
	readonly onExpired: () => void;
}

/** The live artifacts of one session: ledger, private store and expiry timers. */
export class SessionArtifacts {
	#ledger: ArtifactLedger = emptyArtifactLedger();
	#store: ArtifactStore | undefined;
	readonly #timers = new Map<string, unknown>();
	readonly #options: SessionArtifactsOptions;

	constructor(options: SessionArtifactsOptions) {
		this.#options = options;
	}

	/** Live artifacts and their total bytes, for status. */
	summary(): { count: number; bytes: number } {
		return {
			count: this.#ledger.artifacts.length,
			bytes: this.#ledger.artifacts.reduce((sum, record) => sum + record.bytes, 0),
		};
	}

	/** True when `id` names a live artifact now. */
	isLive(id: string): boolean {
		return findLiveArtifact(this.#ledger, id, this.#options.now()) !== undefined;
	}

	/** Drops expired records (and their files). */
	expire(): void {
		this.#apply({ type: "expire", now: this.#options.now() });
	}

	/** Reserves quota (a `tool` artifact in its own pool, `toolBounds`) and writes `text`. */
	async preserve(
		text: string,
		source: ArtifactSource,
		lines: number,
		bytes: number,
		toolBounds: LedgerBounds,
	): Promise<PreserveOutcome> {
		const { now, randomHex } = this.#options;
		const id = `csa_${randomHex(12)}`;
		const effects = this.#apply({
			type: "reserve",
			id,
			source,
			bytes,
			lines,
			now: now(),
			...(source === "tool" ? { bounds: toolBounds } : {}),
		});
		const reserved = effects.find((effect) => effect.type === "reserved");
		if (reserved?.type !== "reserved") {
			const refused = effects.find((effect) => effect.type === "refused");
			return { failure: "quota-exhausted", ...(refused?.type === "refused" ? { refusal: refused.reason } : {}) };
		}
		try {
			if (this.#store === undefined) this.#store = new ArtifactStore(this.#options.tempRoot);
			const target = this.#store;
			const hadPath = target.path !== undefined;
			await target.write(id, text);
			if (!hadPath && target.path !== undefined) this.#options.onStoreCreated?.(target.path);
		} catch {
			this.release(id);
			return { failure: "write-failed" };
		}
		this.#scheduleExpiry(id, reserved.record.expiresAt);
		return { id, expiresAt: reserved.record.expiresAt };
	}

	/** The text of a live artifact, checked against its digest; `undefined` when unknown, expired or damaged. */
	async read(id: string): Promise<string | undefined> {
		this.expire();
		if (!this.isLive(id)) return undefined;
		const text = await this.#store?.read(id);
		if (text === undefined) this.release(id);
		return text;
	}

	/** Drops one artifact (its file goes too). */
	release(id: string): void {
		this.#apply({ type: "release", id });
	}

	/** Drops every artifact and waits until their files are gone (`/context-shunt reset`). */
	async clear(): Promise<void> {
		const ids = this.#ledger.artifacts.map((record) => record.id);
		this.#apply({ type: "clear" });
		await Promise.all(ids.map((id) => this.#store?.remove(id).catch(() => undefined)));
	}

	/** Cancels every timer and removes the store directory (session shutdown). */
	async dispose(): Promise<void> {
		for (const handle of this.#timers.values()) this.#options.timers.clearTimer(handle);
		this.#timers.clear();
		this.#ledger = emptyArtifactLedger();
		const closing = this.#store;
		this.#store = undefined;
		await closing?.dispose();
	}

	#apply(event: LedgerEvent): LedgerEffect[] {
		const result = reduceArtifactLedger(this.#ledger, event);
		this.#ledger = result.state;
		for (const effect of result.effects) {
			if (effect.type !== "expired" && effect.type !== "released") continue;
			const timer = this.#timers.get(effect.id);
			if (timer !== undefined) this.#options.timers.clearTimer(timer);
			this.#timers.delete(effect.id);
			void this.#store?.remove(effect.id).catch(() => undefined);
			if (effect.type === "expired") this.#options.onExpired();
		}
		return result.effects;
	}

	#scheduleExpiry(id: string, expiresAt: number): void {
		const { now, timers } = this.#options;
		const handle = timers.setTimer(
			() => {
				this.#timers.delete(id);
				this.#apply({ type: "expire", now: Math.max(now(), expiresAt) });
			},
			Math.max(0, expiresAt - now()),
		);
		this.#timers.set(id, handle);
	}
}
