package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/problem"
)

// Authenticator checks bearer credentials; *auth.Auth implements it.
type Authenticator interface {
	// Verify resolves an access token or API key sent to resource, or
	// returns auth.ErrInvalidToken.
	Verify(ctx context.Context, bearer, resource string) (domain.Caller, error)
	// MCPResourceFor and APIResourceFor are the resource identifiers at the
	// origin of the request of ctx (domain.WithOrigin).
	MCPResourceFor(ctx context.Context) string
	APIResourceFor(ctx context.Context) string
	// ResourceMetadataURL is the RFC 9728 metadata URL of a resource.
	ResourceMetadataURL(resource string) string
}

// challenge is an authentication failure answered with WWW-Authenticate.
// Its status comes from the code-to-status table (internal/problem).
type challenge struct {
	code   domain.Code // unauthenticated (401), forbidden (403), rate_limited (429), internal (500) or unavailable (503)
	err    string      // RFC 6750 error: "", invalid_request, invalid_token, insufficient_scope
	scopes []string
	detail string
	// limit is the failed-credential budget after this request (429 when
	// it was used up before; on a 401 it shows what is left).
	limit ratelimit.State
}

// authenticate decides who a request is from before any operation runs.
// needed are the scopes of the protected operations the request calls (none
// for public ones). A credential, when sent, must be valid everywhere; public
// operations need none. Tokens are accepted only in the Authorization
// header, never in the query string.
func (s *Server) authenticate(r *http.Request, resource string, needed []string) (context.Context, *challenge) {
	ctx := r.Context()
	if r.URL.Query().Has("access_token") {
		return nil, &challenge{code: domain.EUnauthenticated, err: "invalid_request", scopes: needed,
			detail: "Send the credential in the Authorization header (Authorization: Bearer <token>), never in the URL."}
	}
	h := r.Header.Get("Authorization")
	if h == "" {
		if len(needed) > 0 {
			return nil, &challenge{code: domain.EUnauthenticated, scopes: needed, detail: fmt.Sprintf(
				"Sign-in required: this operation needs an OAuth access token with scope %s, or an API key, sent as Authorization: Bearer.",
				strings.Join(needed, " "))}
		}
		return ctx, nil
	}
	// A credential refused too often from a network is not checked again
	// there until its window ends. The budget is per network and credential:
	// a client retrying a stale token never refuses another client of the
	// same network (docs/ratelimits.md, "The failure budget").
	failKey := ratelimit.CredentialKey(r, "bearer", h)
	if st := s.failures.Peek(failKey); !st.OK {
		return nil, &challenge{code: domain.ERateLimited, limit: st}
	}
	scheme, token, ok := strings.Cut(h, " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return nil, &challenge{code: domain.EUnauthenticated, err: "invalid_request", scopes: needed, limit: s.failures.Take(failKey),
			detail: "The Authorization header must be \"Bearer <token>\"."}
	}
	if s.auth == nil {
		return nil, &challenge{code: domain.EUnauthenticated, err: "invalid_token", scopes: needed, limit: s.failures.Take(failKey), detail: "This server accepts no credentials."}
	}
	c, err := s.verify(ctx, token, resource)
	if errors.Is(err, auth.ErrInvalidToken) {
		return nil, &challenge{code: domain.EUnauthenticated, err: "invalid_token", scopes: needed, limit: s.failures.Take(failKey),
			detail: "The access token or API key is unknown, expired, revoked, or was issued for another resource (" + resource + ")."}
	}
	if err != nil {
		// The look-up could not be done: out of time waiting for a
		// database connection, or the database refusing one, is a 503
		// to retry (problem.For); anything else is internal, logged.
		if p := problem.For(ctx, s.log, "verify credential", err); p.Code == domain.EUnavailable {
			return nil, &challenge{code: domain.EUnavailable, detail: p.Detail}
		}
		return nil, &challenge{code: domain.EInternal, detail: problem.InternalMessage}
	}
	var missing []string
	for _, sc := range needed {
		if !c.HasScope(sc) {
			missing = append(missing, sc)
		}
	}
	if len(missing) > 0 {
		return nil, &challenge{code: domain.EForbidden, err: "insufficient_scope", scopes: needed, detail: fmt.Sprintf(
			"The access token lacks scope %s; sign in again allowing %s.", strings.Join(missing, " "), strings.Join(needed, " "))}
	}
	ctx = context.WithValue(ctx, clientKeyCtx{}, fmt.Sprintf("user:%d", c.UserID))
	return domain.WithCaller(ctx, c), nil
}

