// Loopback provider: a scripted OpenAI-compatible chat-completions server on 127.0.0.1, a models.json writer that
// points Pi at it, a bounded runner for the real `pi` CLI, and a disposable workspace fixture for such runs. Used by
// cross-process tests and pi-subagents runs.
export {
	buildModelsJson,
	DEFAULT_CONTEXT_WINDOW,
	DEFAULT_MAX_TOKENS,
	DEFAULT_MODEL_ID,
	DEFAULT_PROVIDER_ID,
	type LoopbackModelEntry,
	type ModelsJson,
	type ModelsJsonOptions,
	type WrittenModelsJson,
	writeModelsJsonFile,
} from "./models-json.ts";
export {
	finalAssistantText,
	type PiCliResult,
	type PiJsonEvent,
	parseJsonEvents,
	piCliEnv,
	type RunPiCliOptions,
	resolveInstalledPackageDir,
	resolvePiCliPath,
	resolvePiSubagentsExtensionPath,
	runPiCli,
} from "./pi-cli.ts";
export {
	type PiCliFixture,
	type PiCliFixtureOptions,
	type PiCliFixtureRunOptions,
	type PiSubagentProfile,
	renderPiSubagentProfile,
	startPiCliFixture,
} from "./pi-cli-fixture.ts";
export {
	chatMessageText,
	lastUserText,
	requestMessages,
	requestSystemPrompt,
	requestText,
	requestToolNames,
	toolResultTexts,
} from "./request-text.ts";
export {
	DEFAULT_MAX_BODY_BYTES,
	DEFAULT_REPLY_TEXT,
	type LoopbackProvider,
	type LoopbackProviderOptions,
	startLoopbackProvider,
} from "./server.ts";
export type {
	ChatCompletionBody,
	ChatContentPart,
	ChatMessage,
	ChatTool,
	LoopbackErrorSpec,
	LoopbackReply,
	LoopbackReplySource,
	LoopbackRequest,
	LoopbackRouter,
	LoopbackStep,
	LoopbackToolCall,
	LoopbackUsage,
} from "./types.ts";
