package a2aagent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

// errStoreFull refuses a new task while every stored task is still
// running. It is built per use: the SDK may add details to an *a2a.Error.
func errStoreFull() error {
	return a2a.NewError(a2a.ErrServerError, "This agent is running as many tasks as it keeps; try again when one has ended.")
}

// store is a bounded, owner-scoped task store. Tasks belong to the user
// the SDK's CallContext names (set from the verified bearer token); a task
// of another user is reported as not found. When the store is full, the
// oldest ended tasks are evicted; a running task is never evicted, so a new
// task is refused when every stored task is running.
//
// Room for a task is reserved before it starts (reserve) and taken when
// the SDK creates it (Create), so a task that is dispatched always has its
// place: the bound holds for reserved and stored tasks together.
type store struct {
	capacity int

	mu      sync.Mutex
	tasks   map[a2a.TaskID]*stored
	pending int    // reservations not yet taken or released
	seq     uint64 // creation order, for eviction
}

type stored struct {
	task    *a2a.Task
	version taskstore.TaskVersion
	owner   string
	seq     uint64
	updated time.Time
}

// slot is room reserved for one task. Its fields are guarded by store.mu.
// A slot is taken by Create or given back by release (done); while the
// executor runs the task it is claimed, and only the executor's own
// cleanup may give it back.
type slot struct {
	s       *store
	done    bool
	claimed bool
}

var _ taskstore.Store = (*store)(nil)

func newStore(capacity int) *store {
	return &store{capacity: capacity, tasks: make(map[a2a.TaskID]*stored)}
}

// reserve makes room for one task, evicting ended tasks if it must.
func (s *store) reserve() (*slot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.makeRoomLocked() {
		return nil, errStoreFull()
	}
	s.pending++
	return &slot{s: s}, nil
}

// release gives back a reservation that no task took.
func (sl *slot) release() {
	if sl == nil {
		return
	}
	sl.s.mu.Lock()
	defer sl.s.mu.Unlock()
	if !sl.done {
		sl.done = true
		sl.s.pending--
	}
}

// claim marks the slot as held by a running task. It reports false when
// the slot was already given back.
func (sl *slot) claim() bool {
	sl.s.mu.Lock()
	defer sl.s.mu.Unlock()
	if sl.done {
		return false
	}
	sl.claimed = true
	return true
}

// releaseUnclaimed gives back a reservation no task is running on,
// reporting whether no task ever claimed it (nothing runs for it).
func (sl *slot) releaseUnclaimed() bool {
	if sl == nil {
		return true
	}
	sl.s.mu.Lock()
	defer sl.s.mu.Unlock()
	if !sl.done && !sl.claimed {
		sl.done = true
		sl.s.pending--
	}
	return !sl.claimed
}

// makeRoomLocked evicts the oldest ended tasks until one more fits.
func (s *store) makeRoomLocked() bool {
	for len(s.tasks)+s.pending >= s.capacity {
		var oldest *stored
		for _, t := range s.tasks {
			if t.task.Status.State.Terminal() && (oldest == nil || t.seq < oldest.seq) {
				oldest = t
			}
		}
		if oldest == nil {
			return false
		}
		delete(s.tasks, oldest.task.ID)
	}
	return true
}

// owner returns who owns a task, if it is stored.
func (s *store) owner(id a2a.TaskID) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[id]
	if !ok {
		return "", false
	}
	return t.owner, true
}

// len returns how many tasks are stored.
func (s *store) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tasks)
}

func userOf(ctx context.Context) (string, error) {
	if cc, ok := a2asrv.CallContextFrom(ctx); ok && cc.User != nil && cc.User.Authenticated && cc.User.Name != "" {
		return cc.User.Name, nil
	}
	return "", a2a.ErrUnauthenticated
}

// copyTask deep-copies a task through its JSON form, which is what clients
// see: no caller can change a stored task through a pointer.
func copyTask(t *a2a.Task) (*a2a.Task, error) {
	b, err := json.Marshal(t)
	if err != nil {
		return nil, fmt.Errorf("a2aagent: copying task: %w", err)
	}
	var out a2a.Task
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("a2aagent: copying task: %w", err)
	}
	return &out, nil
}

