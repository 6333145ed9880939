// Runs Python code under MicroPython's WebAssembly port, with files put in its /lib first.
// Usage: node micropython_run.mjs <path of micropython.mjs> <root> <file>... < code.py
// Each <file> is copied from <root>/<file> to /lib/<file>. Used by test_micropython.py.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [moduleFile, root, ...files] = process.argv.slice(2);
const { loadMicroPython } = await import(pathToFileURL(moduleFile).href);
let out = "";
const mp = await loadMicroPython({
  heapsize: 4 * 1024 * 1024,
  linebuffer: false,
  stdout: (data) => { out += Buffer.from(data).toString("latin1"); },
  stderr: (data) => { out += Buffer.from(data).toString("latin1"); },
});
for (const file of files) {
  const target = "/lib/" + file;
  mp.FS.mkdirTree(path.posix.dirname(target));
  mp.FS.writeFile(target, fs.readFileSync(path.join(root, file)));
}
try {
  mp.runPython(fs.readFileSync(0, "utf8"));
} catch (error) {
  process.stdout.write(out);
  process.stderr.write(String(error.message || error) + "\n");
  process.exit(1);
}
process.stdout.write(out);
