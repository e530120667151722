package domain_test

import (
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestSignWebhook_SpecVector: the Standard Webhooks specification's test
// vector (secret, id, timestamp, body -> signature), as its reference
// libraries check it.
func TestSignWebhook_SpecVector(t *testing.T) {
	got, err := domain.SignWebhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, []byte(`{"test": 2432232314}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("signature %s, want %s", got, want)
	}
}

// TestWebhookSecret_SealedAndOpened: with a server key the stored form is
// encrypted and opens to the secret; another key cannot open it.
func TestWebhookSecret_SealedAndOpened(t *testing.T) {
	s := &domain.Service{Hooks: &domain.Webhooking{Key: []byte("0123456789abcdef0123456789abcdef")}}
	secret := domain.NewWebhookSecret()
	stored, err := s.SealWebhookSecret(secret)
	if err != nil || stored == secret || len(stored) < 40 || stored[:5] != "enc1:" {
		t.Fatalf("sealed %q, %v", stored, err)
	}
	if got, err := s.OpenWebhookSecret(stored); err != nil || got != secret {
		t.Fatalf("opened %q, %v", got, err)
	}
	other := &domain.Service{Hooks: &domain.Webhooking{Key: []byte("fedcba9876543210fedcba9876543210")}}
	if _, err := other.OpenWebhookSecret(stored); err == nil {
		t.Fatal("another key opened the secret")
	}
}
