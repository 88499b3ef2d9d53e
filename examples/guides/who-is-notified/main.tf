# The on-call team's subscriptions: PROCESS.EXECUTION from ERROR and ATOM.STATUS from WARNING,
# to the team's event streams topic. providers.tf (the adoption guide's) holds the provider.
variable "oncall_enabled" {
  type        = bool
  description = "Whether the on-call subscriptions are enabled. false pauses them: the plan then fails unless another enabled subscription hears PROCESS.EXECUTION at ERROR."
  default     = true
}

variable "managed_elsewhere" {
  type        = list(string)
  description = "Ids of the account's subscriptions that other configurations manage, such as another team's state outputs."
  default     = []
}

variable "paused_on_purpose" {
  type        = list(string)
  description = "Ids of subscriptions that are disabled on purpose: no_subscription_left_paused does not warn about them."
  default     = []
}

resource "eventnotify_subscription" "oncall" {
  for_each = {
    "PROCESS.EXECUTION" = "ERROR"
    "ATOM.STATUS"       = "WARNING"
  }

  event_name                     = each.key
  destination_type               = "EVENT_STREAMS"
  log_level                      = each.value
  enabled                        = var.oncall_enabled
  event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  event_streams_environment_name = "Production"
  event_streams_topic            = "oncall"
}

# 1. Someone hears PROCESS.EXECUTION at ERROR: the plan fails otherwise.
#
# The service's enabled subscriptions that it notifies for PROCESS.EXECUTION at ERROR, as they are
# before this plan is applied.
data "eventnotify_subscriptions" "process_errors" {
  notified_for = {
    event_name = "PROCESS.EXECUTION"
    log_level  = "ERROR"
  }
}

locals {
  managed_ids = concat([for s in eventnotify_subscription.oncall : s.id], var.managed_elsewhere)
  # After this plan: this configuration's subscriptions as planned (notifies reads their planned
  # event, level and enabled), and the service's others that the data source found.
  process_errors_heard_by = concat(
    [for s in eventnotify_subscription.oncall : s.event_streams_topic if provider::eventnotify::notifies(s, "PROCESS.EXECUTION", "ERROR")],
    [for s in data.eventnotify_subscriptions.process_errors.subscriptions :
    coalesce(s.event_streams_topic, s.destination_email, s.id) if !contains([for m in eventnotify_subscription.oncall : m.id], s.id)],
  )
}

output "process_errors_heard_by" {
  description = "The topics (or email addresses) that hear PROCESS.EXECUTION at ERROR once this plan is applied."
  value       = local.process_errors_heard_by

  precondition {
    condition     = length(local.process_errors_heard_by) > 0
    error_message = "No enabled subscription would be notified when PROCESS.EXECUTION fires at ERROR: enable the on-call subscriptions (oncall_enabled = true) or route the event elsewhere first."
  }
}

# 2. No subscription stays disabled: a deployment that pauses notifications and then fails leaves
# them paused. A warning: the plan goes on.
check "no_subscription_left_paused" {
  data "eventnotify_subscriptions" "paused" {
    enabled = false
  }

  assert {
    condition = length(setsubtract(data.eventnotify_subscriptions.paused.ids, var.paused_on_purpose)) == 0
    error_message = format("These subscriptions are still disabled: %s. If a deployment paused them and failed, enable them again (the eventnotify_enable_subscriptions action, or enabled = true where they are managed); list the ones paused on purpose in paused_on_purpose.",
    join(", ", [for s in data.eventnotify_subscriptions.paused.subscriptions : "${s.event_name} (${s.id})" if !contains(var.paused_on_purpose, s.id)]))
  }
}

# 3. Every subscription of the account is managed by a configuration: this one's, and the ones
# listed in managed_elsewhere. A warning that lists the others.
data "eventnotify_subscriptions" "all" {}

locals {
  unmanaged = [for s in data.eventnotify_subscriptions.all.subscriptions : s if !contains(local.managed_ids, s.id)]
}

check "every_subscription_is_managed" {
  assert {
    condition = length(local.unmanaged) == 0
    error_message = format("No configuration manages these subscriptions: %s. Import them, delete them, or list them in managed_elsewhere.",
    join(", ", [for s in local.unmanaged : "${s.event_name} at ${s.log_level} (${s.id})"]))
  }
}

output "unmanaged_subscription_ids" {
  description = "Ids of the account's subscriptions that no configuration manages."
  value       = local.unmanaged[*].id
}
