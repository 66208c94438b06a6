package fixed

import "github.com/foldagent/foldagent/journey"

// toolSet is a port's fixed tools, built once when the port is: the array
// a host lists, the names in order, and what each name calls. Nothing in
// it changes afterwards, so it is read without a lock.
type toolSet struct {
	graphID string
	tools   []Tool
	names   []string
	refs    map[string]toolRef
	// didItWork is the did_it_work tool's name, which a pending fire's
	// answer names (settleWith).
	didItWork string
}

// name is a served tool's name: the graph id, then name, encoded.
func (t *toolSet) name(name string) string { return encodeToolName(t.graphID + "." + name) }

func (t *toolSet) add(name, desc string, schema CallResult, ref toolRef) {
	raw, _ := marshal(schema)
	t.tools = append(t.tools, Tool{Name: name, Description: desc, InputSchema: raw})
	t.names = append(t.names, name)
	t.refs[name] = ref
}

func propOf(typ, desc string) CallResult {
	var r CallResult
	r.set("type", typ)
	if desc != "" {
		r.set("description", desc)
	}
	return r
}

func objectSchema(props CallResult, required ...string) CallResult {
	var r CallResult
	r.set("type", "object").set("properties", props)
	if len(required) > 0 {
		r.set("required", required)
	}
	r.set("additionalProperties", false)
	return r
}

// fireProps are the arguments every firing tool takes after its
// selector (step or action). gated: the session needs a person's
// approval recorded, so a confirm alone is refused.
func fireProps(r *CallResult, gated bool) {
	confirm, decline := propConfirm, propDecline
	if gated {
		confirm, decline = propConfirmGate, propDeclineGate
	}
	r.set("input", propOf("object", propInput))
	r.set("confirm", propOf("boolean", confirm))
	r.set("decline", propOf("boolean", decline))
	r.set("instance", propOf("string", propInstance))
}

// asks says how a journey's steps are confirmed: whether one pauses for
// a yes in the chat (needs-confirm), and whether one is approved by the
// person on their screen (personApproves).
func asks(g *journey.Graph, j journey.Info, gated, confirm bool) (inChat, onScreen bool) {
	for _, st := range j.Steps {
		info, ok := g.Action(st)
		switch {
		case !ok:
		case info.PersonApproves && !gated:
			// Asked on the person's screen, high-effect or not.
			onScreen = true
		case !info.HighEffect:
		case confirm:
			inChat = true
		}
	}
	return inChat, onScreen
}

// journeyDesc is a journey tool's description: its does, then the usage
// that applies to its steps.
func journeyDesc(does string, inChat, onScreen bool) string {
	d := sentence(does) + journeyUsage
	if inChat {
		d += journeyConfirm
	}
	if onScreen {
		d += journeyOnScreen
	}
	return d + journeyStepsData
}

// toolsOf builds the fixed tool set of graph g: per journey
// <graph>.journey.<id> (or one <graph>.journey in Single mode), then
// whats_here, why, do_action and did_it_work.
func toolsOf(g *journey.Graph, graphID string, mode JourneyTools, gated, confirm bool) *toolSet {
	t := &toolSet{graphID: graphID, refs: map[string]toolRef{}}
	if mode == Single {
		var props CallResult
		props.set("journey", propOf("string", propJourney))
		props.set("step", propOf("string", propStep))
		fireProps(&props, gated)
		t.add(t.name("journey"), singleJourneyDesc, objectSchema(props, "journey"), toolRef{kind: kindSingle})
	} else {
		var step CallResult
		step.set("step", propOf("string", propStep))
		fireProps(&step, gated)
		schema := objectSchema(step)
		for _, j := range g.Journeys() {
			inChat, onScreen := asks(g, j, gated, confirm)
			t.add(t.name("journey."+j.ID), journeyDesc(j.Does, inChat, onScreen), schema, toolRef{kind: kindJourney, journey: j.ID})
		}
	}
	var wh CallResult
	wh.set("sinceVersion", propOf("integer", propSince))
	wh.set("routeTo", propOf("string", propRouteTo))
	t.add(t.name("whats_here"), whatsHereDesc, objectSchema(wh), toolRef{kind: kindWhatsHere})
	var why CallResult
	why.set("key", propOf("string", propKey))
	t.add(t.name("why"), whyDesc, objectSchema(why, "key"), toolRef{kind: kindWhy})
	var do CallResult
	do.set("action", propOf("string", propAction))
	fireProps(&do, gated)
	// The one firing tool that names expectedVersion: the others accept
	// it too, unlisted (callArgs.expected), as the reference system does.
	do.set("expectedVersion", propOf("integer", propExpected))
	t.add(t.name("do_action"), doActionDesc, objectSchema(do, "action"), toolRef{kind: kindDoAction})
	var dw CallResult
	dw.set("transitionId", propOf("string", propTransition))
	t.didItWork = t.name("did_it_work")
	t.add(t.didItWork, didItWorkDesc, objectSchema(dw, "transitionId"), toolRef{kind: kindDidItWork})
	return t
}
