// The private artifact store of one session: a mkdtemp directory (0700) of files (0600), checked by sha256 on read.
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Directories of live stores, removed synchronously if the process exits before a session shutdown. */
const liveDirectories = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.once("exit", () => {
		for (const dir of liveDirectories) {
			try {
				rmSync(dir, { recursive: true, force: true });
			} catch {
				// Best effort: the OS removes its temporary data eventually.
			}
		}
	});
}

function sha256(text: string): string {
	return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Files of preserved text under a private temporary directory, created on first write. */
export class ArtifactStore {
	private directory: string | undefined;
	private creating: Promise<string> | undefined;
	private readonly digests = new Map<string, string>();
	private disposed = false;

	constructor(private readonly tempRoot: string = tmpdir()) {}

	/** The directory, once created; for tests and diagnostics on the user's own machine only. */
	get path(): string | undefined {
		return this.directory;
	}

	private async ensureDirectory(): Promise<string> {
		if (this.disposed) throw new Error("store disposed");
		if (this.directory !== undefined) return this.directory;
		this.creating ??= (async () => {
			const dir = await mkdtemp(join(this.tempRoot, "pi-context-shunt-"));
			await chmod(dir, 0o700);
			installExitHook();
			liveDirectories.add(dir);
			this.directory = dir;
			return dir;
		})();
		return this.creating;
	}

	/** Writes `text` as artifact `id` (mode 0600, never overwriting) and records its sha256 digest. */
	async write(id: string, text: string): Promise<void> {
		const dir = await this.ensureDirectory();
		const file = join(dir, id);
		await writeFile(file, text, { encoding: "utf8", mode: 0o600, flag: "wx" });
		await chmod(file, 0o600);
		this.digests.set(id, sha256(text));
	}

	/** The text of artifact `id`, or `undefined` when it is missing, unreadable or fails its digest check. */
	async read(id: string): Promise<string | undefined> {
		const expected = this.digests.get(id);
		if (expected === undefined || this.directory === undefined) return undefined;
		try {
			const text = await readFile(join(this.directory, id), "utf8");
			return sha256(text) === expected ? text : undefined;
		} catch {
			return undefined;
		}
	}

	/** Removes artifact `id`; missing files are fine. */
	async remove(id: string): Promise<void> {
		this.digests.delete(id);
		if (this.directory === undefined) return;
		await rm(join(this.directory, id), { force: true });
	}

	/** Removes the whole directory; the store accepts no more writes. Idempotent. */
	async dispose(): Promise<void> {
		this.disposed = true;
		this.digests.clear();
		const dir = this.directory ?? (this.creating ? await this.creating.catch(() => undefined) : undefined);
		if (dir === undefined) return;
		await rm(dir, { recursive: true, force: true });
		liveDirectories.delete(dir);
	}
}
