package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// The modes of what the mirror writes, set explicitly (not left to the umask), so that a mirror
// served by another user (a web server, a CI service) can read it.
const (
	fileMode = 0o644
	dirMode  = 0o755
)

// mkdirAll creates dir and its missing parents with dirMode; folders that exist are kept as
// they are.
func mkdirAll(dir string) error {
	info, err := os.Stat(dir)
	switch {
	case err == nil && info.IsDir():
		return nil
	case err == nil:
		return fmt.Errorf("%s is not a folder", dir)
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if parent := filepath.Dir(dir); parent != dir {
		if err := mkdirAll(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, dirMode); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return os.Chmod(dir, dirMode)
}

// writeFile writes path anew with fileMode: write fills a temporary file that this call creates
// (a name no one else holds) in path's folder, which is then renamed to path. A symbolic link
// or a file at path is replaced, never written through; nothing is left behind on failure.
func writeFile(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(fileMode); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// readRegular reads file, which must be a regular file (not a symbolic link, which may point
// anywhere); a missing file is fs.ErrNotExist.
func readRegular(file string) ([]byte, error) {
	info, err := os.Lstat(file)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s): the mirror reads and writes only its own files; remove it and run again", file, info.Mode().Type())
	}
	return os.ReadFile(file)
}
