// A client that speaks tasks, for examples/shop's task test: a payment
// held for the person is a task that goes working -> completed, and
// tasks/cancel on another held payment withdraws it (nothing pending,
// nothing paid).
//
// Two shapes. On a 2025-11-25 session (stdio, http) it is the official
// TypeScript client's low-level request API: a task-augmented tools/call
// (params.task), tasks/get, tasks/result, tasks/cancel. On the sessionless
// 2026-07-28 revision (ext) it is plain fetch, since the TypeScript SDK
// 1.32.2 speaks 2025-11-25 at the newest: every request names the
// io.modelcontextprotocol/tasks extension in its per-request
// capabilities, and tasks/get carries the result.
//
// One JSON line per step on stdout: {"step", "ok", "detail"}. Lines on
// stdin are the test's word that the person did something: "address"
// (the delivery address was given) and "answered" (y was pressed).
//
//   node tasks.mjs stdio <shop-binary> <args...>
//   node tasks.mjs http <url> <token>
//   node tasks.mjs ext <url> <token>
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";

const [mode, target, ...rest] = process.argv.slice(2);
let failed = false;
const report = (step, ok, detail) => {
  if (!ok) failed = true;
  console.log(JSON.stringify({ step, ok, detail }));
};
const said = [];
let wake = null;
createInterface({ input: process.stdin }).on("line", (l) => {
  said.push(l.trim());
  if (wake) wake();
});
const heard = (word) =>
  new Promise((resolve) => {
    const check = () => {
      const i = said.indexOf(word);
      if (i >= 0) {
        said.splice(i, 1);
        wake = null;
        resolve();
      }
    };
    wake = check;
    check();
  });
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

// session is a 2025-11-25 client on the SDK's low-level request API.
async function session() {
  const client = new Client({ name: "foldagent-tasks-test", version: "0.0.0" });
  const transport = mode === "stdio"
    ? new StdioClientTransport({ command: target, args: rest, stderr: "inherit" })
    : new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers: { Authorization: `Bearer ${rest[0]}` } } });
  await client.connect(transport);
  const caps = client.getServerCapabilities();
  report("the server declares tasks for tools/call", !!caps?.tasks?.requests?.tools?.call && !!caps?.tasks?.cancel, caps);
  const req = (method, params) => client.request({ method, params }, ResultSchema.passthrough());
  return {
    call: (name, args) => req("tools/call", { name, arguments: args }),
    task: async (name, args) => (await req("tools/call", { name, arguments: args, task: { ttl: 600000 } })).task,
    get: (id) => req("tasks/get", { taskId: id }),
    cancel: (id) => req("tasks/cancel", { taskId: id }),
    outcome: (id) => req("tasks/result", { taskId: id }),
    read: (uri) => req("resources/read", { uri }),
    close: () => client.close(),
  };
}

// sessionless is a 2026-07-28 client that declares the tasks extension.
function sessionless() {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "foldagent-tasks-test", version: "0.0.0" },
    "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
  };
  let id = 0;
  const req = async (method, params, name) => {
    const res = await fetch(target, {
      method: "POST",
      headers: {
        "Content-Type": "application/json", Accept: "application/json, text/event-stream",
        Authorization: `Bearer ${rest[0]}`, "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": method, ...(name ? { "Mcp-Name": name } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: meta } }),
    });
    let body = await res.text();
    const data = body.split("\n").find((l) => l.startsWith("data: "));
    if (data) body = data.slice(6);
    const msg = JSON.parse(body);
    if (msg.error) throw Object.assign(new Error(msg.error.message), { code: msg.error.code });
    return msg.result;
  };
  return {
    discover: () => req("server/discover", {}),
    call: (name, args) => req("tools/call", { name, arguments: args }, name),
    task: async (name, args) => {
      const r = await req("tools/call", { name, arguments: args }, name);
      return r.resultType === "task" ? r : null;
    },
    get: (id) => req("tasks/get", { taskId: id }, id),
    cancel: (id) => req("tasks/cancel", { taskId: id }, id),
    outcome: async (id) => (await req("tasks/get", { taskId: id }, id)).result,
    read: (uri) => req("resources/read", { uri }, uri),
    close: async () => {},
  };
}

// poll reads a task until cond holds of it (within 10 s), as a client
// polls at the task's interval.
async function poll(c, id, cond) {
  const deadline = Date.now() + 10000;
  for (;;) {
    const t = await c.get(id);
    if (cond(t) || Date.now() > deadline) return t;
    await pause(20);
  }
}

const waitsForPerson = (t) => t.status === "working" && /person to approve/.test(t.statusMessage ?? "");

async function main() {
  const c = mode === "ext" ? sessionless() : await session();
  if (mode === "ext") {
    const d = await c.discover();
    report("server/discover declares the tasks extension", !!d.capabilities?.extensions?.["io.modelcontextprotocol/tasks"], d.capabilities);
  }
  for (const [name, args] of [["open_product", { sku: "dress-red" }], ["add_to_cart", { qty: 1 }], ["go_to_cart", {}], ["checkout", {}]]) {
    const res = await c.call(name, args);
    if (res.isError) return report(name, false, res);
  }
  report("at checkout", true, null);
  await heard("address");
  for (const deadline = Date.now() + 10000; ;) {
    const res = await c.call("open_review", {});
    if (!res.isError) break;
    if (Date.now() > deadline) return report("review open", false, res);
    await pause(20);
  }
  report("review open", true, null);
  // A result is a look only at what it showed: the agent reads the order
  // it is about to pay, as a careful agent does.
  await c.read("app://context");

  // Held, then withdrawn by tasks/cancel: nothing paid.
  const a = await c.task("pay", { order: "order-1" });
  report("a held payment is a task at once", a?.status === "working" && typeof a.taskId === "string", a);
  const aw = await poll(c, a.taskId, waitsForPerson);
  report("its status says it waits for the person", waitsForPerson(aw), aw);
  const ack = await c.cancel(a.taskId);
  const ac = await poll(c, a.taskId, (t) => t.status !== "working");
  report("tasks/cancel withdraws it", ac.status === "cancelled" && (mode === "ext" ? Object.keys(ack).every((k) => k === "resultType" || k === "_meta") : ack.status === "cancelled"), { ack, ac });

  // Held, approved: working -> completed, with the payment's result.
  const b = await c.task("pay", { order: "order-1" });
  report("the next payment is a task", b?.status === "working" && b.taskId !== a.taskId, b);
  const bw = await poll(c, b.taskId, waitsForPerson);
  report("working: waiting for the person", waitsForPerson(bw), bw);
  await heard("answered");
  const bc = await poll(c, b.taskId, (t) => t.status !== "working");
  const out = await c.outcome(b.taskId);
  const sc = out?.structuredContent ?? {};
  report("working -> completed, and the agent learns it was paid", bc.status === "completed" && !out.isError &&
    sc.completion?.status === "completed" && sc.completion?.tag === "PaymentSucceeded", { bc, out });
  const view = JSON.parse((await c.read("app://context")).contents?.[0]?.text ?? "{}");
  const orders = (view.orders ?? []).filter((x) => x.id === "order-1");
  report("order-1 is paid, once", orders.length === 1 && orders[0].status === "paid", view.orders);
  const still = await c.get(a.taskId);
  report("the withdrawn task stays cancelled", still.status === "cancelled", still);
  await c.close();
}

main()
  .catch((e) => report("run", false, String(e?.stack ?? e)))
  .finally(() => process.exit(failed ? 1 : 0));
