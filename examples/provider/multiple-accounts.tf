terraform {
  required_providers {
    eventnotify = {
      source  = "eventnotify/eventnotify"
      version = "~> 0.1.0"
    }
  }
}

# The default provider block: its account, addresses and credentials come
# from the EVENTNOTIFY_* environment variables.
provider "eventnotify" {}

# A second block for the audit account. Without its own credentials it uses
# the environment's, so that user needs access to both accounts; to sign in
# as another user, set username and api_token here, from ephemeral variables
# (a saved plan holds every other variable's value: see
# credentials-from-variables.tf).
provider "eventnotify" {
  alias      = "audit"
  account_id = var.audit_account_id
}

# In the default account.
resource "eventnotify_subscription" "process_errors" {
  event_name       = "PROCESS.EXECUTION"
  destination_type = "EVENT_STREAMS"
  log_level        = "ERROR"

  event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  event_streams_environment_name = "Production"
  event_streams_topic            = "process-alerts"
}

# In the audit account, through the aliased block.
resource "eventnotify_subscription" "audit_atom_status" {
  provider = eventnotify.audit

  event_name       = "ATOM.STATUS"
  destination_type = "EVENT_STREAMS"
  log_level        = "INFO"

  event_streams_environment_id   = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a"
  event_streams_environment_name = "Audit"
  event_streams_topic            = "atom-status-audit"
}

variable "audit_account_id" {
  type        = string
  description = "Account that holds the audit subscriptions."
}
