package main

import (
	"maps"
	"testing"
)

// TestQuietSDKLogs: the SDKs' loggers are turned off only when no TF_LOG* variable is set.
func TestQuietSDKLogs(t *testing.T) {
	tests := []struct {
		name    string
		environ []string
		want    map[string]string
	}{
		{"no TF_LOG variable", []string{"HOME=/root", "TF_ACC=1"},
			map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "OFF"}},
		{"TF_LOG", []string{"TF_LOG=TRACE"}, map[string]string{}},
		{"TF_LOG_PROVIDER", []string{"TF_LOG_PROVIDER=DEBUG"}, map[string]string{}},
		{"TF_LOG_SDK_FRAMEWORK", []string{"TF_LOG_SDK_FRAMEWORK=TRACE"}, map[string]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string]string{}
			quietSDKLogs(tc.environ, func(k, v string) error { got[k] = v; return nil })
			if !maps.Equal(got, tc.want) {
				t.Errorf("set %v, want %v", got, tc.want)
			}
		})
	}
}
