// Drives the todo example (examples/todo, headless) with the official
// TypeScript MCP client, for the black-box tests in ../../peers_test.go.
// One JSON line per step on stdout: {"step": "...", "ok": true|false,
// "detail": ...}; exit status 1 if any step failed.
//
//   node client.mjs stdio <todo-binary> <data-dir>
//   node client.mjs http <url> <owner-token> <viewer-token>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ToolListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

const [mode, target, third, fourth] = process.argv.slice(2);
let failed = false;

function report(step, ok, detail) {
  if (!ok) failed = true;
  console.log(JSON.stringify({ step, ok, detail }));
}

function transport(role) {
  if (mode === "stdio") {
    // Each stdio client launches its own process, with its own list.
    return new StdioClientTransport({
      command: target,
      args: ["-mcp", "stdio", "-role", role, "-data", `${third}/${role}.json`],
      stderr: "inherit",
    });
  }
  const token = role === "owner" ? third : fourth;
  return new StreamableHTTPClientTransport(new URL(target), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
}

// waiter counts notifications of one kind and lets a step wait for the next.
function waiter(client, schema) {
  const state = { count: 0, last: null, wake: null };
  client.setNotificationHandler(schema, (n) => {
    state.count++;
    state.last = n;
    if (state.wake) state.wake();
  });
  state.next = (seen, ms = 5000) =>
    new Promise((resolve) => {
      if (state.count > seen) return resolve(true);
      const timer = setTimeout(() => resolve(false), ms);
      state.wake = () => {
        if (state.count > seen) {
          clearTimeout(timer);
          resolve(true);
        }
      };
    });
  return state;
}

async function connect(role) {
  const client = new Client({ name: "foldagent-peer-test", version: "0.0.0" });
  const listChanged = waiter(client, ToolListChangedNotificationSchema);
  const updated = waiter(client, ResourceUpdatedNotificationSchema);
  await client.connect(transport(role));
  return { client, listChanged, updated };
}

const names = async (client) => (await client.listTools()).tools.map((t) => t.name).sort();
const text = (res) => res.content?.[0]?.text;

async function main() {
  const { client, listChanged, updated } = await connect("owner");

  let tools = await names(client);
  report("tools/list on an empty list",
    JSON.stringify(tools) === '["create_todo","rename_todo","select_todo","toggle_todo"]', tools);
  report("serverInfo names the application", client.getServerVersion()?.name === "foldagent-todo", client.getServerVersion());
  const listed = (await client.listTools()).tools;
  const createTool = listed.find((t) => t.name === "create_todo");
  report("create_todo declares an outputSchema with the created todo",
    createTool?.outputSchema?.type === "object" && JSON.stringify(createTool.outputSchema).includes('"const":"CreatedTodo"'), createTool);

  let seen = listChanged.count;
  // callTool checks structuredContent against the tool's outputSchema
  // (listed above) and throws when it does not match.
  let res = await client.callTool({ name: "create_todo", arguments: { title: "milk" } });
  const sc = res.structuredContent;
  report("call create_todo completes on its Message", !res.isError && text(res) === "Completed: CreatedTodo" &&
    sc?.capability === "create_todo" && sc?.invocation?.transport === "mcp" &&
    sc?.completion?.status === "completed" && sc?.completion?.tag === "CreatedTodo", res);
  const created = sc?.completion?.message?.todo;
  report("the result carries the created todo", typeof created?.id === "string" && created.title === "milk" &&
    JSON.parse(res.content?.[1]?.text ?? "null")?.completion?.message?.todo?.id === created?.id, res);
  res = await client.callTool({ name: "rename_todo", arguments: { id: created?.id, title: "oat milk" } });
  report("rename_todo with the id from the result completes", !res.isError &&
    text(res) === "Completed: RenameTodo (its condition on state holds)", res);
  // A new todo changes the Model but not which capabilities are offered.
  report("no list_changed when the offered set stays the same", !(await listChanged.next(seen, 300)), listChanged.count);

  seen = listChanged.count;
  res = await client.callTool({ name: "select_todo", arguments: { id: created?.id } });
  report("call select_todo", !res.isError && text(res) === "Completed: SelectTodo (its condition on state holds)", res);
  report("list_changed after a selection", await listChanged.next(seen), listChanged.count);
  tools = await names(client);
  report("delete_selected_todo offered after a selection", tools.includes("delete_selected_todo") && !tools.includes("clear_completed"), tools);
  const deleteTool = (await client.listTools()).tools.find((t) => t.name === "delete_selected_todo");
  report("delete_selected_todo is annotated destructive", deleteTool?.annotations?.destructiveHint === true &&
    !deleteTool?.annotations?.readOnlyHint, deleteTool?.annotations);

  res = await client.callTool({ name: "create_todo", arguments: { title: 5 } });
  report("invalid input is a tool error", res.isError === true &&
    res.structuredContent?._tag === "AgentInvalidInputError" && typeof text(res) === "string", res);
  report("invalid input says where and sends the schema",
    JSON.stringify(res.structuredContent?.problems) === '[{"path":"/title","code":"wrong_type"}]' &&
    res.structuredContent?.inputSchema?.properties?.title?.type === "string", res.structuredContent);

  try {
    await client.callTool({ name: "launch_rockets", arguments: {} });
    report("unknown tool is a protocol error", false, "the call succeeded");
  } catch (e) {
    report("unknown tool is a protocol error", e.code === -32602, { code: e.code, message: e.message });
  }

  const resources = (await client.listResources()).resources.map((r) => r.uri).sort();
  report("resources/list", JSON.stringify(resources) === '["app://context","app://stats","app://todos"]', resources);
  const stats = await client.readResource({ uri: "app://stats" });
  report("resources/read app://stats", stats.contents?.[0]?.text === '{"total":1,"done":0}' &&
    stats.contents?.[0]?.mimeType === "application/json", stats);
  try {
    await client.readResource({ uri: "app://nothing" });
    report("unknown resource is an error", false, "the read succeeded");
  } catch (e) {
    report("unknown resource is an error", e.code === -32002, { code: e.code, message: e.message });
  }

  await client.subscribeResource({ uri: "app://stats" });
  const before = updated.count;
  seen = listChanged.count;
  res = await client.callTool({ name: "toggle_todo", arguments: { id: "t1" } });
  report("toggle_todo completes with the todo as it now is", !res.isError &&
    res.structuredContent?.completion?.status === "completed" && res.structuredContent?.completion?.tag === "ChangeKept" &&
    res.structuredContent?.completion?.message?.todo?.done === true, res);
  const gotUpdate = await updated.next(before);
  report("resources/updated after a change", gotUpdate && updated.last?.params?.uri === "app://stats", updated.last);
  report("list_changed when a todo is done", await listChanged.next(seen) && (await names(client)).includes("clear_completed"), listChanged.count);

  // A viewer may not clear completed todos. Over stdio the viewer runs its
  // own process (and list), so it first makes a done todo of its own.
  const v = await connect("viewer");
  if (mode === "stdio") {
    await v.client.callTool({ name: "create_todo", arguments: { title: "done" } });
    await v.client.callTool({ name: "toggle_todo", arguments: { id: "t1" } });
  }
  // Every toggle above completed, so no wait: clear_completed is offered.
  res = await v.client.callTool({ name: "clear_completed", arguments: {} });
  report("clear_completed refused for a viewer", res.isError === true &&
    res.structuredContent?._tag === "AgentAuthorizationError" && /owner/.test(text(res)), res);
  res = await client.callTool({ name: "clear_completed", arguments: {} });
  report("clear_completed allowed for the owner", !res.isError &&
    res.structuredContent?.completion?.status === "completed" && res.structuredContent?.completion?.message?.removed?.length >= 1, res);

  await v.client.close();
  await client.close();
}

main()
  .catch((e) => report("uncaught", false, String(e?.stack ?? e)))
  .finally(() => process.exit(failed ? 1 : 0));
