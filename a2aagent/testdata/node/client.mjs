// Drives the todo example's A2A endpoint with the official A2A JavaScript
// client (@a2a-js/sdk), as another agent would. Usage:
//
//   node client.mjs <A2A base URL> <owner token> <viewer token> <other owner token>
//
// It prints one JSON line per step, {"step", "ok", "detail"}; the Go test
// (a2aagent/peers_test.go) checks that every step it expects was reported
// and passed.
import { randomUUID } from "node:crypto";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { Role, TaskState } from "@a2a-js/sdk";

const [base, ownerToken, viewerToken, otherToken] = process.argv.slice(2);

function report(step, ok, detail) {
  process.stdout.write(JSON.stringify({ step, ok: !!ok, detail: detail ?? null }) + "\n");
}

async function step(name, fn) {
  try {
    const detail = await fn();
    report(name, true, detail);
  } catch (err) {
    report(name, false, String(err?.stack ?? err));
  }
}

// pause asks the Go test to change the application's world (see
// peers_test.go) and waits until it has: it prints {"pause": what} and
// reads one line from standard input.
const stdinLines = (async function* () {
  let buf = "";
  for await (const chunk of process.stdin) {
    buf += chunk;
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      yield buf.slice(0, i);
      buf = buf.slice(i + 1);
    }
  }
})();
async function pause(what) {
  process.stdout.write(JSON.stringify({ pause: what }) + "\n");
  const { value, done } = await stdinLines.next();
  check(!done && value === "ok", `the test did not confirm ${what}`);
}

function check(cond, what) {
  if (!cond) throw new Error(what);
}

