package httpapi

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// Transport errors that another attempt cannot fix fail at once, each with what to check:
// a host name that does not resolve (*net.DNSError with IsNotFound), an https address whose
// server speaks something else, usually plain http (tls.RecordHeaderError, which net/http
// turns into http.ErrSchemeMismatch when the answer looks like HTTP), and a certificate that
// fails verification (x509.UnknownAuthorityError, x509.HostnameError,
// x509.CertificateInvalidError, *tls.CertificateVerificationError). Retrying them cost about
// 20 s with the provider's default of 5 retries, and ended in the same error. Nothing was
// sent in any of them: the request goes out only after the name resolved and the TLS
// handshake succeeded. A lookup that failed otherwise (a timeout, an unreachable resolver)
// may pass on the next attempt, and is retried.

// notRetried ends the hint of a permanent network error.
const notRetried = "Not retried: another attempt would fail the same way."

// networkFault is the kind of a transport error that another attempt cannot fix.
type networkFault int

const (
	faultNone        networkFault = iota // not one: retried as before
	faultNoSuchHost                      // the host name does not resolve
	faultNotTLS                          // the server at an https address does not speak TLS
	faultCertificate                     // the server's certificate fails verification
)

// permanentNetworkFault classifies a transport error: faultNone unless another attempt
// cannot fix it.
func permanentNetworkFault(err error) networkFault {
	var (
		dnsErr           *net.DNSError
		recordHeader     tls.RecordHeaderError
		unknownAuthority x509.UnknownAuthorityError
		hostname         x509.HostnameError
		invalidCert      x509.CertificateInvalidError
		verification     *tls.CertificateVerificationError
	)
	switch {
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return faultNoSuchHost
	case errors.Is(err, http.ErrSchemeMismatch) || errors.As(err, &recordHeader):
		return faultNotTLS
	case errors.As(err, &unknownAuthority) || errors.As(err, &hostname) ||
		errors.As(err, &invalidCert) || errors.As(err, &verification):
		return faultCertificate
	}
	return faultNone
}

// networkError is a transport error that another attempt cannot fix, with what to check.
type networkError struct {
	err   error
	fault networkFault
	hint  string
}

// Error is the underlying error's, then what to check.
func (e *networkError) Error() string { return e.err.Error() + ". " + e.hint }

// Unwrap returns the underlying error.
func (e *networkError) Unwrap() error { return e.err }

// Is makes errors.Is(err, ErrUntrustedCertificate) work for a certificate that failed
// verification.
func (e *networkError) Is(target error) bool {
	return target == ErrUntrustedCertificate && e.fault == faultCertificate
}

// explainNetworkError wraps a transport error of a request to rawURL that another attempt
// cannot fix with what to check, naming argument, the provider argument that holds the
// address (base_url or auth_url); any other error comes back as it is.
func explainNetworkError(err error, rawURL, argument string) error {
	fault := permanentNetworkFault(err)
	if fault == faultNone {
		return err
	}
	host := rawURL
	if u, parseErr := url.Parse(rawURL); parseErr == nil {
		host = u.Host
	}
	var hint string
	switch fault {
	case faultNoSuchHost:
		name := host
		if h, _, splitErr := net.SplitHostPort(host); splitErr == nil {
			name = h
		}
		hint = fmt.Sprintf("The host name %q does not resolve: check its spelling in %s (and, on this machine, "+
			"the name's entry in /etc/hosts or DNS). "+notRetried, name, argument)
	case faultNotTLS:
		hint = fmt.Sprintf("The server at %s does not speak https: %s names it with https://, but it answered in "+
			"plain http (or another protocol). Check the scheme and the port in %s: the service is reached with "+
			"https; http:// is accepted for this machine only, such as the mock server started without -tls. "+
			notRetried, host, argument, argument)
	case faultCertificate:
		hint = fmt.Sprintf("The server at %s presented %s. Check that %s names the service itself; if its "+
			"certificate is issued by an authority of your own (such as the mock server's -tls certificate), "+
			"make it trusted: on Linux, point SSL_CERT_FILE (%s) or SSL_CERT_DIR at it. "+notRetried,
			host, describeCertificate(err), argument, envSetting("SSL_CERT_FILE"))
	}
	return &networkError{err: err, fault: fault, hint: hint}
}

// describeCertificate names the certificate a verification error is about: whom it is for,
// who issued it and until when it is valid.
func describeCertificate(err error) string {
	var (
		cert             *x509.Certificate
		unknownAuthority x509.UnknownAuthorityError
		hostname         x509.HostnameError
		invalidCert      x509.CertificateInvalidError
		verification     *tls.CertificateVerificationError
	)
	switch {
	case errors.As(err, &verification) && len(verification.UnverifiedCertificates) > 0:
		cert = verification.UnverifiedCertificates[0]
	case errors.As(err, &unknownAuthority):
		cert = unknownAuthority.Cert
	case errors.As(err, &hostname):
		cert = hostname.Certificate
	case errors.As(err, &invalidCert):
		cert = invalidCert.Cert
	}
	if cert == nil {
		return "a certificate that could not be verified"
	}
	names := cert.DNSNames
	for _, ip := range cert.IPAddresses {
		names = append(names, ip.String())
	}
	if len(names) == 0 && cert.Subject.CommonName != "" {
		names = []string{cert.Subject.CommonName}
	}
	return fmt.Sprintf("a certificate for %s issued by %q, valid from %s until %s", strings.Join(names, ", "),
		cert.Issuer.String(), cert.NotBefore.UTC().Format("2006-01-02 15:04 MST"), cert.NotAfter.UTC().Format("2006-01-02 15:04 MST"))
}

// envSetting describes an environment variable for a message: its value, or that it is unset.
func envSetting(name string) string {
	if v, ok := os.LookupEnv(name); ok {
		return fmt.Sprintf("now %q", v)
	}
	return "now unset"
}
