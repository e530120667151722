package web

import (
	"strings"
	"testing"
)

func TestRenderMarkdown(t *testing.T) {
	t.Parallel()
	src := "# Title\n\nSome **bold** text and a [link](https://example.com).\n\n" +
		"<script>alert(1)</script>\n\n<div onclick=\"x()\">raw</div>\n\n[bad](javascript:alert(1))\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
	out, err := renderMarkdown(src)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{"<h1", "Title</h1>", "<strong>bold</strong>", `<a href="https://example.com">link</a>`, "<table>"} {
		if !strings.Contains(got, want) {
			t.Errorf("rendered Markdown lacks %q:\n%s", want, got)
		}
	}
	for _, bad := range []string{"<script", "onclick", "<div", "javascript:"} {
		if strings.Contains(got, bad) {
			t.Errorf("rendered Markdown lets %q through:\n%s", bad, got)
		}
	}
}
