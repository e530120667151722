package main

import (
	"context"
	"flag"
	"fmt"
	"net"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/fetch"
)

// ownerConfig configures what the owner's area reads from outside: DNS for
// claims (pages go through the site reader's guard and --fetch-allow-loopback).
type ownerConfig struct {
	dnsResolver string
}

func ownerFlags(fs *flag.FlagSet, c *ownerConfig) {
	fs.StringVar(&c.dnsResolver, "dns-resolver", env("LAUNCHDIR_DNS_RESOLVER", ""),
		"host:port of the DNS server that checks DNS claims, e.g. 1.1.1.1:53 (env LAUNCHDIR_DNS_RESOLVER); empty: the system resolver")
}

// newOwning wires the owner's area: one-page reads of owners' sites (badge
// checks, meta and file claims) through the SSRF guard, DNS TXT lookups,
// mail and scheduled jobs.
func newOwning(c *ownerConfig, dc *draftConfig, runner *domain.Runner, mailer domain.Mailer) (*domain.Owning, error) {
	resolver, err := newResolver(c.dnsResolver)
	if err != nil {
		return nil, err
	}
	return &domain.Owning{
		Pages:     fetch.New(fetch.Options{AllowLoopback: dc.allowLoopback}),
		Resolver:  resolver,
		Mailer:    mailer,
		EnqueueAt: runner.EnqueueAt,
	}, nil
}

// newResolver returns the system resolver, or one that asks only the DNS
// server at addr (host:port).
func newResolver(addr string) (*net.Resolver, error) {
	if addr == "" {
		return net.DefaultResolver, nil
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, fmt.Errorf("--dns-resolver %q: want host:port, e.g. 1.1.1.1:53", addr)
	}
	var d net.Dialer
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}}, nil
}
