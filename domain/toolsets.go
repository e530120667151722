package domain

// Toolset describes one group of MCP tools a client may choose with
// /mcp?toolsets=... (docs/toolsets.md). The tools package builds the list from
// its catalog; the docs page shows it.
type Toolset struct {
	// Name is what a client writes in ?toolsets= or X-MCP-Toolsets.
	Name string
	// Summary says what the group is for.
	Summary string
	// Modifier marks a group that narrows the others rather than adding tools (readonly).
	Modifier bool
	// Tools are the names of the group's tools, in catalog order.
	Tools []string
	// Cost is what the group's tool definitions cost a client, in CostUnit.
	Cost int
	// CostUnit names the unit of Cost ("bytes").
	CostUnit string
	// Tokens is the model-visible part of the group's tools (name, title,
	// description and input schema) in o200k_base tokens: what the model
	// reads before the first question (docs/tool-budgets.md).
	Tokens int
}
