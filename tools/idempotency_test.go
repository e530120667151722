package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// The operations of these tests are test-only rows with a countable effect:
// each run that reaches the domain level is recorded, so "exactly one
// effect" is a count, not a guess. Everything else is the real stack: SQLite
// file, auth with API keys, the tools handler over loopback HTTP, and the
// go-sdk MCP client.

// idemThingInput is the input of the test operations.
type idemThingInput struct {
	ID   string `json:"id,omitempty" jsonschema:"maxLength=20"`
	Name string `json:"name" jsonschema:"minLength=1,maxLength=50"`
	Size int    `json:"size,omitempty" jsonschema:"minimum=0,maximum=100"`
}

// idemThing is what they return: which run made it.
type idemThing struct {
	Run  int64  `json:"run"`
	User int64  `json:"user"`
	Name string `json:"name"`
	Size int    `json:"size"`
	At   string `json:"at"`
}

// idemEffects records the runs of the test operations.
type idemEffects struct {
	runs atomic.Int64
	mu   sync.Mutex
	by   map[string]int // "op user name" -> runs
	// gate, when set, is received from before a run ends (holds it in progress).
	gate chan struct{}
	// started is signalled when a run starts (if set).
	started chan struct{}
	// failFirst makes the first run of flaky fail with an internal error.
	failFirst atomic.Bool
}

func (e *idemEffects) count(op string, user int64, name string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.by[fmt.Sprintf("%s %d %s", op, user, name)]
}

func (e *idemEffects) op(name string) func(*domain.Service, context.Context, idemThingInput) (idemThing, error) {
	return func(svc *domain.Service, ctx context.Context, in idemThingInput) (idemThing, error) {
		c, _ := domain.CallerFrom(ctx)
		if e.started != nil {
			select { // never block a run on a test that stopped listening
			case e.started <- struct{}{}:
			default:
			}
		}
		if e.gate != nil {
			<-e.gate
		}
		n := e.runs.Add(1)
		e.mu.Lock()
		e.by[fmt.Sprintf("%s %d %s", name, c.UserID, in.Name)]++
		e.mu.Unlock()
		switch in.Name {
		case "taken":
			return idemThing{}, domain.Errorf(domain.EConflict, "A thing named taken exists for now (run %d).", n)
		case "missing":
			return idemThing{}, domain.NotFound("thing", fmt.Sprintf("missing (run %d)", n))
		}
		if name == "idem_flaky" && e.failFirst.CompareAndSwap(true, false) {
			return idemThing{}, errors.New("flaky: the database went away")
		}
		return idemThing{Run: n, User: c.UserID, Name: in.Name, Size: in.Size, At: svc.Now().Format(time.RFC3339)}, nil
	}
}

func (e *idemEffects) operations() []Operation {
	summary := " (a test operation with a countable effect, used by the idempotency tests of the tools package)."
	return []Operation{
		Op(Spec{Name: "idem_create", Method: "POST", Path: "/things", Scope: domain.ScopeListingsWrite, Idem: true, Status: 201,
			Tag: "Test", Title: "Create a thing", Summary: "Creates a thing" + summary}, e.op("idem_create")),
		Op(Spec{Name: "idem_update", Method: "PATCH", Path: "/things/{id}", Scope: domain.ScopeListingsWrite, Idem: true,
			Tag: "Test", Title: "Update a thing", Summary: "Updates a thing" + summary}, e.op("idem_update")),
		Op(Spec{Name: "idem_flaky", Method: "POST", Path: "/flaky", Scope: domain.ScopeListingsWrite, Idem: true, Status: 201,
			Tag: "Test", Title: "Flaky create", Summary: "Creates a thing, failing once when told to" + summary}, e.op("idem_flaky")),
		Op(Spec{Name: "plain_create", Method: "POST", Path: "/plain", Scope: domain.ScopeListingsWrite, Status: 201,
			Tag: "Test", Title: "Create without Idem", Summary: "Creates a thing; not marked Idem" + summary}, e.op("plain_create")),
	}
}

type idemTestEnv struct {
	*catEnv
	fx   *idemEffects
	idem *idemWatchedStore
}

// idemWatchedStore is storage's IdemStore, watched: it notes which calls
// found their key held by another, so a test can wait for them instead of
// sleeping a guessed time. A call is known by its context, the same in
// every Begin of one call.
type idemWatchedStore struct {
	domain.IdemStore
	mu      sync.Mutex
	waiting map[context.Context]bool
	// more is signalled whenever a call joins waiting.
	more chan struct{}
}

