// Builds the live panel's bundle (npm run build) and stamps its first line with a digest of
// everything it is built from: the sources, this script and the locked packages. The test
// suite computes the same digest (tests/pages/test_live_panel.py), so a bundle not rebuilt
// after a change of its sources fails there, on machines without Node too.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { build } from "esbuild";

const OUTFILE = "../../../../static/live_panel/live_panel.js";

// The files the bundle is built from, in a fixed order (names sorted, as plain text).
function sourceFiles() {
  const sources = readdirSync("src").filter((name) => name.endsWith(".js")).sort();
  return ["build.mjs", "package-lock.json", "package.json", ...sources.map((name) => `src/${name}`)];
}

function sourcesDigest() {
  const hash = createHash("sha256");
  for (const name of sourceFiles()) {
    hash.update(`${name}\n`);
    hash.update(readFileSync(name));
    hash.update("\n");
  }
  return hash.digest("hex");
}

await build({
  entryPoints: ["src/index.js"],
  bundle: true,
  format: "esm",
  minify: true,
  target: "es2020",
  legalComments: "linked",
  outfile: OUTFILE,
  banner: { js: `/* mcnemar live panel; sources sha256 ${sourcesDigest()} */` },
});
