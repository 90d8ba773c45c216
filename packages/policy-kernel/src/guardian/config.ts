// guardian-review config: the TypeBox schema, defaults, and strengthen-only resolution of the global and project layers.
import { type Static, Type } from "typebox";
import {
	cloneJson,
	isPlainObject,
	mergeConfigLayers,
	parseWithSchema,
	strengthenByOrder,
	strengthenFlag,
	strengthenNumber,
	strengthenUnion,
} from "../config.js";
import { err, ok, type Result } from "../decision.js";
import { baseName, toolArgumentPaths } from "./paths.js";
import { GUARDIAN_MODES, type GuardianMode } from "./vocabulary.js";

export { GUARDIAN_MODES, type GuardianMode } from "./vocabulary.js";

/**
 * Per-tool review scopes, weakest first: `off` (never reviewed), `protected-only` (only calls touching a
 * protected path), `outside-workspace` (calls touching a path outside the workspace or a protected path),
 * `always` (every call that the floor does not decide).
 */
export const TOOL_SCOPES = ["off", "protected-only", "outside-workspace", "always"] as const;
/** One of {@link TOOL_SCOPES}. */
export type ToolScope = (typeof TOOL_SCOPES)[number];

/** What to do when a review cannot decide: `ask` the user when a UI exists (deny when headless), or `deny`. */
export const ON_UNAVAILABLE_POLICIES = ["ask", "deny"] as const;
/** One of {@link ON_UNAVAILABLE_POLICIES}. */
export type OnUnavailablePolicy = (typeof ON_UNAVAILABLE_POLICIES)[number];

/** Bounds of `reviewer.timeoutMs`. */
export const REVIEWER_TIMEOUT_RANGE = { min: 5_000, max: 180_000 } as const;
/** Bounds of `reviewer.maxOutputTokens`. */
export const REVIEWER_MAX_OUTPUT_TOKENS_RANGE = { min: 64, max: 8_192 } as const;

/** The most `protectedPaths` entries one layer may hold (the defaults are not counted). */
export const MAX_PROTECTED_PATH_ENTRIES = 512;

/**
 * The default protected globs (see the README for their matching rules): secrets in the workspace (environment
 * files, git's folder, private keys and key stores, credential files by name, Terraform state), shell and tool
 * histories, the credential stores of common tools in the home directory (SSH, cloud CLIs, package registries,
 * containers, other coding agents' sign-ins, password stores and keyrings, browser profiles), the system's password
 * hashes and process environments. Pi's `read` tool reads anywhere but these by default, so the list is what keeps a
 * stock Pi session away from a credential outside the workspace.
 */
