//go:build e2e

package tools

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
)

// TestAuthConformance runs the conformance suite's authorization-server
// scenarios against our issuer: the RFC 8414 metadata scenario alone, then
// every scenario together, including the authorization code grant, whose browser step (sign-in by emailed link and
// consent) this test drives, as a person would, from the URL the CLI prints.
func TestAuthConformance(t *testing.T) {
	t.Parallel() // owns its server, data and processes (e2e tier: docs/testing.md)
	if os.Getenv(confSkipEnv) == "1" {
		t.Skipf("%s=1: MCP conformance suite skipped", confSkipEnv)
	}
	inst := confInstall(t)
	s := newOAuthStack(t, nil)
	issuer := s.srv.URL

	t.Run("authorization-server-metadata-endpoint", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		out, err := confNode(ctx, inst, "authorization", "--url", issuer, "--scenario", "authorization-server-metadata-endpoint")
		if err != nil || !strings.Contains(out, "0 failed, 0 warnings") {
			t.Fatalf("metadata scenario (err %v):\n%s", err, out)
		}
	})

	// Without --scenario the CLI runs every authorization-server scenario in
	// one run; the code grant reads the metadata the first scenario fetched.
	t.Run("all", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		redirect := fmt.Sprintf("http://127.0.0.1:%d/callback", port)
		reg, _ := json.Marshal(map[string]any{"client_name": "Conformance", "redirect_uris": []string{redirect},
			"token_endpoint_auth_method": "none", "grant_types": []string{"authorization_code", "refresh_token"}})
		res, err := http.Post(issuer+"/register", "application/json", strings.NewReader(string(reg)))
		if err != nil {
			t.Fatal(err)
		}
		var client struct {
			ClientID string `json:"client_id"`
		}
		json.NewDecoder(res.Body).Decode(&client)
		res.Body.Close()
		if res.StatusCode != 201 || client.ClientID == "" {
			t.Fatalf("register: %d", res.StatusCode)
		}

		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, inst.node, inst.cli, "authorization", "--url", issuer,
			"--client-id", client.ClientID, "-p", fmt.Sprint(port))
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(inst.node)+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1", "FORCE_COLOR=0")
		cmd.WaitDelay = 10 * time.Second
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = cmd.Stdout
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		authURL := regexp.MustCompile(`https?://\S+/authorize\?\S+`)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		found := ""
		for found == "" && sc.Scan() {
			line := confStripANSI([]byte(sc.Text()))
			out.WriteString(line + "\n")
			found = authURL.FindString(line)
		}
		if found == "" {
			cmd.Wait()
			t.Fatalf("the CLI printed no authorization URL:\n%s", out.String())
		}
		var consents atomic.Int32
		r, err := s.browser(t, "conformance@example.com", redirect, &consents)(ctx, &sdkauth.AuthorizationArgs{URL: found})
		if err != nil {
			t.Fatalf("browser step for %s: %v", found, err)
		}
		q := url.Values{"code": {r.Code}, "state": {r.State}}
		if r.Iss != "" {
			q.Set("iss", r.Iss)
		}
		// The CLI may print the URL before its callback server listens.
		var cb *http.Response
		for try := 0; try < 50; try++ {
			if cb, err = http.Get(redirect + "?" + q.Encode()); err == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if err != nil {
			t.Fatalf("callback to the CLI: %v", err)
		}
		cb.Body.Close()
		rest, _ := io.ReadAll(stdout)
		out.WriteString(confStripANSI(rest))
		werr := cmd.Wait()
		// Both scenarios must run and every check pass (metadata 2, code grant 1).
		m := regexp.MustCompile(`Total: (\d+) passed, 0 failed`).FindStringSubmatch(out.String())
		passed := 0
		if m != nil {
			passed, _ = strconv.Atoi(m[1])
		}
		if werr != nil || passed < 3 || !strings.Contains(out.String(), "authorization-code-grant: 1 passed, 0 failed") {
			t.Fatalf("code-grant scenario (exit %v):\n%s", werr, out.String())
		}
	})
}