func (s *idemWatchedStore) Begin(ctx context.Context, userID int64, key, op, fp string, now time.Time) (domain.IdemRecord, error) {
	rec, err := s.IdemStore.Begin(ctx, userID, key, op, fp, now)
	if errors.Is(err, domain.ErrIdemInProgress) {
		s.mu.Lock()
		s.waiting[ctx] = true
		s.mu.Unlock()
		select {
		case s.more <- struct{}{}:
		default:
		}
	}
	return rec, err
}

func (s *idemWatchedStore) waiters() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.waiting)
}

// idemTestServer is the real stack serving the test operations; withStore
// false leaves Options.Idem nil.
func idemTestServer(t *testing.T, withStore bool) *idemTestEnv {
	t.Helper()
	return idemTestServerWith(t, withStore, Options{})
}

// idemTestServerWith is idemTestServer with more options (a rate limit).
func idemTestServerWith(t *testing.T, withStore bool, opts Options) *idemTestEnv {
	t.Helper()
	var h http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	clock := testclock.New(catNow)
	// The service and auth as serve wires them (internal/wiring); the idem
	// store spy below is the tools front end's option, not the wiring's.
	world := newTestWorld(t)
	core := wiredCore(t, fixtures.MigratedFile(t), srv.URL, clock.Now, world)
	db, svc, a := core.DB, core.Service, core.Auth
	as := storage.NewAuthStore(db)
	opts.Auth, opts.Logger = a, slog.New(slog.NewTextHandler(io.Discard, nil))
	var watched *idemWatchedStore
	if withStore {
		watched = &idemWatchedStore{IdemStore: storage.NewIdemStore(db), waiting: map[context.Context]bool{}, more: make(chan struct{}, 1)}
		opts.Idem = watched
	}
	fx := &idemEffects{by: map[string]int{}}
	if opts.Now == nil {
		opts.Now = svc.Now
	}
	s := newServer(svc, opts, fx.operations())
	h = s.Handler()
	return &idemTestEnv{catEnv: &catEnv{Server: srv, tools: s, svc: svc, console: core.Console, auth: a, store: as, db: db, clock: clock, core: core, world: world}, fx: fx, idem: watched}
}

// post sends a JSON body with the key (none when key is "-") and bearer.
func (e *idemTestEnv) post(t *testing.T, method, path, bearer, key, body string) catResp {
	t.Helper()
	hdr := map[string]string{"Authorization": "Bearer " + bearer, "Content-Type": "application/json"}
	if key != "-" {
		hdr[IdempotencyKeyHeader] = key
	}
	return catDo(t, e.catEnv, method, path, []byte(body), hdr)
}

func idemWantStatus(t *testing.T, r catResp, status int, what string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("%s: status %d, want %d; body %s", what, r.status, status, r.body)
	}
}

func idemReplayed(r catResp) bool { return r.header.Get(IdempotentReplayedHeader) == "true" }