export const DEFAULT_PROTECTED_PATHS = [
	// In the workspace and anywhere else, by name.
	".env*",
	".git/",
	// Mercurial's and Jujutsu's folders, like git's: a write there runs programs (an `.hg/hgrc` hook runs at the
	// user's next `hg status`), and a read finds remote URLs with credentials (`.hg/hgrc` `[auth]` and `[paths]`,
	// the git store under `.jj/repo/store/git`). A thirty-fifth review's follow-up.
	".hg/",
	".jj/",
	// A bare repository in the workspace (`backup/app.git/`, a `git clone --mirror https://TOKEN@…`): its config holds
	// the remote URL, token and all, and its hooks run at the next push to it (a thirty-sixth review). Not `.git`
	// itself, which `?` keeps out.
	"?*.git/",
	"*.pem",
	"id_*",
	"*.key",
	"*.p12",
	"*.pfx",
	"*.jks",
	"*.keystore",
	"*.ppk",
	"*.kdbx",
	"wallet.dat",
	".netrc",
	"_netrc",
	".npmrc",
	".pypirc",
	".git-credentials",
	// Mercurial's user and system config (`~/.hgrc`, `~/.config/hg/hgrc`, `/etc/mercurial/hgrc`): `[auth]` passwords.
	".hgrc",
	"hgrc",
	".pgpass",
	".my.cnf",
	".s3cfg",
	".boto",
	".vault-token",
	".dockercfg",
	".htpasswd",
	"*.tfstate",
	"*.tfstate.backup",
	"*.ovpn",
	".dev.vars",
	"private_key",
	"credentials.json",
	"token.json",
	"service-account*.json",
	"kaggle.json",
	".mylogin.cnf",
	".sentryclirc",
	".modal.toml",
	".Xauthority",
	"krb5cc_*",
	// Secret files tools keep in a project, named by the tool's own docs (the thirty-sixth and thirty-seventh
	// reviews): Streamlit's and Rails' secrets, act's `.secrets`, Sentry's and Android's signing properties, Terraform
	// variables and backend files, Compose `env_file`s, Firebase and Google keys, MCP configs with tokens in `env`,
	// package-manager auth in a project (Bundler, Yarn, NuGet, pip, Docker), dbt and DVC credentials, kubeconfigs,
	// aider's keys.
	"secrets.toml",
	"secrets.yml",
	"secrets.yaml",
	".secrets",
	"sentry.properties",
	"key.properties",
	"keystore.properties",
	"local.properties",
	"*.tfvars",
	"*.tfvars.json",
	"*.tfbackend",
	"backend.hcl",
	"*.env",
	"*firebase-adminsdk*.json",
	".runtimeconfig.json",
	"application_default_credentials.json",
	"mcp.json",
	".mcp.json",
	".claude/settings.local.json",
	"**/.claude/settings.local.json",
	".bundle/config",
	"**/.bundle/config",
	".aptos/config.yaml",
	"**/.aptos/config.yaml",
	".yarnrc.yml",
	"[Nn]u[Gg]et.[Cc]onfig",
	"pip.conf",
	"pip.ini",
	".docker/config.json",
	"**/.docker/config.json",
	"profiles.yml",
	".dvc/config.local",
	"**/.dvc/config.local",
	"kubeconfig*",
	".aider.conf.yml",
	// Shell and REPL histories.
	".bash_history",
	".zsh_history",
	".sh_history",
	".history",
	"fish_history",
	".python_history",
	".node_repl_history",
	".psql_history",
	".mysql_history",
	".lesshst",
	"lesshst",
	"*_history",
	"*_history.txt",
	"*.history",
	".*history",
	".viminfo",
	".dbshell",
	".histfile",
	".octave_hist",
	"history.sqlite",
	"*.shada",
	"~/.zsh_sessions",
	"~/.local/share/powershell/PSReadLine",
	"~/.config/nushell/history.txt",
	"~/.config/pgcli/history",
	"~/.julia/logs/repl_history.jl",
	"~/.local/share/atuin",
	"~/.local/share/xonsh",
	"~/.local/state/zsh/history",
	"~/.local/state/bash/history",
	// Credential stores in the home directory.
	"~/.ssh",
	"~/.aws",
	"~/.config/gh",
	"~/.docker/config.json",
	"~/.kube/config*",
	"~/.gnupg",
	"~/.config/gcloud",
	"~/.azure",
	"~/.oci",
	"~/.config/doctl",
	"~/.cargo/credentials",
	"~/.cargo/credentials.toml",
	"~/.gem/credentials",
	"~/.config/hub",
	"~/.terraform.d/credentials.tfrc.json",
	"~/.terraformrc",
	"~/.config/git/credentials",
	"~/.config/containers/auth.json",
	"~/.config/glab-cli",
	"~/.m2/settings.xml",
	"~/.m2/settings-security.xml",
	"~/.gradle/gradle.properties",
	"~/.config/rclone",
	"~/.composer/auth.json",
	"~/.config/composer/auth.json",
	"~/.pulumi/credentials.json",
	"~/.databrickscfg",
	"~/.dbt/profiles.yml",
	"~/.snowflake",
	"~/.config/stripe",
	"~/.fly",
	"~/.vercel",
	"~/.local/share/com.vercel.cli",
	"~/Library/Application Support/com.vercel.cli",
	"~/.netlify/config.json",
	"~/.config/netlify",
	"~/Library/Preferences/netlify",
	"~/.wrangler",
	"~/.config/.wrangler",
	"~/.config/wrangler",
	"~/Library/Preferences/.wrangler",
	"~/.yarnrc.yml",
	"~/.huggingface/token",
	"~/.cache/huggingface/token",
	"~/.cache/huggingface/stored_tokens",
	"~/.local/share/uv/credentials",
	"~/.config/pypoetry/auth.toml",
	"~/.nuget/NuGet/NuGet.Config",
	"~/.bundle/config",
	"~/.config/dart/pub-tokens.json",
	"~/.jfrog",
	"~/.ansible/galaxy_token",
	"~/.config/configstore",
	"~/.config/hcloud",
	"~/.config/helm/registry",
	"~/.config/helm/repositories.yaml",
	"~/.config/ngrok",
	"~/.mc/config.json",
	"~/.circleci/cli.yml",
	"~/.railway",
	"~/.supabase/access-token",
	"~/.expo/state.json",
	"~/.bluemix",
	"~/.aliyun",
	"~/.tccli",
	"~/.config/linode-cli",
	"~/.config/scw",
	"~/.doppler",
	"~/.config/tea",
	"~/.kube/cache/oidc-login",
	"~/.cloudflared",
	"~/.subversion/auth",
	"~/.config/sops",
	"~/.password-store",
	"~/.local/share/keyrings",
	"~/Library/Keychains",
	"~/.wakatime.cfg",
	"~/.authinfo",
	"~/.msmtprc",
	"~/.config/msmtp",
	"~/.smbcredentials",
	"~/.vnc/passwd",
	"~/.config/gspread",
	"~/.android/adbkey",
	"~/.ngrok2",
	"~/Library/Application Support/ngrok",
	"~/AppData/Local/ngrok",
	"**/.dbeaver/credentials-config.json",
	"~/.local/share/DBeaverData",
	"~/Library/DBeaverData",
	"~/AppData/Roaming/DBeaverData",
	"~/.config/remmina",
	"~/.local/share/remmina",
	"~/.config/solana",
	"~/.near-credentials",
	"~/.aptos/config.yaml",
	"~/.ethereum/keystore",
	"~/.foundry/keystores",
	"~/.local/share/jupyter/runtime",
	"~/Library/Jupyter/runtime",
	"~/.config/openstack",
	"~/.python-gitlab.cfg",
	"~/.config/python-gitlab.cfg",
	"~/.config/nix/nix.conf",
	"~/.config/nix/access-tokens.conf",
	"~/.bunfig.toml",
	"~/.config/.bunfig.toml",
	"~/.config/hardhat-nodejs",
	"~/Library/Preferences/hardhat-nodejs",
	"~/.config/argocd",
	"~/.argocd",
	"~/.talos",
	"~/.cf/config.json",
	"~/.fetchmailrc",
	"~/.config/cachix",
	// Other coding agents' sign-ins, and their user-level MCP server configs, which hold the servers' tokens in `env`.
	"~/.codex/auth.json",
	"~/.claude/.credentials.json",
	"~/.gemini/oauth_creds.json",
	"~/.config/github-copilot",
	"~/.local/share/opencode/auth.json",
	"~/.qwen/oauth_creds.json",
	"~/.aider/oauth-keys.env",
	"~/.local/share/amp/secrets.json",
	"~/.config/io.datasette.llm/keys.json",
	"~/.continue/config.json",
	"~/.continue/config.yaml",
	"~/.claude.json",
	"~/.claude.json.backup",
	"~/.claude/backups",
	"~/.config/Claude/claude_desktop_config.json",
	"~/Library/Application Support/Claude/claude_desktop_config.json",
	"~/AppData/Roaming/Claude/claude_desktop_config.json",
	"~/.codeium/windsurf/mcp_config.json",
	"~/.gemini/settings.json",
	"~/.codex/config.toml",
	"~/.config/Code/User/globalStorage",
	"~/Library/Application Support/Code/User/globalStorage",
	"~/.config/Cursor/User/globalStorage",
	"~/Library/Application Support/Cursor/User/globalStorage",
	"~/.copilot/mcp-config.json",
	"~/.qwen/settings.json",
	"~/.config/opencode/opencode.json",
	"~/.config/opencode/opencode.jsonc",
	"~/.config/zed/settings.json",
	"~/.config/aichat",
	"~/.config/shell_gpt",
	// Browser and mail profiles: saved passwords and session cookies, also inside snap and Flatpak folders.
	"~/.mozilla",
	".mozilla/",
	".thunderbird/",
	".purple/",
	"~/snap",
	"~/.var/app",
	"~/.config/microsoft-edge",
	"~/.config/vivaldi",
	"~/.config/opera",
	"~/Library/Application Support/Microsoft Edge",
	"~/.config/filezilla",
	"~/.config/Bitwarden CLI",
	"~/.config/google-chrome",
	"~/.config/chromium",
	"~/.config/BraveSoftware",
	"~/Library/Application Support/Google/Chrome",
	"~/Library/Application Support/Firefox",
	// The system's password hashes; a process's environment (Pi's, `/proc/self/environ`, holds the provider keys).
	"/etc/shadow",
	"/etc/gshadow",
	"/proc/**/environ",
	// Container secrets: a Kubernetes pod's service-account token, Docker Compose and Swarm secrets (a sixty-fifth
	// review).
	"/run/secrets",
	"/var/run/secrets",
] as const;

