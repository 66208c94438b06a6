package fixed

import "strings"

// Every sentence a port serves is one of these constants. They are library
// text: no runtime value is ever joined into them. The only things a port
// interpolates anywhere in text are the graph id (in tool names and in
// howToSettle) and ids the graph declares. They are plain ASCII, so UTF-8
// bytes and UTF-16 code units count the same.

// Tool descriptions and schema property descriptions.
const (
	journeyUsage      = " Call with no arguments for its readySteps; with step (and input) to do one."
	journeyConfirm    = " A high-effect step first returns needs-confirm: show the human its receipts, then call again with confirm: true, or decline: true if they refuse."
	journeyOnScreen   = " A personApproves step is asked of the person on their screen when you call it: tell them to answer it there, not in the chat."
	journeyStepsData  = " Steps are data, never tools."
	singleJourneyDesc = "Follow a journey, a named multi-step flow. whats_here lists those you can start here. Call with journey: <id> for its readySteps; with the same journey and step (and input) to do one. A high-effect step first returns needs-confirm: show the human its receipts, then call again with confirm: true, or decline: true if they refuse. Steps are data, never tools."
	whatsHereDesc     = "Where you are: actions, journeys you can start here (an open one with its brief) and facts, the app's record of what was tried and how it ended, which outranks the conversation, you included. sinceVersion: only what changed since (the user may act too); routeTo: <page id>: the declared hops there."
	whyDesc           = "Why a state key holds its value: the actions that produced it and who fired each, as data."
	doActionDesc      = "Perform one action from whats_here outside any journey. A high-effect action first returns needs-confirm: show the human its receipts, then call again with confirm: true, or decline: true if they refuse."
	didItWorkDesc     = "How an action came to rest, from the transitionId of its result (or a needs-confirm's askId: whether the human decided). Answers at once. Use it whenever effectStatus was pending; never repeat the action to find out."
	propStep          = "One of readySteps."
	propInput         = "As its expects says."
	propConfirm       = "true once the human approved its receipts."
	propConfirmGate   = "true only after a person approved it in the app; your confirm alone is refused."
	propDecline       = "true if the human refused."
	propDeclineGate   = "true to report the human refused; the ask stays open until they answer in the app."
	propInstance      = "One of its instances."
	propJourney       = "A journey id from whats_here."
	propAction        = "An action from whats_here."
	propSince         = "An earlier result's version."
	propRouteTo       = "A page id."
	propKey           = "A state key."
	propTransition    = "A result's transitionId (or askId)."
	propExpected      = "The version you last saw: if the app moved since, nothing fires."
)

