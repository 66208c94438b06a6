// Drives examples/shop over stdio with the official TypeScript MCP client,
// through a purchase: the delivery address is the person's (the agent is
// refused; the person types it at the shop's keyboard, the -keys pipe),
// the payment sits behind the closed review, then the person's on-screen question,
// pending, did_it_work, settled, and a second payment of the same order
// refused as a duplicate. Usage: node purchase.mjs <shop binary> -keys
// <pipe> [args...]
// Prints one JSON line per step ({"step", ...facts}) and exits non-zero on
// the first broken expectation.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { writeFileSync } from "node:fs";

const [bin, ...binArgs] = process.argv.slice(2);
const keys = binArgs[binArgs.indexOf("-keys") + 1];
if (!bin || !binArgs.includes("-keys")) {
  console.error("usage: node purchase.mjs <shop binary> -keys <pipe> [args...]");
  process.exit(2);
}
const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

let listChanged = 0;
const client = new Client({ name: "purchase-test", version: "1.0.0" });
client.fallbackNotificationHandler = async (n) => {
  if (n.method === "notifications/tools/list_changed") listChanged++;
};
const transport = new StdioClientTransport({ command: bin, args: binArgs, stderr: "inherit" });

function expect(cond, what, got) {
  if (!cond) {
    console.error(`FAIL: ${what}: ${JSON.stringify(got)}`);
    process.exit(1);
  }
}

function log(step, obj) {
  console.log(JSON.stringify({ step, ...obj }));
}

async function call(name, args) {
  const res = await client.callTool({ name, arguments: args ?? {} });
  expect(Array.isArray(res.content) && res.content.length === 1 && res.content[0].type === "text", `${name}: one text content`, res);
  const body = JSON.parse(res.content[0].text);
  expect(typeof body.ok === "boolean" && typeof body.judgment === "string", `${name}: ok and judgment`, body);
  return { isError: res.isError === true, body };
}

await client.connect(transport);
const caps = client.getServerCapabilities();
expect(caps.tools && !caps.tools.listChanged, "tools capability without listChanged", caps);

const { tools } = await client.listTools();
const names = tools.map((t) => t.name);
log("tools", { names });
expect(names.join(",") === "shop.journey.purchase,shop.journey.find,shop.journey.pay-cart,shop.whats_here,shop.why,shop.do_action,shop.did_it_work", "tool names in order", names);

let r = await call("shop.whats_here");
expect(!r.isError && r.body.youAreOn === "catalog" && typeof r.body.facts === "string", "whats_here", r);
log("whats_here", { youAreOn: r.body.youAreOn, journeys: r.body.journeys.map((j) => j.journey) });

r = await call("shop.journey.purchase");
expect(r.body.ok && r.body.frame === "open" && r.body.readySteps.length === 1, "journey opens", r);

for (const [step, input] of [
  ["open-product", { sku: "dress-blue" }],
  ["add-to-cart", { qty: 1 }],
  ["go-cart", undefined],
  ["checkout", undefined],
]) {
  r = await call("shop.journey.purchase", input ? { step, input } : { step });
  expect(!r.isError && r.body.ok && r.body.effectStatus === "performed", `step ${step} folded to performed`, r);
  log("step", { did: r.body.did, effectStatus: r.body.effectStatus, youAreOn: r.body.youAreOn });
}

// The delivery address is the person's decision: listed with the human,
// refused to the agent.
r = await call("shop.journey.purchase");
const decision = (r.body.withTheHuman ?? []).find((s) => s.step === "checkout.change-address");
expect(decision && decision.made === false && r.body.readySteps.length === 0, "the address waits on the person", r);
r = await call("shop.do_action", { action: "change-address", input: { address: "2 Side St" } });
expect(!r.isError && r.body.ok === false && r.body.reason === "PRINCIPAL_NOT_ALLOWED", "the agent may not change the address", r);
// The payment sits in the closed review.
r = await call("shop.do_action", { action: "pay", instance: "order-1", confirm: true });
expect(r.body.ok === false && r.body.reason === "NODE_NOT_VISIBLE", "pay behind the closed review", r);
log("person", { agentRefused: "PRINCIPAL_NOT_ALLOWED", payRefused: r.body.reason });

