// Drives examples/shop's dynamic tools over stdio with the official
// TypeScript MCP client through three payments the person answers at the
// shop's keyboard (the -keys pipe): approved (y), declined (n), and left
// unanswered until the shop withdraws it. Each pay call asks for progress
// and must be told, while it waits, that it waits for the person.
// Usage: node approve.mjs <shop binary> -keys <pipe> [args...]
// Prints one JSON line per payment: what the client saw.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { writeFileSync } from "node:fs";

const [bin, ...binArgs] = process.argv.slice(2);
if (!bin || !binArgs.includes("-keys")) {
  console.error("usage: node approve.mjs <shop binary> -keys <pipe> [args...]");
  process.exit(2);
}
const keys = binArgs[binArgs.indexOf("-keys") + 1];
const sleep = (ms) => new Promise((res) => setTimeout(res, ms));
function expect(cond, what, got) {
  if (!cond) {
    console.error(`FAIL: ${what}: ${JSON.stringify(got)}`);
    process.exit(1);
  }
}

const client = new Client({ name: "approve-test", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: bin, args: ["-tools", "dynamic", ...binArgs], stderr: "inherit" }));
await client.listTools(); // the first look

async function call(name, args, onprogress) {
  const res = await client.callTool({ name, arguments: args ?? {} }, undefined, { timeout: 30000, onprogress });
  const body = res.structuredContent ?? JSON.parse(res.content[0].text);
  return { isError: res.isError === true, body };
}
async function must(name, args) {
  const r = await call(name, args);
  expect(!r.isError, name, r.body);
  return r;
}

// To the order review of one dress; the person gives the address.
for (const [tool, args] of [["open_product", { sku: "dress-red" }], ["add_to_cart", { qty: 1 }], ["go_to_cart"], ["checkout"]]) {
  await must(tool, args);
}
writeFileSync(keys, "a1 Main St\r");
for (let tries = 0; ; tries++) {
  const r = await call("open_review");
  if (!r.isError) break;
  expect(tries < 200, "open_review once the address is given", r.body);
  await sleep(25);
}
// The address the person gave is in what pay watches, and no result showed
// it: the agent reads before it pays (else pay is refused stale).
await client.readResource({ uri: "app://context" });

// pay asks for progress; once told it waits for the person, the person
// answers (or, for "none", does not).
async function pay(order, key) {
  const progress = [];
  let told;
  const waiting = new Promise((res) => (told = res));
  const paying = call("pay", { order }, (p) => {
    progress.push(p.message);
    told();
  });
  await waiting;
  // The person presses the key until it takes: the card counts no key
  // before it has stood unchanged for its settle time.
  const pressing = key ? setInterval(() => writeFileSync(keys, key), 50) : null;
  const r = await paying;
  if (pressing) clearInterval(pressing);
  return { progress, isError: r.isError, tag: r.body._tag ?? null, status: r.body.completion?.status ?? null };
}

const approved = await pay("order-1", "y");
console.log(JSON.stringify({ step: "approved", ...approved }));

// A second order for the rest.
for (const [tool, args] of [["close_review"], ["go_to_cart"], ["go_to_catalog"], ["open_product", { sku: "dress-blue" }], ["add_to_cart", { qty: 1 }], ["go_to_cart"], ["checkout"], ["open_review"]]) {
  await must(tool, args);
}
const declined = await pay("order-2", "n");
console.log(JSON.stringify({ step: "declined", ...declined }));
const unanswered = await pay("order-2", "");
console.log(JSON.stringify({ step: "unanswered", ...unanswered }));
await client.close();
