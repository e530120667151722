package auth_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// inputTag is an <input> and its type; a text-entry one is any type but
// these, which are not boxes to type in.
var (
	inputTag    = regexp.MustCompile(`<input\b[^>]*>`)
	inputType   = regexp.MustCompile(`\btype="([a-z-]+)"`)
	notTextFlds = map[string]bool{"hidden": true, "checkbox": true, "radio": true, "submit": true, "button": true, "reset": true, "image": true, "file": true}
	authInputs  = regexp.MustCompile(`\.auth-page main input\[type=([a-z-]+)\]`)
)

// TestPages_InputsOneWidth: every text-entry <input> type that a form of
// auth's pages uses (sign-in, account with its API key and webhook forms,
// account deletion, invites: auth/templates, the pages' only markup) is
// styled by the stylesheet's auth-page input rule, so all those boxes are as
// wide. Before, the webhook Address (type url) was missing from it and
// showed narrower than the key's Name above it. The stylesheet is web's
// static/style.css, the file served at /static/style.css (auth cannot
// import web); the account page's webhook form is only drawn when the
// Service's webhooks are wired, which auth's own tests do not do, so the
// templates are read rather than the served pages.
func TestPages_InputsOneWidth(t *testing.T) {
	css, err := os.ReadFile("../web/static/style.css")
	if err != nil {
		t.Fatal(err)
	}
	styled := map[string]bool{}
	for _, m := range authInputs.FindAllStringSubmatch(string(css), -1) {
		styled[m[1]] = true
	}
	files, err := filepath.Glob("templates/*.html")
	if err != nil || len(files) == 0 {
		t.Fatalf("auth/templates: %v %v", files, err)
	}
	used := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, form := range strings.Split(string(b), "<form")[1:] {
			form, _, _ = strings.Cut(form, "</form>")
			for _, tag := range inputTag.FindAllString(form, -1) {
				typ := "text"
				if m := inputType.FindStringSubmatch(tag); m != nil {
					typ = m[1]
				}
				if !notTextFlds[typ] {
					used[typ] = f
				}
			}
		}
	}
	if used["url"] == "" || used["text"] == "" || used["email"] == "" {
		t.Fatalf("the pages' forms use input types %v: want the key's name (text), the webhook address (url) and the sign-in address (email) among them", used)
	}
	for typ, f := range used {
		if !styled[typ] {
			t.Errorf("%s has an <input type=%q> in a form that the stylesheet's .auth-page main input rule does not size (it sizes %v)", f, typ, styled)
		}
	}
}