func TestIdempotency_REST(t *testing.T) {
	t.Parallel()
	e := idemTestServer(t, true)
	alice, bob := e.apiKey(t, "alice@example.com"), e.apiKey(t, "bob@example.com")
	aliceID := idemUserID(t, e, "alice@example.com")

	t.Run("NoKeyNoIdempotency", func(t *testing.T) {
		for i := 0; i < 2; i++ {
			r := e.post(t, "POST", "/v1/things", alice, "-", `{"name":"nokey"}`)
			idemWantStatus(t, r, 201, "no key")
			if idemReplayed(r) {
				t.Error("a call without a key was marked replayed")
			}
		}
		if n := e.fx.count("idem_create", aliceID, "nokey"); n != 2 {
			t.Fatalf("%d effects of two calls without a key, want 2", n)
		}
	})

	t.Run("ReplaySameRequest", func(t *testing.T) {
		first := e.post(t, "POST", "/v1/things", alice, "key-1", `{"name":"one","size":3}`)
		idemWantStatus(t, first, 201, "first")
		if idemReplayed(first) {
			t.Error("the first call was marked replayed")
		}
		// Same request written differently: key order, spacing, 3.0 for 3.
		for _, body := range []string{`{"name":"one","size":3}`, `{ "size": 3.0, "name": "one" }`} {
			again := e.post(t, "POST", "/v1/things", alice, "key-1", body)
			idemWantStatus(t, again, 201, "replay")
			if !bytes.Equal(again.body, first.body) || !idemReplayed(again) {
				t.Errorf("replay of %s: body %s replayed=%v; want the first body %s, replayed", body, again.body, idemReplayed(again), first.body)
			}
		}
		if n := e.fx.count("idem_create", aliceID, "one"); n != 1 {
			t.Fatalf("%d effects, want 1", n)
		}
	})

	t.Run("SameKeyOtherRequest422", func(t *testing.T) {
		for _, c := range []struct{ method, path, body, want string }{
			{"POST", "/v1/things", `{"name":"one","size":4}`, "with different arguments"},
			{"POST", "/v1/things", `{"name":"two","size":3}`, "with different arguments"},
			{"PATCH", "/v1/things/x1", `{"name":"one","size":3}`, "for idem_create"},
		} {
			r := e.post(t, c.method, c.path, alice, "key-1", c.body)
			idemWantStatus(t, r, 422, c.method+" "+c.body)
			p := catProblem(t, r)
			if p.Code != CodeIdempotencyKeyReused || len(p.Errors) != 1 || p.Errors[0].Field != IdempotencyKeyHeader ||
				!strings.Contains(p.Detail, c.want) {
				t.Errorf("%s %s: problem %+v; want code %s naming %s and saying %q", c.method, c.body, p, CodeIdempotencyKeyReused, IdempotencyKeyHeader, c.want)
			}
		}
		if n := e.fx.runs.Load(); e.fx.count("idem_create", aliceID, "two") != 0 || e.fx.count("idem_update", aliceID, "one") != 0 {
			t.Fatalf("a refused request ran (%d runs in all)", n)
		}
	})

	t.Run("ScopedToCaller", func(t *testing.T) {
		a := e.post(t, "POST", "/v1/things", alice, "shared-key", `{"name":"scoped"}`)
		b := e.post(t, "POST", "/v1/things", bob, "shared-key", `{"name":"scoped"}`)
		idemWantStatus(t, a, 201, "alice")
		idemWantStatus(t, b, 201, "bob")
		if idemReplayed(b) || bytes.Equal(a.body, b.body) {
			t.Fatalf("bob got alice's answer: %s / %s", a.body, b.body)
		}
		// Bob may even use the key for another request than alice's.
		idemWantStatus(t, e.post(t, "POST", "/v1/things", bob, "key-1", `{"name":"bobs own"}`), 201, "bob key-1")
	})

	t.Run("NotFoundIsReplayed", func(t *testing.T) {
		first := e.post(t, "POST", "/v1/things", alice, "key-missing", `{"name":"missing"}`)
		idemWantStatus(t, first, 404, "missing")
		again := e.post(t, "POST", "/v1/things", alice, "key-missing", `{"name":"missing"}`)
		idemWantStatus(t, again, 404, "missing again")
		if !bytes.Equal(again.body, first.body) || !idemReplayed(again) || again.header.Get("Content-Type") != ProblemContentType {
			t.Errorf("replayed error %s (%s), want %s replayed as problem+json", again.body, again.header.Get("Content-Type"), first.body)
		}
		if n := e.fx.count("idem_create", aliceID, "missing"); n != 1 {
			t.Fatalf("%d runs, want 1", n)
		}
	})

	t.Run("ConflictReleasesKey", func(t *testing.T) {
		// A conflict belongs to the moment; the retry runs again.
		for i := 0; i < 2; i++ {
			r := e.post(t, "POST", "/v1/things", alice, "key-taken", `{"name":"taken"}`)
			idemWantStatus(t, r, 409, "taken")
			if idemReplayed(r) {
				t.Error("a conflict was replayed")
			}
		}
		if n := e.fx.count("idem_create", aliceID, "taken"); n != 2 {
			t.Fatalf("%d runs, want 2", n)
		}
	})

	t.Run("InvalidInputClaimsNothing", func(t *testing.T) {
		r := e.post(t, "POST", "/v1/things", alice, "key-inv", `{"name":"","size":101}`)
		idemWantStatus(t, r, 400, "invalid body")
		// The REST body stays closed: the key is a header here, never a body field.
		r = e.post(t, "POST", "/v1/things", alice, "key-inv", `{"name":"x","idempotency_key":"key-inv"}`)
		idemWantStatus(t, r, 400, "idempotency_key in the body")
		e2eCheckFieldRules(t, e2eProblem{Errors: catProblem(t, r).Errors}, []e2eFieldRule{{"idempotency_key", "additionalProperties"}})
		// The key is still free for a valid request.
		r = e.post(t, "POST", "/v1/things", alice, "key-inv", `{"name":"valid"}`)
		idemWantStatus(t, r, 201, "valid after invalid")
		if idemReplayed(r) {
			t.Error("first valid call replayed")
		}
	})

	t.Run("BadKeys", func(t *testing.T) {
		for _, c := range []struct{ name, key, rule string }{
			{"Empty", "", "minLength"},
			{"TooLong", strings.Repeat("k", 256), "maxLength"},
			{"NotASCII", "schlüssel", "pattern"},
			{"Control", "a\tb", "pattern"},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.post(t, "POST", "/v1/things", alice, c.key, `{"name":"badkey"}`)
				idemWantStatus(t, r, 400, c.name)
				p := catProblem(t, r)
				if len(p.Errors) != 1 || p.Errors[0].Field != IdempotencyKeyHeader || p.Errors[0].Rule != c.rule {
					t.Errorf("errors %+v, want %s %s", p.Errors, IdempotencyKeyHeader, c.rule)
				}
			})
		}
		t.Run("TwoHeaders", func(t *testing.T) {
			req, _ := http.NewRequest("POST", e.URL+"/v1/things", strings.NewReader(`{"name":"badkey"}`))
			req.Header.Set("Authorization", "Bearer "+alice)
			req.Header.Add(IdempotencyKeyHeader, "a")
			req.Header.Add(IdempotencyKeyHeader, "b")
			res, err := e.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != 400 {
				t.Errorf("two Idempotency-Key headers: status %d, want 400", res.StatusCode)
			}
		})
		// 255 printable characters, spaces included, are a key.
		idemWantStatus(t, e.post(t, "POST", "/v1/things", alice, strings.Repeat("a b~", 63)+"xyz", `{"name":"longkey"}`), 201, "255 characters")
		if n := e.fx.count("idem_create", aliceID, "badkey"); n != 0 {
			t.Fatalf("a call with a bad key ran %d times", n)
		}
	})

	t.Run("NotIdemIgnoresKey", func(t *testing.T) {
		for i := 0; i < 2; i++ {
			r := e.post(t, "POST", "/v1/plain", alice, "key-plain", `{"name":"plain"}`)
			idemWantStatus(t, r, 201, "plain")
			if idemReplayed(r) {
				t.Error("an operation not marked Idem replayed")
			}
		}
		if n := e.fx.count("plain_create", aliceID, "plain"); n != 2 {
			t.Fatalf("%d effects, want 2: only Idem operations use the key", n)
		}
	})

	t.Run("PathParamsAreArguments", func(t *testing.T) {
		a := e.post(t, "PATCH", "/v1/things/a1", alice, "key-path", `{"name":"p"}`)
		idemWantStatus(t, a, 200, "a1")
		idemWantStatus(t, e.post(t, "PATCH", "/v1/things/a1", alice, "key-path", `{"name":"p"}`), 200, "a1 again")
		idemWantStatus(t, e.post(t, "PATCH", "/v1/things/b2", alice, "key-path", `{"name":"p"}`), 422, "b2 with a1's key")
		if n := e.fx.count("idem_update", aliceID, "p"); n != 1 {
			t.Fatalf("%d effects, want 1", n)
		}
	})

	t.Run("InternalErrorReleasesKey", func(t *testing.T) {
		e.fx.failFirst.Store(true)
		r := e.post(t, "POST", "/v1/flaky", alice, "key-flaky", `{"name":"flaky"}`)
		idemWantStatus(t, r, 500, "first, failing")
		retry := e.post(t, "POST", "/v1/flaky", alice, "key-flaky", `{"name":"flaky"}`)
		idemWantStatus(t, retry, 201, "retry")
		if idemReplayed(retry) {
			t.Error("the retry of a failed call was a replay")
		}
		third := e.post(t, "POST", "/v1/flaky", alice, "key-flaky", `{"name":"flaky"}`)
		if third.status != 201 || !idemReplayed(third) || !bytes.Equal(third.body, retry.body) {
			t.Errorf("third call %d %s, want the retry's answer replayed", third.status, third.body)
		}
		if n := e.fx.count("idem_flaky", aliceID, "flaky"); n != 2 {
			t.Fatalf("%d runs, want 2 (the failure and the retry)", n)
		}
	})
}

