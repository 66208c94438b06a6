// A payment whose person answers late, with the official TypeScript MCP
// client and its defaults (a 60-second request timeout it does not reset
// on progress), for examples/shop's held-call test. The shop answers
// before the client gives up (its -patience): held, nothing done yet.
// The person answers later; the agent asks again and learns the outcome.
//
// One JSON line per step on stdout: {"step", "ok", "detail"}. Lines on
// stdin are the test's word that the person did something: "address"
// (the delivery address was given) and "answered" (y was pressed).
//
//   node held.mjs stdio <shop-binary> <args...>
//   node held.mjs http <url> <token>
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

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

function transport() {
  if (mode === "stdio") {
    return new StdioClientTransport({ command: target, args: rest, stderr: "inherit" });
  }
  return new StreamableHTTPClientTransport(new URL(target), {
    requestInit: { headers: { Authorization: `Bearer ${rest[0]}` } },
  });
}

const sc = (res) => res?.structuredContent ?? {};

// until calls a tool until it does not refuse, as an agent retries once
// the person has done their part (within 10 s).
async function until(client, name, args) {
  const deadline = Date.now() + 10000;
  for (;;) {
    const res = await client.callTool({ name, arguments: args });
    if (!res.isError || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function main() {
  // The client's defaults: no timeout option anywhere below.
  const client = new Client({ name: "foldagent-held-test", version: "0.0.0" });
  await client.connect(transport());
  for (const [name, args] of [["open_product", { sku: "dress-red" }], ["add_to_cart", { qty: 1 }], ["go_to_cart", {}], ["checkout", {}]]) {
    const res = await client.callTool({ name, arguments: args });
    if (res.isError) return report(name, false, res);
  }
  report("at checkout", true, null);
  await heard("address");
  const review = await until(client, "open_review", {});
  report("review open", !review.isError, review);

  // A result is a look only at what it showed: the agent reads the order
  // it is about to pay, as a careful agent does.
  await client.readResource({ uri: "app://context" });
  const started = Date.now();
  const held = await client.callTool({ name: "pay", arguments: { order: "order-1" } });
  const h = sc(held);
  report("held before the client's timeout", held.isError === true && h._tag === "AgentHeldError" &&
    h.capability === "pay" && typeof h.request === "string" && h.request.length > 0 &&
    Date.now() - started < 60000, { held, ms: Date.now() - started });
  report("held says nothing was done and the person has not answered", h.waitingFor === "person" &&
    h.nothingDone === true && /nothing has been done/i.test(held.content?.[0]?.text ?? ""), h);

  await heard("answered");
  // Asking again joins the held request; if the payment server is still
  // at work when patience runs out again, it is held again: ask again.
  let out;
  for (let i = 0; i < 20; i++) {
    out = await client.callTool({ name: "pay", arguments: { order: "order-1" } });
    if (sc(out)._tag !== "AgentHeldError") break;
    report("still held, asked again", sc(out).request === h.request, sc(out));
  }
  const o = sc(out);
  report("the agent learns it was paid", !out.isError && o.capability === "pay" &&
    o.completion?.status === "completed" && o.completion?.tag === "PaymentSucceeded", out);

  const again = await client.callTool({ name: "pay", arguments: { order: "order-1" } });
  report("paying again is refused: the order is already paid (a state, not who asks)",
    again.isError === true && sc(again)._tag === "AgentStateError", again);
  const ctx = await client.readResource({ uri: "app://context" });
  const view = JSON.parse(ctx.contents?.[0]?.text ?? "{}");
  const orders = (view.orders ?? []).filter((x) => x.id === "order-1");
  report("order-1 is paid, once", orders.length === 1 && orders[0].status === "paid", view.orders);
  await client.close();
}

main()
  .catch((e) => report("run", false, String(e?.stack ?? e)))
  .finally(() => process.exit(failed ? 1 : 0));
