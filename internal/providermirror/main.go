// Command providermirror writes provider binaries into a provider mirror, the layout that
// `terraform providers mirror` writes: for each host, packed zips
// HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip that Terraform and OpenTofu
// read as a filesystem mirror (-plugin-dir, `terraform providers lock -fs-mirror`, a
// filesystem_mirror block), and the index.json and VERSION.json files of the provider network
// mirror protocol, so that the same folder served over HTTPS is a network mirror. `make mirror`
// runs it; what the folder already holds for other versions and platforms is kept. Every file
// is written anew, through a temporary file of its own renamed into place, never through a
// link, with modes a mirror can serve whatever the umask: 0644 files, 0755 folders (files.go).
//
// Usage:
//
//	go run ./internal/providermirror -dir DIR -version 0.1.0 -host registry.terraform.io \
//	    linux_amd64=path/to/terraform-provider-eventnotify_v0.1.0 ...
package main

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/mod/sumdb/dirhash"
)

// Namespace and type of the provider: source = "eventnotify/eventnotify".
const (
	namespace    = "eventnotify"
	providerType = "eventnotify"
	binaryPrefix = "terraform-provider-" + providerType
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "providermirror:", err)
		os.Exit(1)
	}
}

// hostList collects repeated -host flags.
type hostList []string

func (h *hostList) String() string     { return strings.Join(*h, ",") }
func (h *hostList) Set(v string) error { *h = append(*h, v); return nil }

func run(args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("providermirror", flag.ContinueOnError)
	dir := flags.String("dir", "", "the mirror's folder")
	version := flags.String("version", "", "the provider's version, such as 0.1.0")
	var hosts hostList
	flags.Var(&hosts, "host", "a registry host to write the provider under (repeat it)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *dir == "" || *version == "" || len(hosts) == 0 || flags.NArg() == 0 {
		return errors.New("usage: providermirror -dir DIR -version VERSION -host HOST [-host HOST] OS_ARCH=BINARY [OS_ARCH=BINARY]")
	}
	binaries := map[string]string{}
	for _, arg := range flags.Args() {
		platform, binary, ok := strings.Cut(arg, "=")
		if !ok || !platformPattern.MatchString(platform) {
			return fmt.Errorf("%q: want OS_ARCH=BINARY, such as linux_amd64=bin/%s_v%s", arg, binaryPrefix, *version)
		}
		binaries[platform] = binary
	}
	for _, host := range hosts {
		written, err := writeProvider(filepath.Join(*dir, host, namespace, providerType), *version, binaries)
		if err != nil {
			return err
		}
		for _, file := range written {
			_, _ = fmt.Fprintln(stdout, file)
		}
	}
	return nil
}

// platformPattern is a Go OS_ARCH pair, as Terraform names a platform.
var platformPattern = regexp.MustCompile(`^[a-z0-9]+_[a-z0-9]+$`)

// archive is one platform's entry in VERSION.json.
type archive struct {
	URL    string   `json:"url"`
	Hashes []string `json:"hashes,omitempty"`
}

// versionIndex is VERSION.json of the network mirror protocol.
type versionIndex struct {
	Archives map[string]archive `json:"archives"`
}

// providerIndex is index.json of the network mirror protocol.
type providerIndex struct {
	Versions map[string]struct{} `json:"versions"`
}

// writeProvider writes one zip per platform into dir (HOST/NAMESPACE/TYPE) and merges the
// version and its platforms into index.json and VERSION.json. It returns the files written.
func writeProvider(dir, version string, binaries map[string]string) ([]string, error) {
	if err := mkdirAll(dir); err != nil {
		return nil, err
	}
	var index providerIndex
	if err := readJSON(filepath.Join(dir, "index.json"), &index); err != nil {
		return nil, err
	}
	if index.Versions == nil {
		index.Versions = map[string]struct{}{}
	}
	index.Versions[version] = struct{}{}
	var versions versionIndex
	if err := readJSON(filepath.Join(dir, version+".json"), &versions); err != nil {
		return nil, err
	}
	if versions.Archives == nil {
		versions.Archives = map[string]archive{}
	}
	platforms := make([]string, 0, len(binaries))
	for platform := range binaries {
		platforms = append(platforms, platform)
	}
	sort.Strings(platforms)
	var written []string
	for _, platform := range platforms {
		name := fmt.Sprintf("%s_%s_%s.zip", binaryPrefix, version, platform)
		member := fmt.Sprintf("%s_v%s", binaryPrefix, version)
		if strings.HasPrefix(platform, "windows_") {
			member += ".exe"
		}
		path := filepath.Join(dir, name)
		if err := writeZip(path, member, binaries[platform]); err != nil {
			return nil, err
		}
		// h1: the hash Terraform and OpenTofu record in .terraform.lock.hcl, the same for the
		// zip and for its unpacked contents: here, of the binary as the zip's one member.
		hash, err := dirhash.Hash1([]string{member}, func(string) (io.ReadCloser, error) { return os.Open(binaries[platform]) })
		if err != nil {
			return nil, err
		}
		versions.Archives[platform] = archive{URL: name, Hashes: []string{hash}}
		written = append(written, path)
	}
	for file, value := range map[string]any{"index.json": index, version + ".json": versions} {
		if err := writeJSON(filepath.Join(dir, file), value); err != nil {
			return nil, err
		}
	}
	return append(written, filepath.Join(dir, "index.json"), filepath.Join(dir, version+".json")), nil
}

// writeZip writes path anew (writeFile), a zip holding one executable file, member, with the
// contents of binary.
func writeZip(path, member, binary string) error {
	src, err := os.Open(binary)
	if err != nil {
		return err
	}
	defer func() { _ = src.Close() }()
	return writeFile(path, func(out io.Writer) error {
		zw := zip.NewWriter(out)
		header := &zip.FileHeader{Name: member, Method: zip.Deflate}
		header.SetMode(0o755)
		w, err := zw.CreateHeader(header)
		if err != nil {
			return err
		}
		if _, err := io.Copy(w, src); err != nil {
			return err
		}
		return zw.Close()
	})
}

// readJSON decodes file, a regular file (readRegular), into v; a missing file leaves v as it is.
func readJSON(file string, v any) error {
	body, err := readRegular(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}

// writeJSON writes file anew (writeFile) holding v as indented JSON.
func writeJSON(file string, v any) error {
	body, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(file, func(w io.Writer) error {
		_, err := w.Write(append(body, '\n'))
		return err
	})
}
