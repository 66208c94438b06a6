// Drives an application whose "refund" needs the person's approval through
// the Agent Native framework's own A2A client (which speaks A2A 0.3), as
// an Agent Native application would reach it. Usage:
//
//   node approval.mjs <base-url> <token>
//
// The Go test (nativeagent/approval_peers_test.go) plays the person: it
// approves a refund of an order named approve-* and declines one named
// decline-*. It prints one JSON line per step, {"step", "ok", "detail"}.
import { A2AClient } from '@agent-native/core/a2a';

const [url, token] = process.argv.slice(2);
const waitingText = 'Waiting for the person to approve this in the app.';

// The framework logs to stdout as it works; the test reads only our lines.
const log = console.log.bind(console);
console.log = () => {};
console.info = () => {};
console.debug = () => {};
const report = (step, ok, detail) => log(JSON.stringify({ step, ok: !!ok, detail: detail ?? null }));

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

process.env.AGENT_NATIVE_A2A_ALLOWED_ORIGINS = new URL(url).origin;
const client = new A2AClient(url, token, { requestTimeoutMs: 20000 });
const refund = (order) => ({
  kind: 'message', role: 'user', messageId: `m-${order}`,
  parts: [{ kind: 'data', data: { skill: 'refund', input: { order } } }],
});
const text = (status) => (status?.message?.parts ?? []).filter((p) => p.kind === 'text').map((p) => p.text).join(' ');
const data = (status) => (status?.message?.parts ?? []).find((p) => p.kind === 'data')?.data ?? {};

await step('streamed refund waits for the person, then completes', async () => {
  const seen = [];
  for await (const ev of client.stream(refund('approve-1'))) {
    if (ev?.status) seen.push({ state: ev.status.state, text: text(ev.status), data: data(ev.status) });
  }
  const waiting = seen.findIndex((s) => s.state === 'working' && s.text === waitingText);
  check(waiting >= 0 && seen[waiting].data.capability === 'refund', `no working status waiting for the person: ${JSON.stringify(seen)}`);
  check(waiting < seen.length - 1 && seen.at(-1).state === 'completed', `states ${seen.map((s) => s.state)}`);
  return seen.map((s) => s.state);
});

await step('sent refund declined by the person is rejected', async () => {
  const task = await client.send(refund('decline-1'));
  check(task?.status?.state === 'rejected', `state ${task?.status?.state} (${text(task?.status)})`);
  const d = data(task.status);
  check(d._tag === 'AgentDeclinedError' && d.reason === 'not this one', `data ${JSON.stringify(d)}`);
  return text(task.status);
});
