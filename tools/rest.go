package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// routes builds the one handler of the server: the REST routes generated from
// the catalog under /v1, the OpenAPI document, the MCP endpoint, and
// problem+json answers for unknown paths and wrong methods; all behind CORS.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	methods := map[string][]string{} // path pattern -> methods served
	var paths []string
	for _, b := range s.ops {
		mux.Handle(b.Pattern(), s.restHandler(b))
		p := domain.APIPrefix + b.Path
		if _, ok := methods[p]; !ok {
			paths = append(paths, p)
		}
		methods[p] = append(methods[p], b.Method)
	}
	mux.HandleFunc("GET "+domain.OpenAPIPath, s.serveOpenAPI)
	mux.HandleFunc("GET "+domain.APIPrefix, s.serveIndex)
	mux.HandleFunc("GET "+domain.APIPrefix+"/{$}", s.serveIndex)
	for _, p := range []string{domain.OpenAPIPath, domain.APIPrefix, domain.APIPrefix + "/{$}"} {
		methods[p] = []string{http.MethodGet}
		paths = append(paths, p)
	}
	// Each path answers 405 to the methods not served there. They are
	// registered one method at a time: a method-less pattern on a literal path
	// (/orders/quote) would conflict with a method pattern on a wildcard
	// sibling (GET /orders/{number}).
	for _, p := range paths {
		allow := allowHeader(methods[p])
		notAllowed := func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			writeProblem(w, newProblem(domain.EMethodNotAllowed,
				fmt.Sprintf("%s is not allowed on %s; allowed: %s.", r.Method, r.URL.Path, allow)))
		}
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			if !slices.Contains(methods[p], m) {
				mux.HandleFunc(m+" "+p, notAllowed)
			}
		}
	}
	notFound := func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, newProblem(domain.ENotFound, fmt.Sprintf(
			"No API endpoint at %s. The REST API is described at %s.", r.URL.Path, domain.OpenAPIPath)))
	}
	mux.HandleFunc(domain.APIPrefix+"/", notFound)
	mux.Handle(domain.MCPPath, s.mcpToolsets(s.mcpAuth(mcpSplice(s.mcpHandler()))))
	return cors(withClientKey(mux))
}

func allowHeader(methods []string) string {
	m := slices.Clone(methods)
	if slices.Contains(m, http.MethodGet) {
		m = append(m, http.MethodHead)
	}
	m = append(m, http.MethodOptions)
	slices.Sort(m)
	return strings.Join(slices.Compact(m), ", ")
}

// restHandler is the REST front of an operation: it authenticates the
// request (a failure is a challenge), reads path, query and body into a
// call (a body over maxBodyBytes is a 413), runs it through handle, and
// writes the result as JSON or the error as problem+json.
func (s *Server) restHandler(b *bound) http.HandlerFunc {
	var needed []string
	if b.Scope != "" {
		needed = []string{b.Scope}
	}
	return func(w http.ResponseWriter, r *http.Request) {
		if s.timeout > 0 { // the call deadline covers the credential's look-up too
			ctx, cancel := context.WithTimeout(r.Context(), s.timeout)
			defer cancel()
			r = r.WithContext(ctx)
		}
		resource := s.apiResource(r.Context())
		ctx, ch := s.authenticate(r, resource, needed)
		if ch != nil {
			ch.write(w, s, resource)
			return
		}
		c, tooLarge := s.restCall(ctx, w, r, b)
		if tooLarge != nil {
			writeProblem(w, tooLarge)
			return
		}
		res, err := s.handle(ctx, c)
		defer res.release()

		h := w.Header()
		res.limit.SetHeaders(h)
		if res.replayed {
			h.Set(IdempotentReplayedHeader, "true")
		}
		if err != nil {
			writeProblem(w, s.problem(ctx, c, err))
			return
		}
		// With its length the body goes out in one piece, not chunked.
		h.Set("Content-Type", "application/json")
		h.Set("Content-Length", strconv.Itoa(len(res.body)))
		w.WriteHeader(b.SuccessStatus())
		w.Write(res.body)
	}
}

