import { defineConfig } from "tsup";
import { definePackageBuild } from "../../tooling/tsup.base.ts";

export default defineConfig(definePackageBuild({ index: "src/index.ts", cli: "src/bin.ts" }));
