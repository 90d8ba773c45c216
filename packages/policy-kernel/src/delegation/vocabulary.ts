// delegation-policy's validation causes. Import-free, so the shared audit module spreads them into the
// delegation-policy audit categories without an import cycle.

/** Why a role or axis is invalid. These are also the audit categories of `validation-failed`. */
export const DELEGATION_CAUSES = [
	"role-absent",
	"model-missing",
	"model-unavailable",
	"model-out-of-scope",
	"model-unauthenticated",
	"no-enabled-role",
	"thinking-unsupported",
] as const;
/** One of {@link DELEGATION_CAUSES}. */
export type DelegationCause = (typeof DELEGATION_CAUSES)[number];
