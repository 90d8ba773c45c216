// Bounded reads of one config file. Host-only: uses node:fs. A FIFO, a device, a directory, an unreadable or an
// oversized file all give the same `unreadable` outcome at once; nothing blocks and nothing reads past the bound.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import { type ConfigFileRead, MAX_CONFIG_FILE_BYTES } from "../config.js";

/** `O_NONBLOCK` so that opening a FIFO with no writer returns at once; `O_NOCTTY` so a terminal is never adopted. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

const MISSING: ConfigFileRead = Object.freeze({ kind: "missing" });
const UNREADABLE: ConfigFileRead = Object.freeze({ kind: "unreadable" });

function classifyOpenError(error: unknown): ConfigFileRead {
	const code = (error as { code?: unknown } | null)?.code;
	return code === "ENOENT" || code === "ENOTDIR" ? MISSING : UNREADABLE;
}

function decode(bytes: Uint8Array): ConfigFileRead {
	return { kind: "text", text: new TextDecoder("utf-8").decode(bytes) };
}

/**
 * Reads a config file without blocking on it: opens it non-blocking, `fstat`s the open file, refuses anything
 * that is not a regular file of at most {@link MAX_CONFIG_FILE_BYTES}, and reads at most that many bytes plus
 * one. A missing file (or a missing folder) is `missing`. Never throws.
 */
export async function readConfigFile(path: string): Promise<ConfigFileRead> {
	let handle: Awaited<ReturnType<typeof open>>;
	try {
		handle = await open(path, OPEN_FLAGS);
	} catch (error) {
		return classifyOpenError(error);
	}
	try {
		const stat = await handle.stat();
		if (!stat.isFile() || stat.size > MAX_CONFIG_FILE_BYTES) return UNREADABLE;
		const buffer = Buffer.allocUnsafe(MAX_CONFIG_FILE_BYTES + 1);
		let total = 0;
		while (total < buffer.length) {
			const { bytesRead } = await handle.read(buffer, total, buffer.length - total, total);
			if (bytesRead === 0) break;
			total += bytesRead;
		}
		return total > MAX_CONFIG_FILE_BYTES ? UNREADABLE : decode(buffer.subarray(0, total));
	} catch {
		return UNREADABLE;
	} finally {
		await handle.close().catch(() => undefined);
	}
}

/**
 * The synchronous form of {@link readConfigFile}, for an extension factory's startup decision only (never on a
 * hot path). Same bounds and outcomes. Never throws.
 */
export function readConfigFileSync(path: string): ConfigFileRead {
	let fd: number;
	try {
		fd = openSync(path, OPEN_FLAGS);
	} catch (error) {
		return classifyOpenError(error);
	}
	try {
		const stat = fstatSync(fd);
		if (!stat.isFile() || stat.size > MAX_CONFIG_FILE_BYTES) return UNREADABLE;
		const buffer = Buffer.allocUnsafe(MAX_CONFIG_FILE_BYTES + 1);
		let total = 0;
		while (total < buffer.length) {
			const bytesRead = readSync(fd, buffer, total, buffer.length - total, total);
			if (bytesRead === 0) break;
			total += bytesRead;
		}
		return total > MAX_CONFIG_FILE_BYTES ? UNREADABLE : decode(buffer.subarray(0, total));
	} catch {
		return UNREADABLE;
	} finally {
		try {
			closeSync(fd);
		} catch {
			// Closing is best effort.
		}
	}
}
