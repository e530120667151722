package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCP_SDKKeepsNoInputSchema checks what the SDK holds of each tool: a
// tool whose input schema binds no argument to a header is kept with the
// input schema {"type":"object"}, so the SDK has nothing to marshal and
// decode again on each tools/call of protocol 2026-07-28 (registeredTool),
// and no tool keeps its output schema (AddTool would marshal it per
// server), while tools/list still answers the full tool, both schemas
// (listedTools). A server with the tools alone (addTools) answers what the
// SDK holds.
func TestMCP_SDKKeepsNoInputSchema(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, false)
	kept := sdkListedTools(t, env.tools, false)
	listed := sdkListedTools(t, env.tools, true)
	if len(kept) == 0 || len(kept) != len(listed) {
		t.Fatalf("the SDK holds %d tools, tools/list answers %d", len(kept), len(listed))
	}
	byName := map[string]Operation{}
	for _, op := range env.tools.Operations() {
		byName[op.Name] = op
	}
	for _, k := range kept {
		if got, _ := json.Marshal(k.InputSchema); string(got) != `{"type":"object"}` {
			t.Errorf("%s: the SDK keeps the input schema %.80s..., want {\"type\":\"object\"}", k.Name, got)
		}
		if k.OutputSchema != nil {
			t.Errorf("%s: the SDK keeps an output schema", k.Name)
		}
	}
	outputs := 0
	for _, l := range listed {
		for _, c := range []struct {
			what   string
			schema any
			want   json.RawMessage
		}{{"input", l.InputSchema, byName[l.Name].MCPInputSchema()}, {"output", l.OutputSchema, byName[l.Name].MCPOutputSchema()}} {
			if c.want == nil && c.schema == nil {
				continue
			}
			if c.what == "output" {
				outputs++
			}
			got, _ := json.Marshal(c.schema)
			var a, b any
			if json.Unmarshal(got, &a) != nil || json.Unmarshal(c.want, &b) != nil || !jsonEqual(a, b) {
				t.Errorf("%s: tools/list %s schema\n got %.200s\nwant %.200s", l.Name, c.what, got, c.want)
			}
		}
	}
	if outputs == 0 {
		t.Error("tools/list answers no tool with an output schema")
	}
}

// sdkListedTools answers tools/list over an in-memory connection: of the
// server as newMCPServer builds it (served) or of one holding only the tools
// as addTools registers them.
func sdkListedTools(t *testing.T, s *Server, served bool) []*mcp.Tool {
	t.Helper()
	var srv *mcp.Server
	if served {
		srv = s.newMCPServer(defaultSelection)
	} else {
		srv = mcp.NewServer(&mcp.Implementation{Name: "test", Version: "0"}, nil)
		s.addTools(srv, defaultSelection)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Tools
}

// TestRegisteredTool_KeepsHeaderBindings checks that a tool binding an
// argument to a header (x-mcp-header) is kept with its whole input schema,
// so the SDK still checks the Mcp-Param header of each call against the
// argument; neither copy keeps the output schema, and the tools given are
// unchanged.
func TestRegisteredTool_KeepsHeaderBindings(t *testing.T) {
	t.Parallel()
	out := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)
	boundIn := json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`)
	bound := &mcp.Tool{Name: "t", InputSchema: boundIn, OutputSchema: out}
	if got := registeredTool(bound); got == bound || got.Name != "t" || !bytes.Equal(got.InputSchema.(json.RawMessage), boundIn) || got.OutputSchema != nil {
		t.Errorf("a tool with x-mcp-header: registered %+v, want a copy with its input schema and no output schema", got)
	}
	plain := &mcp.Tool{Name: "t", Title: "T", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`), OutputSchema: out}
	got := registeredTool(plain)
	if got == plain || got.Name != "t" || got.Title != "T" || !bytes.Equal(got.InputSchema.(json.RawMessage), []byte(`{"type":"object"}`)) || got.OutputSchema != nil {
		t.Errorf("a tool without x-mcp-header: registered %+v", got)
	}
	if !bytes.Contains(plain.InputSchema.(json.RawMessage), []byte(`"q"`)) || plain.OutputSchema == nil || bound.OutputSchema == nil {
		t.Error("registeredTool changed the tool it was given")
	}
}
