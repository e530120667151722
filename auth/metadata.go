package auth

import (
	"encoding/json"
	"net/http"

	"github.com/launchdir/launchdir/domain"
)

// serverMetadata is the RFC 8414 authorization server metadata document.
// (go-sdk's oauthex.AuthServerMeta would serve empty jwks_uri fields.)
type serverMetadata struct {
	Issuer                                 string   `json:"issuer"`
	AuthorizationEndpoint                  string   `json:"authorization_endpoint"`
	TokenEndpoint                          string   `json:"token_endpoint"`
	RegistrationEndpoint                   string   `json:"registration_endpoint"`
	RevocationEndpoint                     string   `json:"revocation_endpoint"`
	ScopesSupported                        []string `json:"scopes_supported"`
	ResponseTypesSupported                 []string `json:"response_types_supported"`
	ResponseModesSupported                 []string `json:"response_modes_supported"`
	GrantTypesSupported                    []string `json:"grant_types_supported"`
	CodeChallengeMethodsSupported          []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethodsSupported      []string `json:"token_endpoint_auth_methods_supported"`
	RevocationEndpointAuthMethodsSupported []string `json:"revocation_endpoint_auth_methods_supported"`
	ClientIDMetadataDocumentSupported      bool     `json:"client_id_metadata_document_supported"`
	AuthorizationResponseIssParameter      bool     `json:"authorization_response_iss_parameter_supported"`
	ServiceDocumentation                   string   `json:"service_documentation,omitempty"`
}

// metadataDocument returns the server's metadata. Every URL is built from
// the configured origin, never from the request's Host.
func (a *Auth) metadataDocument() serverMetadata {
	methods := []string{authNone, authBasic, authPost}
	return serverMetadata{
		Issuer:                                 a.Issuer(),
		AuthorizationEndpoint:                  a.cfg.Origin + "/authorize",
		TokenEndpoint:                          a.cfg.Origin + "/token",
		RegistrationEndpoint:                   a.cfg.Origin + "/register",
		RevocationEndpoint:                     a.cfg.Origin + "/revoke",
		ScopesSupported:                        domain.AllScopes,
		ResponseTypesSupported:                 []string{"code"},
		ResponseModesSupported:                 []string{"query"},
		GrantTypesSupported:                    []string{grantCode, grantRefresh},
		CodeChallengeMethodsSupported:          []string{"S256"},
		TokenEndpointAuthMethodsSupported:      methods,
		RevocationEndpointAuthMethodsSupported: methods,
		ClientIDMetadataDocumentSupported:      true,
		AuthorizationResponseIssParameter:      true,
		ServiceDocumentation:                   a.cfg.Origin + domain.DocsPath,
	}
}

// metadata serves /.well-known/oauth-authorization-server.
func (s *server) metadata(w http.ResponseWriter, _ *http.Request) {
	body, _ := json.Marshal(s.a.metadataDocument())
	writePublicJSON(w, body)
}
