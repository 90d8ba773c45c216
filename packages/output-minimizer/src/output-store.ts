// Durable output files: <agentDir>/policy/outputs/<sessionId>/<seq>-<label>.md, directory 0700, file 0600,
// written atomically (temp file, fsync, hard link) and verified against the expected bytes and lines.
import { randomBytes } from "node:crypto";
import { chmod, link, lstat, mkdir, open, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import {
	countOutputLines,
	outputFileName,
	outputSessionFolder,
	type PersistOutcome,
} from "@pi-policy/policy-kernel/minimize";

/** A host-saved file larger than this is not read back (it is still referenced as unreadable, then copied). */
export const MAX_REUSED_FILE_BYTES = 256 * 1024 * 1024;

/** What to persist for one output. */
export interface PersistRequest {
	/** A label for the file name (agent name, `workflow`, `notify-<agent>`). */
	readonly label: string;
	/** The exact text; the file holds these characters, UTF-8 encoded. */
	readonly text: string;
	/** A file the host already saved; reused when readable. */
	readonly hostSavedPath?: string;
}

/** Where outputs go and for which session. */
export interface OutputStoreOptions {
	/** The agent directory (Pi's `getAgentDir()`). */
	readonly agentDir: () => string;
	/** The current session id (`ctx.sessionManager.getSessionId()`). */
	readonly sessionId: () => string;
	/** The directory relative host paths resolve against (`ctx.cwd`). */
	readonly cwd: () => string;
}

/** Persists outputs for one extension instance. Never throws: failures come back as outcomes. */
export interface OutputStore {
	persist(request: PersistRequest): Promise<PersistOutcome>;
	/** The folder outputs of the current session go to. */
	sessionDir(): string;
}

function errorCode(error: unknown): string {
	const code = (error as { code?: unknown } | null)?.code;
	return typeof code === "string" ? code : "unknown";
}

/** Creates the output store. Sequence numbers continue after the highest file already in the folder. */
export function createOutputStore(options: OutputStoreOptions): OutputStore {
	const nextSeq = new Map<string, number>();

	const sessionDir = () => join(options.agentDir(), "policy", "outputs", outputSessionFolder(options.sessionId()));

	async function reuse(request: PersistRequest): Promise<PersistOutcome | undefined> {
		if (request.hostSavedPath === undefined) return undefined;
		const path = isAbsolute(request.hostSavedPath)
			? request.hostSavedPath
			: resolve(options.cwd(), request.hostSavedPath);
		try {
			const info = await stat(path);
			if (!info.isFile() || info.size > MAX_REUSED_FILE_BYTES)
				throw Object.assign(new Error("not reusable"), { code: "EISDIR" });
			const data = await readFile(path);
			return { ok: true, path, bytes: data.byteLength, lines: countOutputLines(data.toString("utf8")), reused: true };
		} catch (error) {
			if (request.text.length > 0) return undefined;
			return { ok: false, intendedPath: path, stage: "read", code: errorCode(error) };
		}
	}

	async function claimSeq(dir: string): Promise<number> {
		let seq = nextSeq.get(dir);
		if (seq === undefined) {
			seq = 1;
			try {
				for (const name of await readdir(dir)) {
					const match = /^(\d{1,9})-/.exec(name);
					if (match) seq = Math.max(seq, Number(match[1]) + 1);
				}
			} catch {
				// A missing folder starts at 1.
			}
		}
		nextSeq.set(dir, seq + 1);
		return seq;
	}

	async function ensureDir(dir: string): Promise<void> {
		const outputsRoot = join(options.agentDir(), "policy", "outputs");
		await mkdir(dir, { recursive: true, mode: 0o700 });
		for (const folder of [outputsRoot, dir]) {
			const info = await lstat(folder);
			if (!info.isDirectory()) throw Object.assign(new Error("not a directory"), { code: "ENOTDIR" });
			if ((info.mode & 0o777) !== 0o700) await chmod(folder, 0o700);
		}
	}

	async function writeAtomically(dir: string, data: Buffer, label: string): Promise<string> {
		const temp = join(dir, `.tmp-${process.pid}-${randomBytes(6).toString("hex")}`);
		const handle = await open(temp, "wx", 0o600);
		try {
			await handle.writeFile(data);
			await handle.sync();
		} finally {
			await handle.close();
		}
		try {
			await chmod(temp, 0o600);
			for (let attempt = 0; attempt < 8; attempt++) {
				const target = join(dir, outputFileName(await claimSeq(dir), label));
				try {
					await link(temp, target);
					return target;
				} catch (error) {
					const code = errorCode(error);
					if (code === "EEXIST") continue;
					if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") throw error;
					// No hard links on this file system: rename, which is atomic but may replace; check first.
					try {
						await lstat(target);
					} catch {
						await rename(temp, target);
						return target;
					}
				}
			}
			throw Object.assign(new Error("no free name"), { code: "EEXIST" });
		} finally {
			await unlink(temp).catch(() => undefined);
		}
	}

	return {
		sessionDir,
		async persist(request) {
			const reused = await reuse(request);
			if (reused !== undefined) return reused;
			if (request.text.length === 0) return { ok: "empty" };
			const dir = sessionDir();
			let intendedPath = join(dir, outputFileName(nextSeq.get(dir) ?? 1, request.label));
			const data = Buffer.from(request.text, "utf8");
			let path: string;
			try {
				await ensureDir(dir);
				path = await writeAtomically(dir, data, request.label);
				intendedPath = path;
			} catch (error) {
				return { ok: false, intendedPath, stage: "write", code: errorCode(error) };
			}
			try {
				const written = await readFile(path);
				const info = await stat(path);
				const expectedLines = countOutputLines(request.text);
				const lines = countOutputLines(written.toString("utf8"));
				if (!written.equals(data) || info.size !== data.byteLength || lines !== expectedLines) {
					return { ok: false, intendedPath, stage: "verify", code: "EMISMATCH" };
				}
				return { ok: true, path, bytes: info.size, lines, reused: false };
			} catch (error) {
				return { ok: false, intendedPath, stage: "read", code: errorCode(error) };
			}
		},
	};
}