/**
 * Pi's own folders, protected whatever `protectedPaths` says, because writing there runs code or instructions at
 * the next start or `/reload`: a project's `.pi/` (settings such as `shellCommandPrefix`, MCP servers, extensions,
 * skills, prompts, system prompt, and this suite's policy files; Pi loads them once the project is trusted), and
 * `.agents/` (project skills). As `name/` globs they match at any depth, so `~/.pi/agent` (auth.json holds the
 * provider keys) is covered too; the extension adds the agent directory when it lives elsewhere.
 */
export const PI_RESOURCE_PROTECTED_PATHS = [".pi/", ".agents/"] as const;

/**
 * The context files Pi loads into the system prompt of every session started in their folder or below, whatever
 * the project trust (host `resource-loader.js`: `AGENTS.override.md`, `AGENTS.md`, `CLAUDE.md`, in either case of
 * `.md`). Writing one plants instructions for later sessions, so a write is reviewed; reading one is not.
 * Lower case: names are compared without regard to case, as on macOS.
 */
export const PI_CONTEXT_FILE_NAMES = ["agents.override.md", "agents.md", "claude.md"] as const;

/** True when the last part of `path` is one of {@link PI_CONTEXT_FILE_NAMES}. */
export function isPiContextFile(path: string): boolean {
	return (PI_CONTEXT_FILE_NAMES as readonly string[]).includes(baseName(path).toLowerCase());
}

