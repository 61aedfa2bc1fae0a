// Builds the live panel's bundle (npm run build) and stamps its first line with a digest of
// everything it is built from: the sources, this script and the locked packages. The test
// suite computes the same digest (tests/pages/test_live_panel.py), so a bundle not rebuilt
// after a change of its sources fails there, on machines without Node too.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

// Every path below is this folder's, wherever the script is run from.
const HERE = dirname(fileURLToPath(import.meta.url));

const OUTFILE = "../../../../static/live_panel/live_panel.js";

// The files the bundle is built from, in a fixed order: every file under src/, by its path
// with "/" between folders, sorted as plain text.
function sourceFiles() {
  const sources = readdirSync(join(HERE, "src"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .map((path) => path.slice(HERE.length + 1).replaceAll("\\", "/"))
    .sort();
  return ["build.mjs", "package-lock.json", "package.json", ...sources];
}

function sourcesDigest() {
  const hash = createHash("sha256");
  for (const name of sourceFiles()) {
    hash.update(`${name}\n`);
    hash.update(readFileSync(join(HERE, name)));
    hash.update("\n");
  }
  return hash.digest("hex");
}

await build({
  absWorkingDir: HERE,
  entryPoints: ["src/index.js"],
  bundle: true,
  format: "esm",
  minify: true,
  target: "es2020",
  legalComments: "linked",
  outfile: OUTFILE,
  banner: { js: `/* mcnemar live panel; sources sha256 ${sourcesDigest()} */` },
});