// The person types the address at the keyboard: a, the address, enter.
writeFileSync(keys, "a1 Main St\r");
for (let tries = 0; ; tries++) {
  r = await call("shop.journey.purchase", { step: "open-review" });
  if (r.body.ok) break;
  expect(r.body.reason === "TOOL_DISABLED" && tries < 200, "the review opens once the person has given the address", r);
  await sleep(25);
}
expect(r.body.effectStatus === "performed", "open-review performed", r);
const pay = r.body.readySteps.find((s) => s.step === "checkout.review.order.pay");
expect(pay && pay.instances && pay.instances[0] === "order-1", "pay is ready for the order under review", r);
const order = pay.instances[0];

// The person approves the payment on their screen: that is the one
// question. The ready row says so before the call, and the call fires at
// once, pending, with no question in the chat.
expect(pay.personApproves === true, "the ready row says the person is asked on screen", r);
r = await call("shop.journey.purchase", { step: "pay", instance: order });
expect(!r.isError && r.body.ok && r.body.effectStatus === "pending" && r.body.transitionId, "the payment is pending, held for the person", r);
expect(r.body.judgment !== "needs-confirm" && r.body.askId === undefined, "no question in the chat", r);
expect(r.body.settleWith && r.body.settleWith.tool === "shop.did_it_work" && r.body.settleWith.arg === "transitionId" && typeof r.body.howToSettle === "string", "settleWith on the pending arm", r);
const id = r.body.transitionId;
log("pending", { transitionId: id, effectStatus: r.body.effectStatus, personApproves: pay.personApproves });

let polls = 0;
let approved = false;
for (;;) {
  r = await call("shop.did_it_work", { transitionId: id });
  expect(!r.isError, "did_it_work is never an error", r);
  if (r.body.settled) break;
  if (r.body.judgment === "awaiting-human") {
    // The shop holds the payment for the person, who approves it on
    // their screen: the script types y at the shop's keyboard.
    expect(r.body.askId && r.body.performed === false, "awaiting the person, with the card's id", r);
    if (!approved) log("awaiting-human", { askId: r.body.askId !== undefined, performed: r.body.performed });
    approved = true;
    writeFileSync(keys, "y");
    await new Promise((res) => setTimeout(res, 50));
    continue;
  }
  expect(r.body.judgment === "still-pending", "still-pending while the payment runs", r);
  if (polls++ === 0) log("did_it_work", { judgment: r.body.judgment, stillWorking: r.body.stillWorking === true });
  expect(polls < 200, "settles in time", r);
  await new Promise((res) => setTimeout(res, 50));
}
expect(r.body.effectStatus === "performed" && r.body.outcome === "committed" && r.body.writesObserved === true && r.body.judgment === "done", "settled paid", r);
log("settled", { judgment: r.body.judgment, effectStatus: r.body.effectStatus, outcome: r.body.outcome, polls });

// Once per order: a second payment of the same order is refused, naming
// the first.
r = await call("shop.journey.purchase", { step: "pay", instance: order });
expect(!r.isError && r.body.ok === false && r.body.reason === "DUPLICATE_EXECUTION" && r.body.priorTransitionId === id, "a second payment is a duplicate", r);
log("duplicate", { reason: r.body.reason, priorTransitionId: r.body.priorTransitionId });

r = await call("shop.nope");
expect(r.isError && r.body.reason === "UNKNOWN_TOOL", "unknown tool is isError", r);

const again = await client.listTools();
expect(JSON.stringify(again.tools) === JSON.stringify(tools), "tools/list unchanged after the purchase", again);
expect(listChanged === 0, "no list_changed ever", listChanged);
log("done", { listChanged });
await client.close();
