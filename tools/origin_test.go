package tools

import (
	"strings"
	"testing"
)

// TestRebaseOrigin: what rebase rewrites, and what it leaves alone.
func TestRebaseOrigin(t *testing.T) {
	for _, c := range []struct{ def, to, want string }{
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080", "http://localhost:8080 http://[::1]:8080"},
		{"http://127.0.0.1:8080", "http://localhost:8080", "http://127.0.0.1:8080 http://[::1]:8080"},
		{"http://localhost:8080", "http://[::1]:8080", "http://localhost:8080 http://127.0.0.1:8080"},
		{"https://launchdir.example", "https://launchdir.example", ""}, // a configured origin: nothing to do
	} {
		if got := strings.Join(rebaseFrom(c.def, c.to), " "); got != c.want {
			t.Errorf("rebaseFrom(%s, %s) = %q, want %q", c.def, c.to, got, c.want)
		}
	}
	in := `{"a":"http://127.0.0.1:8080/listings/x","b":"http://127.0.0.1:80800/x","c":"http://127.0.0.1:8080","d":"<a href=\"http://127.0.0.1:8080?q\">",` +
		`"e":"http://127.0.0.1:8080.evil.example/","f":"https://www.example.com/"}`
	want := `{"a":"http://localhost:8080/listings/x","b":"http://127.0.0.1:80800/x","c":"http://localhost:8080","d":"<a href=\"http://localhost:8080?q\">",` +
		`"e":"http://127.0.0.1:8080.evil.example/","f":"https://www.example.com/"}`
	if got := string(replaceOrigin([]byte(in), []byte("http://127.0.0.1:8080"), []byte("http://localhost:8080"))); got != want {
		t.Errorf("replaceOrigin:\n got %s\nwant %s", got, want)
	}
	if b := []byte("nothing here"); &replaceOrigin(b, []byte("http://x:1"), []byte("http://y:1"))[0] != &b[0] {
		t.Error("replaceOrigin copied a body it did not change")
	}
}