// idemUserID reads the id of the user created by apiKey.
func idemUserID(t *testing.T, e *idemTestEnv, email string) int64 {
	t.Helper()
	u, err := e.store.UserByEmail(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// TestIdempotency_Expiry: the answer is kept 24 hours after the call; then
// the key is free again.
func TestIdempotency_Expiry(t *testing.T) {
	t.Parallel()
	e := idemTestServer(t, true)
	key := e.apiKey(t, "alice@example.com")
	uid := idemUserID(t, e, "alice@example.com")
	first := e.post(t, "POST", "/v1/things", key, "day-key", `{"name":"daily"}`)
	idemWantStatus(t, first, 201, "first")

	e.clock.Set(catNow.Add(domain.IdemTTL - time.Second))
	r := e.post(t, "POST", "/v1/things", key, "day-key", `{"name":"daily"}`)
	if !idemReplayed(r) || !bytes.Equal(r.body, first.body) {
		t.Fatalf("a second before 24h: %d %s, want the replay", r.status, r.body)
	}
	e.clock.Set(catNow.Add(domain.IdemTTL))
	r = e.post(t, "POST", "/v1/things", key, "day-key", `{"name":"daily"}`)
	idemWantStatus(t, r, 201, "after 24h")
	if idemReplayed(r) || bytes.Equal(r.body, first.body) {
		t.Fatalf("after 24h: %s replayed=%v, want a new run", r.body, idemReplayed(r))
	}
	if n := e.fx.count("idem_create", uid, "daily"); n != 2 {
		t.Fatalf("%d runs, want 2", n)
	}
}

// TestIdempotency_Concurrent: 20 concurrent calls with one key make one
// effect and 20 equal answers, over REST and over MCP.
func TestIdempotency_Concurrent(t *testing.T) {
	t.Parallel()
	const n = 20
	e := idemTestServer(t, true)
	key := e.apiKey(t, "alice@example.com")
	uid := idemUserID(t, e, "alice@example.com")
	// Hold the one run until all twenty calls are in: the other nineteen
	// then certainly meet the pending claim, and wait for its answer.
	e.fx.gate = make(chan struct{})
	e.fx.started = make(chan struct{}, n)

	t.Run("REST", func(t *testing.T) {
		answers := make([]catResp, n)
		var wg sync.WaitGroup
		for i := range answers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequest("POST", e.URL+"/v1/things", strings.NewReader(`{"name":"race"}`))
				req.Header.Set("Authorization", "Bearer "+key)
				req.Header.Set(IdempotencyKeyHeader, "race-key")
				res, err := e.Client().Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				defer res.Body.Close()
				b, _ := io.ReadAll(res.Body)
				answers[i] = catResp{res.StatusCode, res.Header, b}
			}()
		}
		release := sync.OnceFunc(func() { close(e.fx.gate) })
		defer func() { release(); wg.Wait() }() // also when the test fails: no call is left blocked
		<-e.fx.started
		idemWaitForWaiters(t, e, n-1)
		release()
		wg.Wait()
		replays := 0
		for i, a := range answers {
			if a.status != 201 || !bytes.Equal(a.body, answers[0].body) {
				t.Errorf("answer %d: %d %s, want 201 %s", i, a.status, a.body, answers[0].body)
			}
			if idemReplayed(a) {
				replays++
			}
		}
		if got := e.fx.count("idem_create", uid, "race"); got != 1 || replays != n-1 {
			t.Fatalf("%d effects and %d replays of %d calls, want 1 and %d", got, replays, n, n-1)
		}
	})

	t.Run("MCP", func(t *testing.T) {
		e.fx.gate = make(chan struct{})
		e.idem.mu.Lock()
		clear(e.idem.waiting)
		e.idem.mu.Unlock()
		cs := catConnect(t, e.URL, MCPProtocolVersions[0], map[string]string{"Authorization": "Bearer " + key})
		texts := make([]string, n)
		var wg sync.WaitGroup
		for i := range texts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "idem_create",
					Arguments: map[string]any{"name": "race-mcp", "idempotency_key": "race-key-mcp"}})
				if err != nil || res.IsError || len(res.Content) != 1 {
					t.Errorf("call %d: %v %+v", i, err, res)
					return
				}
				texts[i] = res.Content[0].(*mcp.TextContent).Text
			}()
		}
		release := sync.OnceFunc(func() { close(e.fx.gate) })
		defer func() { release(); wg.Wait() }()
		<-e.fx.started
		idemWaitForWaiters(t, e, n-1)
		release()
		wg.Wait()
		for i, s := range texts {
			if s != texts[0] {
				t.Errorf("answer %d: %s, want %s", i, s, texts[0])
			}
		}
		if got := e.fx.count("idem_create", uid, "race-mcp"); got != 1 {
			t.Fatalf("%d effects of %d calls, want 1", got, n)
		}
	})
}

