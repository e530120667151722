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

// metadataDocument returns the server's metadata at origin (the request's,
// as WithOrigins chose it from the allowed origins; never a raw Host).
func metadataDocument(origin string) serverMetadata {
	methods := []string{authNone, authBasic, authPost}
	return serverMetadata{
		Issuer:                                 origin,
		AuthorizationEndpoint:                  origin + "/authorize",
		TokenEndpoint:                          origin + "/token",
		RegistrationEndpoint:                   origin + "/register",
		RevocationEndpoint:                     origin + "/revoke",
		ScopesSupported:                        domain.AllScopes,
		ResponseTypesSupported:                 []string{"code"},
		ResponseModesSupported:                 []string{"query"},
		GrantTypesSupported:                    []string{grantCode, grantRefresh},
		CodeChallengeMethodsSupported:          []string{"S256"},
		TokenEndpointAuthMethodsSupported:      methods,
		RevocationEndpointAuthMethodsSupported: methods,
		ClientIDMetadataDocumentSupported:      true,
		AuthorizationResponseIssParameter:      true,
		ServiceDocumentation:                   origin + domain.DocsPath,
	}
}

// metadata serves /.well-known/oauth-authorization-server.
func (s *server) metadata(w http.ResponseWriter, r *http.Request) {
	body, _ := json.Marshal(metadataDocument(s.a.origin(r.Context())))
	writePublicJSON(w, body)
}
