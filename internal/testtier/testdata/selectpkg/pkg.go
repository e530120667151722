// Package selectpkg is read by TestSelect (never built).
package selectpkg

func Add(a, b int) int { return a + b }