function bearerFetch(token) {
  return (input, init = {}) => {
    const headers = new Headers(init.headers ?? {});
    headers.set("Authorization", `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
}

async function clientFor(token) {
  const fetchImpl = bearerFetch(token);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  // The card sits below the base URL (the agent is mounted at a path),
  // so pass its full URL and an empty path.
  return factory.createFromUrl(`${base}/.well-known/agent-card.json`, "");
}

function message(skill, input) {
  const data = input === undefined ? { skill } : { skill, input };
  return {
    messageId: randomUUID(),
    role: Role.ROLE_USER,
    parts: [{ content: { $case: "data", value: data } }],
  };
}

async function send(client, skill, input, returnImmediately = false) {
  const res = await client.sendMessage({
    message: message(skill, input),
    configuration: { returnImmediately, acceptedOutputModes: [] },
  });
  check(res && res.status && res.id, `sendMessage answered ${JSON.stringify(res)}, want a task`);
  return res;
}

function text(task) {
  const part = task.status?.message?.parts?.find((p) => p.content?.$case === "text");
  return part?.content?.value ?? "";
}

function data(task) {
  const part = task.status?.message?.parts?.find((p) => p.content?.$case === "data");
  return part?.content?.value ?? {};
}

function stateName(s) {
  return TaskState[s] ?? String(s);
}

function expectState(task, want) {
  check(task.status.state === want, `state ${stateName(task.status.state)} (${text(task)}), want ${stateName(want)}`);
}

const owner = await clientFor(ownerToken);
const viewer = await clientFor(viewerToken);
const other = await clientFor(otherToken);

await step("card fetched and skills read", async () => {
  const card = await new DefaultAgentCardResolver().resolve(`${base}/.well-known/agent-card.json`, "");
  const ids = card.skills.map((s) => s.id);
  for (const want of ["create_todo", "rename_todo", "clear_completed"]) {
    check(ids.includes(want), `skills ${ids} lack ${want}`);
  }
  const clear = card.skills.find((s) => s.id === "clear_completed");
  check(clear.tags.includes("conditional") && clear.tags.includes("authorized"), `clear_completed tags ${clear.tags}`);
  // Only clear_completed checks its caller; the others only check that
  // the todo they name exists.
  const authorized = card.skills.filter((s) => s.tags.includes("authorized")).map((s) => s.id);
  check(authorized.length === 1 && authorized[0] === "clear_completed", `tagged authorized: ${authorized}`);
  const ext = card.capabilities.extensions.find((e) => e.uri.includes("input-schema"));
  check(ext?.params?.skills?.create_todo?.properties?.title, "no create_todo schema in the input-schema extension");
  check(card.securitySchemes && Object.keys(card.securitySchemes).length === 1, "one security scheme");
  return ids;
});

await step("create_todo completed", async () => {
  const task = await send(owner, "create_todo", { title: "milk" });
  expectState(task, TaskState.TASK_STATE_COMPLETED);
  check(text(task) === "Completed: CreatedTodo", `text ${text(task)}`);
  check(data(task).invocation?.id === task.id && data(task).invocation?.transport === "a2a", `data ${JSON.stringify(data(task))}`);
  return task.id;
});

await step("unknown skill rejected", async () => {
  const task = await send(owner, "no_such_skill", {});
  expectState(task, TaskState.TASK_STATE_REJECTED);
  check(data(task)._tag === "AgentUnknownCapabilityError", `data ${JSON.stringify(data(task))}`);
  return text(task);
});

await step("wrong type rejected", async () => {
  const task = await send(owner, "create_todo", { title: 42 });
  expectState(task, TaskState.TASK_STATE_REJECTED);
  check(data(task)._tag === "AgentInvalidInputError", `data ${JSON.stringify(data(task))}`);
  return text(task);
});

await step("viewer's clear_completed rejected", async () => {
  const list = await send(owner, "create_todo", { title: "eggs" });
  expectState(list, TaskState.TASK_STATE_COMPLETED);
  // Mark the first todo done, so that clear_completed is available.
  // toggle_todo completes once the toggle is saved, so clear_completed
  // is offered the moment it answers: no wait.
  const toggled = await send(owner, "toggle_todo", { id: "t1" });
  expectState(toggled, TaskState.TASK_STATE_COMPLETED);
  check(text(toggled) === "Completed: ChangeKept", `text ${text(toggled)}`);
  const task = await send(viewer, "clear_completed", {});
  expectState(task, TaskState.TASK_STATE_REJECTED);
  check(data(task)._tag === "AgentAuthorizationError", `data ${JSON.stringify(data(task))}`);
  return text(task);
});

await step("completion streamed to completed", async () => {
  const states = [];
  let id;
  for await (const ev of owner.sendMessageStream({ message: message("create_todo", { title: "bread" }), configuration: undefined })) {
    const p = ev.payload;
    if (p?.$case === "task") {
      id = p.value.id;
      states.push(p.value.status.state);
    } else if (p?.$case === "statusUpdate") {
      states.push(p.value.status.state);
    }
  }
  check(states[0] === TaskState.TASK_STATE_WORKING, `first state ${stateName(states[0])}`);
  check(states.at(-1) === TaskState.TASK_STATE_COMPLETED, `states ${states.map(stateName)}`);
  const task = await owner.getTask({ id });
  expectState(task, TaskState.TASK_STATE_COMPLETED);
  return states.map(stateName);
});

let waiting;
await step("task cancelled while waiting", async () => {
  // A create completes only once the todo is saved. The test makes the
  // list's file unwritable, so the runtime waits and the task stays
  // WORKING until it is cancelled; then saving works again.
  await pause("saves-fail");
  try {
    const task = await send(owner, "create_todo", { title: "held" }, true);
    expectState(task, TaskState.TASK_STATE_WORKING);
    waiting = task.id;
    const got = await owner.getTask({ id: task.id });
    expectState(got, TaskState.TASK_STATE_WORKING);
    const cancelled = await owner.cancelTask({ id: task.id });
    expectState(cancelled, TaskState.TASK_STATE_CANCELED);
    check(text(cancelled).includes("Nothing was undone"), `text ${text(cancelled)}`);
    return text(cancelled);
  } finally {
    await pause("saves-work");
  }
});

await step("another principal's task not found", async () => {
  const task = await send(owner, "create_todo", { title: "jam" });
  const errors = [];
  for (const call of [() => other.getTask({ id: task.id }), () => other.cancelTask({ id: task.id }), () => other.getTask({ id: waiting })]) {
    try {
      await call();
      errors.push("succeeded");
    } catch (err) {
      errors.push(String(err?.message ?? err));
    }
  }
  for (const e of errors) check(/not found/i.test(e), `answers ${JSON.stringify(errors)}`);
  const listed = await other.listTasks({ pageSize: 50 });
  check(listed.tasks.length === 0, `another principal lists ${listed.tasks.length} tasks`);
  return errors;
});

await step("owner's clear_completed completed", async () => {
  // Had the viewer's refused clear been dispatched, nothing would be done
  // now and this would be rejected as unavailable.
  const task = await send(owner, "clear_completed", {});
  expectState(task, TaskState.TASK_STATE_COMPLETED);
  check(text(task) === "Completed: ChangeKept", `text ${text(task)}`);
  return text(task);
});

// read reads the application's context: a message, not a task, with the
// version it was read at in its metadata.
async function read(client) {
  const res = await client.sendMessage({
    message: { messageId: randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: "data", value: { read: "context" } } }] },
    configuration: { acceptedOutputModes: [] },
  });
  check(res && res.messageId && !res.status, `a read answered ${JSON.stringify(res)}, want a message`);
  const version = res.metadata?.["foldagent/version"];
  const part = res.parts.find((p) => p.content?.$case === "data");
  check(typeof version === "number" && part?.content?.value?.version === version, `read ${JSON.stringify(res)}`);
  return { version, value: part.content.value.value };
}

await step("stale delete rejected, applied after reading", async () => {
  // Two owners share the list: oscar reads while one todo is selected,
  // olivia selects another, and oscar's delete, built on what he read, is
  // rejected with nothing deleted. Both todos are deleted again by the
  // end, so the list is as before.
  for (const title of ["stale-a", "stale-b"]) {
    expectState(await send(owner, "create_todo", { title }), TaskState.TASK_STATE_COMPLETED);
  }
  const { value } = await read(owner);
  const id = (title) => value.todos.find((t) => t.title === title).id;
  expectState(await send(owner, "select_todo", { id: id("stale-a") }), TaskState.TASK_STATE_COMPLETED);
  const seen = await read(other);
  check(seen.value.selected === id("stale-a"), `oscar read ${JSON.stringify(seen.value)}`);
  expectState(await send(owner, "select_todo", { id: id("stale-b") }), TaskState.TASK_STATE_COMPLETED);
  const stale = await send(other, "delete_selected_todo", {});
  expectState(stale, TaskState.TASK_STATE_REJECTED);
  const d = data(stale);
  check(d._tag === "AgentStaleViewError" && d.moved?.length === 1 && d.moved[0] === "selectedTodo" && d.retrySafe === true, `data ${JSON.stringify(d)}`);
  check(stale.status.message.metadata?.["foldagent/version"] === d.version && d.version > seen.version, `metadata ${JSON.stringify(stale.status.message.metadata)}, data ${JSON.stringify(d)}`);
  // A cited old version is refused too, though oscar has read since.
  const again = await read(other);
  check(again.value.todos.length === value.todos.length, "a rejected delete changed the list");
  const cited = await other.sendMessage({
    message: { ...message("delete_selected_todo", {}), metadata: { "foldagent/seenVersion": seen.version } },
    configuration: { acceptedOutputModes: [] },
  });
  expectState(cited, TaskState.TASK_STATE_REJECTED);
  check(data(cited)._tag === "AgentStaleViewError" && data(cited).seenVersion === seen.version, `cited: ${JSON.stringify(data(cited))}`);
  // Having read again, his delete applies to what he read: stale-b.
  const done = await send(other, "delete_selected_todo", {});
  expectState(done, TaskState.TASK_STATE_COMPLETED);
  check(JSON.stringify(data(done)).includes("stale-b"), `deleted ${JSON.stringify(data(done))}`);
  expectState(await send(owner, "select_todo", { id: id("stale-a") }), TaskState.TASK_STATE_COMPLETED);
  expectState(await send(owner, "delete_selected_todo", {}), TaskState.TASK_STATE_COMPLETED);
  // An unknown id is missing, not forbidden.
  const missing = await send(owner, "select_todo", { id: "t999" });
  expectState(missing, TaskState.TASK_STATE_REJECTED);
  check(data(missing)._tag === "AgentNotFoundError" && data(missing).path === "/id", `unknown id: ${JSON.stringify(data(missing))}`);
  return d;
});

await step("raw 0.3 message/send answered by the 0.3 endpoint", async () => {
  const res = await fetch(`${base}/v0.3`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${ownerToken}` },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: {
        message: {
          kind: "message",
          role: "user",
          messageId: randomUUID(),
          parts: [{ kind: "data", data: { skill: "create_todo", input: { title: "from 0.3" } } }],
        },
      },
    }),
  });
  const body = await res.json();
  check(res.status === 200, `status ${res.status}`);
  check(body.result?.kind === "task" && body.result?.status?.state === "completed", `answer ${JSON.stringify(body)}`);
  const first = body.result.status.message.parts[0];
  check(first.kind === "text" && first.text === "Completed: CreatedTodo", `parts ${JSON.stringify(body.result.status.message.parts)}`);
  return body.result.status.state;
});

// Standard input stays open for pause(): leave once every step is reported.
process.exit(0);