func (s *store) Create(ctx context.Context, task *a2a.Task) (taskstore.TaskVersion, error) {
	if task == nil || task.ID == "" {
		return taskstore.TaskVersionMissing, fmt.Errorf("a task needs an id: %w", a2a.ErrInvalidParams)
	}
	user, err := userOf(ctx)
	if err != nil {
		return taskstore.TaskVersionMissing, err
	}
	cp, err := copyTask(task)
	if err != nil {
		return taskstore.TaskVersionMissing, err
	}
	var sl *slot
	if cs := callFrom(ctx); cs != nil {
		sl = cs.slot
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tasks[task.ID]; ok {
		return taskstore.TaskVersionMissing, taskstore.ErrTaskAlreadyExists
	}
	switch {
	case sl != nil && !sl.done:
		sl.done = true
		s.pending--
	case !s.makeRoomLocked():
		return taskstore.TaskVersionMissing, errStoreFull()
	}
	s.seq++
	s.tasks[task.ID] = &stored{task: cp, version: 1, owner: user, seq: s.seq, updated: time.Now()}
	return 1, nil
}

func (s *store) Update(ctx context.Context, req *taskstore.UpdateRequest) (taskstore.TaskVersion, error) {
	if req == nil || req.Task == nil {
		return taskstore.TaskVersionMissing, fmt.Errorf("an update needs a task: %w", a2a.ErrInvalidParams)
	}
	user, err := userOf(ctx)
	if err != nil {
		return taskstore.TaskVersionMissing, err
	}
	cp, err := copyTask(req.Task)
	if err != nil {
		return taskstore.TaskVersionMissing, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[req.Task.ID]
	if !ok || t.owner != user {
		return taskstore.TaskVersionMissing, a2a.ErrTaskNotFound
	}
	if req.PrevVersion != taskstore.TaskVersionMissing && t.version != req.PrevVersion {
		return taskstore.TaskVersionMissing, taskstore.ErrConcurrentModification
	}
	if t.task.Status.State.Terminal() && cp.Status.State != t.task.Status.State {
		// A task settles once: nothing that arrives later changes how it
		// ended.
		return taskstore.TaskVersionMissing, fmt.Errorf("task already ended as %s: %w", t.task.Status.State, a2a.ErrTaskNotCancelable)
	}
	t.task = cp
	t.version++
	t.updated = time.Now()
	return t.version, nil
}

func (s *store) Get(ctx context.Context, id a2a.TaskID) (*taskstore.StoredTask, error) {
	user, err := userOf(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	t, ok := s.tasks[id]
	var task *a2a.Task
	var version taskstore.TaskVersion
	if ok {
		task, version = t.task, t.version
	}
	s.mu.Unlock()
	if !ok || t.owner != user {
		return nil, a2a.ErrTaskNotFound
	}
	cp, err := copyTask(task)
	if err != nil {
		return nil, err
	}
	return &taskstore.StoredTask{Task: cp, Version: version, User: user}, nil
}

// List returns the caller's tasks, most recently updated first. The page
// token is an offset into that order.
func (s *store) List(ctx context.Context, req *a2a.ListTasksRequest) (*a2a.ListTasksResponse, error) {
	user, err := userOf(ctx)
	if err != nil {
		return nil, err
	}
	size := req.PageSize
	switch {
	case size == 0:
		size = 50
	case size < 1 || size > 100:
		return nil, fmt.Errorf("page size must be between 1 and 100: %w", a2a.ErrInvalidParams)
	}
	offset := 0
	if req.PageToken != "" {
		offset, err = strconv.Atoi(req.PageToken)
		if err != nil || offset < 0 {
			return nil, fmt.Errorf("unknown page token: %w", a2a.ErrInvalidParams)
		}
	}
	s.mu.Lock()
	var mine []*stored
	for _, t := range s.tasks {
		if t.owner != user || (req.ContextID != "" && t.task.ContextID != req.ContextID) ||
			(req.Status != a2a.TaskStateUnspecified && t.task.Status.State != req.Status) ||
			(req.StatusTimestampAfter != nil && t.task.Status.Timestamp != nil && t.task.Status.Timestamp.Before(*req.StatusTimestampAfter)) {
			continue
		}
		mine = append(mine, &stored{task: t.task, seq: t.seq, updated: t.updated})
	}
	s.mu.Unlock()
	slices.SortFunc(mine, func(a, b *stored) int {
		if c := b.updated.Compare(a.updated); c != 0 {
			return c
		}
		return strings.Compare(string(b.task.ID), string(a.task.ID))
	})
	resp := &a2a.ListTasksResponse{TotalSize: len(mine), PageSize: size, Tasks: []*a2a.Task{}}
	if offset > len(mine) {
		offset = len(mine)
	}
	end := min(offset+size, len(mine))
	for _, t := range mine[offset:end] {
		cp, err := copyTask(t.task)
		if err != nil {
			return nil, err
		}
		if !req.IncludeArtifacts {
			cp.Artifacts = nil
		}
		if h := req.HistoryLength; h != nil && *h >= 0 && len(cp.History) > *h {
			cp.History = cp.History[len(cp.History)-*h:]
		}
		resp.Tasks = append(resp.Tasks, cp)
	}
	if end < len(mine) {
		resp.NextPageToken = strconv.Itoa(end)
	}
	return resp, nil
}