/**
 * The default scopes of the built-in tools. Pi's `read`, `find` and `ls` are `protected-only`: a read of
 * `~/.ssh/id_ed25519` or `.env` by the read tool is reviewed like `cat` of it. `grep` is `off`: Pi's grep tool
 * reads hidden files below its path, so judged it would send every search of the project root (which holds `.git/`)
 * to review; `protected-only` opts in. Pi's `powershell` runs programs as bash does, and the floor does not parse its
 * language: `always`, every call reviewed (a sixty-fifth review). A tool that is not built in is `always` unless its
 * annotations say read-only (see {@link resolveToolScope}).
 */
export const DEFAULT_TOOL_SCOPES: Readonly<Record<string, ToolScope>> = Object.freeze({
	bash: "always",
	write: "outside-workspace",
	edit: "outside-workspace",
	read: "protected-only",
	find: "protected-only",
	ls: "protected-only",
	powershell: "always",
});

/** Pi's built-in tools: their `sourceInfo.path` is `builtin:<name>`. */
export const BUILTIN_TOOL_NAMES = ["read", "bash", "edit", "write", "grep", "find", "ls", "powershell"] as const;

/** A tool name, or a glob of tool names where `*` matches any run of characters and `?` one character. */
const ToolNamePattern = "^[A-Za-z0-9_*?][A-Za-z0-9_.:*?-]{0,63}$";
/** A trusted command: the words it starts with, as the user would type them. */
const TrustedCommandPattern = Type.String({ minLength: 1, maxLength: 200, pattern: "\\S" });
const CommandPattern = Type.String({ minLength: 1, maxLength: 200 });
/**
 * An additional workspace directory: `~`, `~/dir` or `/dir`, without glob characters. `/` itself is rejected (it
 * would make every path a workspace path).
 */
const AdditionalDirectoryPattern = "^(?:~|~/[^*?\\[\\]]*|/[^*?\\[\\]]*[^*?\\[\\]/][^*?\\[\\]]*)$";

/** The JSON schema of `policy/guardian-review.json`. Every key is optional; see {@link resolveGuardianReviewConfig}. */
export const GuardianReviewConfigSchema = Type.Object(
	{
		mode: Type.Optional(Type.Enum([...GUARDIAN_MODES])),
		tools: Type.Optional(
			Type.Record(Type.String({ pattern: ToolNamePattern }), Type.Enum([...TOOL_SCOPES]), {
				maxProperties: 64,
				additionalProperties: false,
			}),
		),
		protectedPaths: Type.Optional(
			Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: MAX_PROTECTED_PATH_ENTRIES }),
		),
		trustedCommands: Type.Optional(Type.Array(TrustedCommandPattern, { maxItems: 100 })),
		additionalDirectories: Type.Optional(
			Type.Array(
				Type.String({
					minLength: 1,
					maxLength: 400,
					pattern: AdditionalDirectoryPattern,
					formatHint: 'a folder such as "~/notes" or "/srv/data" (absolute or under ~, no glob characters, not "/")',
				}),
				{ maxItems: 32 },
			),
		),
		floor: Type.Optional(
			Type.Object(
				{
					hardDeny: Type.Optional(Type.Array(CommandPattern, { maxItems: 100 })),
					readOnly: Type.Optional(Type.Array(CommandPattern, { maxItems: 100 })),
				},
				{ additionalProperties: false },
			),
		),
		reviewer: Type.Optional(
			Type.Object(
				{
					model: Type.Optional(
						Type.String({
							pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}/[A-Za-z0-9][A-Za-z0-9._:@+/-]{0,199}$",
							formatHint: '"provider/model-id", e.g. "anthropic/claude-haiku-4-5"',
						}),
					),
					fallbackToSessionModel: Type.Optional(Type.Boolean()),
					timeoutMs: Type.Optional(
						Type.Integer({ minimum: REVIEWER_TIMEOUT_RANGE.min, maximum: REVIEWER_TIMEOUT_RANGE.max }),
					),
					maxOutputTokens: Type.Optional(
						Type.Integer({
							minimum: REVIEWER_MAX_OUTPUT_TOKENS_RANGE.min,
							maximum: REVIEWER_MAX_OUTPUT_TOKENS_RANGE.max,
						}),
					),
				},
				{ additionalProperties: false },
			),
		),
		onUnavailable: Type.Optional(Type.Enum([...ON_UNAVAILABLE_POLICIES])),
		reviewLog: Type.Optional(Type.Boolean()),
	},
	{ additionalProperties: false },
);

/** A raw, validated config layer. */
export type GuardianReviewConfigInput = Static<typeof GuardianReviewConfigSchema>;

