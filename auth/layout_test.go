package auth_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestPages_InTheSiteLayout: auth's pages render in the site's one layout
// and error page (web/shell), as web's pages do: the site's header with its
// navigation (and "Your account" marked on the account pages) and search
// box, the footer, the title "<page> · <site>"; a problem is shown on the
// site's error page with its status. Before, auth had a layout and an error
// page of its own, without the search box and the error section.
func TestPages_InTheSiteLayout(t *testing.T) {
	e := newEnv(t, nil)
	resp, body := siDo(t, e.browser(), http.MethodGet, e.srv.URL+"/signin", nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	for _, want := range []string{
		"<title>Sign in · Launchdir Test</title>",
		`<body class="auth-page">`,
		`<meta name="referrer" content="no-referrer">`,
		`<a class="brand" href="/">Launchdir Test</a>`,
		`<a href="/account" aria-current="page">Your account</a>`,
		`<form class="search" action="/search" method="get" role="search">`,
		`<footer class="site">`,
		"<h1>Sign in to Launchdir Test</h1>",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the sign-in page lacks %s:\n%s", want, body)
		}
	}
	siWantPageHeaders(t, resp)

	// A problem: an application that is not registered.
	resp, body = siDo(t, e.browser(), http.MethodGet, e.srv.URL+"/authorize?response_type=code&client_id=nobody&redirect_uri=https://example.com/cb", nil, nil)
	siWantStatus(t, resp, body, http.StatusBadRequest)
	for _, want := range []string{
		`<section class="error">`,
		"is not registered with Launchdir Test",
		`<p class="status">HTTP 400</p>`,
		`<form class="search" action="/search"`,
		`<footer class="site">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the error page lacks %s:\n%s", want, body)
		}
	}
	if strings.Count(body, "<!doctype html>") != 1 || strings.Count(body, "<header") != 1 {
		t.Errorf("the error page is not one document with one header:\n%s", body)
	}
	siWantPageHeaders(t, resp)
}