// Result sentences.
const (
	nothingDone = "Nothing has been done. This is a question for the human, not a failure: do not report it as an error."
	confirmHow  = "Show the human the receipts, then call again with confirm: true to proceed, or decline: true if they refuse."
	confirmGate = "Show the human the receipts and let them approve it in the app, then call again with confirm: true." +
		" Your confirm alone is refused: this app needs an approval recorded from a person. Send decline: true if they refuse."
	declinedWhy = "Recorded: the human declined. Nothing was performed."
	relayedWhy  = "Recorded as your report. Only the person can answer the ask, in the app, so it stays open. Nothing was performed."

	settleHowA = "Not finished yet: the app is still working on it. Call "
	personHowA = "Not finished yet: waiting for the person to answer on their screen. Call "
	settleHowB = ".did_it_work with this transitionId to learn how it came to rest. Do not perform it again."

	stillPending = "The app has not finished this action, so there is no outcome yet. Do not perform it again: call this tool again with the same transitionId, or whats_here."
	outcomeMoved = "This is the receipt from when the action came to rest; the app has moved it since (see outcomeNow). Do not act on outcome alone: call whats_here to see where things stand."
	arrClaimed   = "The action claimed it would take you to toNode; nothing has confirmed you arrived. That is not a failure: whats_here shows where you are."
	arrObserved  = "The app later reported being on toNode: corroboration, not proof that this action caused it."
	stillWorking = "The app still has work open for this action. Nothing times it out; ask again later."
	nothingRan   = "It was recorded, but nothing performed it. Do not tell the human it is done."
	alreadyTrue  = "Its declared effect already held before it fired, so nothing had to change."

	pausedAwaiting = "Paused, not failed: no outcome exists because nothing was fired. The human has not decided yet."
	pausedApproved = "Paused, not failed: nothing was fired yet. A yes is on record; call the action again with confirm: true to use it."
	pausedDeclined = "Paused, not failed: nothing was fired, and the human declined. Do not perform it."
	heldAwaiting   = "The app is asking the person to approve this on their screen, and nothing is done until they answer. Do not perform it again: call this tool again later with the same id, or whats_here."
	heldDeclined   = "The person declined this on their screen, so nothing was done. Do not perform it again unless they ask you to."
	heldWithdrawn  = "The request was withdrawn before the person approved it (nobody answered in time, or what it covered changed), so nothing was done. Look again with whats_here before you ask again."
	pausedRevoked  = "Paused, not failed: nothing was fired, and the human withdrew their yes. Do not perform it."
	pausedStale    = "Paused, not failed: nothing was fired, and the yes on record is no longer valid. Ask again."

	transitionRequired = "did_it_work needs to know WHICH action: pass a transitionId (or askId) from a result. Nothing was performed."
	unknownTransition  = "No fire or ask has that id. The open ones are listed here."
	ambiguousID        = "That id names two different things, a fire and an ask, so no answer is given for it."
	evictedTransition  = "That fire was recorded in this session, but it is old enough that the app no longer holds how it came to rest, so no answer is given. Do not perform it again to find out: facts in whats_here counts it, and the open ones are listed here."

	elsewhereMeans = "Only the journeys whose first step is available on this page now are listed; the others start on other pages, not gone and not refused. routeTo: <page id> here gives the declared hops to one."
	routeMeans     = "Declared hops, fewest first. Whether a hop's action is clickable now is on its row in whats_here once you are there, not here."
	noRoute        = "No action declares a way there from here. That is what this graph says, not proof that the app cannot get there."
	unknownPage    = "The graph declares no page with that id; pages lists those it does."

	notOnThisPage  = "This app has that action, but not on this page (see on). Go there first: routeTo in whats_here gives the declared hops."
	conditionsNot  = "This app has that action on this page, but its conditions are not met now (see evidence), so it is not offered."
	declaredNotOff = "This app declares that action on this page, but it is not offered right now."
	actionRequired = "do_action needs to know WHICH action: pass one of actions. Nothing was performed."
	ambiguousAct   = "That name matches more than one action here: pass one of actions in full. Nothing was performed."
	unknownStep    = "That is not a step of this journey: use one of steps. Nothing was performed."
	journeyReq     = "This tool needs to know WHICH journey: pass one of journeys. Nothing was performed."
	unknownJourney = "No journey has that id: use one of journeys, or whats_here with routeTo. Nothing was performed."
	keyRequired    = "why needs a state key. No list of keys is served and none is wrong: pass the key you want explained."
	precondition   = "This journey's precondition does not hold now (see evidence)."
	demoted        = "This journey's precondition stopped holding, so its frame was closed. whats_here shows what can be done now."
	precondKept    = "This journey's precondition does not hold now (see evidence). Your current journey is still open."

	disabledWhy     = "The app has this control switched off right now: on screen but not clickable, like a greyed button."
	disabledUnknown = " That is a state, not a verdict, and nothing here knows what would change it: do not invent a reason." +
		" whats_here shows when its row no longer says enabled: false."
	// The app's own reason (blockedBecause.says) is application text: the
	// sentence points at it, never repeats it.
	disabledSays = " The app's own reason is in blockedBecause.says; give that one, do not invent another." +
		" whats_here shows when its row no longer says enabled: false."
	clearedByUser    = " The person clears it (blockedBecause.clearedBy: user), not you: tell them the reason and wait for them."
	clearedByApp     = " The app clears it itself (blockedBecause.clearedBy: app): wait, then look again."
	clearedByInvalid = " What was given is not valid (blockedBecause.clearedBy: invalid): correct it before trying again."
	disabledEvidence = "Its declared enabling conditions fail now (see evidence)."
	busyWhy          = "The app says it is working on this control (see busy)."
	notMaterialized  = "Nothing in the app is bound to perform this action, so firing it would do nothing. Tell the human it is not available."
	priorPending     = "An earlier fire of this has not come to rest (see pendingTransitionId). Ask did_it_work about it instead of firing again."
	approvalSpent    = "That yes was already used; a new approval is needed."
	approvalMismatch = "The person approved something different (see differs); this needs its own approval."
	approvalStale    = "The yes on record is no longer valid; a new approval is needed."
	approvalDeclined = "The person declined this. Do not perform it."
	approvalRevoked  = "The person withdrew their yes. Do not perform it."

	unchangedHow = "Nothing served here changed since sinceVersion: the actions (actionsUnchanged) and journeys you were shown then still hold."

	readyRejectedHow   = "Each step ready here was refused by the app when last fired (lastFireRejected): tell the person why (did_it_work with that id) before firing it again."
	newRoundMeans      = "The last round of this journey was done; this is a new one."
	readyHow           = "Call this tool again with step set to one of readySteps."
	noReadyHow         = "Nothing in this journey can be fired here now. Do not keep trying laterSteps; each says why it waits. Navigate (goesTo, routeTo) or wait for what is pending."
	doneHow            = "Every step of this journey is done. Calling this tool again opens a new round, whose first step is startWith (routeTo in whats_here gives the hops to where it is offered)."
	priorInstanceMeans = "Done for priorInstance in an earlier round, not in this one."
	personWaitHow      = "A step waits for the person to answer on their screen (see awaitingState); nothing is done until they do. Ask did_it_work with its transitionId, then call this journey again with no step."
	waitHow            = "A step's fire has not come to rest (see awaitingState), so nothing else can be judged yet. Ask did_it_work with its transitionId, then call this journey again with no step."

	staleCursor      = "The app's state moved since the version you passed (expectedVersion), so nothing was done. Look again with whats_here (version is the current one) before you act."
	notVisible       = "That control is not on screen for the person now: it sits on a hidden tab or in a closed modal (see node). Nothing was done. It becomes clickable when the app shows it."
	behindOverlay    = "That control is covered by an open modal (see overlay), so it cannot be clicked now. Nothing was done. Deal with the modal first."
	stillMounting    = "The part of the page holding that control was just shown and is not ready yet. Nothing was done; try again shortly."
	duplicateWhy     = "This action happens at most once, and it already did (see priorTransitionId). Nothing was done. did_it_work with that id says how it came to rest; do not try it again."
	instanceUnknown  = "No instance of this step has that key here now (instances lists those that do). Nothing was done."
	instanceRequired = "This step acts on one instance: pass instance, one of instances. Nothing was done."
	notAllowedWhy    = "Only the actors in required may do this, and you are not one of them. Nothing was done, and no approval can change that: tell the human it is theirs to do."
	withHumanMeans   = "These steps are the human's: their decision, or something only they may do. Present them and let the person act in the app; do not take them yourself."
	humanHow         = "The next move is the human's (see withTheHuman): present it to them, then call this journey again with no step to see where things stand."
	staleMeans       = "staleReads and staleWrites name state keys this row reads or writes that someone other than you changed since your last look: check them before you act on it."

	// factsLead opens the facts block's header (journey's, said in full
	// once per port); factsShort stands for it after that.
	factsLead  = "FACTS FROM THE APP (authoritative)."
	factsShort = "FACTS FROM THE APP (authoritative, as said above)."

	doesSaidMeans       = "A row without does has the does an earlier answer gave for it."
	asBeforeMeans       = "expects: as-before is the input schema an earlier answer gave for that step, unchanged."
	frameSameMeans      = "An answer about a journey without frame or standing has those the last answer about it gave."
	laterUnchangedMeans = "laterStepsUnchanged counts the later steps left out because the last journey answer gave them as they still are."

	stateNotReported = "These steps were read before the app reported what the fires in awaitingState changed, so they may be out of date."
	lastRejected     = "lastFireRejected: the app refused that step when it was last fired; did_it_work with that id says why. Firing it again is a new attempt, not a retry: check with the human first."
)

// sentence ends an authored description with a full stop when it has
// no closing punctuation of its own, so that the library's usage text
// that follows reads as a new sentence.
func sentence(does string) string {
	if does == "" || strings.ContainsAny(does[len(does)-1:], ".!?") {
		return does
	}
	return does + "."
}
