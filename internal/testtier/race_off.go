//go:build !race

package testtier

// Race reports whether this test binary was built with the race detector.
const Race = false
