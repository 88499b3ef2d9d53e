package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestLevelsNotifiedFunctionRun holds the function's result and its error, which names log_level.
func TestLevelsNotifiedFunctionRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		level   string
		want    []string
		wantErr string
	}{
		{level: "INFO", want: []string{"INFO", "WARNING", "ERROR"}},
		{level: "WARNING", want: []string{"WARNING", "ERROR"}},
		{level: "ERROR", want: []string{"ERROR"}},
		{level: "Error", wantErr: `log_level: "Error" is not a log level`},
		{level: "", wantErr: `log_level: "" is not a log level`},
	}
	for _, tt := range tests {
		t.Run(tt.level, func(t *testing.T) {
			t.Parallel()
			resp := function.RunResponse{Result: function.NewResultData(types.ListUnknown(types.StringType))}
			(&LevelsNotifiedFunction{}).Run(context.Background(), function.RunRequest{
				Arguments: function.NewArgumentsData([]attr.Value{types.StringValue(tt.level)}),
			}, &resp)
			if tt.wantErr != "" {
				if resp.Error == nil || !strings.Contains(resp.Error.Text, tt.wantErr) || resp.Error.FunctionArgument == nil || *resp.Error.FunctionArgument != 0 {
					t.Fatalf("error %+v, want one about argument 0 with %q", resp.Error, tt.wantErr)
				}
				return
			}
			if resp.Error != nil {
				t.Fatalf("unexpected error: %s", resp.Error.Text)
			}
			want, _ := types.ListValueFrom(context.Background(), types.StringType, tt.want)
			if !resp.Result.Value().Equal(want) {
				t.Errorf("levels_notified(%q) = %s, want %s", tt.level, resp.Result.Value(), want)
			}
		})
	}
}
