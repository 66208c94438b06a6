// Drives a foldagent application through the Agent Native framework's own
// clients, as an Agent Native application would reach it. It prints one
// JSON line per step for the Go test to check.
//
//   node interop.mjs mcp <mcp-url> <token>
//
// mcp: the framework's MCP client manager, configured with the exact entry
// an application puts in mcp.config.json, connects over streamable HTTP,
// lists the tools (mcp__todo__<capability>), turns them into framework
// action entries and runs create_todo through one.
import { McpClientManager, mcpToolsToActionEntries } from '@agent-native/core/mcp-client';

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

const modes = { mcp };
if (!modes[mode]) {
  console.error(`usage: node interop.mjs ${Object.keys(modes).join('|')} ...`);
  process.exit(2);
}
modes[mode]().then(() => process.exit(0), (err) => { console.error(err?.stack ?? String(err)); process.exit(1); });
