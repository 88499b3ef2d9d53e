package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ function.Function = &LevelsNotifiedFunction{}

// LevelsNotifiedFunction is provider::eventnotify::levels_notified(log_level): the levels a
// subscription with that minimum level is notified at. It needs no service and no provider
// configuration.
type LevelsNotifiedFunction struct{}

// NewLevelsNotifiedFunction returns the levels_notified function.
func NewLevelsNotifiedFunction() function.Function { return &LevelsNotifiedFunction{} }

// Metadata names the function.
func (f *LevelsNotifiedFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "levels_notified"
}

// Definition describes the parameter and the result.
func (f *LevelsNotifiedFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "The log levels a subscription with a given minimum level is notified at",
		MarkdownDescription: "Returns the levels at which an event notifies a subscription whose minimum `log_level` is the " +
			"given one, lowest first, by the service's rule (`INFO` < `WARNING` < `ERROR`): `\"WARNING\"` gives " +
			"`[\"WARNING\", \"ERROR\"]`. " + functionsNeedNoService,
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "log_level",
				MarkdownDescription: "A subscription's minimum log level: " + enumWords(logLevels) + ".",
			},
		},
		Return: function.ListReturn{ElementType: types.StringType},
	}
}

// Run returns the levels, or an error naming log_level when it is not a level.
func (f *LevelsNotifiedFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var level string
	resp.Error = req.Arguments.Get(ctx, &level)
	if resp.Error != nil {
		return
	}
	levels, err := levelsNotified(level)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, "log_level: "+err.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, levels)
}
