package storage

import (
	"context"
	"database/sql/driver"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/launchdir/launchdir/domain"
)

// pgConnector is pgx's connector with the server's refusals of a new
// connection turned into the unavailable error (refusedConn). A pool that
// needs one more connection while the server has no slot left (other
// processes, migrate, a person's psql holding the rest) gets SQLSTATE 53300
// from PostgreSQL; without this it reached callers as an internal error, a
// 500, where the server is only busy: the caller should try again shortly
// (503 with Retry-After, internal/problem).
type pgConnector struct{ driver.Connector }

func (c pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil && refusedForNow(err) {
		return nil, refusedConn{err}
	}
	return conn, err
}

// refusedForNow reports whether err is PostgreSQL refusing a connection for
// a while: too_many_connections (53300: max_connections, or a role's or a
// database's CONNECTION LIMIT, reached) or cannot_connect_now (57P03: the
// server is starting, stopping or in recovery).
func refusedForNow(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "53300" || pe.Code == "57P03")
}

// refusedMessage is what the caller of a refused call reads.
const refusedMessage = "The service is busy and could not reach its database; try again in a few seconds."

// refusedConn is a connection the server refused for now. It is, for
// errors.As, a *domain.Error with code unavailable, so every surface answers
// it as 503 with Retry-After, while its text and its chain keep the
// server's error for the log (mapErr passes it on as it is).
type refusedConn struct{ err error }

func (e refusedConn) Error() string {
	return "storage: connection refused by the database: " + e.err.Error()
}
func (e refusedConn) Unwrap() error { return e.err }

// As makes the error a *domain.Error with code unavailable.
func (e refusedConn) As(target any) bool {
	if de, ok := target.(**domain.Error); ok {
		*de = domain.Errorf(domain.EUnavailable, refusedMessage)
		return true
	}
	return false
}
