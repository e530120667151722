package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/domain"
)

// MCPProtocolVersions are the MCP protocol versions the server speaks:
// 2026-07-28 (stateless, no initialize) and the initialize-based versions.
var MCPProtocolVersions = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}

// Version is the version of the API (REST and MCP).
const Version = "1.0.0"

func (s *Server) instructions() string {
	return s.svc.Site.Name + " is a public launch directory of software products: listings with full profiles, " +
		"weekly launch calendars (weeks run Monday to Sunday UTC), leaderboards, Launch of the Week awards, founders, " +
		"a blog and embeddable badges. " + s.accessNote() + "\n" +
		"Start with get_site_info. To find products use search_listings (typo-tolerant full text plus filters), then " +
		"get_listing for a full profile, get_alternatives and compare_listings. For \"what launched this week?\" use " +
		"get_launch_week with week=this, or list_launches.\n" +
		"Three rankings are separate: community votes (votes come only from people on the site; there is no voting " +
		"through the API), the billboard (a PAID ranking by money contributed; always say it is paid) and Domain Rating " +
		"(a third-party SEO metric). Facts listed in a listing's not_found_on_website are unknown: never invent them.\n" +
		"A failing call returns isError with a problem+json body whose code is stable and whose errors name each invalid " +
		"field and rule; fix the named field and retry (the tool schemas leave out the length and count bounds of nested " +
		"fields: the server checks them). " + errorCodesNote + "\n" +
		"Tools that change something take an optional idempotency_key: a new unique value (a UUID) per intended action, " +
		"sent again only to retry that same call after a timeout (the retry returns the first answer; the same key with " +
		"other arguments is idempotency_key_reused)."
}

// errorCodesNote names once, for every tool, the error codes the tool
// descriptions would otherwise list one by one (option C of
// docs/tool-budgets.md): the rules are those of ErrorCodes. A description
// still says when a code has a meaning of its own (submit_draft's and
// choose_free_listing's conflict).
const errorCodesNote = "Any tool may answer invalid, rate_limited or internal; one that needs sign-in unauthenticated or forbidden; " +
	"one given an id, slug or number not_found; one taking idempotency_key conflict (the state does not allow it) or idempotency_key_reused."

// accessNote says what the served tools may do.
func (s *Server) accessNote() string {
	for _, b := range s.ops {
		if !b.ReadOnly || b.Scope != "" {
			return "Tools marked read-only and without a scope need no sign-in; the others ask the user to sign in and allow access."
		}
	}
	return "All tools here are read-only and need no sign-in."
}

// newMCPServer builds the MCP server of a toolset selection (toolsets.go;
// defaultSelection is every tool) and registers a tool per catalog operation
// in it with the low-level AddTool: the schemas are passed verbatim and the
// arguments are validated by our own validator, so that the errors are the
// same as over REST.
func (s *Server) newMCPServer(sel selection) *mcp.Server {
	// Empty prompts and resources capabilities: the SDK answers prompts/list and
	// resources/list anyway, and the 2026-07-28 discover check wants them declared.
	caps := &mcp.ServerCapabilities{
		Tools:     &mcp.ToolCapabilities{},
		Prompts:   &mcp.PromptCapabilities{},
		Resources: &mcp.ResourceCapabilities{},
	}
	addAppsCapability(caps) // MCP Apps cards: apps.go
	srv := mcp.NewServer(&mcp.Implementation{
		Name: "launchdir", Title: s.svc.Site.Name, Version: Version, WebsiteURL: s.svc.Site.URL("/"),
	}, &mcp.ServerOptions{
		Instructions:              s.instructions() + selectionNote(sel),
		Logger:                    sdkLogger(s.log),
		Capabilities:              caps,
		SupportedProtocolVersions: MCPProtocolVersions,
	})
	listed := s.addTools(srv, sel)
	s.addAppResources(srv, sel)
	srv.AddReceivingMiddleware(s.methodDeadline, s.listedTools(listed), s.siteNameNow) // siteNameNow: mcp_sitename.go
	return srv
}

// addTools adds to srv a tool per operation of sel (the SDK keeps
// registeredTool's copy) and returns each as tools/list answers it, by name.
func (s *Server) addTools(srv *mcp.Server, sel selection) map[string]*mcp.Tool {
	within := s.servedTools(sel) // answers name only served tools: toolsets_served.go
	listed := map[string]*mcp.Tool{}
	for _, b := range s.ops {
		if sel.has(b.Spec) {
			t := mcpTool(b.Operation)
			listed[t.Name] = t
			srv.AddTool(registeredTool(t), within(s.toolHandler(b)))
		}
	}
	return listed
}

