terraform {
  required_providers {
    restapi = {
      source  = "Mastercard/restapi"
      version = "~> 3.0"
    }
  }
}

variable "base_url" {
  type = string
}

variable "jwt" {
  type      = string
  sensitive = true
}

provider "restapi" {
  uri                  = "${var.base_url}/rest/v1"
  write_returns_object = true
  headers = {
    Authorization = "Bearer ${var.jwt}"
    Content-Type  = "application/json"
  }
}

resource "restapi_object" "atom_status" {
  path         = "/accounts/demo-account/subscriptions"
  id_attribute = "subscriptions/0/subscriptionId"
  data = jsonencode({
    subscriptions = [{
      eventName                   = "ATOM.STATUS"
      destinationType             = "EVENT_STREAMS"
      logLevel                    = "ERROR"
      eventStreamsEnvironment     = "env-1"
      eventStreamsEnvironmentName = "production"
      eventStreamsTopic           = "atom-status"
      enabled                     = true
    }]
  })
}