/** The effective config, with every default applied. */
export interface GuardianReviewConfig {
	readonly mode: GuardianMode;
	/** Scope per tool name or tool-name glob; see {@link resolveToolScope} for tools not listed. */
	readonly tools: Readonly<Record<string, ToolScope>>;
	readonly protectedPaths: readonly string[];
	/**
	 * Workspace commands allowed without a model (opt-in, global config only), matched by the floor on the
	 * parsed command, never by substring. Empty by default.
	 */
	readonly trustedCommands: readonly string[];
	/**
	 * Folders the floor treats as the workspace besides Pi's working directory (opt-in, global config only), as
	 * written (`~/notes`, `/srv/shared`): reads and writes there are judged like those in the workspace, and
	 * protected paths still apply. Empty by default.
	 */
	readonly additionalDirectories: readonly string[];
	readonly floor: {
		/** Extra hard-deny command patterns, on top of the built-in rules (which are always on). */
		readonly hardDeny: readonly string[];
		/** Extra read-only command patterns, on top of the built-in allowlist. */
		readonly readOnly: readonly string[];
	};
	readonly reviewer: {
		/** `"provider/id"`, or undefined to use the session model (when the fallback is on). */
		readonly model: string | undefined;
		readonly fallbackToSessionModel: boolean;
		readonly timeoutMs: number;
		readonly maxOutputTokens: number;
	};
	readonly onUnavailable: OnUnavailablePolicy;
	readonly reviewLog: boolean;
}

/** The defaults: mode off, bash always, write and edit outside the workspace, the default protected paths. */
export const DEFAULT_GUARDIAN_REVIEW_CONFIG: GuardianReviewConfig = Object.freeze({
	mode: "off",
	tools: DEFAULT_TOOL_SCOPES,
	protectedPaths: DEFAULT_PROTECTED_PATHS,
	trustedCommands: Object.freeze([]) as readonly string[],
	additionalDirectories: Object.freeze([]) as readonly string[],
	floor: Object.freeze({ hardDeny: [], readOnly: [] }),
	reviewer: Object.freeze({ model: undefined, fallbackToSessionModel: true, timeoutMs: 60_000, maxOutputTokens: 1024 }),
	onUnavailable: "ask",
	reviewLog: false,
}) as GuardianReviewConfig;

/**
 * The protected globs of a layer's `protectedPaths` entries: the defaults ({@link DEFAULT_PROTECTED_PATHS}), less
 * each default an entry `!glob` names, plus every other entry. So `["secrets/"]` adds a glob and keeps every
 * default, and `["!*.key"]` drops one default (Keynote files are `.key` too). An entry that names a glob both ways
 * keeps it; `!` before a glob that is not a default changes nothing.
 */
export function protectedPathsWithDefaults(entries: readonly string[] | undefined): string[] {
	const removed = new Set<string>();
	const added: string[] = [];
	for (const entry of entries ?? []) {
		if (entry.startsWith("!")) removed.add(entry.slice(1));
		else if (!added.includes(entry)) added.push(entry);
	}
	const kept = DEFAULT_PROTECTED_PATHS.filter((glob) => !removed.has(glob) || added.includes(glob));
	return [...kept, ...added.filter((glob) => !(kept as readonly string[]).includes(glob))];
}

/**
 * The `protectedPaths` entries that give `globs` back through {@link protectedPathsWithDefaults}: the globs that are
 * not defaults, then `!glob` for each default they lack. The defaults they keep are left implied, so a layer's
 * entries stay within {@link MAX_PROTECTED_PATH_ENTRIES} however long the default list grows.
 */
function protectedPathEntries(globs: readonly string[]): string[] {
	const defaults: readonly string[] = DEFAULT_PROTECTED_PATHS;
	return [
		...globs.filter((glob) => !defaults.includes(glob)),
		...defaults.filter((glob) => !globs.includes(glob)).map((glob) => `!${glob}`),
	];
}

/**
 * Applies the defaults to a validated layer. `tools` entries are added to the default scopes (a layer may set a
 * default tool to `off`); `protectedPaths` entries add to the default globs, and `!glob` drops a default (see
 * {@link protectedPathsWithDefaults}).
 */
export function applyGuardianDefaults(input: GuardianReviewConfigInput | undefined): GuardianReviewConfig {
	const layer = input ?? {};
	const defaults = DEFAULT_GUARDIAN_REVIEW_CONFIG;
	return {
		mode: layer.mode ?? defaults.mode,
		tools: { ...defaults.tools, ...(layer.tools ?? {}) },
		protectedPaths: protectedPathsWithDefaults(layer.protectedPaths),
		trustedCommands: [...(layer.trustedCommands ?? defaults.trustedCommands)],
		additionalDirectories: [...(layer.additionalDirectories ?? defaults.additionalDirectories)],
		floor: {
			hardDeny: [...(layer.floor?.hardDeny ?? [])],
			readOnly: [...(layer.floor?.readOnly ?? [])],
		},
		reviewer: {
			model: layer.reviewer?.model ?? defaults.reviewer.model,
			fallbackToSessionModel: layer.reviewer?.fallbackToSessionModel ?? defaults.reviewer.fallbackToSessionModel,
			timeoutMs: layer.reviewer?.timeoutMs ?? defaults.reviewer.timeoutMs,
			maxOutputTokens: layer.reviewer?.maxOutputTokens ?? defaults.reviewer.maxOutputTokens,
		},
		onUnavailable: layer.onUnavailable ?? defaults.onUnavailable,
		reviewLog: layer.reviewLog ?? defaults.reviewLog,
	};
}

const strengthenScope = strengthenByOrder(TOOL_SCOPES);

