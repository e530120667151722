// Package tools is the operation catalog of launchdir and its transports: the
// REST API under /v1 (with its OpenAPI 3.1 document) and the MCP server at
// /mcp. Every operation is declared once, as a row built with Op; both
// transports, the schemas, the OpenAPI document and the error contract are
// generated from those rows. tools is the only importer of the MCP SDK.
package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strings"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/schemas"
)

// Spec is the declared part of an operation: what the spec's endpoint tables
// say about it, plus the text a model reads.
type Spec struct {
	// Name is the operation id: the MCP tool name and the OpenAPI operationId.
	Name string
	// Method is the HTTP method (GET, POST, PATCH, PUT, DELETE).
	Method string
	// Path is relative to /v1, a Go ServeMux pattern with {params}, e.g. "/listings/{slug}".
	// Every path parameter is an input field with the same json name.
	Path string
	// Scope is the OAuth scope the operation needs; "" for public operations.
	Scope string
	// Idem marks operations that accept the Idempotency-Key header ("Idem" in the spec).
	Idem bool
	// Status is the success status; 0 means 200.
	Status int
	// NotFound declares a 404 for an absent thing named in the input other than
	// by a path parameter (operations with path parameters always declare 404).
	NotFound bool
	// Tag groups operations in the OpenAPI document.
	Tag string
	// Title is a short human-readable name (MCP tool title, OpenAPI summary).
	Title string
	// Summary is the text a model reads: what the operation returns and when to use it
	// (MCP tool description, OpenAPI description).
	Summary string

	// MCP tool annotations.

	// ReadOnly: the operation changes nothing.
	ReadOnly bool
	// Destructive: the operation may delete or overwrite (meaningful only when not ReadOnly).
	Destructive bool
	// IdempotentHint: repeating the call with the same arguments has no further effect.
	IdempotentHint bool
	// OpenWorld: the operation reaches outside the directory (e.g. reads a web site).
	OpenWorld bool
}

// Operation is one row of the catalog: its Spec, its input and output types
// with their generated JSON Schemas, and the domain method it calls.
type Operation struct {
	Spec
	// Input and Output are the Go types of the operation's arguments and result.
	Input, Output reflect.Type
	// InputSchema and OutputSchema are the generated JSON Schemas (draft 2020-12),
	// sent verbatim as the MCP tool's schemas. For an Idem operation InputSchema
	// also has the optional idempotency_key argument of MCP (see idempotency.go);
	// the operation's own arguments, which REST validates and the OpenAPI
	// document describes, are ArgsSchema.
	InputSchema, OutputSchema json.RawMessage
	// PathParams are the names of the {params} in Path, in order.
	PathParams []string

	// args is the schema of the operation's own arguments when it differs
	// from InputSchema (Idem operations); see ArgsSchema.
	args json.RawMessage

	// mcpIn and mcpOut are the lean MCP copies of InputSchema and
	// OutputSchema (lean.go): what tools/list sends.
	mcpIn, mcpOut json.RawMessage

	call func(ctx context.Context, svc *domain.Service, args json.RawMessage) (any, error)
}

// SuccessStatus is the HTTP status of a successful call.
func (o Operation) SuccessStatus() int {
	if o.Status == 0 {
		return http.StatusOK
	}
	return o.Status
}

// ArgsSchema is the JSON Schema of the operation's own arguments: what REST
// validates (path, query and body) and the OpenAPI document describes. It is
// InputSchema without the transport-level idempotency_key argument.
func (o Operation) ArgsSchema() json.RawMessage {
	if o.args != nil {
		return o.args
	}
	return o.InputSchema
}

// Pattern is the ServeMux pattern of the operation's REST route, e.g. "GET /v1/listings/{slug}".
func (o Operation) Pattern() string { return o.Method + " " + domain.APIPrefix + o.Path }

var pathParamRE = regexp.MustCompile(`\{([a-z_][a-z0-9_]*)\}`)

// Op builds a catalog row from its Spec and the domain method that implements
// it, e.g. Op(Spec{...}, (*domain.Service).SearchListings). The input and
// output schemas are generated from the method's types. Op panics on a
// malformed row: the catalog is static, and its tests build every row.
func Op[In, Out any](s Spec, method func(*domain.Service, context.Context, In) (Out, error)) Operation {
	op := Operation{
		Spec:   s,
		Input:  reflect.TypeFor[In](),
		Output: reflect.TypeFor[Out](),
	}
	var err error
	if op.InputSchema, err = schemas.Input(op.Input); err != nil {
		panic(fmt.Sprintf("tools: %s: %v", s.Name, err))
	}
	if op.OutputSchema, err = schemas.Output(op.Output); err != nil {
		panic(fmt.Sprintf("tools: %s: %v", s.Name, err))
	}
	if s.Idem {
		op.args = op.InputSchema
		if op.InputSchema, err = withIdemArgument(op.InputSchema); err != nil {
			panic(fmt.Sprintf("tools: %s: %v", s.Name, err))
		}
	}
	if op.mcpIn, err = leanInput(op.InputSchema, s.Summary); err != nil {
		panic(fmt.Sprintf("tools: %s: lean input schema: %v", s.Name, err))
	}
	if op.mcpOut, err = leanOutput(op.OutputSchema); err != nil {
		panic(fmt.Sprintf("tools: %s: lean output schema: %v", s.Name, err))
	}
	for _, m := range pathParamRE.FindAllStringSubmatch(s.Path, -1) {
		op.PathParams = append(op.PathParams, m[1])
	}
	if strings.Count(s.Path, "{") != len(op.PathParams) {
		panic(fmt.Sprintf("tools: %s: malformed path %q", s.Name, s.Path))
	}
	op.call = func(ctx context.Context, svc *domain.Service, args json.RawMessage) (any, error) {
		var in In
		if len(args) > 0 {
			if err := json.Unmarshal(args, &in); err != nil {
				// The arguments passed the schema, so this is a mismatch between
				// the schema and the Go type: a bug, reported as internal.
				return nil, fmt.Errorf("decode %s arguments: %w", s.Name, err)
			}
		}
		return method(svc, ctx, in)
	}
	return op
}
