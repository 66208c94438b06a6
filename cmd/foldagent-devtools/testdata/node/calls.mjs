// Calls tools of cmd/foldagent-devtools with the official TypeScript MCP
// client, started the way a coding agent starts it: in the project's
// directory, with only the registry's environment variable. For the
// todo example's devtools test (examples/todo/devtools_test.go).
//
//   node calls.mjs <command> <project> <registry> '<[{"name": ..., "arguments": {...}}, ...]>'
//
// One JSON line per call on stdout: {"name", "isError", "text"}.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, project, registry, calls] = process.argv.slice(2);
const client = new Client({ name: "devtools-ts-calls", version: "1.0.0" });
await client.connect(
  new StdioClientTransport({
    command,
    args: [],
    cwd: project,
    env: { ...process.env, FOLDAGENT_DEVTOOLS_DIR: registry },
    stderr: "inherit",
  }),
);
for (const c of JSON.parse(calls)) {
  const r = await client.callTool({ name: c.name, arguments: c.arguments ?? {} });
  const text = r.content.filter((x) => x.type === "text").map((x) => x.text).join("\n");
  console.log(JSON.stringify({ name: c.name, isError: !!r.isError, text }));
}
await client.close();