// registeredTool is the tool the SDK keeps for t: a copy without the output
// schema and, when t's input schema binds no argument to an HTTP header
// (x-mcp-header), with the input schema {"type":"object"}. go-sdk v1.8.0
// reads the kept tool's input schema on every tools/call of protocol
// 2026-07-28 to find such bindings (validateParamHeaders: the schema
// marshalled and decoded again, about 40 us a call for search_listings);
// without any there is nothing for it to find, in the full schema or in the
// copy's. Its AddTool marshals and decodes the output schema once to check
// it is JSON (about 1 s of a test binary's CPU over the ~150 servers it
// builds) and reads it nowhere else for a tool added with the low-level
// AddTool. Clients never see the copy: tools/list answers the full tool
// (listedTools). The SDK neither validates arguments against the input
// schema of such a tool (toolHandler does) nor sends it anywhere else.
func registeredTool(t *mcp.Tool) *mcp.Tool {
	reg := *t
	reg.OutputSchema = nil
	if in, ok := t.InputSchema.(json.RawMessage); ok && !bytes.Contains(in, []byte(`"x-mcp-header"`)) {
		reg.InputSchema = json.RawMessage(`{"type":"object"}`)
	}
	return &reg
}

// methodDeadline gives every MCP method but the streaming
// subscriptions/listen the call deadline (Options.RequestTimeout), so that
// initialize (which reads the site's name) and the rest never wait for ever
// on a full database pool; tools/call gets it again in handle. It is the
// outermost receiving middleware. The HTTP request itself has no deadline,
// so streams are not cut.
func (s *Server) methodDeadline(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if s.timeout > 0 && method != "subscriptions/listen" {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, s.timeout)
			defer cancel()
		}
		return next(ctx, method, req)
	}
}

// listedTools is the answer of tools/list: each tool as mcpTool made it
// (listed, by name; the SDK keeps registeredTool's copy), the public tools
// (no scope) first, then the ones that need sign-in, each group in catalog
// order. The SDK lists tools by name; clients (and the conformance suite)
// try the first tool they see without a token, and that one must not need
// sign-in. All tools fit on one page (the SDK's page size is 1000).
func (s *Server) listedTools(listed map[string]*mcp.Tool) mcp.Middleware {
	rank := map[string]int{}
	for i, b := range s.ops {
		rank[b.Name] = i
		if b.Scope != "" {
			rank[b.Name] += len(s.ops)
		}
	}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if lt, ok := res.(*mcp.ListToolsResult); ok && err == nil && method == "tools/list" {
				for i, t := range lt.Tools {
					if full, ok := listed[t.Name]; ok {
						lt.Tools[i] = full
					}
				}
				slices.SortStableFunc(lt.Tools, func(a, b *mcp.Tool) int { return rank[a.Name] - rank[b.Name] })
			}
			return res, err
		}
	}
}

// mcpTool is the MCP tool of an operation, with the lean schemas and the
// description with its error codes (lean.go).
func mcpTool(op Operation) *mcp.Tool {
	destructive, openWorld := op.Destructive, op.OpenWorld
	return &mcp.Tool{
		Name:         op.Name,
		Title:        op.Title,
		Description:  mcpDescription(op),
		InputSchema:  op.MCPInputSchema(),
		OutputSchema: op.MCPOutputSchema(),
		Meta:         appToolMeta(op.Name), // the tool's MCP App card, if any (apps.go)
		// annotations.title too: the tool's own title is MCP 2025-06-18 and
		// later; a 2025-03-26 client (and a directory checking one) reads
		// only annotations.title. It costs about 1.4 KB of tools/list and no
		// token of ModelView.
		Annotations: &mcp.ToolAnnotations{
			Title:           op.Title,
			ReadOnlyHint:    op.ReadOnly,
			DestructiveHint: &destructive,
			IdempotentHint:  op.IdempotentHint,
			OpenWorldHint:   &openWorld,
		},
	}
}

