package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
)

// Options configures the transports.
type Options struct {
	// RateLimit is the number of operation calls per second allowed per client
	// (REST requests and MCP tool calls alike); 0 means unlimited.
	RateLimit float64
	// RateBurst is the bucket size per client; 0 means ceil(RateLimit).
	RateBurst int
	// Logger receives internal errors; nil means slog.Default().
	Logger *slog.Logger
	// Auth checks bearer credentials (OAuth access tokens and API keys). nil
	// accepts none: protected operations then always answer 401.
	Auth Authenticator
	// Failures is the budget of failed credentials per network (bad bearer
	// tokens and API keys on /v1 and /mcp, shared with auth's /token and
	// sign-in links): a bad credential costs one; when none is left, any
	// request with a credential gets 429 before it is checked. nil: no limit.
	Failures *ratelimit.Limiter
	// Session limits, per network, the /mcp requests that are not tools/call
	// (initialize, tools/list, ping, notifications, GET and DELETE); tools/call
	// counts against RateLimit instead. nil: no limit.
	Session *ratelimit.Limiter
	// Idem keeps the answers of calls made with an Idempotency-Key (storage's
	// IdemStore). nil: a call that sends a key to an Idem operation fails with
	// an internal error rather than silently running twice on a retry.
	Idem domain.IdemStore
	// Now is the clock of the per-client rate limiter (required).
	Now func() time.Time
	// RequestTimeout bounds each operation call, REST or MCP tools/call
	// (--request-timeout): its context gets this deadline, so a call waiting
	// for a database connection of a full pool (--db-max-conns) ends with
	// 503 unavailable and Retry-After instead of waiting for ever. Only the
	// call is bounded, not the HTTP request: MCP streams (GET,
	// subscriptions/listen) never run through it. 0: no deadline.
	RequestTimeout time.Duration
}

// Server serves the operation catalog over REST (/v1) and MCP (/mcp).
type Server struct {
	svc     *domain.Service
	auth    Authenticator
	log     *slog.Logger
	limiter *ratelimit.Limiter
	ops     []*bound
	byName  map[string]*bound
	openapi []byte
	handler http.Handler
	// toolsets holds the MCP server of each toolset selection, built on its
	// first request (defaultSelection: every tool). A server whose /mcp is
	// never asked builds none: a test binary builds ~150 servers, most of
	// them for REST or pages alone.
	toolsets *toolsetServers

	// failures and session are the per-network budgets of Options.
	failures *ratelimit.Limiter
	session  *ratelimit.Limiter

	idem domain.IdemStore
	// idemWait is how long a call waits for a concurrent call holding its
	// Idempotency-Key before answering 409.
	idemWait time.Duration
	// timeout is Options.RequestTimeout.
	timeout time.Duration
}

// bound is an operation with its compiled input validator.
type bound struct {
	Operation
	v *inputValidator
}

// New builds the transports for svc from the catalog. It panics if the
// catalog is malformed (a programming error the catalog tests catch); an
// MCP server is built when /mcp is first asked for its toolset selection
// (or by MCPServer), and panics then if the SDK refuses a tool.
func New(svc *domain.Service, opts Options) *Server {
	return newServerWith(svc, opts, Catalog(), catalogOpenAPI)
}

// compiled holds what a server derives from its operations alone, shared by
// every server of the process: an operation's input validator (keyed by its
// name and schema text) and the OpenAPI document (keyed by the API address and
// the operations' names). Both are read-only once built; serve builds one
// server, a test binary builds hundreds over the same catalog, each on an
// address of its own.
var compiled struct {
	validators sync.Map // name + "\x00" + schema -> *inputValidator
	openapi    sync.Map // API address -> the catalog's []byte
}

// openapiOrigin stands for the site's origin in the catalog's document built
// once per process; catalogOpenAPI writes each address's origin in its place.
// The .invalid name (RFC 2606) is in no other part of the document.
const openapiOrigin = "https://origin.openapi.invalid"

