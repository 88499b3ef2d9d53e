package httpapi

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// maxLoggedBody bounds the part of a body that is logged at TRACE.
const maxLoggedBody = 64 << 10

// leveledLogger routes go-retryablehttp's log lines to tflog on the context of the call.
type leveledLogger struct{ ctx context.Context }

var _ retryablehttp.LeveledLogger = leveledLogger{}

// Error logs at ERROR.
func (l leveledLogger) Error(msg string, keysAndValues ...any) {
	tflog.Error(l.ctx, msg, kvFields(keysAndValues))
}

// Warn logs at WARN.
func (l leveledLogger) Warn(msg string, keysAndValues ...any) {
	tflog.Warn(l.ctx, msg, kvFields(keysAndValues))
}

// Info logs at INFO.
func (l leveledLogger) Info(msg string, keysAndValues ...any) {
	tflog.Info(l.ctx, msg, kvFields(keysAndValues))
}

// Debug logs at DEBUG.
func (l leveledLogger) Debug(msg string, keysAndValues ...any) {
	tflog.Debug(l.ctx, msg, kvFields(keysAndValues))
}

// kvFields turns alternating keys and values into tflog fields.
func kvFields(kv []any) map[string]any {
	fields := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		key, ok := kv[i].(string)
		if !ok {
			key = fmt.Sprint(kv[i])
		}
		v := kv[i+1]
		switch x := v.(type) {
		case error:
			v = errorLogText(x)
		case time.Duration:
			v = x.String()
		}
		fields[key] = v
	}
	if len(kv)%2 == 1 {
		fields["extra"] = fmt.Sprint(kv[len(kv)-1])
	}
	return fields
}

// maskSecrets returns ctx whose tflog logger masks the given values in messages and in field
// values: wherever they occur, or, for a secret shorter than minMaskedSecretLen, where a
// whole message or field value is the secret (masking each occurrence of "p" would log
// url="htt***://..."). Empty values are skipped: masking "" would mask everything.
func maskSecrets(ctx context.Context, secrets ...string) context.Context {
	anywhere := make([]string, 0, len(secrets))
	var whole []*regexp.Regexp
	for _, s := range secrets {
		if s == "" {
			continue
		}
		if maskedAsWholeValue(s) {
			if re, err := regexp.Compile(`^(?:` + regexp.QuoteMeta(s) + `)$`); err == nil {
				whole = append(whole, re)
				continue
			}
		}
		anywhere = append(anywhere, s)
	}
	if len(anywhere) > 0 {
		ctx = tflog.MaskAllFieldValuesStrings(ctx, anywhere...)
		ctx = tflog.MaskMessageStrings(ctx, anywhere...)
	}
	if len(whole) > 0 {
		ctx = tflog.MaskAllFieldValuesRegexes(ctx, whole...)
		ctx = tflog.MaskMessageRegexes(ctx, whole...)
	}
	return ctx
}

// logBody logs a service request or response body at TRACE, escaped by ServiceText's rules. It is never called for the JWT
// endpoint.
func logBody(ctx context.Context, msg, operation string, body []byte) {
	if len(body) == 0 {
		return
	}
	text := ServiceTextBytes(body, maxLoggedBody)
	tflog.Trace(ctx, msg, map[string]any{"operation": operation, "body": text, "bytes": len(body)})
}
