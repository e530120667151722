package schemas

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

type fixturePage struct {
	Page    int `json:"page,omitempty" jsonschema:"minimum=1,maximum=1000,default=1"`
	PerPage int `json:"per_page,omitempty" jsonschema:"minimum=1,maximum=100,default=20"`
}

type fixtureTag struct {
	Name string `json:"name" jsonschema:"maxLength=40"`
}

type fixtureInput struct {
	Slug   string       `json:"slug" jsonschema:"maxLength=220,pattern=^[a-z0-9][a-z0-9-]{0\\,219}$" jsonschema_description:"A slug."`
	Sort   string       `json:"sort,omitempty" jsonschema:"enum=new,enum=old,default=new"`
	Flag   *bool        `json:"flag,omitempty" jsonschema:"default=true"`
	Tags   []fixtureTag `json:"tags,omitempty" jsonschema:"maxItems=3"`
	hidden string
	fixturePage
}

type fixtureNode struct {
	Name     string        `json:"name"`
	Children []fixtureNode `json:"children,omitempty"`
}

type fixtureOutput struct {
	Items []fixtureNode `json:"items"`
	Note  string        `json:"note,omitempty"`
}

func decode(t *testing.T, b json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestInput(t *testing.T) {
	b, err := Input(reflect.TypeFor[fixtureInput]())
	if err != nil {
		t.Fatal(err)
	}
	s := decode(t, b)
	if s["$schema"] != Draft || s["type"] != "object" || s["additionalProperties"] != false || s["$ref"] != nil || s["$id"] != nil {
		t.Errorf("root: %s", b)
	}
	props := s["properties"].(map[string]any)
	// Embedded structs are flattened; unexported fields are left out.
	for _, name := range []string{"slug", "sort", "flag", "tags", "page", "per_page"} {
		if props[name] == nil {
			t.Errorf("no property %s in %s", name, b)
		}
	}
	if len(props) != 6 {
		t.Errorf("%d properties, want 6", len(props))
	}
	slug := props["slug"].(map[string]any)
	if slug["pattern"] != "^[a-z0-9][a-z0-9-]{0,219}$" || slug["description"] != "A slug." || slug["maxLength"] != 220.0 {
		t.Errorf("slug: %v", slug)
	}
	if props["per_page"].(map[string]any)["default"] != 20.0 || props["flag"].(map[string]any)["default"] != true ||
		props["sort"].(map[string]any)["default"] != "new" {
		t.Errorf("defaults lost: %s", b)
	}
	if req := s["required"].([]any); len(req) != 1 || req[0] != "slug" {
		t.Errorf("required = %v, want [slug]", req)
	}
	// Nested input types stay in $defs and are closed too.
	tag := s["$defs"].(map[string]any)["fixtureTag"].(map[string]any)
	if tag["additionalProperties"] != false {
		t.Errorf("nested input type is open: %v", tag)
	}
	got := []string{}
	ps, err := Properties(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		got = append(got, p.Name+":"+p.Type+":"+p.ItemType)
	}
	if want := "slug:string:,sort:string:,flag:boolean:,tags:array:object,page:integer:,per_page:integer:"; strings.Join(got, ",") != want {
		t.Errorf("Properties = %s, want %s (schema order)", strings.Join(got, ","), want)
	}
}

func TestOutput(t *testing.T) {
	b, err := Output(reflect.TypeFor[*fixtureOutput]())
	if err != nil {
		t.Fatal(err)
	}
	s := decode(t, b)
	if s["type"] != "object" || s["additionalProperties"] != nil {
		t.Errorf("output root must be an open object: %s", b)
	}
	node := s["$defs"].(map[string]any)["fixtureNode"].(map[string]any)
	children := node["properties"].(map[string]any)["children"].(map[string]any)
	if children["items"].(map[string]any)["$ref"] != DefsPrefix+"fixtureNode" {
		t.Errorf("recursive type not referenced: %v", children)
	}
	if _, err := Output(reflect.TypeFor[[]string]()); err == nil {
		t.Error("a non-object output must be refused")
	}
}

func TestHoist(t *testing.T) {
	b, _ := Output(reflect.TypeFor[fixtureOutput]())
	root, defs, err := Hoist(b, func(n string) string { return "#/components/schemas/" + n + "X" })
	if err != nil {
		t.Fatal(err)
	}
	if root["$defs"] != nil || root["$schema"] != nil {
		t.Errorf("root keeps $defs or $schema: %v", root)
	}
	items := root["properties"].(map[string]any)["items"].(map[string]any)["items"].(map[string]any)
	if items["$ref"] != "#/components/schemas/fixtureNodeX" || defs["fixtureNodeX"] == nil {
		t.Errorf("refs not rewritten: %v, defs %v", items, defs)
	}
	out, _ := json.Marshal(defs)
	if strings.Contains(string(out), DefsPrefix) {
		t.Errorf("a $defs reference remains: %s", out)
	}
}

// TestSnapshot_Golden keeps the generator's output for the fixture types
// stable; a change in invopop/jsonschema shows up here first.
func TestSnapshot_Golden(t *testing.T) {
	for name, typ := range map[string]reflect.Type{"fixture_input": reflect.TypeFor[fixtureInput](), "fixture_output": reflect.TypeFor[fixtureOutput]()} {
		gen := Output
		if strings.HasSuffix(name, "input") {
			gen = Input
		}
		b, err := gen(typ)
		if err != nil {
			t.Fatal(err)
		}
		if b, err = Indent(b); err != nil {
			t.Fatal(err)
		}
		if err := Check(filepath.Join("testdata", name+".json"), b, *update); err != nil {
			t.Error(err)
		}
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "x.json")
	if err := Check(path, []byte("{}\n"), false); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing file: %v", err)
	}
	if err := Check(path, []byte("{\n  \"a\": 1\n}\n"), true); err != nil {
		t.Fatal(err)
	}
	if err := Check(path, []byte("{\n  \"a\": 1\n}\n"), false); err != nil {
		t.Errorf("same content: %v", err)
	}
	err := Check(path, []byte("{\n  \"a\": 2\n}\n"), false)
	if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "-update") {
		t.Errorf("drift: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "sub", "old.json"), []byte("{}"), 0o644)
	stale, err := Stale(filepath.Join(dir, "sub"), map[string]bool{"x.json": true})
	if err != nil || len(stale) != 1 || filepath.Base(stale[0]) != "old.json" {
		t.Errorf("Stale = %v, %v", stale, err)
	}
}
