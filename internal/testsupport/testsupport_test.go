package testsupport

import (
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// TestStart shows that every test user gets a JWT from a started mock, and a wrong password
// does not.
func TestStart(t *testing.T) {
	m := Start(t, mockserver.Config{})
	cases := []struct {
		name, user, password, otp string
		want                      int
	}{
		{"password", User, Password, "", http.StatusOK},
		{"api token", "PLATFORM_TOKEN." + TokenUser, APIToken, "", http.StatusOK},
		{"password and otp", OTPUser, OTPPassword, OTP, http.StatusOK},
		{"otp missing", OTPUser, OTPPassword, "", http.StatusUnauthorized},
		{"wrong password", User, "wrong", "", http.StatusUnauthorized},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, m.URL+"/auth/jwt/generate/"+Account, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.SetBasicAuth(tc.user, tc.password)
			if tc.otp != "" {
				req.Header.Set("X-Platform-OTP", tc.otp)
			}
			resp, err := m.HTTP.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("status %d, want %d", resp.StatusCode, tc.want)
			}
		})
	}
	if got := m.JWTFetches(); got != 3 {
		t.Errorf("JWTFetches() = %d, want 3", got)
	}
}

// TestNoProductionImports fails when a file of the module other than a _test.go file imports
// this package: test credentials and the test harness stay out of the provider.
func TestNoProductionImports(t *testing.T) {
	const self = "github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == self {
				t.Errorf("%s imports %s; only tests may", path, self)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no Go files found under the module root")
	}
}
