package netguard_test

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/internal/netguard"
)

// notPublic are addresses the guard must refuse, with or without loopback
// opened; the loopback ones are listed apart.
var (
	loopback  = []string{"127.0.0.1", "127.9.9.9", "::1", "::ffff:127.0.0.1"}
	notPublic = []string{"10.0.0.5", "172.16.0.1", "192.168.1.1", "169.254.169.254",
		"100.64.0.1", "100.127.255.254", "0.0.0.0", "0.1.2.3", "224.0.0.1", "255.255.255.255", "240.0.0.1", "192.0.2.1",
		"::", "fd00::1", "fc00::1", "fe80::1", "ff02::1", "::ffff:10.0.0.1", "::ffff:169.254.169.254",
		"64:ff9b::7f00:1", "2002:7f00:1::1", "2001:db8::1", "fec0::1", "198.18.0.1", "203.0.113.9", "::7f00:1", "::a00:1", "192.88.99.1"}
	public = []string{"93.184.216.34", "8.8.8.8", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8"}
)

func TestCheckAddr(t *testing.T) {
	for _, allow := range []bool{false, true} {
		for _, s := range notPublic {
			var ref *netguard.RefusedError
			if err := netguard.CheckAddr(netip.MustParseAddr(s), allow); !errors.As(err, &ref) {
				t.Errorf("allowLoopback=%v: %s allowed", allow, s)
			} else if ref.Why == "" || !strings.Contains(err.Error(), s) {
				t.Errorf("allowLoopback=%v: %s: error %q does not name the address and why", allow, s, err)
			}
		}
		for _, s := range public {
			if err := netguard.CheckAddr(netip.MustParseAddr(s), allow); err != nil {
				t.Errorf("allowLoopback=%v: %s refused: %v", allow, s, err)
			}
		}
	}
	for _, s := range loopback {
		var ref *netguard.RefusedError
		if err := netguard.CheckAddr(netip.MustParseAddr(s), false); !errors.As(err, &ref) || ref.Why != "loopback" {
			t.Errorf("%s: %v, want a loopback refusal", s, err)
		}
		if err := netguard.CheckAddr(netip.MustParseAddr(s), true); err != nil {
			t.Errorf("%s refused with loopback allowed: %v", s, err)
		}
	}
}

func TestControl(t *testing.T) {
	ctl := netguard.Control(false)
	if err := ctl("tcp4", "8.8.8.8:443", nil); err != nil {
		t.Errorf("public address refused: %v", err)
	}
	for _, addr := range []string{"10.0.0.1:80", "[::1]:443", "localhost:80", "8.8.8.8"} {
		if err := ctl("tcp", addr, nil); err == nil || !strings.Contains(err.Error(), "refusing to connect to") {
			t.Errorf("%s: %v", addr, err)
		}
	}
}

// The dialer refuses loopback before connecting unless loopback is allowed,
// shown against a real listener.
func TestDialer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	ctx := context.Background()
	var ref *netguard.RefusedError
	if c, err := netguard.Dialer(time.Second, false).DialContext(ctx, "tcp", ln.Addr().String()); !errors.As(err, &ref) {
		if c != nil {
			c.Close()
		}
		t.Errorf("loopback dialled without being allowed: %v", err)
	}
	c, err := netguard.Dialer(time.Second, true).DialContext(ctx, "tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("loopback allowed but refused: %v", err)
	}
	c.Close()
	// a name is judged by what it resolves to
	if c, err := netguard.Dialer(time.Second, false).DialContext(ctx, "tcp", "localhost:"+portOf(ln)); !errors.As(err, &ref) {
		if c != nil {
			c.Close()
		}
		t.Errorf("localhost dialled without loopback allowed: %v", err)
	}
}

func portOf(ln net.Listener) string {
	_, p, _ := net.SplitHostPort(ln.Addr().String())
	return p
}
