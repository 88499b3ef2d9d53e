package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
)

// The environment variables that may hold the mock's secrets instead of its command line, which
// every local user can read in the process list.
const (
	envPassword = "EVENTNOTIFY_MOCK_PASSWORD"
	envAPIToken = "EVENTNOTIFY_MOCK_API_TOKEN"
)

// secretSources are the places a secret may come from besides its flag: a file (-password-file)
// and an environment variable. One secret comes from one place.
type secretSources struct {
	flagName string // "password": -password, -password-file
	env      string // EVENTNOTIFY_MOCK_PASSWORD
	file     string // the -<flagName>-file value
}

// registerFile adds the -<flagName>-file flag to fs.
func (s *secretSources) registerFile(fs *flag.FlagSet, what string) {
	fs.StringVar(&s.file, s.flagName+"-file", "", "`file` holding the "+what+" (one line), instead of -"+s.flagName+
		", which every local user can read in the process list; or set "+s.env)
}

// resolve returns the secret and where it came from (for the startup note; "" when from
// nowhere but the flag's default), given the flag's value and whether it was set. It fails
// when more than one source holds it, or the file cannot be read or is empty.
func (s secretSources) resolve(flagValue string, flagSet bool) (value, from string, err error) {
	var sources []string
	if flagSet {
		value, from = flagValue, "-"+s.flagName
		sources = append(sources, from)
	}
	if s.file != "" {
		b, err := os.ReadFile(s.file)
		if err != nil {
			return "", "", fmt.Errorf("-%s-file: %w", s.flagName, err)
		}
		value, from = strings.TrimRight(string(b), "\r\n"), "the file "+s.file
		if value == "" {
			return "", "", fmt.Errorf("-%s-file: %s is empty", s.flagName, s.file)
		}
		if strings.ContainsAny(value, "\r\n") {
			return "", "", fmt.Errorf("-%s-file: %s holds more than one line", s.flagName, s.file)
		}
		sources = append(sources, "-"+s.flagName+"-file")
	}
	if v := os.Getenv(s.env); v != "" {
		value, from = v, s.env
		sources = append(sources, s.env)
	}
	if len(sources) > 1 {
		return "", "", errors.New("the " + s.flagName + " is given by " + strings.Join(sources, " and ") + ": give it one way")
	}
	if len(sources) == 0 {
		return flagValue, "", nil
	}
	return value, from, nil
}
