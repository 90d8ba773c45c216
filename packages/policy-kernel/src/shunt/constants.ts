// context-shunt: every numeric bound of the contract, in one place.

/** The modes, weakest first. `off` is the default. */
export const SHUNT_MODES = ["off", "observe", "enforce"] as const;
/** One of {@link SHUNT_MODES}. */
export type ShuntMode = (typeof SHUNT_MODES)[number];

/** The built-in tools whose results context-shunt may preserve. */
export const SHUNT_TOOLS = ["read", "bash", "powershell", "grep"] as const;
/** One of {@link SHUNT_TOOLS}. */
export type ShuntTool = (typeof SHUNT_TOOLS)[number];

/** The largest value any configured limit may take: 1 MiB. */
export const SHUNT_LIMIT_MAX = 1_048_576;

/** Default limits. Lines apply to the declared range, bytes to the real returned result. */
export const DEFAULT_SHUNT_LIMITS = Object.freeze({
	/** A read without an offset. */
	fullReadLines: 350,
	fullReadBytes: 16_384,
	/** A read with an offset, or any non-read result. */
	targetedReadLines: 250,
	targetedReadBytes: 16_384,
});

/** A receipt is at most this many UTF-8 bytes. */
export const RECEIPT_MAX_BYTES = 2048;
/** The optional preview inside a receipt is at most this many UTF-8 bytes. */
export const PREVIEW_MAX_BYTES = 1024;
/** Default number of preview lines in a receipt. */
export const DEFAULT_PREVIEW_LINES = 10;
/** The largest configurable `previewLines` (the 1 KiB byte cap applies as well). */
export const PREVIEW_LINES_MAX = 100;

/** Per-session artifact quota and retention. */
export const ARTIFACT_QUOTA = Object.freeze({
	/** Live artifacts at once. */
	maxArtifacts: 8,
	/** Total UTF-8 bytes of live artifacts: 512 KiB. */
	maxTotalBytes: 524_288,
	/** One artifact: 64 KiB. */
	maxArtifactBytes: 65_536,
	/** Each artifact expires this long after creation: 30 minutes. Recovery does not renew it. */
	ttlMs: 30 * 60 * 1000,
});

/** User exceptions (`/context-shunt allow`). Fixed: there is no configuration setting for these. */
export const EXCEPTION_RULES = Object.freeze({
	/** A grant expires one minute after the user grants it. */
	grantTtlMs: 60 * 1000,
	/** At most this many consumed authorizations are retained until their results arrive. */
	maxConsumed: 8,
	/** At most this many issued (not yet granted) tokens are kept; the oldest is dropped first. */
	maxIssued: 8,
	/** Bounds of `maxLines` and `maxBytes` in the allow command. */
	maxGrantValue: SHUNT_LIMIT_MAX,
});

/** Bounds of configured (non built-in) tools' artifacts: Pi does not bound their output as it bounds the built-ins'. */
export const TOOL_ARTIFACT_RULES = Object.freeze({
	/** `toolArtifactBytes`: one artifact of a configured tool, default 1 MiB. */
	artifactBytesDefault: 1_048_576,
	/** `toolSessionBytes`: all live artifacts of configured tools, default 8 MiB. */
	sessionBytesDefault: 8_388_608,
	/** The largest value either setting may take: 64 MiB. */
	bytesMax: 67_108_864,
	/** Live artifacts of configured tools at once (fixed). */
	maxArtifacts: 64,
});

/** The two values of a per-tool policy under `tools`. */
export const TOOL_POLICIES = ["shunt", "intact"] as const;
/** One of {@link TOOL_POLICIES}. */
export type ToolPolicy = (typeof TOOL_POLICIES)[number];

/** Receipt preview: default tail lines after the head (the head is `previewLines`). */
export const DEFAULT_PREVIEW_TAIL_LINES = 8;

/** Aging of old tool results (the `context` handler). */
export const AGING_RULES = Object.freeze({
	keepTurnsDefault: 4,
	keepTurnsMin: 1,
	keepTurnsMax: 100,
	atBytesDefault: 200_000,
	atBytesMin: 1024,
	atBytesMax: 1_073_741_824,
	atContextShareDefault: 0.5,
	atContextShareMin: 0.05,
	atContextShareMax: 1,
});

/** Bounds of a `pattern` recovery. */
export const SEARCH_RULES = Object.freeze({
	/** The pattern is 1..256 UTF-8 bytes. */
	patternMaxBytes: 256,
	/** Context lines around each match: 0..5, default 2. */
	contextLinesMax: 5,
	contextLinesDefault: 2,
	/** At most this many matches are returned. */
	maxMatches: 100,
	/** A regex search stops after this many milliseconds of the injected clock. */
	regexTimeMs: 250,
	/** A regex is tested on at most this many characters of each line. */
	regexLineChars: 4096,
});

/** Bounds of a `jsonPointer` recovery. */
export const JSON_POINTER_MAX_BYTES = 1024;

/** Call ids accepted as an aging handle (`toolCallId`): printable, no spaces, 1..256 characters. */
export const TOOL_CALL_ID_PATTERN = /^[A-Za-z0-9._:/|+=@-]{1,256}$/;

/** `context_shunt_recover` returns at most this many lines. */
export const RECOVERY_MAX_LINES = 250;

/** Reader bounds. */
export const READER_RULES = Object.freeze({
	/** The question is 1..2048 UTF-8 bytes. */
	questionMaxBytes: 2048,
	/** An `answered` answer carries 1..16 citations. */
	maxCitations: 16,
	/** `reader.answerMaxBytes` range and default. */
	answerMaxBytesMin: 1024,
	answerMaxBytesMax: 16_384,
	answerMaxBytesDefault: 8192,
	/** `reader.timeoutMs` range and default (120 s). */
	timeoutMsMin: 1000,
	timeoutMsMax: 600_000,
	timeoutMsDefault: 120_000,
});

/** The custom entry type that stores a session-level mode change. */
export const SHUNT_MODE_ENTRY_TYPE = "context-shunt.mode";

/** Opaque artifact ids: `csa_` and 24 lowercase hex digits. */
export const ARTIFACT_ID_PATTERN = /^csa_[0-9a-f]{24}$/;
/** Exception tokens: `cst_` and 12 lowercase hex digits. */
export const EXCEPTION_TOKEN_PATTERN = /^cst_[0-9a-f]{12}$/;
/** Reader source ids: `src_` and 16 lowercase hex digits. */
export const SOURCE_ID_PATTERN = /^src_[0-9a-f]{16}$/;

/** True when `value` is one of {@link SHUNT_MODES}. */
export function isShuntMode(value: unknown): value is ShuntMode {
	return typeof value === "string" && (SHUNT_MODES as readonly string[]).includes(value);
}

/** True when `value` is one of {@link SHUNT_TOOLS}. */
export function isShuntTool(value: unknown): value is ShuntTool {
	return typeof value === "string" && (SHUNT_TOOLS as readonly string[]).includes(value);
}
