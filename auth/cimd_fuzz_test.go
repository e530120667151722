package auth

import (
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzCIMD reads any client_id and any bytes as a client ID metadata
// document. Properties: nothing panics; a client_id URL accepted is https
// with a host and a path and no query, fragment or user information; a
// document accepted yields a public client ("none") whose id is the URL, with
// 1 to 10 redirect URIs that each pass validRedirectURI, a name of 1 to 200
// characters without control characters, and a client_uri that is https or
// empty.
func FuzzCIMD(f *testing.F) {
	const id = "https://app.example/oauth/client.json"
	f.Add(id, []byte(`{"client_id":"`+id+`","client_name":"Example App","client_uri":"https://app.example",`+
		`"redirect_uris":["https://app.example/callback","http://127.0.0.1:33418/callback"],`+
		`"grant_types":["authorization_code","refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"none"}`))
	f.Add(id, []byte(`{"client_id":"`+id+`","redirect_uris":["http://localhost/cb"],"client_secret":"s"}`))
	f.Add(id, []byte(`{"client_id":"`+id+`","client_name":"\u202eppA","redirect_uris":["https://a.example/cb#x"]}`))
	f.Add("https://app.example/", []byte(`{"client_id":"https://app.example/","redirect_uris":["javascript:alert(1)"]}`))
	f.Add("https://user@app.example/a/../b?x=1", []byte(`[]`))
	f.Add(id, []byte(`{"client_id":"`+id+`","redirect_uris":"https://a.example/cb"} {"x":1}`))
	c := &cimdCache{a: &Auth{now: func() time.Time { return time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC) }}}
	f.Fuzz(func(t *testing.T, clientID string, body []byte) {
		u, err := validCIMDURL(clientID)
		if err == nil {
			if u.Scheme != "https" || u.Hostname() == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil || u.Path == "" || u.Path == "/" {
				t.Fatalf("accepted client_id %q (%#v)", clientID, u)
			}
		} else {
			clientID = id
			u, _ = url.Parse(id)
		}
		cl, err := c.parse(clientID, u, body)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty reason")
			}
			return
		}
		if cl.ID != clientID || cl.AuthMethod != authNone || cl.Kind != ClientMetadata {
			t.Fatalf("client %+v for %q", cl, clientID)
		}
		if n := len(cl.RedirectURIs); n < 1 || n > maxRedirectURIs {
			t.Fatalf("%d redirect URIs", n)
		}
		for _, r := range cl.RedirectURIs {
			if err := validRedirectURI(r); err != nil {
				t.Fatalf("redirect URI %q accepted: %v", r, err)
			}
		}
		if n := utf8.RuneCountInString(cl.Name); cl.Name == "" || n > maxClientName || hasControl(cl.Name) || strings.TrimSpace(cl.Name) != cl.Name {
			t.Fatalf("client name %q", cl.Name)
		}
		if cl.URI != "" {
			cu, err := url.Parse(cl.URI)
			if err != nil || cu.Scheme != "https" || cu.Host == "" || cu.User != nil {
				t.Fatalf("client_uri %q", cl.URI)
			}
		}
	})
}