// restCall reads a REST request into a call: the path parameters with the
// query (GET, DELETE) or the JSON body (POST, PUT, PATCH), coerced to the
// schema's types, and the Idempotency-Key header of an Idem operation.
func (s *Server) restCall(ctx context.Context, w http.ResponseWriter, r *http.Request, b *bound) (*call, *Problem) {
	c := newCall(ctx, b, transportREST, clientKeyFrom(ctx, r.Header))
	if b.Idem {
		c.idem = idemFromHeader(r.Header)
	}
	path := make(map[string]string, len(b.PathParams))
	for _, name := range b.PathParams {
		path[name] = r.PathValue(name)
	}
	if !hasBody(b.Method) {
		c.args, c.pre = b.v.coerceQuery(r.URL.Query(), path)
		return c, nil
	}
	doc, errs, tooLarge := b.v.decodeBody(w, r, path)
	if tooLarge != nil {
		return nil, tooLarge
	}
	if doc != nil { // nil when the body could not be read as an object
		c.args = doc
	}
	c.pre = errs
	return c, nil
}

// hasBody says whether an operation's input comes in a JSON body (POST, PUT,
// PATCH) rather than in the query string (GET, DELETE).
func hasBody(method string) bool {
	return method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch
}

// maxBodyBytes bounds what a call may send, on both transports: a REST
// request body, and an /mcp POST (one JSON-RPC message or a batch, read
// whole by mcpAuth). 1 MiB; a larger one is a 413 (docs/decisions.md).
const maxBodyBytes = 1 << 20

// decodeBody reads a JSON object body (an empty body is {}) and adds the path
// parameters to it. Query parameters are not accepted next to a body. A body
// over maxBodyBytes is a 413 problem (tooLarge); everything else wrong with
// it is a field error, reported with the schema's.
func (v *inputValidator) decodeBody(w http.ResponseWriter, r *http.Request, path map[string]string) (doc map[string]any, errs []domain.FieldError, tooLarge *Problem) {
	for name := range r.URL.Query() {
		errs = append(errs, domain.FieldError{Field: joinField("", name), Rule: "additionalProperties",
			Message: fmt.Sprintf("Unknown query parameter %q: this operation takes its input as a JSON body.", name)})
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
		return nil, nil, bodyTooLarge("The request body", mbe.Limit)
	}
	if err != nil {
		return nil, append(errs, domain.FieldError{Field: "body", Rule: "type",
			Message: "The request body could not be read completely."}), nil
	}
	doc = map[string]any{}
	if len(bytes.TrimSpace(raw)) > 0 {
		if ct := r.Header.Get("Content-Type"); ct != "" {
			if mt, _, _ := mime.ParseMediaType(ct); mt != "application/json" {
				return nil, append(errs, domain.FieldError{Field: "body", Rule: "type",
					Message: fmt.Sprintf("The request body must be JSON (Content-Type: application/json), not %s.", mt)}), nil
			}
		}
		parsed, err := decodeJSON(raw)
		if fe, ok := inputFieldError(err); ok {
			return nil, append(errs, fe), nil
		}
		m, ok := parsed.(map[string]any)
		if err != nil || !ok {
			return nil, append(errs, domain.FieldError{Field: "body", Rule: "type",
				Message: "The request body must be a JSON object."}), nil
		}
		doc = m
	}
	for name, val := range path {
		if why := badText(val); why != "" {
			errs = append(errs, textFieldError(name, why))
			continue
		}
		if _, dup := doc[name]; dup {
			errs = append(errs, domain.FieldError{Field: name, Rule: "additionalProperties",
				Message: fmt.Sprintf("%s is part of the path; do not also send it in the body.", name)})
		}
		doc[name] = coerce(v.props[name].Type, val)
	}
	return doc, errs, nil
}

// apiIndex is the answer of GET /v1: where the API is described and what
// else the site offers a program, so that a client that only knows the
// base URL finds its way.
type apiIndex struct {
	Name       string `json:"name"`
	APIBaseURL string `json:"api_base_url"`
	OpenAPIURL string `json:"openapi_url"`
	DocsURL    string `json:"docs_url"`
	MCPURL     string `json:"mcp_url"`
	SiteURL    string `json:"site_url"`
	Next       string `json:"next"`
}

// serveIndex answers GET /v1 (and /v1/) with the API's index.
func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	site := s.svc.SiteNow(r.Context())
	body, err := json.Marshal(apiIndex{
		Name: site.Name, APIBaseURL: site.URL(domain.APIPrefix), OpenAPIURL: site.URL(domain.OpenAPIPath),
		DocsURL: site.URL(domain.DocsPath), MCPURL: site.URL(domain.MCPPath), SiteURL: site.URL(domain.APIPrefix + "/site"),
		Next: "Read openapi_url for every operation of the REST API; the same operations are tools of the MCP server at mcp_url.",
	})
	if err != nil {
		writeProblem(w, problemFor(r.Context(), s.log, "api_index", err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(s.openapi)
}
