# A JWT for the audit account, generated from the credentials of the default
# provider block (Terraform 1.10 and later, OpenTofu 1.11 and later). Terraform
# keeps it in memory only: it is never written to a plan or state file. The
# token is handed out only when the credentials' owner says so: a default block
# that sets the credentials must also set allow_jwt_export = true (a child
# module cannot set it on a block it inherits); when the default block takes
# its credentials from the environment, the environment must also hold
# EVENTNOTIFY_ALLOW_JWT_EXPORT=true.
ephemeral "eventnotify_jwt" "audit" {
  account_id = var.audit_account_id
}

# A provider block that holds no credentials of its own, only the token. The
# service's tokens expire 5 minutes after they are issued, so this suits runs
# that finish within that time.
provider "eventnotify" {
  alias      = "audit"
  account_id = ephemeral.eventnotify_jwt.audit.account_id
  jwt        = ephemeral.eventnotify_jwt.audit.token
}

resource "eventnotify_subscription" "audit" {
  provider = eventnotify.audit

  event_name                     = "ATOM.STATUS"
  destination_type               = "EVENT_STREAMS"
  log_level                      = "INFO"
  event_streams_environment_id   = "env-audit"
  event_streams_environment_name = "Audit"
  event_streams_topic            = "audit-events"
}

variable "audit_account_id" {
  type        = string
  description = "Account that holds the audit subscriptions."
}
