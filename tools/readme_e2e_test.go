package tools

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestREADME_CurlExamplesWork runs every curl command of the README's sh
// blocks against the real router, with the demo data, an API key for $KEY and
// a ready draft for $DRAFT_ID, and wants each to succeed: the bodies shown
// (update_draft's "fields" and its neighbours) are the ones the API takes.
func TestREADME_CurlExamplesWork(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	key := env.apiKey(t, "readme@example.com")
	call := restCaller(env, key)
	st, d := call(t, "submit_listing", map[string]any{"url": site.URL})
	if st != 201 {
		t.Fatalf("submit_listing: %d %v", st, d)
	}
	draftID := builtDraft(t, env, call, d["id"].(string))["id"].(string)
	vars := map[string]string{"KEY": key, "DRAFT_ID": draftID}

	cmds := readmeCurls(string(readme))
	var bodies int
	for _, c := range cmds {
		words, err := shellWords(c, vars)
		if err != nil {
			t.Errorf("README command %q: %v", c, err)
			continue
		}
		method, target, body, hdr := "GET", "", "", map[string]string{}
		for i := 1; i < len(words); i++ {
			switch w := words[i]; {
			case w == "-X" && i+1 < len(words):
				method, i = words[i+1], i+1
			case w == "-H" && i+1 < len(words):
				k, v, _ := strings.Cut(words[i+1], ":")
				hdr[k], i = strings.TrimSpace(v), i+1
			case (w == "-d" || w == "--data") && i+1 < len(words):
				body, i = words[i+1], i+1
				if method == "GET" {
					method = "POST"
				}
			case strings.HasPrefix(w, "-"):
				t.Errorf("README command %q: the test does not know the option %s", c, w)
			default:
				target = w
			}
		}
		path, ok := strings.CutPrefix(strings.TrimPrefix(target, "http://"), "localhost:8080")
		if !ok {
			t.Errorf("README command %q: the URL is not on localhost:8080", c)
			continue
		}
		var raw []byte
		if body != "" {
			raw, bodies = []byte(body), bodies+1
		}
		r := catDo(t, env, method, path, raw, hdr)
		if r.status/100 != 2 {
			t.Errorf("README: %s %s %s: %d %s", method, path, body, r.status, r.body)
		}
	}
	if len(cmds) < 5 || bodies == 0 {
		t.Errorf("README has %d curl commands, %d with a body; want the examples (update_draft's body among them)", len(cmds), bodies)
	}
	if st, d := call(t, "get_draft", map[string]any{"id": draftID}); st != 200 ||
		field(d, "tagline")["value"] != "Invoicing for freelancers" || field(d, "tagline")["state"] != "override" {
		t.Errorf("the README's update_draft did not reach the draft: %d %v", st, field(d, "tagline"))
	}
}

var readmeSh = regexp.MustCompile("(?s)```sh\n(.*?)```")

// readmeCurls returns the curl commands of the README's sh blocks, each with
// its continuation lines joined.
func readmeCurls(md string) []string {
	var out []string
	for _, b := range readmeSh.FindAllStringSubmatch(md, -1) {
		var cmd strings.Builder
		quote := rune(0)
		for _, line := range strings.SplitAfter(b[1], "\n") {
			if cmd.Len() == 0 && !strings.HasPrefix(strings.TrimSpace(line), "curl ") {
				continue
			}
			cmd.WriteString(line)
			for _, r := range line {
				if (r == '\'' || r == '"') && (quote == 0 || quote == r) {
					if quote == 0 {
						quote = r
					} else {
						quote = 0
					}
				}
			}
			if quote == 0 && !strings.HasSuffix(strings.TrimRight(line, "\n"), "\\") {
				out = append(out, strings.TrimSpace(cmd.String()))
				cmd.Reset()
			}
		}
	}
	return out
}

// shellWords splits a command as sh does for the README's needs: single and
// double quotes, backslash-newline, $NAME and "$NAME" from vars, and a
// trailing # comment.
func shellWords(cmd string, vars map[string]string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord, quote := false, rune(0)
	rs := []rune(cmd)
	expand := func(i int) (int, error) {
		j := i + 1
		for j < len(rs) && (rs[j] == '_' || rs[j] >= 'A' && rs[j] <= 'Z' || rs[j] >= '0' && rs[j] <= '9') {
			j++
		}
		v, ok := vars[string(rs[i+1:j])]
		if !ok {
			return 0, &unknownVar{string(rs[i+1 : j])}
		}
		w.WriteString(v)
		return j - 1, nil
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				w.WriteRune(r)
			}
		case quote == '"':
			switch r {
			case '"':
				quote = 0
			case '$':
				var err error
				if i, err = expand(i); err != nil {
					return nil, err
				}
			default:
				w.WriteRune(r)
			}
		case r == '\\' && i+1 < len(rs) && rs[i+1] == '\n':
			i++
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		case r == '#' && !inWord:
			i = len(rs)
		default:
			inWord = true
			switch r {
			case '\'', '"':
				quote = r
			case '$':
				var err error
				if i, err = expand(i); err != nil {
					return nil, err
				}
			default:
				w.WriteRune(r)
			}
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

type unknownVar struct{ name string }

func (e *unknownVar) Error() string { return "unknown variable $" + e.name }
