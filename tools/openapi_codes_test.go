package tools

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/problem"
)

// TestOpenAPI_ProblemCodes: the Problem schema's code enum is every error
// code there is (the one list, domain.AllCodes, which is also every code of
// internal/problem's status table), so that a client generated from the
// document accepts a 405's method_not_allowed and a 410's gone.
func TestOpenAPI_ProblemCodes(t *testing.T) {
	t.Parallel()
	raw, err := OpenAPI(Catalog(), catSnapshotServer)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	var problemSchema struct {
		Properties map[string]struct {
			Enum []string `json:"enum"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(doc.Components.Schemas["Problem"], &problemSchema); err != nil {
		t.Fatal(err)
	}
	got := problemSchema.Properties["code"].Enum
	var want []string
	for _, c := range problem.Codes() {
		want = append(want, string(c))
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("Problem.code enum = %v, want every code of the status table %v", got, want)
	}
	listed := domain.AllCodes()
	slices.Sort(listed)
	if !slices.Equal(listed, problem.Codes()) {
		t.Errorf("domain.AllCodes() = %v, the status table has %v: add the code to both", listed, problem.Codes())
	}
}
