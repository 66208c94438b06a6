// Drives the pantry (examples/bubbles/pantry, running in a terminal) with
// the official TypeScript MCP client and its default settings, attached
// over stdio (`pantry -mcp stdio`) or over its HTTP endpoint, for
// TestTypeScriptClientDrivesPantry in ../main_test.go. The client comes
// from the node directory given (mcpagent/testdata/node, which pins it).
//
//   node pantry.mjs <node-dir> <title> stdio <pantry-binary> <runtime-dir>
//   node pantry.mjs <node-dir> <title> http <url> <token>
//
// One JSON line per step on stdout: {"step", "ok", "detail"}, detail
// being what the client was answered with ids, versions and times left
// out. After the step "the context holds the title as sent" it waits for
// a line on stdin (the test reads the person's screen meanwhile).
import { createRequire } from "node:module";
import { join } from "node:path";
import { createInterface } from "node:readline";

const [nodeDir, title, mode, target, fifth] = process.argv.slice(2);
const require = createRequire(join(nodeDir, "package.json"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");

function transport() {
  if (mode === "stdio") {
    return new StdioClientTransport({
      command: target, args: ["-mcp", "stdio"], env: { ...process.env, XDG_RUNTIME_DIR: fifth },
    });
  }
  return new StreamableHTTPClientTransport(new URL(target), {
    requestInit: { headers: { Authorization: `Bearer ${fifth}` } },
  });
}

let failed = false;
function report(step, ok, detail) {
  if (!ok) failed = true;
  console.log(JSON.stringify({ step, ok, detail: stable(detail) }));
}

// stable leaves out what differs from run to run: ids (an invocation's
// too), versions, times; JSON inside a text is read and treated alike.
function stable(v) {
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === "object") {
    const out = {};
    for (const k of Object.keys(v).sort()) {
      if (/(^|_)(id|version|at|time)$|Id$|Version$|At$|^_meta$/i.test(k)) continue;
      if (k === "invocation" && typeof v[k] === "string") continue;
      out[k] = stable(v[k]);
    }
    return out;
  }
  if (typeof v === "string" && v.startsWith("{")) {
    try {
      return JSON.stringify(stable(JSON.parse(v)));
    } catch {
      return v;
    }
  }
  return v;
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

async function context(client) {
  const res = await client.readResource({ uri: "app://context" });
  return JSON.parse(res.contents[0].text);
}

async function call(client, name, args) {
  const res = await client.callTool({ name, arguments: args });
  report(`call ${name}`, !res.isError, res);
  return res;
}

async function main() {
  const client = new Client({ name: "pantry-peer-test", version: "0.0.0" });
  await client.connect(transport());
  const tools = (await client.listTools()).tools.map((t) => t.name).sort();
  report("tools/list", JSON.stringify(tools) === '["add_grocery","filter_groceries","remove_grocery"]', tools);

  await call(client, "add_grocery", { name: title });
  let ctx = await context(client);
  report("the context holds the title as sent", ctx.items.at(-1) === title && ctx.items.length === 7, ctx);
  await lines.next(); // the test has read the person's screen

  await call(client, "filter_groceries", { text: "che" });
  ctx = await context(client);
  report("the filter shows cheese", JSON.stringify(ctx.visible) === '["cheese"]', ctx);
  await call(client, "clear_filter", {});
  await call(client, "remove_grocery", { name: title });
  ctx = await context(client);
  report("the title is gone", !ctx.items.includes(title) && ctx.items.length === 6, ctx);
  await client.close();
}

main().then(
  () => process.exit(failed ? 1 : 0),
  (err) => { report("exception", false, String(err?.stack ?? err)); process.exit(1); },
);
