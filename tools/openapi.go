package tools

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/schemas"
)

// tagDescriptions describe the OpenAPI tags, in document order.
var tagDescriptions = []struct{ name, desc string }{
	{"Site", "What this directory is and where its interfaces are."},
	{"Listings", "Search, read and compare product listings."},
	{"Categories", "The category tree."},
	{"Launches", "Weekly launch calendars and launch feeds."},
	{"Leaderboards", "Community, PAID billboard, Domain Rating and revenue boards; the rankings are separate."},
	{"Founders", "Founders of listed products and the founder interview."},
	{"Blog", "The directory's blog."},
	{"Awards", "Launch of the Week awards, decided by community votes only."},
	{"Badges", "Badges a listing may show on its website."},
	{"Account", "The signed-in account."},
	{"Drafts", "Submit a product by its URL: a draft is read from the website, edited, then submitted for review."},
	{"Own listings", "The signed-in founder's listings: edits, updates, milestones, story, interview and the free launch."},
	{"Claims", "Claim an existing listing by proving control of its website (DNS TXT record or meta tag)."},
	{"Orders", "Products for sale, quotes, checkout links (handed to the person, who pays on the site) and orders."},
}

const componentsPrefix = "#/components/schemas/"

// OpenAPI returns the OpenAPI 3.1 document of ops, served at
// /v1/openapi.json. apiBase is the REST API root (the server URL, ending in /v1).
func OpenAPI(ops []Operation, apiBase string) ([]byte, error) {
	components := map[string]any{"Problem": problemSchema(), "FieldError": fieldErrorSchema()}
	add := func(name string, s any) error {
		if old, ok := components[name]; ok && !reflect.DeepEqual(old, s) {
			return fmt.Errorf("two different schemas named %s", name)
		}
		components[name] = s
		return nil
	}
	origin := strings.TrimSuffix(apiBase, domain.APIPrefix)
	examples, err := openapiExamples(origin)
	if err != nil {
		return nil, err
	}
	paths := map[string]map[string]any{}
	usedTags := map[string]bool{}
	for _, op := range ops {
		// Input types nested in an input are closed, output types open: keep them apart.
		// The REST arguments: without MCP's idempotency_key (a header here).
		inRoot, inDefs, err := schemas.Hoist(op.ArgsSchema(), func(n string) string {
			if !strings.HasSuffix(n, "Input") {
				n += "Input"
			}
			return componentsPrefix + n
		})
		if err != nil {
			return nil, err
		}
		outRoot, outDefs, err := schemas.Hoist(op.OutputSchema, func(n string) string { return componentsPrefix + n })
		if err != nil {
			return nil, err
		}
		for _, defs := range []map[string]any{inDefs, outDefs} {
			for n, d := range defs {
				if err := add(n, d); err != nil {
					return nil, fmt.Errorf("%s: %w", op.Name, err)
				}
			}
		}
		outType := op.Output
		for outType.Kind() == reflect.Pointer {
			outType = outType.Elem()
		}
		outName := outType.Name()
		if err := add(outName, outRoot); err != nil {
			return nil, fmt.Errorf("%s: %w", op.Name, err)
		}

		ex, hasEx := examples[op.Name]
		o := map[string]any{
			"operationId": op.Name,
			"summary":     op.Title,
			"description": op.Summary,
			"parameters":  parameters(op, inRoot),
			"responses":   responses(op, outName),
		}
		if hasBody(op.Method) {
			o["requestBody"] = requestBody(op, inRoot)
		}
		if hasEx {
			addExamples(op, o, ex)
		}
		if op.Tag != "" {
			o["tags"] = []string{op.Tag}
			usedTags[op.Tag] = true
		}
		o["security"] = security(op)
		if op.Scope != "" {
			o["x-scope"] = op.Scope
		}
		if op.Idem {
			o["x-idempotent"] = true
		}
		if paths[op.Path] == nil {
			paths[op.Path] = map[string]any{}
		}
		paths[op.Path][strings.ToLower(op.Method)] = o
	}
	var tags []map[string]string
	for _, t := range tagDescriptions {
		if usedTags[t.name] {
			tags = append(tags, map[string]string{"name": t.name, "description": t.desc})
		}
	}
	doc := map[string]any{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": schemas.Draft,
		"info": map[string]any{
			"title":   "Launch directory API",
			"version": Version,
			"description": "A public directory of software products with weekly launch calendars, leaderboards, awards and " +
				"badges. The same operations are tools of the MCP server at /mcp (tool name = operationId). Errors are " +
				"RFC 9457 problem+json with a stable code.",
			"contact": map[string]any{"name": "API documentation", "url": origin + "/docs"},
			"license": map[string]any{"name": apiLicenseName, "url": origin + "/docs"},
		},
		"servers": []map[string]string{{"url": apiBase}},
		"tags":    tags,
		"paths":   paths,
		"components": map[string]any{"schemas": components, "responses": sharedResponses(), "headers": sharedHeaders(),
			"securitySchemes": securitySchemes(origin)},
	}
	return json.Marshal(doc)
}

