// Drives the notes (examples/bubbles/notes, running in a terminal) with
// the official TypeScript MCP client, for TestTypeScriptClientDrivesNotes
// in ../main_test.go; the arguments and the output are those of
// ../../internal/tsdrive/client.mjs. The agent adds a line, waits while
// the person types one, adds the hostile text it was given, waits while
// the test reads the screen, and adds a last line.
import { session } from "../../internal/tsdrive/client.mjs";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

session("notes-peer-test", async (s) => {
  const tools = await s.tools();
  s.report("tools/list", same(tools, ["add_line"]), tools);

  await s.call("add_line", { text: "buy milk" });
  let ctx = await s.context();
  s.report("the first line", same(ctx.lines, ["buy milk"]), ctx);
  await s.pause(); // the person types a line of their own

  ctx = await s.until((c) => c.lines.length === 2 && c.lines[1] === "call Ann");
  s.report("the person's line", true, ctx);
  await s.call("add_line", { text: s.text });
  ctx = await s.context();
  s.report("the hostile text is one line", ctx.lines.length === 3 && ctx.lines[2].includes("approval"), ctx);
  await s.pause(); // the test reads the person's screen

  await s.call("add_line", { text: "water the plants" });
  ctx = await s.context();
  s.report("every line in order", same([ctx.lines[0], ctx.lines[1], ctx.lines[3]], ["buy milk", "call Ann", "water the plants"]) &&
    ctx.lines.length === 4, ctx);
});
