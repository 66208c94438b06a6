// Drives a foldagent application through the Agent Native framework's own
// clients, as an Agent Native application would reach it. It prints one
// JSON line per step for the Go test to check.
//
//   node interop.mjs mcp <mcp-url> <token>
//   node interop.mjs a2a <base-url> <token>
//
// mcp: the framework's MCP client manager, configured with the exact entry
// an application puts in mcp.config.json, connects over streamable HTTP,
// lists the tools (mcp__todo__<capability>), turns them into framework
// action entries and runs create_todo through one.
import { McpClientManager, mcpToolsToActionEntries } from '@agent-native/core/mcp-client';
import { A2AClient } from '@agent-native/core/a2a';

const [mode, url, token] = process.argv.slice(2);
const out = (step, value) => console.log(JSON.stringify({ step, ...value }));

// The framework logs to stdout as it works; the test reads only our lines.
const log = console.log.bind(console);
console.log = (...a) => { if (typeof a[0] === 'string' && a[0].startsWith('{"step"')) log(...a); };
console.info = () => {};
console.debug = () => {};

async function mcp() {
  const config = { servers: { todo: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } } };
  const manager = new McpClientManager(config);
  await manager.start();
  const status = manager.getStatus();
  out('connected', { servers: status.connectedServers, errors: status.errors });
  const tools = manager.getTools().map((t) => t.name ?? t.prefixedName).sort();
  out('tools', { tools });
  const entries = mcpToolsToActionEntries(manager);
  const names = Object.keys(entries).sort();
  out('actions', { actions: names });
  const create = entries[names.find((n) => n.endsWith('create_todo'))];
  const result = await create.run({ title: 'Milk from Agent Native' }, {});
  out('create', { result: typeof result === 'string' ? result : JSON.stringify(result) });
  const listed = await manager.callTool(names.find((n) => n.endsWith('create_todo')), { title: 'Eggs' });
  out('callTool', { result: JSON.stringify(listed) });
  await manager.stop();
}

// a2a: the framework's A2A client (which speaks A2A 0.3 message/send)
// finds the application's A2A endpoint where an Agent Native application
// keeps its own, <base>/_agent-native/a2a, sends a task naming a skill and
// its input in a data part, and reads it back with tasks/get.
async function a2a() {
  // The client refuses private addresses unless they are allowed.
  process.env.AGENT_NATIVE_A2A_ALLOWED_ORIGINS = new URL(url).origin;
  const client = new A2AClient(url, token, { requestTimeoutMs: 20000 });
  const send = (skill, input) => client.send({
    kind: 'message', role: 'user', messageId: `m-${skill}-${Date.now()}`,
    parts: [{ kind: 'data', data: { skill, input } }],
  });
  const describe = (task) => ({
    state: task?.status?.state,
    text: (task?.status?.message?.parts ?? []).filter((p) => p.kind === 'text').map((p) => p.text).join(' '),
    data: JSON.stringify((task?.status?.message?.parts ?? []).find((p) => p.kind === 'data')?.data ?? null),
    id: task?.id,
  });
  const created = await send('create_todo', { title: 'From an Agent Native app' });
  out('a2aCreate', describe(created));
  out('a2aGet', describe(await client.getTask(created.id)));
  out('a2aUnknown', describe(await send('launch_rocket', {})));
  out('a2aWrongType', describe(await send('create_todo', { title: 42 })));
}

const modes = { mcp, a2a };
if (!modes[mode]) {
  console.error(`usage: node interop.mjs ${Object.keys(modes).join('|')} ...`);
  process.exit(2);
}
modes[mode]().then(() => process.exit(0), (err) => { console.error(err?.stack ?? String(err)); process.exit(1); });
