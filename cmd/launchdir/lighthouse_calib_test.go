package main

import "testing"

// The Lighthouse test itself runs in the e2e tier (lighthouse_test.go); its
// CPU calibration is arithmetic and is checked in the in-process tier.

// Lighthouse's CPU slowdown is relative to the host: its default 4x is made
// for a desktop whose benchmarkIndex is at least lighthouseDesktopIndex
// (the high-end desktop bracket of Lighthouse's docs/throttling.md), which
// it turns into a mid-tier phone of about a quarter of that. On a slower
// host (Lighthouse's report then warns "The tested device appears to have a
// slower CPU than Lighthouse expects") the same phone is a smaller slowdown.
const lighthouseDesktopIndex = 1500

// calibratedSlowdown is the CPU slowdown that makes a host of benchmarkIndex
// bench the phone Lighthouse's 4x makes of a lighthouseDesktopIndex desktop:
// 4 x bench / lighthouseDesktopIndex, at least 1 and at most 4. Lighthouse's
// docs ("Calibrating the CPU slowdown") advise lowering it on weaker hosts.
func calibratedSlowdown(bench float64) float64 {
	return min(4, max(1, 4*bench/lighthouseDesktopIndex))
}

// TestCalibratedSlowdown: a host in Lighthouse's high-end desktop bracket
// keeps its default 4x; a slower one gets the slowdown that makes the same
// phone of it, never under 1x.
func TestCalibratedSlowdown(t *testing.T) {
	for _, c := range []struct{ bench, want float64 }{
		{2000, 4}, {1500, 4}, {1125, 3}, {750, 2}, {375, 1}, {100, 1}, {0, 1},
	} {
		if got := calibratedSlowdown(c.bench); got != c.want {
			t.Errorf("calibratedSlowdown(%v) = %v, want %v", c.bench, got, c.want)
		}
	}
}
