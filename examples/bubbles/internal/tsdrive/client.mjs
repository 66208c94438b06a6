// The script side of package tsdrive, shared by the bubbles programs' peer
// scripts (their testdata/*.mjs). A script is run as
//
//   node <script> <node-dir> <text> stdio <binary> <runtime-dir>
//   node <script> <node-dir> <text> http <url> <token>
//
// and calls session(name, task): it connects the official TypeScript MCP
// client (loaded from node-dir, which pins it) with its default settings,
// runs task(s) and reports each step as one JSON line on stdout,
// {"step", "ok", "detail"}, detail being the answer with ids, versions and
// times left out. s.pause() waits for a line on stdin.
import { createRequire } from "node:module";
import { join } from "node:path";
import { createInterface } from "node:readline";

const [nodeDir, text, mode, target, fifth] = process.argv.slice(2);
const require = createRequire(join(nodeDir, "package.json"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { ResourceUpdatedNotificationSchema } = require("@modelcontextprotocol/sdk/types.js");

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

// stable leaves out what differs from run to run: ids (an invocation's
// too), versions and revisions (a change's from and to, which count the
// renders the person's keys caused too), times; JSON inside a text is
// read and treated alike.
export function stable(v) {
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === "object") {
    const out = {};
    for (const k of Object.keys(v).sort()) {
      if (/(^|_)(id|version|at|time)$|Id$|Version$|At$|^_meta$/i.test(k)) continue;
      if (k === "invocation" && typeof v[k] === "string") continue;
      if ((k === "from" || k === "to") && typeof v[k] === "number") continue;
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

let failed = false;
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

class Session {
  constructor(client) {
    this.client = client;
    this.text = text;
    this.updates = 0;
    this.wake = () => {};
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => {
      this.updates++;
      this.wake();
    });
  }
  // until returns the context once holds is true of it, reading it again
  // after each resources/updated notification (the session subscribes to
  // app://context first).
  async until(holds) {
    if (!this.subscribed) {
      await this.client.subscribeResource({ uri: "app://context" });
      this.subscribed = true;
    }
    for (;;) {
      const seen = this.updates;
      const ctx = await this.context();
      if (holds(ctx)) return ctx;
      if (this.updates === seen) await new Promise((resolve) => { this.wake = resolve; });
    }
  }
  report(step, ok, detail) {
    if (!ok) failed = true;
    console.log(JSON.stringify({ step, ok, detail: stable(detail) }));
  }
  async tools() {
    return (await this.client.listTools()).tools.map((t) => t.name).sort();
  }
  async context() {
    const res = await this.client.readResource({ uri: "app://context" });
    return JSON.parse(res.contents[0].text);
  }
  // call reports the call as a step that holds when the answer is not an
  // error (or, with refused, when it is).
  async call(name, args, refused = false) {
    const res = await this.client.callTool({ name, arguments: args });
    this.report(`call ${name}`, !res.isError !== refused, res);
    return res;
  }
  // refuse reports the call as a step that holds when it is refused,
  // whether as an error answer or as a protocol error.
  async refuse(name, args) {
    try {
      const res = await this.client.callTool({ name, arguments: args });
      this.report(`refused ${name}`, res.isError === true, res);
    } catch (e) {
      this.report(`refused ${name}`, true, { code: e.code, message: e.message });
    }
  }
  async pause() {
    await lines.next();
  }
}

export function session(name, task) {
  const run = async () => {
    const client = new Client({ name, version: "0.0.0" });
    await client.connect(transport());
    await task(new Session(client));
    await client.close();
  };
  run().then(
    () => process.exit(failed ? 1 : 0),
    (err) => {
      console.log(JSON.stringify({ step: "exception", ok: false, detail: String(err?.stack ?? err) }));
      process.exit(1);
    },
  );
}
