// Drives examples/shop over stdio with the official TypeScript MCP client
// through the same two purchases in either tool set: a blue dress (paid)
// and then a gift card (refused by the payment server). The delivery
// address is the person's: they type it at the shop's keyboard (the -keys
// pipe) once, during the first checkout; the agent reviews and pays.
// Usage: node both.mjs <fixed|dynamic> <shop binary> -keys <pipe> [args...]
// Prints one JSON line: the mode, the tool-array bytes, every turn (tool
// and result bytes), the number of calls, and what the refusal said.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { writeFileSync } from "node:fs";

const [mode, bin, ...binArgs] = process.argv.slice(2);
if ((mode !== "fixed" && mode !== "dynamic") || !binArgs.includes("-keys")) {
  console.error("usage: node both.mjs <fixed|dynamic> <shop binary> -keys <pipe> [args...]");
  process.exit(2);
}
const keys = binArgs[binArgs.indexOf("-keys") + 1];
const sleep = (ms) => new Promise((res) => setTimeout(res, ms));
// The person types the delivery address: a, the address, enter.
const personGivesAddress = () => writeFileSync(keys, "a1 Main St\r");
function expect(cond, what, got) {
  if (!cond) {
    console.error(`FAIL ${mode}: ${what}: ${JSON.stringify(got)}`);
    process.exit(1);
  }
}

const client = new Client({ name: "both-test", version: "1.0.0" });
const transport = new StdioClientTransport({ command: bin, args: ["-tools", mode, ...binArgs], stderr: "inherit" });
await client.connect(transport);

const turns = [];
const lists = [];
async function list() {
  const res = await client.listTools();
  lists.push(JSON.stringify(res.tools).length);
  return res.tools.map((t) => t.name);
}
async function call(name, args) {
  const res = await client.callTool({ name, arguments: args ?? {} }, undefined, { timeout: 30000 });
  const bytes = JSON.stringify(res).length;
  turns.push({ tool: name, bytes });
  const body = res.structuredContent ?? JSON.parse(res.content[0].text);
  return { isError: res.isError === true, body, text: res.content[0].text };
}

let refusal = "";
const orders = [];
if (mode === "fixed") {
  await list();
  let n = 0;
  for (const sku of ["dress-blue", "gift-card"]) {
    n++;
    await call("shop.journey.purchase");
    for (const [step, input] of [["open-product", { sku }], ["add-to-cart", { qty: 1 }], ["go-cart"], ["checkout"]]) {
      const r = await call("shop.journey.purchase", input ? { step, input } : { step });
      expect(!r.isError && r.body.ok, `step ${step}`, r.body);
    }
    if (n === 1) personGivesAddress();
    let r;
    for (let tries = 0; ; tries++) {
      r = await call("shop.journey.purchase", { step: "open-review" });
      if (r.body.ok) break;
      expect(r.body.reason === "TOOL_DISABLED" && tries < 200, "open-review once the address is given", r.body);
      await sleep(25);
    }
    const order = `order-${n}`;
    // The person's on-screen answer is the one question: no chat confirm.
    r = await call("shop.journey.purchase", { step: "pay", instance: order });
    expect(r.body.ok && r.body.transitionId && r.body.judgment !== "needs-confirm", "paying", r.body);
    const id = r.body.transitionId;
    while (!r.body.settled) {
      // The shop holds each payment for the person, who approves it on
      // their screen (y at the keyboard).
      if (r.body.judgment === "awaiting-human") writeFileSync(keys, "y");
      await sleep(100);
      r = await call("shop.did_it_work", { transitionId: id });
    }
    if (sku === "gift-card") {
      expect(r.body.judgment === "rejected" && r.body.error, "gift card refused", r.body);
      // The app's own report rides as data; the message is our sentence.
      expect(r.body.error.reason === "APP_FAILED" && r.body.error.data, "the refusal's code and data", r.body);
      refusal = JSON.stringify(r.body.error.data);
    } else {
      expect(r.body.judgment === "done" && r.body.effectStatus === "performed", "paid", r.body);
      // Back to the catalog for the next purchase.
      for (const a of ["close-review", "back-to-cart", "shop-more"]) {
        const h = await call("shop.do_action", { action: a });
        expect(h.body.ok, a, h.body);
      }
    }
    orders.push(sku);
  }
} else {
  // The shop lists every tool once, whatever the page (ListAll): the list
  // never changes, and what the page does not offer is refused when called.
  const names = await list();
  expect(!names.some((n) => n.includes("address")), "no tool changes the address", names);
  expect(names.includes("pay") && names.includes("open_review"), "every tool is listed once", names);
  let n = 0;
  for (const sku of ["dress-blue", "gift-card"]) {
    n++;
    for (const [tool, args] of [["open_product", { sku }], ["add_to_cart", { qty: 1 }], ["go_to_cart"], ["checkout"]]) {
      const r = await call(tool, args);
      expect(!r.isError, tool, r.body);
    }
    if (n === 1) personGivesAddress();
    // The address is the person's: the agent waits until the context
    // shows it, and calls nothing the page does not offer meanwhile.
    for (let tries = 0; ; tries++) {
      const ctx = await client.readResource({ uri: "app://context" });
      if (ctx.contents[0].text.includes('"address":"1 Main St"')) break;
      expect(tries < 200, "the address reaches the shop", ctx.contents[0].text);
      await sleep(25);
    }
    let r = await call("open_review");
    expect(!r.isError, "open_review", r.body);
    // The payment waits for the person, who approves it on their screen:
    // y typed while no card is shown answers nothing.
    const paying = call("pay", { order: `order-${n}` });
    let answered = false;
    paying.finally(() => { answered = true; });
    while (!answered) {
      writeFileSync(keys, "y");
      await sleep(100);
    }
    r = await paying;
    if (sku === "gift-card") {
      expect(r.isError && r.body.completion && r.body.completion.status === "failed", "gift card refused", r.body);
      refusal = JSON.stringify(r.body.completion.message);
    } else {
      expect(!r.isError && r.body.completion.status === "completed", "paid", r.body);
      for (const tool of ["close_review", "go_to_cart", "go_to_catalog"]) {
        const h = await call(tool);
        expect(!h.isError, tool, h.body);
      }
    }
    orders.push(sku);
  }
}
console.log(JSON.stringify({ mode, toolsBytesFirst: lists[0], toolsLists: lists.length, toolsBytesTotal: lists.reduce((a, b) => a + b, 0),
  calls: turns.length, resultBytes: turns.reduce((a, t) => a + t.bytes, 0), turns, orders, refusal }));
await client.close();
