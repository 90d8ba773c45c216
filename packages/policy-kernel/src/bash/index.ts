// @pi-policy/policy-kernel/bash: the one bash syntax tree of the suite. Guards parse a command line once with
// parseBashSyntax and judge the tree; simpleCommandsOf lists every simple command in it, nested ones included.
export * from "./syntax.js";
