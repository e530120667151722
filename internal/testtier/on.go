//go:build e2e

package testtier

// E2E reports whether this test binary was built with the e2e tag.
const E2E = true
