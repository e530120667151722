package web

// FactName is a profile field's name as the site's pages spell it
// (factNames): the MCP App draft card (web/apps) names the fields the same
// way (web/apps TestDraftFieldNames).
func FactName(field string) string { return factName(field) }
