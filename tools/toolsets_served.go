package tools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/domain"
)

// servedTools wraps the tool handlers of a selection's server so that the
// domain knows which tools the connection serves (domain.WithServedTools):
// an answer's next steps then name only tools the caller can call
// (submit_draft on a selection without the paid tools does not send the
// person to create_checkout; docs/apps.md). Every tool served (the default
// selection) needs no wrapping: domain.Serves is true without it.
func (s *Server) servedTools(sel selection) func(mcp.ToolHandler) mcp.ToolHandler {
	if sel == defaultSelection {
		return func(h mcp.ToolHandler) mcp.ToolHandler { return h }
	}
	served := map[string]bool{}
	for _, b := range s.ops {
		if sel.has(b.Spec) {
			served[b.Name] = true
		}
	}
	serves := func(tool string) bool { return served[tool] }
	return func(h mcp.ToolHandler) mcp.ToolHandler {
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return h(domain.WithServedTools(ctx, serves), req)
		}
	}
}