// idemWaitForWaiters waits until want calls have found their key held by
// the running call (and so are polling for its answer).
func idemWaitForWaiters(t *testing.T, e *idemTestEnv, want int) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for e.idem.waiters() < want {
		select {
		case <-e.idem.more:
		case <-timeout:
			t.Fatalf("only %d of %d duplicate calls met the pending claim", e.idem.waiters(), want)
		}
	}
}

// idemProblemOf decodes the problem of an isError tool result.
func idemProblemOf(t *testing.T, res *mcp.CallToolResult, text string) Problem {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want isError, got %s", text)
	}
	var p Problem
	if err := json.Unmarshal([]byte(text), &p); err != nil {
		t.Fatalf("problem %s: %v", text, err)
	}
	return p
}

func TestIdempotency_MCP(t *testing.T) {
	t.Parallel()
	e := idemTestServer(t, true)
	key := e.apiKey(t, "alice@example.com")
	uid := idemUserID(t, e, "alice@example.com")
	bearer := map[string]string{"Authorization": "Bearer " + key}
	cs := catConnect(t, e.URL, MCPProtocolVersions[0], bearer)

	t.Run("ToolSchema", func(t *testing.T) {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range res.Tools {
			b, _ := json.Marshal(tl.InputSchema)
			has := bytes.Contains(b, []byte(`"idempotency_key":{`))
			if want := tl.Name != "plain_create"; has != want {
				t.Errorf("%s: idempotency_key in the input schema = %v, want %v", tl.Name, has, want)
			}
		}
		// In the catalog row (sent verbatim) it comes after the operation's own
		// properties, which keep their order.
		b := e.tools.byName["idem_create"].InputSchema
		i, j, k := bytes.Index(b, []byte(`"name":`)), bytes.Index(b, []byte(`"size":`)), bytes.Index(b, []byte(`"idempotency_key":`))
		if !(i < j && j < k) || !bytes.Contains(b, []byte("retrying this same call")) {
			t.Errorf("idem_create input schema %s", b)
		}
		if a := e.tools.byName["idem_create"].ArgsSchema(); bytes.Contains(a, []byte(idemArgument)) {
			t.Errorf("ArgsSchema has %s: %s", idemArgument, a)
		}
	})

	t.Run("Argument", func(t *testing.T) {
		args := map[string]any{"name": "arg", "size": 2, "idempotency_key": "mcp-arg"}
		r1, t1 := catCall(t, cs, "idem_create", args)
		r2, t2 := catCall(t, cs, "idem_create", map[string]any{"idempotency_key": "mcp-arg", "name": "arg", "size": 2.0})
		if r1.IsError || r2.IsError || t1 != t2 {
			t.Fatalf("replay over MCP: %s / %s", t1, t2)
		}
		if n := e.fx.count("idem_create", uid, "arg"); n != 1 {
			t.Fatalf("%d effects, want 1", n)
		}
		r3, t3 := catCall(t, cs, "idem_create", map[string]any{"name": "other", "idempotency_key": "mcp-arg"})
		p := idemProblemOf(t, r3, t3)
		if p.Status != 422 || p.Code != CodeIdempotencyKeyReused || len(p.Errors) != 1 || p.Errors[0].Field != "idempotency_key" {
			t.Errorf("reuse over MCP: %s", t3)
		}
	})

	t.Run("Header", func(t *testing.T) {
		hcs := catConnect(t, e.URL, MCPProtocolVersions[0], map[string]string{"Authorization": "Bearer " + key, IdempotencyKeyHeader: "mcp-hdr"})
		_, t1 := catCall(t, hcs, "idem_create", map[string]any{"name": "hdr"})
		_, t2 := catCall(t, hcs, "idem_create", map[string]any{"name": "hdr"})
		// The argument may repeat the header's value.
		_, t3 := catCall(t, hcs, "idem_create", map[string]any{"name": "hdr", "idempotency_key": "mcp-hdr"})
		if t1 != t2 || t1 != t3 {
			t.Fatalf("header replay: %s / %s / %s", t1, t2, t3)
		}
		if n := e.fx.count("idem_create", uid, "hdr"); n != 1 {
			t.Fatalf("%d effects, want 1", n)
		}
		// A different argument is a contradiction.
		r, text := catCall(t, hcs, "idem_create", map[string]any{"name": "hdr", "idempotency_key": "other"})
		p := idemProblemOf(t, r, text)
		if p.Status != 400 || len(p.Errors) != 1 || p.Errors[0].Field != "idempotency_key" || p.Errors[0].Rule != "not_equal" {
			t.Errorf("header and argument differ: %s", text)
		}
		// The header of the /mcp request reaches every tool of it; those not
		// marked Idem ignore it.
		catCall(t, hcs, "plain_create", map[string]any{"name": "plain-mcp"})
		catCall(t, hcs, "plain_create", map[string]any{"name": "plain-mcp"})
		if n := e.fx.count("plain_create", uid, "plain-mcp"); n != 2 {
			t.Fatalf("%d effects of a tool not marked Idem, want 2", n)
		}
	})

	t.Run("BadArgument", func(t *testing.T) {
		for _, c := range []struct {
			tool       string
			key        any
			rule, name string
		}{
			{"idem_create", 42, "type", "number"},
			{"idem_create", "", "minLength", "empty"},
			{"idem_create", strings.Repeat("x", 256), "maxLength", "long"},
			{"plain_create", "k", "additionalProperties", "not Idem"},
		} {
			r, text := catCall(t, cs, c.tool, map[string]any{"name": "bad-arg", "idempotency_key": c.key})
			p := idemProblemOf(t, r, text)
			if p.Status != 400 || len(p.Errors) != 1 || p.Errors[0].Field != "idempotency_key" || p.Errors[0].Rule != c.rule {
				t.Errorf("%s: %s, want 400 idempotency_key %s", c.name, text, c.rule)
			}
		}
		if n := e.fx.count("idem_create", uid, "bad-arg") + e.fx.count("plain_create", uid, "bad-arg"); n != 0 {
			t.Fatalf("a call with a bad key ran %d times", n)
		}
	})

	t.Run("SharedWithREST", func(t *testing.T) {
		rest := e.post(t, "POST", "/v1/things", key, "cross-key", `{"name":"cross","size":7}`)
		idemWantStatus(t, rest, 201, "REST")
		r, text := catCall(t, cs, "idem_create", map[string]any{"size": 7, "name": "cross", "idempotency_key": "cross-key"})
		if r.IsError || text != string(rest.body) {
			t.Fatalf("MCP after REST with the same key: %s, want the REST answer %s", text, rest.body)
		}
		sc, _ := json.Marshal(r.StructuredContent)
		var a, b any
		json.Unmarshal(sc, &a)
		json.Unmarshal(rest.body, &b)
		if !jsonEqual(a, b) {
			t.Errorf("structuredContent %s, want %s", sc, rest.body)
		}
		// And the other way round, with an error answer.
		r, text = catCall(t, cs, "idem_create", map[string]any{"name": "missing", "idempotency_key": "cross-err"})
		rest = e.post(t, "POST", "/v1/things", key, "cross-err", `{"name":"missing"}`)
		if !r.IsError || rest.status != 404 || text != string(rest.body) || !idemReplayed(rest) {
			t.Errorf("REST after MCP error: %d %s, want the replayed %s", rest.status, rest.body, text)
		}
		if n := e.fx.count("idem_create", uid, "cross") + e.fx.count("idem_create", uid, "missing"); n != 2 {
			t.Fatalf("%d effects, want 2", n)
		}
	})
}