// apiLicenseName is the license the document declares (info.license): the API
// belongs to the directory's operator; its terms are on the /docs page.
const apiLicenseName = "Proprietary: the directory operator's terms of use"

// security is an operation's security requirement. A protected operation takes
// an OAuth access token with its scope or an API key. A public one needs no
// credential ({}: anonymous) but accepts either (spec, Authentication 1).
func security(op Operation) []map[string][]string {
	if op.Scope != "" {
		return []map[string][]string{{"oauth2": {op.Scope}}, {"apiKey": {}}}
	}
	return []map[string][]string{{}, {"apiKey": {}}, {"oauth2": {}}}
}

// addExamples puts the recorded example of op into its operation object o:
// each parameter's value, the request body (the arguments that are not path
// parameters) and the success response.
func addExamples(op Operation, o map[string]any, ex opExample) {
	for _, p := range o["parameters"].([]map[string]any) {
		name := p["name"].(string)
		if v, ok := ex.Request[name]; ok {
			p["example"] = v
		} else if name == IdempotencyKeyHeader {
			p["example"] = exampleIdempotencyKey
		}
	}
	if rb, ok := o["requestBody"].(map[string]any); ok {
		body := map[string]any{}
		for k, v := range ex.Request {
			if !slices.Contains(op.PathParams, k) {
				body[k] = v
			}
		}
		rb["content"].(map[string]any)["application/json"].(map[string]any)["example"] = body
	}
	ok := o["responses"].(map[string]any)[strconv.Itoa(op.SuccessStatus())].(map[string]any)
	ok["content"].(map[string]any)["application/json"].(map[string]any)["example"] = ex.Response
}

// parameters are the path and query parameters of an operation, from the
// properties of its input schema.
func parameters(op Operation, inRoot map[string]any) []map[string]any {
	props, _ := inRoot["properties"].(map[string]any)
	required := map[string]bool{}
	if req, ok := inRoot["required"].([]any); ok {
		for _, r := range req {
			required[r.(string)] = true
		}
	}
	ordered, _ := schemas.Properties(op.ArgsSchema()) // schema order, for a readable document
	out := []map[string]any{}
	for _, p := range ordered {
		s, _ := props[p.Name].(map[string]any)
		inPath := slices.Contains(op.PathParams, p.Name)
		if hasBody(op.Method) && !inPath {
			continue // in the request body
		}
		param := map[string]any{"name": p.Name, "in": "query", "schema": s}
		if inPath {
			param["in"], param["required"] = "path", true
		} else if required[p.Name] {
			param["required"] = true
		}
		if d, ok := s["description"].(string); ok {
			param["description"] = d
		}
		if p.Type == "array" {
			param["explode"] = true
			param["style"] = "form"
		}
		out = append(out, param)
	}
	if op.Idem {
		out = append(out, map[string]any{
			"name": IdempotencyKeyHeader, "in": "header", "required": false,
			"description": "A unique key you choose (a UUID is best) that makes retries of this call safe: a retry with the same key " +
				"and the same request gets the first answer again (with Idempotent-Replayed: true) instead of a second effect; the same " +
				"key with another request is 422. Kept 24 hours, per user.",
			"schema": map[string]any{"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[ -~]+$"},
		})
	}
	return out
}

