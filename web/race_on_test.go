//go:build race

package web

// raceOn reports whether the test binary has the race detector, under which
// heap figures are not those of a normal build (TestBuildOpenData_PeakHeap).
const raceOn = true
