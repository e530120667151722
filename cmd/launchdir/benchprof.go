//go:build benchprof

package main

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"syscall"
)

// Built only with -tags benchprof, by BenchmarkProcesses when it is given
// -launchdir.procs-cpuprofile: with LAUNCHDIR_BENCH_CPUPROFILE set, SIGUSR1
// starts a CPU profile written to $LAUNCHDIR_BENCH_CPUPROFILE.<pid>.<n> (n
// counts the windows) and SIGUSR2 ends it, so the benchmark profiles each
// serve process over exactly its measured window. The binary a deploy runs
// has none of it (and no listener for it).
func init() {
	heapProfileOnSignal()
	base := os.Getenv("LAUNCHDIR_BENCH_CPUPROFILE")
	if base == "" {
		return
	}
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, syscall.SIGUSR1, syscall.SIGUSR2)
	go func() {
		var f *os.File
		n := 0
		for s := range ch {
			switch {
			case s == syscall.SIGUSR1 && f == nil:
				n++
				var err error
				if f, err = os.Create(fmt.Sprintf("%s.%d.%d", base, os.Getpid(), n)); err != nil {
					fmt.Fprintln(os.Stderr, "benchprof:", err)
					f = nil
					continue
				}
				if err := pprof.StartCPUProfile(f); err != nil {
					fmt.Fprintln(os.Stderr, "benchprof:", err)
					f.Close()
					f = nil
				}
			case s == syscall.SIGUSR2 && f != nil:
				pprof.StopCPUProfile()
				f.Close()
				f = nil
				fmt.Fprintf(os.Stderr, "benchprof: wrote %s.%d.%d\n", base, os.Getpid(), n)
			}
		}
	}()
}

// heapProfileOnSignal: with LAUNCHDIR_BENCH_HEAPPROFILE set, SIGHUP forces a
// collection and writes a heap profile to
// $LAUNCHDIR_BENCH_HEAPPROFILE.<pid>.<n>, so that what a serve process holds
// at a chosen moment (idle, under load) can be read with
// go tool pprof -sample_index=inuse_space (docs/benchmarks.md).
func heapProfileOnSignal() {
	base := os.Getenv("LAUNCHDIR_BENCH_HEAPPROFILE")
	if base == "" {
		return
	}
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, syscall.SIGHUP)
	go func() {
		n := 0
		for range ch {
			n++
			name := fmt.Sprintf("%s.%d.%d", base, os.Getpid(), n)
			f, err := os.Create(name)
			if err != nil {
				fmt.Fprintln(os.Stderr, "benchprof:", err)
				continue
			}
			runtime.GC()
			if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
				fmt.Fprintln(os.Stderr, "benchprof:", err)
			}
			f.Close()
			fmt.Fprintf(os.Stderr, "benchprof: wrote %s\n", name)
		}
	}()
}
