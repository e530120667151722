package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain/console"
)

var _ console.TeamStore = (*Store)(nil)

// TeamRole implements console.TeamStore.
func (s *Store) TeamRole(ctx context.Context, email string) (string, error) {
	var role string
	err := s.db.sql.QueryRowContext(ctx, `SELECT role FROM team_members WHERE site_id = ? AND `+s.db.eng.eqNoCase("email"), s.siteID, email).Scan(&role)
	if err == sql.ErrNoRows {
		return "", nil
	}
	return role, mapErr(err, "team member", email)
}

// TeamMembers implements console.TeamStore: admins first, then by email.
func (s *Store) TeamMembers(ctx context.Context) ([]console.TeamMember, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT email, role, granted_by, granted_at FROM team_members
		WHERE site_id = ? ORDER BY role = 'admin' DESC, email`, s.siteID)
	if err != nil {
		return nil, mapErr(err, "team", "")
	}
	defer rows.Close()
	var out []console.TeamMember
	for rows.Next() {
		var m console.TeamMember
		var at int64
		if err := rows.Scan(&m.Email, &m.Role, &m.GrantedBy, &at); err != nil {
			return nil, mapErr(err, "team", "")
		}
		m.GrantedAt = time.Unix(at, 0).UTC()
		out = append(out, m)
	}
	return out, mapErr(rows.Err(), "team", "")
}

// SetTeamRole implements console.TeamStore. The member is found whatever
// the case of email (team_members.email is NOCASE on SQLite, compared with
// lower() on PostgreSQL) and stored in lower case.
func (s *Store) SetTeamRole(ctx context.Context, email, role string, e console.AuditEntry) (string, error) {
	var before string
	match := `site_id = ? AND ` + s.db.eng.eqNoCase("email")
	err := s.db.inTx(ctx, func(tx *Tx) error {
		before = ""
		err := tx.QueryRowContext(ctx, `SELECT role FROM team_members WHERE `+match, s.siteID, email).Scan(&before)
		if err != nil && err != sql.ErrNoRows {
			return err
		}
		switch {
		case role == "":
			_, err = tx.ExecContext(ctx, `DELETE FROM team_members WHERE `+match, s.siteID, email)
		case before != "":
			_, err = tx.ExecContext(ctx, `UPDATE team_members SET email = ?, role = ?, granted_by = ?, granted_at = ? WHERE `+match,
				strings.ToLower(email), role, e.Actor, e.At.Unix(), s.siteID, email)
		default:
			_, err = tx.ExecContext(ctx, `INSERT INTO team_members (site_id, email, role, granted_by, granted_at) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (site_id, email) DO UPDATE SET role = excluded.role, granted_by = excluded.granted_by, granted_at = excluded.granted_at`,
				s.siteID, strings.ToLower(email), role, e.Actor, e.At.Unix())
		}
		if err != nil {
			return err
		}
		return s.writeAudit(ctx, tx, e)
	})
	return before, mapErr(err, "team member", email)
}

// WriteAudit implements console.TeamStore.
func (s *Store) WriteAudit(ctx context.Context, e console.AuditEntry) error {
	return s.writeAudit(ctx, s.db.sql, e)
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func (s *Store) writeAudit(ctx context.Context, x execer, e console.AuditEntry) error {
	_, err := x.ExecContext(ctx, `INSERT INTO audit_log (site_id, at, actor, action, target, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		s.siteID, e.At.Unix(), e.Actor, e.Action, e.Target, string(e.Before), string(e.After))
	return mapErr(err, "audit entry", e.Action)
}

// AuditLog implements console.TeamStore: newest first.
func (s *Store) AuditLog(ctx context.Context, f console.AuditFilter) ([]console.AuditEntry, int, error) {
	where, args := []string{"site_id = ?"}, []any{s.siteID}
	for col, v := range map[string]string{"actor": f.Actor, "action": f.Action, "target": f.Target} {
		if v != "" {
			where = append(where, s.db.eng.eqNoCase(col))
			args = append(args, v)
		}
	}
	if !f.Since.IsZero() {
		where, args = append(where, "at >= ?"), append(args, f.Since.Unix())
	}
	if !f.Until.IsZero() {
		where, args = append(where, "at < ?"), append(args, f.Until.Unix())
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := s.db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM audit_log WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, mapErr(err, "audit log", "")
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT id, at, actor, action, target, before, after FROM audit_log WHERE `+cond+
		` ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`, append(args, f.PerPage, (f.Page-1)*f.PerPage)...)
	if err != nil {
		return nil, 0, mapErr(err, "audit log", "")
	}
	defer rows.Close()
	var out []console.AuditEntry
	for rows.Next() {
		var e console.AuditEntry
		var at int64
		var before, after string
		if err := rows.Scan(&e.ID, &at, &e.Actor, &e.Action, &e.Target, &before, &after); err != nil {
			return nil, 0, mapErr(err, "audit log", "")
		}
		e.At = time.Unix(at, 0).UTC()
		if before != "" {
			e.Before = json.RawMessage(before)
		}
		if after != "" {
			e.After = json.RawMessage(after)
		}
		out = append(out, e)
	}
	return out, total, mapErr(rows.Err(), "audit log", "")
}
