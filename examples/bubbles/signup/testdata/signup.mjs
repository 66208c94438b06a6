// Drives the signup form (examples/bubbles/signup, running in a terminal)
// with the official TypeScript MCP client, for
// TestTypeScriptClientDrivesSignup in ../main_test.go; the arguments and
// the output are those of ../../internal/tsdrive/client.mjs. The person
// types the name; the agent tries the hostile text it was given as a name
// and as a plan (both refused while the cursor is in Plan) and waits while
// the test reads the screen; the person goes back to Name, where the agent
// types the text after the person's, and the agent then chooses the plan
// and confirms.
import { session } from "../../internal/tsdrive/client.mjs";

session("signup-peer-test", async (s) => {
  const tools = await s.tools();
  s.report("tools/list", tools.includes("enter_name") && !tools.includes("choose_plan"), tools);
  let ctx = await s.context();
  s.report("the form is empty", ctx.focused === "name" && ctx.name === "" && !ctx.done, ctx);
  await s.pause(); // the person types the name

  ctx = await s.until((c) => c.focused === "plan");
  s.report("the person's name", ctx.name === "Ann", ctx);
  await s.refuse("enter_name", { name: s.text });
  await s.refuse("choose_plan", { plan: s.text });
  ctx = await s.context();
  s.report("the refusals changed nothing", ctx.focused === "plan" && ctx.name === "Ann" && ctx.plan === "", ctx);
  await s.pause(); // the test reads the person's screen; the person goes back to Name

  ctx = await s.until((c) => c.focused === "name");
  s.report("the person went back", ctx.name === "Ann", ctx);
  await s.call("enter_name", { name: s.text });
  ctx = await s.until((c) => c.focused === "plan");
  s.report("the name as the field holds it", ctx.name.startsWith("Ann") && ctx.name.includes("approval"), ctx);
  const name = ctx.name;
  await s.pause(); // the test reads the person's screen

  await s.call("choose_plan", { plan: "team" });
  ctx = await s.until((c) => c.focused === "agree");
  s.report("the plan", ctx.plan === "team", ctx);
  await s.call("answer_confirmation", { agree: true });
  ctx = await s.until((c) => c.done);
  s.report("signed up", ctx.name === name && ctx.plan === "team" && ctx.agree === true, ctx);
});