// requestBody is the JSON body of a POST, PUT or PATCH: the input schema
// without the path parameters.
func requestBody(op Operation, inRoot map[string]any) map[string]any {
	body := map[string]any{}
	for k, v := range inRoot {
		body[k] = v
	}
	props := map[string]any{}
	if p, ok := inRoot["properties"].(map[string]any); ok {
		for k, v := range p {
			if !slices.Contains(op.PathParams, k) {
				props[k] = v
			}
		}
	}
	body["properties"] = props
	var required []any
	if req, ok := inRoot["required"].([]any); ok {
		for _, r := range req {
			if !slices.Contains(op.PathParams, r.(string)) {
				required = append(required, r)
			}
		}
	}
	if len(required) > 0 {
		body["required"] = required
	} else {
		delete(body, "required")
	}
	return map[string]any{
		"required": len(required) > 0,
		"content":  map[string]any{"application/json": map[string]any{"schema": body}},
	}
}

func responses(op Operation, outName string) map[string]any {
	status := op.SuccessStatus()
	r := map[string]any{
		strconv.Itoa(status): map[string]any{
			"description": http.StatusText(status),
			"content":     map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": componentsPrefix + outName}}},
		},
		"400": map[string]any{"$ref": "#/components/responses/BadRequest"},
		"429": map[string]any{"$ref": "#/components/responses/TooManyRequests"},
		"500": map[string]any{"$ref": "#/components/responses/InternalError"},
	}
	if hasBody(op.Method) {
		r["413"] = map[string]any{"$ref": "#/components/responses/PayloadTooLarge"}
	}
	if len(op.PathParams) > 0 || op.NotFound {
		r["404"] = map[string]any{"$ref": "#/components/responses/NotFound"}
	}
	// A credential that is sent must be valid, on public operations too
	// (docs/auth.md): 401 everywhere, 403 where a scope is needed.
	r["401"] = map[string]any{"$ref": "#/components/responses/Unauthorized"}
	if op.Scope != "" {
		r["403"] = map[string]any{"$ref": "#/components/responses/Forbidden"}
	}
	if op.Idem {
		ok := r[strconv.Itoa(status)].(map[string]any)
		ok["headers"] = map[string]any{IdempotentReplayedHeader: map[string]any{"$ref": "#/components/headers/" + IdempotentReplayedHeader}}
		r["409"] = map[string]any{"$ref": "#/components/responses/Conflict"}
		r["422"] = map[string]any{"$ref": "#/components/responses/IdempotencyKeyReused"}
	}
	return r
}

// securitySchemes: OAuth 2.1 authorization code (PKCE S256) with the
// spec's scopes, and API keys sent as bearer tokens.
func securitySchemes(origin string) map[string]any {
	return map[string]any{
		"oauth2": map[string]any{
			"type": "oauth2",
			"description": "OAuth 2.1 authorization code with PKCE (S256). Metadata: " + origin +
				"/.well-known/oauth-authorization-server; tokens are bound to the resource " + origin + domain.APIPrefix + ".",
			"flows": map[string]any{"authorizationCode": map[string]any{
				"authorizationUrl": origin + "/authorize",
				"tokenUrl":         origin + "/token",
				"refreshUrl":       origin + "/token",
				"scopes": map[string]string{
					domain.ScopeAccountRead:   "Read the account, drafts, own listings, claims and orders.",
					domain.ScopeListingsWrite: "Submit and edit drafts and listings, updates, milestones, story, interview answers, free launch, claims.",
					domain.ScopeOrdersWrite:   "Quote orders and create checkout links.",
				},
			}},
		},
		"apiKey": map[string]any{
			"type": "http", "scheme": "bearer",
			"description": "An API key (ld_sk_...) from the account page, sent as Authorization: Bearer. It has the access of its user; no scope list.",
		},
	}
}

