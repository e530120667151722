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
// while tools/list still answers the full tool (listedTools). A server with
// the tools alone (addTools) answers what the SDK holds.
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
	}
	for _, l := range listed {
		got, _ := json.Marshal(l.InputSchema)
		want := byName[l.Name].MCPInputSchema()
		var a, b any
		if json.Unmarshal(got, &a) != nil || json.Unmarshal(want, &b) != nil || !jsonEqual(a, b) {
			t.Errorf("%s: tools/list input schema\n got %.200s\nwant %.200s", l.Name, got, want)
		}
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
// argument to a header (x-mcp-header) is kept whole, so the SDK still checks
// the Mcp-Param header of each call against the argument.
func TestRegisteredTool_KeepsHeaderBindings(t *testing.T) {
	t.Parallel()
	bound := &mcp.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`)}
	if got := registeredTool(bound); got != bound {
		t.Errorf("a tool with x-mcp-header: registered %+v, want the tool itself", got)
	}
	plain := &mcp.Tool{Name: "t", Title: "T", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}
	got := registeredTool(plain)
	if got == plain || got.Name != "t" || got.Title != "T" || !bytes.Equal(got.InputSchema.(json.RawMessage), []byte(`{"type":"object"}`)) {
		t.Errorf("a tool without x-mcp-header: registered %+v", got)
	}
	if !bytes.Contains(plain.InputSchema.(json.RawMessage), []byte(`"q"`)) {
		t.Error("registeredTool changed the tool it was given")
	}
}