// catalogOpenAPI is OpenAPI(Catalog(), apiBase), built once per process: the
// origin is only ever text inside the document's strings (the servers entry,
// contact, OAuth endpoints, the examples' URLs), so the document of one
// origin is that of openapiOrigin with the origin written in its place
// (TestCatalogOpenAPI_SameAsBuilt). An address that is not an origin
// followed by the API prefix, or whose origin JSON would escape, gets a
// document built for it. Only the catalog's document is shared: a server of
// other operations (tests) builds its own.
func catalogOpenAPI(ops []Operation, apiBase string) ([]byte, error) {
	if doc, ok := compiled.openapi.Load(apiBase); ok {
		return doc.([]byte), nil
	}
	var doc []byte
	origin, ok := strings.CutSuffix(apiBase, domain.APIPrefix)
	if quoted, _ := json.Marshal(origin); !ok || origin == "" || origin == openapiOrigin || string(quoted) != `"`+origin+`"` {
		built, err := OpenAPI(ops, apiBase)
		if err != nil {
			return nil, err
		}
		doc = built
	} else {
		tmpl, err := catalogOpenAPI(ops, openapiOrigin+domain.APIPrefix)
		if err != nil {
			return nil, err
		}
		doc = bytes.ReplaceAll(tmpl, []byte(openapiOrigin), []byte(origin))
	}
	got, _ := compiled.openapi.LoadOrStore(apiBase, doc)
	return got.([]byte), nil
}

func compiledValidator(name string, schema json.RawMessage) (*inputValidator, error) {
	key := name + "\x00" + string(schema)
	if v, ok := compiled.validators.Load(key); ok {
		return v.(*inputValidator), nil
	}
	v, err := newInputValidator(name, schema)
	if err != nil {
		return nil, err
	}
	got, _ := compiled.validators.LoadOrStore(key, v)
	return got.(*inputValidator), nil
}

// newServer builds the transports for a given list of operations.
func newServer(svc *domain.Service, opts Options, ops []Operation) *Server {
	return newServerWith(svc, opts, ops, OpenAPI)
}

// newServerWith is newServer with the function that builds the OpenAPI
// document.
func newServerWith(svc *domain.Service, opts Options, ops []Operation, openapi func([]Operation, string) ([]byte, error)) *Server {
	if opts.Now == nil {
		panic("tools: New without a clock (Options.Now)")
	}
	s := &Server{svc: svc, auth: opts.Auth, log: opts.Logger, limiter: newOperationLimiter(opts.RateLimit, opts.RateBurst, opts.Now), byName: map[string]*bound{},
		idem: opts.Idem, idemWait: idemWaitDefault, failures: opts.Failures, session: opts.Session,
		timeout: max(opts.RequestTimeout, 0)}
	if s.log == nil {
		s.log = slog.Default()
	}
	for _, op := range ops {
		v, err := compiledValidator(op.Name, op.ArgsSchema())
		if err != nil {
			panic(fmt.Sprintf("tools: %s: %v", op.Name, err))
		}
		b := &bound{Operation: op, v: v}
		s.ops = append(s.ops, b)
		s.byName[op.Name] = b
	}
	doc, err := openapi(ops, svc.Site.URL(domain.APIPrefix))
	if err != nil {
		panic(fmt.Sprintf("tools: openapi: %v", err))
	}
	s.openapi = doc
	s.toolsets = &toolsetServers{by: map[selection]*mcp.Server{}, new: s.newMCPServer}
	s.handler = s.routes()
	return s
}

// Catalog returns the operations served now, in catalog order. Operations of
// the spec that are not served yet are not in it (see catalog_test.go).
func Catalog() []Operation {
	return append([]Operation(nil), catalog()...)
}

var catalog = sync.OnceValue(func() []Operation {
	ops := append(PublicOperations(), AccountOperations()...)
	ops = append(ops, DraftOperations()...)
	ops = append(ops, OwnerOperations()...)
	ops = append(ops, OwnerEditOperations()...)
	ops = append(ops, OwnerContentOperations()...)
	ops = append(ops, OwnerFreeOperations()...)
	ops = append(ops, OrderOperations()...)
	ops = append(ops, ClaimOperations()...)
	ops = append(ops, TrophyOperations()...)
	ops = append(ops, ProgrammeOperations()...)
	return append(ops, WebhookOperations()...)
})

// Operations returns the catalog rows this server serves.
func (s *Server) Operations() []Operation {
	out := make([]Operation, len(s.ops))
	for i, b := range s.ops {
		out[i] = b.Operation
	}
	return out
}

// Handler serves /v1/... (REST and /v1/openapi.json) and /mcp, with CORS.
func (s *Server) Handler() http.Handler { return s.handler }

// MCPServer returns the MCP server behind /mcp with every tool (for in-process clients and tests).
func (s *Server) MCPServer() *mcp.Server { return s.toolsets.get(defaultSelection) }
