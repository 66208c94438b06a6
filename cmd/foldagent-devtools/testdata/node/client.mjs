// Drives cmd/foldagent-devtools with the official TypeScript MCP client,
// for the black-box test in ../../node_test.go. One JSON line per step on
// stdout: {"step": "...", "value": ...}. Between its two halves it prints
// {"step": "ready"} and waits for a line on stdin: meanwhile the test
// restarts the app with another tool set.
//
//   node client.mjs <command> <project> <registry>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { createInterface } from "node:readline";

const [command, project, registry] = process.argv.slice(2);
const report = (step, value) => console.log(JSON.stringify({ step, value }));

const client = new Client({ name: "devtools-ts-test", version: "1.0.0" });
let changes = 0;
let wake = null;
client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
  changes++;
  if (wake) wake();
});
const changed = (seen) =>
  new Promise((resolve) => {
    if (changes > seen) return resolve(true);
    const timer = setTimeout(() => resolve(false), 20000);
    wake = () => {
      if (changes > seen) {
        clearTimeout(timer);
        resolve(true);
      }
    };
  });

const names = async () => (await client.listTools()).tools.map((t) => t.name).sort().join(",");
const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  const text = r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
  return r.isError ? "error: " + text : text;
};

await client.connect(
  new StdioClientTransport({ command, args: ["-project", project, "-registry", registry], stderr: "inherit" }),
);
report("tools", await names());
report("echo", await call("echo", { text: "hi" }));
report("attached_app", (await client.callTool({ name: "attached_app", arguments: {} })).structuredContent?.app);

const seen = changes;
report("ready", null);
const lines = createInterface({ input: process.stdin });
await new Promise((resolve) => lines.once("line", resolve));

report("echo after a restart", await call("echo", { text: "hi" }));
report("list_changed", await changed(seen));
report("tools after a restart", await names());
report("count", await call("count", { items: ["a", "b"] }));
lines.close();
await client.close();
