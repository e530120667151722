package tools

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/launchdir/launchdir/schemas"
)

// catUpdate rewrites the committed snapshots: go test ./tools -run Snapshot -update
var catUpdate = flag.Bool("update", false, "rewrite the committed schema and OpenAPI snapshots in ../schemas")

// catSnapshotServer is the server URL written into the committed OpenAPI
// snapshot; a running server puts its own base URL there.
const catSnapshotServer = "http://127.0.0.1:8080/v1"

var catSnapshotDir = filepath.Join("..", "schemas")

// TestSnapshot_Schemas fails when a tool's generated input or output schema
// differs from schemas/tools/<name>.json, when a file is missing, or when a
// file belongs to no served tool.
func TestSnapshot_Schemas(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(catSnapshotDir, "tools")
	keep := map[string]bool{}
	for _, op := range Catalog() {
		b, err := json.Marshal(schemas.ToolSnapshot{Name: op.Name, InputSchema: op.InputSchema, OutputSchema: op.OutputSchema})
		if err != nil {
			t.Fatal(err)
		}
		if b, err = schemas.Indent(b); err != nil {
			t.Fatal(err)
		}
		if err := schemas.Check(filepath.Join(dir, op.Name+".json"), b, *catUpdate); err != nil {
			t.Error(err)
		}
		keep[op.Name+".json"] = true
	}
	stale, err := schemas.Stale(dir, keep)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range stale {
		if *catUpdate {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("snapshot %s belongs to no served tool; run go test ./tools -run Snapshot -update", f)
	}
}

// TestSnapshot_OpenAPI fails when the generated OpenAPI document differs from
// schemas/openapi.json.
func TestSnapshot_OpenAPI(t *testing.T) {
	t.Parallel()
	doc, err := OpenAPI(Catalog(), catSnapshotServer)
	if err != nil {
		t.Fatal(err)
	}
	b, err := schemas.Indent(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.Check(filepath.Join(catSnapshotDir, "openapi.json"), b, *catUpdate); err != nil {
		t.Error(err)
	}
}