// toolHandler is the MCP front of an operation: it reads a tools/call into
// a call (the request was authenticated by mcpAuth), runs it through
// handle, and answers a tool result. A business error is a result with
// isError and the problem+json body as text, never a protocol error;
// structuredContent is set only on success, because clients validate it
// against the output schema.
func (s *Server) toolHandler(b *bound) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var h http.Header
		if req.Extra != nil {
			h = req.Extra.Header
		}
		var raw json.RawMessage
		if req.Params != nil {
			raw = req.Params.Arguments
		}
		c := mcpCall(ctx, b, h, raw)
		res, err := s.handle(ctx, c)
		defer res.release()

		if err != nil {
			p := s.problem(ctx, c, err)
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(p.JSON())}}}, nil
		}
		// The JSON as structured content and the same JSON as the text
		// older clients read; over HTTP as placeholders the response writer
		// fills (splice.go). The SDK encodes the result after this returns,
		// so what it holds outlives the pooled body.
		return splicedResult(ctx, &res), nil
	}
}

// mcpCall reads tools/call arguments into a call with the one JSON reader
// (decodeJSON; absent or null arguments are {}). The key of an Idem tool is
// the Idempotency-Key header of the /mcp request (h) or the idempotency_key
// argument, which is the transport's, not the operation's: it is taken out
// before the arguments are validated against the operation's schema.
func mcpCall(ctx context.Context, b *bound, h http.Header, raw json.RawMessage) *call {
	c := newCall(ctx, b, transportMCP, clientKeyFrom(ctx, h))
	if b.Idem {
		c.idem = idemFromHeader(h)
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	doc, err := decodeJSON(raw)
	if fe, ok := inputFieldError(err); ok {
		c.pre = []domain.FieldError{fe}
		return c
	}
	if err != nil {
		c.pre = []domain.FieldError{{Field: "arguments", Rule: "type",
			Message: fmt.Sprintf("The arguments are not valid JSON: %v.", err)}}
		return c
	}
	c.args = doc
	if m, ok := doc.(map[string]any); ok && b.Idem {
		c.idem, c.pre = takeIdemArgument(c.idem, m)
	}
	if !b.Idem {
		c.raw = raw // read by decodeJSON: one value, no key twice
	}
	return c
}

// mcpHandler is the Streamable HTTP endpoint: stateless (no session state, so
// any replica can answer, and protocol 2026-07-28 is available), with the
// SDK's DNS-rebinding protection left on. Each request is served by the MCP
// server of its toolset selection (mcpToolsets put it in the context).
//
// It answers in the SDK's JSON response mode: a POST gets its one JSON-RPC
// response as application/json instead of an SSE stream holding one event.
// No tool of ours streams anything (no progress, no log messages, no
// server-to-client requests: a stateless server cannot make them), so an SSE
// stream would only frame and flush that one event. Every client accepts
// both (the SDK refuses a POST whose Accept lacks either, as the spec wants
// clients to send both). What has to stream still does: subscriptions/listen
// (2026-07-28) is answered as SSE by the SDK in this mode too, and GET, the
// standalone stream of the older versions, is 405 on a stateless server, as
// the spec allows (wire_test.go checks both).
func (s *Server) mcpHandler() http.Handler {
	return mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		return s.toolsets.get(selectionFrom(r.Context()))
	}, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		Logger:       sdkLogger(s.log),
	})
}

// writeMCPTooLarge answers an /mcp POST over limit bytes: HTTP 413 with a
// JSON-RPC error response (id null: the request was not read, so its id is
// unknown; code -32600 Invalid Request) whose data is the problem+json body
// REST sends for an oversized body, max_bytes included. A JSON-RPC client
// reads the error; an HTTP client reads the status.
func writeMCPTooLarge(w http.ResponseWriter, limit int64) {
	p := bodyTooLarge("The JSON-RPC message", limit)
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": -32600, "message": p.Detail, "data": p}})
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(p.Status)
	w.Write(body)
}

// sdkLogger passes the SDK's warnings and errors to log and drops its
// per-request info lines (a stateless server connects a session per request).
func sdkLogger(log *slog.Logger) *slog.Logger {
	return slog.New(minLevel{Handler: log.Handler(), min: slog.LevelWarn})
}

type minLevel struct {
	slog.Handler
	min slog.Level
}

// Enabled drops records below the minimum level.
func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

// WithAttrs keeps the minimum level on derived handlers.
func (h minLevel) WithAttrs(a []slog.Attr) slog.Handler {
	return minLevel{Handler: h.Handler.WithAttrs(a), min: h.min}
}

// WithGroup keeps the minimum level on derived handlers.
func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{Handler: h.Handler.WithGroup(name), min: h.min}
}
