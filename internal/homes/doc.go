// Package homes holds the guard tests that keep each concern in its one
// home across the module (docs/decisions.md, "One home per concern"): the
// clock is read in main and a few documented places, pages name no HTTP
// status outside their package's status table. It has no code of its own.
package homes
