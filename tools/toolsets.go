package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/domain"
)

// Toolsets (docs/toolsets.md): a client chooses groups of tools by the MCP
// URL, /mcp?toolsets=public,drafts, or, when it cannot change the URL, by the
// X-MCP-Toolsets header (same syntax) and X-MCP-Readonly (a boolean), the
// names GitHub's MCP server uses. Without either, every tool is served.

const (
	// ToolsetsParam is the query parameter of /mcp that chooses toolsets.
	ToolsetsParam = "toolsets"
	// ToolsetsHeader chooses toolsets when the query parameter is absent.
	ToolsetsHeader = "X-MCP-Toolsets"
	// ReadonlyHeader, when true, keeps only read-only tools (like the readonly toolset).
	ReadonlyHeader = "X-MCP-Readonly"
	// readonlyToolset is the modifier group: only tools with readOnlyHint.
	readonlyToolset = "readonly"
	// allToolsets names every group at once (as in GitHub's MCP server).
	allToolsets = "all"
)

// toolset is one row of the table: a name, what it is for, and which
// operations belong to it.
type toolset struct {
	name, summary string
	member        func(Spec) bool
}

// toolsetTable is the one definition of the groups. Every operation belongs
// to at least one group (TestToolsets_EveryToolInAGroup); the last row,
// readonly, is a modifier: it narrows the other groups chosen (or, alone,
// every group) to the tools with readOnlyHint.
var toolsetTable = []toolset{
	{"public", "Everything that needs no sign-in: search, listings, categories, launch weeks, leaderboards, founders, blog, awards, badges, and the price list.",
		func(s Spec) bool { return s.Scope == "" }},
	{"account", "Who the signed-in person is and an overview of what they have: their listings, drafts, claims and orders.",
		func(s Spec) bool { return s.Tag == "Account" || strings.HasPrefix(s.Name, "list_my_") }},
	{"drafts", "Turn a product URL into a listing: submit, poll, edit, invite co-founders, save.",
		func(s Spec) bool { return s.Tag == "Drafts" }},
	{"listings", "Manage your own listings: edit, updates, milestones, founder story, interview, free launch.",
		func(s Spec) bool { return s.Tag == "Own listings" }},
	{"claims", "Claim an existing listing of your product and verify it.",
		func(s Spec) bool { return s.Tag == "Claims" }},
	{"orders", "Prices, quotes, checkout links and your orders (list_products, public, is here too: quotes and checkouts need its product ids).",
		func(s Spec) bool { return s.Tag == "Orders" }},
	{"trophies", "Trophy cabinets (awards won here and verified trophies from other sites), the trophy leaderboard and the Hall of Fame; add and delete your listing's trophies.",
		func(s Spec) bool { return s.Tag == "Trophies" }},
	{"webhooks", "Signed webhooks for your account: create, list, edit, delete endpoints, rotate their secret, send a test event, read the delivery log and redeliver.",
		func(s Spec) bool { return s.Tag == "Webhooks" }},
	{readonlyToolset, "Only tools that change nothing (readOnlyHint). Alone: every read-only tool; with other groups: their read-only tools.",
		func(s Spec) bool { return s.ReadOnly }},
}

// groupCount is the number of groups that add tools (all rows but readonly).
var groupCount = len(toolsetTable) - 1

// ToolsetNames are the names a client may use, in table order.
func ToolsetNames() []string {
	out := make([]string, len(toolsetTable))
	for i, t := range toolsetTable {
		out[i] = t.name
	}
	return out
}

// selection is a client's choice: a bit per group (bit i is toolsetTable[i])
// and the readonly modifier. The zero value is not valid; defaultSelection
// serves every tool.
type selection struct {
	groups   uint16
	readonly bool
}

var defaultSelection = selection{groups: 1<<groupCount - 1}

// has reports whether the operation is served under the selection. Every
// group at once (the default, or ?toolsets=all) serves every operation, in a
// group or not.
func (sel selection) has(s Spec) bool {
	if sel == defaultSelection {
		return true
	}
	if sel.readonly && !s.ReadOnly {
		return false
	}
	for i := range groupCount {
		if sel.groups&(1<<i) != 0 && toolsetTable[i].member(s) {
			return true
		}
	}
	return false
}

// names is the canonical spelling of the selection ("public,drafts,readonly").
func (sel selection) names() []string {
	var out []string
	for i := range groupCount {
		if sel.groups&(1<<i) != 0 {
			out = append(out, toolsetTable[i].name)
		}
	}
	if sel.readonly {
		out = append(out, readonlyToolset)
	}
	return out
}

// parseToolsetList reads a comma-separated list of toolset names (spaces
// around names ignored, names case-insensitive, repeats allowed). field names
// the parameter for the error.
func parseToolsetList(field, list string) (selection, *domain.FieldError) {
	var sel selection
	named := false
	for _, name := range strings.Split(list, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		named = true
		switch i := slices.IndexFunc(toolsetTable, func(t toolset) bool { return t.name == name }); {
		case name == allToolsets:
			sel.groups = defaultSelection.groups
		case name == readonlyToolset:
			sel.readonly = true
		case i >= 0:
			sel.groups |= 1 << i
		default:
			return selection{}, &domain.FieldError{Field: field, Rule: "enum", Message: fmt.Sprintf(
				"%s: unknown toolset %q; allowed: %s (comma-separated), or all.", field, name, strings.Join(ToolsetNames(), ", "))}
		}
	}
	if !named {
		return selection{}, &domain.FieldError{Field: field, Rule: "minItems", Message: fmt.Sprintf(
			"%s is empty; name at least one toolset: %s (comma-separated), or leave it out for every tool.", field, strings.Join(ToolsetNames(), ", "))}
	}
	if sel.groups == 0 { // readonly alone: every read-only tool
		sel.groups = defaultSelection.groups
	}
	return sel, nil
}

