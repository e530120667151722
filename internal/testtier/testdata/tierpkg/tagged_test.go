//go:build e2e

package tierpkg

import "testing"

func TestTagged(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { t.Log("ran tagged sqlite") })
	onEngines(t)
}
