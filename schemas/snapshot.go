package schemas

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ToolSnapshot is the content of a committed tool snapshot,
// schemas/tools/<name>.json.
type ToolSnapshot struct {
	Name         string `json:"name"`
	InputSchema  any    `json:"inputSchema"`
	OutputSchema any    `json:"outputSchema"`
}

// Check compares got with the snapshot file at path. With update set it
// rewrites the file instead (creating its directory). A missing file or any
// difference is an error that says how to regenerate the snapshots.
func Check(path string, got []byte, update bool) error {
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, got, 0o644)
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("snapshot %s is missing; run `go test ./tools -run Snapshot -update` and commit it", path)
	}
	if err != nil {
		return err
	}
	if bytes.Equal(want, got) {
		return nil
	}
	line, x, y := diffLine(want, got)
	return fmt.Errorf("snapshot %s is out of date (first difference at line %d: committed %q, generated %q); "+
		"run `go test ./tools -run Snapshot -update` after an intended change and commit the result",
		path, line, x, y)
}

// Stale lists snapshot files in dir whose names are not in keep (a tool that
// was removed or renamed leaves a stale file behind).
func Stale(dir string, keep map[string]bool) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") && !keep[e.Name()] {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out, nil
}

func diffLine(a, b []byte) (int, string, string) {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return i + 1, x, y
		}
	}
	return 0, "", ""
}
