// Usage: copy to /work/main/tooling/bench/<yourname>.tmp.ts, then: cd /work/main/tooling/bench && pnpm exec tsx <yourname>.tmp.ts
// Decides each command exactly as the guardian-review shell would, with real filesystem facts for CWD.
import { applyGuardianDefaults, decideFloor, floorContextFor, floorFactRequestsOf } from "../../packages/policy-kernel/src/guardian/index.ts";
import { createSearchTreeFacts } from "../../packages/guardian-review/src/search-tree-reader.ts";
import { createGitConfigFacts, mayRunGit } from "../../packages/guardian-review/src/git-config-reader.ts";
const CWD = process.env.PROBE_CWD ?? "/tmp/review4/ws";
const HOME = process.env.PROBE_HOME ?? "/tmp/review4/home";
const config = applyGuardianDefaults({});
const trees = createSearchTreeFacts();
const git = createGitConfigFacts(HOME);
export async function decide(command: string) {
  let facts: any = {};
  const ctx0 = floorContextFor(config, CWD, HOME, facts);
  const req = floorFactRequestsOf(command, ctx0);
  if (mayRunGit(command)) facts = { ...facts, ...(await git.forDirectories(req.gitDirectories, ctx0)) };
  facts = { ...facts, searchTrees: await trees.forTrees(req.searchTrees, ctx0) };
  trees.invalidate(); git.invalidate();
  return decideFloor("bash", { command }, config, floorContextFor(config, CWD, HOME, facts));
}
for (const c of process.argv.slice(2)) console.log(JSON.stringify(await decide(c)), "\t", c);