func sharedResponses() map[string]any {
	problem := func(desc string, headers map[string]any) map[string]any {
		r := map[string]any{
			"description": desc,
			"content":     map[string]any{ProblemContentType: map[string]any{"schema": map[string]any{"$ref": componentsPrefix + "Problem"}}},
		}
		if headers != nil {
			r["headers"] = headers
		}
		return r
	}
	return map[string]any{
		"BadRequest": problem("Invalid input: errors names each failing field and rule (code invalid).", nil),
		"Unauthorized": problem("Sign-in missing (on a protected operation) or a credential sent that is invalid, expired or revoked "+
			"(on any operation; code unauthenticated); WWW-Authenticate names the resource metadata and the scope needed.",
			map[string]any{"WWW-Authenticate": map[string]any{"schema": map[string]any{"type": "string"}}}),
		"Forbidden":       problem("The credential lacks the needed scope or right (code forbidden).", nil),
		"NotFound":        problem("The thing named in the request does not exist (code not_found).", nil),
		"TooManyRequests": problem("Rate limited (code rate_limited); retry after Retry-After seconds.", map[string]any{"Retry-After": map[string]any{"$ref": "#/components/headers/Retry-After"}}),
		"PayloadTooLarge": problem(fmt.Sprintf("The request body is over the limit of %d bytes (code payload_too_large); max_bytes says the limit.", maxBodyBytes), nil),
		"InternalError":   problem("Internal error (code internal); nothing internal is disclosed.", nil),
		"Conflict": problem("The request conflicts with the current state (code conflict), or a request with the same "+
			"Idempotency-Key is still in progress: retry later with the same key to get its answer.", nil),
		"IdempotencyKeyReused": problem("The Idempotency-Key was already used for another request (another operation or other "+
			"arguments) within 24 hours (code idempotency_key_reused); use a new key.", nil),
	}
}

func sharedHeaders() map[string]any {
	return map[string]any{
		"Retry-After": map[string]any{
			"description": "Seconds to wait before retrying.",
			"schema":      map[string]any{"type": "integer", "minimum": 1},
		},
		IdempotentReplayedHeader: map[string]any{
			"description": "true when this answer is the stored answer of an earlier call with the same Idempotency-Key.",
			"schema":      map[string]any{"type": "string", "enum": []any{"true"}},
		},
	}
}

func problemSchema() map[string]any {
	// Every error code there is (domain.AllCodes): the same body is every
	// surface's, a REST path called with another method answers
	// method_not_allowed, and a mailed link's page gone.
	var codes []any
	for _, c := range domain.AllCodes() {
		codes = append(codes, string(c))
	}
	return map[string]any{
		"type":        "object",
		"description": "RFC 9457 problem details; the same body is the text of an MCP tool result with isError.",
		"required":    []any{"type", "title", "status", "detail", "code"},
		"properties": map[string]any{
			"type":        map[string]any{"type": "string", "description": "about:blank; code says what happened."},
			"title":       map[string]any{"type": "string", "description": "HTTP status text."},
			"status":      map[string]any{"type": "integer"},
			"detail":      map[string]any{"type": "string", "description": "What went wrong, in a sentence a person or a model can act on."},
			"code":        map[string]any{"type": "string", "enum": codes, "description": "Stable error class."},
			"errors":      map[string]any{"type": "array", "items": map[string]any{"$ref": componentsPrefix + "FieldError"}},
			"retry_after": map[string]any{"type": "integer", "description": "Seconds to wait (rate_limited and unavailable)."},
			"max_bytes":   map[string]any{"type": "integer", "description": "The size limit in bytes the request broke (payload_too_large only)."},
		},
	}
}

func fieldErrorSchema() map[string]any {
	return map[string]any{
		"type":     "object",
		"required": []any{"field", "rule", "message"},
		"properties": map[string]any{
			"field":   map[string]any{"type": "string", "description": "Input name as sent, e.g. per_page or items[2].week."},
			"rule":    map[string]any{"type": "string", "description": "The JSON Schema keyword (maxLength, maximum, pattern, enum, type, required, additionalProperties, ...) or domain rule that failed."},
			"message": map[string]any{"type": "string"},
		},
	}
}
