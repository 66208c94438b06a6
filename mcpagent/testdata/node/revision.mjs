// Connects the official TypeScript MCP client to a streamable HTTP
// endpoint with the revision it speaks, lists the tools and creates one
// todo, for TestPeerRevisionsOnOneEndpoint in ../../revisions_test.go.
// Prints one JSON line: {protocolVersion, sessionId, tools, result}.
//
//   node revision.mjs <url> <token> <title>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token, title] = process.argv.slice(2);

async function main() {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "foldagent-revision-test", version: "0.0.0" });
  await client.connect(transport);
  const tools = (await client.listTools()).tools.map((t) => t.name).sort();
  const result = await client.callTool({ name: "create_todo", arguments: { title } });
  console.log(JSON.stringify({
    protocolVersion: transport.protocolVersion,
    sessionId: transport.sessionId ?? "",
    tools,
    result,
  }));
  await client.close();
}

main().catch((e) => {
  console.error(String(e?.stack ?? e));
  process.exit(1);
});