// TestIdempotency_InProgress: a duplicate that cannot wait for the call
// holding its key gets 409; once that call is done, its answer is replayed.
func TestIdempotency_InProgress(t *testing.T) {
	t.Parallel()
	e := idemTestServer(t, true)
	e.tools.idemWait = 0 // no waiting: answer 409 at once
	// A guard against a hang, not a timing assertion: if the duplicate ran
	// instead of answering 409, it would block on the gate below.
	e.Client().Timeout = time.Minute
	key := e.apiKey(t, "alice@example.com")
	e.fx.gate = make(chan struct{})
	e.fx.started = make(chan struct{}, 1)
	done := make(chan catResp, 1)
	go func() {
		req, _ := http.NewRequest("POST", e.URL+"/v1/things", strings.NewReader(`{"name":"slow"}`))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set(IdempotencyKeyHeader, "slow-key")
		res, err := e.Client().Do(req)
		if err != nil {
			done <- catResp{}
			return
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		done <- catResp{res.StatusCode, res.Header, b}
	}()
	release := sync.OnceFunc(func() { close(e.fx.gate) })
	defer release() // also when the test fails: the first call is not left blocked
	<-e.fx.started  // the first call holds the key and is running

	dup := e.post(t, "POST", "/v1/things", key, "slow-key", `{"name":"slow"}`)
	idemWantStatus(t, dup, 409, "duplicate in progress")
	if p := catProblem(t, dup); p.Code != domain.EConflict || !strings.Contains(p.Detail, "still in progress") {
		t.Errorf("problem %+v", p)
	}
	// A different request with the key is refused even while it is pending.
	idemWantStatus(t, e.post(t, "POST", "/v1/things", key, "slow-key", `{"name":"fast"}`), 422, "other request while pending")

	release()
	first := <-done
	idemWantStatus(t, first, 201, "first")
	again := e.post(t, "POST", "/v1/things", key, "slow-key", `{"name":"slow"}`)
	if again.status != 201 || !bytes.Equal(again.body, first.body) || !idemReplayed(again) {
		t.Fatalf("after the first call: %d %s, want its answer replayed", again.status, again.body)
	}
}

// TestIdempotency_NoStore: without an IdemStore a key cannot be honoured, and
// the call says so instead of running twice on a retry; without a key the
// operation works.
func TestIdempotency_NoStore(t *testing.T) {
	t.Parallel()
	e := idemTestServer(t, false)
	key := e.apiKey(t, "alice@example.com")
	idemWantStatus(t, e.post(t, "POST", "/v1/things", key, "-", `{"name":"x"}`), 201, "no key")
	r := e.post(t, "POST", "/v1/things", key, "k", `{"name":"x"}`)
	idemWantStatus(t, r, 500, "key without a store")
	if p := catProblem(t, r); p.Detail != internalMessage {
		t.Errorf("detail %q leaks", p.Detail)
	}
}

func TestIdempotency_Fingerprint(t *testing.T) {
	t.Parallel()
	fp := func(op, args string) string {
		t.Helper()
		s, err := idemFingerprint(op, json.RawMessage(args))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	same := [][2]string{
		{`{"a":1,"b":"x"}`, `{ "b" : "x", "a" : 1 }`},
		{`{"n":20}`, `{"n":20.0}`},
		{`{"n":20}`, `{"n":2e1}`},
		{`{"n":1.5}`, `{"n":1.50}`},
		{`{"l":[{"y":1,"x":2}]}`, `{"l":[{"x":2,"y":1}]}`},
		{`{"s":"<a&b>"}`, `{"s":"\u003ca\u0026b\u003e"}`},
	}
	for _, p := range same {
		if fp("op", p[0]) != fp("op", p[1]) {
			t.Errorf("%s and %s differ", p[0], p[1])
		}
	}
	differ := [][2]string{
		{`{"n":20}`, `{"n":"20"}`},
		{`{"n":1.5}`, `{"n":1.05}`},
		{`{"l":[1,2]}`, `{"l":[2,1]}`},
		{`{"a":null}`, `{}`},
		{`{"n":9007199254740993}`, `{"n":9007199254740992}`},
	}
	for _, p := range differ {
		if fp("op", p[0]) == fp("op", p[1]) {
			t.Errorf("%s and %s are the same request", p[0], p[1])
		}
	}
	if fp("a", `{}`) == fp("b", `{}`) {
		t.Error("the operation is not part of the fingerprint")
	}
}

// TestIdempotency_OpenAPI: Idem operations declare the header, the 409 and
// the 422, and a body without idempotency_key; others do not.
func TestIdempotency_OpenAPI(t *testing.T) {
	t.Parallel()
	fx := &idemEffects{by: map[string]int{}}
	raw, err := OpenAPI(fx.operations(), catSnapshotServer)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name string `json:"name"`
				In   string `json:"in"`
			} `json:"parameters"`
			RequestBody struct {
				Content map[string]struct {
					Schema struct {
						Properties map[string]any `json:"properties"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
			Responses map[string]map[string]any `json:"responses"`
		} `json:"paths"`
		Components struct {
			Responses map[string]any `json:"responses"`
			Headers   map[string]any `json:"headers"`
			Schemas   map[string]struct {
				Properties map[string]struct {
					Enum []string `json:"enum"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, method, success string
		idem                  bool
	}{{"/things", "post", "201", true}, {"/things/{id}", "patch", "200", true}, {"/plain", "post", "201", false}} {
		o := doc.Paths[c.path][c.method]
		header := slices.ContainsFunc(o.Parameters, func(p struct {
			Name string `json:"name"`
			In   string `json:"in"`
		}) bool {
			return p.Name == IdempotencyKeyHeader && p.In == "header"
		})
		_, has409 := o.Responses["409"]
		_, has422 := o.Responses["422"]
		_, replayHeader := o.Responses[c.success]["headers"]
		if header != c.idem || has409 != c.idem || has422 != c.idem || replayHeader != c.idem {
			t.Errorf("%s %s: header %v, 409 %v, 422 %v, Idempotent-Replayed %v; want all %v", c.method, c.path, header, has409, has422, replayHeader, c.idem)
		}
		props := o.RequestBody.Content["application/json"].Schema.Properties
		if _, ok := props[idemArgument]; ok || props["name"] == nil {
			t.Errorf("%s %s: request body properties %v, want the operation's own without %s", c.method, c.path, props, idemArgument)
		}
	}
	for _, name := range []string{"Conflict", "IdempotencyKeyReused"} {
		if doc.Components.Responses[name] == nil {
			t.Errorf("no shared response %s", name)
		}
	}
	if doc.Components.Headers[IdempotentReplayedHeader] == nil {
		t.Error("no Idempotent-Replayed header component")
	}
	if !slices.Contains(doc.Components.Schemas["Problem"].Properties["code"].Enum, string(CodeIdempotencyKeyReused)) {
		t.Error("Problem.code does not list idempotency_key_reused")
	}
}