/** True for the name of one of Pi's built-in tools ({@link BUILTIN_TOOL_NAMES}). */
export function isBuiltinToolName(name: string): boolean {
	return (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
}

/** The default scope of a built-in tool ({@link DEFAULT_TOOL_SCOPES}, else `off`); undefined for another name. */
function builtinDefaultScope(name: string): ToolScope | undefined {
	if (Object.hasOwn(DEFAULT_TOOL_SCOPES, name)) return DEFAULT_TOOL_SCOPES[name] as ToolScope;
	return isBuiltinToolName(name) ? "off" : undefined;
}

/**
 * The scope the global layer gives a project's tool key before the project's own entry: its exact key; else a
 * default key ({@link DEFAULT_TOOL_SCOPES}, which the defaults add as exact keys); else, for a tool name, the first
 * global glob that matches it; else a built-in tool's default (`off`). Undefined when annotations would decide (a
 * tool that is not built in, or a glob key).
 */
function globalToolScope(base: Record<string, unknown>, key: string): unknown {
	if (Object.hasOwn(base, key)) return base[key];
	if (Object.hasOwn(DEFAULT_TOOL_SCOPES, key)) return DEFAULT_TOOL_SCOPES[key];
	if (key.includes("*") || key.includes("?")) return undefined;
	for (const glob of Object.keys(base)) {
		if ((glob.includes("*") || glob.includes("?")) && toolNameGlobMatches(glob, key)) return base[glob];
	}
	return builtinDefaultScope(key);
}

/**
 * Tool scopes from a project layer, which may only raise what the global layer gives ({@link globalToolScope}): a
 * key it has, or a tool one of its globs covers (`"grep": "protected-only"` under a global `"*": "always"` stays
 * `always`: an exact key would otherwise beat the glob; a twenty-fifth review), or a built-in tool's default. Any
 * other key (a tool that is not built in, or a glob, whose default may be `always`) is taken only at `always`.
 */
function strengthenToolScopes(globalValue: unknown, projectValue: unknown): unknown {
	if (!isPlainObject(projectValue)) return globalValue;
	const base = isPlainObject(globalValue) ? globalValue : {};
	const result: Record<string, unknown> = { ...base };
	for (const [key, scope] of Object.entries(projectValue)) {
		const before = globalToolScope(base, key);
		const merged = before !== undefined ? strengthenScope(before, scope) : scope === "always" ? "always" : undefined;
		if (merged !== undefined) {
			Object.defineProperty(result, key, { value: merged, enumerable: true, writable: true, configurable: true });
		}
	}
	return result;
}

const unionOfEntries = strengthenUnion();

/** A project's `protectedPaths` may only add globs: its `!glob` entries (which would drop a default) are ignored. */
function strengthenProtectedPaths(globalValue: unknown, projectValue: unknown): unknown {
	const adds = Array.isArray(projectValue)
		? projectValue.filter((entry) => !(typeof entry === "string" && entry.startsWith("!")))
		: projectValue;
	return unionOfEntries(globalValue, adds);
}

/**
 * The strengthen-only rules for a project layer. A project may raise `mode`, widen tool scopes, add protected
 * paths and hard-deny patterns, shorten the timeout, turn `onUnavailable` to `deny`, and turn on the review
 * log. It may not add read-only patterns or trusted commands, change the reviewer model or its fallback, or
 * lower anything.
 */
export const GUARDIAN_STRENGTHEN_RULES = Object.freeze({
	mode: strengthenByOrder(GUARDIAN_MODES),
	tools: strengthenToolScopes,
	protectedPaths: strengthenProtectedPaths,
	"floor.hardDeny": strengthenUnion(),
	"reviewer.timeoutMs": strengthenNumber("lower"),
	onUnavailable: strengthenByOrder(ON_UNAVAILABLE_POLICIES),
	reviewLog: strengthenFlag(true),
});

/** The outcome of {@link resolveGuardianReviewConfig}. */
export interface ResolvedGuardianReviewConfig {
	readonly config: GuardianReviewConfig;
	/** Concise errors of invalid layers (layer and key path only). Empty when every present layer was valid. */
	readonly errors: readonly string[];
	/** Project values ignored because they would weaken the global config. */
	readonly ignored: number;
	/** True when an invalid layer forced `enforce` (authorization fails closed). */
	readonly failedClosed: boolean;
}

/**
 * Resolves the effective config from the raw global and project layers (parsed JSON, unvalidated). Each layer
 * is validated; the global layer gets the defaults; the project layer may only strengthen it. An invalid layer
 * is dropped and the mode is raised to `enforce`, because authorization fails closed. Never throws.
 */
export function resolveGuardianReviewConfig(
	globalLayer: unknown,
	projectLayer: unknown,
): Result<ResolvedGuardianReviewConfig> {
	try {
		const errors: string[] = [];
		const globalParsed =
			globalLayer === undefined ? undefined : parseWithSchema(GuardianReviewConfigSchema, globalLayer);
		const projectParsed =
			projectLayer === undefined ? undefined : parseWithSchema(GuardianReviewConfigSchema, projectLayer);
		if (globalParsed && !globalParsed.ok) errors.push(`global ${globalParsed.error}`);
		if (projectParsed && !projectParsed.ok) errors.push(`project ${projectParsed.error}`);
		const base = applyGuardianDefaults(globalParsed?.ok ? globalParsed.value : undefined);
		let merged: GuardianReviewConfig = base;
		let ignored = 0;
		if (projectParsed?.ok) {
			const result = mergeConfigLayers(toRaw(base), projectParsed.value, {
				mode: "strengthen-only",
				rules: GUARDIAN_STRENGTHEN_RULES,
			});
			ignored = result.ignored;
			const checked = parseWithSchema(GuardianReviewConfigSchema, result.value);
			merged = checked.ok ? applyGuardianDefaults(checked.value) : base;
		}
		const failedClosed = errors.length > 0;
		const config: GuardianReviewConfig = failedClosed ? { ...merged, mode: "enforce" } : merged;
		return ok({ config, errors, ignored, failedClosed });
	} catch {
		return err("config: invalid");
	}
}

/** The effective config as a raw layer (for merging and display). */
function toRaw(config: GuardianReviewConfig): GuardianReviewConfigInput {
	const raw: Record<string, unknown> = {
		mode: config.mode,
		tools: cloneJson({ ...config.tools }),
		protectedPaths: protectedPathEntries(config.protectedPaths),
		trustedCommands: [...config.trustedCommands],
		additionalDirectories: [...config.additionalDirectories],
		floor: { hardDeny: [...config.floor.hardDeny], readOnly: [...config.floor.readOnly] },
		reviewer: {
			fallbackToSessionModel: config.reviewer.fallbackToSessionModel,
			timeoutMs: config.reviewer.timeoutMs,
			maxOutputTokens: config.reviewer.maxOutputTokens,
			...(config.reviewer.model === undefined ? {} : { model: config.reviewer.model }),
		},
		onUnavailable: config.onUnavailable,
		reviewLog: config.reviewLog,
	};
	return isPlainObject(raw) ? (raw as GuardianReviewConfigInput) : {};
}

/** The scope configured for `toolName`: its exact key, else the first glob key matching it, else undefined. */
export function configuredToolScope(config: GuardianReviewConfig, toolName: string): ToolScope | undefined {
	if (Object.hasOwn(config.tools, toolName)) return config.tools[toolName] as ToolScope;
	for (const key of Object.keys(config.tools)) {
		if ((key.includes("*") || key.includes("?")) && toolNameGlobMatches(key, toolName)) return config.tools[key];
	}
	return undefined;
}

/**
 * The scope of `toolName` under `config` when nothing is known about the tool: its configured scope, else
 * `off`. The pipeline passes the floor a config already resolved with {@link resolveToolScope}.
 */
export function toolScopeFor(config: GuardianReviewConfig, toolName: string): ToolScope {
	return configuredToolScope(config, toolName) ?? "off";
}

/** What Pi reports about a tool (`pi.getAllTools()`): whether it is built in, and its MCP-style hints. */
export interface ToolFacts {
	/** True for Pi's own tools (`sourceInfo.path` is `builtin:<name>`). */
	readonly builtin: boolean;
	readonly readOnlyHint?: boolean;
	readonly destructiveHint?: boolean;
	/**
	 * The package of the extension that registered the tool, when the shell recognizes it from the tool's
	 * `sourceInfo.path` (one of the keys of {@link READ_ONLY_TOOL_ACTIONS}).
	 */
	readonly extensionPackage?: string;
}

/**
 * Calls known to be read-only although the tool carries no annotations, by extension package, tool and `action`
 * argument. pi-subagents 0.67.0's `subagent` tool launches children (no `action`, `resume`, `steer`, the
 * `schedule.run*` actions) and manages agents and runs; these of its actions only list or show: agents, models,
 * runs' status, the doctor report, missions, schedules.
 */
export const READ_ONLY_TOOL_ACTIONS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> =
	Object.freeze({
		"pi-subagents": Object.freeze({
			subagent: Object.freeze([
				"list",
				"get",
				"models",
				"children.list",
				"guide",
				"status",
				"doctor",
				"mission.list",
				"mission.show",
				"schedule.list",
				"schedule.show",
				"schedule.history",
				"lane.status",
				"inspector.status",
				"project.status",
				"watchdog.status",
				"refine.show",
			]),
		}),
	});

/** True when the call is one of {@link READ_ONLY_TOOL_ACTIONS} for the tool's package. */
export function isReadOnlyToolAction(toolName: string, facts: ToolFacts, input: unknown): boolean {
	if (facts.builtin || facts.extensionPackage === undefined) return false;
	const byTool = Object.hasOwn(READ_ONLY_TOOL_ACTIONS, facts.extensionPackage)
		? READ_ONLY_TOOL_ACTIONS[facts.extensionPackage]
		: undefined;
	const actions = byTool !== undefined && Object.hasOwn(byTool, toolName) ? byTool[toolName] : undefined;
	if (actions === undefined || typeof input !== "object" || input === null || Array.isArray(input)) return false;
	const action = (input as Record<string, unknown>).action;
	return typeof action === "string" && actions.includes(action);
}

/**
 * The effective scope of one tool call:
 * - a configured key (exact, then the first matching glob) decides, except that a tool whose annotations say
 *   destructive is raised to `always` from `protected-only` or `outside-workspace`;
 * - otherwise a built-in tool takes its default ({@link DEFAULT_TOOL_SCOPES}, else `off`);
 * - otherwise a tool that is not built in is `always`, unless its annotations say read-only and not destructive
 *   (or the call is one of {@link READ_ONLY_TOOL_ACTIONS}, such as pi-subagents' `subagent` with `action: "status"`):
 *   then `protected-only` when the call holds a path (see {@link toolArgumentPaths}: an MCP `read_text_file` of
 *   `~/.ssh/id_ed25519`, `read_multiple_files` with `.env` among its `paths`, or `{ source: "~/.aws/credentials" }`
 *   is reviewed like `read` of it), else `off`. Missing hints take the MCP
 *   defaults (not read-only, may be destructive).
 */
export function resolveToolScope(
	config: GuardianReviewConfig,
	toolName: string,
	facts: ToolFacts,
	input?: unknown,
): ToolScope {
	const destructive = !facts.builtin && facts.destructiveHint === true;
	const configured = configuredToolScope(config, toolName);
	if (configured !== undefined) return destructive && configured !== "off" ? "always" : configured;
	if (facts.builtin) return builtinDefaultScope(toolName) ?? "off";
	if (!isUnconfiguredReadOnlyTool(config, toolName, facts, input)) return "always";
	const found = toolArgumentPaths(input);
	return found === "unjudgeable" || found.named.length > 0 || found.shaped.length > 0 ? "protected-only" : "off";
}

/**
 * True when a call's scope comes from its tool being read-only: no configured key names the tool, it is not built
 * in, and its annotations say read-only and not destructive (or the call is one of {@link READ_ONLY_TOOL_ACTIONS}).
 * Such a call is judged by every path it holds, path-shaped values under other keys included (see
 * {@link toolArgumentPaths}), and allowed when none is protected.
 */
export function isUnconfiguredReadOnlyTool(
	config: GuardianReviewConfig,
	toolName: string,
	facts: ToolFacts,
	input?: unknown,
): boolean {
	if (facts.builtin || facts.destructiveHint === true || configuredToolScope(config, toolName) !== undefined)
		return false;
	return facts.readOnlyHint === true || isReadOnlyToolAction(toolName, facts, input);
}

/** Full-match of a tool-name glob (`*` any run, `?` one character); linear, no regular expression. */
export function toolNameGlobMatches(glob: string, name: string): boolean {
	let g = 0;
	let n = 0;
	let star = -1;
	let mark = 0;
	while (n < name.length) {
		const c = glob[g];
		if (c === "?" || (c !== undefined && c !== "*" && c === name[n])) {
			g++;
			n++;
		} else if (c === "*") {
			star = g++;
			mark = n;
		} else if (star >= 0) {
			g = star + 1;
			n = ++mark;
		} else return false;
	}
	while (glob[g] === "*") g++;
	return g === glob.length;
}

/** Splits `"provider/id"` into its parts, or undefined when malformed. */
export function parseModelRef(ref: string | undefined): { provider: string; id: string } | undefined {
	if (typeof ref !== "string") return undefined;
	const slash = ref.indexOf("/");
	if (slash <= 0 || slash === ref.length - 1) return undefined;
	return { provider: ref.slice(0, slash), id: ref.slice(slash + 1) };
}

/**
 * Keys a trusted project file may not set at all (the config lifecycle ignores them there): adding read-only
 * patterns, trusted commands or workspace directories would weaken the floor, and the reviewer model, its fallback and its output budget
 * are the global file's choice. Every other key has a strengthen rule in {@link GUARDIAN_STRENGTHEN_RULES}.
 */
export const GUARDIAN_PROJECT_LOCKED_KEYS = Object.freeze([
	"floor.readOnly",
	"trustedCommands",
	"additionalDirectories",
	"reviewer.model",
	"reviewer.fallbackToSessionModel",
	"reviewer.maxOutputTokens",
] as const);

/**
 * The defaults as a raw layer, for the config lifecycle to put under the global file, so that a project file's
 * strengthen rules compare against effective values (a project cannot weaken a default the global file left out).
 */
export function guardianDefaultsLayer(): GuardianReviewConfigInput {
	return toRaw(DEFAULT_GUARDIAN_REVIEW_CONFIG);
}

/**
 * The effective config of a merged raw layer (global over {@link guardianDefaultsLayer}, then the project file):
 * validated, with every default applied. Errors name key paths only. Never throws.
 */
export function resolveGuardianReviewLayer(merged: unknown): Result<GuardianReviewConfig> {
	if (merged === undefined) return ok(applyGuardianDefaults(undefined));
	const parsed = parseWithSchema(GuardianReviewConfigSchema, merged);
	return parsed.ok ? ok(applyGuardianDefaults(parsed.value)) : parsed;
}
