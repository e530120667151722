package main

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// syncBuffer collects the server log while tests read it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServe_AdminAllowList runs serve with --admin-emails and signs in with
// emailed links (read from the log, where mail goes without SMTP): the listed
// account sees /admin, another signed-in account and a visitor get a 404.
func TestServe_AdminAllowList(t *testing.T) {
	t.Parallel()
	srv := startServe(t, "--admin-emails", " Team@Example.com , other-team@example.com")
	origin, logs := "http://127.0.0.1:"+srv.port, srv.logs
	linkRE := regexp.MustCompile(`/signin/email\?token=[A-Za-z0-9_-]+`)
	signIn := func(addr string) *http.Client {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar}
		before := len(linkRE.FindAllString(logs.String(), -1))
		res, err := c.PostForm(origin+"/signin", url.Values{"email": {addr}, "next": {"/admin"}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		links := linkRE.FindAllString(logs.String(), -1)
		if len(links) != before+1 {
			t.Fatalf("sign-in for %s mailed %d links", addr, len(links)-before)
		}
		res, err = c.Get(origin + links[len(links)-1])
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return c
	}
	admin := func(c *http.Client) (int, string) { return adminPage(t, c, origin) }
	if st, _ := admin(http.DefaultClient); st != 404 {
		t.Errorf("a visitor got /admin with %d, want 404", st)
	}
	if st, _ := admin(signIn("someone@example.com")); st != 404 {
		t.Errorf("a signed-in account not on the list got /admin with %d, want 404", st)
	}
	if st, body := admin(signIn("team@example.com")); st != 200 || !strings.Contains(body, "launch_bundle") {
		t.Errorf("the listed account got /admin with %d, want 200 and the price list", st)
	}
}
