// Drives an A2A agent whose "refund" skill needs the person's approval,
// with the official A2A JavaScript client (@a2a-js/sdk), as another agent
// would. Usage:
//
//   node approval.mjs <A2A base URL> <patient token> <hasty token>
//
// The Go test (a2aagent/approval_peers_test.go) plays the person: it
// approves a refund of an order named approve-*, declines one named
// decline-*, and never answers timeout-*; the hasty token's requests are
// withdrawn quickly. It prints one JSON line per step, {"step", "ok",
// "detail"}.
import { randomUUID } from "node:crypto";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { Role, TaskState } from "@a2a-js/sdk";

const [base, patientToken, hastyToken] = process.argv.slice(2);
const waitingText = "Waiting for the person to approve this in the app.";

function report(step, ok, detail) {
  process.stdout.write(JSON.stringify({ step, ok: !!ok, detail: detail ?? null }) + "\n");
}

async function step(name, fn) {
  try {
    report(name, true, await fn());
  } catch (err) {
    report(name, false, String(err?.stack ?? err));
  }
}

function check(cond, what) {
  if (!cond) throw new Error(what);
}

async function clientFor(token) {
  const fetchImpl = (input, init = {}) => {
    const headers = new Headers(init.headers ?? {});
    headers.set("Authorization", `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(`${base}/.well-known/agent-card.json`, "");
}

function refund(order) {
  return {
    messageId: randomUUID(),
    role: Role.ROLE_USER,
    parts: [{ content: { $case: "data", value: { skill: "refund", input: { order } } } }],
  };
}

function part(status, kind) {
  return status?.message?.parts?.find((p) => p.content?.$case === kind)?.content?.value;
}

// stream sends a refund as a streamed message and returns each status it
// saw, in order: {state, text, data}.
async function stream(client, order) {
  const seen = [];
  for await (const ev of client.sendMessageStream({ message: refund(order), configuration: undefined })) {
    const p = ev.payload;
    const status = p?.$case === "task" ? p.value.status : p?.$case === "statusUpdate" ? p.value.status : undefined;
    if (status) {
      seen.push({ state: status.state, text: part(status, "text") ?? "", data: part(status, "data") ?? {} });
    }
  }
  return seen;
}

// waitedThenEnded checks the stream showed WORKING with the waiting
// message before it ended in final, and returns the final status.
function waitedThenEnded(seen, final) {
  const names = seen.map((s) => TaskState[s.state] ?? String(s.state));
  const waiting = seen.findIndex((s) => s.state === TaskState.TASK_STATE_WORKING && s.text === waitingText);
  check(waiting >= 0, `no WORKING status saying it waits for the person: ${names}`);
  check(seen[waiting].data.capability === "refund" && seen[waiting].data.approval, `waiting data ${JSON.stringify(seen[waiting].data)}`);
  check(waiting < seen.length - 1 && seen.at(-1).state === final, `states ${names}, want the wait before ${TaskState[final]}`);
  return seen.at(-1);
}

await step("card tags refund needs-approval", async () => {
  const card = await new DefaultAgentCardResolver().resolve(`${base}/.well-known/agent-card.json`, "");
  const refund = card.skills.find((s) => s.id === "refund");
  check(refund?.tags?.includes("needs-approval"), `refund tags ${refund?.tags}`);
  return refund.tags;
});

const patient = await clientFor(patientToken);
const hasty = await clientFor(hastyToken);

await step("approved refund streamed working then completed", async () => {
  const last = waitedThenEnded(await stream(patient, "approve-1"), TaskState.TASK_STATE_COMPLETED);
  return last.text;
});

await step("declined refund streamed working then rejected", async () => {
  const last = waitedThenEnded(await stream(patient, "decline-1"), TaskState.TASK_STATE_REJECTED);
  check(last.data._tag === "AgentDeclinedError" && last.data.reason === "not this one", `data ${JSON.stringify(last.data)}`);
  return last.text;
});

await step("unanswered refund failed", async () => {
  const last = waitedThenEnded(await stream(hasty, "timeout-1"), TaskState.TASK_STATE_FAILED);
  check(last.data._tag === "AgentApprovalTimeoutError", `data ${JSON.stringify(last.data)}`);
  return last.text;
});
