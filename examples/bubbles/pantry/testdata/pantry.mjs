// Drives the pantry (examples/bubbles/pantry, running in a terminal) with
// the official TypeScript MCP client and its default settings, for
// TestTypeScriptClientDrivesPantry in ../main_test.go; the arguments and
// the output are those of ../../internal/tsdrive/client.mjs. After the
// step "the context holds the title as sent" it pauses while the test
// reads the person's screen.
import { session } from "../../internal/tsdrive/client.mjs";

session("pantry-peer-test", async (s) => {
  const tools = await s.tools();
  s.report("tools/list", JSON.stringify(tools) === '["add_grocery","filter_groceries","remove_grocery"]', tools);

  await s.call("add_grocery", { name: s.text });
  let ctx = await s.context();
  s.report("the context holds the title as sent", ctx.items.at(-1) === s.text && ctx.items.length === 7, ctx);
  await s.pause(); // the test has read the person's screen

  await s.call("filter_groceries", { text: "che" });
  ctx = await s.context();
  s.report("the filter shows cheese", JSON.stringify(ctx.visible) === '["cheese"]', ctx);
  await s.call("clear_filter", {});
  await s.call("remove_grocery", { name: s.text });
  ctx = await s.context();
  s.report("the title is gone", !ctx.items.includes(s.text) && ctx.items.length === 6, ctx);
});