// verify is the credential's look-up under the call deadline
// (Options.RequestTimeout): REST handlers run under it already, but /mcp
// authenticates before the MCP method (and its deadline) starts, and the
// request itself gets none, so that streams are not cut. Without it an MCP
// call with a bearer waited for ever on a full database pool.
func (s *Server) verify(ctx context.Context, token, resource string) (domain.Caller, error) {
	if s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
	return s.auth.Verify(ctx, token, resource)
}

// write answers the challenge: WWW-Authenticate naming the resource
// metadata and every scope needed, and a problem+json body.
func (c *challenge) write(w http.ResponseWriter, s *Server, resource string) {
	if c.code == domain.ERateLimited {
		writeLimited(w, c.limit)
		return
	}
	c.limit.SetHeaders(w.Header())
	if c.code == domain.EInternal {
		writeProblem(w, newProblem(domain.EInternal, c.detail))
		return
	}
	if c.code == domain.EUnavailable { // no challenge: the credential was not judged
		writeProblem(w, problem.Unavailable(c.detail))
		return
	}
	var parts []string
	if c.err != "" {
		parts = append(parts, fmt.Sprintf("error=%q", c.err), fmt.Sprintf("error_description=%q", c.detail))
	}
	if s.auth != nil {
		parts = append(parts, fmt.Sprintf("resource_metadata=%q", s.auth.ResourceMetadataURL(resource)))
	}
	if len(c.scopes) > 0 {
		parts = append(parts, fmt.Sprintf("scope=%q", strings.Join(c.scopes, " ")))
	}
	h := "Bearer"
	if len(parts) > 0 {
		h += " " + strings.Join(parts, ", ")
	}
	w.Header().Set("WWW-Authenticate", h)
	writeProblem(w, newProblem(c.code, c.detail))
}

// apiResource and mcpResource are the resource identifiers tokens are
// checked against, at the request's origin.
func (s *Server) apiResource(ctx context.Context) string {
	if s.auth == nil {
		return s.svc.Site.In(ctx).URL(domain.APIPrefix)
	}
	return s.auth.APIResourceFor(ctx)
}

func (s *Server) mcpResource(ctx context.Context) string {
	if s.auth == nil {
		return s.svc.Site.In(ctx).URL(domain.MCPPath)
	}
	return s.auth.MCPResourceFor(ctx)
}

// mcpAuth authenticates /mcp requests. For a POST it reads the JSON-RPC body
// (one message or a batch) and collects the scopes of every tools/call of a
// protected tool, so that anonymous clients can initialize, list tools and
// call public tools, and the first call that needs the account gets the
// 401 that starts OAuth (or 403 insufficient_scope naming every scope).
func (s *Server) mcpAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var needed []string
		var body []byte
		if r.Method == http.MethodPost && r.Body != nil {
			var err error
			// Read whole for the scope decision, under the one limit of a
			// call's input (maxBodyBytes); a larger body is a 413.
			body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
			if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
				writeMCPTooLarge(w, mbe.Limit)
				return
			}
			if err != nil {
				writeProblem(w, newProblem(domain.EInvalid, "The request body could not be read completely."))
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			needed = s.scopesOf(body, selectionFrom(r.Context()))
		}
		calls := s.mcpCalls(r, body) // tools/call messages, for both budgets
		if !s.limitSession(w, r, calls) {
			return
		}
		resource := s.mcpResource(r.Context())
		ctx, ch := s.authenticate(r, resource, needed)
		if ch != nil {
			ch.write(w, s, resource)
			return
		}
		ctx, ok := s.limitToolCalls(w, r, ctx, calls)
		if !ok {
			return
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// scopesOf returns the sorted union of the scopes of the protected tools of
// the selection called in a JSON-RPC body (a tool outside the selection is
// an unknown tool, which needs no sign-in to be refused). A body that is not JSON-RPC needs none here:
// the SDK answers it with its own error.
func (s *Server) scopesOf(body []byte, sel selection) []string {
	// Most requests call public tools: when no protected tool's name occurs
	// in the body at all, it is not parsed a second time (the SDK parses it).
	// A name hidden by JSON escapes skips the HTTP challenge only: the scope
	// stage of handle still refuses the call (checkScope).
	named := false
	for _, b := range s.ops {
		if b.Scope != "" && bytes.Contains(body, []byte(b.Name)) {
			named = true
			break
		}
	}
	if !named {
		return nil
	}
	type call struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	var msgs []call
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		if json.Unmarshal(body, &msgs) != nil {
			return nil
		}
	} else {
		var m call
		if json.Unmarshal(body, &m) != nil {
			return nil
		}
		msgs = []call{m}
	}
	var out []string
	for _, m := range msgs {
		if m.Method != "tools/call" {
			continue
		}
		if b, ok := s.byName[m.Params.Name]; ok && b.Scope != "" && sel.has(b.Spec) {
			out = append(out, b.Scope)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
