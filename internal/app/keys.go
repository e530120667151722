package app

import (
	"context"
	"errors"
	"log/slog"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/storage"
)

// Keys is what `launchdir apikey create` needs: the database (migrated) and
// auth over it. Unlike Open it builds no Service, search index, router or
// job runner, which an operator command that writes one key does not use.
type Keys struct {
	DB   *storage.DB
	Auth *auth.Auth
}

// OpenKeys checks cfg as Open does, opens the database and builds auth over
// it. Close the Keys when done.
func OpenKeys(_ context.Context, cfg Config, ad Adapters) (*Keys, error) {
	if ad.Now == nil {
		return nil, errors.New("app: Adapters.Now (the clock) is required")
	}
	if ad.Logger == nil {
		ad.Logger = slog.New(slog.DiscardHandler)
	}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	db, err := cfg.OpenDB(ad.Now, storage.WithLogger(ad.Logger))
	if err != nil {
		return nil, err
	}
	au, err := auth.New(auth.Config{Origin: cfg.PublicOrigin(), SiteName: cfg.Site().Name, Store: storage.NewAuthStore(db),
		Logger: ad.Logger, Now: db.Now})
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	return &Keys{DB: db, Auth: au}, nil
}

// Close closes the database.
func (k *Keys) Close() error { return k.DB.Close() }