// selectionOf reads the client's choice from the request. The query
// parameter wins over X-MCP-Toolsets (a blank header counts as absent, as
// GitHub's server treats it); X-MCP-Readonly narrows either. An unknown
// name, an empty ?toolsets= or a bad boolean is an error naming the
// parameter and the allowed values.
func selectionOf(r *http.Request) (selection, *domain.FieldError) {
	sel := defaultSelection
	if vals, ok := r.URL.Query()[ToolsetsParam]; ok {
		var fe *domain.FieldError
		if sel, fe = parseToolsetList(ToolsetsParam, strings.Join(vals, ",")); fe != nil {
			return selection{}, fe
		}
	} else if h := strings.Join(r.Header.Values(ToolsetsHeader), ","); strings.Trim(h, " ,\t") != "" {
		var fe *domain.FieldError
		if sel, fe = parseToolsetList(ToolsetsHeader, h); fe != nil {
			return selection{}, fe
		}
	}
	if vals := r.Header.Values(ReadonlyHeader); len(vals) > 0 {
		switch v := strings.ToLower(strings.TrimSpace(vals[0])); v {
		case "", "false", "0", "no", "off":
		case "true", "1", "yes", "on":
			sel.readonly = true
		default:
			return selection{}, &domain.FieldError{Field: ReadonlyHeader, Rule: "enum", Message: fmt.Sprintf(
				"%s: %q is not a boolean; allowed: true, false (also 1, 0, yes, no, on, off).", ReadonlyHeader, v)}
		}
	}
	return sel, nil
}

type selectionKey struct{}

// selectionFrom returns the selection mcpToolsets put in ctx (every tool if none).
func selectionFrom(ctx context.Context) selection {
	if sel, ok := ctx.Value(selectionKey{}).(selection); ok {
		return sel
	}
	return defaultSelection
}

// mcpToolsets reads the selection of an /mcp request before anything else
// (authentication, the session): a bad one is a 400 problem naming the
// parameter and the allowed values; a good one travels in the context to
// mcpAuth (which asks for sign-in only for tools in the selection) and to
// the handler (which picks the selection's server).
func (s *Server) mcpToolsets(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sel, fe := selectionOf(r)
		if fe == nil && !slices.ContainsFunc(s.ops, func(b *bound) bool { return sel.has(b.Spec) }) {
			fe = &domain.FieldError{Field: ToolsetsParam, Rule: "minItems", Message: fmt.Sprintf(
				"%s: the toolsets %s serve no tool.", ToolsetsParam, strings.Join(sel.names(), ","))}
		}
		if fe != nil {
			p := newProblem(domain.EInvalid, fe.Message)
			p.Errors = []domain.FieldError{*fe}
			writeProblem(w, p)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), selectionKey{}, sel)))
	})
}

// toolsetServers holds one MCP server per selection, built on first use.
// The same selection always maps to the same server, so a session stays with
// the server that created it; there are at most 2^8 of them.
type toolsetServers struct {
	mu  sync.Mutex
	by  map[selection]*mcp.Server
	new func(selection) *mcp.Server
}

// get returns the server of sel, building it once.
func (t *toolsetServers) get(sel selection) *mcp.Server {
	t.mu.Lock()
	defer t.mu.Unlock()
	if srv, ok := t.by[sel]; ok {
		return srv
	}
	srv := t.new(sel)
	t.by[sel] = srv
	return srv
}

// selectionNote is the sentence the instructions add for a narrowed selection.
func selectionNote(sel selection) string {
	if sel == defaultSelection {
		return ""
	}
	return "\nThis connection serves only the toolsets " + strings.Join(sel.names(), ",") + "; tools named here that are " +
		"not listed are not available on it (connect to " + domain.MCPPath + " without toolsets for every tool)."
}

// ToolCost is what one tool definition costs a client: the bytes of its JSON
// as tools/list sends it. It is the one function to swap for a token count.
var ToolCost = func(op Operation) int {
	b, err := json.Marshal(mcpTool(op))
	if err != nil {
		return 0
	}
	return len(b)
}

// ToolCostUnit names the unit of ToolCost.
var ToolCostUnit = "bytes"

// Toolsets describes every toolset over ops (the catalog, for the docs
// page): its tools in catalog order and its cost, the sum of ToolCost over
// its tools. The readonly row lists every read-only tool.
func Toolsets(ops []Operation) []domain.Toolset {
	out := make([]domain.Toolset, 0, len(toolsetTable))
	for i, t := range toolsetTable {
		ts := domain.Toolset{Name: t.name, Summary: t.summary, Modifier: i == groupCount, CostUnit: ToolCostUnit, Tools: []string{}}
		for _, op := range ops {
			if t.member(op.Spec) {
				ts.Tools = append(ts.Tools, op.Name)
				ts.Cost += ToolCost(op)
				ts.Tokens += RecordedToolTokens(op)
			}
		}
		out = append(out, ts)
	}
	return out
}

// ToolsetCost is the cost of one toolset over the catalog (0 for an unknown name).
func ToolsetCost(name string) int {
	for _, ts := range Toolsets(Catalog()) {
		if ts.Name == name {
			return ts.Cost
		}
	}
	return 0
}
